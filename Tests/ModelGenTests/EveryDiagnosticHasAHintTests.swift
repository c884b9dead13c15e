import Foundation
import Testing

@testable import GraphQLSDL
@testable import ModelGen
@testable import ModelGenIR

/// Every schema diagnostic has a hint that says what to do (issue 17: SDL001/SDL002, SDL021,
/// SDL026, MG001, MG022, MG014 and MG023 had none). The corpus below holds one schema per code of
/// the catalogue (`SDLDiagnosticCode`, `ModelGenDiagnosticCode`, read from their sources as
/// `.ci/diagnostics-catalogue.py` reads them); the test fails when a code of the catalogue has no
/// schema here, when a schema does not emit its code, and when any diagnostic a schema emits has
/// no hint. `SDLDiagnosticMessage.hint` and `SemanticError.hint` are non-optional and switch
/// without `default`, so a new message without a hint does not compile; this test keeps the
/// emitted diagnostics honest (a diagnostic built elsewhere, an empty hint).
@Suite("Every diagnostic has a hint (corpus over the catalogue)")
struct EveryDiagnosticHasAHintTests {
  /// One schema per code. `MG037` runs with conflict resolution (`ConflictResolution.automerge`).
  static let corpus: [String: String] = [
    // Lexical (GraphQLSDL).
    "SDL001": "type Post { id: ID! % }",
    "SDL002": "",  // the bytes FF FE (a UTF-16 byte-order mark) and a type: `bytes(for:)`
    "SDL003": "type Post { id: ID! \u{1} }",
    "SDL004": "type Post @model { id: ID! @default(value: \"abc\n) }",
    "SDL005": "\"\"\"never closed\ntype Post { id: ID! }",
    "SDL006": "type Post { id(a: String = \"\\q\"): ID }",
    "SDL007": "type Post { id(a: String = \"\\u12\"): ID }",
    "SDL009": "type Post { id(a: Int = 007): ID }",
    "SDL010": "type Post { id(a: Int = 1.): ID }",
    "SDL011": "type Post { id(a: Int = 123abc): ID }",
    "SDL012": "type Post { id: ID! .. }",
    "SDL013": "",  // an input of 4 GiB: not built here (see `unreachable`)
    // Syntax.
    "SDL020": "typ Post { id: ID! }",
    "SDL021": "query Q { x }",
    "SDL022": "type { id: ID! }",
    "SDL023": "type Post { id ID! }",
    "SDL024": "type Post { id: }",
    "SDL025": "type Post { id(a: Int = ): ID }",
    "SDL026": "type Post { id: ID!",
    "SDL027": "type Post @model { id: ID! @default(value: $v) }",
    "SDL028": "type Post { id(a: [Int] = " + String(repeating: "[", count: 200) + "): ID }",
    "SDL029": "directive @d on FIELD_DEFINTION",
    "SDL030": "type Post { }",
    "SDL031": "extend type Post",
    "SDL032": "\"text\" extend type Post { id: ID }",
    "SDL033": "type Post { id: ID! }\n\"dangling\"",
    "SDL034": "enum E { true }",
    "SDL035": "schema { querry: Query }",
    "SDL037": "interface A { id: ID }\ninterface B { id: ID }\ntype Post implements A B { id: ID }",
    "SDL039": "union U = ",
    "SDL043": "type Post { id: ID!! }",
    "SDL047": "type Post { id: ID = 1 }",
    "SDL049": "extend foo Post { id: ID }",
    "SDL099": String(repeating: "% ", count: 300),
    // Semantic (ModelGen).
    "MG001": "type Post @model { id: ID! author: Writer @belongsTo }",
    "MG002": "type Post @model @cache { id: ID! }",
    "MG003": "type Post @model(queriez: null) { id: ID! }",
    "MG004": "type Post @model { id: ID! }\ntype Post @model { id: ID! }",
    "MG005": "type Post @model { id: ID! title: String title: String }",
    "MG006": "type Post @model { id: ID! }\ntype Comment @model { id: ID! post: Post @belongsTo }",
    "MG007": "type Post @model { id: ID! @primaryKey(sortKeyFields: [\"title\"]) title: String }",
    "MG008": "type Post @model { id: ID! @primaryKey(sortKeyFields: [\"tags\"]) tags: [String]! }",
    "MG009": "type Post @model { id: ID! @primaryKey(sortKeyFields: [\"zzzzzz\"]) }",
    "MG010": """
    type Post @model { id: ID! comments: [Comment] @hasMany }
    type Comment @model { id: ID! postID: ID! other: ID! post: Post @belongsTo(fields: ["postID", "other"]) }
    """,
    "MG011": """
    type Post @model { id: ID! author: Author @hasOne(fields: ["authorID"]) authorID: Int }
    type Author @model { id: ID! }
    """,
    "MG012": """
    type Post @model { id: ID! a: [Comment] @hasMany b: [Comment] @hasMany }
    type Comment @model { id: ID! post: Post @belongsTo }
    """,
    "MG013": "type Post @model { id: ID! count: Int @default(value: \"many\") }",
    "MG014": "type Post @model { id: ID! title: String @default(value: 3) }",
    "MG015": "type Post @model { id: ID! tags: [Tag] @manyToMany }\ntype Tag @model { id: ID! }",
    "MG016": "type Post @model { id: ID! } \ntype Note @primaryKey { id: ID! }",
    "MG017": "type Post @model @model { id: ID! }",
    "MG018": "type Post @model { id: ID! comments: Comment @hasMany }\ntype Comment @model { id: ID! }",
    "MG019": "type Post @model { id: ID! author: Author }\ntype Author @model { id: ID! }",
    "MG020": "type Post @model { id: ID! grid: [[Int]] }",
    "MG021": "input In { a: Int }\ntype Post @model { id: ID! in: In }",
    "MG022": """
    type Post @model { id: ID! comments: [Comment] @hasMany(indexName: "byPostt") }
    type Comment @model { id: ID! postID: ID! @index(name: "zzz") }
    """,
    "MG023": "type Post @model { id: ID! a: ID! @index(name: \"byA\") b: ID! @index(name: \"byA\") }",
    "MG024": "type Post @model @auth(rules: [{allow: groups}]) { id: ID! }",
    "MG025": "type Post @model { id: ID! createdAt: Int }",
    "MG026":
      "type Post @model { id: ID! tags: [Tag] @manyToMany(relationName: \"PostTags\") }\ntype Tag @model { id: ID! }",
    "MG027": "type Post @model { id: ID! @primaryKey a: ID! @primaryKey }",
    "MG028": """
    type Post @model { id: ID! comments: [Comment] @hasMany(references: ["postID"]) }
    type Comment @model { id: ID! postID: ID! post: Post @belongsTo(fields: ["postID"]) }
    """,
    "MG029": """
    type Post @model { id: ID! title: String! comments: [Comment] @hasMany(fields: ["title"]) }
    type Comment @model { id: ID! }
    """,
    "MG030": """
    type Post @model { id: ID! a: ID! @index(name: "byA", queryField: "q") b: ID! @index(name: "byB", queryField: "q") }
    """,
    "MG031": "type A { b: B }\ntype B { a: A }\ntype Post @model { id: ID! a: A }",
    "MG032": "type Post @model { id: ID! }\ntype POST @model { id: ID! }",
    "MG033": "type Post @model { id: ID! title: String Title: String }",
    "MG034": "enum Int { A }\ntype Post @model { id: ID! }",
    "MG035": "type UUID @model { id: ID! }\ntype UuidType @model { id: ID! }\ntype MODELS @model { id: ID! }",
    "MG036": "type Post @model { id: ID! __secret: String }",
    "MG037": "type Post @model { id: ID! _version: Int }",
    "MG038":
      "type Post @model { id: ID! }\ntype Subscription { onX: Post @aws_subscribe(mutations: [\"createPots\"]) }",
    "MG039": "schema { query: Root }\ntype Root { a: Int }\ntype Post @model { id: ID! }",
    "MG040": "type " + String(repeating: "A", count: 240) + " @model { id: ID! }",
    "MG043": "type Post @model(queries: null) { id: ID! }",
    "MG044": """
    type Post @model { id: ID! }
    type Note { id: ID! }
    type Subscription { onPost: Note @aws_subscribe(mutations: ["createPost"]) }
    """,
    "MG045": "type Post @model @searchable { id: ID! }",
    "MG046": "type Post @model { id: ID! old: String @deprecated(reason: 1) }",
    "MG047": "type Post @model { id: ID! }\ninput In { a: Int! @deprecated }",
    "MG048": "schema { query: Query }\nschema { query: Query }\ntype Query { a: Int }",
    "MG050": "type Query { a(x: Int, x: Int): Int }",
    "MG051": "directive @d on FIELD_DEFINITION\ndirective @d on FIELD_DEFINITION\ntype Query { a: Int }",
    "MG052": "type Query { a(x: Int = \"text\"): Int }",
    "MG053": "input Empty\ntype Query { a(x: Empty): Int }",
    "MG054": "input I { i: I! }\ntype Query { a(x: I): Int }",
    "MG065": "type Query { a: Int @auth(rules: [{allow: private, operations: [read]}]) }",
    "MG066": "type Post @model @auth(rules: []) { id: ID! }",
    "MG067": "type Query { a: Int @auth(rules: [{allow: owner}]) }",
    "MG068": "type Post @model @auth(rules: [{allow: private, operations: []}]) { id: ID! }",
    "MG069": "interface Node { key: ID! }\ntype Post implements Node @model { id: ID! }",
    "MG070": "interface Node { id: ID! }\nunion U = Node\ntype Query { a: U }",
    "MG071": "schema { query: Query }\nextend schema { query: Query }\ntype Query { a: Int }",
    "MG072": "type Post @model @auth(rules: [{allow: private, operations: [read, get]}]) { id: ID! }",
    "MG073": "type Post @model { id: ID! @primaryKey(sortKeyFields: [\"done\"]) done: Boolean! }",
    "MG074": "type C @model(timestamps: {createdAt: \"changed\", updatedAt: \"changed\"}) { id: ID! }",
    "MGW001": "type Task @model { id: ID! }",
    "MGW002": "type Post @model { id: ID! self: String }",
    "MGW003": "type Post @model { id: ID! a: ID! @index(name: \"ByOwner\") b: ID! @index(name: \"byOwner\") }",
  ]

