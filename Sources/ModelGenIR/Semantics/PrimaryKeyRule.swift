import GraphQLSDL

/// `@primaryKey(sortKeyFields:)` (Amplify GraphQL Transformer v2, "Configure a custom primary key"):
/// the field carrying the directive is the partition key, `sortKeyFields` follow in the order
/// written. Without the directive the key is `id`. Every key field must exist (MG009), be non-null
/// (MG007) and be a scalar or enum (MG008); a model has at most one `@primaryKey` (MG027); the sort
/// key fields may not repeat or name the partition key (MG014, once per offending element).
enum PrimaryKeyRule {
  static func apply(_ context: AnalysisContext) {
    for model in context.orderedModels {
      let keyed = model.declared.filter { $0.directive("primaryKey") != nil }
      for extra in keyed.dropFirst() {
        if let directive = extra.directive("primaryKey") {
          context.report(.duplicatePrimaryKey(model: model.name), at: directive.range)
        }
      }
      guard let partition = keyed.first, let directive = partition.directive("primaryKey") else {
        model.primaryKey = PrimaryKey(partitionKey: "id", isImplicit: true)
        checkKeyField(
          "id", role: "primary key", range: model.declaredField(named: "id")?.ast.type.range, in: model, context)
        continue
      }
      let partitionName = partition.ast.name.value
      let sortKeyFields = resolveSortKeyFields(
        of: directive, partition: partitionName, in: model, context
      ) { name, range in
        checkKeyField(name, role: "sort key", range: range, in: model, context)
      }
      checkKeyField(partitionName, role: "primary key", range: partition.ast.type.range, in: model, context)
      model.primaryKey = PrimaryKey(partitionKey: partitionName, sortKeyFields: sortKeyFields)
    }
  }

  /// The `sortKeyFields:` of a `@primaryKey` or `@index` `directive` that name fields of `model`, in
  /// order. Each element that repeats or names the partition key is MG014, each that names a missing
  /// field MG009 (with a did-you-mean), a Boolean as the only sort key field MG073; `check`
  /// validates the type of every field that exists.
  static func resolveSortKeyFields(
    of directive: Directive, partition: String, in model: WorkingModel, _ context: AnalysisContext,
    check: (_ name: String, _ range: SourceRange) -> Void
  ) -> [String] {
    var fields: [String] = []
    var written: Set<String> = []
    for (index, name) in (directive.strings("sortKeyFields") ?? []).enumerated() {
      let range = directive.range(of: "sortKeyFields", element: index)
      if let expected = sortKeyMistake(name, partition: partition, written: &written) {
        context.report(
          .invalidArgumentValue(
            directive: directive.name.value, argument: "sortKeyFields", expected: expected,
            fix:
              "list each sort key field once, and not the partition key `\(DiagnosticText.shortened(partition))` (the field the directive is on)"
          ),
          at: range)
        continue
      }
      guard model.field(named: name) != nil else {
        if model.isUnresolved(name) { continue }
        let suggestion = Naming.suggestion(for: name, among: model.allFieldNames)
        context.report(
          .missingField(model: model.name, field: name, argument: "sortKeyFields", suggestion: suggestion), at: range)
        continue
      }
      check(name, range)
      fields.append(name)
    }
    // MG073: no `ModelBooleanKeyConditionInput` (`addKeyConditionInputs`, index and primary key
    // transformers); a composite key's input holds a Boolean.
    if fields.count == 1, let field = model.field(named: fields[0]), field.type == .scalar(.boolean),
      let position = (directive.strings("sortKeyFields") ?? []).firstIndex(of: fields[0])
    {
      context.report(
        .booleanSortKey(model: model.name, field: fields[0], directive: directive.name.value),
        at: directive.range(of: "sortKeyFields", element: position))
    }
    return fields
  }

  /// What is wrong with the sort key field `name` of a key whose partition key is `partition`, given
  /// the names `written` before it (updated): `nil` when it is neither the partition key nor a
  /// repeat. Each mistake is reported once, at the element that makes it; a repeated name is checked
  /// (MG009, MG007, MG008) only where it first appears.
  static func sortKeyMistake(_ name: String, partition: String, written: inout Set<String>) -> String? {
    if name == partition {
      return "a list of fields other than the partition key `\(DiagnosticText.shortened(partition))`"
    }
    guard written.insert(name).inserted else {
      return "a list of distinct fields (`\(DiagnosticText.shortened(name))` is repeated)"
    }
    return nil
  }

  /// Reports a key field that is nullable or not a scalar/enum. `range` defaults to the field's type.
  static func checkKeyField(
    _ name: String, role: String, range: SourceRange?, in model: WorkingModel, _ context: AnalysisContext
  ) {
    guard let field = model.field(named: name) else { return }
    let reportRange = range ?? model.declaredField(named: name)?.ast.type.range ?? model.nameRange
    switch field.type {
    case .scalar, .enumeration:
      if !field.isRequired {
        context.report(.nullableKeyField(model: model.name, field: name, role: role), at: reportRange)
      }
    case .list, .embedded, .model:
      let written = model.declaredField(named: name)?.ast.type.description ?? field.type.namedTypeName
      context.report(
        .invalidKeyFieldType(model: model.name, field: name, typeName: written, role: role), at: reportRange)
    }
  }
}
