import Foundation
import LazyModel
import LazyModelAPI
import SyncBlogModels
import Testing

@testable import LazyModelDataStore

/// `Schemas/sync/sync-blog.graphql` against the local server, two SQLite files as two devices: a
/// remote record's timestamps are stored as the server has them, the implicit (read-only)
/// `createdAt` too, on every remote write path. The upsert of a remote record used to skip the
/// implicit `createdAt` (a local save's rule: the store's own value is kept on update), so the
/// device that made a record kept its local instant forever while every other device had the
/// server's: after the mutation's answer, after another device's update, after a restart.
@Suite("Sync: a remote record's createdAt is the server's", .serialized)
struct ServerTimestampSyncTests {
  /// The server's `createdAt` and `updatedAt` of post `id`.
  private func serverTimestamps(_ server: SyncServer, _ id: String) async throws
    -> (createdAt: Temporal.DateTime, updatedAt: Temporal.DateTime)
  {
    let response = try await server.graphQL(
      "query G($id: ID!) { getPost(id: $id) { createdAt updatedAt } }", ["id": id])
    let post = (response["data"] as? [String: Any])?["getPost"] as? [String: Any]
    let createdAt = try #require(post?["createdAt"] as? String, "\(response)")
    let updatedAt = try #require(post?["updatedAt"] as? String, "\(response)")
    return (try Temporal.DateTime(iso8601String: createdAt), try Temporal.DateTime(iso8601String: updatedAt))
  }

  private func local(_ store: DataStore, _ id: String) async throws -> Post? {
    try await store.query(Post.self, byIdentifier: .init(id: id))
  }

  @Test func theDeviceThatCreatedARecordTakesTheServersCreatedAt() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let a = try device(server, directory, "a")
    let b = try device(server, directory, "b")
    try await startAndSync(b)

    // A creates offline: its local createdAt is its own instant, earlier than the server's.
    let made = try await a.save(Post(id: "p1", title: "offline"))
    let localCreatedAt = try #require(made.createdAt)
    try await Task.sleep(for: .milliseconds(20))
    try await startAndSync(a)
    #expect(try await eventuallyScaled(15) { try await a.pendingMutations().isEmpty })
    let first = try await serverTimestamps(server, "p1")
    #expect(first.createdAt != localCreatedAt, "the server stamps its own createdAt")
    // The mutation's answer.
    let answered = try #require(try await local(a, "p1"))
    #expect(answered.createdAt == first.createdAt, "the answer's createdAt, not A's instant \(localCreatedAt)")
    #expect(answered.updatedAt == first.updatedAt)
    // B has the record (live event or sync) with the same values.
    #expect(try await eventuallyScaled(15) { try await local(b, "p1")?.createdAt == first.createdAt })
    #expect(try await local(b, "p1")?.updatedAt == first.updatedAt)

    // Another device's update: both devices keep the server's createdAt, take its updatedAt.
    try await server.updatePost("p1", ["title": "edited"])
    let edited = try await serverTimestamps(server, "p1")
    #expect(edited.createdAt == first.createdAt)
    for store in [a, b] {
      #expect(try await eventuallyScaled(15) { try await local(store, "p1")?.title == "edited" })
      let post = try #require(try await local(store, "p1"))
      #expect(post.createdAt == first.createdAt)
      #expect(post.updatedAt == edited.updatedAt)
    }

    // A live event for a row A already holds with a createdAt of its own (written into A's file
    // by a store without sync, so no mutation is sent): the event's createdAt replaces it.
    let side = try DataStore(fileURL: directory.appendingPathComponent("a.sqlite"), registry: Models.registry)
    let stale = try #require(try await side.save(Post(id: "p2", title: "local")).createdAt)
    try await Task.sleep(for: .milliseconds(20))
    try await server.createPost("p2", "remote")
    let live = try await serverTimestamps(server, "p2")
    #expect(live.createdAt != stale)
    #expect(try await eventuallyScaled(15) { try await local(a, "p2")?.title == "remote" })
    #expect(try await local(a, "p2")?.createdAt == live.createdAt, "a live event's createdAt, not \(stale)")
    #expect(try await local(a, "p2")?.updatedAt == live.updatedAt)

    // A delta sync after a restart, and a base sync, for such a row.
    await a.stop()
    let staleToo = try #require(try await side.save(Post(id: "p3", title: "local")).createdAt)
    try await Task.sleep(for: .milliseconds(20))
    try await server.createPost("p3", "remote")
    let delta = try await serverTimestamps(server, "p3")
    #expect(delta.createdAt != staleToo)
    try await startAndSync(a)
    #expect(try await local(a, "p3")?.title == "remote")
    #expect(try await local(a, "p3")?.createdAt == delta.createdAt, "a delta sync's createdAt, not \(staleToo)")
    await a.stop()

    let staleBase = try #require(try await side.save(Post(id: "p4", title: "local")).createdAt)
    try await Task.sleep(for: .milliseconds(20))
    try await server.createPost("p4", "remote")
    let base = try await serverTimestamps(server, "p4")
    #expect(base.createdAt != staleBase)
    let full = try device(server, directory, "a") { $0.fullSyncInterval = .zero }
    try await startAndSync(full)
    #expect(try await local(full, "p4")?.title == "remote")
    #expect(try await local(full, "p4")?.createdAt == base.createdAt, "a base sync's createdAt, not \(staleBase)")
    #expect(try await local(full, "p1")?.createdAt == first.createdAt)
    await full.stop()
    await b.stop()
  }
}
