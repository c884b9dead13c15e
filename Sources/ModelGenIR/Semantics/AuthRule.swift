import GraphQLSDL
import ModelVocabulary

/// `@auth(rules: [...])` (Amplify GraphQL Transformer v2, "Customize authorization rules"): every
/// rule is kept as written (strategy, provider, operations, ownerField, identityClaim, groupClaim,
/// groups, groupsField). Checks: unknown rule keys (MG003), unknown strategies, providers and
/// operations (MG014), an empty `operations: []` or `groups: []` (MG068: the rule would grant
/// nothing), and rules the transformer rejects (MG024): `groups` without `groups:` or
/// `groupsField:`, group options on other strategies, owner options on other strategies, and a
/// provider the strategy does not support (public: apiKey/iam/identityPool; private:
/// userPools/oidc/iam/identityPool; owner and groups: userPools/oidc; custom: function); granular
/// read operations where the transformer refuses them (MG072: in a model field's rule, or beside
/// `read`).
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
        let rules = rules(
          of: directive, model: model.name, context: context,
          field: declared.ast.name.value)
        fieldRules += rules
        if var field = model.field(named: declared.ast.name.value) {
          field.authRules = rules
          model.update(field)
        }
      }
      addOwnerFields(to: model, rules: model.authRules + fieldRules, context: context)
      if !fieldRules.isEmpty { checkRequiredFieldsReadable(model, context: context) }
    }
  }

  /// The auth transformer rejects field-level rules that leave a required (`!`) declared field
  /// unreadable by a role that may read some other field, because such a role would get `null` for
  /// a non-null field ("When using field-level authorization rules you need to add rules to all of
  /// the model's required fields with at least read permissions"). Checked only while the
  /// subscription level is `on` (not for `subscriptions: null` or `{level: off | public}`), as the
  /// transformer does (`subscriptionLevel === SubscriptionLevel.on`). A `private` user-pool (or
  /// OIDC) role that may read the field covers the other roles of that provider
  /// (`getReadRolesForField`).
  private static func checkRequiredFieldsReadable(_ model: WorkingModel, context: AnalysisContext) {
    if model.operations.subscriptionLevel != "on" { return }
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
          reason: "required field `\(DiagnosticText.shortened(field.name))` is not readable by "
            + "\(missing.joined(separator: ", ")); give it field-level rules with read access for them, or make it nullable"
        ),
        at: ast.ast.name.range)
    }
  }

  /// Appends `<ownerField>: String` for every owner field of `rules` the model lacks, in rule order
  /// (auth transformer `addFieldsToObject`: nullable `String`, appended after the other fields).
  /// An owner field named like an implicit timestamp is MG074 at the `timestamps:` value (the
  /// owner would silently become an `AWSDateTime`).
  private static func addOwnerFields(
    to model: WorkingModel, rules: [AuthRuleDefinition], context: AnalysisContext
  ) {
    var reported: Set<String> = []
    for rule in rules where rule.allow == .owner {
      let name = rule.effectiveOwnerField
      if model.field(named: name)?.origin == .timestamp, let timestamp = model.timestamp(named: name),
        reported.insert(name).inserted
      {
        context.report(
          .timestampNameConflict(
            model: model.name, timestamp: timestamp.timestamp, name: name,
            other: "the owner field of an `{allow: owner}` rule", kind: .ownerField),
          at: timestamp.range)
      }
      guard model.field(named: name) == nil, !model.isUnresolved(name) else { continue }
      model.implicitFields.append(
        FieldDefinition(
          name: name, type: .scalar(.string), isRequired: false, isReadOnly: true, origin: .implicitOwner,
          location: rule.location))
    }
  }

  /// The rules of one `@auth`, reporting problems; `@auth(rules: [])` is MG066 at the empty list
  /// (the transformer's `validateRules`: "does not have any auth rules"). With `field` (the
  /// `@auth` of a model's field), a rule naming a granular read operation is MG072; at either
  /// level, so is one naming a granular read operation beside `read`. Such a rule is kept (as
  /// written), so that no later check reports a consequence of it.
  static func rules(
    of directive: Directive, model: String, context: AnalysisContext, field: String? = nil
  ) -> [AuthRuleDefinition] {
    written(of: directive, model: model, context: context).map { rule, object in
      checkReadOperations(
        of: object, owner: field.map { "\(model).\($0)" } ?? model, fieldLevel: field != nil, context: context)
      return rule
    }
  }

  /// The granular read operations (transformer v2's `READ_MODEL_OPERATIONS` but `read`).
  static let granularReadOperations: Set<String> = ["get", "list", "sync", "listen", "search"]

  /// MG072 for a rule whose `operations:` the auth transformer's `getAuthDirectiveRules` refuses,
  /// in its order: with `fieldLevel`, any granular read operation ("'get' operation is not
  /// allowed at the field level."); otherwise a granular read operation beside `read` ("'get'
  /// operations are specified in addition to 'read'"). Reported at the first such operation.
  private static func checkReadOperations(
    of object: ConstValue, owner: String, fieldLevel: Bool, context: AnalysisContext
  ) {
    guard let entry = object.objectFields?.first(where: { $0.name.value == "operations" }) else { return }
    let values = entry.value.listValues ?? [entry.value]
    let names = values.map { $0.enumValueName ?? $0.stringValue }
    let granular = zip(values, names).filter { _, name in name.map(granularReadOperations.contains) ?? false }
    guard let first = granular.first, fieldLevel || names.contains("read") else { return }
    context.report(
      .refusedReadOperations(owner: owner, operations: granular.compactMap(\.1), besideRead: !fieldLevel),
      at: first.0.range)
  }

  /// The rules of an `@auth` on the root field `field` (`Query.report`), with the checks of the
  /// auth transformer for fields of `Query`, `Mutation` and `Subscription` (`validateFieldRules`,
  /// `authNonModelConfig`): a rule naming `operations:` is MG065 at that entry; an owner rule or
  /// a `groupsField:` rule is MG067 at the rule, since the transformer keeps only the static
  /// rules of a field outside a model (its source is empty: there is no record to own).
  static func rootFieldRules(of directive: Directive, field: String, context: AnalysisContext) -> [AuthRuleDefinition] {
    written(of: directive, model: field, context: context).compactMap { rule, object in
      if let operations = object.objectFields?.first(where: { $0.name.value == "operations" }) {
        context.report(.operationsOnRootFieldAuthRule(field: field), at: operations.name.range)
        return nil
      }
      if rule.allow == .owner || rule.groupsField != nil {
        context.report(
          .recordRuleOnRootField(field: field, strategy: rule.allow == .owner ? "owner" : "groupsField"),
          at: object.range)
        return nil
      }
      return rule
    }
  }

  /// Each valid rule of one `@auth` with the object it is written as.
  private static func written(
    of directive: Directive, model: String, context: AnalysisContext
  ) -> [(rule: AuthRuleDefinition, object: ConstValue)] {
    guard let value = directive.argument(named: "rules")?.value else { return [] }
    if let list = value.listValues, list.isEmpty {
      context.report(.emptyAuthRules(owner: model), at: value.range)
      return []
    }
    let objects: [ConstValue] = value.objectFields != nil ? [value] : (value.listValues ?? [])
    return objects.compactMap { object in rule(from: object, model: model, context: context).map { ($0, object) } }
  }

  private static func rule(from object: ConstValue, model: String, context: AnalysisContext) -> AuthRuleDefinition? {
    guard let entries = object.objectFields else { return nil }
    let reader = RuleReader(context: context, owner: model)
    var strategy: AuthRuleDefinition.Strategy?
    var rule = AuthRuleDefinition(allow: .public, location: object.range.schemaLocation)
    var valid = true
    for entry in entries {
      guard entry.name.value == "allow" else {
        valid = reader.read(entry, into: &rule.rule) && valid
        continue
      }
      if let parsed = reader.enumValue(entry.value, key: "allow", of: AuthRuleDefinition.Strategy.self) {
        strategy = parsed
      } else {
        valid = false
      }
    }
    guard let strategy else {
      if valid { context.report(.missingArgument(directive: "auth", argument: "rules.allow"), at: object.range) }
      return nil
    }
    rule.allow = strategy
    guard valid else { return nil }
    if let reason = inconsistency(of: rule.rule) {
      context.report(.invalidAuthRule(model: model, reason: reason), at: object.range)
      return nil
    }
    return rule
  }

  /// Why the transformer rejects a rule whose options are each valid, or `nil`.
  static func inconsistency(of rule: ModelVocabulary.AuthRule) -> String? {
    let strategy = rule.allow
    if strategy == .groups, rule.groups == nil, rule.groupsField == nil {
      return "`allow: groups` needs `groups:` or `groupsField:`"
    }
    if strategy != .groups, rule.groups != nil || rule.groupsField != nil || rule.groupClaim != nil {
      return "`groups:`, `groupsField:` and `groupClaim:` only apply to `allow: groups`"
    }
    if strategy != .owner, rule.ownerField != nil {
      return "`ownerField:` only applies to `allow: owner`"
    }
    if let provider = rule.provider, supportedProviders[strategy]?.contains(provider) != true {
      let supported = (supportedProviders[strategy] ?? []).map(\.rawValue).sorted().joined(separator: ", ")
      return "`allow: \(strategy.rawValue)` does not support `provider: \(provider.rawValue)` (use \(supported))"
    }
    return nil
  }
}

