import LazyModel

/// The three subscriptions the Amplify GraphQL Transformer v2 generates for a model
/// (`@model(subscriptions:)`); each fires after the mutation of the same kind succeeds
/// (`@aws_subscribe(mutations: ["create<Name>"])`).
public enum ModelSubscriptionKind: String, Sendable, Hashable, CaseIterable {
  /// `onCreate<Name>`.
  case onCreate
  /// `onUpdate<Name>`.
  case onUpdate
  /// `onDelete<Name>`.
  case onDelete
}

/// One subscription document ready to start over the real-time connection (AppSync's `start`
/// message carries `document` and `variables`), and how to read its events.
///
/// Like ``GraphQLRequest``, every value from data (the `filter`, owner arguments) is in
/// ``variables``, never in the document.
///
/// Thread-safety: a value type of `Sendable` values.
public struct ModelSubscription<M: Model>: Sendable {
  /// Which mutation the subscription follows.
  public let kind: ModelSubscriptionKind
  /// The operation name (`OnCreatePost4V2`), kept in every error of the stream.
  public let operationName: String
  /// The document: `subscription OnCreatePost4V2($filter: …) { onCreatePost4V2(filter: $filter) { … } }`.
  public let document: String
  /// The variable values by name (without `$`).
  public let variables: [String: GraphQLValue]
  /// The root field whose value each `data` event holds (`onCreatePost4V2`).
  public let responseField: String
  /// The hasMany fields selected with `includes:`.
  let nestedLists: [NestedListSource]
}

