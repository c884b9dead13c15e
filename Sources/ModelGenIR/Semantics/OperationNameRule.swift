import GraphQLSDL

/// Root field names of the API (Amplify GraphQL Transformer v2 naming, as ``ModelNames`` resolves
/// them for `--emit api-schema` and for `ModelSchema.operations`): every
/// `get`/`list` query, index query field, mutation and subscription must be unique within its
/// root type, or the API schema defines a field twice and the runtime would send one model's
/// operation for another (`type Person` and `type People` both list as `listPeople`). A clash is
/// MG030 at the model (or index) that repeats the name, with a note at the first one.
enum OperationNameRule {
  static func apply(_ context: AnalysisContext) {
    var queries: [String: (owner: String, range: SourceRange)] = [:]
    var mutations: [String: (owner: String, range: SourceRange)] = [:]
    var subscriptions: [String: (owner: String, range: SourceRange)] = [:]

    func claim(
      _ name: String?, owner: String, at range: SourceRange,
      in table: inout [String: (owner: String, range: SourceRange)]
    ) {
      guard let name else { return }
      if let first = table[name] {
        context.report(
          .duplicateQueryField(name: name), at: range,
          notes: [
            DiagnosticNote(
              message:
                "`\(DiagnosticText.shortened(name))` is first the root field of `\(DiagnosticText.shortened(first.owner))` here",
              range: first.range)
          ])
      } else {
        table[name] = (owner, range)
      }
    }

    // A model whose name equals an earlier one ignoring case is already MG032; its operation
    // names would only repeat that error.
    var modelNames: Set<String> = []
    for working in context.orderedModels {
      guard modelNames.insert(working.name.lowercased()).inserted else { continue }
      let model = ModelRule.finish(working)
      let names = ModelNames(model: model)
      let operations = names.operations
      claim(operations.get, owner: model.name, at: working.nameRange, in: &queries)
      claim(operations.list, owner: model.name, at: working.nameRange, in: &queries)
      for index in model.indexes {
        // A written `queryField:` is reported at that argument, a default name at the model.
        let written = working.declared.lazy
          .filter { $0.ast.name.value == index.fields.first }
          .flatMap { $0.ast.directives.filter { $0.name.value == "index" } }
          .first { index.queryField != nil && $0.string("queryField") == index.queryField }
        claim(
          names.queryField(of: index), owner: "\(model.name) index \(index.name)",
          at: written?.range(of: "queryField") ?? working.nameRange, in: &queries)
      }
      for name in [operations.create, operations.update, operations.delete] {
        claim(name, owner: model.name, at: working.nameRange, in: &mutations)
      }
      for name in [operations.onCreate, operations.onUpdate, operations.onDelete] {
        claim(name, owner: model.name, at: working.nameRange, in: &subscriptions)
      }
    }
  }
}