/// Reads the options of one `@auth` rule object, reporting each bad value (MG014, with the
/// closest valid value as the hint) or unknown key (MG003) where it is written.
private struct RuleReader {
  let context: AnalysisContext
  /// Whose `@auth` the rule is (`Post`, `Post.title`, `Query.report`), for MG068.
  let owner: String

  /// Where a string option (`ownerField`, `identityClaim`, `groupClaim`, `groupsField`) goes.
  static func stringOption(_ key: String) -> WritableKeyPath<ModelVocabulary.AuthRule, String?>? {
    switch key {
    case "ownerField": return \.ownerField
    case "identityClaim": return \.identityClaim
    case "groupClaim": return \.groupClaim
    case "groupsField": return \.groupsField
    default: return nil
    }
  }

  /// Reads one entry other than `allow:` into `rule`; `false` when it was reported.
  func read(_ entry: ConstObjectField, into rule: inout ModelVocabulary.AuthRule) -> Bool {
    let key = entry.name.value
    if let path = Self.stringOption(key) {
      guard let text = entry.value.stringValue else {
        let example = ["ownerField": "owner", "identityClaim": "cognito:username", "groupClaim": "cognito:groups"][key]
        return invalid(
          key, "a string", entry.value.range,
          fix: "write it in double quotes: `\(key): \"\(example ?? "groups")\"`")
      }
      rule[keyPath: path] = text
      return true
    }
    switch key {
    case "provider":
      guard let provider = enumValue(entry.value, key: key, of: AuthRuleDefinition.Provider.self) else { return false }
      rule.provider = provider
    case "groups":
      guard let list = strings(entry.value) else {
        return invalid(
          key, "a list of strings", entry.value.range,
          fix: "write the group names in double quotes: `groups: [\"Admin\"]`")
      }
      guard !list.isEmpty else { return empty(entry) }
      rule.groups = list
    case "operations":
      if entry.value.listValues?.isEmpty == true { return empty(entry) }
      guard let operations = operations(entry.value) else { return false }
      rule.operations = operations
    default:
      let suggestion = Naming.suggestion(for: key, among: AuthRule.ruleKeys)
      context.report(
        .unknownArgument(
          directive: "auth", argument: "rules.\(key)", suggestion: suggestion, arguments: AuthRule.ruleKeys),
        at: entry.name.range)
      return false
    }
    return true
  }

