import Foundation
import GraphQLSDL
import Testing

@testable import ModelGen
@testable import ModelGenIR

/// The sets behind the safe-name pass (issue 17): the shadow list covers every public type of the
/// runtime modules (scanned from their sources, so it cannot drift) and the standard types apps
/// write unqualified; Swift identifiers follow The Swift Programming Language's grammar (a
/// combining mark after the first letter is fine, first it is not); and file names collide as on
/// APFS (letter case under full case mapping, and Unicode normalization).
@Suite struct SwiftNameSetsTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Sources").standardized

  /// Every top-level `public`/`open` struct, class, enum, protocol, actor and type alias declared
  /// in the Swift files under `directory` (nested declarations are indented and not matched).
  static func publicTypeNames(under directory: URL) throws -> [String] {
    let pattern = try NSRegularExpression(
      pattern:
        #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|open|final|indirect|nonisolated|package)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
      options: [.anchorsMatchLines])
    var names: [String] = []
    let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
    for case let file as URL in files where file.pathExtension == "swift" {
      let text = try String(contentsOf: file, encoding: .utf8)
      let range = NSRange(text.startIndex..., in: text)
      for match in pattern.matches(in: text, range: range) {
        guard let whole = Range(match.range, in: text), let name = Range(match.range(at: 1), in: text) else {
          continue
        }
        let declaration = text[whole]
        guard declaration.contains("public ") || declaration.contains("open ") else { continue }
        names.append(String(text[name]))
      }
    }
    return names
  }

  @Test func everyPublicRuntimeTypeIsShadowedWithItsModule() throws {
    var scanned: [String: String] = [:]
    for module in ["LazyModel", "LazyModelAPI", "LazyModelDataStore", "ModelVocabulary"] {
      for name in try Self.publicTypeNames(under: Self.sources.appendingPathComponent(module)) {
        // `ModelVocabulary` is re-exported by `LazyModel`, so apps see its types as LazyModel's.
        scanned[name] = module == "ModelVocabulary" ? "LazyModel" : module
      }
    }
    #expect(scanned.count > 100, "the scan found \(scanned.count) types")
    #expect(scanned["DataStore"] == "LazyModelDataStore")
    #expect(scanned["APIClient"] == "LazyModelAPI")
    #expect(scanned["AuthRule"] == "LazyModel")
    for (name, module) in scanned.sorted(by: { $0.key < $1.key }) {
      // A name the standard library or Foundation declares too keeps that source; it is shadowed either way.
      #expect(SwiftNames.reservedTypeNames.contains(name), "public \(module) type `\(name)` is not in the shadow list")
      let source = SwiftNames.shadowedTypeNames[name]
      #expect(
        source == module || source == "the Swift standard library" || source == "Foundation"
          || source == "Swift Concurrency",
        "`\(name)`: \(source ?? "nil")")
    }
    for module in ["LazyModel", "LazyModelAPI", "LazyModelDataStore", "ModelVocabulary", "Foundation", "Swift"] {
      #expect(SwiftNames.reservedTypeNames.contains(module), "module name \(module)")
    }
  }

  /// The shadow-list decision (README, "Swift names"): Dispatch's and Observation's types are
  /// shadowed with their module as the source; the Foundation types kept on purpose are not.
  @Test func dispatchAndObservationAreShadowedAndTheKeptFoundationNamesAreNot() {
    for name in ["DispatchQueue", "DispatchTime", "DispatchGroup", "DispatchWorkItem", "DispatchSourceTimer"] {
      #expect(SwiftNames.shadowedTypeNames[name] == "Dispatch", "\(name)")
    }
    #expect(SwiftNames.shadowedTypeNames["Observable"] == "Observation")
    #expect(SwiftNames.shadowedTypeNames["ObservationRegistrar"] == "Observation")
    #expect(
      SwiftShadowedTypeNames.keptFoundationNames == [
        "Host", "InputStream", "OutputStream", "Pipe", "Port", "Process", "Scanner", "Selector", "Stream", "Unit",
      ])
    for name in SwiftShadowedTypeNames.keptFoundationNames {
      #expect(!SwiftNames.reservedTypeNames.contains(name), "\(name) is kept as written")
      #expect(SwiftTypeNaming.resolve([name]).names[name] == name)
    }
    #expect(SwiftTypeNaming.resolve(["DispatchQueue"]).names["DispatchQueue"] == "DispatchQueueType")
  }

  /// Every property `ModelPath` declares is in ``SwiftNames/pathMemberNames`` (a generated path
  /// member of that name would be ambiguous), and so are those of the protocols it conforms to.
  @Test func everyModelPathPropertyIsAPathMemberName() throws {
    let source = try String(
      contentsOf: Self.sources.appendingPathComponent("LazyModel/ModelPath.swift"), encoding: .utf8)
    let declaration = #/\n  public (?:let|var) (\w+)/#
    let declared = Set(source.matches(of: declaration).map { String($0.output.1) })
    #expect(declared == ["fieldNames", "stringValue", "intValue"], "\(declared.sorted())")
    #expect(source.contains("public struct ModelPath<Root: Model, Target: Model>: CodingKey, Sendable, Hashable {"))
    for name in declared {
      #expect(SwiftNames.pathMemberNames[name] != nil, "ModelPath.\(name) is not in SwiftNames.pathMemberNames")
    }
    // CodingKey refines CustomStringConvertible and CustomDebugStringConvertible; Hashable.
    for name in ["description", "debugDescription", "hashValue"] { #expect(SwiftNames.pathMemberNames[name] != nil) }
    #expect(SwiftNames.pathMember(forProperty: "fieldNames") == "fieldNamesValue")
    #expect(SwiftNames.pathMember(forProperty: "appending") == "appending")
    #expect(SwiftNames.pathMember(forProperty: "comments") == "comments")
  }

  @Test func theStandardTypesAppsWriteUnqualifiedAreShadowed() {
    let expected: [String: String] = [
      "KeyPath": "the Swift standard library", "WritableKeyPath": "the Swift standard library",
      "ReferenceWritableKeyPath": "the Swift standard library", "AnyKeyPath": "the Swift standard library",
      "PartialKeyPath": "the Swift standard library", "Sendable": "the Swift standard library",
      "Codable": "the Swift standard library", "Identifiable": "the Swift standard library",
      "Hashable": "the Swift standard library", "Equatable": "the Swift standard library",
      "Comparable": "the Swift standard library", "CustomStringConvertible": "the Swift standard library",
      "RawRepresentable": "the Swift standard library", "OptionSet": "the Swift standard library",
      "Hasher": "the Swift standard library", "ClosedRange": "the Swift standard library",
      "ContiguousArray": "the Swift standard library", "StringProtocol": "the Swift standard library",
      "Mirror": "the Swift standard library", "Character": "the Swift standard library",
      "AsyncSequence": "Swift Concurrency", "AsyncStream": "Swift Concurrency",
      "AsyncThrowingStream": "Swift Concurrency", "AsyncIteratorProtocol": "Swift Concurrency",
      "MainActor": "Swift Concurrency", "TaskGroup": "Swift Concurrency",
      "DiscardingTaskGroup": "Swift Concurrency", "Regex": "Swift Concurrency",
      "Predicate": "Foundation", "AttributedString": "Foundation", "DateInterval": "Foundation",
      "NSObject": "Foundation", "URLSession": "Foundation", "Notification": "Foundation",
      "DataStore": "LazyModelDataStore", "APIClient": "LazyModelAPI", "QueryPredicate": "LazyModel",
      "Keys": "the typed key enum every generated model declares (modelgen)",
      "Identifier": "the identifier struct every generated model declares (modelgen)",
    ]
    for (name, source) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(SwiftNames.shadowedTypeNames[name] == source, "\(name)")
      #expect(SwiftNames.typeName(name) == name + "Type", "\(name)")
    }
    // Deprecated and underscored names are left to the user (`Job` is a common model name).
    for name in ["Job", "AnyActor", "Unit", "Process", "Host", "Stream"] {
      #expect(SwiftNames.shadowedTypeNames[name] == nil, "\(name)")
    }
  }

  @Test(arguments: [
    "Cafe\u{301}", "Café", "Ωmega", "名前", "_x", "x_1", "Straße", "\u{1D49C}bc", "Emoji😀", "Ǆemal",
    "A\u{20D7}", "A\u{FE20}", "A\u{1DC0}",
  ])
  func unicodeIdentifiersOfTheSwiftGrammarAreDeclarable(name: String) {
    #expect(SwiftNames.isSwiftIdentifier(name))
    #expect(SwiftNames.isDeclarableTypeName(name))
    #expect(SwiftTypeNaming.declarabilityProblem(name) == nil)
  }

  @Test(arguments: [
    ("\u{301}Cafe", "cannot start with U+0301"), ("1Task", "cannot start with `1` U+0031"),
    ("To-do", "`-` U+002D cannot be part of one"), ("A B", "U+0020 cannot be part of one"),
    ("Post\u{202E}", "invisible character U+202E"), ("Zero\u{200B}Width", "invisible character U+200B"),
    ("Soft\u{AD}Hyphen", "invisible character U+00AD"), ("Var\u{FE0F}", "invisible character U+FE0F"),
    ("Cost$", "`$` U+0024 cannot be part of one"), ("\u{FFFE}X", "cannot start with U+FFFE"),
    ("X\u{1FFFE}", "U+1FFFE cannot be part of one"), ("", "an empty name"), ("_", "is a Swift keyword"),
    ("\u{2028}Line", "cannot start with U+2028"), ("\u{E000}Private", "cannot start with U+E000"),
  ])
  func namesOutsideTheGrammarAreRefusedNamingTheCharacter(name: String, message: String) throws {
    #expect(!SwiftNames.isDeclarableTypeName(name))
    let problem = try #require(SwiftTypeNaming.declarabilityProblem(name))
    #expect(problem.contains(message), "\(problem)")
  }

  @Test func aNameWhoseFileWouldNotFitAFileNameIsRefused() throws {
    let longest = String(repeating: "A", count: SwiftNames.maximumTypeNameLength)
    #expect(SwiftNames.maximumTypeNameLength == 238)
    #expect("\(longest)+Schema.swiftdeps".utf8.count == 255 && "\(longest)+Schema.swift.o".utf8.count == 253)
    #expect(SwiftNames.isDeclarableTypeName(longest))
    #expect(!SwiftNames.isDeclarableTypeName(longest + "B"))
    // Bytes, not characters: 120 `é` are 240 bytes.
    let accented = String(repeating: "é", count: 120)
    #expect(!SwiftNames.isDeclarableTypeName(accented))
    let problem = try #require(SwiftTypeNaming.declarabilityProblem(accented))
    #expect(problem.contains("is 240 bytes long in UTF-8"), "\(problem)")
    #expect(problem.contains("`…+Schema.swiftdeps`") && problem.contains("is 238 bytes"), "\(problem)")
  }

  @Test func problemsQuoteTheNameOnceThePrinterEscapesIt() throws {
    // `DiagnosticText.shortened` escapes the control once (`\u{0}`); nothing escapes it again.
    let problem = try #require(SwiftTypeNaming.declarabilityProblem("A\u{0}B"))
    #expect(problem.hasPrefix(#""A\u{0}B" is not a Swift identifier: U+0000"#), "\(problem)")
  }

  @Test func identifierHeadAndCharacterSetsFollowTheGrammarAtTheirBoundaries() {
    // identifier-head ranges, at their first and last scalars and just outside.
    for value: UInt32 in [0x41, 0x5A, 0x5F, 0x61, 0x7A, 0xA8, 0xC0, 0xD6, 0xD8, 0xF6, 0xF8, 0x2FF, 0x370, 0x167F]
      + [0x1681, 0x180D, 0x180F, 0x1DBF, 0x1E00, 0x1FFF, 0x2070, 0x20CF, 0x2100, 0x218F, 0x3040, 0xD7FF]
      + [0xF900, 0xFD3D, 0xFD40, 0xFDCF, 0xFE47, 0xFFFD, 0x10000, 0x1FFFD, 0x20000, 0xEFFFD]
    {
      #expect(SwiftNames.isIdentifierHead(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
    }
    for value: UInt32 in [0x24, 0x30, 0x39, 0x40, 0x5B, 0x60, 0x7B, 0xA9, 0xD7, 0xF7, 0x300, 0x36F, 0x1680]
      + [0x180E, 0x1DC0, 0x2041, 0x20D0, 0x2190, 0x2500, 0x3000, 0x3003, 0xE000, 0xFD3E, 0xFE20, 0xFE45]
      + [0xFFFE, 0x1FFFE, 0xF0000, 0x10FFFD]
    {
      #expect(!SwiftNames.isIdentifierHead(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
    }
    for value: UInt32 in [0x30, 0x39, 0x300, 0x36F, 0x1DC0, 0x1DFF, 0x20D0, 0x20FF, 0xFE20, 0xFE2F] {
      #expect(SwiftNames.isIdentifierCharacter(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
    }
    for value: UInt32 in [0x24, 0x2D, 0x2E, 0x2190, 0x2028, 0xE000] {
      #expect(!SwiftNames.isIdentifierCharacter(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
    }
  }

  @Test(arguments: [
    ("Straße", "STRASSE"), ("Straße", "Strasse"), ("STRAẞE", "strasse"), ("Café", "Cafe\u{301}"),
    ("CAFÉ", "cafe\u{301}"), ("ΣΑΣ", "σας"), ("\u{212A}elvin", "kelvin"), ("\u{212B}ngstrom", "ångstrom"),
    ("Post", "POST"), ("Models", "MODELS"), ("ﬁle", "FILE"),
  ])
  func namesThatAreOneFileOnMacOSHaveOneKey(name: String, other: String) {
    #expect(SwiftNames.fileSystemKey(name) == SwiftNames.fileSystemKey(other), "\(name) / \(other)")
    #expect(
      SwiftNames.fileSystemKey(name).unicodeScalars.elementsEqual(SwiftNames.fileSystemKey(other).unicodeScalars))
  }

  @Test(arguments: [("Strasse", "Strase"), ("Cafe", "Café"), ("Post", "Posts"), ("Σ", "Ξ"), ("A1", "A2")])
  func differentNamesKeepDifferentKeys(name: String, other: String) {
    #expect(SwiftNames.fileSystemKey(name) != SwiftNames.fileSystemKey(other), "\(name) / \(other)")
  }

  @Test func configNamesThatAreOneFileOnMacOSCollideWithTheOtherType() throws {
    let source = "type STRASSE @model { id: ID! }\ntype A @model { id: ID! }\ntype B @model { id: ID! }"
    let document = SDLParser.parse(source, fileName: "a.graphql").document
    let analysis = SemanticAnalyzer.analyze(
      document, fileName: "a.graphql", swiftNames: ["A": "Straße", "B": "MODELS"])
    #expect(analysis.swiftNameProblems.keys.sorted() == ["A", "B"])
    let problem = try #require(analysis.swiftNameProblems["A"])
    #expect(problem.code == ConfigDiagnosticCode.swiftNameCollision)
    #expect(problem.message.contains("differ only in letter case or Unicode normalization"), "\(problem.message)")
    #expect(analysis.swiftNameProblems["B"]?.message.contains("registry") == true)

    // NFC in the config, beside a type named in NFD through another entry: one file on APFS.
    let both = SemanticAnalyzer.analyze(
      SDLParser.parse("type A @model { id: ID! }\ntype B @model { id: ID! }", fileName: "a.graphql").document,
      fileName: "a.graphql", swiftNames: ["A": "Café", "B": "Cafe\u{301}"])
    #expect(both.swiftNameProblems.keys.sorted() == ["A", "B"])
    #expect(both.swiftNameProblems["B"]?.message.contains("Unicode normalization") == true)

    // A renamed type never takes a name whose file collides with a chosen one (`TaskType` beside
    // a chosen `tasktype`): it takes the next suffix.
    let renamed = SemanticAnalyzer.analyze(
      SDLParser.parse("type Task @model { id: ID! }\ntype Note @model { id: ID! }", fileName: "a.graphql").document,
      fileName: "a.graphql", swiftNames: ["Note": "tasktype"])
    #expect(renamed.swiftNameProblems.isEmpty)
    #expect(!renamed.diagnostics.contains { $0.severity == .error }, "\(renamed.diagnostics)")
    let names = SchemaNames(resolving: try #require(renamed.graph))
    #expect(names.swiftTypeName("Note") == "tasktype")
    #expect(names.swiftTypeName("Task") == "TaskType2")
  }

  @Test func typesNamedLikeRuntimeAndStandardTypesAreRenamedWithAWarningAtTheirName() throws {
    let (result, schema) = analyzeMarked(
      """
      type 1️⃣DataStore @model { id: ID! clients: [APIClient] @hasMany }
      type 2️⃣APIClient @model { id: ID! route: KeyPath store: DataStore @belongsTo }
      type 3️⃣KeyPath { segments: [String!]! }
      enum 4️⃣AsyncStream { OPEN }
      type Post @model { id: ID! state: AsyncStream }
      """)
    let warnings = result.diagnostics.filter { $0.severity == .warning }
    #expect(
      warnings.map { "\($0.code.rawValue)@\($0.line):\($0.column)" }
        == ["1️⃣", "2️⃣", "3️⃣", "4️⃣"].map {
          "MGW001@\(schema.location($0).line):\(schema.location($0).column)"
        })
    #expect(!result.hasErrors)
    let names = SchemaNames(resolving: try #require(result.graph))
    #expect(names.swiftTypeName("DataStore") == "DataStoreType")
    #expect(names.swiftTypeName("APIClient") == "APIClientType")
    #expect(names.swiftTypeName("KeyPath") == "KeyPathType")
    #expect(names.swiftTypeName("AsyncStream") == "AsyncStreamType")
    #expect(warnings.first?.message.contains("of LazyModelDataStore") == true, "\(warnings)")
    #expect(warnings.dropFirst().first?.message.contains("of LazyModelAPI") == true)
  }
}
