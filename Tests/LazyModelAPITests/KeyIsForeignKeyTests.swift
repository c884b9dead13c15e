import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import RegressionBelongsToFkIsPrimaryKeyField

/// `Schemas/regressions/belongs-to-fk-is-primary-key-field.graphql` over HTTP: the key field
/// `postID` is also the `@belongsTo` FK, so it travels once in inputs and the reference loads
/// through it.
@Suite("A primary-key field that is also the @belongsTo FK, over HTTP")
struct KeyIsForeignKeyTests {
  @Test("create sends postID once; get, the reference and the list load through it")
  func roundTrip() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/belongs-to-fk-is-primary-key-field/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let post = Post(id: "p1", title: "Hello")
    try await client.create(post)
    try await client.create(Comment(postID: "p1", n: 2, text: "second"))
    try await client.create(Comment(postID: "p1", n: 1, text: "first"))
    #expect(log.last?.variables["input"] == ["postID": "p1", "n": 1, "text": "first"])

    log.clear()
    let fetched = try #require(
      try await client.get(Comment.self, byIdentifier: .init(postID: "p1", n: 1)))
    #expect(
      log.last?.document
        == "query GetComment($postID: ID!, $n: Int!) { getComment(postID: $postID, n: $n) { postID n text post { id __typename } createdAt updatedAt __typename } }"
    )
    #expect(fetched.postID == "p1")
    #expect(fetched.text == "first")
    #expect(fetched.postReference.identifiers == [IdentifierComponent(name: "id", value: .string("p1"))])
    let loaded = try #require(try await fetched.post)
    #expect(loaded.title == "Hello")
    let comments = try #require(loaded.comments)
    let page = try await comments.fetch()
    #expect(page.map(\.n) == [1, 2])
    #expect(page.map(\.text) == ["first", "second"])
  }
}
