import Foundation
import LazyModel
import LazyModelAPI
import SyncBlogModels
import Testing

@testable import LazyModelDataStore

/// Waits (suspending, never blocking) until `condition` holds, up to `seconds`.
func eventually(_ seconds: Double = 15, _ condition: () async throws -> Bool) async throws -> Bool {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try await Task.sleep(for: .milliseconds(50))
  }
  return try await condition()
}

/// Records what a handler was called with.
final class Recorder<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Value] = []
  func append(_ value: Value) { lock.withLock { storage.append(value) } }
  var values: [Value] { lock.withLock { storage } }
}

@Suite("Sync: the outbound processor against the local server", .serialized)
struct OutboundTests {
  @Test func offlineSavesDrainInOrderWithVersions() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory, endpoint: server.endpoint)
    let post = Post(id: "p1", title: "offline")
    try await store.save(post)
    try await store.save(Comment(id: "c1", content: "first", post: post))
    try await store.save(Post(id: "p1", title: "offline, edited", tags: ["a"]))
    try await store.start()
    try await store.start()  // idempotent
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    let remote = try #require(try await server.post("p1"))
    #expect(remote["title"] as? String == "offline, edited" && remote["_version"] as? Int == 1)
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.version == 1)
    #expect(try await store.syncMetadata(Comment.self, byIdentifier: .init(id: "c1"))?.version == 1)
    // One create per record (create+update merged), parent first.
    let mutations = try await server.requests().compactMap { $0["query"] as? String }.filter {
      $0.hasPrefix("mutation")
    }
    #expect(mutations.map { $0.prefix(20) } == ["mutation CreatePost(", "mutation CreateComme"])

    // An update carries the local _version; the answer's version becomes the metadata.
    try await store.save(Post(id: "p1", title: "online"))
    #expect(
      try await eventuallyScaled(15) {
        try await store.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.version == 2
      })
    // The update (not a sync query of the inbound side, or the record read after a timed-out answer).
    let last = try #require(
      try await server.requests().last { ($0["query"] as? String)?.hasPrefix("mutation UpdatePost") == true })
    let input = (last["variables"] as? [String: Any])?["input"] as? [String: Any]
    #expect(input?["_version"] as? Int == 1 && input?["title"] as? String == "online")
    try await store.delete(Post.self, byIdentifier: .init(id: "p1"))
    #expect(try await eventuallyScaled(15) { try await server.post("p1")?["_deleted"] as? Bool == true })
    #expect(
      try await eventuallyScaled(15) {
        try await store.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.deleted == true
      })
    await store.stop()
  }

  @Test func automergeAnswersUpdateTheLocalRow() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory, endpoint: server.endpoint)
    try await store.save(Post(id: "m", title: "A", tags: ["x"]))
    try await store.start()
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    await store.stop()
    // Another device changes the title (version 2) while this one edits offline from version 1.
    _ = try await server.graphQL(
      "mutation U($i: UpdatePostInput!) { updatePost(input: $i) { id } }",
      ["i": ["id": "m", "title": "B", "_version": 1]])
    try await store.save(Post(id: "m", title: "C", rating: 5, tags: ["y"]))
    try await store.start()
    #expect(
      try await eventuallyScaled(15) {
        try await store.syncMetadata(Post.self, byIdentifier: .init(id: "m"))?.version == 3
      })
    let local = try #require(try await store.query(Post.self, byIdentifier: .init(id: "m")))
    #expect(local.title == "B" && local.rating == 5 && local.tags == ["x", "y"])
    await store.stop()
  }

  @Test(arguments: ["applyRemote", "retryLocal", "retryWith"])
  func optimisticConflictsGoToTheHandler(_ answer: String) async throws {
    let server = try await SyncServer(conflictHandler: "OPTIMISTIC_CONCURRENCY")
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let conflicts = Recorder<SyncConflict>()
    let store = try syncStore(directory, endpoint: server.endpoint) { configuration in
      configuration.conflictHandler = { conflict in
        conflicts.append(conflict)
        switch answer {
        case "applyRemote": return .applyRemote
        case "retryLocal": return .retryLocal
        default: return .retry(with: Post(id: "o", title: "merged", rating: 7))
        }
      }
    }
    try await store.save(Post(id: "o", title: "A"))
    try await store.start()
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    await store.stop()
    _ = try await server.graphQL(
      "mutation U($i: UpdatePostInput!) { updatePost(input: $i) { id } }",
      ["i": ["id": "o", "title": "remote", "_version": 1]])
    try await store.save(Post(id: "o", title: "local"))
    try await store.start()
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    #expect(conflicts.values.count == 1)
    let conflict = try #require(conflicts.values.first)
    #expect(conflict.remoteVersion == 2 && conflict.remote["title"] == .string("remote") && conflict.kind == .update)
    #expect((conflict.local as? Post)?.title == "local")
    let remote = try #require(try await server.post("o"))
    let local = try #require(try await store.query(Post.self, byIdentifier: .init(id: "o")))
    switch answer {
    case "applyRemote":
      #expect(local.title == "remote" && remote["_version"] as? Int == 2)
      #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "o"))?.version == 2)
    case "retryLocal":
      #expect(remote["title"] as? String == "local" && remote["_version"] as? Int == 3 && local.title == "local")
    default:
      #expect(remote["title"] as? String == "merged" && remote["rating"] as? Int == 7 && local.title == "merged")
      #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "o"))?.version == 3)
    }
    await store.stop()
  }

  @Test func networkFailuresRetryWithoutReorderingAndTheOutboxWaitsForTheServer() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory, endpoint: server.endpoint) { configuration in
      configuration.retry = SyncRetryPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200))
    }
    let events = store.syncEvents
    server.kill9()
    try await store.save(Post(id: "r1", title: "first"))
    try await store.save(Post(id: "r2", title: "second"))
    try await store.start()
    var iterator = events.makeAsyncIterator()
    var retries = 0
    while retries < 3, let event = await iterator.next() {
      if case .retrying(_, let identifier, _, _) = event {
        #expect(identifier == "\"r1\"")  // the head stays the head
        retries += 1
      }
    }
    #expect(try await outbox(store) == ["create Post \"r1\"", "create Post \"r2\""])
    try await server.restart()
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    #expect(try await server.post("r1")?["title"] as? String == "first")
    #expect(try await server.post("r2")?["title"] as? String == "second")
    await store.stop()
  }

  @Test func aMutationThatFailsForGoodGoesToTheErrorHandlerAndTheRowIsReverted() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let errors = Recorder<SyncError>()
    let store = try syncStore(directory, endpoint: server.endpoint) { configuration in
      configuration.errorHandler = { errors.append($0) }
    }
    // The server already has "dup" (another device created it): this create fails its condition.
    _ = try await server.graphQL(
      "mutation C($i: CreatePostInput!) { createPost(input: $i) { id } }", ["i": ["id": "dup", "title": "server's"]])
    try await store.save(Post(id: "dup", title: "mine"))
    try await store.save(Post(id: "next", title: "after"))
    try await store.start()
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    #expect(errors.values.map(\.identifier) == ["\"dup\""])
    if case .graphQL(_, let graphQLErrors, _, _)? = errors.values.first?.underlying as? APIError {
      #expect(graphQLErrors.first?.errorType == "DynamoDB:ConditionalCheckFailedException")
    } else {
      Issue.record("expected a GraphQL error, got \(String(describing: errors.values.first?.underlying))")
    }
    #expect(try await store.query(Post.self, byIdentifier: .init(id: "dup"))?.title == "server's")
    // The reverted row carries the server's metadata: its next update is sent with `_version` 1.
    let serverDup = try #require(try await server.post("dup"))
    let dupMetadata = try await store.syncMetadata(Post.self, byIdentifier: .init(id: "dup"))
    #expect(
      dupMetadata
        == SyncMetadata(
          version: 1, lastChangedAt: try #require(serverDup["_lastChangedAt"] as? Int), deleted: false))
    #expect(try await server.post("next")?["title"] as? String == "after")  // the outbox went on
    try await store.save(Post(id: "dup", title: "mine, after the revert"))
    #expect(try await eventuallyScaled(15) { try await server.post("dup")?["_version"] as? Int == 2 })
    #expect(try await server.post("dup")?["title"] as? String == "mine, after the revert")
    #expect(errors.values.count == 1)
    await store.stop()
  }

  /// A create, an update and a delete, each stopped while in flight: the server applied it, but
  /// holds its answer back (`x-test-delay-after-ms`) until after `stop()`. A store reopened on the
  /// file reads the server's record, takes it as the answer, and sends nothing twice.
  @Test func aMutationInFlightAtStopIsNotAppliedTwiceAfterTheRestart() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let errors = Recorder<SyncError>()
    let conflicts = Recorder<SyncConflict>()
    func open(answerDelayed: Bool) throws -> DataStore {
      try syncStore(directory, endpoint: server.endpoint) { configuration in
        var api = APIClient.Configuration(endpoint: server.endpoint, timeout: 60)
        let delay = min(60_000, Int(8_000 * syncDeadlineScale))
        if answerDelayed { api.additionalHeaders = ["x-test-delay-after-ms": String(delay)] }
        configuration.client = APIClient(configuration: api)
        configuration.errorHandler = { errors.append($0) }
        configuration.conflictHandler = { conflict in
          conflicts.append(conflict)
          return .applyRemote
        }
      }
    }
    func mutations() async throws -> [String] {
      try await server.requests().compactMap { $0["query"] as? String }.filter { $0.hasPrefix("mutation") }
        .map { String($0.prefix(while: { $0 != "(" })) }
    }
    /// `change` on a store whose answers are held back; `stop()` once `applied` holds on the server.
    func stopInFlight(
      _ kind: SyncMutationKind, _ change: (DataStore) async throws -> Void, applied: () async throws -> Bool
    ) async throws {
      let slow = try open(answerDelayed: true)
      try await change(slow)
      try await slow.start()
      #expect(try await eventuallyScaled(10, applied), "the \(kind) reached the server")
      await slow.stop()
      #expect(try await slow.pendingMutations().map(\.kind) == [kind], "the answer never arrived")
      let reopened = try open(answerDelayed: false)
      try await reopened.start()
      #expect(try await eventuallyScaled { try await reopened.pendingMutations().isEmpty })
      await reopened.stop()
    }

    try await stopInFlight(
      .create, { try await $0.save(Post(id: "f", title: "first", tags: ["a"])) },
      applied: { try await server.post("f") != nil })
    var remote = try #require(try await server.post("f"))
    #expect(remote["_version"] as? Int == 1 && remote["title"] as? String == "first")
    #expect(try await mutations() == ["mutation CreatePost"])

    try await stopInFlight(
      .update, { try await $0.save(Post(id: "f", title: "second", tags: ["a", "b"])) },
      applied: { try await server.post("f")?["_version"] as? Int == 2 })
    remote = try #require(try await server.post("f"))
    // A second update would have met version 2 and been merged: version 3, tags a, b, a, b.
    #expect(remote["_version"] as? Int == 2 && remote["tags"] as? [String] == ["a", "b"])
    #expect(try await mutations() == ["mutation CreatePost", "mutation UpdatePost"])
    let local = try open(answerDelayed: false)
    #expect(try await local.query(Post.self, byIdentifier: .init(id: "f"))?.tags == ["a", "b"])
    #expect(try await local.syncMetadata(Post.self, byIdentifier: .init(id: "f"))?.version == 2)

    try await stopInFlight(
      .delete, { try await $0.delete(Post.self, byIdentifier: .init(id: "f")) },
      applied: { try await server.post("f")?["_deleted"] as? Bool == true })
    remote = try #require(try await server.post("f"))
    #expect(remote["_version"] as? Int == 3 && remote["_deleted"] as? Bool == true)
    #expect(try await mutations() == ["mutation CreatePost", "mutation UpdatePost", "mutation DeletePost"])
    #expect(try await local.query(Post.self, byIdentifier: .init(id: "f")) == nil)
    #expect(
      try await local.syncMetadata(Post.self, byIdentifier: .init(id: "f"))
        == SyncMetadata(version: 3, lastChangedAt: try #require(remote["_lastChangedAt"] as? Int), deleted: true))
    #expect(errors.values.isEmpty && conflicts.values.isEmpty)
  }

  /// A row saved again after a restart, while its earlier mutation's answer is unknown: the earlier
  /// one was applied, so the merged change goes out as an update at the server's version.
  @Test func aSaveMergedIntoAnUnansweredCreateIsSentAsAnUpdate() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let errors = Recorder<SyncError>()
    func open(answerDelayed: Bool) throws -> DataStore {
      try syncStore(directory, endpoint: server.endpoint) { configuration in
        var api = APIClient.Configuration(endpoint: server.endpoint, timeout: 60)
        if answerDelayed { api.additionalHeaders = ["x-test-delay-after-ms": "60000"] }
        configuration.client = APIClient(configuration: api)
        configuration.errorHandler = { errors.append($0) }
      }
    }
    let slow = try open(answerDelayed: true)
    try await slow.save(Post(id: "g", title: "first"))
    try await slow.start()
    #expect(try await eventuallyScaled(10) { try await server.post("g") != nil })
    await slow.stop()
    let reopened = try open(answerDelayed: false)
    try await reopened.save(Post(id: "g", title: "second"))  // merges into the pending create
    #expect(try await outbox(reopened) == ["create Post \"g\""])
    try await reopened.start()
    #expect(try await eventuallyScaled { try await reopened.pendingMutations().isEmpty })
    let remote = try #require(try await server.post("g"))
    #expect(remote["_version"] as? Int == 2 && remote["title"] as? String == "second")
    #expect(try await reopened.syncMetadata(Post.self, byIdentifier: .init(id: "g"))?.version == 2)
    #expect(errors.values.isEmpty)
    await reopened.stop()
  }

  @Test func aRevertToAServerTombstoneIsALocalDeleteThatCascades() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let errors = Recorder<SyncError>()
    let store = try syncStore(directory, endpoint: server.endpoint) { configuration in
      configuration.errorHandler = { errors.append($0) }
    }
    // Another device created "gone" and deleted it: the server holds a tombstone at version 2.
    try await server.createPost("gone", "theirs")
    try await server.deletePost("gone")
    let tombstone = try #require(try await server.post("gone"))
    #expect(tombstone["_deleted"] as? Bool == true && tombstone["_version"] as? Int == 2)
    // Offline, this device creates a post with the same id and a comment on it.
    let mine = Post(id: "gone", title: "mine")
    try await store.save(mine)
    try await store.save(Comment(id: "gone-c", content: "on mine", post: mine))
    try await store.start()
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    // The create fails its condition (the tombstone): reverted to the tombstone, a local delete
    // cascading to the comment, whose create then has nothing to send.
    #expect(errors.values.map(\.identifier) == ["\"gone\""])
    #expect(try await store.query(Post.self, byIdentifier: .init(id: "gone")) == nil)
    #expect(try await store.query(Comment.self, byIdentifier: .init(id: "gone-c")) == nil)
    #expect(
      try await store.syncMetadata(Post.self, byIdentifier: .init(id: "gone"))
        == SyncMetadata(
          version: 2, lastChangedAt: try #require(tombstone["_lastChangedAt"] as? Int), deleted: true))
    let comments = try await server.graphQL("query { listComments { items { id } } }")
    let items = ((comments["data"] as? [String: Any])?["listComments"] as? [String: Any])?["items"] as? [Any]
    #expect(items?.count == 0)
    #expect(try await store.pendingMutations().isEmpty)
    await store.stop()
  }
}
