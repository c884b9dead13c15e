import GraphQLSDL

/// The safe-name pass for type names: every GraphQL type of one schema (models, join models,
/// enums, non-model types) gets its Swift type name, which is also its output file stem, resolved
/// once for the whole schema before anything is rendered.
///
/// The rule (README, "Swift names"):
/// 1. A type's Swift name is the one the config file chooses for it (`"swiftNames": {"Task":
///    "TodoTask"}`), else its GraphQL name with the first letter upper-cased.
/// 2. A name that would shadow a type the generated code or apps use
///    (``SwiftNames/shadowedTypeNames``: `Task`, `Date`, `UUID`, `Model`, `Models`, ...) and was
///    not chosen in the config gets the suffix `Type` (`TaskType`); when that name is taken by
///    another type's name, `Type2`, `Type3`, ... (the first free one).
/// 3. Names kept as written win over renamed ones, and renamed types pick their suffix in the
///    order of their GraphQL names, so the result does not depend on declaration order: a user
///    type `UUIDType` stays `UUIDType` and `UUID` becomes `UUIDType2`, wherever each is declared.
///
/// Every rename is reported by ``SwiftNameRule`` as warning `MGW001`. The GraphQL names on the
/// wire (API documents, coding-key raw values, the API schema) stay the GraphQL names.
///
/// Pure and deterministic; `Sendable`.
package enum SwiftTypeNaming {
  /// The registry enum's name in every generated module (`Models.registry`).
  package static let registryName = "Models"

  /// One type whose Swift name differs from its plain upper-camel GraphQL name.
  package struct Rename: Sendable, Hashable {
    /// The GraphQL type name.
    package var graphQLName: String
    /// The name it would have had (`Task`).
    package var wantedName: String
    /// The Swift name it gets (`TaskType`).
    package var swiftName: String
    /// Where the wanted name comes from (`Swift Concurrency`), from ``SwiftNames/shadowedTypeNames``.
    package var shadowedSource: String
  }

  /// The resolved names of one schema.
  package struct Resolution: Sendable {
    /// GraphQL type name → unescaped, unique Swift type name.
    package var names: [String: String]
    /// The renamed types, in GraphQL name order.
    package var renames: [Rename]
  }

  /// Resolves the Swift names of `graphQLNames` (each once; order does not matter).
  ///
  /// - Parameters:
  ///   - graphQLNames: every type name of the schema.
  ///   - overrides: GraphQL name → Swift name chosen in the config; entries for other names are
  ///     ignored. The caller has checked them (``overrideProblems(_:graphQLNames:)``).
  package static func resolve(_ graphQLNames: [String], overrides: [String: String] = [:]) -> Resolution {
    let sorted = Array(Set(graphQLNames)).sorted()
    var names: [String: String] = [:]
    var taken: Set<String> = [registryName]
    var toRename: [(graphQLName: String, wanted: String)] = []
    for name in sorted {
      if let chosen = overrides[name] {
        names[name] = chosen
        taken.insert(chosen)
        continue
      }
      let wanted = SwiftNames.upperFirst(name)
      if SwiftNames.reservedTypeNames.contains(wanted) {
        toRename.append((name, wanted))
      } else {
        names[name] = wanted
        taken.insert(wanted)
      }
    }
    // Kept names that are equal (only `post`/`Post`-like pairs, which MG032 reports) are made
    // unique in GraphQL name order so the output stays well-formed.
    var seen: Set<String> = [registryName]
    for name in sorted {
      guard let swiftName = names[name] else { continue }
      if seen.contains(swiftName) {
        var suffix = 2
        while taken.contains("\(swiftName)\(suffix)") { suffix += 1 }
        names[name] = "\(swiftName)\(suffix)"
        taken.insert("\(swiftName)\(suffix)")
      }
      seen.insert(names[name]!)
    }
    var renames: [Rename] = []
    for (name, wanted) in toRename {
      var candidate = wanted + "Type"
      var suffix = 2
      while taken.contains(candidate) || SwiftNames.reservedTypeNames.contains(candidate) {
        candidate = wanted + "Type\(suffix)"
        suffix += 1
      }
      taken.insert(candidate)
      names[name] = candidate
      renames.append(
        Rename(
          graphQLName: name, wantedName: wanted, swiftName: candidate,
          shadowedSource: SwiftNames.shadowedTypeNames[wanted] ?? "the Swift language (a type name it reserves)"))
    }
    return Resolution(names: names, renames: renames)
  }

  /// What is wrong with the config's Swift names for one schema: GraphQL name → problem, for
  /// the entries naming a type of `graphQLNames` whose chosen name is not declarable
  /// (``SwiftNames/isDeclarableTypeName(_:)``) or equals, ignoring letter case (file names on
  /// macOS), the Swift name of another type or the registry's. Entries naming no type of the
  /// schema are not judged here (the config may serve several schemas).
  package static func overrideProblems(_ overrides: [String: String], graphQLNames: [String]) -> [String: String] {
    let present = Set(graphQLNames)
    let applicable = overrides.filter { present.contains($0.key) }
    guard !applicable.isEmpty else { return [:] }
    var problems: [String: String] = [:]
    for (name, chosen) in applicable where !SwiftNames.isDeclarableTypeName(chosen) {
      problems[name] = declarabilityProblem(chosen)
    }
    let resolved = resolve(graphQLNames, overrides: applicable.filter { problems[$0.key] == nil }).names
    for (name, chosen) in applicable.sorted(by: { $0.key < $1.key }) where problems[name] == nil {
      let folded = chosen.lowercased()
      if folded == registryName.lowercased() {
        problems[name] =
          "\"\(DiagnosticText.shortened(chosen))\" collides with the registry enum `\(registryName)` (file `\(registryName).swift`)"
        continue
      }
      if let other = resolved.keys.sorted().first(where: { $0 != name && resolved[$0]!.lowercased() == folded }) {
        let otherName = resolved[other]!
        problems[name] =
          otherName == chosen
          ? "\"\(chosen)\" is the Swift name of type `\(other)` too"
          : "\"\(chosen)\" and the Swift name `\(otherName)` of type `\(other)` differ only in letter case; their files would collide on case-insensitive file systems (macOS)"
      }
    }
    return problems
  }

  /// Why `name` cannot be a generated type's name, for ``overrideProblems(_:graphQLNames:)`` and
  /// the config file's own checks; `nil` when it can.
  package static func declarabilityProblem(_ name: String) -> String? {
    if SwiftNames.isDeclarableTypeName(name) { return nil }
    if SwiftNames.keywords.contains(name) { return "\"\(name)\" is a Swift keyword" }
    if let source = SwiftNames.shadowedTypeNames[name] {
      return "\"\(name)\" would shadow `\(name)` of \(source) in the app's module"
    }
    if SwiftNames.reservedTypeNames.contains(name) { return "\"\(name)\" cannot be declared as a Swift type" }
    return
      "\"\(DiagnosticText.shortened(name))\" is not a Swift identifier (a letter or `_`, then letters, digits or `_`)"
  }
}
