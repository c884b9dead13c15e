import GraphQLSDL

/// `@auth(rules: [...])` (Amplify GraphQL Transformer v2, "Customize authorization rules"): every
/// rule is kept as written (strategy, provider, operations, ownerField, identityClaim, groupClaim,
/// groups, groupsField). Checks: unknown rule keys (MG003), unknown strategies, providers and
/// operations (MG014), and rules the transformer rejects (MG024): `groups` without `groups:` or
/// `groupsField:`, group options on other strategies, owner options on other strategies, and a
/// provider the strategy does not support (public: apiKey/iam/identityPool; private:
/// userPools/oidc/iam/identityPool; owner and groups: userPools/oidc; custom: function).
///
/// Model-level rules go into ``ModelDefinition/authRules``, field-level rules into
/// ``FieldDefinition/authRules``. Every owner field an `allow: owner` rule names (`ownerField:`,
/// default `owner`) that the model does not have is added as a nullable, read-only `String` field
/// (origin ``FieldDefinition/Origin/implicitOwner``), as the auth transformer's `addFieldsToObject`
/// does and as Amplify's model codegen mirrors in the generated models.
enum AuthRule {
  static let ruleKeys = [
    "allow", "provider", "ownerField", "identityClaim", "groupClaim", "groups", "groupsField", "operations",
  ]

  static let supportedProviders: [AuthRuleDefinition.Strategy: Set<AuthRuleDefinition.Provider>] = [
    .public: [.apiKey, .iam, .identityPool],
    .private: [.userPools, .oidc, .iam, .identityPool],
    .owner: [.userPools, .oidc],
    .groups: [.userPools, .oidc],
    .custom: [.function],
  ]

  static func apply(_ context: AnalysisContext) {
    for model in context.orderedModels {
      if let directive = model.directives.first(where: { $0.name.value == "auth" }) {
        model.authRules = rules(of: directive, model: model.name, context: context)
      }
      var fieldRules: [AuthRuleDefinition] = []
      for declared in model.declared {
        guard let directive = declared.directive("auth") else { continue }
        let rules = rules(of: directive, model: model.name, context: context)
        fieldRules += rules
        if var field = model.field(named: declared.ast.name.value) {
          field.authRules = rules
          model.update(field)
        }
      }
      addOwnerFields(to: model, rules: model.authRules + fieldRules)
      if !fieldRules.isEmpty { checkRequiredFieldsReadable(model, context: context) }
    }
  }

  /// The auth transformer rejects field-level rules that leave a required (`!`) declared field
  /// unreadable by a role that may read some other field, because such a role would get `null` for
  /// a non-null field ("When using field-level authorization rules you need to add rules to all of
  /// the model's required fields with at least read permissions"). Not checked when subscriptions
  /// are off (`@model(subscriptions: null)`), as the transformer does. A `private` user-pool (or
  /// OIDC) role that may read the field covers the other roles of that provider
  /// (`getReadRolesForField`).
  private static func checkRequiredFieldsReadable(_ model: WorkingModel, context: AnalysisContext) {
    if model.operations.subscriptions == .null { return }
    let readOperations: Set<AuthRuleDefinition.Operation> = [.get, .list, .sync, .listen, .search]
    func readers(_ rules: [AuthRuleDefinition]) -> Set<String> {
      Set(rules.filter { !$0.grantedOperations.isDisjoint(with: readOperations) }.flatMap { $0.roleNames })
    }
    let declared: [(FieldDefinition, DeclaredField)] = model.declared.compactMap { written in
      model.field(named: written.ast.name.value).map { ($0, written) }
    }
    let rulesByField = declared.map { $0.0.authRules.isEmpty ? model.authRules : $0.0.authRules }
    let readRoles = rulesByField.reduce(into: Set<String>()) { $0.formUnion(readers($1)) }
    for ((field, ast), rules) in zip(declared, rulesByField) where field.isRequired {
      let fullReaders = Set(
        rules.filter { $0.grantedOperations.isSuperset(of: readOperations) }.flatMap { $0.roleNames })
      var expected = readRoles
      for provider in ["userPools", "oidc"] where fullReaders.contains("\(provider):private") {
        expected = expected.filter { !$0.hasPrefix("\(provider):") || $0 == "\(provider):private" }
      }
      let missing = expected.subtracting(readers(rules)).sorted()
      guard !missing.isEmpty else { continue }
      context.report(
        .invalidAuthRule(
          model: model.name,
          reason: "required field `\(field.name)` is not readable by \(missing.joined(separator: ", ")); "
            + "give it field-level rules with read access for them, or make it nullable"),
        at: ast.ast.name.range)
    }
  }

  /// Appends `<ownerField>: String` for every owner field of `rules` the model lacks, in rule order
  /// (auth transformer `addFieldsToObject`: nullable `String`, appended after the other fields).
  private static func addOwnerFields(to model: WorkingModel, rules: [AuthRuleDefinition]) {
    for rule in rules where rule.allow == .owner {
      let name = rule.effectiveOwnerField
      guard model.field(named: name) == nil, !model.isUnresolved(name) else { continue }
      model.implicitFields.append(
        FieldDefinition(
          name: name, type: .scalar(.string), isRequired: false, isReadOnly: true, origin: .implicitOwner,
          location: rule.location))
    }
  }

