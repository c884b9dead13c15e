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
    let pool = try OwnerPool(directory, defaultMode: "userPools")
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

  /// Sends `query` to the server as `token`'s user (`Authorization: <JWT>`), returning the JSON answer.
  private func call(_ server: SyncServer, _ token: String, _ query: String, _ variables: [String: Any]) async throws
    -> [String: Any]
  {
    var request = URLRequest(url: server.endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(token, forHTTPHeaderField: "Authorization")
    request.httpBody = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])
    let (data, _) = try await URLSession.shared.data(for: request)
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
  }

  /// Issue 15 (s15): at level `public` the auth transformer gives the subscriptions no `@aws_*`
  /// directive and no owner argument (`protectSchemaOperations` adds them at level `on` only), so
  /// the engine starts `onCreateNote(filter:)` without `owner` (before: `owner: "alice"`, which
  /// the emitted schema no longer declares), on the API's default mode.
  @Test func levelPublicSubscriptionsTakeNoOwnerArgument() async throws {
    #expect(ModelSubscriptions.ownerArgumentNames(of: Note.schema) == [])
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory, defaultMode: "userPools")
    let server = try await SyncServer(generated: "sync/sync-field-auth", authConfig: pool.configURL)
    defer { server.stop() }
    let phone = try device(pool, server, directory, "alice", "alice-phone")
    try await startAndSync(phone)
    let (data, _) = try await URLSession.shared.data(
      from: URL(string: "http://127.0.0.1:\(server.port)/test/realtime/subscriptions")!)
    let active = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    let notes = active.filter { ($0["field"] as? String)?.hasSuffix("Note") == true }
    #expect(notes.count == 3)
    #expect(notes.allSatisfy { ($0["arguments"] as? [String: Any])?["owner"] == nil })
    #expect(notes.allSatisfy { $0["mode"] as? String == "userPools" })
    await phone.stop()
  }

  /// Issue 15 (s15): at level `public` an event is the mutation's response, whose protected
  /// `secret` the transformer's field resolver resolved for the caller of the mutation ("Return
  /// Source Field" once `generateAuthExpressionForField` let it through; `$util.unauthorized()`
  /// otherwise): `null` when the record holds none, and `null` when that caller may not read it.
  /// The engine cannot tell them apart from the event, so it reads the record (`getNote`) and
  /// stores that: the laptop converges at once. Before, the event's `null` kept the stored value,
  /// unconfirmed, until the next sync (a cleared secret stayed on the laptop).
  @Test func aLevelPublicEventsNullIsConfirmedByAGet() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory, defaultMode: "userPools")
    let server = try await SyncServer(generated: "sync/sync-field-auth", authConfig: pool.configURL)
    defer { server.stop() }
    let phone = try device(pool, server, directory, "alice", "alice-phone")
    let laptop = try device(pool, server, directory, "alice", "alice-laptop")
    for store in [phone, laptop] { try await startAndSync(store) }
    func laptopNote() async throws -> String {
      guard let note = try await laptop.query(Note.self, byIdentifier: .init(id: "n1")) else { return "none" }
      return "\(note.title) | \(note.secret ?? "-") | \(try await recorded(laptop, "n1"))"
    }

    // The owner's create: its answer, and so the event, carries the secret.
    try await phone.save(Note(id: "n1", title: "plan", secret: "4711"))
    #expect(try await eventuallyScaled { try await laptopNote() == "plan | 4711 | unheld [] unconfirmed []" })

    // The owner clears it: the event's `null` is the record's value, and the laptop clears it too.
    var note = try #require(try await phone.query(Note.self, byIdentifier: .init(id: "n1")))
    note.secret = nil
    try await phone.save(note)
    #expect(try await eventuallyScaled { try await laptopNote() == "plan | - | unheld [] unconfirmed []" })

    note = try #require(try await phone.query(Note.self, byIdentifier: .init(id: "n1")))
    note.secret = "0815"
    try await phone.save(note)
    #expect(try await eventuallyScaled { try await laptopNote() == "plan | 0815 | unheld [] unconfirmed []" })
    let version = try #require(try await phone.syncMetadata(Note.self, byIdentifier: .init(id: "n1"))?.version)

    // Bob (every signed-in user updates notes, only the owner reads `secret`) renames it: his
    // answer has `secret` null with `Unauthorized`, and so has the event alice's devices get.
    let renamed = try await call(
      server, pool.token("bob"),
      "mutation U($input: UpdateNoteInput!) { updateNote(input: $input) { id title secret _version } }",
      ["input": ["id": "n1", "title": "bob's plan", "_version": version]])
    let answer = (renamed["data"] as? [String: Any])?["updateNote"] as? [String: Any]
    #expect(answer?["title"] as? String == "bob's plan")
    #expect(answer?["secret"] is NSNull)
    #expect(
      (renamed["errors"] as? [[String: Any]])?.compactMap { $0["errorType"] as? String } == ["Unauthorized"])
    // The laptop keeps the secret and knows it is the server's (confirmed by its `get`).
    #expect(try await eventuallyScaled { try await laptopNote() == "bob's plan | 0815 | unheld [] unconfirmed []" })
    let gets = try await server.requests().filter { $0["operationName"] as? String == "GetNote" }
    #expect(gets.count >= 2)
    for store in [phone, laptop] { await store.stop() }
  }

  @Test func aModelWithoutSubscriptionsSyncsQuietlyThroughItsQueriesAndOutbox() async throws {
    #expect(Draft.schema.subscriptionLevel == .off)
    #expect(
      [Draft.schema.operations.onCreate, Draft.schema.operations.onUpdate, Draft.schema.operations.onDelete] == [
        nil, nil, nil,
      ])
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory, defaultMode: "userPools")
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
