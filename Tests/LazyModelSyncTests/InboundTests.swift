import Foundation
import LazyModel
import LazyModelAPI
import SyncBlogModels
import Testing

@testable import LazyModelDataStore

@Suite("Sync: the inbound half (subscriptions, base and delta sync, reconciliation) with two devices", .serialized)
struct InboundTests {
  @Test func aSaveOnOneDeviceAppearsOnTheOtherThroughItsSubscriptionAndObserveQuery() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let a = try device(server, directory, "a")
    let b = try device(server, directory, "b")
    let log = EventLog(b)
    defer { log.stop() }
    let snapshots = Recorder<QuerySnapshot<Post>>()
    let watcher = Task {
      for try await snapshot in b.observeQuery(Post.self, sort: [.ascending(Post.keys.id)]) {
        snapshots.append(snapshot)
      }
    }
    defer { watcher.cancel() }
    let changes = Recorder<String>()
    let changeWatcher = Task {
      for await change in b.observeChanges(Post.self) {
        if case .saved(let post) = change.event { changes.append("saved \(post.title) \(change.source)") }
        if case .deleted(let post) = change.event { changes.append("deleted \(post.id) \(change.source)") }
      }
    }
    defer { changeWatcher.cancel() }
    #expect(try await eventuallyScaled { !snapshots.values.isEmpty })
    #expect(snapshots.values.first?.isSynced == false)  // B has not synced yet
    try await startAndSync(a)
    try await startAndSync(b)
    #expect(try await eventuallyScaled { snapshots.values.last?.isSynced == true })
    // The events of B's first sync, in order: subscriptions first, parents before children.
    #expect(try await eventuallyScaled { log.readyCount == 1 })
    let names = log.events.compactMap { event -> String? in
      switch event {
      case .networkStatus(let active): return "network \(active)"
      case .subscriptionsEstablished: return "subscriptions"
      case .syncQueriesStarted(let models): return "started \(models)"
      case .modelSynced(let synced): return "synced \(synced.modelName) full \(synced.isFullSync)"
      case .syncQueriesReady: return "queries ready"
      case .ready: return "ready"
      default: return nil
      }
    }
    #expect(
      names == [
        "network true", "subscriptions", "started [\"Post\", \"Comment\"]", "synced Post full true",
        "synced Comment full true", "queries ready", "ready",
      ])

    let post = Post(id: "p1", title: "from A", rating: 4)
    try await a.save(post)
    try await a.save(Comment(id: "c1", content: "hello", post: post))
    #expect(try await eventuallyScaled { snapshots.values.last?.items.map(\.title) == ["from A"] })
    #expect(snapshots.values.last?.isSynced == true)
    #expect(try await eventuallyScaled { try await b.query(Comment.self, byIdentifier: .init(id: "c1")) != nil })
    let comment = try #require(try await b.query(Comment.self, byIdentifier: .init(id: "c1")))
    #expect(try await comment.post?.title == "from A")
    #expect(try await b.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.version == 1)
    #expect(try await b.pendingMutations().isEmpty)  // nothing inbound enters the outbox

    // An update and a delete on A reach B too; the delete cascades to the comment.
    try await a.save(Post(id: "p1", title: "edited on A", rating: 5))
    #expect(
      try await eventuallyScaled { try await b.query(Post.self, byIdentifier: .init(id: "p1"))?.title == "edited on A" }
    )
    #expect(try await b.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.version == 2)
    try await a.delete(Post.self, byIdentifier: .init(id: "p1"))
    #expect(try await eventuallyScaled { snapshots.values.last?.items.isEmpty == true })
    #expect(try await b.query(Comment.self, byIdentifier: .init(id: "c1")) == nil)
    #expect(try await b.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.deleted == true)
    #expect(try await b.pendingMutations().isEmpty)
    #expect(log.inboundErrors.isEmpty)
    // B's observers saw each remote change once, marked remote.
    #expect(try await eventuallyScaled { changes.values.count == 3 })
    #expect(changes.values == ["saved from A remote", "saved edited on A remote", "deleted p1 remote"])
    await a.stop()
    await b.stop()
  }

  @Test func baseThenDeltaSyncAndAnExpiredDeltaTTLFallsBackToTheBaseTable() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for index in 1...3 { try await server.createPost("s\(index)", "server \(index)") }
    let store = try device(server, directory, "d")
    let log = EventLog(store)
    defer { log.stop() }
    try await startAndSync(store)
    #expect(try await eventuallyScaled { log.synced.count == 2 })
    #expect(
      log.synced.first { $0.modelName == "Post" }
        == ModelSyncedEvent(modelName: "Post", isFullSync: true, isDeltaSync: false, added: 3, updated: 0, deleted: 0))
    await store.stop()

    // Offline: the server changes; the next start is a delta sync of exactly those changes.
    try await server.updatePost("s1", ["title": "server 1, edited"])
    try await server.deletePost("s2")
    try await server.createPost("s4", "server 4")
    try await startAndSync(store)
    #expect(try await eventuallyScaled { log.synced.count == 4 })
    #expect(
      log.synced.last { $0.modelName == "Post" }
        == ModelSyncedEvent(modelName: "Post", isFullSync: false, isDeltaSync: true, added: 1, updated: 1, deleted: 1))
    #expect(try await localPosts(store) == serverPosts(server))
    let queries = try await server.requests().filter { ($0["query"] as? String)?.hasPrefix("query SyncPosts") == true }
    #expect((queries.last?["variables"] as? [String: Any])?["lastSync"] as? Int != nil)
    await store.stop()

    // fullSyncInterval zero: every sync is a base sync (no lastSync), which finds nothing new.
    let full = try device(server, directory, "d") { $0.fullSyncInterval = .zero }
    let fullLog = EventLog(full)
    defer { fullLog.stop() }
    try await startAndSync(full)
    #expect(try await eventuallyScaled { fullLog.synced.count == 2 })
    #expect(
      fullLog.synced.first { $0.modelName == "Post" }
        == ModelSyncedEvent(modelName: "Post", isFullSync: true, isDeltaSync: false, added: 0, updated: 0, deleted: 0))
    await full.stop()

    // The delta log expired (the server's clock moved past its 30 min delta TTL): the server
    // answers the delta query from its base table, and the change (no longer in its delta log)
    // still arrives.
    try await server.updatePost("s3", ["title": "server 3, edited"])
    try await server.shiftClock(31 * 60 * 1000)
    try await startAndSync(store)
    #expect(try await localPosts(store) == serverPosts(server))
    #expect(try await store.query(Post.self, byIdentifier: .init(id: "s3"))?.title == "server 3, edited")
    await store.stop()
  }

  @Test func reconciliationSkipsPendingMutationsAndOlderOrEqualVersions() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    try await store.save(Post(id: "pending", title: "local edit"))  // in the outbox
    try await store.write { tx in
      tx.appliesRemote = true
      try tx.save(Post(id: "v3", title: "local v3"))
      try Outbox.setMetadata(
        "Post", "\"v3\"", SyncMetadata(version: 3, lastChangedAt: 1, deleted: false), tx.connection)
    }
    @Sendable func remote(_ id: String, _ title: String, version: Int, deleted: Bool = false) -> GraphQLValue {
      [
        "id": .string(id), "title": .string(title), "__typename": "Post", "_version": .int(version),
        "_lastChangedAt": 5, "_deleted": deleted ? true : .null,
      ]
    }
    func apply(_ record: GraphQLValue) async throws -> String {
      try await store.writeRemote { tx in "\(try SyncEngine.reconcile(Post.self, record, tx))" }
    }
    #expect(try await apply(remote("pending", "server", version: 7)) == "skipped")
    #expect(try await apply(remote("v3", "server v2", version: 2)) == "skipped")
    #expect(try await apply(remote("v3", "server v3", version: 3)) == "skipped")
    #expect(try await apply(remote("v3", "server v4", version: 4)) == "updated")
    #expect(try await apply(remote("new", "server new", version: 1)) == "added")
    #expect(try await apply(remote("new", "server new", version: 2, deleted: true)) == "deleted")
    #expect(try await localPosts(store) == ["pending": "local edit|-", "v3": "server v4|-"])
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "v3"))?.version == 4)
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "new"))?.deleted == true)
    #expect(try await outbox(store) == ["create Post \"pending\""])  // nothing inbound was enqueued
    // A record that does not decode names its model and identifier, and its transaction rolls back.
    await #expect(throws: SyncInboundError.self) {
      try await store.writeRemote { tx in
        _ = try SyncEngine.reconcile(Post.self, remote("rolled back", "x", version: 1), tx)
        _ = try SyncEngine.reconcile(Post.self, ["id": "bad", "_version": 1, "__typename": "Post"], tx)
      }
    }
    #expect(try await store.query(Post.self, byIdentifier: .init(id: "rolled back")) == nil)
    do {
      try await store.writeRemote { tx in
        _ = try SyncEngine.reconcile(Post.self, ["id": "bad", "_version": 1, "__typename": "Post"], tx)
      }
    } catch let error as SyncInboundError {
      #expect(error.modelName == "Post" && error.identifier == "id=bad")
    }
  }

  /// The convergence test's lost delete (seed 11): another device's delete that arrives while this
  /// store's mutation of the record is in flight is skipped (a pending mutation), and the answer
  /// that follows is older than it. The skipped record is parked and applied once the mutation is
  /// done and no later one of the identifier is pending; an older or equal one is not.
  @Test func aRecordSkippedForAPendingMutationIsAppliedWhenTheMutationIsDoneIfNewer() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    let engine = try #require(store.sync)
    for id in ["x", "y", "w"] { try await store.save(Post(id: id, title: "local \(id)")) }
    // w's create is in flight; a later save of w is a second entry.
    try await store.write { tx in
      tx.appliesRemote = true
      try tx.connection.execute(
        "UPDATE \(quote(Outbox.outboxTable)) SET in_flight = 1 WHERE identifier = '\"w\"'")
    }
    try await store.save(Post(id: "w", title: "local w again"))
    @Sendable func remote(_ id: String, _ title: String, version: Int, deleted: Bool = false) -> GraphQLValue {
      [
        "id": .string(id), "title": .string(title), "__typename": "Post", "_version": .int(version),
        "_lastChangedAt": .int(10 + version), "_deleted": deleted ? true : .null,
      ]
    }
    let skipped = try await store.writeRemote { tx in
      try [
        remote("x", "local x", version: 2, deleted: true),  // deleted elsewhere after x's create landed
        remote("y", "local y", version: 1),  // the echo of y's own create
        remote("w", "remote w", version: 2), remote("w", "remote w older", version: 1),
      ].map { "\(try engine.reconcile(Post.self, $0, decoded: nil, outboxHoldsModel: true, tx))" }
    }
    #expect(skipped == ["skipped", "skipped", "skipped", "skipped"])
    /// What the answer of `entry`'s mutation stores (version 1), then the replay, as the drain does.
    func finish(_ identifier: String, first: Bool = true) async throws {
      try await store.writeRemote { tx in
        let entries = try Outbox.all(tx.connection).filter { $0.identifier == identifier }
        let entry = try #require(first ? entries.first : entries.last)
        try Outbox.remove(entry.sequence, tx.connection)
        try Outbox.setMetadata(
          "Post", identifier, SyncMetadata(version: 1, lastChangedAt: 5, deleted: false), tx.connection)
        try engine.replayParked(entry, tx)
      }
    }
    try await finish("\"x\"")
    try await finish("\"y\"")
    try await finish("\"w\"")  // the in-flight create; the second save is still pending
    #expect(try await localPosts(store) == ["y": "local y|-", "w": "local w again|-"])
    #expect(
      try await store.syncMetadata(Post.self, byIdentifier: .init(id: "x"))
        == SyncMetadata(
          version: 2, lastChangedAt: 12, deleted: true))
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "y"))?.version == 1)
    try await finish("\"w\"", first: false)
    #expect(try await localPosts(store) == ["y": "local y|-", "w": "remote w|-"])
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "w"))?.version == 2)
    #expect(try await heldRecords(store) == [])
    #expect(try await outbox(store) == [])
  }

  /// A live event of an identifier whose mutation is out waits in memory (no write transaction of
  /// its own): the transaction that finishes the mutation drops it when it is no newer than the
  /// answer, holds and applies it when newer; one that arrives after that transaction read it is
  /// applied when the sending ends, and one arriving when nothing is out is not held.
  @Test func aLiveEventWhileItsMutationIsOutWaitsForTheFinishingTransaction() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    let engine = try #require(store.sync)
    for id in ["echo", "newer", "late"] { try await store.save(Post(id: id, title: "local \(id)")) }
    @Sendable func remote(_ id: String, _ title: String, version: Int) -> GraphQLValue {
      [
        "id": .string(id), "title": .string(title), "__typename": "Post", "_version": .int(version),
        "_lastChangedAt": .int(10 + version), "_deleted": .null,
      ]
    }
    @Sendable func key(_ id: String) -> ParkedKey { ParkedKey(modelName: "Post", identifier: "\"\(id)\"") }
    #expect(!engine.holdLiveEvent(key("echo"), version: 1, remote("echo", "not out", version: 1)))
    engine.sending.withLock { $0.keys.formUnion([key("echo"), key("newer"), key("late")]) }
    #expect(engine.holdLiveEvent(key("echo"), version: 1, remote("echo", "the echo", version: 1)))
    #expect(engine.holdLiveEvent(key("newer"), version: 3, remote("newer", "remote newer", version: 3)))
    // An older event of one identifier never replaces a newer one held.
    #expect(engine.holdLiveEvent(key("newer"), version: 2, remote("newer", "remote older", version: 2)))
    let answered = SyncMetadata(version: 1, lastChangedAt: 5, deleted: false)
    /// What the drain's finishing transaction does with the answer (version 1) of `id`.
    func finish(_ id: String) async throws -> Int? {
      try await store.writeRemote { tx in
        let entry = try #require(try Outbox.all(tx.connection).first { $0.identifier == "\"\(id)\"" })
        try Outbox.remove(entry.sequence, tx.connection)
        try Outbox.setMetadata("Post", entry.identifier, answered, tx.connection)
        let consumed = try engine.parkHeldEvent(key(id), stored: answered, tx)
        try engine.replayParked(entry, tx, known: (pending: false, stored: answered))
        return consumed
      }
    }
    let echo = try await finish("echo")
    await engine.endSending(Post.self, key("echo"), consumed: echo, store)
    let newer = try await finish("newer")
    await engine.endSending(Post.self, key("newer"), consumed: newer, store)
    let late = try await finish("late")
    // Arrives after the finishing transaction looked (it saw none), before the sending ends.
    #expect(engine.holdLiveEvent(key("late"), version: 2, remote("late", "remote late", version: 2)))
    await engine.endSending(Post.self, key("late"), consumed: late, store)
    #expect([echo, newer, late] == [1, 3, nil])
    #expect(
      try await localPosts(store) == ["echo": "local echo|-", "newer": "remote newer|-", "late": "remote late|-"])
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "echo"))?.version == 1)
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "newer"))?.version == 3)
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "late"))?.version == 2)
    #expect(try await heldRecords(store) == [])
    #expect(engine.sending.withLock { $0.keys.isEmpty && $0.held.isEmpty })
    #expect(try await outbox(store) == [])
  }

  /// The held records of `store`'s sync metadata: `model identifier version title`.
  func heldRecords(_ store: DataStore) async throws -> [String] {
    try await store.read { tx in
      let statement = try tx.connection.prepare(
        "SELECT model, identifier, version, record FROM \(quote(Outbox.parkedTable)) ORDER BY model, identifier")
      defer { statement.reset() }
      var rows: [String] = []
      while try statement.step() {
        let record = try JSONDecoder().decode(GraphQLValue.self, from: Data(statement.text(3).utf8))
        guard case .object(let members) = record, case .string(let title)? = members["title"] else {
          rows.append("\(statement.text(0)) \(statement.text(1)) \(statement.int64(2)) ?")
          continue
        }
        rows.append("\(statement.text(0)) \(statement.text(1)) \(statement.int64(2)) \(title)")
      }
      return rows
    }
  }

  /// Issue 13, "nothing lost offline or under faults": a remote record held for a pending
  /// mutation is written to the sync metadata in the transaction that holds it, so it survives
  /// the store being closed; the reopened store applies it once the mutation is done, exactly once,
  /// and a held record whose mutation was merged away (create+delete) is replayed by `start()`.
  @Test func aHeldRecordSurvivesClosingTheStoreAndIsAppliedOnceAfterReopening() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    @Sendable func remote(_ id: String, _ title: String, version: Int) -> GraphQLValue {
      [
        "id": .string(id), "title": .string(title), "__typename": "Post", "_version": .int(version),
        "_lastChangedAt": .int(10 + version), "_deleted": .null,
      ]
    }
    do {
      let store = try syncStore(directory)
      let engine = try #require(store.sync)
      try await store.save(Post(id: "w", title: "local w"))
      try await store.save(Post(id: "gone", title: "local gone"))
      let outcomes = try await store.writeRemote { tx in
        try [
          remote("w", "remote w", version: 3), remote("w", "remote w older", version: 2),
          remote("gone", "remote gone", version: 4),
        ]
        .map { "\(try engine.reconcile(Post.self, $0, decoded: nil, outboxHoldsModel: true, tx))" }
      }
      #expect(outcomes == ["skipped", "skipped", "skipped"])
      // A held record is written by the transaction that holds it: one rolled back holds nothing.
      await #expect(throws: CancellationError.self) {
        try await store.writeRemote { tx in
          _ = try engine.reconcile(
            Post.self, remote("w", "rolled back", version: 9), decoded: nil,
            outboxHoldsModel: true, tx)
          throw CancellationError()
        }
      }
      #expect(try await heldRecords(store) == ["Post \"gone\" 4 remote gone", "Post \"w\" 3 remote w"])
      // create+delete of `gone` merges to nothing: its held record has no mutation left.
      try await store.delete(Post.self, byIdentifier: .init(id: "gone"))
      #expect(try await outbox(store) == ["create Post \"w\""])
    }
    // The first store is gone (its connection closed); a new one opens the same file.
    let store = try syncStore(directory)
    let engine = try #require(store.sync)
    #expect(try await heldRecords(store) == ["Post \"gone\" 4 remote gone", "Post \"w\" 3 remote w"])
    #expect(try await localPosts(store) == ["w": "local w|-"])
    // `start()` replays the held record without a mutation (the network is unreachable: port 9).
    try await store.start()
    await store.stop()
    #expect(try await heldRecords(store) == ["Post \"w\" 3 remote w"])
    #expect(try await localPosts(store) == ["w": "local w|-", "gone": "remote gone|-"])
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "gone"))?.version == 4)
    // w's create is answered at version 1 (what the drain's transaction does), then the replay.
    let events = EventLog(store)
    defer { events.stop() }
    func finish() async throws {
      try await store.writeRemote { tx in
        if let entry = try Outbox.all(tx.connection).first(where: { $0.identifier == "\"w\"" }) {
          try Outbox.remove(entry.sequence, tx.connection)
          try Outbox.setMetadata(
            "Post", "\"w\"", SyncMetadata(version: 1, lastChangedAt: 5, deleted: false), tx.connection)
        }
        try engine.replayParked(
          PendingMutation(sequence: 0, modelName: "Post", identifier: "\"w\"", kind: .create, inFlight: true), tx)
      }
    }
    try await finish()
    #expect(try await localPosts(store) == ["w": "remote w|-", "gone": "remote gone|-"])
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "w"))?.version == 3)
    #expect(try await heldRecords(store) == [])
    #expect(try await outbox(store) == [])
    // Nothing is applied twice: a second replay finds nothing held, the same record again is not newer.
    try await store.save(Post(id: "w", title: "local w after"))
    try await store.writeRemote { tx in
      try Outbox.remove(try #require(Outbox.all(tx.connection).first).sequence, tx.connection)
    }
    try await finish()
    #expect(try await localPosts(store) == ["w": "local w after|-", "gone": "remote gone|-"])
    let again = try await store.writeRemote { tx in
      "\(try engine.reconcile(Post.self, remote("w", "remote w", version: 3), decoded: nil, outboxHoldsModel: true, tx))"
    }
    #expect(again == "skipped")
    #expect(try await localPosts(store) == ["w": "local w after|-", "gone": "remote gone|-"])
    #expect(events.inboundErrors.isEmpty)
  }

  @Test func aChildArrivingBeforeItsParentIsStoredAndLoadsItOnceItArrives() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try await server.graphQL(
      "mutation C($i: CreateCommentInput!) { createComment(input: $i) { id } }",
      ["i": ["id": "orphan", "postID": "later", "content": "first!"]])
    let store = try device(server, directory, "d")
    try await startAndSync(store)
    let comment = try #require(try await store.query(Comment.self, byIdentifier: .init(id: "orphan")))
    #expect(try await comment.post == nil)
    try await server.createPost("later", "the parent")
    #expect(try await eventuallyScaled { try await store.query(Post.self, byIdentifier: .init(id: "later")) != nil })
    let reloaded = try #require(try await store.query(Comment.self, byIdentifier: .init(id: "orphan")))
    #expect(try await reloaded.post?.title == "the parent")
    // A remote delete of the parent cascades like a local one, and enqueues nothing.
    try await server.deletePost("later")
    #expect(
      try await eventuallyScaled { try await store.query(Comment.self, byIdentifier: .init(id: "orphan")) == nil })
    #expect(try await store.pendingMutations().isEmpty)
    await store.stop()
  }

  @Test func selectiveSyncSendsTheExpressionToTheSyncQueryAndTheSubscriptions() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try await server.createPost("low", "low", rating: 1)
    try await server.createPost("high", "high", rating: 5)
    let store = try device(server, directory, "d") { configuration in
      configuration.syncExpressions = [SyncExpression(Post.self, where: Post.keys.rating.gt(3))]
    }
    try await startAndSync(store)
    #expect(try await localPosts(store) == ["high": "high|5"])
    try await server.createPost("low2", "low 2", rating: 2)
    try await server.createPost("high2", "high 2", rating: 9)
    #expect(try await eventuallyScaled { try await localPosts(store)["high2"] != nil })
    #expect(try await localPosts(store) == ["high": "high|5", "high2": "high 2|9"])
    let sync = try await server.requests().first { ($0["query"] as? String)?.hasPrefix("query SyncPosts") == true }
    let filter = (sync?["variables"] as? [String: Any])?["filter"] as? [String: Any]
    #expect((filter?["rating"] as? [String: Any])?["gt"] as? Int == 3)
    await store.stop()
  }

  /// Predicates AppSync's subscription filter input cannot express (`not`, a null comparison, an
  /// empty `or`), and an expression for a model that is not synced: `start()` throws
  /// `SyncExpressionError` naming the model and the part, and sends nothing.
  @Test(arguments: ["not", "isNil", "emptyOr", "unsyncedModel"])
  func aSyncExpressionASubscriptionCannotExpressIsATypedErrorAtStart(_ shape: String) async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let part: AnyQueryPredicate
    let expression: SyncExpression
    switch shape {
    case "not":
      let inner = !Post.keys.title.beginsWith("draft")
      part = inner.untyped
      expression = SyncExpression(Post.self, where: Post.keys.rating.gt(3) && inner)
    case "isNil":
      let inner = Post.keys.rating.isNil()
      part = inner.untyped
      expression = SyncExpression(Post.self, where: Post.keys.title.eq("a") || inner)
    case "emptyOr":
      let inner = QueryPredicate<Post>.or([])
      part = inner.untyped
      expression = SyncExpression(Post.self, where: .and([Post.keys.rating.gt(3), inner]))
    default:
      // A model of another module, not in this store's registry (`SyncOwnerModels.Note`).
      expression = unregisteredNoteExpression()
      part = expression.predicate
    }
    let store = try device(server, directory, "d") { configuration in
      configuration.syncExpressions = [SyncExpression(Comment.self, where: Comment.keys.content.ne("x")), expression]
    }
    let failure = await #expect(throws: SyncExpressionError.self) { try await store.start() }
    #expect(failure?.modelName == (shape == "unsyncedModel" ? "Note" : "Post"))
    #expect(failure?.predicate == expression.predicate)
    #expect(failure?.unsupported == part)
    #expect(
      failure?.reason.contains(shape == "unsyncedModel" ? "no synced model" : "ModelSubscriptionPostFilterInput")
        == true)
    // Nothing started: no request, and a save stays in the outbox.
    try await store.save(Post(id: "p", title: "kept"))
    try await Task.sleep(for: .milliseconds(300))
    #expect(try await server.requests().isEmpty)
    #expect(try await outbox(store) == ["create Post \"p\""])
    #expect(!store.isSynced)
  }

  @Test func tenThousandRecordsArriveInPagesOfTheConfiguredSize() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try await server.seed("Post", (0..<10_000).map { ["id": String(format: "bulk%05d", $0), "title": "bulk \($0)"] })
    // A page of 2,500 may take the server far longer than 5 s on a loaded machine: a timed-out
    // page restarts the sync and the page counts below would not hold.
    let store = try device(server, directory, "d", timeout: 60 * syncDeadlineScale) { $0.syncPageSize = 2_500 }
    let log = EventLog(store)
    defer { log.stop() }
    // About 5 s at low load (the local server's graphql-core answers ~0.9 s per 2,500-record
    // page); the machine this runs on may be shared, hence the wide bound.
    try await startAndSync(store, seconds: 120)
    #expect(try await store.count(Post.self) == 10_000)
    #expect(try await eventuallyScaled { log.synced.count == 2 })
    #expect(log.synced.first { $0.modelName == "Post" }?.added == 10_000)
    let pages = try await server.requests().filter { ($0["query"] as? String)?.hasPrefix("query SyncPosts") == true }
    #expect(pages.count == 4)
    #expect(pages.allSatisfy { ($0["variables"] as? [String: Any])?["limit"] as? Int == 2_500 })
    await store.stop()

    // maxRecordsToSync stops the paging: a fresh device reads at most that many.
    let capped = try device(server, directory, "capped") { configuration in
      configuration.syncPageSize = 1_000
      configuration.maxRecordsToSync = 1_500
    }
    try await startAndSync(capped, seconds: 60)
    #expect(try await capped.count(Post.self) == 1_500)
    await capped.stop()
  }

  @Test func theServerGoingAwayMidSyncLeavesWholePagesAndTheSyncResumes() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try await server.seed("Post", (0..<1_000).map { ["id": String(format: "page%05d", $0), "title": "page \($0)"] })
    let store = try device(server, directory, "d") { $0.syncPageSize = 50 }
    let log = EventLog(store)
    defer { log.stop() }
    try await store.start()
    // Kill the server once the first pages are in (20 pages in all).
    #expect(try await eventuallyScaled(60) { try await store.count(Post.self) > 0 })
    await server.kill9AndWait()
    let stored = try await store.count(Post.self)
    #expect(stored < 1_000 && stored % 50 == 0)  // only whole pages were committed
    #expect(try await store.read { tx in try Outbox.lastSync("Post", tx.connection) } == nil)
    #expect(
      try await eventuallyScaled { log.events.contains { if case .networkStatus(false) = $0 { true } else { false } } })
    try await server.restart()
    #expect(try await eventuallyScaled(120) { store.isSynced })
    #expect(try await store.count(Post.self) == 1_000)
    #expect(try await store.read { tx in try Outbox.lastSync("Post", tx.connection) } != nil)
    await store.stop()
  }

  @Test func aReconnectRunsADeltaSyncThatCoversTheGap() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // The first reconnect attempt comes 2.5–5 s (jittered) after the connection drops, so the
    // change below is made before the subscriptions are back.
    let store = try device(server, directory, "d", reconnectDelay: 5 * syncDeadlineScale)
    let log = EventLog(store)
    defer { log.stop() }
    try await startAndSync(store)
    // The server goes away; a change made meanwhile (seeded: no subscription event) arrives by
    // the delta sync that follows the reconnection.
    await server.kill9AndWait()
    try await server.restart()
    try await server.seed("Post", [["id": "gap", "title": "made during the gap"]])
    #expect(try await eventuallyScaled(40) { try await store.query(Post.self, byIdentifier: .init(id: "gap")) != nil })
    #expect(
      try await eventuallyScaled { log.synced.contains { $0.modelName == "Post" && $0.isDeltaSync && $0.added == 1 } })
    await store.stop()
  }

  @Test func offlineEditsOnBothDevicesConvergeToTheServersState() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try await server.createPost("shared", "v1", rating: 1)
    try await server.createPost("doomed", "to delete")
    let a = try device(server, directory, "a")
    let b = try device(server, directory, "b")
    try await startAndSync(a)
    try await startAndSync(b)
    await server.kill9AndWait()
    try await a.save(Post(id: "shared", title: "title from A", rating: 1))
    try await a.save(Post(id: "fromA", title: "created offline on A"))
    try await b.save(Post(id: "shared", title: "v1", rating: 9))
    try await b.delete(Post.self, byIdentifier: .init(id: "doomed"))
    try await b.save(Post(id: "fromB", title: "created offline on B"))
    try await server.restart()
    #expect(
      try await eventuallyScaled {
        let expected = try await serverPosts(server)
        let pendingA = try await a.pendingMutations()
        let pendingB = try await b.pendingMutations()
        let drained = pendingA.isEmpty && pendingB.isEmpty
        let localA = try await localPosts(a)
        let localB = try await localPosts(b)
        return drained && localA == expected && localB == expected
      })
    let final = try await serverPosts(server)
    #expect(Set(final.keys) == ["shared", "fromA", "fromB"])
    // Automerge keeps the stored scalar of a conflicting update: whichever device's update
    // reached the server first wins both fields.
    #expect(["title from A|1", "v1|9"].contains(final["shared"] ?? ""))
    await a.stop()
    await b.stop()
  }

  @Test(arguments: [11, 12])
  func randomEditsDisconnectsAndRestartsConverge(seed: UInt64) async throws {
    var random = SeededRandom(seed: seed)
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let devices = [try device(server, directory, "a"), try device(server, directory, "b")]
    for store in devices { try await startAndSync(store) }
    var created = 0
    var createdIDs: Set<String> = []
    var deletedIDs: Set<String> = []
    for round in 0..<4 {
      let offline = random.next() % 2 == 0
      if offline { await server.kill9AndWait() }
      for _ in 0..<8 {
        let store = devices[Int(random.next() % 2)]
        let existing = try await store.query(Post.self).map(\.id).sorted()
        switch random.next() % 4 {
        case 0 where !existing.isEmpty:
          let id = existing[Int(random.next() % UInt64(existing.count))]
          deletedIDs.insert(id)
          try await store.delete(Post.self, byIdentifier: .init(id: id))
        case 1 where !existing.isEmpty, 2 where !existing.isEmpty:
          let id = existing[Int(random.next() % UInt64(existing.count))]
          try await store.save(Post(id: id, title: "r\(round) \(random.next() % 100)", rating: Int(random.next() % 10)))
        default:
          created += 1
          createdIDs.insert("n\(seed)-\(created)")
          try await store.save(Post(id: "n\(seed)-\(created)", title: "new \(created)"))
        }
      }
      if offline {
        try await server.restart()
      } else if random.next() % 2 == 0 {
        // A device restarts (stop, then start: its outbox resumes and a delta sync follows).
        let store = devices[Int(random.next() % 2)]
        await store.stop()
        try await store.start()
      }
    }
    let converged = try await eventuallyScaled(40) {
      let expected = try await serverPosts(server)
      for store in devices {
        guard try await store.pendingMutations().isEmpty, try await localPosts(store) == expected else { return false }
      }
      return true
    }
    #expect(converged)
    if !converged {
      Issue.record(
        "server \(try await serverPosts(server)) a \(try await localPosts(devices[0])) b \(try await localPosts(devices[1]))"
      )
    }
    // No lost write: every post created and never deleted is on the server, and nothing else (a
    // delete that lost a conflict to a concurrent update keeps the post).
    let onServer = Set(try await serverPosts(server).keys)
    #expect(createdIDs.subtracting(deletedIDs).isSubset(of: onServer) && onServer.isSubset(of: createdIDs))
    for store in devices { await store.stop() }
  }
}

