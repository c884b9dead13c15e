import Foundation
import LazyModel
import LazyModelDataStore
import Testing

@testable import SeedPostCommentModels

@Suite("Seed scenario: Post4V2 / Comment4V2")
struct SeedTests {
  @Test("save, query, lazy post, lazy comments", arguments: StoreLocation.allCases)
  func seedScenario(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: seedRegistry)
    let post = Post4V2(id: "p1", title: "Hello")
    try await store.save(post)
    try await store.save(Comment4V2(id: "c1", content: "First", post: post))

    log.clear()
    let comments = try await store.query(Comment4V2.self)
    #expect(comments.map(\.id) == ["c1"])
    #expect(
      log.queries == [
        #"SELECT "id", "content", "postID", "createdAt", "updatedAt" FROM "Comment4V2""#
      ])
    let comment = try #require(comments.first)
    guard case .notLoaded(let identifiers) = comment._post.state else {
      Issue.record("post should not be loaded yet")
      return
    }
    #expect(identifiers == [IdentifierComponent(name: "id", value: .string("p1"))])

    log.clear()
    let loaded = try await comment.post
    #expect(loaded?.title == "Hello")
    #expect(
      log.queries == [
        #"SELECT "id", "title", "createdAt", "updatedAt" FROM "Post4V2" WHERE "id" = ?"#
      ])

    let list = try #require(loaded?.comments)
    #expect(throws: LazyModelError.self) { try list.elements }
    log.clear()
    let fetched = try await list.fetch()
    #expect(fetched.map(\.content) == ["First"])
    #expect(list.hasNextPage == false)
    #expect(log.queries.count == 1)
  }
}
