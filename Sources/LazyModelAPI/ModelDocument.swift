import LazyModel

/// Names and selection sets of a model's operations, read from its `ModelSchema` only.
///
/// Root field names come from `ModelSchema.operations` and `ModelIndex.queryField`, which the
/// generator resolves with the same function that emits the API schema (so `type class @model`
/// sends `getClass`, and `@model(queries: {get: "fetchW"})` sends `fetchW`); a `nil` name is a
/// disabled operation and building its request throws. Input types follow the Amplify GraphQL
/// Transformer v2 (`ModelResourceIDs`): `Create<Name>Input`/`Update<Name>Input`/`Delete<Name>Input`
/// with the model name's first letter upper-cased, `Model<Name>FilterInput` and
/// `Model<Name>ConditionInput` with the name's first letter upper-cased too (`APITypeNames`, shared
/// with the generator). `get` takes every primary-key field as an
/// argument; `list` takes `filter`, `limit`, `nextToken`; mutations take `input:` and `condition:`;
/// an index query takes the partition key as `<field>: <Type>!` and its sort key fields as one key
/// condition argument. The operation name is the root field name with its first letter upper-cased.
///
/// Thread-safety: stateless; every member is a pure function of its arguments.
public enum ModelDocument {
  /// The `get` query field (`ModelOperationNames.get`).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when the model's `get` query is
  ///   disabled (`@model(queries:)`); nothing is sent.
  public static func getField(_ schema: ModelSchema) throws -> String {
    try enabled(schema.operations.get, "get", schema)
  }
  /// The `list` query field (`ModelOperationNames.list`).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when the model's `list` query is
  ///   disabled.
  public static func listField(_ schema: ModelSchema) throws -> String {
    try enabled(schema.operations.list, "list", schema)
  }
  /// The `create`, `update` or `delete` mutation field (`ModelOperationNames`).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when that mutation is disabled
  ///   (`@model(mutations:)`).
  public static func mutationField(_ mutation: ModelMutationKind, _ schema: ModelSchema) throws
    -> String
  {
    let name: String?
    switch mutation {
    case .create: name = schema.operations.create
    case .update: name = schema.operations.update
    case .delete: name = schema.operations.delete
    }
    return try enabled(name, mutation.rawValue, schema)
  }
  /// The input type of a mutation: `Create<Name>Input`, `Update<Name>Input`, `Delete<Name>Input`,
  /// the model name's first letter upper-cased (`class` → `CreateClassInput`), as the transformer's
  /// `ModelResourceIDs.ModelCreateInputObjectName` derives it.
  public static func mutationInputType(_ mutation: ModelMutationKind, _ schema: ModelSchema)
    -> String
  {
    APITypeNames.mutationInput(mutation.rawValue, schema.name)
  }
  /// `Model<Name>FilterInput`, the model name's first letter upper-cased (`APITypeNames`, the
  /// naming function the generator's API schema uses: `modelType` → `ModelModelTypeFilterInput`).
  public static func filterInputType(_ schema: ModelSchema) -> String {
    APITypeNames.filterInput(schema.name)
  }
  /// `Model<Name>ConditionInput` (`APITypeNames`).
  public static func conditionInputType(_ schema: ModelSchema) -> String {
    APITypeNames.conditionInput(schema.name)
  }
  /// `ModelSubscription<Name>FilterInput` (`APITypeNames`).
  public static func subscriptionFilterInputType(_ schema: ModelSchema) -> String {
    APITypeNames.subscriptionFilterInput(schema.name)
  }
  /// The GraphQL type of the `get` argument (and `Delete<Name>Input` field) of the key field
  /// `field`: `ID` when `ModelSchema.implicitKeyTypedAsID` (no `@primaryKey`, `id: Int!`), else
  /// the field's own type (``typeName(_:)``).
  public static func keyArgumentType(_ field: ModelField, of schema: ModelSchema) -> String {
    schema.implicitKeyTypedAsID ? "ID" : typeName(field.type)
  }
  /// The query field of `index`: its `ModelIndex.queryField` (always set in generated schemas),
  /// else, for hand-written schemas, the transformer's default name
  /// (`comment4V2sByPostIDAndContent` for `byPost4` on `postID`, `content` of `Comment4V2`).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` naming the model and the index
  ///   when the index has no query field (`ModelIndex.hasQueryField` is `false`, declared
  ///   `@index(queryField: null)`): the API schema has no root field to send.
  public static func indexQueryField(_ index: ModelIndex, of schema: ModelSchema) throws -> String {
    guard index.hasQueryField else {
      throw APIError.invalidRequest(
        operationName: "index \(index.name)",
        reason:
          "index \(index.name) of model \(schema.name) has no query field in the API schema (@index(queryField: null)); give it a queryField: to query it"
      )
    }
    if let queryField = index.queryField { return queryField }
    return lowerFirst(schema.pluralName) + "By"
      + index.fields.map(upperFirst).joined(separator: "And")
  }

