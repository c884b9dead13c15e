import GraphQLSDL
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// Defects found by a user of the CLI: recursive embedded types (MG031), names that differ only in
/// letter case (MG032, MG033), Amplify directives on interfaces, inputs and arguments (MG016),
/// "did you mean" for `@auth` values (MG014), redefined built-in scalars (MG034), `@default` on
/// lists (MG013) and repeated sort key fields (MG014, once per mistake).
@Suite struct SemanticsUserReportTests {
  @Test func recursiveEmbeddedTypesAreReportedAtTheFieldThatClosesTheCycle() {
    expectDiagnostics(
      """
      type Address { line: String 1️⃣next: Address }
      type M @model { id: ID! addr: Address }
      type A1 { b: B1 }
      type B1 { 2️⃣a: A1! }
      type X { y: Y! }
      type Y { z: Z }
      type Z { 3️⃣y: Y list: [Z] }
      """,
      [
        (ModelGenDiagnosticCode.recursiveEmbeddedType, "1️⃣"), (ModelGenDiagnosticCode.recursiveEmbeddedType, "2️⃣"),
        (ModelGenDiagnosticCode.recursiveEmbeddedType, "3️⃣"),
      ])
    let (result, _) = analyzeMarked("type A1 { b: B1 }\ntype B1 { a: A1! }")
    let diagnostic = result.diagnostics.first
    #expect(diagnostic?.message.contains("(A1.b -> B1.a -> A1)") == true)
    #expect(diagnostic?.hint?.contains("`[A1]`") == true)
    #expect(diagnostic?.hint?.contains("@model") == true)
  }

