import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import SeedPostCommentModels

/// A misbehaving real-time server (the local server's `x-test-realtime-fault` hook, sent in the
/// handshake's `header`): each fault gives a typed error or a reconnect, within the configured
/// timeouts, never a crash or a hang.
@Suite("Subscriptions: a misbehaving real-time server")
struct SubscriptionFaultTests {
  struct Fault: Sendable, CustomTestStringConvertible {
    let name: String
    let expected: @Sendable (RealtimeError) -> Bool
    var testDescription: String { name }
  }

  static let faults: [Fault] = [
    Fault(name: "never-ack") { $0 == .connectionAckTimeout(seconds: 0.5) },
    Fault(name: "no-ka") { $0 == .keepAliveTimeout(milliseconds: 500) },
    Fault(name: "malformed") {
      if case .malformedMessage = $0 { return true }
      return false
    },
    Fault(name: "unknown-type") { $0 == .unknownMessageType("surprise") },
    Fault(name: "unknown-id") { $0 == .unknownSubscriptionID("no-such-subscription") },
    // AppSync's subscription id is the string the client's `start` sent: a number is a protocol
    // fault that says so, never matched by its text.
    Fault(name: "numeric-id") {
      $0 == .malformedMessage(reason: "a 'data' message whose 'id' is the number 1, not a string")
    },
    Fault(name: "huge") { $0 == .messageTooLarge(limit: 4 << 20) },
    Fault(name: "close-mid-frame") {
      if case .transportClosed = $0 { return true }
      return false
    },
  ]

  @Test(
    "without reconnects, each fault ends the stream with APIError.transport and its RealtimeError", arguments: faults)
  func faultEndsStream(_ fault: Fault) async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(
      server, headers: ["x-test-realtime-fault": fault.name], maximumReconnectAttempts: 0,
      connectionAckTimeout: fault.name == "never-ack" ? 0.5 : 10)
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.waitFinished(12)
    let error = try #require(posts.recorded.error)
    guard case APIError.transport(let name, let underlying) = error,
      let realtime = underlying as? RealtimeError
    else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(name == "OnCreatePost4V2")
    #expect(fault.expected(realtime), "got \(realtime)")
    #expect(posts.models.isEmpty)
    #expect(await client.activeSubscriptionCount == 0)
  }

  @Test("a complete from the server for an active subscription finishes its stream normally")
  func serverComplete() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(
      server, headers: ["x-test-realtime-fault": "complete"], maximumReconnectAttempts: 0)
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.waitFinished(12)
    #expect(posts.recorded.error == nil, "finished normally, not with an error")
    #expect(posts.models.isEmpty)
    #expect(await client.activeSubscriptionCount == 0)
  }

  @Test("an event whose __typename names another type ends the stream with unexpectedTypename")
  func wrongTypename() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(
      server, headers: ["x-test-realtime-fault": "wrong-typename"], maximumReconnectAttempts: 0)
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.waitFinished(12)
    let error = try #require(posts.recorded.error)
    guard case APIError.unexpectedTypename(let name, let expected, let received, _, _) = error else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(name == "OnCreatePost4V2")
    #expect(expected == "Post4V2")
    #expect(received == "SomethingElse")
  }

  @Test("reconnects are bounded: a server that never acks fails after the configured attempts")
  func boundedReconnects() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(
      server, headers: ["x-test-realtime-fault": "never-ack"], maximumReconnectAttempts: 2,
      connectionAckTimeout: 0.3)
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.waitFinished(8)
    let error = try #require(posts.recorded.error)
    guard case APIError.transport(_, let underlying) = error else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(
      underlying as? RealtimeError
        == .reconnectFailed(attempts: 2, last: .connectionAckTimeout(seconds: 0.3)))
  }

  /// Issue 13 (break13 finding 2): the retry count was reset by every `connection_ack`, so a
  /// connection that failed after each ack (before any `start_ack`) reconnected for good and the
  /// stream never ended. Now only an established subscription resets it.
  @Test("reconnects are bounded for a connection that fails after every ack, before any start_ack")
  func boundedReconnectsAfterTheAck() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(
      server, headers: ["x-test-realtime-fault": "malformed"], maximumReconnectAttempts: 2)
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.waitFinished(12)
    let error = try #require(posts.recorded.error)
    guard case APIError.transport(_, let underlying) = error,
      case .reconnectFailed(let attempts, let last)? = underlying as? RealtimeError
    else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(attempts == 2)
    if case .malformedMessage = last {} else { Issue.record("last failure: \(last)") }
  }

  @Test(
    "faults after the ack reconnect when reconnects are allowed, and the stream keeps delivering",
    arguments: ["no-ka", "malformed", "unknown-type", "close-mid-frame"])
  func faultReconnects(_ fault: String) async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    // The first two connections misbehave after their ack; the third is healthy.
    let client = makeRealtimeClient(
      server,
      headers: ["x-test-realtime-fault": fault, "x-test-realtime-fault-connections": "2"])
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    let deadline = ContinuousClock.now + .seconds(20 * testDeadlineScale)
    while try await server.faultedConnections(fault) < 3, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(try await server.faultedConnections(fault) == 3)
    // The third connection is healthy: the subscription is started on it, and acknowledged.
    try await server.waitForSubscriptions(1, seconds: 20)
    try await posts.wait(20, "the healthy connection's start_ack") {
      $0.connectedCount + $0.reconnectedCount == (fault == "no-ka" ? 3 : 1) || $0.recorded.finished
    }
    // no-ka connections acknowledged the start before failing: connected, then reconnected twice;
    // the others failed before any start_ack: the healthy connection's is the first.
    #expect(posts.connectedCount == 1)
    #expect(posts.reconnectedCount == (fault == "no-ka" ? 2 : 0))
    // A failed connection's close may still be in flight.
    let closing = ContinuousClock.now + .seconds(10 * testDeadlineScale)
    while try await server.realtimeConnectionCount() != 1, ContinuousClock.now < closing {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(try await server.realtimeConnectionCount() == 1)
    try await client.create(Post4V2(title: "after the faults"))
    try await posts.wait(10, "the model") { $0.models.count == 1 || $0.recorded.finished }
    #expect(posts.models.map(\.title) == ["after the faults"])
    #expect(posts.recorded.error == nil, "finished normally, not with an error")
    await client.finishSubscriptions()
    try await posts.waitFinished()
  }

  @Test("ka within connectionTimeoutMs keeps the connection: no reconnect across several timeouts")
  func keepAliveKeepsConnection() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    // connectionTimeoutMs 2000 and a ka every 667 ms (both times the run's slowdown,
    // `testDeadlineScale`: under the thread sanitizer on a loaded machine a ka 2 s late is the
    // machine, not the client): the wait below spans three timeouts.
    let timeoutMilliseconds = Int(2000 * testDeadlineScale)
    let client = makeRealtimeClient(server, headers: ["x-test-realtime-timeout-ms": "\(timeoutMilliseconds)"])
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.waitConnected()
    try await Task.sleep(for: .milliseconds(3 * timeoutMilliseconds))
    try await client.create(Post4V2(title: "kept alive"))
    try await posts.waitModels(1)
    #expect(posts.models.map(\.title) == ["kept alive"])
    #expect(posts.reconnectedCount == 0)
    #expect(posts.recorded.error == nil, "finished normally, not with an error")
  }
}
