import Foundation
import LazyModel

/// How an ``APIClient`` picks the authorization of each request (Amplify's `authModeStrategy`).
public enum AuthorizationStrategy: Sendable {
  /// ``APIClient/Configuration/authorization`` for every request.
  case `default`
  /// Per model and operation, the given modes that the `@auth` rules of the fields the operation
  /// reaches allow (each field's own rules, else the model's `ModelSchema.authRules`), in the
  /// priority order of amplify-swift's `AWSMultiAuthModeStrategy` (see
  /// ``ordered(_:for:operation:writtenFields:)``); a request that fails
  /// authorization with one moves on to the next, and the last failure is thrown. A model without
  /// `@auth` rules (or a request of no model) tries the modes in the order given; a model whose
  /// rules do not allow the operation with any configured mode throws
  /// ``APIError/invalidRequest(operationName:reason:)`` without sending anything.
  case multiAuth([APIClient.Authorization])

  /// The priority of a rule's strategy, most specific first, as amplify-swift's
  /// `AWSMultiAuthModeStrategy.priorityOf(authStrategy:)` has it: custom (a Lambda authorizer),
  /// owner, groups, private, public.
  static func strategyPriority(_ strategy: AuthRule.Strategy) -> Int {
    switch strategy {
    case .custom: return 0
    case .owner: return 1
    case .groups: return 2
    case .private: return 3
    case .public: return 4
    }
  }

  /// The priority of a rule's written provider, as amplify-swift's
  /// `AWSMultiAuthModeStrategy.priorityOf(authRuleProvider:)` has it: function (Lambda), user
  /// pools, OIDC, IAM (an identity pool is IAM), API key.
  static func providerPriority(_ provider: AuthRule.Provider) -> Int {
    switch provider {
    case .function: return 0
    case .userPools: return 1
    case .oidc: return 2
    case .iam, .identityPool: return 3
    case .apiKey: return 4
    }
  }

  /// Whether `first` comes before `second`, as amplify-swift's comparator decides it: by
  /// provider when both rules write one and have the same strategy, else by strategy.
  static func precedes(_ first: AuthRule, _ second: AuthRule) -> Bool {
    if let one = first.provider, let other = second.provider, first.allow == second.allow {
      return providerPriority(one) < providerPriority(other)
    }
    return strategyPriority(first.allow) < strategyPriority(second.allow)
  }

  /// The mode a rule's provider stands for, with the transformer's defaults when unwritten
  /// (owner, groups, private → user pools; public → API key; custom → Lambda).
  static func mode(of rule: AuthRule) -> AuthorizationMode {
    switch rule.provider {
    case .apiKey: return .apiKey
    case .iam, .identityPool: return .iam
    case .oidc: return .oidc
    case .userPools: return .userPools
    case .function: return .lambda
    case nil:
      switch rule.allow {
      case .owner, .groups, .private: return .userPools
      case .public: return .apiKey
      case .custom: return .lambda
      }
    }
  }

  /// Whether `rule` covers `operation`: a rule's `read` covers get, list, sync, listen and search
  /// (the transformer's `READ_MODEL_OPERATIONS`), and a request's `read` (a relationship read,
  /// which the transformer's `protectRelationalResolver` opens to the roles of every read
  /// operation) is covered by a rule granting any of them.
  static func rule(_ rule: AuthRule, covers operation: AuthRule.Operation) -> Bool {
    guard let operations = rule.operations else { return true }
    if operations.contains(operation) { return true }
    let reads: Set<AuthRule.Operation> = [.get, .list, .sync, .listen, .search]
    if operation == .read { return !reads.isDisjoint(with: operations) }
    return operations.contains(.read) && reads.contains(operation)
  }

