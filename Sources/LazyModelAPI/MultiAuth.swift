import Foundation
import LazyModel

/// How an ``APIClient`` picks the authorization of each request (Amplify's `authModeStrategy`).
public enum AuthorizationStrategy: Sendable {
  /// ``APIClient/Configuration/authorization`` for every request.
  case `default`
  /// Per model and operation, the given modes that the model's `@auth` rules
  /// (`ModelSchema.authRules`) allow, in the priority order of amplify-swift's
  /// `AWSMultiAuthModeStrategy` (see ``ordered(_:for:operation:)``); a request that fails
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

  /// Whether `rule` covers `operation` (`read` covers get, list, sync, listen and search).
  static func rule(_ rule: AuthRule, covers operation: AuthRule.Operation) -> Bool {
    guard let operations = rule.operations else { return true }
    if operations.contains(operation) { return true }
    let reads: Set<AuthRule.Operation> = [.get, .list, .sync, .listen, .search]
    return operations.contains(.read) && reads.contains(operation)
  }

  /// The modes of `configured` to try for `operation` on `schema`, in amplify-swift's
  /// `AWSMultiAuthModeStrategy` order: the rules covering the operation sorted by strategy
  /// (custom, owner, groups, private, public) and, between two rules of one strategy that both
  /// write a provider, by provider (function, user pools, OIDC, IAM, API key); rules that tie keep
  /// their written order. Each rule's mode once (its provider, or the strategy's default), kept
  /// when `configured` has it: none when the model's rules do not cover the operation.
  /// `configured` in its own order for a model without rules or a request of no model.
  public static func ordered(
    _ configured: [APIClient.Authorization], for schema: ModelSchema?,
    operation: AuthRule.Operation
  ) -> [APIClient.Authorization] {
    guard let schema, !schema.authRules.isEmpty else { return configured }
    let rules = schema.authRules.filter { Self.rule($0, covers: operation) }.enumerated()
      .sorted { first, second in
        if precedes(first.element, second.element) { return true }
        if precedes(second.element, first.element) { return false }
        return first.offset < second.offset
      }
      .map(\.element)
    var seen = Set<AuthorizationMode>()
    var chosen: [APIClient.Authorization] = []
    for mode in rules.map(Self.mode(of:)) where seen.insert(mode).inserted {
      if let match = configured.first(where: { $0.mode == mode }) { chosen.append(match) }
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

extension GraphQLRequest {
  /// The model whose rules apply, when the response is one model's.
  var modelSchema: ModelSchema? {
    if let model = Response.self as? any Model.Type { return model.schema }
    return (Response.self as? any ModelTypedResponse.Type)?.responseModelSchema
  }

  /// The `@auth` operation of this request: read for queries; create, update or delete for a
  /// model's mutation field.
  var ruleOperation: AuthRule.Operation {
    guard operationType == .mutation, let schema = modelSchema else { return .read }
    switch responseField {
    case schema.operations.create: return .create
    case schema.operations.update: return .update
    case schema.operations.delete: return .delete
    default: return .update
    }
  }
}
