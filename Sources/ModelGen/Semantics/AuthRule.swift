import GraphQLSDL

/// `@auth(rules: [...])` (Amplify GraphQL Transformer v2, "Customize authorization rules"): every
/// rule is kept as written (strategy, provider, operations, ownerField, identityClaim, groupClaim,
/// groups, groupsField). Checks: unknown rule keys (MG003), unknown strategies, providers and
/// operations (MG014), and rules the transformer rejects (MG024): `groups` without `groups:` or
/// `groupsField:`, group options on other strategies, owner options on other strategies, and a
/// provider the strategy does not support (public: apiKey/iam/identityPool; private:
/// userPools/oidc/iam/identityPool; owner and groups: userPools/oidc; custom: function).
///
/// Model-level rules go into the IR; field-level rules are checked but not recorded.
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
      for declared in model.declared {
        if let directive = declared.directive("auth") {
          _ = rules(of: directive, model: model.name, context: context)
        }
      }
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
