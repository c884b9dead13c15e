import Foundation
import LazyModel
import SyncFieldAuthModels
import Testing

@testable import LazyModelAPI
@testable import LazyModelDataStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sync of `Card` (two protected fields: `note` the owner and the `readers` group read, `pin` the
/// owner alone; no group may update a card) and `Memo` (`secret` only the owner reads or writes)
/// by a member of `readers` who is not the owner, against the local server's field rules.
@Suite("Sync: fields a reader is refused, per field, and refused mutations", .serialized)
struct FieldRefusalSyncTests {
  /// A device signed in with `token`, its own store file; `errors` receives its failed mutations.
  private func device(
    _ server: SyncServer, _ directory: URL, token: String, _ name: String, errors: Recorder<SyncError>? = nil,
    answerDelayed: Bool = false
  ) throws -> DataStore {
    var api = APIClient.Configuration(
      endpoint: server.endpoint, authorization: .userPools { token }, timeout: syncRequestTimeout)
    if answerDelayed { api.additionalHeaders = ["x-test-delay-after-ms": "60000"] }
    api.realtime = .init(reconnectInitialDelay: 0.1, reconnectMaximumDelay: 0.5, maximumReconnectAttempts: 10_000)
    var configuration = SyncConfiguration(client: APIClient(configuration: api))
    configuration.retry = SyncRetryPolicy(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(500))
    if let errors { configuration.errorHandler = { errors.append($0) } }
    return try DataStore(
      fileURL: directory.appendingPathComponent("\(name).sqlite"),
      registry: ModelRegistry(models: [Memo.self, Card.self]), sync: configuration)
  }

  /// Bob's ID token: a member of `readers`.
  private func reader(_ pool: OwnerPool) -> String {
    pool.token(claims: ["sub": "sub-bob", "cognito:username": "bob", "cognito:groups": ["readers"]])
  }

  /// `title | note | pin` of the device's card `id` (`nil` as `-`).
  private func card(_ store: DataStore, _ id: String) async throws -> String {
    guard let card = try await store.query(Card.self, byIdentifier: .init(id: id)) else { return "none" }
    return "\(card.title) | \(card.note ?? "-") | \(card.pin ?? "-")"
  }

  /// `title | secret` of the device's memo `id` (`nil` as `-`).
  private func memo(_ store: DataStore, _ id: String) async throws -> String {
    guard let memo = try await store.query(Memo.self, byIdentifier: .init(id: id)) else { return "none" }
    return "\(memo.title) | \(memo.secret ?? "-")"
  }

  /// The recorded redacted fields of `model`'s record `id` in `store`.
  private func recorded(_ store: DataStore, _ model: String, _ id: String) async throws -> String {
    let identifier = "\"\(id)\""
    let state = try await store.read { tx in try RedactedFields.state(model, identifier, tx.connection) }
    return "unheld \(state.unheld.sorted()) unconfirmed \(state.unconfirmed.sorted())"
  }

  /// The server's record `id` of `model` read by `get<model>` as alice (the owner reads every
  /// field), its `fields` joined by ` | ` with its `_version`.
  private func stored(_ pool: OwnerPool, _ server: SyncServer, _ model: String, _ id: String, _ fields: [String])
    async throws -> String
  {
    var request = URLRequest(url: server.endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(pool.token("alice"), forHTTPHeaderField: "Authorization")
    let selection = (fields + ["_version"]).joined(separator: " ")
    request.httpBody = try JSONSerialization.data(withJSONObject: [
      "query": "query G($id: ID!) { get\(model)(id: $id) { \(selection) } }", "variables": ["id": id],
    ])
    let (data, _) = try await URLSession.shared.data(for: request)
    let response = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    guard let record = (response["data"] as? [String: Any])?["get\(model)"] as? [String: Any] else {
      return "none: \(String(decoding: data, as: UTF8.self))"
    }
    return (fields + ["_version"]).map { "\(record[$0].flatMap { $0 is NSNull ? nil : $0 } ?? "-")" }
      .joined(separator: " | ")
  }

  /// A sync page's item that refuses `pin` and shows `note`: only `pin` is redacted. Before, the
  /// whole item counted as redacted, so `note` (which bob reads) was recorded unheld while
  /// `null`, and a `note` alice cleared kept bob's stored value for good (the engine read the
  /// `null` as "says nothing" and skipped the next sync of that `_version`).
  @Test func onlyTheRefusedFieldIsRedactedAndAClearedReadableFieldIsClearedHere() async throws {
    #expect(Card.schema.fieldsRedactedInMutationResponses == ["note", "pin"])
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let server = try await SyncServer(generated: "sync/sync-field-auth", authConfig: pool.configURL)
    defer { server.stop() }
    let alice = try device(server, directory, token: pool.token("alice"), "alice-phone")
    try await startAndSync(alice)
    var aliceCard = Card(id: "c1", title: "door", note: nil, pin: "1234")
    try await alice.save(aliceCard)
    #expect(try await eventuallyScaled { try await alice.pendingMutations().isEmpty })
    #expect(try await stored(pool, server, "Card", "c1", ["title", "note", "pin"]) == "door | - | 1234 | 1")

    // Bob's sync page: `pin` refused, `note` a real `null`.
    let token = reader(pool)
    let client = APIClient(
      configuration: .init(endpoint: server.endpoint, authorization: .userPools { token }, timeout: syncRequestTimeout))
    let request = try SyncEngine.syncQuery(Card.schema, filter: nil, limit: 100, nextToken: nil, lastSync: nil)
    let response = try await client.response(for: request)
    #expect(response.errors.map(\.path) == [[.string("syncCards"), .string("items"), .int(0), .string("pin")]])
    #expect(try SyncEngine.syncPage(response, of: request, Card.schema).refused == [0: ["pin"]])

    let bob = try device(server, directory, token: token, "bob-phone")
    let log = EventLog(bob)
    defer { log.stop() }
    try await startAndSync(bob)
    #expect(try await card(bob, "c1") == "door | - | -")
    #expect(try await recorded(bob, "Card", "c1") == "unheld [\"pin\"] unconfirmed []")

    // Alice writes a note, then clears it: each sync of bob's brings it as it is.
    aliceCard.note = "code changed"
    try await alice.save(aliceCard)
    #expect(try await eventuallyScaled { try await alice.pendingMutations().isEmpty })
    await bob.stop()
    try await startAndSync(bob)
    #expect(try await eventuallyScaled { try await card(bob, "c1") == "door | code changed | -" })
    // Alice's store holds the note it sent, unconfirmed (the answer redacted it).
    #expect(try await recorded(alice, "Card", "c1") == "unheld [] unconfirmed [\"note\", \"pin\"]")
    aliceCard.note = nil
    try await alice.save(aliceCard)
    #expect(try await eventuallyScaled { try await alice.pendingMutations().isEmpty })
    let cleared = try await stored(pool, server, "Card", "c1", ["title", "note", "pin"])
    #expect(cleared == "door | - | 1234 | 3")
    await bob.stop()
    try await startAndSync(bob)
    #expect(try await eventuallyScaled { try await card(bob, "c1") == "door | - | -" })
    let bobsCard = try await card(bob, "c1")
    #expect(bobsCard == "door | - | -")
    #expect(try await recorded(bob, "Card", "c1") == "unheld [\"pin\"] unconfirmed []")
    #expect("\(log.inboundErrors)" == "[]")
    for store in [alice, bob] { await store.stop() }
  }

  /// An update whose answer never arrived (stopped while the answer was held back), by bob, who
  /// is refused the memo's `secret`: the next start reads the memo first, and its `get` answers
  /// `secret` `null` with an `Unauthorized` error. That read shows the update was applied (as the
  /// revert reads, ``SyncEngine/refusedFields(_:of:_:)``), so it is not sent again. Before, the
  /// `get` went by `send`, which throws at the error: the check was skipped and the update re-sent.
  @Test func anUnansweredUpdateReadWithARefusedFieldIsNotSentAgain() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let server = try await SyncServer(generated: "sync/sync-field-auth", authConfig: pool.configURL)
    defer { server.stop() }
    let alice = try device(server, directory, token: pool.token("alice"), "alice-phone")
    try await startAndSync(alice)
    try await alice.save(Memo(id: "m1", title: "plan", secret: "code"))
    #expect(try await eventuallyScaled { try await alice.pendingMutations().isEmpty })
    await alice.stop()

    let errors = Recorder<SyncError>()
    let token = reader(pool)
    let first = try device(server, directory, token: token, "bob-phone", errors: errors)
    try await startAndSync(first)
    #expect(try await memo(first, "m1") == "plan | -")
    await first.stop()
    // Bob's update, sent by a store whose answers are held back (its sync never finishes either).
    let slow = try device(server, directory, token: token, "bob-phone", errors: errors, answerDelayed: true)
    var bobsMemo = try #require(try await slow.query(Memo.self, byIdentifier: .init(id: "m1")))
    bobsMemo.title = "plan b"
    try await slow.save(bobsMemo)
    try await slow.start()
    #expect(
      try await eventuallyScaled(10) {
        try await stored(pool, server, "Memo", "m1", ["title", "secret"]) == "plan b | code | 2"
      })
    await slow.stop()
    #expect(try await slow.pendingMutations().map(\.kind) == [.update], "the answer never arrived")

    let bob = try device(server, directory, token: token, "bob-phone", errors: errors)
    try await bob.start()
    #expect(try await eventuallyScaled { try await bob.pendingMutations().isEmpty })
    let updates = try await server.requests().compactMap { $0["query"] as? String }
      .filter { $0.hasPrefix("mutation UpdateMemo") }
    #expect(updates.count == 1, "the applied update went out once")
    #expect(try await stored(pool, server, "Memo", "m1", ["title", "secret"]) == "plan b | code | 2")
    #expect(try await bob.syncMetadata(Memo.self, byIdentifier: .init(id: "m1"))?.version == 2)
    #expect(try await memo(bob, "m1") == "plan b | -")
    #expect(errors.values.isEmpty)
    await bob.stop()
  }

  /// A mutation the service answers `Unauthorized`: an update of a card bob may only read (the
  /// model's rules), and an update of a memo that writes `secret` (its field rule). Each goes to
  /// the error handler, leaves the outbox, and reverts bob's row to the server's record as bob
  /// reads it: the refused `pin` / `secret` are `null` there with an `Unauthorized` error, which
  /// the revert accepts (`null`, unheld). The next entry still goes out. Before, the revert's
  /// `get` failed on that partial answer, nothing was reverted, and bob kept his refused edits.
  @Test func anUnauthorizedMutationIsReportedRevertedAndRemovedAndTheNextIsSent() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let server = try await SyncServer(generated: "sync/sync-field-auth", authConfig: pool.configURL)
    defer { server.stop() }
    let alice = try device(server, directory, token: pool.token("alice"), "alice-phone")
    try await startAndSync(alice)
    try await alice.save(Card(id: "c1", title: "door", note: "side entrance", pin: "1234"))
    try await alice.save(Memo(id: "m1", title: "groceries", secret: "pin 4711"))
    #expect(try await eventuallyScaled { try await alice.pendingMutations().isEmpty })

    let errors = Recorder<SyncError>()
    let bob = try device(server, directory, token: reader(pool), "bob-phone", errors: errors)
    try await startAndSync(bob)
    #expect(try await card(bob, "c1") == "door | side entrance | -")
    #expect(try await memo(bob, "m1") == "groceries | -")
    await bob.stop()

    // Offline: two refused updates, then a create bob may make.
    var card = try #require(try await bob.query(Card.self, byIdentifier: .init(id: "c1")))
    card.title = "bob's door"
    try await bob.save(card)
    var memo = try #require(try await bob.query(Memo.self, byIdentifier: .init(id: "m1")))
    memo.title = "groceries, milk"
    memo.secret = "a guess"
    try await bob.save(memo)
    try await bob.save(Memo(id: "m2", title: "bob's list", secret: "mine"))
    try await bob.start()
    #expect(try await eventuallyScaled { try await bob.pendingMutations().isEmpty })

    #expect(
      errors.values.map { "\($0.modelName) \($0.identifier) \($0.kind)" } == [
        "Card \"c1\" update", "Memo \"m1\" update",
      ])
    // The client reports a rule's refusal as the mode's rejection, with the service's errors.
    for error in errors.values {
      guard case .authorization(_, let underlying) = error.underlying as? APIError,
        let refusal = underlying as? AuthorizationError, case .rejected(200, let graphQLErrors) = refusal.reason
      else {
        Issue.record("not a refusal: \(error.underlying)")
        continue
      }
      #expect(refusal.mode == .userPools)
      #expect(graphQLErrors.map(\.errorType) == ["Unauthorized"])
    }
    // Reverted to the server's records as bob reads them.
    #expect(try await self.card(bob, "c1") == "door | side entrance | -")
    #expect(try await recorded(bob, "Card", "c1") == "unheld [\"pin\"] unconfirmed []")
    #expect(try await self.memo(bob, "m1") == "groceries | -")
    #expect(try await recorded(bob, "Memo", "m1") == "unheld [\"secret\"] unconfirmed []")
    // The server holds what it held, and the create after them went out.
    #expect(
      try await stored(pool, server, "Card", "c1", ["title", "note", "pin"]) == "door | side entrance | 1234 | 1")
    #expect(try await stored(pool, server, "Memo", "m1", ["title", "secret"]) == "groceries | pin 4711 | 1")
    #expect(try await self.memo(bob, "m2") == "bob's list | mine")

    // Bob's next edit of the memo's title is accepted: the reverted row sends no secret.
    memo = try #require(try await bob.query(Memo.self, byIdentifier: .init(id: "m1")))
    memo.title = "groceries, eggs"
    try await bob.save(memo)
    #expect(try await eventuallyScaled { try await bob.pendingMutations().isEmpty })
    #expect(errors.values.count == 2, "\(errors.values)")
    #expect(try await stored(pool, server, "Memo", "m1", ["title", "secret"]) == "groceries, eggs | pin 4711 | 2")
    for store in [alice, bob] { await store.stop() }
  }
}

