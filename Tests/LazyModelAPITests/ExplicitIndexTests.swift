import Foundation
import LazyModel
import LazyModelAPI
import RegressionHasManyExplicitFkIndex
import RegressionHasManyIndexNameWithTwoIndexes
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

  @Test("of two indexes that start with shelfID, shelf.boxes queries the one the hasMany names")
  func namedIndexOfTwo() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/has-many-index-name-with-two-indexes/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    try await client.create(RegressionHasManyIndexNameWithTwoIndexes.Shelf(id: "s", name: "Shelf"))
    for (id, label, position) in [("b1", "c", 1), ("b2", "b", 2), ("b3", "a", 3)] {
      try await client.create(Box(id: id, shelfID: "s", label: label, position: position))
    }
    let shelf = try #require(
      try await client.get(RegressionHasManyIndexNameWithTwoIndexes.Shelf.self, byIdentifier: .init(id: "s")))
    log.clear()
    let boxes = try await #require(shelf.boxes).fetch()
    #expect(boxes.map(\.id) == ["b1", "b2", "b3"])
    #expect(log.last?.operationName == "BoxesByShelfIDAndPosition")
    #expect(log.last?.variables == ["shelfID": "s"])
  }
}