/// SplitMix64: a small seeded generator, so each run of the randomized test is the same.
struct SeededRandom {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("Sync: the README's two-device example")
struct SyncReadmeExampleTests {
  @Test(.timeLimit(.minutes(2))) func twoDevices() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // README "Sync": the two-device example, verbatim from here to the end marker.
    let phone = try DataStore(
      fileURL: directory.appendingPathComponent("phone.sqlite"), registry: Models.registry,
      sync: SyncConfiguration(client: server.client))
    let laptop = try DataStore(
      fileURL: directory.appendingPathComponent("laptop.sqlite"), registry: Models.registry,
      sync: SyncConfiguration(client: server.client))
    try await phone.start()
    try await laptop.start()
    let snapshots = laptop.observeQuery(Post.self)
    try await phone.save(Post(id: "hello", title: "written on the phone"))
    var titles: [String] = []
    for try await snapshot in snapshots where snapshot.isSynced && !snapshot.items.isEmpty {
      titles = snapshot.items.map(\.title)  // ["written on the phone"]
      break
    }
    // End of the README example.
    #expect(titles == ["written on the phone"])
    await phone.stop()
    await laptop.stop()
  }

  @Test func theReadmeQuotesTheExampleVerbatim() throws {
    let root = SyncServer.packageRoot
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(
      contentsOf: root.appendingPathComponent("Tests/LazyModelSyncTests/InboundTests.swift"), encoding: .utf8)
    let afterIntro = try #require(readme.range(of: "Two devices (the test `SyncReadmeExampleTests.twoDevices`"))
    let open = try #require(readme.range(of: "```swift\n", range: afterIntro.upperBound..<readme.endIndex))
    let close = try #require(readme.range(of: "\n```", range: open.upperBound..<readme.endIndex))
    let quoted = String(readme[open.upperBound..<close.lowerBound])
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.contains("the two-device example, verbatim") })
    let end = try #require(lines.firstIndex { $0.contains("// End of the README example.") })
    let example = lines[(start + 1)..<end].map { String($0.dropFirst(min(4, $0.count))) }.joined(separator: "\n")
    #expect(quoted == example)
  }
}

