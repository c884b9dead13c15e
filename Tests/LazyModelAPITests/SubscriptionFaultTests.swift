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
    Fault(name: "huge") { $0 == .messageTooLarge(limit: 4 << 20) },
    Fault(name: "close-mid-frame") {
      if case .transportClosed = $0 { return true }
      return false
    },
  ]

  @Test("without reconnects, each fault ends the stream with APIError.transport and its RealtimeError", arguments: faults)
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

  @Test("a fault after the ack reconnects when reconnects are allowed, and the stream keeps delivering")
  func faultReconnects() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    // no-ka: every connection is acked with connectionTimeoutMs 500 and never kept alive, so the
    // client reconnects about every half second; events sent in between still arrive.
    let client = makeRealtimeClient(server, headers: ["x-test-realtime-fault": "no-ka"])
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.wait(10, "two reconnects") { $0.reconnectedCount >= 2 }
    try await server.waitForSubscriptions(1)
    try await client.create(Post4V2(title: "between keep-alive faults"))
    try await posts.wait(10, "the model") { $0.models.count == 1 || $0.recorded.finished }
    #expect(posts.models.map(\.title) == ["between keep-alive faults"])
    #expect(posts.recorded.error == nil)
    await client.finishSubscriptions()
    try await posts.waitFinished()
  }

  @Test("ka within connectionTimeoutMs keeps the connection: no reconnect across several timeouts")
  func keepAliveKeepsConnection() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    // connectionTimeoutMs 600 and a ka every 200 ms.
    let client = makeRealtimeClient(server, headers: ["x-test-realtime-timeout-ms": "600"])
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.waitConnected()
    try await Task.sleep(for: .seconds(2))
    try await client.create(Post4V2(title: "kept alive"))
    try await posts.waitModels(1)
    #expect(posts.models.map(\.title) == ["kept alive"])
    #expect(posts.reconnectedCount == 0)
    #expect(posts.recorded.error == nil)
  }
}
