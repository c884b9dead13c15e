import Foundation
import LazyModel
import LazyModelDataStore
import Testing

@testable import SeedPostCommentModels

/// Issue 11's saves row (session 16): a write transaction reuses, per model type, its encoder,
/// statements and the decoder of one-model saves' returned models, and a save tries
/// `INSERT … ON CONFLICT DO NOTHING` before the upsert. What a save returns and stores stays as it
/// was; these pin the cases the reuse and the split could get wrong.
@Suite("Saves reuse their state within a write")
struct SaveStateTests {
  @Test(
    "the models one write's tx.save calls return load their references each on its own",
    arguments: StoreLocation.allCases)
  func returnedReferencesAreNotSiblings(_ location: StoreLocation) async throws {
    let (store, log) = try await BatchAndIncludeTests.seeded(location, posts: 5, perPost: 0)
    let posts = try await store.query(Post4V2.self, sort: [.ascending(Post4V2.keys.id)])
    let saved = try await store.write { tx in
      try posts.map { post in
        try tx.save(Comment4V2(id: "n-\(post.id)", content: "new", postIdentifier: post.identifier))
      }
    }
    #expect(saved.map { $0.postReference.isLoaded } == Array(repeating: false, count: 5))
    log.clear()
    var titles: [String?] = []
    for comment in saved { titles.append(try await comment.post?.title) }
    #expect(titles == (0..<5).map { "Post \($0)" })
    // One primary-key lookup per reference, no batch of the others' keys.
    #expect(log.queries.count == 5)
    #expect(!log.queries.contains { $0.contains(" IN (") })
  }

  @Test(
    "a key saved twice in one write: the second save updates it and returns the stored createdAt",
    arguments: StoreLocation.allCases)
  func secondSaveOfAKeyUpdates(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    let (first, second) = try await store.write { tx in
      (try tx.save(Post4V2(id: "p", title: "one")), try tx.save(Post4V2(id: "p", title: "two")))
    }
    #expect(second.title == "two")
    #expect(second.createdAt != nil && second.createdAt == first.createdAt)
    let stored = try #require(try await store.query(Post4V2.self, byIdentifier: .init(id: "p")))
    #expect(stored == second)
    #expect(try await store.count(Post4V2.self) == 1)
  }

  @Test("an empty text is stored as '' (not NULL)", arguments: StoreLocation.allCases)
  func emptyTextIsBoundAsEmpty(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    let post = try await store.save(Post4V2(id: "", title: ""))
    try await store.save(Comment4V2(id: "c", content: "", post: post))
    let read = try #require(try await store.query(Post4V2.self, byIdentifier: .init(id: "")))
    #expect(read.title == "")
    let comment = try #require(try await store.query(Comment4V2.self, byIdentifier: .init(id: "c")))
    #expect(comment.content == "")
    #expect(comment.postReference.identifier?.id == "")
  }
}
