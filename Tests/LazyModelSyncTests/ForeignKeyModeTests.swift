import Foundation
import LazyModel
import LazyModelAPI
import SyncBlogModels
import Testing

@testable import LazyModelDataStore

/// The writer connection's `PRAGMA foreign_keys` (``Connection/setForeignKeys(_:)``): a remote
/// write turns enforcement off and leaves it off, so consecutive remote writes (a drain, a base
/// sync's pages, live events) run no flag pragma — each one expires every prepared statement of
/// the connection — and a local write turns it on again before its transaction.
@Suite("Sync: foreign-key enforcement across remote and local writes")
struct ForeignKeyModeTests {
  /// `PRAGMA foreign_keys` as the writer connection reports it, read inside a write job.
  private func enforced(_ tx: WriteTransaction) throws -> Int64 {
    let statement = try tx.connection.prepare("PRAGMA foreign_keys", cached: false)
    defer { statement.reset() }
    _ = try statement.step()
    return statement.int64(0)
  }

  @Test func remoteWritesKeepForeignKeysOffAndALocalWriteEnforcesThemAgain() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    // A remote child before its parent is stored; the next remote write finds enforcement off
    // without having switched it (no pragma ran between them).
    let first = try await store.writeRemote { tx in
      try tx.saveWithoutReadBack([Comment(id: "c1", content: "early", postIdentifier: .init(id: "p1"))])
      return (try enforced(tx), tx.connection.enforcesForeignKeys)
    }
    #expect(first == (0, false))
    let second = try await store.writeRemote { tx in
      try tx.saveWithoutReadBack([Comment(id: "c2", content: "early too", postIdentifier: .init(id: "p1"))])
      return (try enforced(tx), tx.connection.enforcesForeignKeys)
    }
    #expect(second == (0, false))
    // The parent arrives remotely (still a remote write: enforcement stays off); the children load it.
    try await store.writeRemote { tx in try tx.saveWithoutReadBack([Post(id: "p1", title: "late")]) }
    let child = try #require(try await store.query(Comment.self, byIdentifier: .init(id: "c1")))
    #expect(try await child.post?.title == "late")
    // A local write enforces them again: an orphan fails its commit with the typed error.
    await #expect(
      throws: DataStoreError.foreignKeyViolation(
        model: "Comment", field: "post", identifiers: [IdentifierComponent(name: "id", value: .string("p2"))])
    ) {
      try await store.save(Comment(id: "c3", content: "orphan", postIdentifier: .init(id: "p2")))
    }
    let local = try await store.write { tx in (try enforced(tx), tx.connection.enforcesForeignKeys) }
    #expect(local == (1, true))
    #expect(try await store.query(Comment.self).map(\.id).sorted() == ["c1", "c2"])
  }
}
