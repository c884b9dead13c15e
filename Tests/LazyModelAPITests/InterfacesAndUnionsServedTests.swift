import Foundation
import LazyModel
import LazyModelAPI
import RegressionInterfacesAndUnionsDropped
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 20: the API schema of `Schemas/regressions/interfaces-and-unions-dropped` keeps its
/// interfaces (`Node`, `Named implements Node`), its union (`SearchResult`, with the member
/// `extend union` adds), the `implements` clauses of the model `Post`, the non-model type `Note`
/// and `type Query`, and the arguments of model and non-model fields. The local server
/// (graphql-core's `build_schema` and `assert_valid_schema`) serves it: a record written through
/// the generated mutation is read back through fragments on both interfaces, with field arguments,
/// and documents through the union and the interface-typed root field validate (the server has no
/// resolver for a user's root field: each answers `null`), while a selection the union does not
/// have is refused.
@Suite("Interfaces and unions served by the local server")
struct InterfacesAndUnionsServedTests {
  struct PostThroughInterfaces: Decodable, Sendable, Equatable {
    let typename: String
    let id: String
    let name: String?
    let body: String?

    enum CodingKeys: String, CodingKey {
      case typename = "__typename"
      case id, name, body
    }
  }

  @Test func aModelIsReadThroughItsInterfacesAndTheUnionValidates() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/interfaces-and-unions-dropped/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server)
    _ = try await client.create(Post(id: "p1", name: "Hello", body: "Text of the post"))

    let get = GraphQLRequest<PostThroughInterfaces?>(
      operationType: .query, operationName: "GetPost",
      document: """
        query GetPost($id: ID!) {
          getPost(id: $id) {
            __typename
            ... on Node { id }
            ... on Named { name(locale: "de") }
            body(maxLength: 4)
          }
        }
        """,
      variables: ["id": "p1"], responseField: "getPost")
    #expect(
      try await client.send(get)
        == PostThroughInterfaces(typename: "Post", id: "p1", name: "Hello", body: "Text of the post"))

    struct Listed: Decodable, Sendable, Equatable {
      struct Item: Decodable, Sendable, Equatable { let id: String }
      let items: [Item]
    }
    let list = GraphQLRequest<Listed?>(
      operationType: .query, operationName: "ListPosts",
      document: "query ListPosts { listPosts { items { ... on Node { id } } } }", variables: [:],
      responseField: "listPosts")
    #expect(try await client.send(list) == Listed(items: [.init(id: "p1")]))

    let search = GraphQLRequest<[String?]?>(
      operationType: .query, operationName: "Search",
      document: """
        query Search($text: String!) {
          search(text: $text) {
            __typename
            ... on Post { id name }
            ... on Note { id text(maxLength: 5) }
            ... on Tag { label }
          }
        }
        """,
      variables: ["text": "hello"], responseField: "search")
    #expect(try await client.send(search) == nil)
    let node = GraphQLRequest<String?>(
      operationType: .query, operationName: "Node",
      document: "query Node($id: ID!) { node(id: $id) { id ... on Post { name } } }", variables: ["id": "p1"],
      responseField: "node")
    #expect(try await client.send(node) == nil)

    // A union has no fields of its own: selecting one without a fragment is refused.
    let wrong = GraphQLRequest<String?>(
      operationType: .query, operationName: "Wrong", document: "query Wrong { search(text: \"x\") { id } }",
      variables: [:], responseField: "search")
    do {
      _ = try await client.send(wrong)
      Issue.record("expected a validation error")
    } catch let APIError.graphQL(_, errors, _, _) {
      #expect(errors.first?.errorType == "ValidationError")
    }
  }
}