  /// The operation name of an operation whose root field is `field` (`getClass` → `GetClass`),
  /// or `<kind> <Name>` (`get class`) for a disabled one, as errors name it.
  static func operationName(_ field: String?, _ kind: String, _ schema: ModelSchema) -> String {
    field.map(upperFirst) ?? "\(kind) \(schema.name)"
  }

  /// `field`, or the typed error for the disabled operation `kind` of `schema`.
  private static func enabled(_ field: String?, _ kind: String, _ schema: ModelSchema) throws
    -> String
  {
    guard let field else {
      throw APIError.invalidRequest(
        operationName: operationName(nil, kind, schema),
        reason:
          "the \(kind) operation of model \(schema.name) is disabled in its API schema (@model(queries:, mutations:))"
      )
    }
    return field
  }

  /// The GraphQL type name of a scalar or enum field's named type (`ID`, `AWSDateTime`, `Priority`).
  public static func typeName(_ type: ModelFieldType) -> String { type.graphQLTypeName }

  /// The key condition input type of a single sort key field of type `type`
  /// (`ModelStringKeyConditionInput`, `ModelIDKeyConditionInput`, `ModelIntKeyConditionInput`,
  /// `ModelFloatKeyConditionInput`); enums and AWS scalars compare as strings.
  public static func keyConditionType(_ type: ModelFieldType) -> String {
    switch type {
    case .scalar(.id): return "ModelIDKeyConditionInput"
    case .scalar(.int), .scalar(.awsTimestamp): return "ModelIntKeyConditionInput"
    case .scalar(.float): return "ModelFloatKeyConditionInput"
    default: return "ModelStringKeyConditionInput"
    }
  }

  /// The sort key argument of an index (or primary key) with sort key fields `sortKeyFields`:
  /// the field itself for one, the camel-cased concatenation (`statusDate`) with a
  /// `Model<Name><IndexName>CompositeKeyConditionInput` for more; `nil` for none.
  static func sortKeyArgument(
    _ sortKeyFields: [String], indexName: String, of schema: ModelSchema
  ) -> (name: String, type: String)? {
    guard let first = sortKeyFields.first else { return nil }
    if sortKeyFields.count == 1 {
      let type = schema.keyFieldType(named: first) ?? .string
      return (first, keyConditionType(type))
    }
    let name = lowerFirst(sortKeyFields.map(upperFirst).joined())
    return (name, "Model\(schema.name)\(upperFirst(indexName))CompositeKeyConditionInput")
  }

