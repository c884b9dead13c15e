import Foundation
import LazyModel

/// The client's ``RealtimeConnection``s, made on first use: one under
/// ``AuthorizationStrategy/default``, and under ``AuthorizationStrategy/multiAuth(_:)`` one per
/// configured mode (each authorizes its handshake and every `start` with that mode alone, as
/// amplify-swift keeps one real-time connection per endpoint and authorization type).
final class SubscriptionHub: Sendable {
  /// The key of the one connection of the default strategy.
  static let defaultKey = -1

  private let connections = APILock<[Int: RealtimeConnection]>([:])

  /// The connection of `key`: ``defaultKey``, or an index into the multi-auth modes.
  func connection(for client: APIClient, key: Int = SubscriptionHub.defaultKey) -> RealtimeConnection {
    connections.withLock { connections in
      if let connection = connections[key] { return connection }
      var configuration = client.configuration
      if case .multiAuth(let modes) = configuration.authorizationStrategy, modes.indices.contains(key) {
        configuration.authorization = modes[key]
        configuration.authorizationStrategy = .default
      }
      let made = RealtimeConnection(
        configuration: configuration, connector: platformWebSocketConnector(), observer: client.observer)
      connections[key] = made
      return made
    }
  }

  /// Every connection made so far.
  var all: [RealtimeConnection] {
    connections.withLock { connections in connections.keys.sorted().compactMap { connections[$0] } }
  }
}

extension APIClient {
  /// Starts `subscriber` on the connection of the first mode to try for `schema`'s `listen`
  /// operation and returns how to stop it; finishes it with
  /// ``APIError/invalidRequest(operationName:reason:)`` (nothing sent) when multi-auth finds no
  /// configured mode the model's `@auth` rules allow to listen.
  ///
  /// Under ``AuthorizationStrategy/multiAuth(_:)`` the modes are those of
  /// ``AuthorizationStrategy/ordered(_:for:operation:writtenFields:)`` for `listen`, as for a
  /// query; a subscription refused as unauthorized (the handshake's `connection_error`
  /// `UnauthorizedException`, the `start`'s `error` `Unauthorized`/`UnauthorizedException`, a
  /// provider that throws) before any `data` event arrived moves to the next mode's connection;
  /// the last refusal ends the stream. Once an event has arrived the mode never changes.
  ///
  /// `modeVariables` gives the variables of the `start` sent on one mode's connection (an owner
  /// argument read from that mode's token), in place of the subscriber's; a mode it lacks sends
  /// the subscriber's.
  func startSubscription(
    _ subscriber: any RealtimeSubscriber, schema: ModelSchema?,
    modeVariables: [AuthorizationMode: [String: GraphQLValue]] = [:]
  ) -> SubscriptionRoute? {
    let keys: [Int]
    var modes: [AuthorizationMode?]
    switch configuration.authorizationStrategy {
    case .default:
      keys = [SubscriptionHub.defaultKey]
      modes = [configuration.authorization.mode]
    case .multiAuth(let configured):
      keys = AuthorizationStrategy.orderedIndices(configured, for: schema, operation: .listen)
      modes = keys.map { configured[$0].mode }
      if keys.isEmpty {
        subscriber.failed(
          APIError.invalidRequest(
            operationName: subscriber.operationName,
            reason:
              "multi-auth: no configured mode is allowed by the @auth rules of \(schema?.name ?? "the request") for listen"
          ))
        return nil
      }
    }
    let starts = modes.map { mode in
      mode.flatMap { modeVariables[$0] }.map { variables in
        SubscriptionRoute.Start(
          data: subscriptionStartData(document: subscriber.document, variables: variables), variables: variables)
      }
    }
    let route = SubscriptionRoute(
      subscriber, id: UUID().uuidString.lowercased(),
      connections: keys.map { subscriptionHub.connection(for: self, key: $0) }, starts: starts)
    route.start()
    return route
  }
}

/// One subscription and the connections of the modes it may try, first to last
/// (``APIClient/startSubscription(_:schema:)``): it forwards every event to the subscriber and,
/// on an authorization refusal before any `data` event, moves itself to the next connection.
///
/// Thread-safety: its state is behind one lock; the connections call it from their actors.
final class SubscriptionRoute: RealtimeSubscriber {
  private let subscriber: any RealtimeSubscriber
  /// The subscription id, the same on every connection it tries.
  let id: String
  private let connections: [RealtimeConnection]

  private struct State {
    /// The connection in use.
    var index = 0
    /// A `start_ack` arrived on some connection: a later one is a reconnection.
    var acknowledged = false
    /// A `data` event arrived: the mode is fixed.
    var received = false
    /// The stream ended (``stop()``).
    var stopped = false
  }

  private let state = APILock(State())

  /// The `start` of one connection when it differs from the subscriber's (its mode's variables).
  struct Start: Sendable {
    let data: String
    let variables: [String: GraphQLValue]
  }

  /// Per connection, its own `start`, or `nil` for the subscriber's.
  private let starts: [Start?]

  init(
    _ subscriber: any RealtimeSubscriber, id: String, connections: [RealtimeConnection], starts: [Start?] = []
  ) {
    self.subscriber = subscriber
    self.id = id
    self.connections = connections
    self.starts = starts
  }

  /// The `start` of the connection in use, when it has its own.
  private var currentStart: Start? {
    let index = state.withLock { $0.index }
    return starts.indices.contains(index) ? starts[index] : nil
  }

  var operationName: String { subscriber.operationName }
  var startData: String { currentStart?.data ?? subscriber.startData }
  var document: String { subscriber.document }
  var variables: [String: GraphQLValue] { currentStart?.variables ?? subscriber.variables }

  /// Adds the subscription to the first connection.
  func start() {
    let connection = connections[0]
    Task { await connection.add(self, id: id) }
  }

  /// Stops the subscription on the connection it is on (the stream ended).
  func stop() {
    let connection = state.withLock { state in
      state.stopped = true
      return connections[state.index]
    }
    let id = id
    Task { await connection.remove(id) }
  }

  func acknowledged(reconnected: Bool) {
    let again = state.withLock { state in
      defer { state.acknowledged = true }
      return reconnected || state.acknowledged
    }
    subscriber.acknowledged(reconnected: again)
  }

  func received(_ message: Data) throws {
    try received(message, parsed: nil)
  }

  func received(_ message: Data, parsed: [String: Any]?) throws {
    state.withLock { $0.received = true }
    try subscriber.received(message, parsed: parsed)
  }

  func interrupted(_ reason: RealtimeError) {
    subscriber.interrupted(reason)
  }

  func failed(_ error: any Error) {
    let next: RealtimeConnection? = state.withLock { state in
      guard case APIError.authorization = error, !state.received, !state.stopped,
        state.index + 1 < connections.count
      else { return nil }
      state.index += 1
      return connections[state.index]
    }
    guard let next else {
      subscriber.failed(error)
      return
    }
    Task { await next.add(self, id: id) }
  }
}