  /// Codes no small schema can emit: `SDL013` needs an input of 4 GiB (`SourceLocation` offsets
  /// are 32-bit); its hint is pinned by ``inputTooLargeHasAHint()``.
  static let unreachable: Set<String> = ["SDL013"]

  /// The codes of the two schema catalogues, as `.ci/diagnostics-catalogue.py` reads them.
  static func catalogueCodes() throws -> [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    var codes: [String] = []
    for path in ["Sources/GraphQLSDL/SDLDiagnosticCode.swift", "Sources/ModelGenIR/Diagnostics/SemanticError.swift"] {
      let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
      codes += text.matches(of: #/public static let \w+: DiagnosticCode = "(\w+)"/#).map { String($0.output.1) }
    }
    return codes
  }

  static func bytes(for code: String) -> [UInt8] {
    code == "SDL002" ? [0xFF, 0xFE] + Array("type Post { id: ID! }".utf8) : Array(corpus[code, default: ""].utf8)
  }

  @Test func theCorpusCoversEveryCodeOfTheCatalogue() throws {
    let codes = try Self.catalogueCodes()
    let missing = codes.filter { Self.corpus[$0] == nil }
    #expect(missing.isEmpty, "no corpus schema for \(missing)")
    #expect(Set(Self.corpus.keys).subtracting(codes).isEmpty, "corpus codes not in the catalogue")
    #expect(codes.count == 34 + 64)  // SDL, then MG and MGW
  }

  @Test(arguments: try! catalogueCodes().filter { !unreachable.contains($0) })
  func everyDiagnosticOfTheSchemaHasAHint(code: String) throws {
    let result = Generator.validate(
      bytes: Self.bytes(for: code), fileName: "\(code).graphql", swiftNames: [:],
      conflictResolution: code == "MG037" ? .automerge : nil)
    #expect(
      result.diagnostics.contains { $0.code.rawValue == code },
      "\(code) not emitted: \(result.diagnostics.map { "\($0.code) \($0.message)" })")
    for diagnostic in result.diagnostics {
      let hint = diagnostic.hint ?? ""
      #expect(!hint.isEmpty, "\(diagnostic.code) has no hint: \(diagnostic.message)")
    }
  }