  /// The selection set of a model as this provider reads it (with braces):
  /// every data field (embedded types with their own fields), the target names (FK fields) of each
  /// `@belongsTo`/`@hasOne` that stores them, each `@belongsTo`/`@hasOne` as one
  /// nested level with only the referenced model's primary-key fields plus `__typename` (for a
  /// `@hasOne(references:)`, the child's FK fields that identify it, as `LazyReference` decodes
  /// it), no `@hasMany`, then `__typename`.
  ///
  /// - Parameters:
  ///   - schema: The model's schema.
  ///   - includes: Association field names selected eagerly instead: a belongsTo/hasOne in
  ///     full (the referenced model's own lazy selection set), a hasMany as
  ///     `{ items { … } nextToken }`. A name may be a path of association names joined by `.`
  ///     (`post.comments.post`, a `ModelPath`'s `stringValue`): each level on it is included, at
  ///     any depth.
  ///   - referencesByForeignKeys: `true` selects a `@belongsTo`/`@hasOne` whose FK fields are on
  ///     this model (as many as the referenced key's fields) by those fields alone, without the
  ///     nested level, so the service resolves no parent per record (the sync engine's sync
  ///     queries and subscriptions, which rebuild the reference from the FK fields). Default `false`.
  public static func selectionSet(
    of schema: ModelSchema, includes: Set<String> = [], referencesByForeignKeys: Bool = false
  ) -> String {
    let (includes, deeper) = splitIncludes(includes)
    var parts: [String] = []
    for field in schema.fields {
      switch field.association {
      case nil:
        parts.append(dataSelection(field))
      case .belongsTo(_, let targetNames), .hasOne(_, let targetNames):
        guard case .model(let type) = field.type else { continue }
        // The FK fields themselves, beside the nested object: AppSync resolves a target that does
        // not exist (or was deleted) to `null`, and the key must survive that (issue 14).
        for target in targetNames where schema.field(named: target) == nil {
          parts.append(target)
        }
        if referencesByForeignKeys, !includes.contains(field.name), !targetNames.isEmpty,
          Set(referencedFields(field.association)) == Set(type.schema.primaryKey),
          targetNames.count == type.schema.primaryKey.count
        {
          continue
        }
        if includes.contains(field.name) {
          parts.append(
            "\(field.name) \(selectionSet(of: type.schema, includes: deeper[field.name] ?? []))")
        } else {
          var identifying = type.schema.primaryKey
          if case .hasOne(let associatedFields, let targetNames) = field.association,
            targetNames.isEmpty
          {
            identifying = associatedFields
          }
          parts.append("\(field.name) { \((identifying + ["__typename"]).joined(separator: " ")) }")
        }
      case .hasMany:
        guard includes.contains(field.name), case .list(.model(let type), _) = field.type else {
          continue
        }
        parts.append(
          "\(field.name) { items \(selectionSet(of: type.schema, includes: deeper[field.name] ?? [])) nextToken }"
        )
      }
    }
    parts.append("__typename")
    return "{ " + parts.joined(separator: " ") + " }"
  }

  /// The hasMany fields of `schema` and of the models included below it, with the child's
  /// resolved FK fields: the target names of the child's belongsTo when the association names one,
  /// else the named fields. Included fields are marked `included`; the others are there for a child
  /// that has neither a `list` query nor an index query serving the association
  /// (`@model(queries: null)`), which is read through the parent's connection field.
  static func nestedLists(of schema: ModelSchema, includes: Set<String>) -> [NestedListSource] {
    let (includes, deeper) = splitIncludes(includes)
    // The lists of included models, at every depth, each paging through its own parent field.
    var lists: [NestedListSource] = []
    for field in schema.fields where includes.contains(field.name) {
      let below = deeper[field.name] ?? []
      switch field.type {
      case .model(let type), .list(.model(let type), _):
        lists += nestedLists(of: type.schema, includes: below)
      default:
        continue
      }
    }
    let here: [NestedListSource] = schema.fields.compactMap { field in
      guard case .hasMany(let associated, _) = field.association,
        case .list(.model(let child), _) = field.type
      else { return nil }
      var resolved = associated
      if associated.count == 1, let reference = child.schema.field(named: associated[0]) {
        switch reference.association {
        case .belongsTo(_, let targetNames), .hasOne(_, let targetNames):
          if !targetNames.isEmpty { resolved = targetNames }
        default: break
        }
      }
      return NestedListSource(
        child: ObjectIdentifier(child), associatedFields: resolved, parent: schema,
        field: field.name, included: includes.contains(field.name))
    }
    return lists + here
  }

  /// Checks that every include (a coding key, or a `ModelPath` joined by `.`) names an
  /// association at each step from `schema` (generated paths always do; a hand-made key may not).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` naming the model and the field
  ///   that is not one of its associations; nothing is sent.
  static func checkIncludes(
    _ includes: [any CodingKey], of schema: ModelSchema, operationName: String
  ) throws {
    for include in includes {
      var current = schema
      for name in include.stringValue.split(separator: ".", omittingEmptySubsequences: false) {
        let field = current.field(named: String(name))
        switch (field?.association, field?.type) {
        case (.some, .model(let type)?), (.some, .list(.model(let type), _)?):
          current = type.schema
        default:
          throw APIError.invalidRequest(
            operationName: operationName,
            reason:
              "include \(include.stringValue): \(current.name).\(name) is not an association of \(current.name)"
          )
        }
      }
    }
  }