/// Subscription documents for generated models, built from `ModelSchema` only, with the same
/// selection rules as ``ModelQueries`` (``ModelDocument/selectionSet(of:includes:referencesByForeignKeys:)``: a lazy
/// belongsTo/hasOne nests one level with only its key fields and `__typename`; `includes:`
/// selects associations eagerly).
///
/// Arguments follow the transformer v2: every subscription field takes
/// `filter: ModelSubscription<Name>FilterInput`, and for each `allow: owner` rule that may listen
/// (operations absent or naming `read`/`listen`) whose owner field is not a list, a `String`
/// argument named after the owner field (`owner`, or `ownerField:`) — AppSync requires it when an
/// owner subscribes with user pools or OIDC. Subscription filters have no `not` and no
/// `attributeExists` (`ModelSubscription<Scalar>Input`), so predicates using them are refused.
///
/// Thread-safety: stateless; every member is a pure function of its arguments.
public enum ModelSubscriptions {
  /// `subscription OnCreate<Name>(…) { onCreate<Name>(…) { … } }`.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - predicate: Only models matching it are delivered (sent as the `filter` variable), or
  ///     `nil` for all.
  ///   - includes: Association coding keys selected eagerly.
  ///   - ownerArguments: Values of the owner arguments by owner field name (`["owner": "alice"]`).
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when the subscription is
  ///   disabled (`@model(subscriptions:)`), an owner argument is not one of the model's, or the
  ///   predicate cannot be a subscription filter; nothing is sent.
  public static func onCreate<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M>? = nil, includes: [any CodingKey] = [],
    ownerArguments: [String: String] = [:]
  ) throws -> ModelSubscription<M> {
    try make(.onCreate, predicate, includes, ownerArguments)
  }

  /// `subscription OnUpdate<Name>(…) { onUpdate<Name>(…) { … } }`; see ``onCreate(_:where:includes:ownerArguments:)``.
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)``, as `onCreate`.
  public static func onUpdate<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M>? = nil, includes: [any CodingKey] = [],
    ownerArguments: [String: String] = [:]
  ) throws -> ModelSubscription<M> {
    try make(.onUpdate, predicate, includes, ownerArguments)
  }

  /// `subscription OnDelete<Name>(…) { onDelete<Name>(…) { … } }`; see ``onCreate(_:where:includes:ownerArguments:)``.
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)``, as `onCreate`.
  public static func onDelete<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M>? = nil, includes: [any CodingKey] = [],
    ownerArguments: [String: String] = [:]
  ) throws -> ModelSubscription<M> {
    try make(.onDelete, predicate, includes, ownerArguments)
  }

  /// The owner arguments the subscription fields of `schema` take, in rule order; none unless
  /// `ModelSchema.subscriptionLevel` is `.on`: the auth transformer adds them
  /// (`addSubscriptionArguments` in `protectSchemaOperations`) only at level `on`, so a level
  /// `public` subscription takes `filter` alone and an owner argument would be refused by the
  /// service's validation.
  public static func ownerArgumentNames(of schema: ModelSchema) -> [String] {
    guard schema.subscriptionLevel == .on else { return [] }
    var names: [String] = []
    for rule in schema.authRules + schema.fields.flatMap(\.authRules) where rule.allow == .owner {
      if let operations = rule.operations,
        !operations.contains(.read) && !operations.contains(.listen)
      {
        continue
      }
      let name = rule.ownerField ?? "owner"
      if names.contains(name) { continue }
      if let field = schema.field(named: name), case .list = field.type { continue }
      names.append(name)
    }
    return names
  }

  static func make<M: Model>(
    _ kind: ModelSubscriptionKind, _ predicate: QueryPredicate<M>?, _ includes: [any CodingKey],
    _ ownerArguments: [String: String]
  ) throws -> ModelSubscription<M> {
    let schema = M.schema
    let field: String?
    switch kind {
    case .onCreate: field = schema.operations.onCreate
    case .onUpdate: field = schema.operations.onUpdate
    case .onDelete: field = schema.operations.onDelete
    }
    let operationName = ModelDocument.operationName(field, kind.rawValue, schema)
    func invalid(_ reason: String) -> APIError {
      .invalidRequest(operationName: operationName, reason: reason)
    }
    guard let field else {
      throw invalid(
        "the \(kind.rawValue) subscription of model \(schema.name) is disabled in its API schema (@model(subscriptions:))"
      )
    }
    let owners = ownerArgumentNames(of: schema)
    for name in ownerArguments.keys.sorted() where !owners.contains(name) {
      throw invalid(
        "\(name) is not an owner argument of \(field) (the model's owner arguments: \(owners))")
    }
    var variables: [String: GraphQLValue] = [:]
    if let predicate, let filter = try GraphQLFilter.from(predicate.untyped, schema: schema) {
      if let unsupported = unsupportedOperator(in: filter.value) {
        throw invalid(
          "subscription filters (\(ModelDocument.subscriptionFilterInputType(schema))) have no '\(unsupported)'")
      }
      variables["filter"] = filter.value
    }
    for (name, value) in ownerArguments { variables[name] = .string(value) }
    let declarations =
      ["$filter: \(ModelDocument.subscriptionFilterInputType(schema))"] + owners.map { "$\($0): String" }
    let arguments = ["filter: $filter"] + owners.map { "\($0): $\($0)" }
    try ModelDocument.checkIncludes(includes, of: schema, operationName: operationName)
    let included = Set(includes.map(\.stringValue))
    let selection = ModelDocument.selectionSet(of: schema, includes: included)
    let document =
      "subscription \(operationName)(\(declarations.joined(separator: ", "))) { \(field)(\(arguments.joined(separator: ", "))) \(selection) }"
    return ModelSubscription(
      kind: kind, operationName: operationName, document: document, variables: variables,
      responseField: field,
      nestedLists: ModelDocument.nestedLists(of: schema, includes: included))
  }

  /// The first operator of `filter` that `ModelSubscription<Name>FilterInput` lacks, if any.
  private static func unsupportedOperator(in filter: GraphQLValue) -> String? {
    switch filter {
    case .object(let members):
      for (key, value) in members.sorted(by: { $0.key < $1.key }) {
        if key == "not" || key == "attributeExists" || key == "attributeType" || key == "size" {
          return key
        }
        if let found = unsupportedOperator(in: value) { return found }
      }
      return nil
    case .list(let elements):
      return elements.lazy.compactMap(unsupportedOperator).first
    default:
      return nil
    }
  }
}
