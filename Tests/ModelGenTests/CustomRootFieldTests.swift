import GraphQLSDL
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR

/// Issue 20: the user's own `type Query`/`Mutation`/`Subscription` fields (and `extend type
/// Query`) are kept in `schema.api.graphql` where the transformer keeps them (user fields first,
/// generated ones appended), with the `input` types they take; a user field named like a generated
/// one is MG030 at the user's field, and a type that cannot be there is MG001/MG021.
@Suite struct CustomRootFieldTests {
  @Test func aUserFieldNamedLikeAGeneratedOneIsMG030AtTheUsersField() throws {
    let (result, schema) = analyzeMarked(
      """
      type Order @model { id: ID! }
      type Query { 1️⃣getOrder(id: ID!): Order echo: String }
      type Mutation { 2️⃣deleteOrder(id: ID!): Order }
      type Subscription { 3️⃣onCreateOrder: Order }
      extend type Query { 4️⃣listOrders: [Order] }
      """)
    let clashes = result.diagnostics.filter { $0.code == ModelGenDiagnosticCode.duplicateQueryField }
    #expect(
      clashes.map { SchemaLocation($0.range.start) }
        == ["1️⃣", "2️⃣", "3️⃣", "4️⃣"].map(schema.location))
    let get = try #require(clashes.first)
    #expect(
      get.message.contains("`Query.getOrder` is also the `get` query the Amplify transformer generates for `Order`"))
    #expect(get.hint?.contains("@model(queries: {get: null})") == true, "\(get.hint ?? "")")
    #expect(get.notes.first.map { SchemaLocation($0.range.start) } == SchemaLocation(line: 1, column: 6))
    #expect(clashes[1].hint?.contains("@model(mutations: {delete: null})") == true)
    #expect(clashes[2].hint?.contains("@model(subscriptions: null)") == true)
    #expect(clashes[3].hint?.contains("@model(queries: {list: null})") == true)

    // Leaving the generated query out (as the hint says) is accepted, and the user's field stays.
    let graph = try #require(
      analyzeClean("type Order @model(queries: {get: null}) { id: ID! }\ntype Query { getOrder(id: ID!): Order }"))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(text.contains("type Query {\n  getOrder(id: ID!): Order\n  listOrders("))
  }

  @Test func anIndexQueryNamedLikeAUserFieldIsMG030Too() {
    expectDiagnostics(
      """
      type Post @model { id: ID! title: String! @index(name: "byTitle", queryField: "postsByTitle") }
      type Query { 1️⃣postsByTitle(title: String!): [Post] }
      """,
      [(ModelGenDiagnosticCode.duplicateQueryField, "1️⃣")])
  }

  @Test func typesThatCannotBeInARootFieldAreReported() {
    expectDiagnostics(
      """
      type Post @model { id: ID! }
      input Filter { post: 1️⃣Post term: 2️⃣Strin }
      type Query {
        a(filter: Filter): 3️⃣Filter
        b(post: 4️⃣Post): Post
        c: 5️⃣Pots
      }
      """,
      [
        (ModelGenDiagnosticCode.unsupportedFieldType, "1️⃣"), (ModelGenDiagnosticCode.unknownType, "2️⃣"),
        (ModelGenDiagnosticCode.unsupportedFieldType, "3️⃣"), (ModelGenDiagnosticCode.unsupportedFieldType, "4️⃣"),
        (ModelGenDiagnosticCode.unknownType, "5️⃣"),
      ])
    let (result, _) = analyzeMarked("type Post @model { id: ID! }\ntype Query { c: Pots }")
    #expect(result.diagnostics.first?.hint == "did you mean `Post`?")
  }

  /// The transformer's order: every declared definition where it is declared (`Query` first
  /// here), the user's fields (an extension's after the type's own) before the generated ones,
  /// the user's inputs kept, and of the directives only AppSync's.
  @Test func userRootFieldsComeFirstWhereTheTypeIsDeclared() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Mutation { ping(input: PingInput!): String @function(name: "ping") @aws_iam }
        type Note @model { id: ID! }
        input PingInput { "Who asks." from: String = "me" }
        extend type Mutation { pong: String @deprecated(reason: "use ping") }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    let mutation = try #require(text.range(of: "type Mutation {"))
    let note = try #require(text.range(of: "type Note {"))
    let input = try #require(text.range(of: "input PingInput {"))
    #expect(mutation.lowerBound < note.lowerBound && note.lowerBound < input.lowerBound)
    #expect(
      text.contains(
        """
        type Mutation {
          ping(input: PingInput!): String @aws_iam
          pong: String @deprecated(reason: "use ping")
          createNote(input: CreateNoteInput!, condition: ModelNoteConditionInput): Note
        """))
    #expect(text.contains("input PingInput {\n  \"Who asks.\"\n  from: String = \"me\"\n}"))
    #expect(!text.contains("@function"))
    #expect(text.components(separatedBy: "type Mutation {").count == 2)
  }
}
