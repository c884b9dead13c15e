import LazyModel

/// The `ModelDecodingContext` of an ``APIClient``: a reference or list decoded from one of its
/// responses loads through the same client.
///
/// - A nested object with only key fields (plus `__typename`) becomes a not-loaded
///   `LazyReference` whose ``APIReferenceProvider`` sends `get<Name>` with those key values.
/// - A `@hasMany` left out of the selection set becomes a not-loaded `LazyList` whose
///   ``APIListProvider`` pages through the index query serving the association, or `list` with an
///   `eq` filter on the child's FK fields when no index serves it, following `nextToken`.
///
/// Thread-safety: a `Sendable` value holding the client.
public struct APIModelDecodingContext: ModelDecodingContext {
  /// The client lazy values load through.
  public let client: APIClient
  let nestedLists: [NestedListSource]

  /// Creates the context of `client`.
  public init(client: APIClient) {
    self.client = client
    nestedLists = []
  }

  init(client: APIClient, nestedLists: [NestedListSource]) {
    self.client = client
    self.nestedLists = nestedLists
  }

  /// An ``APIReferenceProvider`` for `type`.
  public func referenceProvider<M: Model>(for type: M.Type, identifiers: [IdentifierComponent])
    -> any ModelProvider<M>
  {
    APIReferenceProvider<M>(client: client)
  }

  /// An ``APIListProvider`` for the `type` models whose `associatedFields` equal `associatedIdentifiers`.
  public func listProvider<M: Model>(
    for type: M.Type, associatedFields: [String], associatedIdentifiers: [KeyValue]
  ) -> any ModelListProvider<M> {
    listProvider(
      for: type, associatedFields: associatedFields, associatedIdentifiers: associatedIdentifiers,
      indexName: nil)
  }

  /// An ``APIListProvider`` for the `type` models whose `associatedFields` equal
  /// `associatedIdentifiers`, queried through `type`'s `@index` named `indexName` when it serves
  /// them (its items come in that index's sort key order).
  public func listProvider<M: Model>(
    for type: M.Type, associatedFields: [String], associatedIdentifiers: [KeyValue],
    indexName: String?
  ) -> any ModelListProvider<M> {
    let matching = nestedLists.filter {
      $0.child == ObjectIdentifier(M.self) && $0.associatedFields == associatedFields
    }
    let nested = matching.first(where: \.included) ?? matching.first
    return APIListProvider<M>(
      client: client, associatedFields: associatedFields,
      associatedIdentifiers: associatedIdentifiers, indexName: indexName,
      nested: nested.map { ($0.parent, $0.field, $0.included) })
  }
}

/// Loads a not-loaded reference over GraphQL.
///
/// Identifiers that are `M`'s primary key load with one `get<Name>` request; others (the FK fields
/// of a `@hasOne(references:)` child) with the index query or filtered `list` that
/// `ModelQueries.list(_:whereFields:equal:limit:nextToken:)` picks, taking the first match.
///
/// Thread-safety: `Sendable`; requests run on the caller's task.
public struct APIReferenceProvider<M: Model>: ModelProvider {
  /// The client requests go through.
  public let client: APIClient

  /// Creates a provider.
  public init(client: APIClient) {
    self.client = client
  }

  /// Loads the `M` matching `identifiers`, or `nil`.
  ///
  /// - Throws: ``APIError`` from the request.
  public func load(identifiers: [IdentifierComponent]) async throws -> M? {
    if Set(identifiers.map(\.name)) == Set(M.schema.primaryKey),
      identifiers.count == M.schema.primaryKey.count
    {
      return try await client.send(ModelQueries.get(M.self, identifiers: identifiers))
    }
    var cursor: String?
    repeat {
      let page = try await client.send(
        ModelQueries.list(
          M.self, whereFields: identifiers.map(\.name), equal: identifiers.map(\.value),
          nextToken: cursor))
      if let first = page.items.first { return first }
      cursor = page.nextToken
    } while cursor != nil
    return nil
  }

