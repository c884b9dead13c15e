/// Every name the outputs of one graph write, resolved once per run (README, "Generator
/// architecture"): the Swift type and file names, and per model its root fields and index query
/// fields. The Swift files and the API schema both read these, so a name cannot differ between
/// them; `OperationNameRule` checks the same resolution (``ModelNames``) for clashes.
///
/// A value built from a finished graph; `Sendable`, safe to share between threads.
package struct SchemaNames: Sendable {
  /// The registry enum's name in every generated module (`Models.registry`); a GraphQL type named
  /// `Models` is renamed (`ModelsType`, ``SwiftTypeNaming``).
  package static let registryName = SwiftTypeNaming.registryName

  /// GraphQL type name → unescaped, unique Swift type name (also the output file stem).
  package let swiftTypeNames: [String: String]
  /// GraphQL model name → its API names.
  package let models: [String: ModelNames]
  /// GraphQL enum name → GraphQL value → unescaped Swift case name (``SwiftNames/caseNames(_:)``).
  package let enumCases: [String: [String: String]]

  /// Resolves the names of every model, enum and non-model type of `graph`.
  package init(resolving graph: ModelGraph) {
    swiftTypeNames = SwiftTypeNaming.resolve(graph.typeNames, overrides: graph.swiftNames).names
    enumCases = Dictionary(
      graph.enums.map { definition in
        let values = definition.values.map(\.name)
        return (
          definition.name,
          Dictionary(zip(values, SwiftNames.caseNames(values)), uniquingKeysWith: { first, _ in first })
        )
      }, uniquingKeysWith: { first, _ in first })
    models = Dictionary(
      graph.models.map { ($0.name, ModelNames(model: $0)) }, uniquingKeysWith: { first, _ in first })
  }

  /// The unescaped Swift name of the GraphQL type `name`.
  package func swiftTypeName(_ name: String) -> String {
    swiftTypeNames[name] ?? SwiftNames.typeName(name)
  }

  /// The unescaped Swift case name of the value `value` of the GraphQL enum `enumName`.
  package func caseName(_ value: String, ofEnum enumName: String) -> String {
    enumCases[enumName]?[value] ?? SwiftNames.caseName(value)
  }

  /// The API names of `model`.
  package func names(of model: ModelDefinition) -> ModelNames {
    models[model.name] ?? ModelNames(model: model)
  }
}

/// The API names of one model: its root fields after `@model(queries:, mutations:,
/// subscriptions:)` (``APIOperations``) and the query field of each index (``APINames/indexQuery(_:of:)``).
package struct ModelNames: Sendable {
  /// The root fields; `nil` for a disabled operation.
  package let operations: APIOperations
  /// Index name → its query field, as written or the transformer's default; an index declared
  /// with `queryField: null` has no entry.
  package let indexQueryFields: [String: String]

  /// Resolves the names of `model`.
  package init(model: ModelDefinition) {
    operations = APIOperations(model: model)
    indexQueryFields = Dictionary(
      model.indexes.filter(\.hasQueryField).map { ($0.name, APINames.indexQuery($0, of: model)) },
      uniquingKeysWith: { first, _ in first })
  }

  /// The query field of `index` (one of the model's indexes), or `nil` for an index declared
  /// with `queryField: null`, which has none.
  package func queryField(of index: IndexDefinition) -> String? {
    guard index.hasQueryField else { return nil }
    return indexQueryFields[index.name] ?? index.queryField ?? index.name
  }
}
