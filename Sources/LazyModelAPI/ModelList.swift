import LazyModel

/// A condition on the sort key fields of an index query (AppSync's key condition inputs:
/// `ModelStringKeyConditionInput`, `ModelIDKeyConditionInput`, `ModelIntKeyConditionInput`,
/// `ModelFloatKeyConditionInput` for one sort key field, `Model<Name><IndexName>CompositeKeyConditionInput`
/// over `Model<Name><IndexName>CompositeKeyInput` for several, as the Amplify GraphQL Transformer v2
/// derives them).
///
/// Each operand maps sort key field names to values. For a composite sort key the fields given must
/// be a leading run of the sort key fields (`["year": 2020]`, `["year": 2020, "title": "A"]`, not
/// `["title": "A"]`): the transformer joins them into one DynamoDB sort key, so a condition can only
/// constrain a prefix (its resolver refuses a gap with `InvalidArgumentsError`,
/// `validateCompositeKeyArguments`). `beginsWith` on a single sort key field needs text (AppSync's
/// `ModelIntKeyConditionInput` and `ModelFloatKeyConditionInput` have none).
///
/// A composite sort key is compared as text, whatever its fields' types: the transformer's resolver
/// (`applyCompositeKeyConditionExpression` of `graphql-transformer-common`, behind the `@index` and
/// `@primaryKey` query resolvers) joins the operand's given values left to right with `#` and
/// compares that string with the stored composite key attribute (`year#title`, every sort key
/// field joined): `beginsWith` is `begins_with`, `eq` is `=`, `lt le gt ge` are `< <= > >=`,
/// `between` is `BETWEEN` (both included), all in DynamoDB's byte order of UTF-8 text. So numbers
/// compare as text (`["level": 9]` sorts after `["level": 10]`; `["year": 19]` begins 1900–1999 and
/// 19), and a prefix compares as a shorter string: `gt(["year": 1974])` includes the 1974 items
/// (`"1974#A" > "1974"`), `le(["year": 1974])` leaves them out, and `between(["year": 1970],
/// ["year": 1980])` holds 1970–1979 but no 1980 item. A partial `eq` would match nothing (no stored
/// key equals `"1974"`), so it is refused before sending; use `beginsWith` for a leading run.
///
/// Checked against the index before anything is sent: a field that is not one of the index's sort
/// key fields, a gap in the prefix, an `eq` without every composite sort key field, or a value of
/// the wrong type is ``APIError/invalidRequest(operationName:reason:)`` naming the model, the index
/// and the fields.
///
/// Thread-safety: an immutable `Sendable` value.
public struct SortKeyCondition: Sendable, Hashable {
  /// A comparison, named as AppSync's key condition input fields.
  public enum Operator: String, Sendable, Hashable, CaseIterable {
    /// Equal.
    case eq
    /// Less than or equal.
    case le
    /// Less than.
    case lt
    /// Greater than or equal.
    case ge
    /// Greater than.
    case gt
    /// Between two operands, both included.
    case between
    /// The sort key starts with the given text (a composite key: the given values joined by `#`).
    case beginsWith
  }

  /// The comparison.
  public let comparison: Operator
  /// One operand (two for ``Operator/between``): sort key field names and their values.
  public let operands: [[String: KeyValue]]

  private init(_ op: Operator, _ operands: [[String: any KeyValueConvertible]]) {
    comparison = op
    self.operands = operands.map { $0.mapValues(\.keyValue) }
  }

  /// `op` over `operands` (field names and values), as ``ModelSortKeyCondition`` names them.
  init(_ op: Operator, operands: [[String: KeyValue]]) {
    comparison = op
    self.operands = operands
  }

  /// Sort key fields equal to `values`.
  public static func eq(_ values: [String: any KeyValueConvertible]) -> Self {
    .init(.eq, [values])
  }
  /// Sort key at most `values`.
  public static func le(_ values: [String: any KeyValueConvertible]) -> Self {
    .init(.le, [values])
  }
  /// Sort key below `values`.
  public static func lt(_ values: [String: any KeyValueConvertible]) -> Self {
    .init(.lt, [values])
  }
  /// Sort key at least `values`.
  public static func ge(_ values: [String: any KeyValueConvertible]) -> Self {
    .init(.ge, [values])
  }
  /// Sort key above `values`.
  public static func gt(_ values: [String: any KeyValueConvertible]) -> Self {
    .init(.gt, [values])
  }
  /// Sort key from `lower` to `upper`, both included.
  public static func between(
    _ lower: [String: any KeyValueConvertible], and upper: [String: any KeyValueConvertible]
  ) -> Self { .init(.between, [lower, upper]) }
  /// The sort key starts with `values` (see the type's rule for a composite key).
  public static func beginsWith(_ values: [String: any KeyValueConvertible]) -> Self {
    .init(.beginsWith, [values])
  }