  /// Loads a batch with up to 8 requests in flight; duplicates are requested once.
  ///
  /// - Returns: One result per element of `batch`, same order.
  /// - Throws: The first ``APIError`` of any request.
  public func load(batch: [[IdentifierComponent]]) async throws -> [M?] {
    var distinct: [[IdentifierComponent]] = []
    var position: [[IdentifierComponent]: Int] = [:]
    for identifiers in batch where position[identifiers] == nil {
      position[identifiers] = distinct.count
      distinct.append(identifiers)
    }
    var loaded = [M?](repeating: nil, count: distinct.count)
    try await withThrowingTaskGroup(of: (Int, M?).self) { group in
      var next = 0
      func start() {
        let index = next
        let identifiers = distinct[index]
        next += 1
        group.addTask { (index, try await load(identifiers: identifiers)) }
      }
      while next < min(8, distinct.count) { start() }
      while let (index, model) = try await group.next() {
        loaded[index] = model
        if next < distinct.count { start() }
      }
    }
    return batch.map { loaded[position[$0]!] }
  }
}

/// Pages through the children of one parent over GraphQL (see ``APIModelDecodingContext``).
///
/// Thread-safety: `Sendable`; requests run on the caller's task.
public struct APIListProvider<M: Model>: ModelListProvider {
  /// The client requests go through.
  public let client: APIClient
  /// The child's FK fields, in the parent's key order.
  public let associatedFields: [String]
  /// The parent's key values, same order.
  public let associatedIdentifiers: [KeyValue]
  /// The `@index` of `M` the list is queried through when it serves ``associatedFields`` (the
  /// `@hasMany`'s `indexName:`), or `nil` (the first index that serves them).
  public let indexName: String?
  private let nested: (parent: ModelSchema, field: String, included: Bool)?

  /// Creates a provider.
  public init(
    client: APIClient, associatedFields: [String], associatedIdentifiers: [KeyValue],
    indexName: String? = nil
  ) {
    self.init(
      client: client, associatedFields: associatedFields,
      associatedIdentifiers: associatedIdentifiers, indexName: indexName, nested: nil)
  }

  init(
    client: APIClient, associatedFields: [String], associatedIdentifiers: [KeyValue],
    indexName: String?, nested: (parent: ModelSchema, field: String, included: Bool)?
  ) {
    self.client = client
    self.associatedFields = associatedFields
    self.associatedIdentifiers = associatedIdentifiers
    self.indexName = indexName
    self.nested = nested
  }

  /// The request for the page after `cursor`.
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when fields and values differ in count.
  public func request(after cursor: String?, limit: Int?) throws -> GraphQLRequest<
    ModelConnection<M>
  > {
    try ModelQueries.list(
      M.self, whereFields: associatedFields, equal: associatedIdentifiers, indexName: indexName,
      limit: limit ?? client.configuration.listPageSize, nextToken: cursor)
  }

  /// Loads the page after `cursor` (`limit` or the client's ``APIClient/Configuration/listPageSize``).
  ///
  /// A list whose first page arrived nested in its parent (`includes:`) reads its next pages
  /// through the same nested field, since a `nextToken` belongs to the field that issued it. A
  /// child with neither a `list` query nor an index query serving ``associatedFields``
  /// (`@model(queries: null)`: the transformer then derives only the parent's connection field)
  /// is read through that field from the first page on: `get<Parent>(…) { <field>(…) { … } }`.
  ///
  /// - Throws: ``APIError`` from the request.
  public func loadPage(after cursor: String?, limit: Int?) async throws -> ModelPage<M> {
    if let nested, nested.included ? cursor != nil : !childIsListable {
      let request = try ModelQueries.nestedPage(
        M.self, parent: nested.parent, field: nested.field, parentKey: associatedIdentifiers,
        limit: limit ?? client.configuration.listPageSize, nextToken: cursor)
      let page = try await client.send(request).connection
      return ModelPage(elements: page?.items ?? [], nextCursor: page?.nextToken)
    }
    let page = try await client.send(request(after: cursor, limit: limit))
    return ModelPage(elements: page.items, nextCursor: page.nextToken)
  }

  /// Whether ``request(after:limit:)`` has a query to send: an index query serving the
  /// association, or the child's `list` query.
  private var childIsListable: Bool {
    ModelQueries.servingIndex(of: M.schema, for: associatedFields, named: indexName) != nil
      || M.schema.operations.list != nil
  }
}
