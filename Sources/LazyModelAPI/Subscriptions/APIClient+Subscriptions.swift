import Foundation
import LazyModel

/// One event of a subscription stream (``APIClient/subscribe(to:)``).
public enum SubscriptionEvent<M: Model>: Sendable {
  /// The server acknowledged the subscription (`start_ack`): mutations from now on are delivered.
  case connected
  /// A model the subscribed mutation produced, decoded with the client's decoding context: its
  /// lazy relationships load over the API (`try await event.post`).
  case model(M)
  /// The connection dropped and came back, and the subscription was acknowledged again: events
  /// may have been missed in between, so callers re-query what they show.
  case reconnected
}

extension APIClient {
  /// How the client's real-time (subscription) connection behaves.
  ///
  /// Thread-safety: a value type.
  public struct RealtimeConfiguration: Sendable {
    /// The real-time endpoint, or `nil` to derive it from the GraphQL endpoint
    /// (``APIClient/realtimeEndpoint(for:)``).
    public var endpoint: URL?
    /// Seconds from starting to connect until `connection_ack` must have arrived (the WebSocket
    /// handshake included); otherwise the attempt fails with ``RealtimeError/connectionAckTimeout(seconds:)``.
    public var connectionAckTimeout: Double
    /// The longest message accepted, in bytes; a longer one fails the connection with
    /// ``RealtimeError/messageTooLarge(limit:)`` without being buffered whole. AppSync's own
    /// limit for a subscription payload is 240 KB.
    public var maximumMessageBytes: Int
    /// Seconds before the first reconnect attempt; each further attempt doubles it (jittered).
    public var reconnectInitialDelay: Double
    /// The longest delay between reconnect attempts, in seconds.
    public var reconnectMaximumDelay: Double
    /// How many failed connection attempts in a row are retried before every subscription ends
    /// with the error (`0`: the first failure ends them). A subscription established on the
    /// connection (its `start_ack`, or a `data` event) resets the count; a `connection_ack` alone
    /// does not, so a connection that keeps failing after its ack fails for good too.
    public var maximumReconnectAttempts: Int
    /// On Linux, a PEM file of the certificate authorities a `wss://` endpoint is verified
    /// against, or `nil` for the system bundle (`SSL_CERT_FILE`, else
    /// `/etc/ssl/certs/ca-certificates.crt` and its Fedora/Alpine equivalents). Apple platforms
    /// always use the system trust store.
    public var certificateAuthorityFile: String?

    /// Creates a configuration.
    public init(
      endpoint: URL? = nil, connectionAckTimeout: Double = 15,
      maximumMessageBytes: Int = 4 << 20, reconnectInitialDelay: Double = 0.5,
      reconnectMaximumDelay: Double = 30, maximumReconnectAttempts: Int = 10,
      certificateAuthorityFile: String? = nil
    ) {
      self.certificateAuthorityFile = certificateAuthorityFile
      self.endpoint = endpoint
      self.connectionAckTimeout = connectionAckTimeout
      self.maximumMessageBytes = maximumMessageBytes
      self.reconnectInitialDelay = reconnectInitialDelay
      self.reconnectMaximumDelay = reconnectMaximumDelay
      self.maximumReconnectAttempts = maximumReconnectAttempts
    }
  }

  /// The real-time endpoint AppSync serves for `graphQLEndpoint`: the host's `appsync-api` label
  /// becomes `appsync-realtime-api` (`https://x.appsync-api.us-east-1.amazonaws.com/graphql` →
  /// `wss://x.appsync-realtime-api.us-east-1.amazonaws.com/graphql`); any other host (a custom
  /// domain, the local test server) gets `/realtime` after the path
  /// (`https://api.example.com/graphql` → `wss://api.example.com/graphql/realtime`). `https`
  /// becomes `wss` and `http` becomes `ws`.
  public static func realtimeEndpoint(for graphQLEndpoint: URL) -> URL {
    var components = URLComponents(url: graphQLEndpoint, resolvingAgainstBaseURL: false)!
    components.scheme = components.scheme?.lowercased() == "http" ? "ws" : "wss"
    if let host = components.host, host.contains(".appsync-api.") {
      components.host = host.replacingOccurrences(
        of: ".appsync-api.", with: ".appsync-realtime-api.")
    } else {
      var path = components.path
      if path.hasSuffix("/") { path.removeLast() }
      components.path = path + "/realtime"
    }
    components.query = nil
    return components.url!
  }

