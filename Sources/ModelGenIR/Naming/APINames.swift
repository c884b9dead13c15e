import ModelVocabulary

/// Names the Amplify GraphQL Transformer v2 gives the parts of the API it derives from a model
/// (`graphql-transformer-common` `ModelResourceIDs`, the model, index and relational transformers).
package enum APINames {
  /// `DEFAULT_SCALARS` of `graphql-transformer-common`: the built-in scalar an AppSync scalar is
  /// filtered and compared as (`AWSDateTime` → `String`, `AWSTimestamp` → `Int`).
  package static func filterScalar(_ scalar: ScalarType) -> ScalarType {
    switch scalar {
    case .id, .string, .int, .float, .boolean: return scalar
    case .awsTimestamp: return .int
    case .awsDate, .awsTime, .awsDateTime, .awsEmail, .awsJSON, .awsURL, .awsPhone, .awsIPAddress:
      return .string
    }
  }

  /// `get<Model>`.
  package static func getQuery(_ model: ModelDefinition) -> String {
    "get" + Naming.uppercasingFirst(model.name)
  }

  /// `list<PluralName>` (`listComment4V2s`).
  package static func listQuery(_ model: ModelDefinition) -> String {
    "list" + Naming.uppercasingFirst(model.pluralName)
  }

  /// `sync<PluralName>` (`syncComment4V2s`): the sync query of a versioned data source
  /// (`ModelResourceIDs.SyncResourceName` of `graphql-transformer-common`).
  package static func syncQuery(_ model: ModelDefinition) -> String {
    "sync" + Naming.uppercasingFirst(model.pluralName)
  }

  /// The query field of an index: `queryField:` as written, else the transformer's default
  /// (`enableAutoIndexQueryNames`): `<plural model name, first letter lower-cased>By<Field>And<SortKeyField>...`
  /// (`comment4V2sByPostIDAndContent`).
  package static func indexQuery(_ index: IndexDefinition, of model: ModelDefinition) -> String {
    if let queryField = index.queryField { return queryField }
    return Naming.lowercasingFirst(model.pluralName) + "By"
      + index.fields.map(Naming.uppercasingFirst).joined(separator: "And")
  }

  /// `create<Model>` / `update<Model>` / `delete<Model>`.
  package static func mutation(_ verb: String, _ model: ModelDefinition) -> String {
    verb + Naming.uppercasingFirst(model.name)
  }

  /// `onCreate<Model>` / `onUpdate<Model>` / `onDelete<Model>`.
  package static func subscription(_ verb: String, _ model: ModelDefinition) -> String {
    "on" + Naming.uppercasingFirst(verb) + Naming.uppercasingFirst(model.name)
  }

  /// `Model<Model>Connection`, the model name's first letter upper-cased (``APITypeNames``).
  package static func connection(_ model: String) -> String { APITypeNames.connection(model) }
  /// `Model<Model>FilterInput` (``APITypeNames``).
  package static func filterInput(_ model: String) -> String { APITypeNames.filterInput(model) }
  /// `Model<Model>ConditionInput` (``APITypeNames``).
  package static func conditionInput(_ model: String) -> String { APITypeNames.conditionInput(model) }
  /// `ModelSubscription<Model>FilterInput` (``APITypeNames``).
  package static func subscriptionFilterInput(_ model: String) -> String {
    APITypeNames.subscriptionFilterInput(model)
  }
  /// `Create<Model>Input` / `Update<Model>Input` / `Delete<Model>Input` (``APITypeNames``).
  package static func mutationInput(_ verb: String, _ model: String) -> String {
    APITypeNames.mutationInput(verb, model)
  }
  /// `<NonModel>Input`: the input twin of a non-model type.
  package static func nonModelInput(_ name: String) -> String { Naming.uppercasingFirst(name) + "Input" }

  /// `Model<Scalar>Input` (`ModelStringInput`) for a scalar field; `Model<Enum>Input` for an enum.
  package static func scalarFilterInput(_ scalar: ScalarType) -> String {
    "Model\(filterScalar(scalar).rawValue)Input"
  }

  /// `ModelSubscription<Scalar>Input`; enums are filtered as strings in subscriptions.
  package static func subscriptionScalarInput(_ scalar: ScalarType) -> String {
    "ModelSubscription\(filterScalar(scalar).rawValue)Input"
  }

  /// `Model<Scalar>KeyConditionInput` for one sort key field; enums use the `String` one.
  package static func keyConditionInput(_ type: FieldType) -> String {
    "Model\(keyConditionScalar(type).rawValue)KeyConditionInput"
  }

  /// The built-in scalar a sort key field is compared as.
  package static func keyConditionScalar(_ type: FieldType) -> ScalarType {
    if let scalar = type.scalar { return filterScalar(scalar) }
    return .string
  }

  /// `true` for `Model<Scalar>KeyConditionInput` of a built-in scalar a sort key is compared as.
  package static func isScalarKeyConditionInput(_ name: String) -> Bool {
    ([.id, .string, .int, .float, .boolean] as [ScalarType]).contains { keyConditionInput(.scalar($0)) == name }
  }

  /// The scalar of a `Model<Scalar>KeyConditionInput` name (`Int` for `ModelIntKeyConditionInput`).
  package static func keyConditionScalarName(_ name: String) -> String {
    String(name.dropFirst("Model".count).dropLast("KeyConditionInput".count))
  }

  /// `Primary` for the primary key, `<IndexName>` with its first letter upper-cased for an index.
  package static func compositeKeyName(index: String?) -> String {
    index.map(Naming.uppercasingFirst) ?? "Primary"
  }

  /// `Model<Model><KeyName>CompositeKeyConditionInput`.
  package static func compositeKeyConditionInput(_ model: String, keyName: String) -> String {
    "Model\(model)\(keyName)CompositeKeyConditionInput"
  }

  /// `Model<Model><KeyName>CompositeKeyInput`.
  package static func compositeKeyInput(_ model: String, keyName: String) -> String {
    "Model\(model)\(keyName)CompositeKeyInput"
  }

  /// `Model<Enum>Input`: the filter input of an enum field.
  package static func enumFilterInput(_ name: String) -> String { "Model\(name)Input" }

  /// `Model<Enum>ListInput`: the filter input of a list-of-enum field.
  package static func enumListFilterInput(_ name: String) -> String { "Model\(name)ListInput" }

  /// The types every API schema defines, whatever its models (`graphql-transformer-common`'s
  /// shared definitions, added by the model transformer's `transformSchema` even without a model):
  /// the filter and subscription-filter inputs of the built-in scalars, `ModelAttributeTypes`,
  /// `ModelSizeInput` and `ModelSortDirection`. The key condition inputs are not among them
  /// (``printedKeyConditionInputs(of:)``).
  package static var sharedTypeNames: [String] {
    let filtered: [ScalarType] = [.id, .string, .int, .float, .boolean]
    return filtered.map(scalarFilterInput) + filtered.map(subscriptionScalarInput)
      + ["ModelAttributeTypes", "ModelSizeInput", "ModelSortDirection"]
  }

  /// The `Model<Scalar>KeyConditionInput` types the API schema prints for `model`: one per key
  /// with exactly one sort key field (the primary key, each index), after the type that field is
  /// compared as; `addKeyConditionInputs` of the primary key and index transformers adds them, and
  /// only for such keys (several sort key fields get composite key inputs instead). Several models
  /// share each one, so they are claimed as shared names, only when some model prints them.
  package static func printedKeyConditionInputs(of model: ModelDefinition) -> [String] {
    let keys = [model.primaryKey.sortKeyFields] + model.indexes.map { Array($0.fields.dropFirst()) }
    return keys.compactMap { sortKeyFields in
      guard sortKeyFields.count == 1, let type = model.field(named: sortKeyFields[0])?.type else { return nil }
      return keyConditionInput(type)
    }
  }

  /// Every type name the model, primary key, index and relational transformers may derive from
  /// `model` (the names `APISchemaEmitter` prints come from these functions), following the
  /// model's `@model` arguments as the model transformer does: `Create`/`Update`/`Delete<X>Input`
  /// each only with its mutation enabled, `Model<X>ConditionInput` with any mutation,
  /// `ModelSubscription<X>FilterInput` with any subscription (a subscription lives only while its
  /// mutation does); `Model<X>Connection` and `Model<X>FilterInput` when something prints them
  /// (``printsConnection(of:isHasManyTarget:)``: the `list` query, an `@index` with a query field, or another model's
  /// `@hasMany`); and for the primary key and each
  /// index with several sort key fields `Model<X><Key>CompositeKeyConditionInput` and
  /// `Model<X><Key>CompositeKeyInput`. A user's type under a name a disabled operation would have
  /// generated (`input UpdateNoteInput` with `mutations: { create: "addNote", update: null }`) is
  /// the user's own, as the transformer keeps it. The shared names (``sharedTypeNames``) are not repeated here.
  ///
  /// - Parameter isHasManyTarget: `true` when a `@hasMany` (or `@manyToMany`, through its join
  ///   model) of some model returns `model`.
  package static func generatedTypeNames(of model: ModelDefinition, isHasManyTarget: Bool) -> [String] {
    let operations = APIOperations(model: model)
    let mutations = [("Create", operations.create), ("Update", operations.update), ("Delete", operations.delete)]
    var names = mutations.compactMap { verb, field in field.map { _ in mutationInput(verb, model.name) } }
    if printsConnection(of: model, operations: operations, isHasManyTarget: isHasManyTarget) {
      names += [connection(model.name), filterInput(model.name)]
    }
    if mutations.contains(where: { $0.1 != nil }) { names.append(conditionInput(model.name)) }
    if operations.onCreate != nil || operations.onUpdate != nil || operations.onDelete != nil {
      names.append(subscriptionFilterInput(model.name))
    }
    var keys: [(name: String?, sortKeyFields: [String])] = [(nil, model.primaryKey.sortKeyFields)]
    keys += model.indexes.map { ($0.name, Array($0.fields.dropFirst())) }
    for key in keys where key.sortKeyFields.count > 1 {
      let keyName = compositeKeyName(index: key.name)
      names += [
        compositeKeyConditionInput(model.name, keyName: keyName), compositeKeyInput(model.name, keyName: keyName),
      ]
    }
    return names
  }

  /// `true` when the API schema defines `Model<X>Connection` and `Model<X>FilterInput`: the model
  /// transformer adds them with the `list` query, the index transformer for each `@index`
  /// (`ensureQueryField`, `generateFilterInputs`), the relational transformers for the child of
  /// a `@hasMany` (`makeModelConnectionType`); a model with none of these has neither.
  package static func printsConnection(of model: ModelDefinition, isHasManyTarget: Bool) -> Bool {
    printsConnection(of: model, operations: APIOperations(model: model), isHasManyTarget: isHasManyTarget)
  }

  /// ``printsConnection(of:isHasManyTarget:)`` with the model's operations already resolved
  /// (`APIOperations(model: model)`, which builds every operation name).
  static func printsConnection(of model: ModelDefinition, operations: APIOperations, isHasManyTarget: Bool) -> Bool {
    operations.list != nil || model.indexes.contains(where: \.hasQueryField) || isHasManyTarget
  }

  /// `true` when the API schema defines filter-shaped inputs for `model` (filter, condition or
  /// subscription filter input), which name the `Model<Enum>Input`/`Model<Enum>ListInput` of its
  /// enum fields: with its connection, any mutation or any subscription.
  package static func printsFilterInputs(of model: ModelDefinition, isHasManyTarget: Bool) -> Bool {
    let operations = APIOperations(model: model)
    return printsConnection(of: model, operations: operations, isHasManyTarget: isHasManyTarget)
      || operations.create != nil
      || operations.update != nil || operations.delete != nil || operations.onCreate != nil
      || operations.onUpdate != nil || operations.onDelete != nil
  }

  /// The argument that carries a sort key condition: the sort key field's name, or for several
  /// fields their camel-cased concatenation (`takenAtDayTimeSeqPriorityValue`).
  package static func sortKeyArgument(_ sortKeyFields: [String]) -> String {
    sortKeyFields.count == 1 ? sortKeyFields[0] : Naming.camelCase(sortKeyFields)
  }
}