  /// The GraphQL value of this condition for the index named `indexName` of `schema`.
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when `schema` has no such index,
  ///   it has no query field, or as ``value(sortKeyFields:indexName:schema:operationName:)``.
  func value(of indexName: String, in schema: ModelSchema) throws -> GraphQLValue {
    guard let index = schema.indexes.first(where: { $0.name == indexName }) else {
      throw APIError.invalidRequest(
        operationName: "index \(indexName)",
        reason: "\(schema.name) has no index named \(indexName)")
    }
    let operationName = ModelDocument.upperFirst(try ModelDocument.indexQueryField(index, of: schema))
    return try value(
      sortKeyFields: Array(index.fields.dropFirst()), indexName: indexName, schema: schema,
      operationName: operationName)
  }

  /// The GraphQL value of this condition for an index of `schema` whose sort key fields are
  /// `sortKeyFields` (`{beginsWith: "F"}`, `{between: [{year: 2000}, {year: 2010}]}`).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` (named `operationName`) for a
  ///   field that is not a sort key field of the index, fields that are not a leading run of them,
  ///   a value whose type does not fit its field, or an index without sort key fields.
  func value(
    sortKeyFields: [String], indexName: String, schema: ModelSchema, operationName: String
  ) throws -> GraphQLValue {
    func invalid(_ reason: String) -> APIError {
      .invalidRequest(operationName: operationName, reason: reason)
    }
    guard !sortKeyFields.isEmpty else {
      throw invalid(
        "index \(indexName) of \(schema.name) has no sort key fields, so it takes no sort key condition"
      )
    }
    var converted: [GraphQLValue] = []
    for operand in operands {
      for name in operand.keys.sorted() where !sortKeyFields.contains(name) {
        throw invalid(
          "\(schema.name).\(name) is not a sort key field of index \(indexName) (sort key fields: \(sortKeyFields.joined(separator: ", ")))"
        )
      }
      let given = sortKeyFields.prefix { operand[$0] != nil }
      guard !given.isEmpty, given.count == operand.count else {
        let missing = sortKeyFields.first { operand[$0] == nil } ?? sortKeyFields[0]
        throw invalid(
          "a sort key condition on index \(indexName) of \(schema.name) must give a leading run of \(sortKeyFields.joined(separator: ", ")); \(missing) is missing before a later field"
        )
      }
      var members: [String: GraphQLValue] = [:]
      for name in given {
        let value = operand[name]!
        let type = schema.keyFieldType(named: name) ?? .string
        guard GraphQLValue(value).keyValue(as: type) != nil else {
          throw invalid(
            "\(schema.name).\(name) is \(ModelDocument.typeName(type)), got \(value) in a sort key condition"
          )
        }
        // One sort key field: AppSync's `ModelIntKeyConditionInput`/`ModelFloatKeyConditionInput`
        // have no `beginsWith`. Several: the transformer compares the given values joined by `#`
        // with the stored composite key as text, so a number is a prefix of its digits.
        if comparison == .beginsWith, sortKeyFields.count == 1, !value.isString {
          throw invalid("beginsWith on \(schema.name).\(name) needs text, got \(value)")
        }
        members[name] = GraphQLValue(value)
      }
      // The transformer's resolver compares `eq` with the whole stored key (`year#title` =
      // "1974"), so a partial `eq` can never match: refused, pointing at `beginsWith`.
      if comparison == .eq, given.count < sortKeyFields.count {
        let missing = sortKeyFields.dropFirst(given.count)
        throw invalid(
          "eq on the composite sort key of index \(indexName) of \(schema.name) gives \(given.joined(separator: ", ")) but not \(missing.joined(separator: ", ")); AppSync compares eq with the whole stored key (\(sortKeyFields.joined(separator: "#"))), so it would match nothing: give every sort key field, or use beginsWith to match the given ones"
        )
      }
      converted.append(
        sortKeyFields.count == 1 ? members[sortKeyFields[0]]! : .object(members))
    }
    if comparison == .between {
      return [comparison.rawValue: .list(converted)]
    }
    return [comparison.rawValue: converted[0]]
  }
}

