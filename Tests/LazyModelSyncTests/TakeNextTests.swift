import Foundation
import LazyModel
import LazyModelAPI
import SyncBlogModels
import Testing

@testable import LazyModelDataStore

/// The drain's early take (`Outbox.takeNext(after:_:)`): the entry after the one in flight, never
/// one of its identifier, and `Outbox.release` putting a taken entry back as it was.
@Suite("Sync: the entry after the one in flight, taken early and put back")
struct TakeNextTests {
  /// What the outbox table holds per entry: identifier, kind, in flight, whether a sent input is recorded.
  private func rows(_ store: DataStore) async throws -> [[String]] {
    try await store.read { tx in
      let statement = try tx.connection.prepare(
        "SELECT identifier, kind, in_flight, CASE WHEN sent_input IS NULL THEN '-' ELSE 'sent' END FROM \(quote(Outbox.outboxTable)) ORDER BY seq",
        cached: false)
      defer { statement.reset() }
      var rows: [[String]] = []
      while try statement.step() {
        rows.append([statement.text(0), statement.text(1), String(statement.int64(2)), statement.text(3)])
      }
      return rows
    }
  }

  @Test func takesTheNextEntryOfAnotherIdentifierAndPutsItBack() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    try await store.save(Post(id: "a", title: "A"))
    try await store.save(Post(id: "b", title: "B"))
    let (head, next) = try await store.writeRemote { tx in
      let head = try #require(try Outbox.takeHead(tx.connection))
      let next = try #require(try Outbox.takeNext(after: head.0, tx.connection))
      try Outbox.setSent(next.0.sequence, SentMutation(input: ["id": "b", "title": "B"], version: nil), tx.connection)
      return (head.0, next.0)
    }
    #expect(head.identifier == #""a""# && next.identifier == #""b""# && next.inFlight)
    #expect(
      try await rows(store) == [
        [#""a""#, "create", "1", "-"], [#""b""#, "create", "1", "sent"],
      ])
    // Not sent after all (the mutation before it was not accepted): back as it was before.
    try await store.writeRemote { tx in try Outbox.release(next, previous: nil, tx.connection) }
    #expect(try await rows(store) == [[#""a""#, "create", "1", "-"], [#""b""#, "create", "0", "-"]])
    // What an earlier attempt had sent stays recorded through a release.
    let previous = SentMutation(input: ["id": "b", "title": "B0"], version: nil)
    let restored = try await store.writeRemote { tx in
      let taken = try #require(try Outbox.takeNext(after: head, tx.connection))
      try Outbox.release(taken.0, previous: previous, tx.connection)
      return try Outbox.takeNext(after: head, tx.connection)?.1
    }
    #expect(restored == previous)
  }

  @Test func neverTakesASecondEntryOfTheIdentifierInFlight() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    try await store.save(Post(id: "a", title: "A"))
    let head = try await store.writeRemote { tx in try #require(try Outbox.takeHead(tx.connection)).0 }
    // A save while the create is in flight is a new entry (an update), not merged into it.
    try await store.save(Post(id: "a", title: "A2"))
    try await store.save(Post(id: "b", title: "B"))
    let next = try await store.writeRemote { tx in try Outbox.takeNext(after: head, tx.connection) }
    #expect(next == nil)
    #expect(
      try await rows(store) == [
        [#""a""#, "create", "1", "-"], [#""a""#, "update", "0", "-"], [#""b""#, "create", "0", "-"],
      ])
  }
}
