import Foundation
import LazyModel
import LazyModelAPI
import LazyModelDataStore
import SyncDeclaredTimestampsModels
import Testing

/// `Schemas/sync/sync-declared-timestamps.graphql` against the local server: the outbox sends a
/// declared timestamp as the caller gave it (`updatedAt`, `createdAt`, renamed `made`/`changed`,
/// and with `timestamps: null` fields that merely carry the names), an update that changed a
/// declared `createdAt` sends the new value, one that left it nil the stored one; implicit
/// timestamps are in no input. The server then holds the caller's values, and a remote record that
/// changed a declared `createdAt` changes the stored one.
@Suite("Sync: declared timestamps in the outbox's inputs", .serialized)
struct DeclaredTimestampSyncTests {
  private typealias Book = SyncDeclaredTimestampsModels.Book
  private typealias Post = SyncDeclaredTimestampsModels.Post
  private typealias Note = SyncDeclaredTimestampsModels.Note
  private typealias Memo = SyncDeclaredTimestampsModels.Memo
  private typealias Draft = SyncDeclaredTimestampsModels.Draft

  private static let y2001 = "2001-01-01T00:00:00.000Z"
  private static let y2002 = "2002-02-02T00:00:00.000Z"

  private func instant(_ text: String) throws -> Temporal.DateTime {
    try Temporal.DateTime(iso8601String: text)
  }

  /// The `input` of every mutation the server received whose operation starts with `prefix`
  /// (`mutation CreateBook`), in order.
  private func inputs(_ server: SyncServer, _ prefix: String) async throws -> [[String: Any]] {
    try await server.requests().filter { ($0["query"] as? String)?.hasPrefix(prefix + "(") == true }.compactMap {
      ($0["variables"] as? [String: Any])?["input"] as? [String: Any]
    }
  }

  @Test func theOutboxSendsDeclaredTimestampsAsTheCallerGaveThem() async throws {
    let server = try await SyncServer(generated: "sync/sync-declared-timestamps")
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try DataStore(
      fileURL: directory.appendingPathComponent("store.sqlite"),
      registry: SyncDeclaredTimestampsModels.Models.registry,
      sync: SyncConfiguration(
        client: APIClient(
          configuration: .init(
            endpoint: server.endpoint, authorization: .apiKey("sync-test-key"), timeout: syncRequestTimeout))))
    let y2001 = try instant(Self.y2001)
    let y2002 = try instant(Self.y2002)
    var book = Book(isbn: "978", title: "Dune", updatedAt: y2001)
    var post = Post(id: "p1", title: "first", createdAt: y2001)
    var note = Note(id: "n1", text: "a", made: y2001, changed: y2001)
    var memo = Memo(id: "m1", text: "a", made: y2001)
    try await store.save(book)
    try await store.save(post)
    try await store.save(note)
    try await store.save(memo)
    try await store.save(Draft(id: "d1", text: "a", createdAt: y2001, updatedAt: y2002))
    try await store.start()
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })

    let createBook = try #require(try await inputs(server, "mutation CreateBook").first)
    #expect(createBook["updatedAt"] as? String == Self.y2001, "the given updatedAt, not the save's instant")
    #expect(createBook["createdAt"] == nil, "the implicit createdAt is the service's")
    let createPost = try #require(try await inputs(server, "mutation CreatePost").first)
    #expect(createPost["createdAt"] as? String == Self.y2001)
    #expect(createPost["updatedAt"] == nil)
    let createNote = try #require(try await inputs(server, "mutation CreateNote").first)
    #expect(createNote["made"] as? String == Self.y2001 && createNote["changed"] as? String == Self.y2001)
    let createMemo = try #require(try await inputs(server, "mutation CreateMemo").first)
    #expect(createMemo["made"] as? String == Self.y2001)
    #expect(createMemo["changed"] == nil, "the implicit changed is the service's")
    let createDraft = try #require(try await inputs(server, "mutation CreateDraft").first)
    #expect(createDraft["createdAt"] as? String == Self.y2001 && createDraft["updatedAt"] as? String == Self.y2002)

    // Updates: a changed declared createdAt (and made) is sent; so is a changed updatedAt.
    post.createdAt = y2002
    post.title = "second"
    book.updatedAt = y2002
    note.made = y2002
    memo.made = y2002
    try await store.save(post)
    try await store.save(book)
    try await store.save(note)
    try await store.save(memo)
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    let updatePost = try #require(try await inputs(server, "mutation UpdatePost").last)
    #expect(updatePost["createdAt"] as? String == Self.y2002, "the changed createdAt, not the first one")
    #expect(updatePost["title"] as? String == "second")
    #expect(try await inputs(server, "mutation UpdateBook").last?["updatedAt"] as? String == Self.y2002)
    #expect(try await inputs(server, "mutation UpdateNote").last?["made"] as? String == Self.y2002)
    #expect(try await inputs(server, "mutation UpdateMemo").last?["made"] as? String == Self.y2002)
    let remote = try await server.graphQL(
      "query G($id: ID!, $isbn: ID!) { getPost(id: $id) { createdAt } getBook(isbn: $isbn) { updatedAt } }",
      ["id": "p1", "isbn": "978"])
    let data = remote["data"] as? [String: Any]
    #expect((data?["getPost"] as? [String: Any])?["createdAt"] as? String == Self.y2002)
    #expect((data?["getBook"] as? [String: Any])?["updatedAt"] as? String == Self.y2002)

    // An update leaving the declared createdAt nil sends the stored one (never null, never now).
    post.createdAt = nil
    post.title = "third"
    try await store.save(post)
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    let kept = try #require(try await inputs(server, "mutation UpdatePost").last)
    #expect(kept["title"] as? String == "third")
    #expect(kept["createdAt"] as? String == Self.y2002)
    let local = try #require(try await store.query(Post.self, byIdentifier: .init(id: "p1")))
    #expect(local.createdAt == y2002)

    // Another device changes the declared createdAt: the record that arrives replaces the stored one
    // (an implicit createdAt never changes on the server, a declared one may).
    let version = try #require(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "p1"))?.version)
    let y2003 = "2003-03-03T00:00:00.000Z"
    _ = try await server.graphQL(
      "mutation U($i: UpdatePostInput!) { updatePost(input: $i) { id } }",
      ["i": ["id": "p1", "createdAt": y2003, "_version": version]])
    let remoteCreatedAt = try instant(y2003)
    #expect(
      try await eventuallyScaled(15) {
        try await store.query(Post.self, byIdentifier: .init(id: "p1"))?.createdAt == remoteCreatedAt
      }, "a remote change of a declared createdAt is applied")
    await store.stop()
  }
}
