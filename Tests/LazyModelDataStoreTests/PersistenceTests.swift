import CSQLite
import CompositeKeyHasManyModels
import Foundation
import HasOneModels
import LazyModel
import LazyModelDataStore
import RegressionHasManyExplicitFkIndex
import RegressionReferencesHasOneHasMany
import SeedPostCommentModels
import SelfAndOneToOneModels
import Testing

/// The indexed child of `Generated/regressions/has-many-explicit-fk-index`, not Testing's `Comment`.
private typealias Comment = RegressionHasManyExplicitFkIndex.Comment

/// Reads a database file with the plain C API (a second connection), to check what is on disk.
struct RawDatabase: ~Copyable {
  let handle: OpaquePointer

  init(_ url: URL) throws {
    var db: OpaquePointer?
    guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
      throw DataStoreError.sqlite(code: 0, message: "cannot open \(url.path)", sql: nil)
    }
    handle = db
  }

  deinit { sqlite3_close_v2(handle) }

  /// Every row of `sql` as text columns.
  func rows(_ sql: String) -> [[String]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      return []
    }
    defer { sqlite3_finalize(statement) }
    var rows: [[String]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      rows.append(
        (0..<sqlite3_column_count(statement)).map { column in
          sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
        })
    }
    return rows
  }
}

