/// One rule of a model's `@auth(rules: [...])`, kept exactly as written.
///
/// Mirrors the Amplify GraphQL Transformer v2 `AuthRule` input (docs: "Customize authorization
/// rules"). Options that were not written are `nil`, so a renderer can tell written defaults from
/// omitted ones.
public struct AuthRule: Sendable, Hashable {
  /// `allow:`.
  public enum Strategy: String, Sendable, Hashable {
    case `public`, `private`, owner, groups, custom
  }
  /// `provider:`.
  public enum Provider: String, Sendable, Hashable {
    case apiKey, iam, oidc, userPools, identityPool, function
  }
  /// One of `operations:`.
  public enum Operation: String, Sendable, Hashable {
    case create, update, delete, read, get, list, sync, listen, search
  }

  /// `allow:`.
  public var allow: Strategy
  /// `provider:`, or `nil` when not written.
  public var provider: Provider?
  /// `ownerField:`, or `nil`.
  public var ownerField: String?
  /// `identityClaim:`, or `nil`.
  public var identityClaim: String?
  /// `groupClaim:`, or `nil`.
  public var groupClaim: String?
  /// Static `groups:`, or `nil`.
  public var groups: [String]?
  /// `groupsField:` (dynamic groups), or `nil`.
  public var groupsField: String?
  /// `operations:`, or `nil` when not written (all operations).
  public var operations: [Operation]?

  /// Creates a rule.
  public init(
    allow: Strategy, provider: Provider? = nil, ownerField: String? = nil, identityClaim: String? = nil,
    groupClaim: String? = nil, groups: [String]? = nil, groupsField: String? = nil,
    operations: [Operation]? = nil
  ) {
    self.allow = allow
    self.provider = provider
    self.ownerField = ownerField
    self.identityClaim = identityClaim
    self.groupClaim = groupClaim
    self.groups = groups
    self.groupsField = groupsField
    self.operations = operations
  }
}