/// A condition on the sort key of a typed index (`ModelIndexKey`), its operands of the sort key's
/// Swift type: `SortKey` is the one sort key field's type (`.beginsWith("F")`, `.between(2000,
/// and: 2010)` for an `Int`), or the index's generated `ModelCompositeSortKey` value for several
/// (`.beginsWith(Book.Indexes.BooksByAuthorAndYearAndTitleSortKey(year: 2001))`). An index without sort
/// key fields (`ModelNoSortKey`) has no condition at all, and a value of another type does not
/// compile.
///
/// The operators are AppSync's key condition inputs (``SortKeyCondition/Operator``, the Amplify
/// GraphQL Transformer v2's `Model<Scalar>KeyConditionInput` and
/// `Model<Name><Index>CompositeKeyConditionInput`). `beginsWith` on one sort key field needs text:
/// a `String` or `Temporal` sort key (`StringFilterable`) or an enum (compared as its GraphQL
/// value); AppSync's `ModelIntKeyConditionInput` and `ModelFloatKeyConditionInput` have no
/// `beginsWith`.
///
/// A composite sort key compares as text for every operator: the transformer's resolver joins the
/// given values with `#` and compares the string with the stored composite key (`year#title`), so
/// numbers order as text (`level: 10` before `level: 9`), `.beginsWith(.init(year: 19))` matches
/// the years 1900–1999 and 19, `.gt(.init(year: 1974))` includes the 1974 items and
/// `.le(.init(year: 1974))` leaves them out. `.eq` needs every sort key field: a partial `eq` can
/// never match on AppSync (no stored key equals `"1974"`), so ``APIClient`` and `ModelQueries`
/// refuse it before sending with ``APIError/invalidRequest(operationName:reason:)`` naming the
/// model, the index and the missing fields; `.beginsWith` matches a leading run of fields
/// (``SortKeyCondition`` gives the rule's source). The DataStore has no key condition queries: a
/// `QueryPredicate` on the same fields (`Book.keys.year.eq(1974)`) compares field by field in
/// SQLite, numbers as numbers.
///
/// Thread-safety: an immutable `Sendable` value.
public struct ModelSortKeyCondition<SortKey>: Sendable, Hashable {
  /// One operand: a single sort key value, or the values of a composite sort key in index order.
  enum Operand: Sendable, Hashable {
    case value(KeyValue)
    case components([KeyValue?])
  }

  /// The comparison.
  public let comparison: SortKeyCondition.Operator
  let operands: [Operand]

  init(_ comparison: SortKeyCondition.Operator, _ operands: [Operand]) {
    self.comparison = comparison
    self.operands = operands
  }

  /// The untyped condition on an index whose sort key fields are `sortKeyFields` (a single
  /// value names the first; the composite values name the fields in order, `nil`s left out).
  func untyped(sortKeyFields: [String]) -> SortKeyCondition {
    SortKeyCondition(
      comparison,
      operands: operands.map { operand in
        switch operand {
        case .value(let value):
          return sortKeyFields.first.map { [$0: value] } ?? [:]
        case .components(let values):
          var named: [String: KeyValue] = [:]
          for (field, value) in zip(sortKeyFields, values) { named[field] = value }
          return named
        }
      })
  }
}

extension ModelSortKeyCondition where SortKey: KeyValueConvertible {
  /// The sort key equals `value`.
  public static func eq(_ value: SortKey) -> Self { .init(.eq, [.value(value.keyValue)]) }
  /// The sort key is at most `value`.
  public static func le(_ value: SortKey) -> Self { .init(.le, [.value(value.keyValue)]) }
  /// The sort key is below `value`.
  public static func lt(_ value: SortKey) -> Self { .init(.lt, [.value(value.keyValue)]) }
  /// The sort key is at least `value`.
  public static func ge(_ value: SortKey) -> Self { .init(.ge, [.value(value.keyValue)]) }
  /// The sort key is above `value`.
  public static func gt(_ value: SortKey) -> Self { .init(.gt, [.value(value.keyValue)]) }
  /// The sort key is from `lower` to `upper`, both included.
  public static func between(_ lower: SortKey, and upper: SortKey) -> Self {
    .init(.between, [.value(lower.keyValue), .value(upper.keyValue)])
  }
}