@Suite("Files: tables, indexes, WAL, reopening, migration, concurrency")
struct PersistenceTests {
  @Test("tables have native keys, FK clauses with cascade, and an index on every FK and @index")
  func schemaOnDisk() async throws {
    let url = try temporaryFileURL()
    _ = try DataStore(fileURL: url, registry: shapesRegistry)
    let db = try RawDatabase(url)
    let team = db.rows("SELECT sql FROM sqlite_schema WHERE name = 'Team'").first?.first ?? ""
    #expect(team.contains(#"PRIMARY KEY ("teamId", "name")"#))
    #expect(
      team.contains(
        #"FOREIGN KEY ("teamProjectProjectId", "teamProjectName") REFERENCES "Project" ("projectId", "name") ON DELETE CASCADE"#
      ))
    #expect(team.hasSuffix("STRICT"))
    let project = db.rows("SELECT sql FROM sqlite_schema WHERE name = 'Project'").first?.first ?? ""
    #expect(project.contains(#""projectTeamTeamId" TEXT"#) && !project.contains("FOREIGN KEY"))
    let reading = db.rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info('Reading')")
    #expect(
      reading.prefix(8).map { [$0[0], $0[1]] } == [
        ["id", "TEXT"], ["takenAt", "TEXT"], ["day", "TEXT"], ["time", "TEXT"], ["seq", "INTEGER"],
        ["priority", "TEXT"],
        ["value", "REAL"], ["flagged", "INTEGER"],
      ])
    #expect(reading.prefix(8).map { $0[3] } == (1...8).map(String.init))
    let note = db.rows("SELECT name, type FROM pragma_table_info('ReadingNote')").map {
      $0.joined(separator: " ")
    }
    #expect(
      note.contains("readingNotesSeq INTEGER") && note.contains("readingNotesValue REAL")
        && note.contains("readingNotesFlagged INTEGER"))

    let indexes = Set(
      db.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL").map {
        $0[0]
      })
    #expect(
      indexes.isSuperset(of: [
        "Comment_byPost", "Category_categoryChildrenId_fk",
        "Team_teamProjectProjectId_teamProjectName_fk",
        "Project_projectTeamTeamId_projectTeamName_fk", "Cart_customerId_fk", "Order_customerId_fk",
        "Card_boardCardsId_fk",
        "ReadingNote_readingNotesId_readingNotesTakenAt_readingNotesDay_readingNotesTime_readingNotesSeq_readingNotesPriority_readingNotesValue_readingNotesFlagged_fk",
      ]))
    #expect(db.rows("PRAGMA journal_mode").first?.first == "wal")
  }

  @Test("a lazy list and a reference use an index, never a table scan")
  func queryPlans() async throws {
    let url = try temporaryFileURL()
    _ = try DataStore(fileURL: url, registry: seedRegistry)
    let db = try RawDatabase(url)
    let list = db.rows(
      #"EXPLAIN QUERY PLAN SELECT "id" FROM "Comment4V2" WHERE "postID" = 'p' AND ("id") > ('c') ORDER BY "id" LIMIT 3"#
    )
    #expect(
      list.map { $0.last ?? "" } == [
        #"SEARCH Comment4V2 USING COVERING INDEX Comment4V2_postID_fk (postID=? AND id>?)"#
      ])
    let reference = db.rows(#"EXPLAIN QUERY PLAN SELECT "title" FROM "Post4V2" WHERE "id" = 'p'"#)
    #expect(
      reference.map { $0.last ?? "" } == [
        "SEARCH Post4V2 USING INDEX sqlite_autoindex_Post4V2_1 (id=?)"
      ])
  }

  @Test("reopening a file keeps every row and relationship")
  func reopen() async throws {
    let url = try temporaryFileURL()
    do {
      let store = try DataStore(fileURL: url, registry: shapesRegistry)
      let root = Category(id: "e1", name: "Root")
      try await store.save(root)
      try await store.save(Category(id: "e2", name: "Ann", parent: root))
      let customer = Customer(id: "c", name: "Ada 🙂")
      try await store.save(customer)
      try await store.save(Cart(id: "cart", items: ["a#b"], customer: customer))
    }
    let reopened = try DataStore(fileURL: url, registry: shapesRegistry)
    let ann = try #require(try await reopened.query(Category.self, byIdentifier: .init(id: "e2")))
    #expect(try await ann.parent?.name == "Root")
    let customer = try #require(
      try await reopened.query(Customer.self, byIdentifier: .init(id: "c")))
    #expect(customer.name == "Ada 🙂")
    #expect(try await customer.activeCart?.items == ["a#b"])
    #expect(try await reopened.count(Category.self) == 2)
  }

  @Test("added models and nullable fields migrate; the rows stay")
  func additiveMigration() async throws {
    let url = try temporaryFileURL()
    do {
      let store = try DataStore(fileURL: url, registry: ModelRegistry(models: [NoteV1.self]))
      try await store.save(NoteV1(id: "n1", title: "kept"))
    }
    let store = try DataStore(
      fileURL: url, registry: ModelRegistry(models: [NoteAddedField.self, Badge.self]))
    let note = try #require(
      try await store.query(NoteAddedField.self, byIdentifier: .init(id: "n1")))
    #expect(note.title == "kept" && note.body == nil && note.rank == nil)
    try await store.save(NoteAddedField(id: "n2", title: "new", body: "text", rank: 2))
    try await store.save(Badge(id: "t", code: "fresh table"))
    #expect(
      try await store.query(NoteAddedField.self, where: NoteAddedField.keys.rank.eq(2)).map(\.id)
        == ["n2"])
    let db = try RawDatabase(url)
    #expect(db.rows("SELECT name FROM sqlite_schema WHERE name = 'Note_byRank'").count == 1)
  }

  @Test("incompatible changes are typed errors and leave the file unchanged")
  func incompatibleMigration() async throws {
    let url = try temporaryFileURL()
    do {
      let store = try DataStore(fileURL: url, registry: ModelRegistry(models: [NoteV1.self]))
      try await store.save(NoteV1(id: "n1", title: "kept"))
    }
    let before = try RawDatabase(url).rows("SELECT sql FROM sqlite_schema ORDER BY name")
    let cases: [(ModelRegistry, String)] = [
      (
        ModelRegistry(models: [NoteRequiredField.self]),
        "new required column body has no value for the stored rows"
      ),
      (ModelRegistry(models: [NoteRetyped.self]), "column title changed type from TEXT to INTEGER"),
      (
        ModelRegistry(models: [NoteRekeyed.self]),
        #"primary key changed from ["id"] to ["id", "title"]"#
      ),
      (
        ModelRegistry(models: [NoteDropped.self]),
        "column title is no longer in the schema; dropping it would lose its data"
      ),
    ]
    for (registry, reason) in cases {
      #expect(throws: DataStoreError.incompatibleSchema(model: "Note", reason: reason)) {
        _ = try DataStore(fileURL: url, registry: registry)
      }
    }
    #expect(
      throws: DataStoreError.incompatibleSchema(
        model: "Note", reason: "the registry has no model Note; its stored rows would be orphaned")
    ) {
      _ = try DataStore(fileURL: url, registry: ModelRegistry(models: [Badge.self]))
    }
    #expect(try RawDatabase(url).rows("SELECT sql FROM sqlite_schema ORDER BY name") == before)
    let store = try DataStore(fileURL: url, registry: ModelRegistry(models: [NoteV1.self]))
    #expect(try await store.query(NoteV1.self).map(\.title) == ["kept"])
  }

  @Test("a registry whose relationships point outside it is rejected")
  func unknownTarget() throws {
    #expect(throws: DataStoreError.unknownModel("Post4V2")) {
      _ = try DataStore.inMemory(registry: ModelRegistry(models: [Comment4V2.self]))
    }
  }

  @Test("50 tasks save and load at once", arguments: StoreLocation.allCases)
  func concurrency(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    let post = Post4V2(id: "shared", title: "shared")
    try await store.save(post)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<50 {
        group.addTask {
          let own = Post4V2(id: "p\(task)", title: "Post \(task)")
          try await store.save(own)
          for n in 0..<10 {
            try await store.save(
              Comment4V2(
                id: "c\(task)-\(n)", content: "\(n)", post: n.isMultiple(of: 2) ? own : post))
          }
          let mine = try await store.query(
            Comment4V2.self, where: Comment4V2.keys.id.beginsWith("c\(task)-"))
          #expect(mine.count == 10)
          for comment in mine { #expect(try await comment.post != nil) }
          let loaded = try await store.query(Post4V2.self, byIdentifier: .init(id: "p\(task)"))
          #expect(try await loaded?.comments?.fetch().count == 5)
        }
      }
      try await group.waitForAll()
    }
    #expect(try await store.count(Comment4V2.self) == 500)
    #expect(
      try await store.count(Comment4V2.self, where: Comment4V2.keys.post.eq(Post4V2.Identifier(id: "shared"))) == 250)
  }
}