  /// The first field name of each include path, and per first name the rest of its paths
  /// (`["post.comments", "post"]` → `["post"]`, `["post": ["comments"]]`).
  static func splitIncludes(_ includes: Set<String>) -> (Set<String>, [String: Set<String>]) {
    guard includes.contains(where: { $0.contains(".") }) else { return (includes, [:]) }
    var first: Set<String> = []
    var deeper: [String: Set<String>] = [:]
    for path in includes {
      guard let dot = path.firstIndex(of: ".") else {
        first.insert(path)
        continue
      }
      let head = String(path[..<dot])
      first.insert(head)
      deeper[head, default: []].insert(String(path[path.index(after: dot)...]))
    }
    return (first, deeper)
  }

  /// The referenced model's fields a `@belongsTo`/`@hasOne` association's FK fields hold.
  private static func referencedFields(_ association: ModelAssociation?) -> [String] {
    switch association {
    case .belongsTo(let associated, _)?, .hasOne(let associated, _)?: return associated
    default: return []
    }
  }

  /// The selection of a data field: its name, with an embedded type's fields in braces. A model
  /// an embedded type holds (an embedded value, not an association) selects its own writable data
  /// fields one level deep, the FK fields of its `@belongsTo`/`@hasOne` that are no data field
  /// (implicit ones such as `authorBooksId`, so each reference decodes not loaded, holding its
  /// key), plus `__typename`; not its relation fields, nor its read-only timestamps, which the service
  /// fills only on the model's own records (the API schema declares them non-null, and the
  /// `Create<Model>Input` the value is written with has none); models held below that level are
  /// not selected (`nestedModels: false`), so the selection ends however the types nest.
  private static func dataSelection(_ field: ModelField) -> String {
    dataSelection(field, nestedModels: true) ?? field.name
  }

  private static func dataSelection(_ field: ModelField, nestedModels: Bool) -> String? {
    var type = field.type
    while case .list(let element, _) = type { type = element }
    switch type {
    case .embedded(let embedded):
      let parts = embedded.schema.fields.compactMap { dataSelection($0, nestedModels: nestedModels) }
      return "\(field.name) { " + parts.joined(separator: " ") + " }"
    case .model(let model) where field.association == nil:
      guard nestedModels else { return nil }
      var parts: [String] = []
      for member in model.schema.fields {
        switch member.association {
        case nil:
          guard !member.isReadOnly, let part = dataSelection(member, nestedModels: false) else { continue }
          parts.append(part)
        case .belongsTo(_, let targetNames)?, .hasOne(_, let targetNames)?:
          // The FK fields the held model stores that are no data field of it (implicit ones,
          // `authorBooksId`): its `Create<Model>Input` writes them, and its reference is rebuilt
          // from them (not loaded, loadable by that key) instead of claiming no target.
          parts += targetNames.filter { model.schema.field(named: $0) == nil && !parts.contains($0) }
        case .hasMany?:
          continue
        }
      }
      return "\(field.name) { " + (parts + ["__typename"]).joined(separator: " ") + " }"
    default:
      return field.name
    }
  }

  static func upperFirst(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }
  static func lowerFirst(_ text: String) -> String {
    text.prefix(1).lowercased() + text.dropFirst()
  }
}

/// The three mutations the transformer generates for a model; the raw value is the field prefix.
public enum ModelMutationKind: String, Sendable, Hashable, CaseIterable {
  /// `create<Name>(input: Create<Name>Input!, condition: …)`.
  case create
  /// `update<Name>(input: Update<Name>Input!, condition: …)`.
  case update
  /// `delete<Name>(input: Delete<Name>Input!, condition: …)`.
  case delete
}

/// The order of an index query's results by sort key (`ModelSortDirection`).
public enum ModelSortDirection: String, Sendable, Hashable {
  /// Ascending sort key.
  case ascending = "ASC"
  /// Descending sort key.
  case descending = "DESC"
}