  /// Starts `subscription` over the client's real-time connection and returns its events.
  ///
  /// The stream yields ``SubscriptionEvent/connected`` once the server acknowledged the
  /// subscription, then ``SubscriptionEvent/model(_:)`` for each event, and
  /// ``SubscriptionEvent/reconnected`` after each reconnection. All subscriptions of the client
  /// share one WebSocket connection (opened by the first, closed after the last ends), one per
  /// mode under ``AuthorizationStrategy/multiAuth(_:)``. Ending the
  /// consuming task, dropping the stream, or ``finishSubscriptions()`` stops the subscription
  /// (`stop`); the others keep running.
  ///
  /// Under ``AuthorizationStrategy/multiAuth(_:)`` the modes are tried as for a query, from `M`'s
  /// `@auth` rules for the `listen` operation in Amplify's priority order
  /// (``AuthorizationStrategy/ordered(_:for:operation:writtenFields:)``), each on its own
  /// connection whose handshake `header` and `start` `extensions.authorization` carry that mode's
  /// headers; a refusal before any event arrived moves the subscription to the next mode, and the
  /// mode of each `start` sent is given to the client's observer
  /// (``GraphQLRequestRecord/authorizationMode``).
  ///
  /// The stream throws ``APIError``: `.graphQL` with the server's `errors` when it rejects the
  /// document (only this stream ends) or an event carries `errors`; `.undecodableResponse` when
  /// an event does not decode as `M`; `.authorization` when the provider or hook throws or the
  /// service refuses the credentials (under multi-auth: the last mode's refusal);
  /// `.invalidRequest` when multi-auth finds no configured mode that `M`'s `@auth` rules let
  /// listen (nothing is sent);
  /// `.transport` with a ``RealtimeError`` when the connection fails for good (see
  /// ``RealtimeConfiguration/maximumReconnectAttempts``) or the server sends `connection_error`.
  ///
  /// The owner arguments of `subscription` (``ModelSubscriptions/onCreate(_:where:includes:ownerArguments:)``)
  /// go only to the modes of an owner rule that takes them: under multi-auth, the `start` of a
  /// mode that no `allow: owner` rule of that provider names (an API key, IAM, a Lambda
  /// authorizer, or the other JWT provider) leaves them out (`ownerVariablesByMode(_:of:)`), as
  /// the sync engine passes each mode its own owner argument.
  ///
  /// Thread-safety: any number of tasks may subscribe at once.
  public func subscribe<M: Model>(to subscription: ModelSubscription<M>)
    -> AsyncThrowingStream<SubscriptionEvent<M>, any Error>
  {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: SubscriptionEvent<M>.self, throwing: (any Error).self)
    let subscriber = ModelSubscriber(client: self, subscription: subscription, continuation: continuation)
    let modeVariables = ownerVariablesByMode(subscription.variables, of: M.schema)
    if let route = startSubscription(subscriber, schema: M.schema, modeVariables: modeVariables) {
      continuation.onTermination = { _ in route.stop() }
    }
    return stream
  }

  /// Under ``AuthorizationStrategy/multiAuth(_:)``, `variables` (a subscription of `schema`'s
  /// model) for each configured mode that takes fewer of its owner arguments: a user-pool or OIDC
  /// mode keeps those of the `allow: owner` rules of its provider
  /// (``ModelSubscriptions/ownerArgumentNames(of:)``), any other mode none (AppSync reads an owner
  /// argument against the caller's JWT claims only). Empty under ``AuthorizationStrategy/default``
  /// or when `variables` holds no owner argument. Pure.
  func ownerVariablesByMode(_ variables: [String: GraphQLValue], of schema: ModelSchema) -> [AuthorizationMode: [String:
    GraphQLValue]]
  {
    guard case .multiAuth(let configured) = configuration.authorizationStrategy else { return [:] }
    let given = ModelSubscriptions.ownerArgumentNames(of: schema).filter { variables[$0] != nil }
    guard !given.isEmpty else { return [:] }
    let ownerRules = (schema.authRules + schema.fields.flatMap(\.authRules)).filter { $0.allow == .owner }
    var byMode: [AuthorizationMode: [String: GraphQLValue]] = [:]
    for authorization in configured {
      guard let mode = authorization.mode, byMode[mode] == nil else { continue }
      let provider: AuthRule.Provider?
      switch mode {
      case .userPools: provider = .userPools
      case .oidc: provider = .oidc
      default: provider = nil
      }
      let taken = Set(ownerRules.filter { $0.effectiveProvider == provider }.map { $0.ownerField ?? "owner" })
      let dropped = given.filter { !taken.contains($0) }
      if !dropped.isEmpty { byMode[mode] = variables.filter { !dropped.contains($0.key) } }
    }
    return byMode
  }

  /// Ends every subscription stream of this client normally and closes its real-time
  /// connections (one per mode under ``AuthorizationStrategy/multiAuth(_:)``).
  public func finishSubscriptions() async {
    for connection in subscriptionHub.all { await connection.finishAll(nil) }
  }

  /// The number of subscriptions the client's real-time connections carry now (for tests and
  /// diagnostics).
  public var activeSubscriptionCount: Int {
    get async {
      var count = 0
      for connection in subscriptionHub.all { count += await connection.count }
      return count
    }
  }
}

