import Foundation
import LazyModel
import LazyModelAPI
import RegressionHasManyExplicitFkIndex
import Testing

@Suite("uni-directional hasMany through a user-named FK and an index, over HTTP")
struct ExplicitIndexTests {
  @Test("post.comments queries postID through the byPost index")
  func explicitIndex() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/has-many-explicit-fk-index/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    try await client.create(Post(id: "p1", title: "One"))
    try await client.create(Comment(id: "c2", postID: "p1", content: "b"))
    try await client.create(Comment(id: "c1", postID: "p1", content: "a"))
    try await client.create(Comment(id: "c3", postID: "p2", content: "c"))
    let post = try #require(try await client.get(Post.self, byIdentifier: .init(id: "p1")))
    log.clear()
    let comments = try await #require(post.comments).fetch()
    #expect(comments.map(\.id) == ["c1", "c2"])
    #expect(log.last?.operationName == "CommentsByPostIDAndContent")
    #expect(log.last?.variables == ["postID": "p1"])
  }
}