  /// The modes of `configured` to try for `operation` on `schema`, in amplify-swift's
  /// `AWSMultiAuthModeStrategy` order: the rules covering the operation sorted by strategy
  /// (custom, owner, groups, private, public) and, between two rules of one strategy that both
  /// write a provider, by provider (function, user pools, OIDC, IAM, API key); rules that tie keep
  /// their written order. Each rule's mode once (its provider, or the strategy's default), kept
  /// when `configured` has it: none when the rules do not cover the operation. `configured` in its
  /// own order for a model without model- or field-level rules, or a request of no model.
  ///
  /// The rules are those of the fields the operation reaches, each field under its own `@auth`
  /// rules or else the model's (as the transformer's access-control matrix has it): for a read
  /// (`get`, `list`, `sync`, `listen`, `search`) every field (the client's documents select them
  /// all), and a mode is tried when a rule of it grants that read operation on some field (the fields it may not read come back `null` with `Unauthorized`); for a
  /// create or update the fields `writtenFields` names (the input's keys; the primary key and
  /// names that are not fields of `schema` are under the model's rules), and a mode is tried when
  /// its rules grant the operation on every written field; for a delete every field, each granted.
  /// amplify-swift's strategy reads the model-level rules only (`schema.authRules`), so a mode that
  /// only a field rule grants is never tried there; here it is.
  ///
  /// - Parameters:
  ///   - configured: The modes the client may use, in no particular order.
  ///   - schema: The model the request reads or writes, or `nil`.
  ///   - operation: The `@auth` operation of the request: `get`, `list`, `sync`, `search`, `listen`
  ///     (a subscription), `create`, `update` or `delete`; `read` (a relationship read) is met by
  ///     a rule granting any read operation.
  ///   - writtenFields: The input's field names of a create or update; `nil` means every field.
  /// - Returns: The modes to try, first to last. Pure; safe from any thread.
  public static func ordered(
    _ configured: [APIClient.Authorization], for schema: ModelSchema?,
    operation: AuthRule.Operation, writtenFields: Set<String>? = nil
  ) -> [APIClient.Authorization] {
    orderedIndices(configured, for: schema, operation: operation, writtenFields: writtenFields).map {
      configured[$0]
    }
  }

  /// The modes of `configured` to try for a page of the hasMany `field` of `parent` whose items
  /// are `child` models, read as `get<Parent>(…) { <field>(…) { items … } }`: the request passes
  /// three checks of the auth transformer, so a mode must pass each: the parent's `get`
  /// (`protectGetResolver`: a role that may `get` some field of the parent), the relationship
  /// field's own field-level rules when it has any (its field auth, which `protectRelationalResolver`
  /// puts before the related model's), and the child's read roles (`protectRelationalResolver`:
  /// the roles of every read operation of the related model). The modes are those of
  /// ``ordered(_:for:operation:writtenFields:)`` for the child and `read`, in that order, less
  /// those the parent's rules do not allow. Pure; safe from any thread.
  public static func ordered(
    _ configured: [APIClient.Authorization], forPageOf child: ModelSchema, through parent: ModelSchema,
    field: String
  ) -> [APIClient.Authorization] {
    let parentModes = Set(orderedIndices(configured, for: parent, operation: .get))
    var fieldModes: Set<Int>?
    if let rules = parent.field(named: field)?.authRules, !rules.isEmpty {
      let modes = Set(rules.filter { rule($0, covers: .read) }.map(mode(of:)))
      fieldModes = Set(configured.indices.filter { configured[$0].mode.map(modes.contains) ?? false })
    }
    return orderedIndices(configured, for: child, operation: .read)
      .filter { parentModes.contains($0) && fieldModes?.contains($0) != false }
      .map { configured[$0] }
  }

  /// Whether `operation` reads (`read` and the read operations it covers).
  static func isRead(_ operation: AuthRule.Operation) -> Bool {
    switch operation {
    case .read, .get, .list, .sync, .listen, .search: return true
    case .create, .update, .delete: return false
    }
  }

