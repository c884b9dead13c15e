import Foundation
import LazyModel
import LazyModelAPI
import SyncBlogModels

@testable import LazyModelDataStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How much slower this run is than a plain debug run (`LAZYMODEL_TEST_DEADLINE_SCALE`, 4 under
/// the thread sanitizer in CI): every wait of these tests scales with it.
let syncDeadlineScale: Double = {
  let text = ProcessInfo.processInfo.environment["LAZYMODEL_TEST_DEADLINE_SCALE"] ?? ""
  return max(1, Double(text) ?? 1)
}()

/// The request timeout of the sync tests' API clients, in seconds: 5 s × `syncDeadlineScale` (a
/// request of a test waits as much longer as every other wait of the run).
let syncRequestTimeout: Double = 5 * syncDeadlineScale

/// Waits up to `seconds × syncDeadlineScale` for `condition`.
func eventuallyScaled(_ seconds: Double = 20, _ condition: () async throws -> Bool) async throws -> Bool {
  try await eventually(seconds * syncDeadlineScale, condition)
}

/// One device: a store on its own SQLite file with its own API client (so its own real-time
/// connection), reconnecting and retrying quickly. `timeout` is its requests' timeout in seconds
/// (default ``syncRequestTimeout``: scaled with `syncDeadlineScale`).
func device(
  _ server: SyncServer, _ directory: URL, _ name: String, reconnectDelay: Double = 0.1,
  timeout: Double = syncRequestTimeout,
  configure: (inout SyncConfiguration) -> Void = { _ in }
) throws -> DataStore {
  var api = APIClient.Configuration(
    endpoint: server.endpoint, authorization: .apiKey("sync-test-key"), timeout: timeout)
  api.realtime = .init(
    reconnectInitialDelay: reconnectDelay, reconnectMaximumDelay: max(0.5, reconnectDelay),
    maximumReconnectAttempts: 10_000)
  var configuration = SyncConfiguration(client: APIClient(configuration: api))
  configuration.retry = SyncRetryPolicy(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(500))
  configure(&configuration)
  return try DataStore(
    fileURL: directory.appendingPathComponent("\(name).sqlite"), registry: Models.registry, sync: configuration)
}

/// Collects a store's sync events from now on (until ``stop()``).
final class EventLog: @unchecked Sendable {
  private let recorder = Recorder<SyncEvent>()
  private var task: Task<Void, Never>?

  init(_ store: DataStore) {
    let events = store.syncEvents
    let recorder = self.recorder
    task = Task { for await event in events { recorder.append(event) } }
  }

  var events: [SyncEvent] { recorder.values }

  /// The `modelSynced` events, in order.
  var synced: [ModelSyncedEvent] {
    events.compactMap { if case .modelSynced(let event) = $0 { return event } else { return nil } }
  }

  var readyCount: Int { events.filter { if case .ready = $0 { return true } else { return false } }.count }

  var inboundErrors: [SyncInboundError] {
    events.compactMap { if case .inboundError(let error) = $0 { return error } else { return nil } }
  }

  func stop() { task?.cancel() }
}

/// Starts `store` and waits (up to `seconds`, scaled) until its first sync finished.
func startAndSync(_ store: DataStore, seconds: Double = 20) async throws {
  try await store.start()
  guard try await eventuallyScaled(seconds, { store.isSynced }) else {
    throw SyncServer.Failure(message: "the store did not finish its first sync")
  }
}

extension SyncServer {
  /// `createPost` (another device, straight to the server); returns its `_version`.
  @discardableResult
  func createPost(_ id: String, _ title: String, rating: Int? = nil) async throws -> [String: Any] {
    var input: [String: Any] = ["id": id, "title": title]
    if let rating { input["rating"] = rating }
    let response = try await graphQL(
      "mutation C($i: CreatePostInput!) { createPost(input: $i) { id _version } }", ["i": input])
    return (response["data"] as? [String: Any])?["createPost"] as? [String: Any] ?? response
  }

  /// `updatePost` at the server's current version.
  func updatePost(_ id: String, _ fields: [String: Any]) async throws {
    let version = try await post(id)?["_version"] as? Int ?? 0
    var input = fields
    input["id"] = id
    input["_version"] = version
    _ = try await graphQL("mutation U($i: UpdatePostInput!) { updatePost(input: $i) { id } }", ["i": input])
  }

  /// `deletePost` at the server's current version.
  func deletePost(_ id: String) async throws {
    let version = try await post(id)?["_version"] as? Int ?? 0
    _ = try await graphQL(
      "mutation D($i: DeletePostInput!) { deletePost(input: $i) { id } }", ["i": ["id": id, "_version": version]])
  }

  /// The live (not deleted) records of `plural` (`Posts`, `Comments`) by id, read with a base
  /// sync query: `fields` plus `_version`.
  func live(_ plural: String, _ fields: String) async throws -> [String: [String: Any]] {
    var result: [String: [String: Any]] = [:]
    var token: Any = NSNull()
    repeat {
      let response = try await graphQL(
        "query S($t: String) { sync\(plural)(limit: 1000, nextToken: $t) { items { id \(fields) _version _deleted } nextToken } }",
        ["t": token])
      let page = (response["data"] as? [String: Any])?["sync\(plural)"] as? [String: Any] ?? [:]
      for item in page["items"] as? [[String: Any]] ?? [] where item["_deleted"] as? Bool != true {
        result[item["id"] as? String ?? ""] = item
      }
      token = page["nextToken"] ?? NSNull()
    } while !(token is NSNull)
    return result
  }

  /// Creates `items` of `model` as version 1 in one request (`POST /test/sync/seed`).
  func seed(_ model: String, _ items: [[String: Any]]) async throws {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/test/sync/seed")!)
    request.httpMethod = "POST"
    request.httpBody = try JSONSerialization.data(withJSONObject: ["model": model, "items": items])
    let (data, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw Failure(message: "seed failed: \(String(decoding: data, as: UTF8.self))")
    }
  }

  /// Shifts the versioned data source's clock by `offsetMs` (TTL expiry without waiting).
  func shiftClock(_ offsetMs: Int) async throws {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/test/sync/clock")!)
    request.httpMethod = "POST"
    request.httpBody = try JSONSerialization.data(withJSONObject: ["offsetMs": offsetMs])
    _ = try await URLSession.shared.data(for: request)
  }

  /// Drops every real-time connection (`POST /test/realtime/drop`); clients reconnect.
  func dropConnections() async throws {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/test/realtime/drop")!)
    request.httpMethod = "POST"
    _ = try await URLSession.shared.data(for: request)
  }
}

/// A store's posts by id: `(title, rating)`.
func localPosts(_ store: DataStore) async throws -> [String: String] {
  var result: [String: String] = [:]
  for post in try await store.query(Post.self) {
    result[post.id] = "\(post.title)|\(post.rating.map(String.init) ?? "-")"
  }
  return result
}

/// The server's live posts by id, in the shape of ``localPosts(_:)``.
func serverPosts(_ server: SyncServer) async throws -> [String: String] {
  try await server.live("Posts", "title rating").mapValues { item in
    "\(item["title"] as? String ?? "")|\((item["rating"] as? Int).map(String.init) ?? "-")"
  }
}
