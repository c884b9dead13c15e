import Foundation
import LazyModel
import SyncFieldAuthModels
import Testing

@testable import LazyModelAPI
@testable import LazyModelDataStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sync of a model with a protected field (`Memo.secret`: only the owner reads it; every signed-in
/// user reads the rest). With subscriptions on, the service returns `secret` as `null` in every
/// mutation response and subscription event, for every caller (Amplify's "Per-Field with
/// Subscriptions"; the local server's `redacted_fields`), while `sync` and `get` return it to the
/// owner. Before, the engine stored those nulls: the device that saved the memo lost its secret
/// when the create's answer arrived, and another device's next edit sent `secret: null` and cleared
/// it on the server.
@Suite("Sync: a protected field redacted in mutation responses and events", .serialized)
struct ProtectedFieldSyncTests {
  /// A device of `username`: its own store file and client, signed in to `pool`.
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
      fileURL: directory.appendingPathComponent("\(name).sqlite"), registry: Models.registry, sync: configuration)
  }

  /// The server's stored `title` and `secret` of memo `id`, read by `getMemo` as `username` (a
  /// query: not redacted for the owner).
  private func stored(_ pool: OwnerPool, _ server: SyncServer, _ username: String, _ id: String) async throws
    -> String
  {
    var request = URLRequest(url: server.endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(pool.token(username), forHTTPHeaderField: "Authorization")
    request.httpBody = try JSONSerialization.data(withJSONObject: [
      "query": "query G($id: ID!) { getMemo(id: $id) { title secret _version } }", "variables": ["id": id],
    ])
    let (data, _) = try await URLSession.shared.data(for: request)
    let response = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    guard let memo = (response["data"] as? [String: Any])?["getMemo"] as? [String: Any] else {
      return "no memo: \(String(decoding: data, as: UTF8.self))"
    }
    return "\(memo["title"] ?? "-") | \(memo["secret"] ?? "-") | v\(memo["_version"] ?? "-")"
  }

  /// `title | secret` of the device's memo `id` (`nil` as `-`).
  private func local(_ store: DataStore, _ id: String) async throws -> String {
    guard let memo = try await store.query(Memo.self, byIdentifier: .init(id: id)) else { return "none" }
    return "\(memo.title) | \(memo.secret ?? "-")"
  }

  /// The `input` of every `UpdateMemo` the server received, in order (keys sorted, values as sent).
  private func updateInputs(_ server: SyncServer) async throws -> [String] {
    try await server.requests().compactMap { body -> String? in
      guard body["operationName"] as? String == "UpdateMemo",
        let input = (body["variables"] as? [String: Any])?["input"] as? [String: Any]
      else { return nil }
      return input.keys.sorted().filter { $0 != "_version" }.map { "\($0)=\(input[$0] ?? "-")" }
        .joined(separator: " ")
    }
  }

  @Test func aRedactedProtectedFieldNeverOverwritesTheStoredValueNorGoesBackAsNull() async throws {
    #expect(Memo.schema.fieldsRedactedInMutationResponses == ["secret"])
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let server = try await SyncServer(generated: "sync/sync-field-auth", authConfig: pool.configURL)
    defer { server.stop() }
    let phone = try device(pool, server, directory, "alice", "alice-phone")
    let laptop = try device(pool, server, directory, "alice", "alice-laptop")
    for store in [phone, laptop] { try await startAndSync(store) }

    // The create's answer carries `secret: null`; the phone keeps what it saved.
    try await phone.save(Memo(id: "m1", title: "groceries", secret: "pin 4711"))
    #expect(try await eventuallyScaled { try await phone.pendingMutations().isEmpty })
    #expect(try await local(phone, "m1") == "groceries | pin 4711")
    #expect(try await stored(pool, server, "alice", "m1") == "groceries | pin 4711 | v1")

    // The laptop learns the memo from the event, which redacts `secret`: it holds no secret yet.
    #expect(try await eventuallyScaled { try await local(laptop, "m1") == "groceries | -" })
    // Its edit leaves out the secret it never held, so the server keeps it.
    var memo = try #require(try await laptop.query(Memo.self, byIdentifier: .init(id: "m1")))
    memo.title = "groceries, milk"
    try await laptop.save(memo)
    #expect(try await eventuallyScaled { try await laptop.pendingMutations().isEmpty })
    #expect(try await updateInputs(server) == ["id=m1 title=groceries, milk"])
    #expect(try await stored(pool, server, "alice", "m1") == "groceries, milk | pin 4711 | v2")
    #expect(try await local(laptop, "m1") == "groceries, milk | -")
    // The phone applies the laptop's event (secret redacted again) and keeps its secret.
    #expect(try await eventuallyScaled { try await local(phone, "m1") == "groceries, milk | pin 4711" })

    // The laptop's next sync (a delta sync: `sync` is not redacted for the owner) brings the
    // secret, at the `_version` it already stores.
    await laptop.stop()
    try await startAndSync(laptop)
    #expect(try await eventuallyScaled { try await local(laptop, "m1") == "groceries, milk | pin 4711" })

    // An edit of another field on the phone keeps the stored secret everywhere.
    memo = try #require(try await phone.query(Memo.self, byIdentifier: .init(id: "m1")))
    memo.title = "groceries, milk, eggs"
    try await phone.save(memo)
    #expect(try await eventuallyScaled { try await phone.pendingMutations().isEmpty })
    #expect(try await stored(pool, server, "alice", "m1") == "groceries, milk, eggs | pin 4711 | v3")
    #expect(try await local(phone, "m1") == "groceries, milk, eggs | pin 4711")
    #expect(try await eventuallyScaled { try await local(laptop, "m1") == "groceries, milk, eggs | pin 4711" })
    for store in [phone, laptop] { await store.stop() }
  }
}
