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
    #expect(try await eventually { try await store.pendingMutations().isEmpty })
    let remote = try #require(try await server.post("p1"))
    #expect(remote["title"] as? String == "offline, edited" && remote["_version"] as? Int == 1)
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.version == 1)
    #expect(try await store.syncMetadata(Comment.self, byIdentifier: .init(id: "c1"))?.version == 1)
    // One create per record (create+update merged), parent first.
    let mutations = try await server.requests().compactMap { $0["query"] as? String }.filter { $0.hasPrefix("mutation") }
    #expect(mutations.map { $0.prefix(20) } == ["mutation CreatePost(", "mutation CreateComme"])

    // An update carries the local _version; the answer's version becomes the metadata.
    try await store.save(Post(id: "p1", title: "online"))
    #expect(try await eventually { try await store.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.version == 2 })
    let last = try #require(try await server.requests().last)
    let input = (last["variables"] as? [String: Any])?["input"] as? [String: Any]
    #expect(input?["_version"] as? Int == 1 && input?["title"] as? String == "online")
    try await store.delete(Post.self, byIdentifier: .init(id: "p1"))
    #expect(try await eventually { try await server.post("p1")?["_deleted"] as? Bool == true })
    #expect(try await eventually { try await store.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.deleted == true })
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
    #expect(try await eventually { try await store.pendingMutations().isEmpty })
    await store.stop()
    // Another device changes the title (version 2) while this one edits offline from version 1.
    _ = try await server.graphQL(
      "mutation U($i: UpdatePostInput!) { updatePost(input: $i) { id } }",
      ["i": ["id": "m", "title": "B", "_version": 1]])
    try await store.save(Post(id: "m", title: "C", rating: 5, tags: ["y"]))
    try await store.start()
    #expect(try await eventually { try await store.syncMetadata(Post.self, byIdentifier: .init(id: "m"))?.version == 3 })
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
    #expect(try await eventually { try await store.pendingMutations().isEmpty })
    await store.stop()
    _ = try await server.graphQL(
      "mutation U($i: UpdatePostInput!) { updatePost(input: $i) { id } }",
      ["i": ["id": "o", "title": "remote", "_version": 1]])
    try await store.save(Post(id: "o", title: "local"))
    try await store.start()
    #expect(try await eventually { try await store.pendingMutations().isEmpty })
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
    #expect(try await eventually { try await store.pendingMutations().isEmpty })
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
    #expect(try await eventually { try await store.pendingMutations().isEmpty })
    #expect(errors.values.map(\.identifier) == ["\"dup\""])
    if case .graphQL(_, let graphQLErrors, _, _)? = errors.values.first?.underlying as? APIError {
      #expect(graphQLErrors.first?.errorType == "DynamoDB:ConditionalCheckFailedException")
    } else {
      Issue.record("expected a GraphQL error, got \(String(describing: errors.values.first?.underlying))")
    }
    #expect(try await store.query(Post.self, byIdentifier: .init(id: "dup"))?.title == "server's")
    #expect(try await server.post("next")?["title"] as? String == "after")  // the outbox went on
    await store.stop()
  }
}
