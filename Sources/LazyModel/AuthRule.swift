/// One rule of a model's `@auth(rules: [...])`, kept exactly as written.
///
/// Mirrors the Amplify GraphQL Transformer v2 `AuthRule` input (docs: "Customize authorization
/// rules"). Options that were not written are `nil`, so a renderer can tell written defaults from
/// omitted ones.
public struct AuthRule: Sendable, Hashable {
  /// `allow:`.
  public enum Strategy: String, Sendable, Hashable {
    /// `allow: public`: anyone (API key or IAM unauthenticated role).
    case `public`
    /// `allow: private`: any signed-in user.
    case `private`
    /// `allow: owner`: the user named in the owner field (`ownerField:`, default `owner`).
    case owner
    /// `allow: groups`: members of static `groups:` or of the groups named in `groupsField:`.
    case groups
    /// `allow: custom`: a Lambda authorizer decides.
    case custom
  }
  /// `provider:`.
  public enum Provider: String, Sendable, Hashable {
    /// `provider: apiKey`.
    case apiKey
    /// `provider: iam`.
    case iam
    /// `provider: oidc` (an OpenID Connect provider).
    case oidc
    /// `provider: userPools` (Amazon Cognito user pools).
    case userPools
    /// `provider: identityPool` (Amazon Cognito identity pools).
    case identityPool
    /// `provider: function` (a Lambda authorizer).
    case function
  }
  /// One of `operations:`.
  public enum Operation: String, Sendable, Hashable {
    /// `create` mutations.
    case create
    /// `update` mutations.
    case update
    /// `delete` mutations.
    case delete
    /// Every read operation (`get`, `list`, `sync`, `listen`, `search`).
    case read
    /// `get` queries.
    case get
    /// `list` queries (and index queries).
    case list
    /// `sync` queries (DataStore delta sync).
    case sync
    /// Subscriptions.
    case listen
    /// `@searchable` search queries.
    case search
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
    allow: Strategy, provider: Provider? = nil, ownerField: String? = nil,
    identityClaim: String? = nil,
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
