import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Testing

/// A store file made by a store from before foreign keys were declared `DEFERRABLE INITIALLY
/// DEFERRED`: the same file a fresh store makes, with each table's stored `CREATE TABLE` as that
/// store wrote it (the constraint immediate; it deferred the checks per transaction with `PRAGMA
/// defer_foreign_keys`). Rewritten through `writable_schema`, which changes the stored text only.
private func oldStoreFile(_ registry: ModelRegistry) throws -> URL {
  let url = try temporaryFileURL()
  _ = try DataStore(fileURL: url, registry: registry)
  try executeRaw(
    """
    PRAGMA writable_schema = ON;
    UPDATE sqlite_schema SET sql = replace(sql, ' DEFERRABLE INITIALLY DEFERRED', '')
      WHERE type = 'table';
    PRAGMA writable_schema = OFF;
    """, on: url)
  return url
}

@Suite("Foreign keys DEFERRABLE INITIALLY DEFERRED: the tables of older files are rebuilt")
struct DeferredForeignKeyMigrationTests {
  private let registry = SeedPostCommentModels.Models.registry

  @Test("a fresh table declares its FOREIGN KEY deferred, and a local write runs no defer pragma")
  func freshTableDeclaresDeferral() async throws {
    let log = SQLLog()
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try DataStore(fileURL: url, registry: registry, traceSQL: log.hook)
    let comment = try #require(
      try RawDatabase(url).rows("SELECT sql FROM sqlite_schema WHERE name = 'Comment4V2'").first?.first)
    #expect(
      comment.contains(
        #"FOREIGN KEY ("postID") REFERENCES "Post4V2" ("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"#
      ))
    log.clear()
    // The child before its parent in one transaction: checked at COMMIT, where the parent exists.
    try await store.write { tx in
      try tx.save(Comment4V2(id: "c", content: "first", postIdentifier: .init(id: "p")))
      try tx.save(Post4V2(id: "p", title: "second"))
    }
    #expect(!log.all.contains { $0.contains("defer_foreign_keys") })
    #expect(try await store.query(Comment4V2.self).map(\.id) == ["c"])
  }

  @Test("an older file's tables are rebuilt deferred: rows (orphans too), indexes, triggers kept")
  func olderFileRebuilt() async throws {
    let freshURL = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: freshURL.deletingLastPathComponent()) }
    _ = try DataStore(fileURL: freshURL, registry: registry)
    let fresh = try RawDatabase(freshURL).rows(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name")

    let url = try oldStoreFile(registry)
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    // The rows an older store leaves: a post and its comment, and a comment whose post never
    // arrived (the sync engine stores remote records without enforcing foreign keys); an index
    // and a trigger another program put on the table.
    try executeRaw(
      """
      INSERT INTO "Post4V2" ("id", "title") VALUES ('p', 'Post');
      INSERT INTO "Comment4V2" ("id", "content", "postID") VALUES ('c', 'kept', 'p');
      PRAGMA foreign_keys = OFF;
      INSERT INTO "Comment4V2" ("id", "content", "postID") VALUES ('orphan', 'early', 'later');
      CREATE INDEX "CommentByContent" ON "Comment4V2" ("content");
      CREATE TRIGGER "CommentStamp" AFTER INSERT ON "Comment4V2" BEGIN
        UPDATE "Comment4V2" SET "content" = NEW."content" || '!' WHERE "id" = NEW."id";
      END;
      """, on: url)
    let old = try #require(
      try RawDatabase(url).rows("SELECT sql FROM sqlite_schema WHERE name = 'Comment4V2'").first?.first)
    #expect(old.contains(#"REFERENCES "Post4V2" ("id") ON DELETE CASCADE"#) && !old.contains("DEFERRABLE"))
    let dependents =
      "SELECT type, name, sql FROM sqlite_schema WHERE name IN ('CommentByContent', 'CommentStamp') ORDER BY name"
    let dependentsBefore = try RawDatabase(url).rows(dependents)
    #expect(dependentsBefore.count == 2)
    let rowsBefore = try RawDatabase(url).rows(
      #"SELECT "id", "content", "postID" FROM "Comment4V2" ORDER BY "id""#)

    let log = SQLLog()
    let store = try DataStore(fileURL: url, registry: registry, traceSQL: log.hook)
    // One rebuild, of the table with the constraint: CREATE, INSERT … SELECT, ALTER … RENAME.
    #expect(log.all.filter { $0.contains("modelgen_rebuild_Comment4V2") }.count == 3)
    #expect(!log.all.contains { $0.contains("modelgen_rebuild_Post4V2") })
    let db = try RawDatabase(url)
    #expect(db.rows("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name") == fresh)
    #expect(db.rows(dependents) == dependentsBefore)
    #expect(
      db.rows(#"SELECT "id", "content", "postID" FROM "Comment4V2" ORDER BY "id""#) == rowsBefore)
    func sorted(_ indexes: [[String]]) -> [[String]] {
      indexes.sorted { $0.joined(separator: ",") < $1.joined(separator: ",") }
    }
    #expect(
      try sorted(indexedColumns(of: "Comment4V2", in: url))
        == sorted(indexedColumns(of: "Comment4V2", in: freshURL) + [["content"]]))
    #expect(db.rows("SELECT name FROM sqlite_schema WHERE name LIKE 'modelgen_rebuild%'").isEmpty)

    // The kept orphan goes (the check at COMMIT names the first dangling row of the table, which
    // would be it, not the row below).
    #expect(try await store.delete(Comment4V2.self, byIdentifier: .init(id: "orphan")))
    // The deferred constraint at work: a child before its parent inside write {} commits …
    try await store.write { tx in
      try tx.save(Comment4V2(id: "c2", content: "before its post", postIdentifier: .init(id: "p2")))
      try tx.save(Post4V2(id: "p2", title: "Second"))
    }
    // … an orphan saved on its own is found at commit, typed, and nothing is written …
    await #expect(
      throws: DataStoreError.foreignKeyViolation(
        model: "Comment4V2", field: "post", identifiers: [IdentifierComponent(name: "id", value: .string("none"))])
    ) {
      try await store.save(Comment4V2(id: "c3", content: "orphan", postIdentifier: .init(id: "none")))
    }
    #expect(try await store.query(Comment4V2.self, byIdentifier: .init(id: "c3")) == nil)
    // … and deleting a parent still cascades.
    #expect(try await store.delete(Post4V2.self, byIdentifier: .init(id: "p")))
    #expect(try await store.query(Comment4V2.self).map(\.id) == ["c2"])

    // Opening again finds every constraint deferred: no second rebuild.
    let again = SQLLog()
    _ = try DataStore(fileURL: url, registry: registry, traceSQL: again.hook)
    #expect(!again.all.contains { $0.contains("modelgen_rebuild") })
  }
}
