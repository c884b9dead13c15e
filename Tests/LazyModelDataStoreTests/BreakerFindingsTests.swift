import CSQLite
import Dispatch
import ForeignKeysWithoutBelongsToModels
import Foundation
import LazyModel
import LazyModelDataStore
import ScalarsEnumsEmbeddedModels
import SeedPostCommentModels
import Testing

@testable import RegressionBelongsToFkIsPrimaryKeyField

/// A fresh-user breaker pass on issue 11 (session 11): each test tries one promise of the DataStore
/// engine from the README and the public doc comments. A failing test here is a finding
/// (`notes/s11/break-findings.md`); a passing one is a promise that held.
@Suite("Breaker pass on issue 11")
struct BreakerFindingsTests {
  typealias KeyPost = RegressionBelongsToFkIsPrimaryKeyField.Post
  typealias KeyComment = RegressionBelongsToFkIsPrimaryKeyField.Comment

  /// Runs `body` and fails the test (instead of hanging the suite) when it takes longer than
  /// `seconds` times the deadline scale: a bound for a deadlock, never for speed (60 s each; 5 s
  /// timed out under the thread sanitizer with the suite running in parallel).
  func within<T: Sendable>(
    _ seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> T
  ) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await body() }
      group.addTask {
        try await Task.sleep(for: .seconds(seconds * testDeadlineScale))
        return nil
      }
      let first = try await group.next()!
      group.cancelAll()
      if first == nil { Issue.record("\(what) did not finish within \(seconds) s") }
      return first
    }
  }

  @Test("NUL bytes, emoji and combining marks round-trip in fields, keys and references")
  func oddStrings() async throws {
    for location in StoreLocation.allCases {
      let (store, _) = try makeStore(location, registry: seedRegistry)
      let ids = ["a\u{0}b", "\u{0}", "e\u{301}", "\u{E9}", "👩‍👩‍👧", "a\"#\"b", "\\"]
      for id in ids {
        try await store.save(Post4V2(id: id, title: "t\u{0}\(id)\u{0}"))
        try await store.save(Comment4V2(id: "c" + id, content: id, post: Post4V2(id: id, title: "")))
      }
      for id in ids {
        let post = try #require(try await store.query(Post4V2.self, byIdentifier: .init(id: id)))
        #expect(Array(post.id.utf8) == Array(id.utf8), "\(location) \(id.debugDescription)")
        #expect(Array(post.title.utf8) == Array("t\u{0}\(id)\u{0}".utf8), "\(location)")
      }
      // Each comment's lazy post (sibling batch) is the post of exactly its bytes.
      let comments = try await store.query(Comment4V2.self)
      #expect(comments.count == ids.count)
      for comment in comments {
        let post = try #require(try await comment.post)
        #expect(Array(post.id.utf8) == Array(comment.content.utf8), "\(location) \(comment.content.debugDescription)")
      }
    }
  }

  @Test("an empty string is a valid identifier and foreign key, child first inside write")
  func emptyIdentifier() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let post = Post4V2(id: "", title: "empty")
    try await store.write { tx in
      try tx.save(Comment4V2(id: "", content: "x", post: post))
      try tx.save(post)
    }
    let comment = try #require(try await store.query(Comment4V2.self, byIdentifier: .init(id: "")))
    #expect(try await comment.post?.title == "empty")
  }

  @Test("an empty string is a valid identifier and foreign key, saved parent first")
  func emptyIdentifierParentFirst() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let post = Post4V2(id: "", title: "empty")
    try await store.save(post)
    try await store.save(Comment4V2(id: "", content: "x", post: post))
    let comment = try #require(try await store.query(Comment4V2.self, byIdentifier: .init(id: "")))
    #expect(try await comment.post?.title == "empty")
    let loaded = try #require(try await store.query(Post4V2.self, byIdentifier: .init(id: "")))
    #expect(try await loaded.comments?.fetch().map(\.content) == ["x"])
  }

  @Test("a 16 MB string round-trips")
  func hugeString() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let title = String(repeating: "é\u{0}x", count: 16 << 20 / 4)
    try await store.save(Post4V2(id: "big", title: title))
    let post = try #require(try await store.query(Post4V2.self, byIdentifier: .init(id: "big")))
    #expect(post.title == title)
    #expect(try await store.count(Post4V2.self, where: Post4V2.keys.title.eq(title)) == 1)
  }

  @Test("a stored Boolean other than 0 or 1 is decodingFailed naming model and field")
  func booleanOutOfRange() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: ScalarsEnumsEmbeddedModels.Models.registry)
    try await store.save(Sample(id: "s", flag: true, colors: []))
    var db: OpaquePointer?
    #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
    #expect(sqlite3_exec(db, "UPDATE \"Sample\" SET \"flag\" = 2", nil, nil, nil) == SQLITE_OK)
    sqlite3_close(db)
    // The predicate and the decoded value must at least agree.
    let trues = try await store.count(Sample.self, where: Sample.keys.flag.eq(true))
    let decoded: [Sample]
    do {
      decoded = try await store.query(Sample.self)
    } catch DataStoreError.decodingFailed(let model, let field, let reason) {
      #expect(model == "Sample" && field == "flag")
      #expect(reason == "the stored integer 2 is not a Boolean (0 or 1)")
      return
    }
    Issue.record(
      "flag = 2 decoded as \(String(describing: decoded.first?.flag)); flag.eq(true) matches \(trues) rows")
  }

  @Test("a failed save([…]) caught inside write leaves none of its models; the rest commits")
  func caughtBatchFailureInsideWrite() async throws {
    let store = try DataStore(fileURL: try temporaryFileURL(), registry: ExactIntegerTests.registry)
    let events = store.observe(Gauge.self)
    let outcome = try await store.write { tx -> Bool in
      let failed: Bool
      do {
        try tx.save([
          Gauge(id: "good", small: 1, medium: nil, unsigned: 1, huge: 1),
          Gauge(id: "bad", small: 1, medium: nil, unsigned: 1, huge: UInt64(Int64.max) + 1),
        ])
        failed = false
      } catch {
        failed = true
      }
      try tx.save(Gauge(id: "after", small: 2, medium: nil, unsigned: 2, huge: 2))
      return failed
    }
    #expect(outcome)
    #expect(try await store.query(Gauge.self).map(\.id) == ["after"])
    var iterator = events.makeAsyncIterator()
    let first = await iterator.next()
    if case .saved(let gauge)? = first {
      #expect(gauge.id == "after")
    } else {
      Issue.record("first event \(String(describing: first))")
    }
  }

  @Test("re-saving a parent (an update) keeps its children and reports no deletion")
  func upsertDoesNotCascade() async throws {
    for location in StoreLocation.allCases {
      let (store, _) = try makeStore(location, registry: seedRegistry)
      let post = Post4V2(id: "p", title: "one")
      try await store.save(post)
      try await store.save(Comment4V2(id: "c", content: "x", post: post))
      let events = store.observe(Comment4V2.self)
      var renamed = post
      renamed.title = "two"
      try await store.save(renamed)
      let again = renamed
      try await store.write { tx in _ = try tx.save(again) }
      #expect(try await store.count(Comment4V2.self) == 1, "\(location)")
      try await store.save(Comment4V2(id: "marker", content: "m", post: post))
      var iterator = events.makeAsyncIterator()
      let first = await iterator.next()
      if case .saved(let comment)? = first {
        #expect(comment.id == "marker", "\(location)")
      } else {
        Issue.record("\(location): first event \(String(describing: first))")
      }
    }
  }

  @Test("re-saving a comment whose key is its FK updates it in place; both directions still load")
  func keyIsForeignKeyUpdate() async throws {
    let (store, _) = try makeStore(.file, registry: RegressionBelongsToFkIsPrimaryKeyField.Models.registry)
    let post = KeyPost(id: "p", title: "t")
    try await store.write { tx in
      try tx.save(KeyComment(postID: "p", n: 1, text: "a"))
      try tx.save(post)
    }
    var comment = try #require(try await store.query(KeyComment.self, byIdentifier: .init(postID: "p", n: 1)))
    comment.text = "b"
    try await store.save(comment)
    try await store.save(post)
    let all = try await store.query(KeyComment.self)
    #expect(all.map(\.text) == ["b"])
    #expect(try await all.first?.post?.title == "t")
    let loaded = try #require(try await store.query(KeyPost.self, byIdentifier: .init(id: "p")))
    #expect(try await loaded.comments?.fetch().map(\.text) == ["b"])
    #expect(try await store.delete(KeyPost.self, where: KeyPost.keys.id.eq("p")) == 1)
    #expect(try await store.count(KeyComment.self) == 0)
  }

  @Test("a task cancelled before it calls save gets CancellationError and writes nothing")
  func cancelledBeforeSave() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await store.save(Post4V2(id: "never", title: "t"))
    }
    await #expect(throws: CancellationError.self) { _ = try await task.value }
    #expect(try await store.count(Post4V2.self) == 0)
  }

  @Test("a task cancelled before it calls write does not run the closure and writes nothing")
  func cancelledBeforeWrite() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await store.write { tx in try tx.save(Post4V2(id: "never", title: "t")) }
    }
    await #expect(throws: CancellationError.self) { _ = try await task.value }
    #expect(try await store.count(Post4V2.self) == 0)
  }

  @Test("observe and observeQuery called inside a write or read closure do not deadlock")
  func observeInsideClosures() async throws {
    for location in StoreLocation.allCases {
      let (store, _) = try makeStore(location, registry: seedRegistry)
      let done = try await within(60, "\(location): observe inside write") {
        try await store.write { tx in
          _ = store.observe(Post4V2.self)
          _ = store.observeQuery(Post4V2.self)
          try tx.save(Post4V2(id: "p", title: "t"))
          return true
        }
      }
      #expect(done == true)
      let read = try await within(60, "\(location): observe inside read") {
        try await store.read { tx in
          _ = store.observe(Comment4V2.self)
          return try tx.count(Post4V2.self)
        }
      }
      #expect(read == 1)
      // The store still works.
      let saved = try await within(60, "\(location): save after") {
        try await store.save(Post4V2(id: "q", title: "t")).id
      }
      #expect(saved == "q")
    }
  }

  @Test("many tasks writing and reading at once: every write lands once, reads see whole writes")
  func manyTasks() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<16 {
        group.addTask {
          for n in 0..<25 {
            let post = Post4V2(id: "p\(writer)-\(n)", title: "t")
            try await store.write { tx in
              try tx.save(Comment4V2(id: "c\(writer)-\(n)", content: "x", post: post))
              try tx.save(post)
            }
          }
        }
        group.addTask {
          for _ in 0..<25 {
            let (posts, comments) = try await store.read { tx in
              (try tx.count(Post4V2.self), try tx.count(Comment4V2.self))
            }
            #expect(posts == comments)
            _ = try await store.query(Comment4V2.self).first?.post
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try await store.count(Post4V2.self) == 400)
    #expect(try await store.count(Comment4V2.self) == 400)
  }

  @Test("opening a new file while another process holds its write lock is busy naming the file")
  func busyAtOpen() async throws {
    let url = try temporaryFileURL()
    var db: OpaquePointer?
    #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
    defer { sqlite3_close(db) }
    #expect(sqlite3_exec(db, "PRAGMA journal_mode=WAL; BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
    let start = ContinuousClock.now
    do {
      _ = try DataStore(fileURL: url, registry: seedRegistry, busyTimeout: .milliseconds(300))
      Issue.record("opened")
    } catch DataStoreError.busy(let file, let timeout) {
      #expect(file == url.path)
      #expect(timeout == 300)
    } catch {
      Issue.record("\(error)")
    }
    #expect(ContinuousClock.now - start < .seconds(3))
    #expect(sqlite3_exec(db, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
  }

  @Test("the first observeQuery snapshot of an empty filtered query is empty and synced")
  func firstSnapshotEmpty() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let snapshot = try await within(60, "first snapshot") {
      var iterator = store.observeQuery(Post4V2.self, where: Post4V2.keys.title.beginsWith("a"))
        .makeAsyncIterator()
      return try await iterator.next()
    }
    let first = try #require(snapshot ?? nil)
    #expect(first.items.isEmpty)
    #expect(first.isSynced)
  }

  @Test("a cascaded delete changes an observed query of the children")
  func observeQueryCascade() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let post = Post4V2(id: "p", title: "t")
    try await store.save(post)
    try await store.save(Comment4V2(id: "c", content: "x", post: post))
    let result = try await within(60, "cascade snapshot") {
      var iterator = store.observeQuery(Comment4V2.self).makeAsyncIterator()
      let first = try await iterator.next()
      #expect(first?.items.map(\.id) == ["c"])
      try await store.delete(post)
      return try await iterator.next()?.items.count
    }
    #expect(result == 0)
  }

  @Test("save([…]) failing in SQLite inside write and caught leaves none of its models")
  func caughtSQLBatchFailureInsideWrite() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: foreignKeyRegistry)
    try executeRaw(
      #"CREATE UNIQUE INDEX "Draft_unique_title" ON "Draft" ("title", "writerId")"#, on: url)
    try await store.save(Draft(id: "d1", title: "same", writerId: "w"))
    let caught = try await store.write { tx -> String in
      do {
        try tx.save([
          Draft(id: "d3", title: "other", writerId: "w"),
          Draft(id: "d2", title: "same", writerId: "w"),
        ])
        return "saved"
      } catch DataStoreError.uniqueConstraintViolation(let model, _, _) {
        return model
      }
    }
    #expect(caught == "Draft")
    // The call threw: none of its models may be stored (as outside write).
    #expect(try await store.query(Draft.self, sort: [.ascending(Draft.keys.id)]).map(\.id) == ["d1"])
  }

  @Test("a stored enum value outside the enum is decodingFailed naming model and field")
  func enumOutOfRange() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: ScalarsEnumsEmbeddedModels.Models.registry)
    try await store.save(Sample(id: "s", color: .red, colors: [.red]))
    try executeRaw(#"UPDATE "Sample" SET "color" = 'PURPLE'"#, on: url)
    do {
      _ = try await store.query(Sample.self)
      Issue.record("PURPLE decoded")
    } catch DataStoreError.decodingFailed(let model, let field, _) {
      #expect(model == "Sample" && field == "color")
    }
  }

  @Test("a deleted event inside one write that saved and deleted the row is not a phantom")
  func savedThenDeletedInOneWrite() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let events = store.observe(Post4V2.self)
    try await store.write { tx in
      try tx.save(Post4V2(id: "ghost", title: "t"))
      try tx.delete(Post4V2.self, byIdentifier: .init(id: "ghost"))
    }
    try await store.save(Post4V2(id: "marker", title: "m"))
    var iterator = events.makeAsyncIterator()
    var seen: [String] = []
    while let event = await iterator.next() {
      switch event {
      case .saved(let post): seen.append("saved \(post.id)")
      case .deleted(let post): seen.append("deleted \(post.id)")
      }
      if seen.last == "saved marker" { break }
    }
    // Every committed row change once: the ghost was saved and deleted, both committed in order.
    #expect(seen == ["saved ghost", "deleted ghost", "saved marker"])
  }

  @Test("deferred foreign keys: a dangling child deleted again, or a parent deleted after its child, commits")
  func deferredForeignKeysSettle() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    try await store.write { tx in
      try tx.save(Comment4V2(id: "orphan", content: "x", postIdentifier: .init(id: "missing")))
      try tx.delete(Comment4V2.self, byIdentifier: .init(id: "orphan"))
    }
    let post = Post4V2(id: "p", title: "t")
    let remaining = try await store.write { tx in
      try tx.save(Comment4V2(id: "c", content: "x", post: post))
      try tx.save(post)
      try tx.delete(post)
      return try tx.count(Comment4V2.self)
    }
    #expect(remaining == 0)
    await #expect(
      throws: DataStoreError.foreignKeyViolation(
        model: "Comment4V2", field: "post", identifiers: [IdentifierComponent(name: "id", value: .string("gone"))])
    ) {
      try await store.write { tx in
        try tx.save(Comment4V2(id: "d", content: "x", postIdentifier: .init(id: "gone")))
        try tx.save(Post4V2(id: "other", title: "t"))
      }
    }
    #expect(try await store.count(Post4V2.self) == 0)
    #expect(try await store.count(Comment4V2.self) == 0)
  }
}