@Suite("observe")
struct ObservationTests {
  @Test(
    "saves and deletes of one model type arrive in commit order", arguments: StoreLocation.allCases)
  func observeSavesAndDeletes(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    let events = store.observe(TodoTask.self)
    let otherModel = store.observe(Post.self)
    try await store.save(TodoTask(ownerId: "o", id: "1", title: "one"))
    try await store.save([
      TodoTask(ownerId: "o", id: "2", title: "two"),
      TodoTask(ownerId: "p", id: "1", title: "three"),
    ])
    try await store.save(Comment(id: "c", postID: "p", content: "not observed"))
    #expect(try await store.delete(TodoTask.self, where: TodoTask.keys.ownerId.eq("o")) == 2)
    var seen: [String] = []
    for await event in events {
      switch event {
      case .saved(let task): seen.append("saved \(task.ownerId)/\(task.id) \(task.title)")
      case .deleted(let task): seen.append("deleted \(task.ownerId)/\(task.id) \(task.title)")
      }
      if seen.count == 5 { break }
    }
    #expect(
      seen == [
        "saved o/1 one", "saved o/2 two", "saved p/1 three",
        "deleted o/1 one", "deleted o/2 two",
      ])
    try await store.save(Post(id: "p", title: "T"))
    var iterator = otherModel.makeAsyncIterator()
    guard case .saved(let post)? = await iterator.next() else {
      Issue.record("no Post event")
      return
    }
    #expect(post.id == "p")
  }
}

@Suite("Lifetime")
struct LifetimeTests {
  @Test("a store is released (and its file closed) once no store, model or reference holds it")
  func storeIsReleased() async throws {
    weak var released: DataStore?
    let url = try temporaryFileURL()
    do {
      let store = try DataStore(fileURL: url, registry: seedRegistry)
      released = store
      let post = Post4V2(id: "p", title: "t")
      try await store.save(post)
      try await store.save(Comment4V2(id: "c", content: "x", post: post))
      let comments = try await store.query(
        Comment4V2.self, includes: [.include(Comment4V2.keys.post, .include(Post4V2.keys.comments))]
      )
      #expect(try await comments.first?.post?.comments?.fetch().count == 1)
      #expect(released != nil)
    }
    #expect(released == nil)
    let reopened = try DataStore(fileURL: url, registry: seedRegistry)
    #expect(try await reopened.count(Comment4V2.self) == 1)
  }
}