extension ModelSortKeyCondition where SortKey: StringFilterable {
  /// The sort key (text) starts with `prefix` (case-sensitive).
  public static func beginsWith(_ prefix: String) -> Self {
    .init(.beginsWith, [.value(.string(prefix))])
  }
}

extension ModelSortKeyCondition where SortKey: RawRepresentable & KeyValueConvertible, SortKey.RawValue == String {
  /// The enum sort key's GraphQL value starts with `prefix` (case-sensitive): AppSync compares an
  /// enum sort key as a `String` (the index transformer's `createSimpleSortField` gives it
  /// `ModelStringKeyConditionInput`, which has `beginsWith`), unlike an enum filter
  /// (`Model<Enum>Input`: `eq` and `ne` only).
  public static func beginsWith(_ prefix: String) -> Self {
    .init(.beginsWith, [.value(.string(prefix))])
  }
}

extension ModelSortKeyCondition where SortKey: ModelCompositeSortKey {
  /// The stored composite key equals `key`'s values joined by `#`. `key` must give every sort key
  /// field: a partial `eq` matches nothing on AppSync, so it is refused before sending
  /// (``APIError/invalidRequest(operationName:reason:)``); use `beginsWith(_:)` for a prefix.
  public static func eq(_ key: SortKey) -> Self { .init(.eq, [.components(key.sortKeyValues)]) }
  /// The stored composite key is at most `key`'s given values joined by `#`, compared as text
  /// (`.le(.init(year: 1974))` leaves out `1974#…`).
  public static func le(_ key: SortKey) -> Self { .init(.le, [.components(key.sortKeyValues)]) }
  /// The stored composite key is below `key`'s joined values, compared as text.
  public static func lt(_ key: SortKey) -> Self { .init(.lt, [.components(key.sortKeyValues)]) }
  /// The stored composite key is at least `key`'s joined values, compared as text.
  public static func ge(_ key: SortKey) -> Self { .init(.ge, [.components(key.sortKeyValues)]) }
  /// The stored composite key is above `key`'s joined values, compared as text
  /// (`.gt(.init(year: 1974))` includes `1974#…`).
  public static func gt(_ key: SortKey) -> Self { .init(.gt, [.components(key.sortKeyValues)]) }
  /// The stored composite key is from `lower`'s to `upper`'s joined values, both included,
  /// compared as text.
  public static func between(_ lower: SortKey, and upper: SortKey) -> Self {
    .init(.between, [.components(lower.sortKeyValues), .components(upper.sortKeyValues)])
  }
  /// The sort key starts with `key`'s given values joined by `#`, compared as text (`year: 19`
  /// matches `1974#…`).
  public static func beginsWith(_ key: SortKey) -> Self {
    .init(.beginsWith, [.components(key.sortKeyValues)])
  }
}

/// One page of a `list` or index query sent by ``APIClient/list(_:where:limit:includes:)`` or
/// ``APIClient/list(_:index:key:sortKey:sortDirection:where:limit:includes:)``.
///
/// AppSync applies a filter after `limit`, so a page may hold fewer items than asked (even none)
/// and still have a next page.
///
/// Thread-safety: an immutable `Sendable` value; ``nextPage()`` may be called from any task.
public struct ModelListPage<M: Model>: Sendable {
  /// The models of this page, in the server's order (an index query's sort key order).
  public let items: [M]
  /// The cursor of the next page, or `nil` on the last page.
  public let nextToken: String?
  /// The operation name of the query this page came from (`ListPost4V2s`), as errors name it.
  public let operationName: String
  private let client: APIClient
  private let request: @Sendable (_ nextToken: String) throws -> GraphQLRequest<ModelConnection<M>>

  init(
    connection: ModelConnection<M>, operationName: String, client: APIClient,
    request: @escaping @Sendable (String) throws -> GraphQLRequest<ModelConnection<M>>
  ) {
    items = connection.items
    nextToken = connection.nextToken
    self.operationName = operationName
    self.client = client
    self.request = request
  }

  /// `true` when the server returned a `nextToken` (a next page may still be empty).
  public var hasNextPage: Bool { nextToken != nil }

