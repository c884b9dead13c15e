import Foundation
import LazyModel
import LazyModelAPI

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Consumes one subscription stream on a task of its own and keeps what arrived, so tests can
/// wait for a number of events (bounded by a timeout) and then assert the values.
final class SubscriptionRecorder<M: Model>: Sendable {
  struct Recorded: Sendable {
    var events: [SubscriptionEvent<M>] = []
    var error: (any Error)?
    var finished = false
  }

  private let state = TestLock(Recorded())
  private let task: TestLock<Task<Void, Never>?> = TestLock(nil)

  init(_ stream: AsyncThrowingStream<SubscriptionEvent<M>, any Error>) {
    let consumer = Task { [self] in
      do {
        for try await event in stream { self.state.withLock { $0.events.append(event) } }
      } catch {
        self.state.withLock { $0.error = error }
      }
      self.state.withLock { $0.finished = true }
    }
    task.withLock { $0 = consumer }
  }

  var recorded: Recorded { state.withLock { $0 } }
  var models: [M] {
    recorded.events.compactMap { event in
      if case .model(let model) = event { return model }
      return nil
    }
  }
  var connectedCount: Int {
    recorded.events.filter { if case .connected = $0 { return true } else { return false } }.count
  }
  var reconnectedCount: Int {
    recorded.events.filter { if case .reconnected = $0 { return true } else { return false } }.count
  }

  /// Cancels the consuming task (which stops the subscription).
  func cancel() { task.withLock { $0?.cancel() } }

  /// Waits until `condition` holds, at most `seconds × testDeadlineScale` (every wait scales with
  /// the sanitizer's slowdown, as the request deadline does).
  func wait(
    _ seconds: Double = 10, _ what: String = "condition",
    until condition: @Sendable (SubscriptionRecorder<M>) -> Bool
  ) async throws {
    let seconds = seconds * testDeadlineScale
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition(self) {
      if ContinuousClock.now > deadline {
        throw RealtimeTestError(
          message:
            "timed out after \(seconds) s waiting for \(what); recorded \(recorded.events.count) events, error: \(String(describing: recorded.error))"
        )
      }
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  func waitConnected(_ seconds: Double = 10) async throws {
    try await wait(seconds, "connected") { $0.connectedCount >= 1 || $0.recorded.finished }
    if let error = recorded.error { throw error }
  }

  func waitModels(_ count: Int, _ seconds: Double = 10) async throws {
    try await wait(seconds, "\(count) models") { $0.models.count >= count || $0.recorded.finished }
  }

  func waitFinished(_ seconds: Double = 10) async throws {
    try await wait(seconds, "the end of the stream") { $0.recorded.finished }
  }
}

struct RealtimeTestError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// A client of `server` with a real-time configuration for tests (fast reconnects).
func makeRealtimeClient(
  _ server: GraphQLServerProcess, authorization: APIClient.Authorization = .none,
  headers: [String: String] = [:], maximumReconnectAttempts: Int = 5,
  connectionAckTimeout: Double = testRequestDeadline, maximumMessageBytes: Int = 4 << 20
) -> APIClient {
  var configuration = APIClient.Configuration(
    endpoint: server.endpoint, authorization: authorization, timeout: testRequestDeadline,
    additionalHeaders: headers)
  configuration.realtime = APIClient.RealtimeConfiguration(
    connectionAckTimeout: connectionAckTimeout, maximumMessageBytes: maximumMessageBytes,
    reconnectInitialDelay: 0.05, reconnectMaximumDelay: 0.5,
    maximumReconnectAttempts: maximumReconnectAttempts)
  return APIClient(configuration: configuration)
}

extension GraphQLServerProcess {
  /// The subscriptions the server's real-time endpoint holds (`GET /test/realtime/subscriptions`):
  /// id, root field and the connection carrying it.
  func activeSubscriptions() async throws -> [(id: String, field: String, connection: Int)] {
    let url = URL(string: "http://127.0.0.1:\(port)/test/realtime/subscriptions")!
    let (data, _) = try await URLSession.shared.data(from: url)
    let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    return list.map {
      ($0["id"] as? String ?? "", $0["field"] as? String ?? "", $0["connection"] as? Int ?? 0)
    }
  }

  /// The root field and authorization mode (`apiKey`, `userPools`, … as auth.py names them; `""`
  /// without `--auth-config`) of each subscription the server holds, sorted.
  func activeSubscriptionModes() async throws -> [String] {
    let url = URL(string: "http://127.0.0.1:\(port)/test/realtime/subscriptions")!
    let (data, _) = try await URLSession.shared.data(from: url)
    let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    return list.map { "\($0["field"] as? String ?? ""):\($0["mode"] as? String ?? "")" }.sorted()
  }

  /// The root field, mode and arguments (`name=value`, sorted; `-` for none) of each subscription
  /// the server holds, sorted.
  func activeSubscriptionArguments() async throws -> [String] {
    let url = URL(string: "http://127.0.0.1:\(port)/test/realtime/subscriptions")!
    let (data, _) = try await URLSession.shared.data(from: url)
    let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    return list.map { subscription in
      let arguments = (subscription["arguments"] as? [String: Any] ?? [:]).filter { !($0.value is NSNull) }
      let text = arguments.keys.sorted().map { "\($0)=\(arguments[$0] ?? "")" }.joined(separator: " ")
      return
        "\(subscription["field"] as? String ?? ""):\(subscription["mode"] as? String ?? "") \(text.isEmpty ? "-" : text)"
    }.sorted()
  }

  /// Drops every real-time connection without a close frame (`POST /test/realtime/drop`);
  /// returns how many there were.
  @discardableResult
  func dropRealtimeConnections() async throws -> Int {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/test/realtime/drop")!)
    request.httpMethod = "POST"
    let (data, _) = try await URLSession.shared.data(for: request)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return object?["dropped"] as? Int ?? -1
  }

  /// The number of open real-time connections (`GET /test/realtime/connections`).
  func realtimeConnectionCount() async throws -> Int {
    let url = URL(string: "http://127.0.0.1:\(port)/test/realtime/connections")!
    let (data, _) = try await URLSession.shared.data(from: url)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return object?["connections"] as? Int ?? -1
  }

  /// How many connections asked for `fault` (`x-test-realtime-fault`) so far.
  func faultedConnections(_ fault: String) async throws -> Int {
    let url = URL(string: "http://127.0.0.1:\(port)/test/realtime/connections")!
    let (data, _) = try await URLSession.shared.data(from: url)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return (object?["faulted"] as? [String: Any])?[fault] as? Int ?? 0
  }

  /// Waits until the server holds `count` subscriptions.
  func waitForSubscriptions(_ count: Int, seconds: Double = 10) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds * testDeadlineScale)
    while try await activeSubscriptions().count != count {
      if ContinuousClock.now > deadline {
        throw RealtimeTestError(message: "the server never held \(count) subscriptions")
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }
}