  /// The issue's examples, with the hint each now gives.
  @Test(arguments: [
    ("SDL002", "UTF-16"),
    ("SDL021", "belong in client documents"),
    ("SDL026", "add `}` to end the"),
    ("MG001", "define `Writer` in the schema"),
    ("MG022", "name one of its indexes: `zzz`"),
    ("MG014", "write it in double quotes: `@default(value: \"3\")`"),
    ("MG023", "give each @index of the model its own `name:`"),
  ])
  func theIssuesExamplesSayWhatToDo(code: String, hint: String) throws {
    let result = Generator.validate(bytes: Self.bytes(for: code), fileName: "s.graphql", swiftNames: [:])
    let diagnostic = try #require(result.diagnostics.first { $0.code.rawValue == code })
    #expect(diagnostic.hint?.contains(hint) == true, "\(diagnostic.hint ?? "no hint")")
  }

  /// An unknown `@auth` operation: the allowed values, and a did-you-mean when one is near.
  @Test func anUnknownAuthOperationListsTheAllowedValues() throws {
    let far = Generator.validate(
      bytes: Array("type Post @model @auth(rules: [{allow: private, operations: [zap]}]) { id: ID! }".utf8),
      fileName: "s.graphql", swiftNames: [:])
    let diagnostic = try #require(far.diagnostics.first)
    #expect(diagnostic.code == ModelGenDiagnosticCode.invalidArgumentValue)
    #expect(
      diagnostic.hint?.hasPrefix("list operations of create, update, delete, read") == true, "\(diagnostic.hint ?? "")")
    let near = Generator.validate(
      bytes: Array("type Post @model @auth(rules: [{allow: private, operations: [raed]}]) { id: ID! }".utf8),
      fileName: "s.graphql", swiftNames: [:])
    #expect(near.diagnostics.first?.hint == "did you mean `read`?")
  }

  /// Issue 17: hints built from a type name read "a `Int` value"; the article follows the name
  /// as said aloud.
  @Test func theArticleBeforeATypeNameFitsIt() throws {
    let result = Generator.validate(
      bytes: Array(#"type Post @model { id: ID! n: Int @default(value: "x") u: AWSURL @default(value: "no") }"#.utf8),
      fileName: "s.graphql", swiftNames: [:])
    let hints = result.diagnostics.compactMap(\.hint)
    #expect(hints.count == 2, "\(hints)")
    #expect(hints.first?.hasPrefix("write the default as a string holding an `Int` value,") == true, "\(hints)")
    #expect(hints.last?.hasPrefix("write the default as a string holding an `AWSURL` value,") == true, "\(hints)")
    #expect(
      ["Int", "ID", "AWSDateTime", "Enum", "Order", "User", "URL", "UUID", "Unit", "Umbrella", "String", "Post"].map(
        SemanticError.aOrAn) == ["an", "an", "an", "an", "an", "a", "a", "a", "a", "an", "a", "a"])
  }

  @Test func inputTooLargeHasAHint() {
    #expect(
      SDLDiagnosticMessage.inputTooLarge(byteCount: 1 << 32).hint == "split the schema into files smaller than 4 GiB")
  }
}
