import Foundation
import LazyModel

/// Mutation requests for generated models: `create`, `update` and `delete` (root fields named by
/// `ModelSchema.operations`), each with `input: <Op><Name>Input!` and an optional
/// `condition: Model<Name>ConditionInput`. Every builder throws
/// ``APIError/invalidRequest(operationName:reason:)`` for a disabled mutation, before anything is sent.
///
/// Inputs are built from `ModelSchema`: every writable data field (read-only timestamps are
/// left out), every primary-key component with its own JSON type (an `Int` sort key stays a
/// number), and for each `@belongsTo`/`@hasOne` that holds the foreign key its target names, filled
/// from the reference's associated fields (a loaded model or the identifiers of a not-loaded
/// reference; `null` for an empty reference). `@hasMany` and `@hasOne(references:)` fields hold no
/// data of this model and are not sent. `delete` sends only the primary key. A timestamp field the
/// model declares itself is writable: sent when set, and never sent as `null` by `update` (the
/// service keeps or fills it, transformer v2). Owner fields of owner `@auth` rules left `nil`:
/// `create` sends none of them (AppSync fills each from the token: the owner value, or a list
/// holding it); `update` leaves out a single owner field (a `null` would clear the record's owner)
/// but sends a co-owner list (`editors: [String]`) as `null`, which clears it as `[]` does.
public enum ModelMutations {
  /// `mutation Create<Name>($input: Create<Name>Input!, $condition: Model<Name>ConditionInput) { create<Name>(input: $input, condition: $condition) { … } }`.
  ///
  /// - Parameters:
  ///   - model: The model to write.
  ///   - condition: A typed predicate on `M` the stored model must meet (sent as the
  ///     `Model<Name>ConditionInput`, converted as ``GraphQLFilter/from(_:schema:)`` converts a
  ///     filter), or `nil` (or `.all`) for none.
  ///   - includes: Associations (coding keys or `ModelPath`s, at any depth) the returned model
  ///     selects eagerly (``ModelDocument/selectionSet(of:includes:referencesByForeignKeys:)``).
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` (naming this mutation) when
  ///   `model` cannot be encoded, `condition` cannot be expressed, or the mutation is disabled.
  public static func create<M: Model>(
    _ model: M, condition: QueryPredicate<M>? = nil, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<M> {
    try mutation(.create, model, condition: try filter(condition, .create), includes: includes)
  }

  /// `create<Name>` with a `Model<Name>ConditionInput` as written (the escape hatch: nothing
  /// checks `condition` against `M`; prefer ``create(_:condition:includes:)`` with a typed
  /// predicate). For what a predicate cannot say, such as `attributeExists: false` on a required
  /// key field (write only when absent).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when `model` cannot be encoded
  ///   or the mutation is disabled.
  public static func create<M: Model>(
    _ model: M, uncheckedCondition condition: GraphQLFilter, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<M> {
    try mutation(.create, model, condition: condition, includes: includes)
  }

  /// `update<Name>`: every writable field of `model` is sent; optional fields that are `nil` are
  /// sent as `null`, so the stored model ends up equal to `model` — except a single owner field of
  /// an owner `@auth` rule (`owner: String`), which is left out when `nil` (the stored owner
  /// stays); a co-owner list (`editors: [String]`) left `nil` is sent as `null` and cleared. Sent through an ``APIClient``,
  /// the `nil` fields the client's last read of this record got back as AppSync's `Unauthorized`
  /// (field-level `@auth`) are left out, so an unreadable stored value is not cleared.
  ///
  /// - Parameters:
  ///   - model: The model to write.
  ///   - condition: A typed predicate on `M` the stored model must meet (sent as the
  ///     `Model<Name>ConditionInput`, converted as ``GraphQLFilter/from(_:schema:)`` converts a
  ///     filter), or `nil` (or `.all`) for none.
  ///   - includes: Associations (coding keys or `ModelPath`s, at any depth) the returned model
  ///     selects eagerly (``ModelDocument/selectionSet(of:includes:referencesByForeignKeys:)``).
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` (naming this mutation) when
  ///   `model` cannot be encoded, `condition` cannot be expressed, or the mutation is disabled.
  public static func update<M: Model>(
    _ model: M, condition: QueryPredicate<M>? = nil, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<M> {
    try mutation(.update, model, condition: try filter(condition, .update), includes: includes)
  }

  /// `update<Name>` with a `Model<Name>ConditionInput` as written (the escape hatch: nothing
  /// checks `condition` against `M`; prefer ``update(_:condition:includes:)`` with a typed
  /// predicate). For what a predicate cannot say, such as `attributeExists: false` on a required
  /// key field (write only when absent).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when `model` cannot be encoded
  ///   or the mutation is disabled.
  public static func update<M: Model>(
    _ model: M, uncheckedCondition condition: GraphQLFilter, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<M> {
    try mutation(.update, model, condition: condition, includes: includes)
  }

  /// `delete<Name>` of `model`'s primary key.
  ///
  /// - Parameters:
  ///   - model: The model to write.
  ///   - condition: A typed predicate on `M` the stored model must meet (sent as the
  ///     `Model<Name>ConditionInput`, converted as ``GraphQLFilter/from(_:schema:)`` converts a
  ///     filter), or `nil` (or `.all`) for none.
  ///   - includes: Associations (coding keys or `ModelPath`s, at any depth) the returned model
  ///     selects eagerly (``ModelDocument/selectionSet(of:includes:referencesByForeignKeys:)``).
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` (naming this mutation) when
  ///   `model` cannot be encoded, `condition` cannot be expressed, or the mutation is disabled.
  public static func delete<M: Model>(
    _ model: M, condition: QueryPredicate<M>? = nil, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<M> {
    try mutation(.delete, model, condition: try filter(condition, .delete), includes: includes)
  }

  /// `delete<Name>` with a `Model<Name>ConditionInput` as written (the escape hatch: nothing
  /// checks `condition` against `M`; prefer ``delete(_:condition:includes:)`` with a typed
  /// predicate). For what a predicate cannot say, such as `attributeExists: false` on a required
  /// key field (write only when absent).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when `model` cannot be encoded
  ///   or the mutation is disabled.
  public static func delete<M: Model>(
    _ model: M, uncheckedCondition condition: GraphQLFilter, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<M> {
    try mutation(.delete, model, condition: condition, includes: includes)
  }

  /// `delete<Name>` by typed identifier.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - identifier: The model's typed identifier (every primary-key field).
  ///   - condition: A typed predicate on `M` the stored model must meet, or `nil` for none.
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when `condition` cannot be
  ///   expressed or the model's `delete` mutation is disabled.
  public static func delete<M: Model>(
    _ type: M.Type, byIdentifier identifier: M.Identifier, condition: QueryPredicate<M>? = nil
  ) throws -> GraphQLRequest<M> {
    var input: [String: GraphQLValue] = [:]
    for component in identifier.components { input[component.name] = GraphQLValue(component.value) }
    return try request(.delete, M.schema, input: input, condition: try filter(condition, .delete))
  }

  /// The `Model<Name>ConditionInput` of `predicate` (``GraphQLFilter/from(_:schema:)``), or `nil`
  /// for `nil` and `.all`.
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` naming the `kind` mutation of
  ///   `M` when the predicate cannot be expressed.
  private static func filter<M: Model>(_ predicate: QueryPredicate<M>?, _ kind: ModelMutationKind)
    throws -> GraphQLFilter?
  {
    guard let predicate else { return nil }
    do {
      return try GraphQLFilter.from(predicate.untyped, schema: M.schema)
    } catch APIError.invalidRequest(_, let reason) {
      throw APIError.invalidRequest(
        operationName: ModelDocument.operationName(
          try? ModelDocument.mutationField(kind, M.schema), kind.rawValue, M.schema),
        reason: "condition: \(reason)")
    }
  }

  /// The input object `kind` sends for `model` (see the type's documentation for the rules).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` when `model` cannot be encoded
  ///   as JSON or a primary-key component is missing from its encoding.
  public static func input<M: Model>(_ kind: ModelMutationKind, of model: M) throws -> [String:
    GraphQLValue]
  {
    let schema = M.schema
    let operationName = ModelDocument.operationName(
      try? ModelDocument.mutationField(kind, schema), kind.rawValue, schema)
    let encoded: [String: GraphQLValue]
    do {
      // Straight into a value (``GraphQLValueEncoder``); what it does not reproduce goes through
      // `JSONEncoder`'s text, parsed in one `JSONSerialization` pass.
      let value: GraphQLValue
      if let direct = GraphQLValueEncoder.encode(model) {
        value = direct
      } else {
        let data = try JSONEncoder().encode(model)
        value = try GraphQLValue(json: data) ?? JSONDecoder().decode(GraphQLValue.self, from: data)
      }
      guard case .object(let members) = value else {
        throw APIError.invalidRequest(
          operationName: operationName, reason: "\(schema.name) does not encode as a JSON object")
      }
      encoded = members
    } catch let error as APIError {
      throw error
    } catch {
      throw APIError.invalidRequest(
        operationName: operationName, reason: "cannot encode \(schema.name): \(error)")
    }
    var input: [String: GraphQLValue] = [:]
    for name in schema.primaryKey {
      guard let value = encoded[name], value != .null else {
        throw APIError.invalidRequest(
          operationName: operationName,
          reason: "\(schema.name) encodes no value for key field \(name)")
      }
      input[name] = value
    }
    if kind == .delete { return input }
    input.merge(members(kind, of: schema, encoded: encoded)) { keyValue, _ in keyValue }
    return input
  }

  /// The non-key members of the input `kind` sends for a model of `schema` that encodes as
  /// `encoded`: writable data fields (embedded values through ``embeddedInput(_:of:)``), the target
  /// names of each belongsTo/hasOne that stores them, no hasMany.
  private static func members(
    _ kind: ModelMutationKind, of schema: ModelSchema, encoded: [String: GraphQLValue]
  ) -> [String: GraphQLValue] {
    var input: [String: GraphQLValue] = [:]
    let owners = ownerFields(of: schema)
    let keptWhenNil = kind == .create ? owners : singleOwnerFields(of: schema)
    for field in schema.fields where !field.isReadOnly {
      switch field.association {
      case nil:
        if let value = encoded[field.name], value != .null || !keptWhenNil.contains(field.name) {
          input[field.name] = embeddedInput(value, of: field.type)
        } else if kind == .update,
          ![schema.timestamps.createdAt, schema.timestamps.updatedAt].contains(field.name),
          !keptWhenNil.contains(field.name)
        {
          // A declared timestamp left nil is not cleared: the service keeps (or fills) it. A
          // single owner field left nil is not sent either (see `ownerFields(of:)`); a co-owner
          // list left nil is sent as null and clears the co-owners, as `[]` does.
          input[field.name] = .null
        }
      case .belongsTo(let associatedFields, let targetNames),
        .hasOne(let associatedFields, let targetNames):
        guard !targetNames.isEmpty else { continue }
        let reference = encoded[field.name] ?? .null
        for (target, associated) in zip(targetNames, associatedFields) {
          input[target] = reference[associated] ?? .null
        }
      case .hasMany:
        continue
      }
    }
    return input
  }

  /// The owner fields of `schema`'s owner rules (model-level and field-level; `ownerField`,
  /// default `owner`), single (`String`) and co-owner lists (`[String]`) alike. A `nil` owner
  /// field is never sent by a create: AppSync fills it from the caller's token when the input
  /// leaves it out (the transformer's create resolver, `generatePopulateOwnerField`: the owner
  /// value, or a list holding it for a list field), whereas a `null` would be stored. A set owner
  /// field is sent and the service decides. On update see `singleOwnerFields(of:)`.
  static func ownerFields(of schema: ModelSchema) -> Set<String> {
    let rules = schema.authRules + schema.fields.flatMap(\.authRules)
    return Set(rules.filter { $0.allow == .owner }.map(\.effectiveOwnerField))
  }

  /// The owner fields (`ownerFields(of:)`) that hold one owner — not a list, or not a field the
  /// schema declares (an implicit `owner`) — which an update leaves out when `nil`. The update
  /// resolver stores what the input says, so a `null` there would clear the record's only owner
  /// and leave it to nobody (a model built without the service-filled owner, as a form builds
  /// one, holds `nil` there); AppSync fills it on create only. A co-owner list is data the
  /// caller manages (who else owns the record): `nil` is sent as `null` and clears it, as `[]`
  /// does, the way every other optional field of an update is sent.
  static func singleOwnerFields(of schema: ModelSchema) -> Set<String> {
    ownerFields(of: schema).filter { name in
      guard let field = schema.fields.first(where: { $0.name == name }) else { return true }
      if case .list = field.type { return false }
      return true
    }
  }

  /// `value` of a field of `type` as its input sends it: an embedded value's fields as they
  /// encode, except that a model it holds (an embedded model value, a custom resolver's result)
  /// takes its `Create<Model>Input` shape (key and writable fields, target names instead of nested
  /// references, no read-only fields), and is left out when the model has no create mutation (the
  /// API schema then has no such input). Scalars, enums and `null` pass unchanged.
  static func embeddedInput(_ value: GraphQLValue, of type: ModelFieldType) -> GraphQLValue {
    switch (type, value) {
    case (.list(let element, _), .list(let elements)):
      return .list(elements.map { embeddedInput($0, of: element) })
    case (.embedded(let embedded), .object(let members)):
      var input: [String: GraphQLValue] = [:]
      for field in embedded.schema.fields {
        guard let member = members[field.name] else { continue }
        var element = field.type
        while case .list(let inner, _) = element { element = inner }
        if case .model(let model) = element, model.schema.operations.create == nil { continue }
        input[field.name] = embeddedInput(member, of: field.type)
      }
      return .object(input)
    case (.model(let model), .object(let encoded)):
      var input = members(.create, of: model.schema, encoded: encoded)
      for name in model.schema.primaryKey { input[name] = encoded[name] ?? .null }
      return .object(input)
    default:
      return value
    }
  }

  private static func mutation<M: Model>(
    _ kind: ModelMutationKind, _ model: M, condition: GraphQLFilter?, includes: [any CodingKey]
  ) throws -> GraphQLRequest<M> {
    _ = try ModelDocument.mutationField(kind, M.schema)
    return try request(
      kind, M.schema, input: try input(kind, of: model), condition: condition, includes: includes)
  }

  private static func request<M: Model>(
    _ kind: ModelMutationKind, _ schema: ModelSchema, input: [String: GraphQLValue],
    condition: GraphQLFilter?, includes: [any CodingKey] = []
  ) throws -> GraphQLRequest<M> {
    let field = try ModelDocument.mutationField(kind, schema)
    let operationName = ModelDocument.operationName(field, kind.rawValue, schema)
    let inputType = ModelDocument.mutationInputType(kind, schema)
    try ModelDocument.checkIncludes(includes, of: schema, operationName: operationName)
    let included = Set(includes.map(\.stringValue))
    let selection = ModelDocument.selectionSet(of: schema, includes: included)
    let document =
      "mutation \(operationName)($input: \(inputType)!, $condition: \(ModelDocument.conditionInputType(schema))) { \(field)(input: $input, condition: $condition) \(selection) }"
    var variables: [String: GraphQLValue] = ["input": .object(input)]
    if let condition { variables["condition"] = condition.value }
    return GraphQLRequest(
      operationType: .mutation, operationName: operationName, document: document,
      variables: variables,
      responseField: field,
      nestedLists: ModelDocument.nestedLists(of: schema, includes: included))
  }
}
