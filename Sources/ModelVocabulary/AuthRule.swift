/// One rule of a model's `@auth(rules: [...])`, kept exactly as written: the one vocabulary of
/// authorization rules the generator's IR and the runtime's `ModelSchema` share (a new strategy,
/// provider or operation is added here, once).
///
/// Mirrors the Amplify GraphQL Transformer v2 `AuthRule` input (docs: "Customize authorization
/// rules"). Options that were not written are `nil`, so a renderer can tell written defaults from
/// omitted ones. Thread-safety: a `Sendable` value.
public struct AuthRule: Sendable, Hashable {
  /// `allow:`.
  public enum Strategy: String, Sendable, Hashable, CaseIterable {
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
  public enum Provider: String, Sendable, Hashable, CaseIterable {
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
  public enum Operation: String, Sendable, Hashable, CaseIterable {
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

extension AuthRule {
  /// The rule with every default resolved, as Amplify's generated model metadata carries it
  /// (amplify-codegen `appsync-modelgen-plugin/src/utils/process-auth.ts`, `processAuthDirective`):
  /// - every strategy: `provider` defaults to ``effectiveProvider`` (`public` → `apiKey`,
  ///   `private`/`owner`/`groups` → `userPools`, `custom` → `function`), and `operations` to
  ///   `[create, update, delete, read]` when not written.
  /// - `owner`: `ownerField` defaults to `owner`; `identityClaim` to `cognito:username` (the
  ///   written `username` and `sub::username` also become `cognito:username`, which is what the
  ///   auth transformer v2 compares; any other claim, `sub` for instance, stays).
  /// - `groups`: `groupClaim` defaults to `cognito:groups`; a dynamic rule (no static `groups:`)
  ///   gets `groupsField` `groups` when not written.
  ///
  /// The rule as written stays in ``ModelSchema``'s `authRules`; this is derived from it.
  public var resolved: AuthRule {
    var rule = self
    rule.provider = effectiveProvider
    rule.operations = operations ?? [.create, .update, .delete, .read]
    switch allow {
    case .owner:
      rule.ownerField = effectiveOwnerField
      let claim = identityClaim ?? "sub::username"
      rule.identityClaim = claim == "username" || claim == "sub::username" ? "cognito:username" : claim
    case .groups:
      rule.groupClaim = groupClaim ?? "cognito:groups"
      if groups == nil { rule.groupsField = groupsField ?? "groups" }
    case .public, .private, .custom:
      break
    }
    return rule
  }

  /// The owner field of an `allow: owner` rule: `ownerField:` as written, else `owner` (auth
  /// transformer `DEFAULT_OWNER_FIELD`). Meaningless for other strategies.
  public var effectiveOwnerField: String { ownerField ?? "owner" }

  /// `provider:` as written, else the auth transformer's default for the strategy
  /// (`getAuthDirectiveRules`): `public` -> `apiKey`, `private`/`owner`/`groups` -> `userPools`,
  /// `custom` -> `function`.
  public var effectiveProvider: Provider {
    if let provider { return provider }
    switch allow {
    case .public: return .apiKey
    case .private, .owner, .groups: return .userPools
    case .custom: return .function
    }
  }

  /// The model operations the rule grants (auth transformer `MODEL_OPERATIONS`: `create`, `update`,
  /// `delete`, `get`, `list`, `sync`, `listen`, `search`); `read` expands to every read operation,
  /// and no `operations:` means all of them.
  public var grantedOperations: Set<Operation> {
    let all: Set<Operation> = [.create, .update, .delete, .get, .list, .sync, .listen, .search]
    guard let operations else { return all }
    var granted: Set<Operation> = []
    for operation in operations {
      if operation == .read {
        granted.formUnion([.get, .list, .sync, .listen, .search])
      } else {
        granted.insert(operation)
      }
    }
    return granted
  }

  /// The names of the access-control roles the auth transformer (`convertRulesToRoles`) derives
  /// from the rule: one per static group (`userPools:staticGroup:Admin:cognito:groups`), else one
  /// (`apiKey:public`, `iam:private`, `userPools:owner:owner:username`, ...). Two rules with the same
  /// role name grant the same principal.
  public var roleNames: [String] {
    let provider = effectiveProvider.rawValue
    if let groups, groupsField == nil {
      return groups.map { "\(provider):staticGroup:\($0):\(groupClaim ?? "cognito:groups")" }
    }
    switch effectiveProvider {
    case .apiKey: return ["apiKey:public"]
    case .function: return ["function:custom"]
    case .iam, .identityPool: return ["\(provider):\(allow.rawValue)"]
    case .userPools, .oidc:
      switch allow {
      case .groups:
        return ["\(provider):dynamicGroup:\(groupsField ?? "groups"):\(groupClaim ?? "cognito:groups")"]
      case .owner:
        return ["\(provider):owner:\(effectiveOwnerField):\(identityClaim ?? "username")"]
      default:
        return ["\(provider):\(allow.rawValue)"]
      }
    }
  }
}