@Suite("Sync: records decode straight from GraphQLValue as JSONDecoder decodes their JSON")
struct GraphQLValueDecoderTests {
  /// A decoding error's kind and coding path (the texts differ between decoders).
  struct Failure: Error, Equatable { var kind: String }
  /// `JSONDecoder`'s answer for `record`'s JSON: the value, or the kind of error.
  private func viaJSON<T: Decodable>(_ type: T.Type, _ record: GraphQLValue) -> Result<T, Failure> {
    do {
      return .success(try JSONDecoder().decode(T.self, from: JSONEncoder().encode(record)))
    } catch let error as DecodingError {
      return .failure(Failure(kind: Self.kind(error)))
    } catch {
      return .failure(Failure(kind: "\(error)"))
    }
  }

  private func direct<T: Decodable>(_ type: T.Type, _ record: GraphQLValue) -> Result<T, Failure> {
    do {
      return .success(try GraphQLValueDecoder.decode(T.self, from: record))
    } catch let error as DecodingError {
      return .failure(Failure(kind: Self.kind(error)))
    } catch {
      return .failure(Failure(kind: "\(error)"))
    }
  }

  private static func kind(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case .typeMismatch(_, let context): return "typeMismatch at \(path(context))"
    case .valueNotFound(_, let context): return "valueNotFound at \(path(context))"
    case .keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) at \(path(context))"
    // `JSONDecoder` reports a number that does not fit with an empty coding path; the direct
    // decoder names the member (pinned below), so only the kind is compared.
    case .dataCorrupted: return "dataCorrupted"
    @unknown default: return "\(error)"
    }
  }

  /// What a decoded post holds (its stored fields).
  private func fields(_ post: Result<Post, Failure>) -> Result<String, Failure> {
    post.map {
      "\($0.id)|\($0.title)|\(String(describing: $0.rating))|\(String(describing: $0.tags))|\(String(describing: $0.createdAt))|\(String(describing: $0.updatedAt))"
    }
  }

  @Test func modelsDecodeAsJSONDecoderDecodesThem() throws {
    let records: [GraphQLValue] = [
      [
        "id": "p1", "title": "hello", "rating": 4, "tags": ["a", .null, "c"], "__typename": "Post",
        "createdAt": "2026-12-02T05:00:00.000Z", "updatedAt": "2026-12-02T05:00:01.250Z", "_version": 3,
      ],
      ["id": "p2", "title": "no optionals", "__typename": "Post"],
      ["id": "p3", "title": "nulls", "rating": .null, "tags": .null, "__typename": "Post"],
      ["id": "p4", "title": "integral double", "rating": .double(5), "__typename": "Post"],
      ["id": "p5", "title": "empty list", "tags": [], "createdAt": "2026-12-02T05:00:00Z", "__typename": "Post"],
      [
        "id": "p6", "title": "offset", "tags": [.null], "updatedAt": "2026-12-02T06:00:00.5+01:00",
        "__typename": "Post",
      ],
    ]
    for record in records {
      let expected = fields(viaJSON(Post.self, record))
      #expect(fields(direct(Post.self, record)) == expected)
      #expect((try? expected.get()) != nil)
    }
    let post = try GraphQLValueDecoder.decode(Post.self, from: records[0])
    #expect(post.id == "p1" && post.title == "hello" && post.rating == 4 && post.tags == ["a", nil, "c"])
    let comment: GraphQLValue = [
      "id": "c1", "content": "first", "postID": "p1", "__typename": "Comment",
      "post": ["__typename": "Post", "id": "p1"],
    ]
    func commentFields(_ comment: Result<SyncBlogModels.Comment, Failure>) -> Result<String, Failure> {
      comment.map { "\($0.id)|\($0.content)|\($0.identifier.canonicalString)" }
    }
    #expect(
      commentFields(direct(SyncBlogModels.Comment.self, comment))
        == commentFields(viaJSON(SyncBlogModels.Comment.self, comment)))
    #expect((try? direct(SyncBlogModels.Comment.self, comment).get()) != nil)
  }

  @Test func badRecordsFailAsJSONDecoderFailsThem() {
    let records: [GraphQLValue] = [
      ["title": "no id", "__typename": "Post"],
      ["id": "p", "title": .null, "__typename": "Post"],
      ["id": "p", "title": 5, "__typename": "Post"],
      ["id": "p", "title": "t", "rating": "high", "__typename": "Post"],
      ["id": "p", "title": "t", "rating": .double(4.5), "__typename": "Post"],
      ["id": "p", "title": "t", "tags": ["a", 1], "__typename": "Post"],
      ["id": "p", "title": "t", "tags": "a", "__typename": "Post"],
      ["id": "p", "title": "t", "tags": ["a", ["b"]], "__typename": "Post"],
      ["id": "p", "title": "t", "createdAt": "not a date", "__typename": "Post"],
      ["id": "p", "title": "t", "createdAt": "2026-13-02T05:00:00.000Z", "__typename": "Post"],
      ["id": "p", "title": "t", "updatedAt": 1_764_800_000_000, "__typename": "Post"],
      ["id": "p", "title": "t", "updatedAt": ["2026-12-02T05:00:00.000Z"], "__typename": "Post"],
      "not an object",
    ]
    for record in records {
      let expected = fields(viaJSON(Post.self, record))
      guard case .failure = expected else {
        Issue.record("JSONDecoder decoded \(record)")
        continue
      }
      #expect(fields(direct(Post.self, record)) == expected, "\(record)")
    }
  }

  @Test func aNumberThatDoesNotFitNamesItsMember() {
    let record: GraphQLValue = ["id": "p", "title": "t", "rating": .double(4.5), "__typename": "Post"]
    #expect(throws: DecodingError.self) { try GraphQLValueDecoder.decode(Post.self, from: record) }
    do {
      _ = try GraphQLValueDecoder.decode(Post.self, from: record)
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["rating"])
      #expect(context.debugDescription == "Number 4.5 does not fit in Int.")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func scalarsFollowJSONDecoderNumberRules() {
    #expect(direct(Int.self, .double(3)) == viaJSON(Int.self, .double(3)))
    #expect(direct(Int8.self, .int(300)) == viaJSON(Int8.self, .int(300)))
    #expect(direct(Double.self, .int(7)) == viaJSON(Double.self, .int(7)))
    #expect(direct(Bool.self, .int(1)) == viaJSON(Bool.self, .int(1)))
    #expect(direct(String?.self, .null) == viaJSON(String?.self, .null))
    #expect(direct([Int?].self, [1, .null, 3]) == viaJSON([Int?].self, [1, .null, 3]))
    #expect(direct([String: Int].self, ["a": 1]) == viaJSON([String: Int].self, ["a": 1]))
  }
}
