import ModelVocabulary

/// One rule of a model's `@auth(rules: [...])` in the IR: the rule as written (the vocabulary the
/// runtime shares, ``ModelVocabulary/AuthRule``) and where it was written. Options not written are
/// `nil`, so renderers can tell a written default from an omitted one.
@dynamicMemberLookup
public struct AuthRuleDefinition: Sendable, Hashable {
  /// `allow:`.
  public typealias Strategy = ModelVocabulary.AuthRule.Strategy
  /// `provider:`.
  public typealias Provider = ModelVocabulary.AuthRule.Provider
  /// One of `operations:`.
  public typealias Operation = ModelVocabulary.AuthRule.Operation

  /// The rule as written.
  public var rule: ModelVocabulary.AuthRule
  /// Position of the rule object.
  public var location: SchemaLocation

  /// Creates a rule.
  public init(
    allow: Strategy, provider: Provider? = nil, ownerField: String? = nil, identityClaim: String? = nil,
    groupClaim: String? = nil, groups: [String]? = nil, groupsField: String? = nil, operations: [Operation]? = nil,
    location: SchemaLocation
  ) {
    rule = ModelVocabulary.AuthRule(
      allow: allow, provider: provider, ownerField: ownerField, identityClaim: identityClaim,
      groupClaim: groupClaim, groups: groups, groupsField: groupsField, operations: operations)
    self.location = location
  }

  /// The rule's options (`allow`, `provider`, `ownerField`, `identityClaim`, `groupClaim`,
  /// `groups`, `groupsField`, `operations`), read and written on ``rule``.
  public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ModelVocabulary.AuthRule, Value>)
    -> Value
  {
    get { rule[keyPath: keyPath] }
    set { rule[keyPath: keyPath] = newValue }
  }

  /// ``ModelVocabulary/AuthRule/effectiveOwnerField``.
  public var effectiveOwnerField: String { rule.effectiveOwnerField }
  /// ``ModelVocabulary/AuthRule/effectiveProvider``.
  public var effectiveProvider: Provider { rule.effectiveProvider }
  /// ``ModelVocabulary/AuthRule/grantedOperations``.
  public var grantedOperations: Set<Operation> { rule.grantedOperations }
  /// ``ModelVocabulary/AuthRule/roleNames``.
  public var roleNames: [String] { rule.roleNames }
}

extension AuthRuleDefinition {
  /// The AppSync directive of a provider (the auth transformer's `AUTH_PROVIDER_DIRECTIVE_MAP`):
  /// `apiKey` → `aws_api_key`, `iam`/`identityPool` → `aws_iam`, `oidc` → `aws_oidc`, `userPools` →
  /// `aws_cognito_user_pools`, `function` → `aws_lambda`.
  package static func appSyncDirectiveName(_ provider: Provider) -> String {
    switch provider {
    case .apiKey: return "aws_api_key"
    case .iam, .identityPool: return "aws_iam"
    case .oidc: return "aws_oidc"
    case .userPools: return "aws_cognito_user_pools"
    case .function: return "aws_lambda"
    }
  }

  /// The directive names of `providers`, in `AUTH_PROVIDER_DIRECTIVE_MAP` order, without
  /// duplicates (`iam` and `identityPool` share `aws_iam`).
  package static func appSyncDirectives(_ providers: some Sequence<Provider>) -> [String] {
    let names = Set(providers.map(appSyncDirectiveName))
    return ["aws_api_key", "aws_iam", "aws_oidc", "aws_cognito_user_pools", "aws_lambda"].filter {
      names.contains($0)
    }
  }
}
