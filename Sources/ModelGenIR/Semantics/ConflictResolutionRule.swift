import GraphQLSDL

/// What a conflict-resolution strategy (`--conflict-resolution`, config `conflictResolution`) means
/// for the models: the Amplify model transformer adds `_version: Int!`, `_deleted: Boolean` and
/// `_lastChangedAt: AWSTimestamp!` to every model of a versioned data source
/// (`addModelSyncFields`) and fails on a model that declares one of them (`type Order has already a
/// field with name _version`). Such a declared field is MG037 at its name. Without a strategy the
/// names are ordinary fields. The `sync<PluralName>` query names are claimed by
/// ``OperationNameRule``.
enum ConflictResolutionRule {
  /// The fields the transformer adds, in its order.
  static let syncFieldNames = ["_version", "_deleted", "_lastChangedAt"]

  static func apply(_ context: AnalysisContext) {
    guard let strategy = context.conflictResolution else { return }
    for model in context.orderedModels {
      for field in model.declared where syncFieldNames.contains(field.ast.name.value) {
        context.report(
          .declaredSyncField(model: model.name, field: field.ast.name.value, strategy: strategy.rawValue),
          at: field.ast.name.range)
      }
    }
  }
}
