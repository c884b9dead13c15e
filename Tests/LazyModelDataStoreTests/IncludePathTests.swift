import Foundation
import LazyModel
import LazyModelDataStore
import Testing

@testable import SeedPostCommentModels

/// Issue 14: the DataStore's `includes:` takes the generated typed paths, at any depth.
@Suite("DataStore includes by typed path")
struct DataStoreIncludePathTests {
  @Test(
    "depth 1, 2 and 3 paths load their levels with one query each",
    arguments: StoreLocation.allCases)
  func depths(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: seedRegistry)
    let post = Post4V2(id: "p-1", title: "Deep")
    try await store.save(post)
    try await store.save((0..<5).map { Comment4V2(id: "c\($0)", content: "c\($0)", post: post) })

    log.clear()
    let one = try #require(
      try await store.query(
        Comment4V2.self, byIdentifier: .init(id: "c0"), includes: [.path(Comment4V2.path.post)]))
    #expect(one.postReference.isLoaded)
    #expect(log.queries.count == 2)  // the comment, then its post

    log.clear()
    let three = try await store.query(
      Comment4V2.self, where: Comment4V2.keys.content.eq("c1"),
      includes: QueryInclude.paths([Comment4V2.path.post.comments.post, Comment4V2.path.post]))
    #expect(log.queries.count == 4)  // comments, posts, their comments, their posts
    let post1 = try #require(try await three.first?.post)
    let siblings = try #require(post1.comments)
    #expect(siblings.isLoaded)
    #expect(try siblings.elements.count == 5)
    #expect(try siblings.elements.allSatisfy { $0.postReference.isLoaded })
    #expect(log.queries.count == 4)  // nothing more was read

    let two = try await store.query(
      Comment4V2.self, where: Comment4V2.keys.content.eq("c2"),
      includes: [.path(Comment4V2.path.post.comments)])
    let post2 = try #require(try await two.first?.post)
    #expect(try post2.comments?.elements.allSatisfy { !$0.postReference.isLoaded } == true)
  }
}
