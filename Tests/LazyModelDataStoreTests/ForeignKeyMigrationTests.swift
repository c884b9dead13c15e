import Foundation
import LazyModel
import LazyModelDataStore
import RegressionHasOneBelongsToCompositeKeys
import SeedPostCommentModels
import SwiftKeywordsModels
import Testing

/// The `CREATE TABLE` a store makes for `table` with `registry`, read from a scratch file.
private func createTableSQL(_ table: String, registry: ModelRegistry) throws -> String {
  let url = try temporaryFileURL()
  defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
  _ = try DataStore(fileURL: url, registry: registry)
  let sql = try RawDatabase(url).rows(
    "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = '\(table)'")
  return try #require(sql.first?.first)
}

/// A new store file for `registry`, in a temporary directory the caller removes.
private func fresh(_ registry: ModelRegistry) throws -> URL {
  let url = try temporaryFileURL()
  _ = try DataStore(fileURL: url, registry: registry)
  return url
}

/// `sql` without its `FOREIGN KEY` clauses: the table an older store (which added a composite FK
/// column with `ALTER TABLE`, without a constraint) left in a file.
private func withoutForeignKeys(_ sql: String) -> String {
  sql.replacing(/,\n\s*FOREIGN KEY[^\n]*/, with: "")
}

@Suite("A @belongsTo FOREIGN KEY that ALTER TABLE cannot add: the table is rebuilt")
struct ForeignKeyMigrationTests {
  @Test("a composite belongsTo added to a stored model gets its FOREIGN KEY, rows kept")
  func compositeForeignKeyAddedByMigration() async throws {
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    // Version 1: Team without its `project` (no FK columns), two rows.
    try executeRaw(
      """
      CREATE TABLE "Team" ("teamId" TEXT NOT NULL, "name" TEXT NOT NULL, "createdAt" TEXT,
        "updatedAt" TEXT, PRIMARY KEY ("teamId", "name")) STRICT;
      INSERT INTO "Team" ("teamId", "name") VALUES ('t1', 'Red'), ('t2', 'Blue');
      """, on: url)

    // Version 2 adds Project and `Team.project @belongsTo` (composite FK).
    let log = SQLLog()
    let store = try DataStore(
      fileURL: url, registry: RegressionHasOneBelongsToCompositeKeys.Models.registry, traceSQL: log.hook)
    let rebuilds = log.all.filter { $0.contains("modelgen_rebuild_Team") }
    #expect(rebuilds.count == 3)  // CREATE, INSERT … SELECT, ALTER … RENAME
    let db = try RawDatabase(url)
    let team = try #require(
      db.rows("SELECT sql FROM sqlite_schema WHERE name = 'Team'").first?.first)
    #expect(
      team.contains(
        #"FOREIGN KEY ("teamProjectProjectId", "teamProjectName") REFERENCES "Project" ("projectId", "name") ON DELETE CASCADE"#
      ))
    #expect(team.hasSuffix("STRICT"))
    let freshURL = try fresh(RegressionHasOneBelongsToCompositeKeys.Models.registry)
    defer { try? FileManager.default.removeItem(at: freshURL.deletingLastPathComponent()) }
    #expect(try indexedColumns(of: "Team", in: url) == indexedColumns(of: "Team", in: freshURL))
    #expect(db.rows("SELECT name FROM sqlite_schema WHERE name LIKE 'modelgen_rebuild%'").isEmpty)

    let kept = try await store.query(Team.self, sort: [.ascending(Team.keys.teamId)])
    #expect(kept.map(\.name) == ["Red", "Blue"])
    #expect(try await kept[0].project == nil)

    // The new FOREIGN KEY holds and cascades, and foreign keys are back on after the migration.
    let project = Project(projectId: "p1", name: "Apollo")
    try await store.save(project)
    var blue = kept[1]
    blue.setProject(project)
    try await store.save(blue)
    #expect(try await store.query(Team.self, byIdentifier: blue.identifier)?.project?.name == "Apollo")
    #expect(try await store.delete(project))
    #expect(try await store.query(Team.self).map(\.name) == ["Red"])

    // Opening again finds the FOREIGN KEY in place: no second rebuild.
    let again = SQLLog()
    _ = try DataStore(
      fileURL: url, registry: RegressionHasOneBelongsToCompositeKeys.Models.registry, traceSQL: again.hook)
    #expect(!again.all.contains { $0.contains("modelgen_rebuild") })
  }

  @Test("a self reference stored without its FOREIGN KEY is rebuilt with it; every row is kept")
  func selfReferenceRebuilt() async throws {
    let full = try createTableSQL("Self", registry: SwiftKeywordsModels.Models.registry)
    #expect(full.contains("FOREIGN KEY"))
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    try executeRaw(
      withoutForeignKeys(full) + ";"
        + """
        INSERT INTO "Self" ("default", "for") VALUES ('p', 'x');
        INSERT INTO "Self" ("default", "for", "selfOperatorDefault", "selfOperatorFor")
          VALUES ('c', 'x', 'p', 'x');
        """, on: url)

    let store = try DataStore(fileURL: url, registry: SwiftKeywordsModels.Models.registry)
    #expect(try RawDatabase(url).rows("SELECT sql FROM sqlite_schema WHERE name = 'Self'") == [[full]])
    let child = try #require(
      try await store.query(SelfType.self, byIdentifier: .init(default: "c", for: "x")))
    #expect(try await child.in?.default == "p")
    let parent = try #require(
      try await store.query(SelfType.self, byIdentifier: .init(default: "p", for: "x")))
    #expect(try await store.delete(parent))
    #expect(try await store.query(SelfType.self).isEmpty)  // the child went with its parent
  }

  @Test("stored rows that break the FOREIGN KEY being added: a typed error, the file unchanged")
  func danglingReferenceRefused() async throws {
    let full = try createTableSQL("Self", registry: SwiftKeywordsModels.Models.registry)
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    try executeRaw(
      withoutForeignKeys(full) + ";"
        + """
        INSERT INTO "Self" ("default", "for") VALUES ('p', 'x');
        INSERT INTO "Self" ("default", "for", "selfOperatorDefault", "selfOperatorFor")
          VALUES ('c', 'x', 'gone', 'x');
        """, on: url)
    let schemaBefore = try RawDatabase(url).rows("SELECT type, name, sql FROM sqlite_schema ORDER BY name")
    let rowsBefore = try RawDatabase(url).rows("SELECT * FROM \"Self\" ORDER BY \"default\"")

    #expect(
      throws: DataStoreError.incompatibleSchema(
        model: "Self",
        reason:
          "1 stored row(s) refer to Self rows that do not exist, so the FOREIGN KEY the schema asks for cannot be added"
      )
    ) {
      try DataStore(fileURL: url, registry: SwiftKeywordsModels.Models.registry)
    }
    #expect(try RawDatabase(url).rows("SELECT type, name, sql FROM sqlite_schema ORDER BY name") == schemaBefore)
    #expect(try RawDatabase(url).rows("SELECT * FROM \"Self\" ORDER BY \"default\"") == rowsBefore)
  }

  @Test("a stored FOREIGN KEY without ON DELETE CASCADE is rebuilt with it: deletes cascade again")
  func missingCascadeRebuilt() async throws {
    let registry = SeedPostCommentModels.Models.registry
    let post = try createTableSQL("Post4V2", registry: registry)
    let comment = try createTableSQL("Comment4V2", registry: registry)
    #expect(comment.contains(" ON DELETE CASCADE"))
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    try executeRaw(
      post + ";" + comment.replacingOccurrences(of: " ON DELETE CASCADE", with: "") + ";"
        + """
        INSERT INTO "Post4V2" ("id", "title") VALUES ('p', 'Post');
        INSERT INTO "Comment4V2" ("id", "content", "postID") VALUES ('c', 'Comment', 'p');
        """, on: url)
    let store = try DataStore(fileURL: url, registry: registry)
    #expect(try RawDatabase(url).rows("SELECT sql FROM sqlite_schema WHERE name = 'Comment4V2'") == [[comment]])
    #expect(try await store.query(Comment4V2.self).map(\.id) == ["c"])
    #expect(try await store.delete(Post4V2.self, byIdentifier: .init(id: "p")))
    #expect(try await store.query(Comment4V2.self).isEmpty)
  }

  @Test("the views, triggers and indexes another program put on a rebuilt table are kept")
  func dependentsKept() async throws {
    let full = try createTableSQL("Self", registry: SwiftKeywordsModels.Models.registry)
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    try executeRaw(
      withoutForeignKeys(full) + ";"
        + """
        INSERT INTO "Self" ("default", "for") VALUES ('p', 'x');
        CREATE VIEW "SelfNames" AS SELECT "default" FROM "Self";
        CREATE VIEW "Broken" AS SELECT * FROM "Nowhere";
        CREATE INDEX "SelfByValue" ON "Self" ("identifier");
        CREATE TRIGGER "SelfStamp" AFTER INSERT ON "Self" BEGIN
          UPDATE "Self" SET "identifier" = 'stamped'
          WHERE "default" = NEW."default" AND "identifier" IS NULL;
        END;
        """, on: url)
    let before = try RawDatabase(url).rows(
      "SELECT type, name, sql FROM sqlite_schema WHERE type IN ('view', 'trigger') OR name = 'SelfByValue' ORDER BY name"
    )
    #expect(before.count == 4)

    let store = try DataStore(fileURL: url, registry: SwiftKeywordsModels.Models.registry)
    let db = try RawDatabase(url)
    #expect(db.rows("SELECT sql FROM sqlite_schema WHERE name = 'Self'") == [[full]])
    #expect(
      db.rows(
        "SELECT type, name, sql FROM sqlite_schema WHERE type IN ('view', 'trigger') OR name = 'SelfByValue' ORDER BY name"
      ) == before)
    #expect(db.rows("SELECT \"default\" FROM \"SelfNames\"") == [["p"]])
    try await store.save(SelfType(default: "q", for: "x"))
    #expect(
      try await store.query(SelfType.self, byIdentifier: .init(default: "q", for: "x"))?
        .identifierValue == "stamped")
  }
}