/// A store file written before `_lazymodel_sync_unheld` had its `unconfirmed` and `kept` columns
/// opens: the columns are added (`''`), the recorded unheld fields are kept, and all can be written.
@Test("Sync: a store file with the unheld table of before opens and keeps its fields")
func anUnheldTableOfBeforeGainsItsUnconfirmedColumn() async throws {
  let directory = try temporaryDirectory()
  defer { try? FileManager.default.removeItem(at: directory) }
  let url = directory.appendingPathComponent("store.sqlite")
  let client = APIClient(
    configuration: .init(endpoint: URL(string: "http://127.0.0.1:9/graphql")!, timeout: syncRequestTimeout))
  do {
    let store = try DataStore(
      fileURL: url, registry: ModelRegistry(models: [Memo.self, Card.self]), sync: SyncConfiguration(client: client))
    try await store.writeRemote { tx in
      try tx.connection.execute("DROP TABLE \(quote(RedactedFields.table))")
      try tx.connection.execute(
        "CREATE TABLE \(quote(RedactedFields.table)) (model TEXT NOT NULL, identifier TEXT NOT NULL,"
          + " fields TEXT NOT NULL, PRIMARY KEY (model, identifier)) WITHOUT ROWID, STRICT")
      try tx.connection.execute(
        "INSERT INTO \(quote(RedactedFields.table)) VALUES ('Card', '\"c1\"', 'note,pin')")
    }
  }
  let store = try DataStore(
    fileURL: url, registry: ModelRegistry(models: [Memo.self, Card.self]), sync: SyncConfiguration(client: client))
  let columns = try await store.read { tx in
    let statement = try tx.connection.prepare("SELECT name FROM pragma_table_info(?)")
    defer { statement.reset() }
    try statement.bind([.text(RedactedFields.table)])
    var names: [String] = []
    while try statement.step() { names.append(statement.text(0)) }
    return names
  }
  #expect(columns == ["model", "identifier", "fields", "unconfirmed", "kept"])
  #expect(
    try await store.read { tx in try RedactedFields.state("Card", "\"c1\"", tx.connection) }
      == RedactedFields.State(unheld: ["note", "pin"]))
  let written = RedactedFields.State(unheld: ["pin"], unconfirmed: ["note"], kept: ["note": "kept note"])
  try await store.writeRemote { tx in try RedactedFields.setState("Card", "\"c1\"", written, tx.connection) }
  #expect(try await store.read { tx in try RedactedFields.state("Card", "\"c1\"", tx.connection) } == written)
}