  /// ``ordered(_:for:operation:writtenFields:)`` as indices into `configured` (the real-time
  /// connections of a multi-auth client are kept per configured mode).
  static func orderedIndices(
    _ configured: [APIClient.Authorization], for schema: ModelSchema?,
    operation: AuthRule.Operation, writtenFields: Set<String>? = nil
  ) -> [Int] {
    guard let schema, !schema.authRules.isEmpty || schema.fields.contains(where: { !$0.authRules.isEmpty })
    else { return Array(configured.indices) }
    // Each reached field's rules (its own, else the model's), as written order allows.
    let keys = Set(schema.primaryKey)
    let isWrite = operation == .create || operation == .update
    var reached: [[AuthRule]] = []
    for field in schema.fields where !field.isReadOnly {
      if isWrite, let writtenFields, !writtenFields.contains(field.name) || keys.contains(field.name) { continue }
      reached.append(field.authRules.isEmpty ? schema.authRules : field.authRules)
    }
    if isWrite, let writtenFields,
      writtenFields.contains(where: { name in !schema.fields.contains { $0.name == name } })
    {
      reached.append(schema.authRules)  // an input key of no field (a foreign key): the model's rules
    }
    if reached.isEmpty { reached = [schema.authRules] }
    var candidates: [AuthRule] = []
    for rules in reached {
      for rule in rules where Self.rule(rule, covers: operation) && !candidates.contains(rule) {
        candidates.append(rule)
      }
    }
    // A write needs the mode on every field it reaches; a read on some field.
    if !isRead(operation) {
      candidates = candidates.filter { rule in
        let mode = Self.mode(of: rule)
        return reached.allSatisfy { rules in
          rules.contains { Self.mode(of: $0) == mode && Self.rule($0, covers: operation) }
        }
      }
    }
    let rules = candidates.enumerated()
      .sorted { first, second in
        if precedes(first.element, second.element) { return true }
        if precedes(second.element, first.element) { return false }
        return first.offset < second.offset
      }
      .map(\.element)
    var seen = Set<AuthorizationMode>()
    var chosen: [Int] = []
    for mode in rules.map(Self.mode(of:)) where seen.insert(mode).inserted {
      if let match = configured.firstIndex(where: { $0.mode == mode }) { chosen.append(match) }
    }
    return chosen
  }
}

/// A response type that decodes one model's objects (`M`, `M?`, `ModelConnection<M>`), so the
/// client knows the model whose `@auth` rules pick the modes of a multi-auth request.
protocol ModelTypedResponse {
  static var responseModelSchema: ModelSchema { get }
}

extension Optional: ModelTypedResponse where Wrapped: Model {
  static var responseModelSchema: ModelSchema { Wrapped.schema }
}

extension ModelConnection: ModelTypedResponse {
  static var responseModelSchema: ModelSchema { M.schema }
}

extension NestedConnection: ModelTypedResponse {
  static var responseModelSchema: ModelSchema { M.schema }
}

/// A page of a `list` or index query (`protectListResolver`'s `list` roles).
protocol ModelConnectionResponse {}
extension ModelConnection: ModelConnectionResponse {}

/// A page of a nested hasMany connection, read through a parent's relationship field.
protocol NestedConnectionResponse {}
extension NestedConnection: NestedConnectionResponse {}

extension GraphQLRequest {
  /// The model whose rules apply: the one of ``authorized(by:operation:)``, else the model of the
  /// response when it is one model's.
  var modelSchema: ModelSchema? {
    if let authRules { return authRules.schema }
    if let model = Response.self as? any Model.Type { return model.schema }
    return (Response.self as? any ModelTypedResponse.Type)?.responseModelSchema
  }

  /// The input's field names of a model's create or update (`variables["input"]`), else `nil`.
  var writtenFields: Set<String>? {
    guard operationType == .mutation, case .object(let input)? = variables["input"] else { return nil }
    return Set(input.keys)
  }

  /// The `@auth` operation of this request, as the transformer protects its root field: the one
  /// of ``authorized(by:operation:)``; for a query, `get` for the model's `get` field (or another
  /// field answering one model), `list` for its `list` field and its index queries (a
  /// `ModelConnection`, `protectListResolver`), and `read` (any read operation, as a relationship
  /// field admits the related model's roles) for a page of a nested hasMany connection; create,
  /// update or delete for a model's mutation field.
  var ruleOperation: AuthRule.Operation {
    if let authRules { return authRules.operation }
    guard let schema = modelSchema else { return .read }
    guard operationType == .mutation else {
      if responseField == schema.operations.get { return .get }
      if responseField == schema.operations.list { return .list }
      if Response.self is any NestedConnectionResponse.Type { return .read }
      if Response.self is any ModelConnectionResponse.Type { return .list }
      return .get
    }
    switch responseField {
    case schema.operations.create: return .create
    case schema.operations.update: return .update
    case schema.operations.delete: return .delete
    default: return .update
    }
  }
}
