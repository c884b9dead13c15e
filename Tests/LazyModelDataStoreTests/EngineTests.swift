import CSQLite
import Dispatch
import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Synchronization
import Testing

/// A one-shot signal between a store's job (on its own queue) and the test task.
final class Gate: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  private let (stream, continuation) = AsyncStream<Void>.makeStream()
  /// Opens the gate (any thread).
  func open() {
    semaphore.signal()
    continuation.yield()
  }
  /// Waits on a store's queue thread (never a cooperative-pool thread) for at most `seconds` times
  /// `testDeadlineScale`.
  func waitOnQueue(seconds: Double = 10) -> Bool {
    semaphore.wait(timeout: .now() + seconds * testDeadlineScale) == .success
  }
  /// Suspends the test task until the gate opens.
  func opened() async {
    var iterator = stream.makeAsyncIterator()
    _ = await iterator.next()
  }
}

@Suite("Engine: write/read transactions, snapshots, cancellation, busy")
struct EngineTests {
  @Test("write runs one transaction over several models and returns the closure's value")
  func writeAcrossModels() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let post = Post4V2(id: "p", title: "Hello")
    let (count, stored) = try await store.write { tx in
      // The child first: foreign keys are checked at commit.
      let comment = try tx.save(Comment4V2(id: "c", content: "First!", post: post))
      try tx.save(post)
      return (try tx.count(Comment4V2.self), comment)
    }
    #expect(count == 1)
    #expect(stored.id == "c")
    #expect(stored.createdAt != nil && stored.updatedAt != nil)
    #expect(stored.postReference.state.isNotLoaded)
    #expect(try await stored.post?.title == "Hello")
    #expect(try await store.count(Post4V2.self) == 1)
  }

  @Test("a throwing write closure leaves the file unchanged and rethrows")
  func throwingWriteRollsBack() async throws {
    struct Stop: Error, Equatable {}
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    try await store.save(Post4V2(id: "kept", title: "before"))
    await #expect(throws: Stop()) {
      _ = try await store.write { tx in
        try tx.save(Post4V2(id: "new", title: "x"))
        try tx.save(Post4V2(id: "kept", title: "changed"))
        try tx.delete(Post4V2.self, byIdentifier: .init(id: "kept"))
        throw Stop()
      }
    }
    let posts = try await store.query(Post4V2.self)
    #expect(posts.map(\.id) == ["kept"])
    #expect(posts.map(\.title) == ["before"])
  }

  @Test("a child whose parent is never saved fails the commit with a typed error; nothing is written")
  func deferredForeignKeyFailure() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let orphan = Comment4V2(id: "c", content: "x", post: Post4V2(id: "missing", title: "t"))
    await #expect(
      throws: DataStoreError.foreignKeyViolation(
        model: "Comment4V2", field: "post",
        identifiers: [IdentifierComponent(name: "id", value: .string("missing"))])
    ) {
      _ = try await store.write { tx in
        try tx.save(Post4V2(id: "other", title: "t"))
        try tx.save(orphan)
      }
    }
    #expect(try await store.count(Post4V2.self) == 0)
    await #expect(
      throws: DataStoreError.foreignKeyViolation(
        model: "Comment4V2", field: "post",
        identifiers: [IdentifierComponent(name: "id", value: .string("missing"))])
    ) { _ = try await store.save(orphan) }
  }

  @Test("save returns the model as stored: timestamps set, createdAt kept, lists not loaded")
  func saveReturnsStored() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let first = try await store.save(Post4V2(id: "p", title: "one"))
    #expect(first.createdAt != nil)
    try await store.save(Comment4V2(id: "c", content: "x", post: first))
    let again = try await store.save(Post4V2(id: "p", title: "two"))
    #expect(again.title == "two")
    #expect(again.createdAt == first.createdAt)
    let comments = try #require(again.comments)
    #expect(!comments.isLoaded)
    #expect(try await comments.fetch().map(\.id) == ["c"])
  }

  @Test("save: an insert returns the bound row unread; an update or a trigger's change is read back")
  func saveReadsBackOnlyWhatSQLiteChanged() async throws {
    let url = try temporaryFileURL()
    let log = SQLLog()
    let store = try DataStore(fileURL: url, registry: seedRegistry, traceSQL: log.hook)
    log.clear()
    let inserted = try await store.save(Post4V2(id: "p", title: "one"))
    #expect(inserted.title == "one")
    #expect(inserted.createdAt != nil && inserted.createdAt == inserted.updatedAt)
    // The upsert (no RETURNING) and no read-back of the row.
    #expect(log.queries.filter { $0.hasPrefix(#"INSERT INTO "Post4V2""#) }.count == 1)
    #expect(!log.queries.contains { $0.contains("RETURNING") })
    #expect(!log.queries.contains { $0.hasPrefix(#"SELECT "id", "title""#) })
    #expect(try await store.query(Post4V2.self, byIdentifier: .init(id: "p")) == inserted)

    // An update of a new instance with the same key: createdAt is the stored one (read back).
    log.clear()
    let updated = try await store.save(Post4V2(id: "p", title: "two"))
    #expect(updated.title == "two" && updated.createdAt == inserted.createdAt)
    #expect(log.queries.filter { $0.hasPrefix(#"SELECT "id", "title""#) }.count == 1)
    #expect(try await store.query(Post4V2.self, byIdentifier: .init(id: "p")) == updated)

    // A trigger another program installed changes the inserted row: the save returns it as stored.
    var db: OpaquePointer?
    #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
    #expect(
      sqlite3_exec(
        db,
        #"CREATE TRIGGER "checked" AFTER INSERT ON "Post4V2" BEGIN UPDATE "Post4V2" SET "title" = NEW."title" || ' (checked)' WHERE "id" = NEW."id"; END"#,
        nil, nil, nil) == SQLITE_OK)
    sqlite3_close(db)
    let triggered = try await store.save(Post4V2(id: "q", title: "three"))
    #expect(triggered.title == "three (checked)")
    #expect(try await store.query(Post4V2.self, byIdentifier: .init(id: "q")) == triggered)
  }

  @Test("a save of many models encodes each row afresh, with the FK of every kind of reference")
  func saveOfManyEncodesEachRowAfresh() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let first = try await store.save(Post4V2(id: "p1", title: "one"))
    let second = try await store.save(Post4V2(id: "p2", title: "two"))
    try await store.save([
      Comment4V2(id: "seed", content: "seed", post: first),
      Comment4V2(id: "other", content: "other", post: first),
    ])
    // Read back, a reference is not loaded (identifiers only); one copy loads it through the
    // store's provider, so that its FK comes from the loaded model.
    let notLoaded = try #require(try await store.query(Comment4V2.self, byIdentifier: .init(id: "other")))
    var loaded = try #require(try await store.query(Comment4V2.self, byIdentifier: .init(id: "seed")))
    #expect(try await loaded.post?.id == "p1")
    #expect(loaded.postReference.isLoaded && !notLoaded.postReference.isLoaded)
    loaded.content = "loaded"
    let batch = [
      Comment4V2(id: "c1", content: "from a model", post: second),
      Comment4V2(id: "c2", content: "empty", post: nil),
      Comment4V2(id: "c3", content: "from an identifier", postIdentifier: .init(id: "p2")),
      loaded,
      Comment4V2(id: "c4", content: "empty again", postIdentifier: nil),
      notLoaded,
    ]
    let saved = try await store.save(batch)
    let expected: [String?] = ["p2", nil, "p2", "p1", nil, "p1"]
    #expect(saved.map(\.id) == batch.map(\.id))
    #expect(saved.map(\.content) == batch.map(\.content))
    #expect(saved.map { $0.postReference.identifier?.id } == expected)
    for (model, postID) in zip(saved, expected) {
      let stored = try #require(try await store.query(Comment4V2.self, byIdentifier: .init(id: model.id)))
      // Each returned model is its stored row (timestamps included), and no row kept another's FK.
      #expect(stored == model)
      #expect(stored.postReference.identifier?.id == postID)
      #expect(try await stored.post?.id == postID)
      #expect(model.createdAt != nil && model.updatedAt != nil)
    }
  }

  @Test("a transaction used after its closure returned is a typed error")
  func escapedTransaction() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let escaped = try await store.read { tx in Escaped(tx) }
    #expect(
      throws: DataStoreError.transactionMisuse(
        operation: "count", reason: "the transaction's closure has returned")
    ) { _ = try escaped.transaction.count(Post4V2.self) }
  }

  @Test("a reader during a long write sees the state before it")
  func readerSeesSnapshotBeforeWrite() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    try await store.save(Post4V2(id: "old", title: "t"))
    let started = Gate()
    let release = Gate()
    let writing = Task {
      try await store.write { tx in
        try tx.save((0..<100).map { Post4V2(id: "new\($0)", title: "t") })
        started.open()
        _ = release.waitOnQueue()
      }
    }
    await started.opened()
    #expect(try await store.count(Post4V2.self) == 1)
    #expect(try await store.read { tx in try tx.query(Post4V2.self).map(\.id) } == ["old"])
    release.open()
    try await writing.value
    #expect(try await store.count(Post4V2.self) == 101)
  }

  @Test("two reads run at the same time on two reader connections")
  func readsAreConcurrent() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let firstIn = Gate()
    let secondIn = Gate()
    async let first: Bool = store.read { _ in
      firstIn.open()
      return secondIn.waitOnQueue()
    }
    async let second: Bool = store.read { _ in
      secondIn.open()
      return firstIn.waitOnQueue()
    }
    // Each waits for the other to have started: serialized reads would time out.
    #expect(try await [first, second] == [true, true])
  }

  @Test("cancelling a read interrupts its statements and throws CancellationError")
  func cancelRead() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    try await store.save((0..<2_000).map { Post4V2(id: "p\($0)", title: "t\($0)") })
    let running = Gate()
    let reading = Task {
      try await store.read { tx in
        running.open()
        while true { _ = try tx.query(Post4V2.self, where: Post4V2.keys.title.contains("z")) }
      }
    }
    await running.opened()
    reading.cancel()
    await #expect(throws: CancellationError.self) { try await reading.value }
    #expect(try await store.count(Post4V2.self) == 2_000)
  }

  @Test("a cancelled write rolls back and throws CancellationError")
  func cancelWrite() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let running = Gate()
    let writing = Task {
      try await store.write { tx in
        try tx.save(Post4V2(id: "never", title: "t"))
        running.open()
        while true { _ = try tx.count(Post4V2.self) }
      }
    }
    await running.opened()
    writing.cancel()
    await #expect(throws: CancellationError.self) { try await writing.value }
    #expect(try await store.count(Post4V2.self) == 0)
    // The writer is free again.
    try await store.save(Post4V2(id: "after", title: "t"))
    #expect(try await store.count(Post4V2.self) == 1)
  }

  @Test("a file locked by another connection: a bounded wait, then a typed error naming the file")
  func busyFile() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(
      fileURL: url, registry: seedRegistry, busyTimeout: .milliseconds(200))
    var db: OpaquePointer?
    #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
    defer { sqlite3_close(db) }
    #expect(sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
    let start = ContinuousClock.now
    await #expect(throws: DataStoreError.busy(file: url.path, timeoutMilliseconds: 200)) {
      _ = try await store.save(Post4V2(id: "p", title: "t"))
    }
    #expect(ContinuousClock.now - start >= .milliseconds(150))
    #expect(sqlite3_exec(db, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
    try await store.save(Post4V2(id: "p", title: "t"))
    #expect(try await store.count(Post4V2.self) == 1)
  }

  @Test("the in-memory store runs write, read and save on its one connection")
  func inMemory() async throws {
    let (store, _) = try makeStore(.memory, registry: seedRegistry)
    let post = Post4V2(id: "p", title: "t")
    try await store.write { tx in
      try tx.save(Comment4V2(id: "c", content: "x", post: post))
      try tx.save(post)
    }
    #expect(try await store.read { tx in try tx.count(Comment4V2.self) } == 1)
    #expect(store.fileURL == nil)
  }
}

