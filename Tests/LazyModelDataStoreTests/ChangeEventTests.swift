import CSQLite
import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Testing

/// Reads `count` events from `iterator`, failing after 10 s (times `testDeadlineScale`).
func next<M: Model>(
  _ count: Int, of stream: AsyncStream<DataStoreEvent<M>>
) async throws -> [DataStoreEvent<M>] {
  try await withThrowingTaskGroup(of: [DataStoreEvent<M>].self) { group in
    group.addTask {
      var events: [DataStoreEvent<M>] = []
      for await event in stream {
        events.append(event)
        if events.count == count { break }
      }
      return events
    }
    group.addTask {
      try await Task.sleep(for: .seconds(10 * testDeadlineScale))
      return []
    }
    let first = try await group.next() ?? []
    group.cancelAll()
    return first
  }
}

/// `"saved c1 x"` / `"deleted c1 x"` for a comment event.
func describe(_ event: DataStoreEvent<Comment4V2>) -> String {
  switch event {
  case .saved(let comment): return "saved \(comment.id) \(comment.content)"
  case .deleted(let comment): return "deleted \(comment.id) \(comment.content)"
  }
}

@Suite("Change events from SQLite's hooks")
struct ChangeEventTests {
  @Test("cascaded deletes are reported with the rows' last stored values", arguments: StoreLocation.allCases)
  func cascades(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    let post = Post4V2(id: "p", title: "Hello")
    try await store.save(post)
    try await store.save([
      Comment4V2(id: "c1", content: "one", post: post), Comment4V2(id: "c2", content: "two", post: post),
    ])
    let events = store.observe(Comment4V2.self)
    try await store.delete(post)
    let seen = try await next(2, of: events)
    #expect(seen.map(describe) == ["deleted c1 one", "deleted c2 two"])
    if case .deleted(let comment)? = seen.first {
      #expect(comment.postReference.identifiers == [IdentifierComponent(name: "id", value: .string("p"))])
      #expect(comment.createdAt != nil)
    }
  }

  @Test("a deleted comment's reference still loads its post; saved is the row as stored")
  func deletedKeepsReferences() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let post = Post4V2(id: "p", title: "Hello")
    try await store.save(post)
    let events = store.observe(Comment4V2.self)
    let posts = store.observe(Post4V2.self)
    try await store.save(Comment4V2(id: "c", content: "x", post: post))
    try await store.delete(Comment4V2.self, byIdentifier: .init(id: "c"))
    let seen = try await next(2, of: events)
    #expect(seen.map(describe) == ["saved c x", "deleted c x"])
    if case .saved(let saved)? = seen.first {
      #expect(saved.createdAt != nil && saved.updatedAt != nil)
      #expect(saved.postReference.state.isNotLoaded)
    }
    if case .deleted(let deleted)? = seen.last {
      #expect(try await deleted.post?.title == "Hello")
    }
    try await store.save(Post4V2(id: "q", title: "new"))
    guard case .saved(let newPost)? = try await next(1, of: posts).first else {
      Issue.record("no post event")
      return
    }
    // As stored: the list is not loaded (the caller's value had a loaded, empty one).
    #expect(newPost.comments?.isLoaded == false)
  }

  @Test("rolled-back work is never reported; each commit is reported once, after it")
  func rollbackNotReported() async throws {
    struct Stop: Error {}
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let post = Post4V2(id: "p", title: "Hello")
    try await store.save(post)
    let events = store.observe(Comment4V2.self)
    _ = try? await store.write { tx in
      try tx.save(Comment4V2(id: "rolled", content: "back", post: post))
      throw Stop()
    }
    _ = try? await store.save(Comment4V2(id: "orphan", content: "fk", post: Post4V2(id: "none", title: "")))
    try await store.write { tx in
      try tx.save(Comment4V2(id: "kept", content: "one", post: post))
      // A failed statement inside a write is undone by SQLite; so is its event.
      _ = try? tx.save(Comment4V2(id: "bad", content: "", post: nil))
    }
    #expect(try await next(1, of: events).map(describe) == ["saved kept one"])
  }

  @Test("changes made through another store on the same file are reported")
  func otherInstance() async throws {
    let url = try temporaryFileURL()
    let first = try DataStore(fileURL: url, registry: seedRegistry)
    let second = try DataStore(fileURL: url, registry: seedRegistry)
    let events = second.observe(Comment4V2.self)
    let post = Post4V2(id: "p", title: "Hello")
    try await first.save(post)
    try await first.save(Comment4V2(id: "c", content: "from first", post: post))
    try await first.delete(post)
    let seen = try await next(2, of: events)
    #expect(seen.map(describe) == ["saved c from first", "deleted c from first"])
  }
}

