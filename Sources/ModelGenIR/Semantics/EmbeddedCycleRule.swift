import GraphQLSDL

/// Non-model (embedded) types become Swift structs, and a struct cannot store itself, directly or
/// through other structs (`value type 'Address' cannot have a stored property that recursively
/// contains it`), whether the field is optional or not. A list breaks the cycle (Swift arrays store
/// their elements out of line), and so does a relation of a `@model` (a lazy reference or list). A
/// model held by a non-model type is an embedded value, a struct inside the struct, so the walk goes
/// through it to the model's non-model fields. So a cycle of non-list fields between non-model types
/// (possibly through models they hold) is MG031, reported once per cycle at the field that closes it
/// (a depth-first walk in document order, fields in order).
enum EmbeddedCycleRule {
  static func check(_ context: AnalysisContext) {
    /// `false` while a type is on the walk's path, `true` once all its fields are walked.
    var finished: [String: Bool] = [:]
    var path: [(type: String, field: String)] = []

    func visit(_ type: String) {
      finished[type] = false
      var seen: Set<String> = []
      for field in context.types[type]?.fields ?? [] where seen.insert(field.name.value).inserted {
        guard !field.type.nullable.isList else { continue }
        let target = field.type.namedType.value
        // A non-model field of model type stores the model struct itself (an embedded value); a
        // model's own model-typed fields are relations (lazy, out of line) and break the cycle.
        switch (context.types[type]?.kind, context.types[target]?.kind) {
        case (_, .nonModel?), (.nonModel?, .model?): break
        default: continue
        }
        path.append((type, field.name.value))
        switch finished[target] {
        case false?:
          let start = path.firstIndex { $0.type == target } ?? 0
          let cycle = path[start...].map { "\($0.type).\($0.field)" } + [target]
          context.report(
            .recursiveEmbeddedType(owner: type, field: field.name.value, cycle: cycle), at: field.name.range)
        case nil:
          visit(target)
        case true?:
          break
        }
        path.removeLast()
      }
      finished[type] = true
    }

    for name in context.typeOrder where context.types[name]?.kind == .nonModel && finished[name] == nil {
      visit(name)
    }
  }
}
