import GraphQLSDL

/// Reports what the safe-name pass (``SwiftTypeNaming``) decides about the Swift type names of
/// the schema, at each type's name:
/// - MGW001 (warning): a type renamed because its name would shadow a standard library,
///   Foundation, Concurrency or LazyModel type (or the `Models` registry) in the app's module.
/// - MG035 (error): two output file names (`<SwiftName>.swift`, `<SwiftName>+Schema.swift`,
///   `Models.swift`) that differ only in letter case; reported at the later type in the
///   document, with a note at the earlier.
///
/// Runs after every other rule, over the graph's final set of types (join models included).
enum SwiftNameRule {
  static func apply(_ context: AnalysisContext, nonModels: [NonModelDefinition]) {
    var ranges: [String: SourceRange] = [:]
    for model in context.orderedModels { ranges[model.name] = model.nameRange }
    for name in context.typeOrder {
      if let entry = context.types[name], entry.kind == .enumeration { ranges[name] = entry.nameRange }
    }
    for definition in nonModels {
      if let entry = context.types[definition.name] { ranges[definition.name] = entry.nameRange }
    }
    let resolution = SwiftTypeNaming.resolve(Array(ranges.keys), overrides: context.swiftNames)
    for rename in resolution.renames {
      guard let range = ranges[rename.graphQLName] else { continue }
      context.report(
        .renamedSwiftType(
          name: rename.graphQLName, wanted: rename.wantedName, swiftName: rename.swiftName,
          source: rename.shadowedSource),
        at: range)
    }
    // Document order: the later of two colliding types is reported.
    let ordered = ranges.sorted { ($0.value.start.offset, $0.key) < ($1.value.start.offset, $1.key) }
    var byFoldedStem: [String: String] = [SwiftTypeNaming.registryName.lowercased(): SwiftTypeNaming.registryName]
    for (name, range) in ordered {
      guard let stem = resolution.names[name] else { continue }
      let folded = stem.lowercased()
      if let other = byFoldedStem[folded] {
        let otherStem = resolution.names[other] ?? other
        let notes =
          ranges[other].map {
            [DiagnosticNote(message: "`\(DiagnosticText.shortened(other))` is defined here", range: $0)]
          } ?? []
        context.report(
          .caseCollidingFileNames(name: name, file: stem + ".swift", otherName: other, otherFile: otherStem + ".swift"),
          at: range, notes: notes)
      } else {
        byFoldedStem[folded] = name
      }
    }
  }
}