/// The `data` string of a real-time `start` message, `{"query":…,"variables":…}` with sorted keys
/// (what AppSync's real-time protocol signs and sends); `{}` if the variables do not encode.
func subscriptionStartData(document: String, variables: [String: GraphQLValue]) -> String {
  struct Start: Encodable {
    let query: String
    let variables: [String: GraphQLValue]
  }
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  let start = Start(query: document, variables: variables)
  return String(decoding: (try? encoder.encode(start)) ?? Data("{}".utf8), as: UTF8.self)
}

/// Decodes the `data` messages of one ``ModelSubscription`` into its stream.
final class ModelSubscriber<M: Model>: RealtimeSubscriber {
  let operationName: String
  let startData: String
  let document: String
  let variables: [String: GraphQLValue]
  private let decoder: JSONDecoder
  private let continuation: AsyncThrowingStream<SubscriptionEvent<M>, any Error>.Continuation

  private struct DataMessage: Decodable {
    let payload: ResponseEnvelope<M>
  }

  init(
    client: APIClient, subscription: ModelSubscription<M>,
    continuation: AsyncThrowingStream<SubscriptionEvent<M>, any Error>.Continuation
  ) {
    operationName = subscription.operationName
    document = subscription.document
    variables = subscription.variables
    startData = subscriptionStartData(document: subscription.document, variables: subscription.variables)
    let decoder = JSONDecoder()
    decoder.userInfo[.modelDecodingContext] = APIModelDecodingContext(
      client: client, nestedLists: subscription.nestedLists)
    decoder.userInfo[responseFieldKey] = subscription.responseField
    self.decoder = decoder
    self.continuation = continuation
  }

  func acknowledged(reconnected: Bool) {
    continuation.yield(reconnected ? .reconnected : .connected)
  }

  func received(_ message: Data) throws {
    let envelope: ResponseEnvelope<M>
    do {
      envelope = try decoder.decode(DataMessage.self, from: message).payload
    } catch let mismatch as TypenameMismatch {
      throw APIError.unexpectedTypename(
        operationName: operationName, expected: mismatch.expected, received: mismatch.received,
        path: mismatch.path, body: message)
    } catch {
      throw APIError.undecodableResponse(
        operationName: operationName, reason: "a data event does not decode: \(error)",
        body: message)
    }
    if !envelope.errors.isEmpty {
      throw APIError.graphQL(
        operationName: operationName, errors: envelope.errors, partialData: nil, body: message)
    }
    guard let model = envelope.data else {
      throw APIError.undecodableResponse(
        operationName: operationName, reason: "a data event has no model", body: message)
    }
    continuation.yield(.model(model))
  }

  func failed(_ error: any Error) {
    if error is SubscriptionFinished {
      continuation.finish()
    } else {
      continuation.finish(throwing: error)
    }
  }
}