  /// Fetches the next page with the same query, filter, limit and includes.
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` naming the model and the
  ///   operation when this is the last page (``hasNextPage`` is `false`); nothing is sent. Otherwise
  ///   ``APIError`` from the request, as ``APIClient/send(_:)``.
  public func nextPage() async throws -> ModelListPage<M> {
    guard let nextToken else {
      throw APIError.invalidRequest(
        operationName: operationName,
        reason: "nextPage() after the last page of \(M.modelName) (hasNextPage is false)")
    }
    let next = try request(nextToken)
    return ModelListPage(
      connection: try await client.send(next), operationName: operationName, client: client,
      request: request)
  }
}

/// Every model of a `list` or index query, fetching the pages as iteration reaches them
/// (``APIClient/listAll(_:where:pageSize:includes:)``).
///
/// Each iteration starts from the first page. Cancelling the iterating task stops it: the page in
/// flight fails with ``APIError/cancelled(operationName:)`` and no further page is requested.
///
/// Thread-safety: a `Sendable` value; each iterator belongs to the task that iterates.
public struct ModelListSequence<M: Model>: AsyncSequence, Sendable {
  /// The element type: one model.
  public typealias Element = M
  private let first: @Sendable () async throws -> ModelListPage<M>

  init(first: @escaping @Sendable () async throws -> ModelListPage<M>) {
    self.first = first
  }

  /// An iterator from the first page.
  public func makeAsyncIterator() -> Iterator { Iterator(first: first) }

  /// Walks the pages one request at a time.
  public struct Iterator: AsyncIteratorProtocol {
    private let first: @Sendable () async throws -> ModelListPage<M>
    private var page: ModelListPage<M>?
    private var position = 0

    init(first: @escaping @Sendable () async throws -> ModelListPage<M>) {
      self.first = first
    }

    /// The next model, or `nil` after the last one.
    ///
    /// - Throws: ``APIError`` from a page's request (``APIError/cancelled(operationName:)`` when
    ///   the task was cancelled).
    public mutating func next() async throws -> M? {
      while true {
        if let page, position < page.items.count {
          position += 1
          return page.items[position - 1]
        }
        if let page {
          guard page.hasNextPage else { return nil }
          if Task.isCancelled { throw APIError.cancelled(operationName: page.operationName) }
          self.page = try await page.nextPage()
        } else {
          self.page = try await first()
        }
        position = 0
      }
    }
  }
}

extension APIClient {
  /// The first page of `list<Plural>` (`M.schema.operations.list`) with `predicate` as its
  /// `Model<Name>FilterInput`.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - predicate: Conditions on fields (the DataStore's predicate type), or `nil` for all models.
  ///   - limit: The most items the server evaluates per page, or `nil` for
  ///     ``Configuration/listPageSize`` (or the server's default, 100 on AppSync).
  ///   - includes: Associations selected eagerly (see
  ///     ``ModelDocument/selectionSet(of:includes:referencesByForeignKeys:)``).
  /// - Returns: The page; ``ModelListPage/nextPage()`` fetches the next with the same arguments.
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when the predicate cannot be
  ///   expressed or the `list` query is disabled (nothing is sent); else ``APIError`` as ``send(_:)``.
  public func list<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M>? = nil, limit: Int? = nil,
    includes: [any CodingKey] = []
  ) async throws -> ModelListPage<M> {
    let request = try listRequest(M.self, where: predicate, limit: limit, includes: includes)
    return try await firstPage(request)
  }

  /// The first page of the query of `M`'s typed `@index` `index` (`Book.indexes.byIsbn`): the
  /// partition key equal to `key`, the sort key meeting `sortKey`, in `sortDirection` order. The
  /// key and the sort key condition take the index's field types, so a wrong-typed value does not
  /// compile (see `ModelIndexKey`).
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - index: The generated index key (`M.indexes.<name>`).
  ///   - key: The value of the index's partition key field.
  ///   - sortKey: A condition on the index's sort key fields (``ModelSortKeyCondition``), or `nil`.
  ///   - sortDirection: Order by sort key, or `nil` for the server's default (ascending).
  ///   - predicate: Conditions on other fields (applied after `limit`), or `nil`.
  ///   - limit: The most items the server evaluates per page, or `nil` for
  ///     ``Configuration/listPageSize``.
  ///   - includes: Associations selected eagerly.
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` before sending when the index has
  ///   no query field, the sort key condition gives a later composite field without an earlier
  ///   one, or it is an `eq` without every composite sort key field (it would match nothing on
  ///   AppSync, see ``ModelSortKeyCondition``); else ``APIError`` as ``send(_:)``.
  public func list<M: Model, PartitionKey, SortKey>(
    _ type: M.Type, index: ModelIndexKey<M, PartitionKey, SortKey>, key: PartitionKey,
    sortKey: ModelSortKeyCondition<SortKey>? = nil, sortDirection: ModelSortDirection? = nil,
    where predicate: QueryPredicate<M>? = nil, limit: Int? = nil, includes: [any CodingKey] = []
  ) async throws -> ModelListPage<M> {
    try await list(
      M.self, uncheckedIndex: index.name, key: key,
      sortKey: sortKey?.untyped(sortKeyFields: index.sortKeyFields), sortDirection: sortDirection,
      where: predicate, limit: limit, includes: includes)
  }

