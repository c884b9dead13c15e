import Foundation
import Testing

@testable import ModelGenAPISchema
@testable import ModelGenIR

/// Issue 20 (breaker pass F2): `@index(queryField: null)` means "the index exists, no query field"
/// (index transformer `getOrGenerateDefaultQueryField`: "Any explicit null will take effect",
/// also with `enableAutoIndexQueryNames`); it was refused as MG014.
@Suite struct IndexQueryFieldNullTests {
  static let source = """
    type Post @model {
      id: ID!
      title: String!
      comments: [Comment] @hasMany(indexName: "byPost", fields: ["id"])
    }
    type Comment @model {
      id: ID!
      postID: ID! @index(name: "byPost", sortKeyFields: ["content"], queryField: null)
      content: String!
      owner: String @index(queryField: null)
    }
    """

  @Test func theIndexIsKeptWithoutAQueryField() throws {
    let graph = try #require(analyzeClean(Self.source))
    let comment = try graph.requireModel("Comment")
    #expect(comment.indexes.map(\.name) == ["byPost", "commentsByOwner"])
    #expect(comment.indexes.map(\.hasQueryField) == [false, false])
    #expect(comment.indexes.map(\.queryField) == [nil, nil])
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(
      APISchemaEmitterTests.block("type Query {", in: text)
        == """
        type Query {
          getPost(id: ID!): Post
          listPosts(filter: ModelPostFilterInput, limit: Int, nextToken: String): ModelPostConnection
          getComment(id: ID!): Comment
          listComments(filter: ModelCommentFilterInput, limit: Int, nextToken: String): ModelCommentConnection
        }
        """)
    // The hasMany over the index keeps its sort key condition; `addKeyConditionInputs` defines it.
    #expect(
      text.contains(
        "\n  comments(content: ModelStringKeyConditionInput, filter: ModelCommentFilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelCommentConnection\n"
      ))
    #expect(text.components(separatedBy: "input ModelStringKeyConditionInput {").count == 2)
    #expect(!text.contains("commentsByPostIDAndContent") && !text.contains("commentsByOwner"))
    // The local manifest keeps the index (relations read through it) and has no INDEX operation.
    let manifest = APILocalManifest.render(graph, sourceFileName: "t.graphql")
    #expect(manifest.contains("\"byPost\"") && manifest.contains("\"commentsByOwner\""))
    #expect(!manifest.contains("\"INDEX\""))
  }

  /// No query field, no claim: the default name and the connection an index query would have made
  /// are the user's (MG030 and MG032 claim only what the API schema prints).
  @Test func noClaimForAQueryThatIsNotPrinted() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Log @model(queries: {get: "getLog", list: null}) {
          id: ID!
          level: String @index(queryField: null)
        }
        type ModelLogConnection { total: Int }
        type Query { logsByLevel(level: String): ModelLogConnection }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(text.contains("type ModelLogConnection {\n  total: Int\n}"))
    #expect(text.contains("  logsByLevel(level: String): ModelLogConnection\n"))
    #expect(!text.contains("ModelLogFilterInput"))
    // With a query field, both are claimed again.
    expectDiagnostics(
      """
      type Log @model(queries: {get: "getLog", list: null}) {
        id: ID!
        level: String @index(queryField: 1️⃣"logsByLevel")
      }
      type 2️⃣ModelLogConnection { total: Int }
      type Query { 3️⃣logsByLevel(level: String): ModelLogConnection }
      """, [(ModelGenDiagnosticCode.typeNameCollision, "2️⃣"), (ModelGenDiagnosticCode.duplicateQueryField, "3️⃣")])
  }

  @Test func aValueOtherThanAStringOrNullIsMG014() {
    let (result, _) = analyzeMarked("type Post @model { owner: String @index(queryField: 5) }")
    #expect(result.diagnostics.first?.message == "`@index(queryField:)` must be a string or null")
    expectDiagnostics(
      "type Post @model { owner: String @index(queryField: 1️⃣5) }",
      [(ModelGenDiagnosticCode.invalidArgumentValue, "1️⃣")])
  }
}
