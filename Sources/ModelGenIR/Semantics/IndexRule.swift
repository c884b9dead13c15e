import GraphQLSDL

/// `@index(name:, sortKeyFields:, queryField:)` (Amplify GraphQL Transformer v2, "Configure a
/// secondary index"): the field carrying the directive is the index's partition key, then the sort
/// key fields. Without `name:` the transformer names the index
/// `<plural model name, first letter lower-cased>By<Field>And<SortKeyField>...` (`postsByTitleAndViews`).
/// `queryField:` is kept as written, the transformer's default name when absent, and
/// `queryField: null` keeps the index without a query field (`getOrGenerateDefaultQueryField`). Index key fields must exist (MG009)
/// and be scalars or enums (MG008), and may not repeat or name the partition key (MG014); index names are unique per model (MG023). Query
/// field names clashing with other root fields are `OperationNameRule`'s (MG030).
enum IndexRule {
  static func apply(_ context: AnalysisContext) {
    applyIndexes(context)
  }

  private static func applyIndexes(_ context: AnalysisContext) {
    for model in context.orderedModels {
      var names: [String: SourceRange] = [:]
      for declared in model.declared {
        for directive in declared.ast.directives where directive.name.value == "index" {
          let partition = declared.ast.name.value
          guard model.field(named: partition) != nil else { continue }
          checkIndexField(partition, range: declared.ast.type.range, in: model, context)
          let fields =
            [partition]
            + PrimaryKeyRule.resolveSortKeyFields(of: directive, partition: partition, in: model, context) {
              name, range in checkIndexField(name, range: range, in: model, context)
            }
          let name = directive.string("name") ?? defaultName(model: model.name, fields: fields)
          if let first = names[name] {
            context.report(
              .duplicateIndexName(model: model.name, indexName: name), at: directive.range(of: "name"),
              notes: [DiagnosticNote(message: "first defined here", range: first)])
            continue
          }
          names[name] = directive.range(of: "name")
          model.indexes.append(
            IndexDefinition(
              name: name, fields: fields, queryField: directive.string("queryField"),
              hasQueryField: directive.argument(named: "queryField")?.value.isNull != true,
              location: directive.range.schemaLocation))
        }
      }
    }
  }

  /// The transformer's default index name.
  static func defaultName(model: String, fields: [String]) -> String {
    Naming.lowercasingFirst(Pluralization.plural(of: model)) + "By"
      + fields.map(Naming.uppercasingFirst).joined(separator: "And")
  }

  private static func checkIndexField(
    _ name: String, range: SourceRange, in model: WorkingModel, _ context: AnalysisContext
  ) {
    guard let field = model.field(named: name) else { return }
    switch field.type {
    case .scalar, .enumeration: return
    case .list, .embedded, .model:
      let written = model.declaredField(named: name)?.ast.type.description ?? field.type.namedTypeName
      context.report(
        .invalidKeyFieldType(model: model.name, field: name, typeName: written, role: "index key"), at: range)
    }
  }
}