@Suite("observeQuery")
struct ObserveQueryTests {
  @Test("the current result first, then one snapshot per changing commit")
  func snapshots() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    try await store.save(Post4V2(id: "a", title: "A"))
    let live = store.observeQuery(
      Post4V2.self, where: Post4V2.keys.title.beginsWith("A"), sort: [.ascending(Post4V2.keys.id)])
    var iterator = live.makeAsyncIterator()
    let initial = try #require(try await iterator.next())
    #expect(initial.items.map(\.id) == ["a"])
    #expect(initial.isSynced)
    try await store.save(Post4V2(id: "b", title: "AB"))
    #expect(try await iterator.next()?.items.map(\.id) == ["a", "b"])
    try await store.delete(Post4V2.self, byIdentifier: .init(id: "a"))
    #expect(try await iterator.next()?.items.map(\.id) == ["b"])
  }

  @Test("a commit that leaves the result as it was gives no snapshot; the next change does")
  func unchangedResultGivesNoSnapshot() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    try await store.save(Post4V2(id: "a", title: "A"))
    let seen = TestLock<[[String]]>([])
    let live = store.observeQuery(
      Post4V2.self, where: Post4V2.keys.title.beginsWith("A"), sort: [.ascending(Post4V2.keys.id)])
    let consumer = Task {
      for try await snapshot in live {
        seen.withLock { $0.append(snapshot.items.map(\.id)) }
        if snapshot.items.count == 2 { break }
      }
    }
    try await waitUntil { seen.withLock { $0.count } == 1 }
    // Rows outside the filter: the table changes, the result does not.
    try await store.save(Post4V2(id: "z", title: "Z"))
    try await store.save(Post4V2(id: "y", title: "Y"))
    try await Task.sleep(for: .milliseconds(400))  // time for a snapshot, were one to come
    #expect(seen.withLock { $0 } == [["a"]])
    try await store.save(Post4V2(id: "b", title: "AB"))
    try await consumer.value
    #expect(seen.withLock { $0 } == [["a"], ["a", "b"]])
  }

  /// Polls `condition` every 10 ms for at most 20 s.
  private func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    #expect(condition())
  }

  @Test("a burst of 1,000 saves yields a handful of snapshots; cancelling ends the sequence")
  func coalesced() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let live = store.observeQuery(Post4V2.self)
    let consumer = Task {
      var counts: [Int] = []
      for try await snapshot in live {
        counts.append(snapshot.items.count)
        if snapshot.items.count == 1_000 { break }
      }
      return counts
    }
    let start = ContinuousClock.now
    for index in 0..<1_000 { try await store.save(Post4V2(id: "p\(index)", title: "t")) }
    let counts = try await consumer.value
    let burst = ContinuousClock.now - start
    #expect(counts.last == 1_000)
    // At most one snapshot per 50 ms of burst (plus the first and the last), and never one per save.
    #expect(counts.count <= Int(burst / .milliseconds(50)) + 3, "\(counts.count) snapshots in \(burst)")
    #expect(counts.count < 250, "\(counts.count) snapshots in \(burst)")
    #expect(counts == counts.sorted())

    let first = Gate()
    let ended = Task {
      var seen = 0
      for try await _ in store.observeQuery(Post4V2.self) {
        seen += 1
        first.open()
      }
      return seen
    }
    await first.opened()
    ended.cancel()
    // The sequence ends (the loop returns) once its consuming task is cancelled.
    #expect(try await ended.value == 1)
  }
}

@Suite("observeQuery and another process")
struct OtherProcessTests {
  @Test("a commit by another connection (PRAGMA data_version) makes live queries read again")
  func dataVersion() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: seedRegistry, readerCount: 1)
    try await store.save(Post4V2(id: "a", title: "A"))
    var iterator = store.observeQuery(Post4V2.self, sort: [.ascending(Post4V2.keys.id)])
      .makeAsyncIterator()
    #expect(try await iterator.next()?.items.map(\.id) == ["a"])
    // Another program (not a DataStore) writes the file: no hook of this process sees it.
    var db: OpaquePointer?
    #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
    #expect(
      sqlite3_exec(
        db, #"INSERT INTO "Post4V2" ("id", "title") VALUES ('b', 'from elsewhere')"#, nil, nil, nil)
        == SQLITE_OK)
    sqlite3_close(db)
    // The next reader that starts notices.
    #expect(try await store.count(Post4V2.self) == 2)
    #expect(try await iterator.next()?.items.map(\.title) == ["A", "from elsewhere"])
  }
}
