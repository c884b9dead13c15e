import Foundation
import LazyModel
import SyncFieldAuthModels
import Testing

@testable import LazyModelAPI
@testable import LazyModelDataStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 15 (s14): the sync engine follows `@model(subscriptions:)` as the generated schema now
/// carries it (`ModelSchema.subscriptionLevel`). `Note` (level `public`): mutation answers carry
/// the protected `secret` as stored, so the engine stores what the answer holds (before: it took
/// the answer's `null` for a redaction, recorded `secret` unheld and left it out of the next
/// update). `Draft` (`subscriptions: null`): the engine subscribes to none of its subscriptions,
/// quietly (before: three `inboundError` events per cycle, "the onCreate subscription of Draft is
/// disabled"), and syncs it through `syncDrafts` and the outbox.
@Suite("Sync: the subscription level from the schema, and models without subscriptions", .serialized)
struct SubscriptionLevelSyncTests {
  private func device(_ pool: OwnerPool, _ server: SyncServer, _ directory: URL, _ username: String, _ name: String)
    throws -> DataStore
  {
    let token = pool.token(username)
    var api = APIClient.Configuration(
      endpoint: server.endpoint, authorization: .userPools { token }, timeout: syncRequestTimeout)
    api.realtime = .init(reconnectInitialDelay: 0.1, reconnectMaximumDelay: 0.5, maximumReconnectAttempts: 10_000)
    var configuration = SyncConfiguration(client: APIClient(configuration: api))
    configuration.retry = SyncRetryPolicy(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(500))
    return try DataStore(
      fileURL: directory.appendingPathComponent("\(name).sqlite"),
      registry: ModelRegistry(models: [Note.self, Draft.self]), sync: configuration)
  }

  /// The `input` of every `operation` the server received, in order (keys sorted but `_version`).
  private func inputs(_ server: SyncServer, _ operation: String) async throws -> [String] {
    try await server.requests().compactMap { body -> String? in
      guard body["operationName"] as? String == operation,
        let input = (body["variables"] as? [String: Any])?["input"] as? [String: Any]
      else { return nil }
      return input.keys.sorted().filter { $0 != "_version" }.map { "\($0)=\(input[$0] ?? "-")" }
        .joined(separator: " ")
    }
  }

  /// The recorded redacted fields of note `id`.
  private func recorded(_ store: DataStore, _ id: String) async throws -> String {
    let state = try await store.read { tx in try RedactedFields.state("Note", "\"\(id)\"", tx.connection) }
    return "unheld \(state.unheld.sorted()) unconfirmed \(state.unconfirmed.sorted())"
  }

  @Test func aLevelPublicAnswerIsTheServersValue() async throws {
    #expect(Note.schema.subscriptionLevel == .public)
    #expect(Note.schema.protectedFields == ["secret"])
    #expect(Note.schema.fieldsRedactedInMutationResponses == [])
    #expect(Note.schema.fieldsRedactedInSubscriptionEvents == ["secret"])
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let server = try await SyncServer(generated: "sync/sync-field-auth", authConfig: pool.configURL)
    defer { server.stop() }
    let phone = try device(pool, server, directory, "alice", "alice-phone")
    try await startAndSync(phone)

    // The create's answer holds `secret: null`, the server's value at level public: nothing is
    // recorded, so the phone's next update sends the field as the row holds it.
    try await phone.save(Note(id: "n1", title: "plan", secret: nil))
    #expect(try await eventuallyScaled { try await phone.pendingMutations().isEmpty })
    #expect(try await recorded(phone, "n1") == "unheld [] unconfirmed []")
    var note = try #require(try await phone.query(Note.self, byIdentifier: .init(id: "n1")))
    note.title = "plan b"
    try await phone.save(note)
    #expect(try await eventuallyScaled { try await phone.pendingMutations().isEmpty })
    #expect(try await inputs(server, "UpdateNote") == ["id=n1 secret=<null> title=plan b"])

    // A value in the answer is stored and confirmed.
    note = try #require(try await phone.query(Note.self, byIdentifier: .init(id: "n1")))
    note.secret = "4711"
    try await phone.save(note)
    #expect(try await eventuallyScaled { try await phone.pendingMutations().isEmpty })
    #expect(try await phone.query(Note.self, byIdentifier: .init(id: "n1"))?.secret == "4711")
    #expect(try await recorded(phone, "n1") == "unheld [] unconfirmed []")
    await phone.stop()
  }

  @Test func aModelWithoutSubscriptionsSyncsQuietlyThroughItsQueriesAndOutbox() async throws {
    #expect(Draft.schema.subscriptionLevel == .off)
    #expect(
      [Draft.schema.operations.onCreate, Draft.schema.operations.onUpdate, Draft.schema.operations.onDelete] == [
        nil, nil, nil,
      ])
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let server = try await SyncServer(generated: "sync/sync-field-auth", authConfig: pool.configURL)
    defer { server.stop() }
    let phone = try device(pool, server, directory, "alice", "alice-phone")
    let laptop = try device(pool, server, directory, "alice", "alice-laptop")
    let phoneLog = EventLog(phone)
    let laptopLog = EventLog(laptop)
    defer {
      phoneLog.stop()
      laptopLog.stop()
    }
    try await phone.save(Draft(id: "d1", title: "offline draft"))
    for store in [phone, laptop] { try await startAndSync(store) }

    // The outbox sends the draft; the laptop's first sync may have run before it arrived.
    #expect(try await eventuallyScaled { try await phone.pendingMutations().isEmpty })
    #expect(try await inputs(server, "CreateDraft").count == 1)
    // The Note subscriptions are active; none of Draft was started (and none failed: no
    // `inboundError` below).
    let (data, _) = try await URLSession.shared.data(
      from: URL(string: "http://127.0.0.1:\(server.port)/test/realtime/subscriptions")!)
    let active = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    let fields = Set(active.compactMap { $0["field"] as? String })
    #expect(fields == ["onCreateNote", "onUpdateNote", "onDeleteNote"])
    // The laptop's next sync (a delta sync) brings the draft, and its query is synced.
    await laptop.stop()
    try await startAndSync(laptop)
    #expect(try await eventuallyScaled { try await laptop.query(Draft.self, byIdentifier: .init(id: "d1")) != nil })
    var synced = false
    for try await snapshot in laptop.observeQuery(Draft.self) where snapshot.isSynced {
      synced = snapshot.items.map(\.title) == ["offline draft"]
      break
    }
    #expect(synced)
    // An edit on the laptop goes out through its outbox; the phone's delta sync brings it.
    var draft = try #require(try await laptop.query(Draft.self, byIdentifier: .init(id: "d1")))
    draft.title = "edited on the laptop"
    try await laptop.save(draft)
    #expect(try await eventuallyScaled { try await laptop.pendingMutations().isEmpty })
    await phone.stop()
    try await startAndSync(phone)
    #expect(
      try await eventuallyScaled {
        try await phone.query(Draft.self, byIdentifier: .init(id: "d1"))?.title == "edited on the laptop"
      })
    #expect("\(phoneLog.inboundErrors)" == "[]")
    #expect("\(laptopLog.inboundErrors)" == "[]")
    for store in [phone, laptop] { await store.stop() }
  }
}
