import CSQLite
import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Testing

/// Runs `sql` on `url` through a plain SQLite connection of its own (another program's change).
func executeElsewhere(_ url: URL, _ sql: String) {
  var db: OpaquePointer?
  #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
  defer { sqlite3_close(db) }
  let code = sqlite3_exec(db, sql, nil, nil, nil)
  #expect(code == SQLITE_OK, "\(sql): \(String(cString: sqlite3_errmsg(db)))")
}

@Suite("A table dropped or altered by another connection while the store is open")
struct TableChangedTests {
  static let dropped = DataStoreError.tableChanged(
    model: "Comment4V2", table: "Comment4V2",
    reason:
      "the table does not exist (dropped by another connection); reopen the store to create it again"
  )

  @Test("a dropped table: queries, counts, saves and lazy lists name the model and table")
  func droppedTable() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: seedRegistry)
    let post = try await store.save(Post4V2(id: "p", title: "t"))
    try await store.save(Comment4V2(id: "c", content: "x", post: post))
    executeElsewhere(url, "DROP TABLE Comment4V2")

    await #expect(throws: Self.dropped) { _ = try await store.query(Comment4V2.self) }
    await #expect(throws: Self.dropped) { _ = try await store.count(Comment4V2.self) }
    await #expect(throws: Self.dropped) {
      _ = try await store.query(Comment4V2.self, byIdentifier: .init(id: "c"))
    }
    await #expect(throws: Self.dropped) {
      _ = try await store.save(Comment4V2(id: "d", content: "y", post: post))
    }
    await #expect(throws: Self.dropped) {
      try await store.write { tx in
        try tx.save(Post4V2(id: "q", title: "rolled back with the failed write"))
        _ = try tx.save(Comment4V2(id: "e", content: "z", post: post))
      }
    }
    let stored = try #require(try await store.query(Post4V2.self, byIdentifier: .init(id: "p")))
    let comments = try #require(stored.comments)
    await #expect(throws: Self.dropped) { _ = try await comments.fetch() }
    // The other table still works, and the failed write left nothing.
    #expect(try await store.query(Post4V2.self).map(\.id) == ["p"])
    #expect(
      Self.dropped.description
        == "the stored table Comment4V2 of Comment4V2 changed while the store was open: the table does not exist (dropped by another connection); reopen the store to create it again"
    )

    // Reopening migrates: the table is created again, empty; the first store then works too.
    let reopened = try DataStore(fileURL: url, registry: seedRegistry)
    #expect(try await reopened.count(Comment4V2.self) == 0)
    try await store.save(Comment4V2(id: "again", content: "x", post: post))
    #expect(try await reopened.query(Comment4V2.self).map(\.id) == ["again"])
  }

  @Test("a dropped nullable column: a typed error naming it; reopening adds it back")
  func droppedColumn() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: seedRegistry)
    try await store.save(Post4V2(id: "p", title: "t"))
    executeElsewhere(url, "ALTER TABLE Post4V2 DROP COLUMN updatedAt")
    let changed = DataStoreError.tableChanged(
      model: "Post4V2", table: "Post4V2",
      reason:
        "the table has no column updatedAt (dropped or renamed by another connection); reopen the store to migrate it"
    )
    await #expect(throws: changed) { _ = try await store.query(Post4V2.self) }
    await #expect(throws: changed) {
      _ = try await store.query(Post4V2.self, byIdentifier: .init(id: "p"))
    }
    await #expect(throws: changed) { _ = try await store.save(Post4V2(id: "q", title: "t")) }

    let reopened = try DataStore(fileURL: url, registry: seedRegistry)
    let stored = try #require(try await reopened.query(Post4V2.self, byIdentifier: .init(id: "p")))
    #expect(stored.title == "t")
    #expect(stored.updatedAt == nil)
    try await store.save(Post4V2(id: "q", title: "u"))
    #expect(
      try await store.query(Post4V2.self, sort: [.ascending(Post4V2.keys.id)]).map(\.id) == [
        "p", "q",
      ])
  }

  @Test("a renamed required column: a typed error while open; reopening is incompatibleSchema")
  func renamedColumn() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: seedRegistry)
    let post = try await store.save(Post4V2(id: "p", title: "t"))
    try await store.save(Comment4V2(id: "c", content: "x", post: post))
    executeElsewhere(url, "ALTER TABLE Comment4V2 RENAME COLUMN content TO body")
    let changed = DataStoreError.tableChanged(
      model: "Comment4V2", table: "Comment4V2",
      reason:
        "the table has no column content (dropped or renamed by another connection); reopen the store to migrate it"
    )
    await #expect(throws: changed) { _ = try await store.query(Comment4V2.self) }
    await #expect(throws: changed) {
      _ = try await store.save(Comment4V2(id: "d", content: "y", post: post))
    }
    #expect(
      throws: DataStoreError.incompatibleSchema(
        model: "Comment4V2",
        reason: "column body is no longer in the schema; dropping it would lose its data")
    ) {
      _ = try DataStore(fileURL: url, registry: seedRegistry)
    }
  }
}
