import Foundation
import LazyModel
import LazyModelAPI
import SyncBlogModels
import Testing

@testable import LazyModelDataStore

/// A store file in a fresh temporary directory, synced to `endpoint` (nothing is sent before `start()`).
func syncStore(
  _ directory: URL, endpoint: URL = URL(string: "http://127.0.0.1:9/graphql")!,
  configure: (inout SyncConfiguration) -> Void = { _ in }
) throws -> DataStore {
  var configuration = SyncConfiguration(
    client: APIClient(configuration: .init(endpoint: endpoint, timeout: syncRequestTimeout)))
  configure(&configuration)
  return try DataStore(
    fileURL: directory.appendingPathComponent("store.sqlite"), registry: Models.registry, sync: configuration)
}

func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("lazymodelsync-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// `(model, identifier, kind)` of every pending mutation.
func outbox(_ store: DataStore) async throws -> [String] {
  try await store.pendingMutations().map { "\($0.kind.rawValue) \($0.modelName) \($0.identifier)" }
}

/// Marks `id` as known to the server at `version` (what a processed mutation leaves behind).
func markSynced(_ store: DataStore, _ model: String, _ id: String, version: Int) async throws {
  try await store.write { tx in
    tx.appliesRemote = true
    try Outbox.setMetadata(
      model, "\"\(id)\"", SyncMetadata(version: version, lastChangedAt: 1, deleted: false), tx.connection)
  }
}

@Suite("Sync: the outbox (real SQLite files)")
struct OutboxTests {
  @Test func createThenUpdateIsOneCreateAndCreateThenDeleteIsNothing() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    let events = store.syncEvents
    try await store.save(Post(id: "a", title: "one"))
    try await store.save(Post(id: "a", title: "two"))
    #expect(try await outbox(store) == ["create Post \"a\""])
    try await store.save(Post(id: "b", title: "gone"))
    try await store.delete(Post.self, byIdentifier: .init(id: "b"))
    #expect(try await outbox(store) == ["create Post \"a\""])
    var iterator = events.makeAsyncIterator()
    var kinds: [String] = []
    for _ in 0..<4 {
      guard case .outboxMutationEnqueued(let model, let identifier, let kind)? = await iterator.next() else { break }
      kinds.append("\(model) \(identifier) \(kind?.rawValue ?? "nothing")")
    }
    #expect(kinds == ["Post \"a\" create", "Post \"a\" create", "Post \"b\" create", "Post \"b\" nothing"])
  }

  @Test func updateThenUpdateIsOneUpdateAndUpdateThenDeleteIsADelete() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    try await store.write { tx in
      tx.appliesRemote = true  // as if it came from the server
      try tx.save(Post(id: "s", title: "synced"))
      try tx.save(Post(id: "t", title: "synced"))
    }
    try await markSynced(store, "Post", "s", version: 3)
    try await markSynced(store, "Post", "t", version: 1)
    #expect(try await outbox(store) == [])
    try await store.save(Post(id: "s", title: "edit 1"))
    try await store.save(Post(id: "s", title: "edit 2", rating: 4))
    #expect(try await outbox(store) == ["update Post \"s\""])
    try await store.save(Post(id: "t", title: "edit"))
    try await store.delete(Post.self, byIdentifier: .init(id: "t"))
    #expect(try await outbox(store) == ["update Post \"s\"", "delete Post \"t\""])
    #expect(
      try await store.syncMetadata(Post.self, byIdentifier: .init(id: "s"))
        == SyncMetadata(version: 3, lastChangedAt: 1, deleted: false))
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "nope")) == nil)
  }

  @Test func everySaveInsideWriteAndEveryCascadedDeleteIsEnqueuedInOrder() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    let post = Post(id: "p", title: "parent")
    try await store.write { tx in
      tx.appliesRemote = true
      try tx.save(post)
      try tx.save(Comment(id: "c1", content: "one", post: post))
      try tx.save(Comment(id: "c2", content: "two", post: post))
    }
    for (model, id) in [("Post", "p"), ("Comment", "c1"), ("Comment", "c2")] {
      try await markSynced(store, model, id, version: 1)
    }
    try await store.write { tx in
      try tx.save(Post(id: "q", title: "new"))
      try tx.save(Comment(id: "c3", content: "three", post: Post(id: "q", title: "new")))
      try tx.delete(Post.self, byIdentifier: .init(id: "p"))  // cascades to c1 and c2
    }
    let pending = try await outbox(store)
    #expect(pending.prefix(2) == ["create Post \"q\"", "create Comment \"c3\""])
    #expect(Set(pending.dropFirst(2)) == ["delete Post \"p\"", "delete Comment \"c1\"", "delete Comment \"c2\""])
    #expect(pending.count == 5)
  }

  /// The hooks collect model rows only: the outbox, metadata and models rows a write adds (a base
  /// sync writes one metadata row per record) are neither copied nor reported.
  @Test func theHooksCollectModelRowsAndNoneOfTheSyncTables() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    let tables = try await store.write { tx -> [String] in
      try tx.save(Post(id: "p", title: "parent"))
      try tx.save(Comment(id: "c", content: "child", post: Post(id: "p", title: "parent")))
      try Outbox.setMetadata(
        "Post", "\"p\"", SyncMetadata(version: 3, lastChangedAt: 7, deleted: false), tx.connection)
      try Outbox.setLastSync("Post", 7, tx.connection)
      return (tx.connection.changes?.current ?? []).map(\.table)
    }
    #expect(tables == ["Post", "Comment"])
    // Both rows were still enqueued (the outbox reads the collected model rows; the metadata
    // written in the same transaction makes the post's an update).
    #expect(try await outbox(store) == ["update Post \"p\"", "create Comment \"c\""])
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "p"))?.version == 3)
  }

  /// Sync queries, subscriptions and the engine's `get` select a `@belongsTo` by its FK fields
  /// alone (the service resolves no parent per record), and the record's reference is rebuilt
  /// from them; so do its own mutations (AppSync may redact a relationship field in a mutation
  /// response, never the FK fields).
  @Test func syncDocumentsSelectAReferenceByItsForeignKeysAndTheReferenceIsRebuilt() throws {
    // (`postID` twice: `ModelDocument` selects the FK fields, and the inbound selection adds them
    // again; GraphQL merges the two.)
    let selection = "{ id content postID createdAt updatedAt __typename _version _deleted _lastChangedAt postID }"
    let query = try SyncEngine.syncQuery(Comment.schema, filter: nil, limit: 10, nextToken: nil, lastSync: nil)
    #expect(query.document.contains("items \(selection) nextToken startedAt"))
    let get = try SyncEngine.getQuery(Comment.schema, [IdentifierComponent(name: "id", value: .string("c"))])
    #expect(get.document.hasSuffix("getComment(id: $id) \(selection) }"))
    let create = try SyncEngine.mutation(.create, Comment.schema, input: ["id": "c"])
    #expect(create.document.hasSuffix("createComment(input: $input) \(selection) }"))
    let record = GraphQLValue.object([
      "id": .string("c"), "postID": .string("p"), "content": .string("x"), "__typename": .string("Comment"),
      "_version": .int(1), "_lastChangedAt": .int(5), "_deleted": .null,
    ])
    let comment = try SyncEngine.decode(Comment.self, SyncEngine.withReferenceKeys(record, Comment.schema))
    #expect(comment.postReference.identifiers == [IdentifierComponent(name: "id", value: .string("p"))])
  }

  @Test func aThrowingWriteEnqueuesNothingAndTheOutboxSurvivesAReopen() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    struct Abort: Error {}
    do {
      let store = try syncStore(directory)
      try await store.save(Post(id: "kept", title: "k"))
      await #expect(throws: Abort.self) {
        try await store.write { tx in
          try tx.save(Post(id: "rolled-back", title: "r"))
          throw Abort()
        }
      }
      _ = try await store.write { tx in try tx.save(Post(id: "also-kept", title: "a")) }
      let pending = try await outbox(store)
      #expect(pending == ["create Post \"kept\"", "create Post \"also-kept\""], "\(pending)")
    }
    let reopened = try syncStore(directory)
    #expect(try await outbox(reopened) == ["create Post \"kept\"", "create Post \"also-kept\""])
    #expect(try await reopened.query(Post.self).map(\.id).sorted() == ["also-kept", "kept"])
  }

  @Test func clearDeletesSyncedRowsMetadataAndOutboxAndEnqueuesNothing() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory)
    let post = Post(id: "p", title: "t")
    try await store.save(post)
    try await store.save(Comment(id: "c", content: "x", post: post))
    try await markSynced(store, "Post", "p", version: 2)
    try await store.clear()
    #expect(try await outbox(store) == [])
    #expect(try await store.count(Post.self) == 0)
    #expect(try await store.count(Comment.self) == 0)
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "p")) == nil)
    try await store.save(Post(id: "after", title: "a"))  // the store goes on: a new create
    #expect(try await outbox(store) == ["create Post \"after\""])
  }

  @Test func aStoreWithoutSyncHasNoOutbox() async throws {
    let store = try DataStore.inMemory(registry: Models.registry)
    try await store.save(Post(id: "x", title: "plain"))
    await #expect(throws: DataStoreError.self) { try await store.pendingMutations() }
    await #expect(throws: DataStoreError.self) { try await store.start() }
  }
}