  /// The first page of the query of `M`'s `@index` named `indexName` (the escape hatch: the name,
  /// key and sort key condition are checked at run time only; prefer
  /// ``list(_:index:key:sortKey:sortDirection:where:limit:includes:)`` with `M.indexes`): the
  /// partition key equal to `key`, the sort key fields meeting `sortKey`, in `sortDirection` order.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - indexName: The `@index(name:)` of `M`.
  ///   - key: The value of the index's partition key field.
  ///   - sortKey: A condition on the index's sort key fields, or `nil` for all.
  ///   - sortDirection: Order by sort key, or `nil` for the server's default (ascending).
  ///   - predicate: Conditions on other fields (applied after `limit`), or `nil`.
  ///   - limit: The most items the server evaluates per page, or `nil` for
  ///     ``Configuration/listPageSize``.
  ///   - includes: Associations selected eagerly.
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` before sending when `M` has no
  ///   such index, the index has no query field (`@index(queryField: null)`), `key` does not fit the partition key's type, or `sortKey` names a field that is
  ///   not a sort key field of the index, leaves a gap, or is an `eq` without every composite sort
  ///   key field (see ``SortKeyCondition``); else ``APIError`` as ``send(_:)``.
  public func list<M: Model>(
    _ type: M.Type, uncheckedIndex indexName: String, key: some KeyValueConvertible,
    sortKey: SortKeyCondition? = nil, sortDirection: ModelSortDirection? = nil,
    where predicate: QueryPredicate<M>? = nil, limit: Int? = nil, includes: [any CodingKey] = []
  ) async throws -> ModelListPage<M> {
    try await firstIndexPage(
      M.self, index: indexName, key: key.keyValue, sortKey: sortKey, sortDirection: sortDirection,
      where: predicate, limit: limit, includes: includes)
  }

  /// Every `M` that `list<Plural>` returns for `predicate`, as an `AsyncSequence` that fetches
  /// pages of `pageSize` as iteration reaches them (one request at a time).
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - predicate: Conditions on fields, or `nil` for all.
  ///   - pageSize: `limit` of each page, or `nil` for ``Configuration/listPageSize``.
  ///   - includes: Associations selected eagerly.
  /// - Returns: The sequence; iterating it throws what ``list(_:where:limit:includes:)`` throws.
  public func listAll<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M>? = nil, pageSize: Int? = nil,
    includes: [any CodingKey] = []
  ) -> ModelListSequence<M> {
    let names = includes.map(\.stringValue)
    return ModelListSequence { [self] in
      try await list(
        M.self, where: predicate, limit: pageSize, includes: names.map(AnyCodingKey.init))
    }
  }

  /// Every `M` of a typed index query (see ``list(_:index:key:sortKey:sortDirection:where:limit:includes:)``),
  /// fetching pages of `pageSize` as iteration reaches them.
  public func listAll<M: Model, PartitionKey, SortKey>(
    _ type: M.Type, index: ModelIndexKey<M, PartitionKey, SortKey>, key: PartitionKey,
    sortKey: ModelSortKeyCondition<SortKey>? = nil, sortDirection: ModelSortDirection? = nil,
    where predicate: QueryPredicate<M>? = nil, pageSize: Int? = nil, includes: [any CodingKey] = []
  ) -> ModelListSequence<M> {
    listAll(
      M.self, uncheckedIndex: index.name, key: key,
      sortKey: sortKey?.untyped(sortKeyFields: index.sortKeyFields), sortDirection: sortDirection,
      where: predicate, pageSize: pageSize, includes: includes)
  }

  /// Every `M` of an index query by index name (the escape hatch, see
  /// ``list(_:uncheckedIndex:key:sortKey:sortDirection:where:limit:includes:)``), fetching pages
  /// of `pageSize` as iteration reaches them.
  public func listAll<M: Model>(
    _ type: M.Type, uncheckedIndex indexName: String, key: some KeyValueConvertible,
    sortKey: SortKeyCondition? = nil, sortDirection: ModelSortDirection? = nil,
    where predicate: QueryPredicate<M>? = nil, pageSize: Int? = nil, includes: [any CodingKey] = []
  ) -> ModelListSequence<M> {
    let names = includes.map(\.stringValue)
    let keyValue = key.keyValue
    return ModelListSequence { [self] in
      try await firstIndexPage(
        M.self, index: indexName, key: keyValue, sortKey: sortKey, sortDirection: sortDirection,
        where: predicate, limit: pageSize, includes: names.map(AnyCodingKey.init))
    }
  }

  // MARK: - Requests

  /// The `list` request of a page after `nextToken`.
  private func listRequest<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M>?, limit: Int?, includes: [any CodingKey]
  ) throws -> @Sendable (String?) throws -> GraphQLRequest<ModelConnection<M>> {
    let filter = try predicate.flatMap { try GraphQLFilter.from($0.untyped, schema: M.schema) }
    let limit = limit ?? configuration.listPageSize
    let names = includes.map(\.stringValue)
    _ = try ModelQueries.list(M.self, uncheckedFilter: filter, limit: limit)  // fails early when disabled
    return { token in
      try ModelQueries.list(
        M.self, uncheckedFilter: filter, limit: limit, nextToken: token,
        includes: names.map(AnyCodingKey.init))
    }
  }

  /// The first page of an index query: the one body behind the typed and unchecked `list` and
  /// `listAll` index forms (the typed ones convert their key and condition and call the unchecked).
  private func firstIndexPage<M: Model>(
    _ type: M.Type, index indexName: String, key: KeyValue, sortKey: SortKeyCondition?,
    sortDirection: ModelSortDirection?, where predicate: QueryPredicate<M>?, limit: Int?,
    includes: [any CodingKey]
  ) async throws -> ModelListPage<M> {
    try await firstPage(
      try indexRequest(
        M.self, index: indexName, key: key, sortKey: sortKey, sortDirection: sortDirection,
        where: predicate, limit: limit, includes: includes))
  }

  /// The index query request of a page after `nextToken`, its sort key condition checked.
  private func indexRequest<M: Model>(
    _ type: M.Type, index indexName: String, key: KeyValue, sortKey: SortKeyCondition?,
    sortDirection: ModelSortDirection?, where predicate: QueryPredicate<M>?, limit: Int?,
    includes: [any CodingKey]
  ) throws -> @Sendable (String?) throws -> GraphQLRequest<ModelConnection<M>> {
    let schema = M.schema
    let condition = try sortKey.map { try $0.value(of: indexName, in: schema) }
    let filter = try predicate.flatMap { try GraphQLFilter.from($0.untyped, schema: schema) }
    let limit = limit ?? configuration.listPageSize
    let names = includes.map(\.stringValue)
    let make: @Sendable (String?) throws -> GraphQLRequest<ModelConnection<M>> = { token in
      try ModelQueries.query(
        M.self, uncheckedIndex: indexName, partitionKey: key, sortKeyCondition: condition,
        sortDirection: sortDirection, uncheckedFilter: filter, limit: limit, nextToken: token,
        includes: names.map(AnyCodingKey.init))
    }
    _ = try make(nil)  // a bad partition key fails before anything is sent
    return make
  }

  private func firstPage<M: Model>(
    _ request: @escaping @Sendable (String?) throws -> GraphQLRequest<ModelConnection<M>>
  ) async throws -> ModelListPage<M> {
    let first = try request(nil)
    return ModelListPage(
      connection: try await send(first), operationName: first.operationName, client: self,
      request: { try request($0) })
  }
}

extension KeyValue {
  /// `true` for ``KeyValue/string(_:)``.
  fileprivate var isString: Bool {
    if case .string = self { return true }
    return false
  }
}
