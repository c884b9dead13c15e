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
    // Taken names by ``SwiftNames/fileSystemKey(_:)``: a renamed type never takes a name whose
    // file would collide with another type's on macOS (`TaskType` beside a chosen `tasktype`).
    let key = SwiftNames.fileSystemKey
    var taken: Set<String> = [key(registryName)]
    var toRename: [(graphQLName: String, wanted: String)] = []
    for name in sorted {
      if let chosen = overrides[name] {
        names[name] = chosen
        taken.insert(key(chosen))
        continue
      }
      let wanted = SwiftNames.upperFirst(name)
      if SwiftNames.reservedTypeNames.contains(wanted) {
        toRename.append((name, wanted))
      } else {
        names[name] = wanted
        taken.insert(key(wanted))
      }
    }
    // Kept names that are equal (only `post`/`Post`-like pairs, which MG032 reports) are made
    // unique in GraphQL name order so the output stays well-formed.
    var seen: Set<String> = [registryName]
    for name in sorted {
      guard let swiftName = names[name] else { continue }
      if seen.contains(swiftName) {
        var suffix = 2
        while taken.contains(key("\(swiftName)\(suffix)")) { suffix += 1 }
        names[name] = "\(swiftName)\(suffix)"
        taken.insert(key("\(swiftName)\(suffix)"))
      }
      seen.insert(names[name]!)
    }
    var renames: [Rename] = []
    for (name, wanted) in toRename {
      var candidate = wanted + "Type"
      var suffix = 2
      while taken.contains(key(candidate)) || SwiftNames.reservedTypeNames.contains(candidate) {
        candidate = wanted + "Type\(suffix)"
        suffix += 1
      }
      taken.insert(key(candidate))
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
  /// (``SwiftNames/isDeclarableTypeName(_:)``, `MGC010`) or equals, ignoring letter case and
  /// Unicode normalization (file names on macOS, ``SwiftNames/fileSystemKey(_:)``), the registry's name or the Swift name another type keeps (`MGC011`): its
  /// chosen name, or its upper-camel GraphQL name. The check is symmetric, so it does not depend
  /// on which of the two types is declared or sorted first (`{"X": "Y"}` beside a type `Y` is an
  /// error, as `{"Y": "X"}` beside `X` is). A type renamed to avoid a shadowed name
  /// (`Task` → `TaskType`) takes its suffix around the chosen names, so it never collides.
  /// Entries naming no type of the schema are not judged here (the config may serve several
  /// schemas).
  ///
  /// A chosen name equal to a member the generated code declares (``generatedMemberNames``, or
  /// one of `memberNames`, the Swift properties of the schema's types: `"post"` beside
  /// `Comment.post`) is `MGC010` too: inside those types the member shadows the type, so the
  /// generated code does not compile ("cannot use instance member 'post' within property
  /// initializer").
  package static func overrideProblems(
    _ overrides: [String: String], graphQLNames: [String], memberNames: Set<String> = []
  ) -> [String: SwiftNameProblem] {
    let present = Set(graphQLNames)
    let applicable = overrides.filter { present.contains($0.key) }
    guard !applicable.isEmpty else { return [:] }
    var problems: [String: SwiftNameProblem] = [:]
    for (name, chosen) in applicable where !SwiftNames.isDeclarableTypeName(chosen) {
      problems[name] = SwiftNameProblem(
        code: ConfigDiagnosticCode.undeclarableSwiftName, message: declarabilityProblem(chosen) ?? chosen,
        hint:
          "choose another Swift name for `\(DiagnosticText.shortened(name))`, such as \"\(suggestedName(for: name))\"")
    }
    for (name, chosen) in applicable where problems[name] == nil {
      let member =
        generatedMemberNames[chosen] ?? (memberNames.contains(chosen) ? "a property of a generated type" : nil)
      guard let member else { continue }
      problems[name] = SwiftNameProblem(
        code: ConfigDiagnosticCode.undeclarableSwiftName,
        message:
          "\"\(DiagnosticText.shortened(chosen))\" is the name of a member the generated code declares (\(member)), which would shadow the type there",
        hint:
          "choose another Swift name for `\(DiagnosticText.shortened(name))`, upper-camel-cased as types are, such as \"\(suggestedName(for: name))\""
      )
    }
    // The name each type keeps when nothing renames it: the config's choice, else its GraphQL
    // name upper-camel-cased (a shadowing name is renamed around every kept one).
    let usable = applicable.filter { problems[$0.key] == nil }
    var kept: [String: String] = [:]
    for name in Set(graphQLNames) {
      let wanted = usable[name] ?? SwiftNames.upperFirst(name)
      if usable[name] != nil || !SwiftNames.reservedTypeNames.contains(wanted) { kept[name] = wanted }
    }
    for (name, chosen) in applicable.sorted(by: { $0.key < $1.key }) where problems[name] == nil {
      let folded = SwiftNames.fileSystemKey(chosen)
      let shownName = DiagnosticText.shortened(name)
      if folded == SwiftNames.fileSystemKey(registryName) {
        problems[name] = SwiftNameProblem(
          code: ConfigDiagnosticCode.swiftNameCollision,
          message:
            "\"\(DiagnosticText.shortened(chosen))\" collides with the registry enum `\(registryName)` (file `\(registryName).swift`)",
          hint: "choose another Swift name for `\(shownName)`, such as \"\(suggestedName(for: name))\"")
        continue
      }
      let others = kept.keys.sorted().filter { $0 != name && SwiftNames.fileSystemKey(kept[$0]!) == folded }
      guard let other = others.first, let otherName = kept[other] else { continue }
      let shownOther = DiagnosticText.shortened(other)
      let message =
        otherName.unicodeScalars.elementsEqual(chosen.unicodeScalars)
        ? "\"\(DiagnosticText.shortened(chosen))\" is the Swift name of type `\(shownOther)` too"
        : "\"\(DiagnosticText.shortened(chosen))\" and the Swift name `\(DiagnosticText.shortened(otherName))` of type `\(shownOther)` differ only in letter case or Unicode normalization; their files would collide on case-insensitive file systems (macOS)"
      let hint =
        usable[other] != nil
        ? "give `\(shownName)` and `\(shownOther)` different Swift names"
        : "choose another Swift name for `\(shownName)`, or give `\(shownOther)` one too (\"swiftNames\": {\"\(shownOther)\": \"\(suggestedName(for: other))\"})"
      problems[name] = SwiftNameProblem(code: ConfigDiagnosticCode.swiftNameCollision, message: message, hint: hint)
    }
    return problems
  }

  /// Members every generated model, embedded type or registry declares, by name, with where: a
  /// type of that Swift name is shadowed by them inside the generated code.
  package static let generatedMemberNames: [String: String] = [
    "identifier": "`identifier` of every model", "keys": "`keys` of every model and embedded type",
    "schema": "`schema` of every model and embedded type", "path": "`path` of every model",
    "registry": "`Models.registry`",
  ]

  /// A Swift name to suggest in a hint for type `name`: `<Name>Model`, made declarable.
  private static func suggestedName(for name: String) -> String {
    let base = SwiftNames.upperFirst(name)
    let candidate = base + "Model"
    return SwiftNames.isDeclarableTypeName(candidate) ? DiagnosticText.shortened(candidate) : "MyType"
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
    // Printers escape the message (`SwiftNames.commentText`), so the name is only shortened here.
    let shown = DiagnosticText.shortened(name)
    if name.utf8.count > SwiftNames.maximumTypeNameLength, SwiftNames.isSwiftIdentifier(name) {
      return
        "\"\(shown)\" is \(name.utf8.count) bytes long in UTF-8; the build's file `…+Schema.swiftdeps` (SwiftPM's longest for `…+Schema.swift`) would exceed the 255-byte file name limit (the longest Swift name is \(SwiftNames.maximumTypeNameLength) bytes)"
    }
    let rule =
      "(an identifier head: a letter, `_` or another character Swift allows first; then those, digits or combining marks)"
    guard let first = name.unicodeScalars.first else { return "an empty name is not a Swift identifier" }
    if name == "_" { return "\"_\" cannot be declared as a Swift type" }
    if let invisible = name.unicodeScalars.first(where: SwiftNames.isInvisibleInIdentifier) {
      return
        "\"\(shown)\" holds the invisible character \(scalarName(invisible)); modelgen refuses invisible characters in Swift names (two names that look the same would be two types)"
    }
    if !SwiftNames.isIdentifierHead(first) {
      return "\"\(shown)\" is not a Swift identifier: it cannot start with \(scalarName(first)) \(rule)"
    }
    let bad = name.unicodeScalars.dropFirst().first { !SwiftNames.isIdentifierCharacter($0) }
    let character = bad.map(scalarName) ?? "a character"
    return "\"\(shown)\" is not a Swift identifier: \(character) cannot be part of one \(rule)"
  }

  /// `U+0301` and, when it is visible, the character in backticks (`` `-` U+002D ``).
  private static func scalarName(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    let category = scalar.properties.generalCategory
    let visible =
      !SwiftNames.isInvisibleInIdentifier(scalar) && scalar.value >= 0x21 && category != .nonspacingMark
      && category != .enclosingMark && category != .spacingMark && !SwiftNames.isInvisible(scalar)
    return visible ? "`\(Character(scalar))` \(code)" : code
  }
}