  @Test func cyclesThroughListsAreAccepted() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Node { label: String children: [Node!]! sibling: [Node] }
        type Ping { pong: [Pong] }
        type Pong { ping: Ping! }
        type Tree @model { id: ID! root: Node ping: Ping }
        """))
    #expect(graph.nonModels.map(\.name) == ["Node", "Ping", "Pong"])
  }

  @Test func typeNamesThatDifferOnlyInCaseCollide() {
    expectDiagnostics(
      """
      type Post_ @model { id: ID! address: Address }
      type post @model { id: ID! }
      type 1️⃣Post @model { id: ID! }
      type 2️⃣ModelPostConnection { items: [String] }
      enum 3️⃣createPOSTinput { A }
      type Address { line: String }
      input 4️⃣ADDRESSINPUT { line: String }
      type Tag @model { id: ID! notes: [Note] 5️⃣@manyToMany(relationName: "NoteTags") }
      type Note @model { id: ID! tags: [Tag] @manyToMany(relationName: "NoteTags") }
      type noteTags { id: ID }
      enum 6️⃣ModelSortDirection { UP DOWN }
      type 7️⃣ModelStringinput { eq: String }
      """,
      [
        (ModelGenDiagnosticCode.typeNameCollision, "1️⃣"), (ModelGenDiagnosticCode.typeNameCollision, "2️⃣"),
        (ModelGenDiagnosticCode.typeNameCollision, "3️⃣"), (ModelGenDiagnosticCode.typeNameCollision, "4️⃣"),
        (ModelGenDiagnosticCode.typeNameCollision, "5️⃣"), (ModelGenDiagnosticCode.typeNameCollision, "6️⃣"),
        // `ModelSortDirection` is a LazyModelAPI type too: the Swift enum is renamed (MGW001).
        (ModelGenDiagnosticCode.renamedSwiftType, "6️⃣"), (ModelGenDiagnosticCode.typeNameCollision, "7️⃣"),
      ])
    let (result, _) = analyzeMarked("type post @model { id: ID! }\ntype Post @model { id: ID! }")
    #expect(result.diagnostics.map { [$0.line, $0.column] } == [[2, 6]])
    #expect(result.diagnostics.first?.notes.map { [$0.range.start.line, $0.range.start.column] } == [[1, 6]])
    #expect(
      result.diagnostics.first?.message
        == "type `Post` collides with type `post`; SQLite table names and API schema type names ignore letter case")
    let (exact, _) = analyzeMarked(
      "type Address { line: String }\ninput AddressInput { line: String }\ntype Place @model { id: ID! at: Address }")
    #expect(
      exact.diagnostics.map(\.message) == [
        "type `AddressInput` collides with `AddressInput` (derived from type `Address`); the API schema would define `AddressInput` twice"
      ])
    // Issue 20: no model reaches `Address`, so the API schema has no `AddressInput` of its own
    // (model transformer `createNonModelInputs`) and the user's input is kept.
    #expect(analyzeClean("type Address { line: String }\ninput AddressInput { line: String }") != nil)
  }

  @Test func fieldNamesThatDifferOnlyInCaseCollide() {
    expectDiagnostics(
      """
      type Person @model { id: ID! name: String 1️⃣Name: String 2️⃣NAME: String a_b: Int 3️⃣A_B: Int }
      type Info { x: Int 4️⃣X: Int }
      type Stamp @model { id: ID! 5️⃣CreatedAt: AWSDateTime }
      """,
      [
        (ModelGenDiagnosticCode.fieldNameCollision, "1️⃣"), (ModelGenDiagnosticCode.fieldNameCollision, "2️⃣"),
        (ModelGenDiagnosticCode.fieldNameCollision, "3️⃣"), (ModelGenDiagnosticCode.fieldNameCollision, "4️⃣"),
        (ModelGenDiagnosticCode.fieldNameCollision, "5️⃣"),
      ])
    let (result, _) = analyzeMarked("type Person @model { id: ID! name: String Name: String }")
    #expect(result.diagnostics.first?.notes.map { [$0.range.start.line, $0.range.start.column] } == [[1, 30]])
  }

  @Test func amplifyDirectivesOnInterfacesInputsAndArgumentsAreMisplaced() throws {
    expectDiagnostics(
      """
      type Post @model { id: ID! }
      interface I 1️⃣@model { id: ID! 2️⃣@primaryKey }
      input In 3️⃣@model { id: ID! 4️⃣@default(value: "x") }
      union U 5️⃣@auth(rules: [{allow: public}]) = Post
      scalar Money 6️⃣@model
      type Query 7️⃣@auth(rules: [{allow: public}]) {
        echo(text: String 8️⃣@default(value: "x")): String 9️⃣@hasMany
      }
      """,
      [
        (ModelGenDiagnosticCode.misplacedDirective, "1️⃣"), (ModelGenDiagnosticCode.misplacedDirective, "2️⃣"),
        (ModelGenDiagnosticCode.misplacedDirective, "3️⃣"), (ModelGenDiagnosticCode.misplacedDirective, "4️⃣"),
        (ModelGenDiagnosticCode.misplacedDirective, "5️⃣"), (ModelGenDiagnosticCode.misplacedDirective, "6️⃣"),
        (ModelGenDiagnosticCode.misplacedDirective, "7️⃣"), (ModelGenDiagnosticCode.misplacedDirective, "8️⃣"),
        (ModelGenDiagnosticCode.misplacedDirective, "9️⃣"),
      ])
    // `@auth` on a custom query is where the transformer allows it.
    let graph = try #require(
      analyzeClean(
        """
        type Post @model { id: ID! }
        type Query { echo(text: String): String @auth(rules: [{allow: private}]) }
        """))
    #expect(graph.models.map(\.name) == ["Post"])
  }

  @Test func authValuesSuggestTheClosestValidValue() {
    expectDiagnostics(
      """
      type Post @model @auth(rules: [
        {allow: 1️⃣publik},
        {allow: owner, provider: 2️⃣userPool, operations: [read, 3️⃣updat, 4️⃣delet]}
      ]) { id: ID! }
      """,
      [
        (ModelGenDiagnosticCode.invalidArgumentValue, "1️⃣"), (ModelGenDiagnosticCode.invalidArgumentValue, "2️⃣"),
        (ModelGenDiagnosticCode.invalidArgumentValue, "3️⃣"), (ModelGenDiagnosticCode.invalidArgumentValue, "4️⃣"),
      ])
    let (result, _) = analyzeMarked(
      "type Post @model @auth(rules: [{allow: publik}, {allow: owner, provider: userPool, operations: [updat]}]) { id: ID! }"
    )
    #expect(
      result.diagnostics.map(\.hint) == [
        "did you mean `public`?", "did you mean `userPools`?", "did you mean `update`?",
      ])
    let (level, schema) = analyzeMarked("type Post @model(subscriptions: {level: 1️⃣pubic}) { id: ID! }")
    #expect(
      level.diagnostics.map { [$0.line, $0.column] } == [[schema.location("1️⃣").line, schema.location("1️⃣").column]])
    #expect(level.diagnostics.map(\.code) == [ModelGenDiagnosticCode.invalidArgumentValue])
    #expect(level.diagnostics.map(\.hint) == ["did you mean `public`?"])
    _ = analyzeClean("type Post @model(subscriptions: {level: off}) { id: ID! }")
  }

  @Test func redefiningABuiltInScalarSaysItIsBuiltIn() {
    expectDiagnostics(
      """
      enum 1️⃣Int { A }
      type 2️⃣AWSDateTime { at: String }
      type Note @model { id: ID! n: Int }
      extend enum 3️⃣ID { B }
      extend scalar AWSJSON @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc8259")
      """,
      [
        (ModelGenDiagnosticCode.builtInTypeRedefined, "1️⃣"), (ModelGenDiagnosticCode.builtInTypeRedefined, "2️⃣"),
        (ModelGenDiagnosticCode.builtInTypeRedefined, "3️⃣"),
      ])
    let (result, _) = analyzeMarked("enum Int { A }")
    #expect(result.diagnostics.map(\.message) == ["`Int` is a built-in GraphQL scalar and cannot be redefined"])
    #expect(result.diagnostics.map(\.hint) == ["rename the type; `Int` is always defined"])
  }

  @Test func defaultOnListsAndEmbeddedTypesNamesTheFieldType() {
    expectDiagnostics(
      """
      type Box { w: Int }
      type M @model {
        id: ID!
        f: [Int] 1️⃣@default(value: "[1]")
        box: Box 2️⃣@default(value: "{}")
      }
      type Shelf { sizes: [Int!]! 3️⃣@default(value: "[]") label: String 4️⃣@default(value: "x") }
      """,
      [
        (ModelGenDiagnosticCode.invalidDefault, "1️⃣"), (ModelGenDiagnosticCode.invalidDefault, "2️⃣"),
        (ModelGenDiagnosticCode.misplacedDirective, "3️⃣"), (ModelGenDiagnosticCode.misplacedDirective, "4️⃣"),
      ])
    let (result, _) = analyzeMarked("type M @model { id: ID! f: [Int] @default(value: \"[1]\") }")
    #expect(
      result.diagnostics.map(\.message) == [
        "`M.f` has type `[Int]`; @default only applies to scalar and enum fields, not to lists or embedded types"
      ])
  }

  @Test func eachSortKeyMistakeIsReportedOnce() {
    expectDiagnostics(
      """
      type K @model {
        a: ID! @primaryKey(sortKeyFields: ["b", "c", 1️⃣"c", 2️⃣"a", 3️⃣"zz", 4️⃣"zz"])
        b: String!
        c: String!
        d: String! @index(name: "byD", sortKeyFields: ["b", 5️⃣"b", 6️⃣"d"])
      }
      """,
      [
        (ModelGenDiagnosticCode.invalidArgumentValue, "1️⃣"), (ModelGenDiagnosticCode.invalidArgumentValue, "2️⃣"),
        (ModelGenDiagnosticCode.missingField, "3️⃣"), (ModelGenDiagnosticCode.invalidArgumentValue, "4️⃣"),
        (ModelGenDiagnosticCode.invalidArgumentValue, "5️⃣"), (ModelGenDiagnosticCode.invalidArgumentValue, "6️⃣"),
      ])
    let (result, _) = analyzeMarked(#"type K @model { a: ID! @primaryKey(sortKeyFields: ["a", "b", "b"]) b: String! }"#)
    #expect(
      result.diagnostics.map(\.message) == [
        "`@primaryKey(sortKeyFields:)` must be a list of fields other than the partition key `a`",
        "`@primaryKey(sortKeyFields:)` must be a list of distinct fields (`b` is repeated)",
      ])
  }
}
