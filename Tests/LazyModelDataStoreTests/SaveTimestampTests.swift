import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Testing

@Suite("Timestamps: one instant per save")
struct SaveTimestampTests {
  /// The stored `AWSDateTime` text of a timestamp (`YYYY-MM-DDThh:mm:ss.sssZ`).
  private func text(_ value: Temporal.DateTime?) throws -> String {
    try #require(value).iso8601String
  }

  @Test(
    "each tx.save of one write stamps its own instant, later saves never earlier", arguments: StoreLocation.allCases)
  func perSave(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    let (first, second, updated, loop) = try await store.write { tx in
      let first = try tx.save(Post4V2(id: "a", title: "first"))
      // 5 ms apart on the writer's queue (not a cooperative thread): the next save's millisecond.
      usleep(5_000)
      let second = try tx.save(Post4V2(id: "b", title: "second"))
      usleep(5_000)
      let updated = try tx.save(Post4V2(id: "a", title: "first, again"))
      let loop = try (0..<200).map { try tx.save(Post4V2(id: "l\($0)", title: "loop")) }
      return (first, second, updated, loop)
    }
    let a = try text(first.updatedAt)
    let b = try text(second.updatedAt)
    let c = try text(updated.updatedAt)
    // Same fixed-width UTC text, so text order is time order.
    #expect(a.count == 24 && a.hasSuffix("Z"))
    #expect(a < b, "\(a) then \(b)")
    #expect(b < c, "\(b) then \(c)")
    // An insert's createdAt is its own save's instant; an update keeps createdAt and moves updatedAt.
    #expect(try text(first.createdAt) == a)
    #expect(try text(second.createdAt) == b)
    #expect(try text(updated.createdAt) == a)
    let stamps = try loop.map { try text($0.updatedAt) }
    #expect(stamps == stamps.sorted(), "non-decreasing within the transaction")
    #expect(stamps.first.map { $0 >= c } == true)
    // What the store returned is what it stored.
    let stored = try #require(try await store.query(Post4V2.self, byIdentifier: .init(id: "a")))
    #expect(try text(stored.updatedAt) == c)
    #expect(try text(stored.createdAt) == a)
  }

  @Test("a batch save stamps each model in order; separate writes stamp separate instants")
  func batchAndWrites() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let batch = try await store.save((0..<2_000).map { Post4V2(id: "p\($0)", title: "t") })
    let stamps = try batch.map { try text($0.updatedAt) }
    #expect(stamps == stamps.sorted())
    // 2,000 saves take more than a millisecond: not all share one instant.
    #expect(Set(stamps).count > 1, "all 2,000 saves stamped \(stamps.first ?? "")")
    let before = try #require(stamps.last)
    try await Task.sleep(for: .milliseconds(5))
    let later = try await store.save(Post4V2(id: "later", title: "t"))
    #expect(try text(later.updatedAt) > before)
  }
}