  /// The rules of one `@auth`, reporting problems.
  static func rules(of directive: Directive, model: String, context: AnalysisContext) -> [AuthRuleDefinition] {
    guard let value = directive.argument(named: "rules")?.value else { return [] }
    let objects: [ConstValue] = value.objectFields != nil ? [value] : (value.listValues ?? [])
    return objects.compactMap { rule(from: $0, model: model, context: context) }
  }

  private static func rule(from object: ConstValue, model: String, context: AnalysisContext) -> AuthRuleDefinition? {
    guard let entries = object.objectFields else { return nil }
    func invalid(_ key: String, _ expected: String, _ range: SourceRange, suggestion: String? = nil) {
      context.report(
        .invalidArgumentValue(directive: "auth", argument: "rules.\(key)", expected: expected, suggestion: suggestion),
        at: range)
    }
    /// The closest valid value to a misspelt enum value, for the hint.
    func closest(_ value: ConstValue, among candidates: [String]) -> String? {
      name(value).flatMap { Naming.suggestion(for: $0, among: candidates) }
    }
    func name(_ value: ConstValue) -> String? { value.enumValueName ?? value.stringValue }
    func strings(_ value: ConstValue) -> [String]? {
      if let single = value.stringValue { return [single] }
      guard let list = value.listValues else { return nil }
      let strings = list.compactMap(\.stringValue)
      return strings.count == list.count ? strings : nil
    }

    var strategy: AuthRuleDefinition.Strategy?
    var rule = AuthRuleDefinition(allow: .public, location: object.range.schemaLocation)
    var valid = true
    for entry in entries {
      let key = entry.name.value
      switch key {
      case "allow":
        guard let text = name(entry.value), let parsed = AuthRuleDefinition.Strategy(rawValue: text) else {
          let values = AuthRuleDefinition.Strategy.allCases.map(\.rawValue)
          invalid(
            key, "one of \(values.joined(separator: ", "))", entry.value.range,
            suggestion: closest(entry.value, among: values))
          valid = false
          continue
        }
        strategy = parsed
      case "provider":
        guard let text = name(entry.value), let parsed = AuthRuleDefinition.Provider(rawValue: text) else {
          let values = AuthRuleDefinition.Provider.allCases.map(\.rawValue)
          invalid(
            key, "one of \(values.joined(separator: ", "))", entry.value.range,
            suggestion: closest(entry.value, among: values))
          valid = false
          continue
        }
        rule.provider = parsed
      case "ownerField", "identityClaim", "groupClaim", "groupsField":
        guard let text = entry.value.stringValue else {
          invalid(key, "a string", entry.value.range)
          valid = false
          continue
        }
        switch key {
        case "ownerField": rule.ownerField = text
        case "identityClaim": rule.identityClaim = text
        case "groupClaim": rule.groupClaim = text
        default: rule.groupsField = text
        }
      case "groups":
        guard let list = strings(entry.value) else {
          invalid(key, "a list of strings", entry.value.range)
          valid = false
          continue
        }
        rule.groups = list
      case "operations":
        let values = entry.value.listValues ?? [entry.value]
        let names = AuthRuleDefinition.Operation.allCases.map(\.rawValue)
        var operations: [AuthRuleDefinition.Operation] = []
        for value in values {
          if let operation = name(value).flatMap(AuthRuleDefinition.Operation.init(rawValue:)) {
            operations.append(operation)
          } else {
            // One report per bad element, at the element, with the closest operation.
            invalid(
              key, "a list of \(names.joined(separator: ", "))", value.range, suggestion: closest(value, among: names))
          }
        }
        guard operations.count == values.count else {
          valid = false
          continue
        }
        rule.operations = operations
      default:
        let suggestion = Naming.suggestion(for: key, among: ruleKeys)
        context.report(
          .unknownArgument(directive: "auth", argument: "rules.\(key)", suggestion: suggestion), at: entry.name.range)
        valid = false
      }
    }
    guard let strategy else {
      if valid { context.report(.missingArgument(directive: "auth", argument: "rules.allow"), at: object.range) }
      return nil
    }
    rule.allow = strategy
    guard valid else { return nil }

    func reject(_ reason: String) -> AuthRuleDefinition? {
      context.report(.invalidAuthRule(model: model, reason: reason), at: object.range)
      return nil
    }
    if strategy == .groups, rule.groups == nil, rule.groupsField == nil {
      return reject("`allow: groups` needs `groups:` or `groupsField:`")
    }
    if strategy != .groups, rule.groups != nil || rule.groupsField != nil || rule.groupClaim != nil {
      return reject("`groups:`, `groupsField:` and `groupClaim:` only apply to `allow: groups`")
    }
    if strategy != .owner, rule.ownerField != nil {
      return reject("`ownerField:` only applies to `allow: owner`")
    }
    if let provider = rule.provider, supportedProviders[strategy]?.contains(provider) != true {
      let supported = (supportedProviders[strategy] ?? []).map(\.rawValue).sorted().joined(separator: ", ")
      return reject("`allow: \(strategy.rawValue)` does not support `provider: \(provider.rawValue)` (use \(supported))")
    }
    return rule
  }
}