  /// An enum option (`allow:`, `provider:`) written as an enum value or a string.
  func enumValue<Value: RawRepresentable & CaseIterable>(
    _ value: ConstValue, key: String, of type: Value.Type
  ) -> Value? where Value.RawValue == String {
    if let parsed = name(value).flatMap(Value.init(rawValue:)) { return parsed }
    let values = Value.allCases.map(\.rawValue)
    _ = invalid(
      key, "one of \(values.joined(separator: ", "))", value.range, suggestion: closest(value, among: values),
      fix: "write one of \(values.joined(separator: ", ")) without quotes (`\(key): \(values[0])`)")
    return nil
  }

  /// `operations:`: one report per bad element, at the element, with the closest operation.
  func operations(_ value: ConstValue) -> [AuthRuleDefinition.Operation]? {
    let values = value.listValues ?? [value]
    let names = AuthRuleDefinition.Operation.allCases.map(\.rawValue)
    var operations: [AuthRuleDefinition.Operation] = []
    for value in values {
      if let operation = name(value).flatMap(AuthRuleDefinition.Operation.init(rawValue:)) {
        operations.append(operation)
      } else {
        _ = invalid(
          "operations", "a list of \(names.joined(separator: ", "))", value.range,
          suggestion: closest(value, among: names),
          fix: "list operations of \(names.joined(separator: ", ")) without quotes (`operations: [create, read]`)")
      }
    }
    return operations.count == values.count ? operations : nil
  }

  /// Reports MG068 at the empty list of `entry` (`operations: []`, `groups: []`); always `false`.
  func empty(_ entry: ConstObjectField) -> Bool {
    context.report(.emptyAuthRuleList(owner: owner, option: entry.name.value), at: entry.value.range)
    return false
  }

  /// Reports MG014 for `rules.<key>`; always `false`.
  func invalid(_ key: String, _ expected: String, _ range: SourceRange, suggestion: String? = nil, fix: String)
    -> Bool
  {
    context.report(
      .invalidArgumentValue(
        directive: "auth", argument: "rules.\(key)", expected: expected, suggestion: suggestion, fix: fix),
      at: range)
    return false
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
}
