import Foundation
import LazyModel

/// Query requests for generated models: `get`, `list` and index queries, built from
/// `ModelSchema` (see ``ModelDocument`` for the naming rules). Root field names are the schema's
/// `ModelSchema.operations` and `ModelIndex.queryField`; a builder for a disabled operation
/// throws ``APIError/invalidRequest(operationName:reason:)`` and nothing is sent.
///
/// Key values, filters, limits and cursors always travel as variables typed after the field's
/// GraphQL type (`$id: ID!`, `$seq: Int!`), never inlined into the document.
public enum ModelQueries {
  /// `query Get<Name>($k1: T1!, …) { get<Name>(k1: $k1, …) { … } }` for the model with the typed
  /// identifier `identifier`.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - identifier: The model's typed identifier (every primary-key field).
  ///   - includes: Association coding keys selected eagerly (see
  ///     ``ModelDocument/selectionSet(of:includes:referencesByForeignKeys:)``).
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when the model's `get` query is
  ///   disabled; nothing is sent.
  public static func get<M: Model>(
    _ type: M.Type, byIdentifier identifier: M.Identifier, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<M?> {
    let schema = M.schema
    let values = Dictionary(
      identifier.components.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    // A generated identifier names exactly the primary-key fields, so every lookup succeeds.
    return try makeGet(
      schema, keyValues: schema.primaryKey.map { values[$0] ?? .string("") }, includes: includes)
  }

  /// The `get` request for untyped identifier components (as a not-loaded `LazyReference` holds them).
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - identifiers: One component per primary-key field of `M`, any order.
  ///   - includes: Association coding keys selected eagerly.
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when the names are not exactly
  ///   the primary key of `M` or a value does not fit its field's type, or the `get` query is disabled.
  public static func get<M: Model>(
    _ type: M.Type, identifiers: [IdentifierComponent], includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<M?> {
    let schema = M.schema
    let operationName = ModelDocument.operationName(
      try ModelDocument.getField(schema), "get", schema)
    let values = Dictionary(
      identifiers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    guard identifiers.count == schema.primaryKey.count, Set(values.keys) == Set(schema.primaryKey)
    else {
      throw APIError.invalidRequest(
        operationName: operationName,
        reason:
          "identifiers \(identifiers.map(\.name)) are not the primary key \(schema.primaryKey) of \(schema.name)"
      )
    }
    var keyValues: [KeyValue] = []
    for field in schema.primaryKeyFields {
      let value = values[field.name]!
      guard GraphQLValue(value).keyValue(as: field.type) != nil else {
        throw APIError.invalidRequest(
          operationName: operationName,
          reason:
            "\(schema.name).\(field.name) is \(ModelDocument.typeName(field.type)), got \(value)")
      }
      keyValues.append(value)
    }
    return try makeGet(schema, keyValues: keyValues, includes: includes)
  }

  /// The `get` document of a model type without includes (the lazy loads' request), built once
  /// per type: building it was about 25,000 instructions per request.
  private struct GetShape: Sendable {
    let field: String
    let operationName: String
    let document: String
    let keyFields: [String]
    /// Every hasMany of the model (a list decoded from the response pages through its own query,
    /// or through the parent's connection field when the child has none).
    let nestedLists: [NestedListSource]
  }

  private static let getShapes = APILock<[ObjectIdentifier: GetShape]>([:])

  private static func makeGet<M: Model>(
    _ schema: ModelSchema, keyValues: [KeyValue], includes: [any CodingKey]
  ) throws -> GraphQLRequest<M?> {
    if includes.isEmpty {
      let shape: GetShape
      if let cached = getShapes.withLock({ $0[ObjectIdentifier(M.self)] }) {
        shape = cached
      } else {
        shape = try makeGetShape(M.self, schema)
        getShapes.withLock { $0[ObjectIdentifier(M.self)] = shape }
      }
      var variables: [String: GraphQLValue] = [:]
      for (name, value) in zip(shape.keyFields, keyValues) { variables[name] = GraphQLValue(value) }
      return GraphQLRequest(
        operationType: .query, operationName: shape.operationName, document: shape.document,
        variables: variables, responseField: shape.field, nestedLists: shape.nestedLists)
    }
    return try makeGetRequest(schema, keyValues: keyValues, includes: includes)
  }

  private static func makeGetShape<M: Model>(_ type: M.Type, _ schema: ModelSchema) throws
    -> GetShape
  {
    let request: GraphQLRequest<M?> = try makeGetRequest(schema, keyValues: [], includes: [])
    return GetShape(
      field: request.responseField, operationName: request.operationName,
      document: request.document, keyFields: schema.primaryKeyFields.map(\.name),
      nestedLists: request.nestedLists)
  }

  private static func makeGetRequest<M: Model>(
    _ schema: ModelSchema, keyValues: [KeyValue], includes: [any CodingKey]
  ) throws -> GraphQLRequest<M?> {
    let field = try ModelDocument.getField(schema)
    let operationName = ModelDocument.upperFirst(field)
    let keyFields = schema.primaryKeyFields
    let declarations = keyFields.map {
      "$\($0.name): \(ModelDocument.keyArgumentType($0, of: schema))!"
    }
    let arguments = keyFields.map { "\($0.name): $\($0.name)" }
    try ModelDocument.checkIncludes(includes, of: schema, operationName: operationName)
    let selection = ModelDocument.selectionSet(
      of: schema, includes: Set(includes.map(\.stringValue)))
    let document =
      "query \(operationName)(\(declarations.joined(separator: ", "))) { \(field)(\(arguments.joined(separator: ", "))) \(selection) }"
    var variables: [String: GraphQLValue] = [:]
    for (keyField, value) in zip(keyFields, keyValues) {
      variables[keyField.name] = GraphQLValue(value)
    }
    return GraphQLRequest(
      operationType: .query, operationName: operationName, document: document, variables: variables,
      responseField: field,
      nestedLists: ModelDocument.nestedLists(of: schema, includes: Set(includes.map(\.stringValue)))
    )
  }

  /// `query List<Plural>($filter: Model<Name>FilterInput, $limit: Int, $nextToken: String) { list<Plural>(…) { items { … } nextToken } }`
  /// filtered by a typed predicate on `M` (the predicate type the DataStore takes too), converted
  /// by ``GraphQLFilter/from(_:schema:)``: `ModelQueries.list(Post.self, where: Post.keys.title.eq("a"))`.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - predicate: Conditions on fields of `M`; `.all` (the default) sends no filter.
  ///   - limit: The most items the server evaluates for this page (AppSync applies the filter after
  ///     `limit`, so a page can hold fewer items and still have a `nextToken`); `nil` for the server default.
  ///   - nextToken: The previous page's `nextToken`, or `nil` for the first page.
  ///   - includes: Association coding keys selected eagerly.
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when the predicate cannot be
  ///   expressed (see ``GraphQLFilter/from(_:schema:)``) or the model's `list` query is disabled;
  ///   nothing is sent.
  public static func list<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M> = .all, limit: Int? = nil,
    nextToken: String? = nil, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<ModelConnection<M>> {
    try list(
      type, uncheckedFilter: try GraphQLFilter.from(predicate.untyped, schema: M.schema),
      limit: limit, nextToken: nextToken, includes: includes)
  }

  /// `list<Plural>` with a filter input as written (the escape hatch: nothing checks `filter`
  /// against `M`; prefer ``list(_:where:limit:nextToken:includes:)``).
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - filter: The `Model<Name>FilterInput` value, or `nil` for all models.
  ///   - limit: The most items the server evaluates for this page; `nil` for the server default.
  ///   - nextToken: The previous page's `nextToken`, or `nil` for the first page.
  ///   - includes: Association coding keys selected eagerly.
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when the model's `list` query is
  ///   disabled; nothing is sent.
  public static func list<M: Model>(
    _ type: M.Type, uncheckedFilter filter: GraphQLFilter?, limit: Int? = nil,
    nextToken: String? = nil, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<ModelConnection<M>> {
    let schema = M.schema
    let field = try ModelDocument.listField(schema)
    let operationName = ModelDocument.upperFirst(field)
    try ModelDocument.checkIncludes(includes, of: schema, operationName: operationName)
    let selection = ModelDocument.selectionSet(
      of: schema, includes: Set(includes.map(\.stringValue)))
    let document =
      "query \(operationName)($filter: \(ModelDocument.filterInputType(schema)), $limit: Int, $nextToken: String) { \(field)(filter: $filter, limit: $limit, nextToken: $nextToken) { items \(selection) nextToken } }"
    return GraphQLRequest(
      operationType: .query, operationName: operationName, document: document,
      variables: pagingVariables(filter: filter, limit: limit, nextToken: nextToken),
      responseField: field,
      nestedLists: ModelDocument.nestedLists(of: schema, includes: Set(includes.map(\.stringValue)))
    )
  }

  /// The query of the typed `@index` `index` of `M` (`Book.indexes.byIsbn`, see
  /// `ModelIndexKey`):
  /// `query <QueryField>($pk: T!, $sk: Model…KeyConditionInput, $sortDirection: ModelSortDirection, $filter: …, $limit: Int, $nextToken: String) { … }`.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - index: The generated index key (`M.indexes.<name>`).
  ///   - partitionKey: The value of the index's partition key field, of its Swift type.
  ///   - sortKey: A condition on the index's sort key fields, of their Swift types (see
  ///     ``ModelSortKeyCondition``), or `nil` for all.
  ///   - sortDirection: Result order by sort key, or `nil` for the server default (ascending).
  ///   - predicate: Conditions on other fields of `M` (applied after `limit`); `.all` for none.
  ///   - limit: The most items the server evaluates for this page; `nil` for the server default.
  ///   - nextToken: The previous page's `nextToken`, or `nil` for the first page.
  ///   - includes: Association coding keys selected eagerly.
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when `M.schema` has no such
  ///   index or it has no query field, the sort key condition skips a field before a later one or
  ///   is an `eq` without every composite sort key field (see ``SortKeyCondition``), or the
  ///   predicate cannot be expressed; nothing is sent.
  public static func query<M: Model, PartitionKey, SortKey>(
    _ type: M.Type, index: ModelIndexKey<M, PartitionKey, SortKey>, partitionKey: PartitionKey,
    sortKey: ModelSortKeyCondition<SortKey>? = nil, sortDirection: ModelSortDirection? = nil,
    where predicate: QueryPredicate<M> = .all, limit: Int? = nil, nextToken: String? = nil,
    includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<ModelConnection<M>> {
    let condition = try sortKey.map {
      try $0.untyped(sortKeyFields: index.sortKeyFields).value(of: index.name, in: M.schema)
    }
    return try query(
      type, uncheckedIndex: index.name, partitionKey: partitionKey.keyValue,
      sortKeyCondition: condition, sortDirection: sortDirection,
      uncheckedFilter: try GraphQLFilter.from(predicate.untyped, schema: M.schema), limit: limit,
      nextToken: nextToken, includes: includes)
  }

  /// The query of the `@index` named `indexName` of `M`, with the sort key condition and filter
  /// as written (the escape hatch: the index name, key condition and filter are checked only at
  /// run time, or by the server; prefer ``query(_:index:partitionKey:sortKey:sortDirection:where:limit:nextToken:includes:)``
  /// with `M.indexes`).
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - indexName: The `@index(name:)` of `M` to query.
  ///   - partitionKey: The value of the index's partition key field.
  ///   - sortKeyCondition: The key condition on the sort key fields (`{eq: "x"}`, `{beginsWith: "a"}`,
  ///     or for several sort key fields `{eq: {status: "A", date: "…"}}`), or `nil`.
  ///   - sortDirection: Result order by sort key, or `nil` for the server default (ascending).
  ///   - filter: The `Model<Name>FilterInput` on other fields, or `nil`.
  ///   - limit: The most items the server evaluates for this page; `nil` for the server default.
  ///   - nextToken: The previous page's `nextToken`, or `nil` for the first page.
  ///   - includes: Association coding keys selected eagerly.
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when `M` has no index named
  ///   `indexName`, the index has no query field (`@index(queryField: null)`), or `partitionKey`
  ///   does not fit the partition key field's type.
  public static func query<M: Model>(
    _ type: M.Type, uncheckedIndex indexName: String, partitionKey: KeyValue,
    sortKeyCondition: GraphQLValue? = nil,
    sortDirection: ModelSortDirection? = nil, uncheckedFilter filter: GraphQLFilter? = nil,
    limit: Int? = nil, nextToken: String? = nil, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<ModelConnection<M>> {
    let schema = M.schema
    guard let index = schema.indexes.first(where: { $0.name == indexName }),
      let partitionName = index.fields.first
    else {
      throw APIError.invalidRequest(
        operationName: "index \(indexName)",
        reason: "\(schema.name) has no index named \(indexName)")
    }
    let field = try ModelDocument.indexQueryField(index, of: schema)
    let operationName = ModelDocument.upperFirst(field)
    // An index may name a target name of a belongsTo (`postID`), typed after the field it holds.
    var fieldTypes: [ModelFieldType] = []
    for name in index.fields {
      guard let type = schema.keyFieldType(named: name) else {
        throw APIError.invalidRequest(
          operationName: operationName,
          reason:
            "index \(indexName) names \(name), which \(schema.name) neither has nor references")
      }
      fieldTypes.append(type)
    }
    let partitionField = ModelField(name: partitionName, type: fieldTypes[0], isRequired: true)
    guard GraphQLValue(partitionKey).keyValue(as: partitionField.type) != nil else {
      throw APIError.invalidRequest(
        operationName: operationName,
        reason:
          "\(schema.name).\(partitionField.name) is \(ModelDocument.typeName(partitionField.type)), got \(partitionKey)"
      )
    }
    var declarations = ["$\(partitionField.name): \(ModelDocument.typeName(partitionField.type))!"]
    var arguments = ["\(partitionField.name): $\(partitionField.name)"]
    var variables = pagingVariables(filter: filter, limit: limit, nextToken: nextToken)
    variables[partitionField.name] = GraphQLValue(partitionKey)
    if let sortKey = ModelDocument.sortKeyArgument(
      Array(index.fields.dropFirst()), indexName: index.name, of: schema)
    {
      declarations.append("$\(sortKey.name): \(sortKey.type)")
      arguments.append("\(sortKey.name): $\(sortKey.name)")
      if let sortKeyCondition { variables[sortKey.name] = sortKeyCondition }
    }
    declarations += [
      "$sortDirection: ModelSortDirection", "$filter: \(ModelDocument.filterInputType(schema))",
      "$limit: Int", "$nextToken: String",
    ]
    arguments += [
      "sortDirection: $sortDirection", "filter: $filter", "limit: $limit", "nextToken: $nextToken",
    ]
    if let sortDirection { variables["sortDirection"] = .string(sortDirection.rawValue) }
    try ModelDocument.checkIncludes(includes, of: schema, operationName: operationName)
    let selection = ModelDocument.selectionSet(
      of: schema, includes: Set(includes.map(\.stringValue)))
    let document =
      "query \(operationName)(\(declarations.joined(separator: ", "))) { \(field)(\(arguments.joined(separator: ", "))) { items \(selection) nextToken } }"
    return GraphQLRequest(
      operationType: .query, operationName: operationName, document: document, variables: variables,
      responseField: field,
      nestedLists: ModelDocument.nestedLists(of: schema, includes: Set(includes.map(\.stringValue)))
    )
  }

  /// The page request for the `M` models whose `associatedFields` equal `values` (a hasMany):
  /// through the index whose leading fields are `associatedFields` when `M` has one — the one
  /// named `indexName` (the `@hasMany`'s `indexName:`) when it serves them, else the first —
  /// (partition key equal to the first value, sort key condition `eq` on the rest), else `list`
  /// with an `eq` filter on every field (a scan on DynamoDB). An index query returns its items in
  /// that index's sort key order.
  ///
  /// Indexes the transformer derives for a `@hasMany` without `indexName` (`gsi-Parent.field`)
  /// have no query field, so they are not used.
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when the counts differ, or the
  ///   `list` query it needs is disabled.
  public static func list<M: Model>(
    _ type: M.Type, whereFields associatedFields: [String], equal values: [KeyValue],
    indexName: String? = nil, limit: Int? = nil, nextToken: String? = nil
  ) throws -> GraphQLRequest<ModelConnection<M>> {
    let schema = M.schema
    guard associatedFields.count == values.count, !values.isEmpty else {
      throw APIError.invalidRequest(
        operationName: ModelDocument.operationName(
          try? ModelDocument.listField(schema), "list", schema),
        reason:
          "\(associatedFields.count) associated fields of \(schema.name) for \(values.count) values"
      )
    }
    if let index = servingIndex(of: schema, for: associatedFields, named: indexName) {
      let rest = Array(values.dropFirst())
      var condition: GraphQLValue?
      if rest.count == 1 {
        condition = ["eq": GraphQLValue(rest[0])]
      } else if rest.count > 1 {
        let members = zip(associatedFields.dropFirst(), rest).map { ($0, GraphQLValue($1)) }
        condition = ["eq": .object(Dictionary(members, uniquingKeysWith: { first, _ in first }))]
      }
      return try query(
        M.self, uncheckedIndex: index.name, partitionKey: values[0], sortKeyCondition: condition,
        limit: limit,
        nextToken: nextToken)
    }
    let components = zip(associatedFields, values).map { IdentifierComponent(name: $0, value: $1) }
    return try list(M.self, uncheckedFilter: .equal(components), limit: limit, nextToken: nextToken)
  }

  /// The next page of the hasMany `field` of the `parent` model whose key values are `parentKey`,
  /// read through the parent (the `nextToken` of a nested connection belongs to that field):
  /// `query Get<Parent><Field>($k: T!, …, $limit: Int, $nextToken: String) { get<Parent>(k: $k, …) { <field>(limit: $limit, nextToken: $nextToken) { items { … } nextToken } } }`.
  static func nestedPage<M: Model>(
    _ type: M.Type, parent: ModelSchema, field: String, parentKey: [KeyValue], limit: Int?,
    nextToken: String?
  ) throws -> GraphQLRequest<NestedConnection<M>> {
    let root = try ModelDocument.getField(parent)
    let operationName = ModelDocument.upperFirst(root) + ModelDocument.upperFirst(field)
    let keyFields = parent.primaryKeyFields
    let declarations =
      keyFields.map { "$\($0.name): \(ModelDocument.keyArgumentType($0, of: parent))!" } + [
        "$limit: Int", "$nextToken: String",
      ]
    let arguments = keyFields.map { "\($0.name): $\($0.name)" }
    let document =
      "query \(operationName)(\(declarations.joined(separator: ", "))) { \(root)(\(arguments.joined(separator: ", "))) { \(field)(limit: $limit, nextToken: $nextToken) { items \(ModelDocument.selectionSet(of: M.schema)) nextToken } } }"
    var variables = pagingVariables(filter: nil, limit: limit, nextToken: nextToken)
    for (keyField, value) in zip(keyFields, parentKey) {
      variables[keyField.name] = GraphQLValue(value)
    }
    var request = GraphQLRequest<NestedConnection<M>>(
      operationType: .query, operationName: operationName, document: document, variables: variables,
      responseField: root, nestedField: field, nestedLists: [])
    request.parentRead = (parent, field)
    return request
  }

  /// The index of `schema` that serves equality on `fields`: its partition key is `fields[0]` and
  /// its sort key fields are the rest of `fields` (or any, for one field), and it has a query field
  /// (an `@index`, not a transformer-derived `gsi-…` index). The one named `name` when it serves,
  /// else the first that does.
  public static func servingIndex(
    of schema: ModelSchema, for fields: [String], named name: String? = nil
  ) -> ModelIndex? {
    func serves(_ index: ModelIndex) -> Bool {
      !index.name.hasPrefix("gsi-") && index.hasQueryField && (index.fields.count == fields.count || fields.count == 1)
        && Array(index.fields.prefix(fields.count)) == fields
    }
    return schema.indexes.first { $0.name == name && serves($0) } ?? schema.indexes.first(where: serves)
  }

  static func pagingVariables(filter: GraphQLFilter?, limit: Int?, nextToken: String?) -> [String:
    GraphQLValue]
  {
    var variables: [String: GraphQLValue] = [:]
    if let filter { variables["filter"] = filter.value }
    if let limit { variables["limit"] = .int(limit) }
    if let nextToken { variables["nextToken"] = .string(nextToken) }
    return variables
  }
}
