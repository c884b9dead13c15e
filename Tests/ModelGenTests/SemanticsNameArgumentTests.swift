import GraphQLSDL
import Testing

@testable import ModelGenIR

/// Directive arguments whose strings become names (a join model's type and file name, an owner
/// field, timestamp fields, operation and index names) must be GraphQL names (spec §2.1.9), not
/// starting with `__` (§4.1). A fresh user's schema with `relationName: "../../Escaped"` wrote
/// files two directories above `--output`, and `ownerField: "x: String? = nil; func f() {}; var y"`
/// put Swift code into the generated model; `validate` passed both.
@Suite struct SemanticsNameArgumentTests {
  @Test func everyNameValuedArgumentMustBeAGraphQLName() {
    expectDiagnostics(
      """
      type P @model { id: ID! tags: [T] @manyToMany(relationName: 1️⃣"../../Escaped") }
      type T @model { id: ID! ps: [P] @manyToMany(relationName: 2️⃣"../../Escaped") }
      type Order @model @auth(rules: [{allow: owner, ownerField: 3️⃣"x: String? = nil; func f() {}; var y"}]) {
        id: ID!
      }
      type Item @model(timestamps: {updatedAt: 4️⃣"u = Date(); var z"}, queries: {get: 5️⃣"get item"})
        @auth(rules: [{allow: groups, groupsField: 6️⃣"__g"}]) {
        id: ID!
        n: Int @index(name: 7️⃣"1x", queryField: 8️⃣"list Items")
      }
      type Job @model(subscriptions: {onCreate: ["onJob", 9️⃣"on-job"]}) { id: ID! }
      """,
      Array(repeating: ModelGenDiagnosticCode.invalidArgumentValue, count: 9).enumerated().map {
        ($1, ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"][$0])
      })
  }

  @Test func theMessageNamesTheArgumentAndTheHintANameMadeOfItsLetters() {
    let (result, _) = analyzeMarked(
      """
      type P @model { id: ID! tags: [T] @manyToMany(relationName: "../../Escaped") }
      type T @model { id: ID! ps: [P] @manyToMany(relationName: "../../Escaped") }
      type Item @model(queries: {get: "get item"}) { id: ID! }
      """)
    #expect(
      result.diagnostics.map(\.message) == [
        "`@manyToMany(relationName:)` must be a GraphQL name (letters, digits and `_`, not starting with a digit or"
          + " `__`): it names a type, field or file in the API schema and the Swift code",
        "`@manyToMany(relationName:)` must be a GraphQL name (letters, digits and `_`, not starting with a digit or"
          + " `__`): it names a type, field or file in the API schema and the Swift code",
        "`@model(queries.get:)` must be a GraphQL name (letters, digits and `_`, not starting with a digit or `__`):"
          + " it names a type, field or file in the API schema and the Swift code",
      ])
    #expect(
      result.diagnostics.map(\.hint) == [
        "did you mean `Escaped`?", "did you mean `Escaped`?", "did you mean `getitem`?",
      ])
    #expect(result.diagnostics.map { [$0.line, $0.column] } == [[1, 61], [2, 59], [3, 33]])
  }

  @Test func namesAndNullsThatAreNamesPass() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Post @model(timestamps: {createdAt: "made", updatedAt: null}, queries: {get: "fetchPost", list: null})
          @auth(rules: [{allow: owner, ownerField: "_writer"}]) {
          id: ID!
          n: Int @index(name: "byN_2", queryField: "postsByN")
          tags: [Tag] @manyToMany(relationName: "PostTags")
        }
        type Tag @model { id: ID! posts: [Post] @manyToMany(relationName: "PostTags") }
        """))
    #expect(Set(graph.models.map(\.name)) == ["Post", "Tag", "PostTags"])
  }

  /// GraphQL spec §4.1: `__` names belong to introspection; the API schema would not validate.
  @Test func typeFieldAndEnumValueNamesStartingWithTwoUnderscoresAreReserved() {
    expectDiagnostics(
      """
      type 1️⃣__T @model { id: ID! }
      type M @model { id: ID! 2️⃣__y: String _z: Int }
      enum E { 3️⃣__V OK _W }
      """,
      [
        (ModelGenDiagnosticCode.reservedName, "1️⃣"), (ModelGenDiagnosticCode.reservedName, "2️⃣"),
        (ModelGenDiagnosticCode.reservedName, "3️⃣"),
      ])
    let (result, _) = analyzeMarked("enum E { __V OK }")
    #expect(
      result.diagnostics.map(\.message) == [
        "the enum value name `__V` starts with `__`, which GraphQL reserves for introspection"
      ])
    #expect(result.diagnostics.map(\.hint) == ["rename it to start with a letter or a single `_`"])
  }
}
