import LazyModel

/// The kind of a GraphQL operation (GraphQL spec §2.3 "Operations"). Subscriptions are not sent
/// over HTTP by this client.
public enum GraphQLOperationType: String, Sendable, Hashable {
  /// A read-only fetch.
  case query
  /// A write followed by a fetch.
  case mutation
}

/// One GraphQL operation ready to send: the document, its variables, and how to read the result.
///
/// The document holds exactly one operation, named ``operationName``, with one root field,
/// ``responseField``; the client decodes `data.<responseField>` as `Response`. Every value that
/// comes from data (key values, filters, inputs, cursors) is in ``variables``, never in the
/// document, so a document depends only on the schema and the operation and can be cached and
/// logged safely.
///
/// Thread-safety: a value type of `Sendable` values.
public struct GraphQLRequest<Response: Decodable & Sendable>: Sendable {
  /// Whether this is a query or a mutation.
  public let operationType: GraphQLOperationType
  /// The operation's name (`GetPost4V2`), sent as `operationName` and kept in every error.
  public let operationName: String
  /// The GraphQL document text (GraphQL spec §2.2 "Document"): one operation definition.
  public let document: String
  /// The variable values by variable name (without `$`). Variables declared but absent here are
  /// sent as absent (null for nullable variables, GraphQL spec §6.1.2 "Coercing Variable Values").
  public internal(set) var variables: [String: GraphQLValue]
  /// The root field whose value is the response (`getPost4V2`).
  public let responseField: String
  /// For a page of a nested hasMany connection: the field under `responseField` that holds it.
  let nestedField: String?
  /// The hasMany fields selected with `includes:`; lists decoded from them page on through the
  /// same nested field (a `nextToken` belongs to the field that issued it).
  let nestedLists: [NestedListSource]
  /// The model and `@auth` operation that pick the modes under multi-auth, when set with
  /// ``authorized(by:operation:)`` (else read from `Response` and ``responseField``).
  var authRules: (schema: ModelSchema, operation: AuthRule.Operation)?
  /// For a page of a nested hasMany connection: the parent model and its relationship field the
  /// page is read through (`get<Parent>` then `<field>`), whose rules the modes must meet too.
  var parentRead: (schema: ModelSchema, field: String)?
  /// Set by ``sendingInputAsIs()``: an update's `null` inputs go out as they are.
  var sendsInputAsIs = false

  /// Creates a request.
  ///
  /// - Parameters:
  ///   - operationType: Query or mutation.
  ///   - operationName: The name of the one operation in `document`.
  ///   - document: The document text.
  ///   - variables: Variable values by name.
  ///   - responseField: The root field (or alias) whose value decodes as `Response`.
  public init(
    operationType: GraphQLOperationType, operationName: String, document: String,
    variables: [String: GraphQLValue], responseField: String
  ) {
    self.operationType = operationType
    self.operationName = operationName
    self.document = document
    self.variables = variables
    self.responseField = responseField
    nestedField = nil
    nestedLists = []
  }

  init(
    operationType: GraphQLOperationType, operationName: String, document: String,
    variables: [String: GraphQLValue], responseField: String, nestedField: String? = nil,
    nestedLists: [NestedListSource]
  ) {
    self.operationType = operationType
    self.operationName = operationName
    self.document = document
    self.variables = variables
    self.responseField = responseField
    self.nestedField = nestedField
    self.nestedLists = nestedLists
  }

  /// This request with the `@auth` rules of `schema` for `operation` picking its modes under
  /// ``AuthorizationStrategy/multiAuth(_:)``: for requests whose `Response` is not a model's (a
  /// sync engine's `sync<Plural>` query or its mutations decoded as ``GraphQLValue``), which would
  /// otherwise try the configured modes in their order.
  ///
  /// - Parameters:
  ///   - schema: The model the request reads or writes.
  ///   - operation: Its `@auth` operation (`get`, `list`, `sync`, `search`, `create`, `update`,
  ///     `delete`), as the transformer protects the root field (`protectGetResolver`,
  ///     `protectListResolver`, `protectSyncResolver`, ...).
  /// - Returns: A copy; pure.
  public func authorized(by schema: ModelSchema, operation: AuthRule.Operation) -> GraphQLRequest {
    var copy = self
    copy.authRules = (schema, operation)
    return copy
  }

  /// This request with its update input sent as it is: the client does not leave out the `null`
  /// members it remembers as unreadable (fields a response refused as `Unauthorized`, or a
  /// mutation's response redacted; see ``APIClient/send(_:)``). For a caller that tracks what
  /// it holds of each record itself, such as the sync engine, whose rows keep the values it sent
  /// (so a `null` there is a value the caller set, to be sent).
  ///
  /// - Returns: A copy; pure.
  public func sendingInputAsIs() -> GraphQLRequest {
    var copy = self
    copy.sendsInputAsIs = true
    return copy
  }
}

/// A hasMany field of a model a response selects: the child type and its FK fields (as the
/// generated decoder names them), and the parent schema and field to page through. `included`:
/// the field was selected eagerly (its first page arrived nested); a field left out is read
/// through the parent only when the child has no `list` query or index query to read it by.
struct NestedListSource: Sendable, Hashable {
  let child: ObjectIdentifier
  let associatedFields: [String]
  let parent: ModelSchema
  let field: String
  var included = true
}

/// One page of a `list…` or index query: the `Model<Name>Connection` type of the Amplify
/// transformer (`{ items: [Name]!, nextToken: String }`).
public struct ModelConnection<M: Model>: Decodable, Sendable {
  /// The models of this page; `null` elements (hidden by auth or failed resolvers) are dropped.
  public let items: [M]
  /// The cursor of the next page, or `nil` on the last page.
  public let nextToken: String?

  /// Creates a page.
  public init(items: [M], nextToken: String?) {
    self.items = items
    self.nextToken = nextToken
  }

  private enum CodingKeys: String, CodingKey { case items, nextToken }

  /// Decodes `{ "items": [...], "nextToken": ... }`.
  ///
  /// - Throws: `DecodingError`; `TypenameMismatch` when an item's `__typename` is not `M`'s.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    items = try container.decode([TypenameCheckedModel<M>?].self, forKey: .items).compactMap {
      $0?.model
    }
    nextToken = try container.decodeIfPresent(String.self, forKey: .nextToken)
  }
}