/// Carries a transaction out of its closure (to test that using it there fails).
struct Escaped: @unchecked Sendable {
  let transaction: ReadTransaction
  init(_ transaction: ReadTransaction) { self.transaction = transaction }
}

extension LazyReference.State {
  var isNotLoaded: Bool {
    if case .notLoaded = self { return true }
    return false
  }
}

/// The first error a task reported.
final class ErrorBox: Sendable {
  private let error = TestLock<DataStoreError?>(nil)
  func set(_ value: any Error) { error.withLock { $0 = value as? DataStoreError } }
  var value: DataStoreError? { error.withLock { $0 } }
}

@Suite("Engine: calling the store from its own closure")
struct ReentrancyTests {
  @Test("a store call started synchronously inside write or read is a typed error, not a deadlock")
  func reentrantCalls() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let post = try await store.save(Post4V2(id: "p", title: "t"))
    let fromWrite = ErrorBox()
    let fromRead = ErrorBox()
    try await store.write { tx in
      try tx.save(Comment4V2(id: "c", content: "x", post: post))
      // `Task.immediate` runs the call on this thread (the writer's queue) up to its first
      // suspension: the store notices before it would wait for itself.
      Task.immediate {
        do { _ = try await store.save(Post4V2(id: "q", title: "t")) } catch { fromWrite.set(error) }
      }
    }
    _ = try await store.read { tx in
      Task.immediate {
        do { _ = try await store.count(Post4V2.self) } catch { fromRead.set(error) }
      }
      return try tx.count(Post4V2.self)
    }
    #expect(
      fromWrite.value
        == .transactionMisuse(
          operation: "save", reason: "called from inside one of this store's own write or read closures"))
    #expect(
      fromRead.value
        == .transactionMisuse(
          operation: "count", reason: "called from inside one of this store's own write or read closures"))
    #expect(try await store.count(Post4V2.self) == 1)
    #expect(try await store.count(Comment4V2.self) == 1)
  }
}
