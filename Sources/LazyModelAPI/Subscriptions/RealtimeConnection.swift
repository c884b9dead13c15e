import Foundation

/// One subscription as the connection sees it: its `start` document and where its messages go.
protocol RealtimeSubscriber: Sendable {
  /// The operation name, for errors.
  var operationName: String { get }
  /// `{"query", "variables"}`: the `data` string of the `start` payload.
  var startData: String { get }
  /// The document and variables of `startData`, for the client's observer.
  var document: String { get }
  /// The variable values by name.
  var variables: [String: GraphQLValue] { get }
  /// `start_ack` arrived: the first time (`reconnected == false`) or after a reconnect.
  func acknowledged(reconnected: Bool)
  /// One `data` message (the whole message bytes). Throws when the event cannot be decoded or
  /// carries `errors`; the connection then ends this subscription with that error.
  func received(_ message: Data) throws
  /// `received(_:)` with the message already parsed by `JSONSerialization` (`parsed`: the
  /// top-level object; `nil`: not parsed, or not an object), so that a subscriber that reads it
  /// through `JSONSerialization` parses it only once. By default the same as `received(_:)`.
  func received(_ message: Data, parsed: [String: Any]?) throws
  /// The subscription ended with `error`.
  func failed(_ error: any Error)
  /// The connection failed with `reason` and is retried (the subscription goes on, and is
  /// started again on the next connection). By default nothing.
  func interrupted(_ reason: RealtimeError)
}

extension RealtimeSubscriber {
  func received(_ message: Data, parsed: [String: Any]?) throws { try received(message) }
  func interrupted(_ reason: RealtimeError) {}
}

/// AppSync's real-time protocol over one ``WebSocketConnection`` ("Building a real-time WebSocket
/// client in AWS AppSync"): `connection_init` → `connection_ack` (`connectionTimeoutMs`), `ka`
/// keep-alives, `start` (id, `data` = `{"query", "variables"}` as a JSON string,
/// `extensions.authorization`) → `start_ack` / `error`, `data`, `stop` → `complete`,
/// `connection_error`.
///
/// One connection carries every subscription of its client; it opens with the first subscription
/// and closes when the last one ends. A connection that fails (handshake, no `connection_ack` in
/// time, no `ka` within `connectionTimeoutMs`, a malformed or oversized message, an unknown
/// message type or subscription id, a close without `stop`) is closed and re-opened after a
/// jittered exponential backoff; the active subscriptions are started again and emit
/// `.reconnected` on their `start_ack`. After ``APIClient/RealtimeConfiguration/maximumReconnectAttempts``
/// failures in a row (a subscription's `start_ack` or `data` resets the count, a `connection_ack`
/// does not), or on `connection_error`, every
/// subscription ends with ``APIError/transport(operationName:underlying:)`` carrying the
/// ``RealtimeError``; a `connection_error` (or a `start`'s `error`) that refuses the credentials
/// (`UnauthorizedException`) ends them (or that one) with ``APIError/authorization(operationName:underlying:)``
/// carrying an ``AuthorizationError`` that names the mode, as an HTTP 401 does.
///
/// Thread-safety: an actor; the transport delivers its events through an `AsyncStream`.
actor RealtimeConnection {
  private enum Phase {
    case idle
    case connecting
    case ready
    case waitingToReconnect
  }

  private struct Entry {
    let subscriber: any RealtimeSubscriber
    /// `start` was sent on the current connection (so a `stop` is owed when it ends).
    var started = false
    var everAcknowledged = false
  }

  private let configuration: APIClient.Configuration
  private let connector: any WebSocketConnector
  private let observer: (@Sendable (GraphQLRequestRecord) -> Void)?
  private var entries: [String: Entry] = [:]
  private var phase = Phase.idle
  private var transport: (any WebSocketConnection)?
  private var generation = 0
  private var failures = 0
  private var watchdog: Task<Void, Never>?
  private var lastMessage = ContinuousClock.now
  private var keepAliveMilliseconds = 300_000
  /// Ids removed before their `add` ran (the two run on separate tasks): never added.
  private var removedEarly: Set<String> = []
  /// Ids stopped recently, whose in-flight messages are expected and ignored.
  private var stopped: [String] = []

  /// Creates an idle connection that authorizes with `configuration.authorization` (one mode:
  /// a multi-auth client keeps one connection per mode) and reports each `start` to `observer`.
  init(
    configuration: APIClient.Configuration, connector: any WebSocketConnector,
    observer: (@Sendable (GraphQLRequestRecord) -> Void)? = nil
  ) {
    self.configuration = configuration
    self.connector = connector
    self.observer = observer
  }

  /// The number of subscriptions the connection carries (started or waiting to start).
  var count: Int { entries.count }

  /// Adds a subscription under `id` and starts it (opening the connection when it is the first).
  func add(_ subscriber: any RealtimeSubscriber, id: String) async {
    if removedEarly.remove(id) != nil { return }
    entries[id] = Entry(subscriber: subscriber)
    switch phase {
    case .idle: await connect()
    case .ready: await start(id)
    case .connecting, .waitingToReconnect: break
    }
  }

  /// Stops the subscription `id` (`stop`), closing the connection when it was the last.
  func remove(_ id: String) {
    guard let entry = entries.removeValue(forKey: id) else {
      if !stopped.contains(id) { removedEarly.insert(id) }
      return
    }
    if phase == .ready, entry.started { send(["type": "stop", "id": id]) }
    forget([id])
    if entries.isEmpty { tearDown(next: .idle) }
  }

  /// Remembers ids that ended (for their in-flight messages and their late `remove`), at most 1,024.
  private func forget(_ ids: some Sequence<String>) {
    stopped.append(contentsOf: ids)
    if stopped.count > 1024 { stopped.removeFirst(stopped.count - 1024) }
  }

  /// Ends every subscription with `error` (or normally when `nil`) and closes the connection.
  func finishAll(_ error: (any Error)?) {
    let ended = entries
    entries = [:]
    forget(ended.keys)
    if phase == .ready {
      for (id, entry) in ended where entry.started { send(["type": "stop", "id": id]) }
    }
    tearDown(next: .idle)
    for entry in ended.values {
      if let error { entry.subscriber.failed(error) } else { entry.subscriber.failed(SubscriptionFinished()) }
    }
  }

  // MARK: - Connecting

  private func connect() async {
    generation += 1
    let current = generation
    phase = .connecting
    let header: [String: String]
    do {
      header = try await authorization(operationName: "connection_init")
    } catch {
      guard current == generation else { return }
      finishAllWith { self.authorizationFailure(error, operationName: $0) }
      return
    }
    guard current == generation, phase == .connecting else { return }
    let url = Self.handshakeURL(
      realtimeEndpoint: configuration.realtime.endpoint
        ?? APIClient.realtimeEndpoint(for: configuration.endpoint),
      header: header)
    let connection = connector.connect(
      to: url,
      options: WebSocketOptions(
        subprotocol: "graphql-ws", maximumMessageBytes: configuration.realtime.maximumMessageBytes,
        certificateAuthorityFile: configuration.realtime.certificateAuthorityFile))
    transport = connection
    Task { [weak self] in
      for await event in connection.events {
        guard let self else { return }
        await self.handle(event, generation: current)
      }
    }
    let ackTimeout = configuration.realtime.connectionAckTimeout
    watchdog = Task { [weak self] in
      try? await Task.sleep(for: .seconds(ackTimeout))
      if Task.isCancelled { return }
      await self?.ackTimedOut(generation: current)
    }
  }

  private func ackTimedOut(generation current: Int) {
    guard current == generation, phase == .connecting else { return }
    fault(.connectionAckTimeout(seconds: configuration.realtime.connectionAckTimeout))
  }

  private func handle(_ event: WebSocketEvent, generation current: Int) async {
    guard current == generation else { return }
    switch event {
    case .opened:
      send(["type": "connection_init"])
    case .text(let message):
      await handleMessage(message)
    case .closed(let failure):
      fault(failure ?? .transportClosed(reason: "the connection closed"))
    }
  }

  private struct Envelope {
    let type: String
    let id: String?

    /// An `id` member of a `JSONSerialization` object as the envelope reads it: `.some(nil)` when
    /// absent or `null`, the string when a string, `nil` (not decodable) otherwise.
    static func id(_ member: Any?) -> String?? {
      switch member {
      case nil, is NSNull: return .some(nil)
      case let text as String: return .some(text)
      default: return nil
      }
    }

    /// What a JSON value that is not a string is, for a malformed message's reason (`the number
    /// 1`, `an object`).
    static func kind(_ member: Any) -> String {
      switch member {
      case let number as NSNumber: return "the number \(number)"
      case is [Any]: return "an array"
      case is [String: Any]: return "an object"
      default: return "no string"
      }
    }
  }

  private struct AckPayload: Decodable {
    struct Payload: Decodable { let connectionTimeoutMs: Int? }
    let payload: Payload?
  }

  /// `{"payload": {"errors": [...]}}` of `error` and `connection_error`. AppSync's
  /// `connection_error` entries may have only `errorType` and `errorCode` (no `message`), so each
  /// entry is read leniently; `errorCode` goes to ``GraphQLError/extensions``.
  private struct ErrorsPayload: Decodable {
    struct Entry: Decodable {
      let message: String?
      let errorType: String?
      let errorCode: Int?
      let locations: [GraphQLError.Location]?
      let path: [GraphQLValue]?
    }
    struct Payload: Decodable { let errors: [Entry]? }
    let payload: Payload?

    static func errors(in message: Data) -> [GraphQLError] {
      let entries = (try? JSONDecoder().decode(Self.self, from: message))?.payload?.errors ?? []
      return entries.map { entry in
        GraphQLError(
          message: entry.message ?? entry.errorType ?? "error",
          locations: entry.locations, path: entry.path,
          extensions: entry.errorCode.map { ["errorCode": .int($0)] }, errorType: entry.errorType)
      }
    }
  }

  private func handleMessage(_ message: Data) async {
    lastMessage = .now
    // One `JSONSerialization` pass, whose object a `data` message's subscriber reads too
    // (`RealtimeSubscriber.received(_:parsed:)`); a message that is no JSON object, whose `type`
    // is no string, or whose `id` is neither absent, `null` nor a string, is refused.
    guard let parsed = try? JSONSerialization.jsonObject(with: message) as? [String: Any],
      let type = parsed["type"] as? String
    else {
      fault(.malformedMessage(reason: "not a JSON object with a string 'type' (\(message.count) bytes)"))
      return
    }
    // AppSync's real-time guide: the client names each subscription with a unique string id in
    // its `start`, and every message of that subscription carries that string back. An id of
    // another JSON type (a number) names no subscription this client started; it is not
    // matched by its text (`1` is not `"1"`), it is a protocol fault.
    guard let id = Envelope.id(parsed["id"]) else {
      fault(
        .malformedMessage(
          reason: "a '\(type)' message whose 'id' is \(Envelope.kind(parsed["id"] ?? NSNull())), not a string"))
      return
    }
    let envelope = Envelope(type: type, id: id)
    switch envelope.type {
    case "connection_ack":
      guard phase == .connecting else { return }
      let milliseconds =
        (try? JSONDecoder().decode(AckPayload.self, from: message))?.payload?.connectionTimeoutMs
        ?? 300_000
      phase = .ready
      // The failure count is reset by a subscription established (`start_ack`, `data`), not by
      // the `connection_ack`: a connection that fails after every ack (a bad `start`, a
      // malformed message) fails for good after the bounded attempts instead of looping.
      keepAliveMilliseconds = max(milliseconds, 1)
      startKeepAliveWatchdog()
      for id in entries.keys.sorted() { await start(id) }
    case "ka":
      break
    case "start_ack":
      guard let id = known(envelope.id) else { return }
      failures = 0
      let reconnected = entries[id]?.everAcknowledged ?? false
      entries[id]?.everAcknowledged = true
      entries[id]?.subscriber.acknowledged(reconnected: reconnected)
    case "data":
      guard let id = known(envelope.id), let entry = entries[id] else { return }
      failures = 0
      do {
        try entry.subscriber.received(message, parsed: parsed)
      } catch {
        remove(id)
        entry.subscriber.failed(error)
      }
    case "error":
      let errors = ErrorsPayload.errors(in: message)
      guard envelope.id != nil else {
        fatal(.connectionError(errors: errors))
        return
      }
      guard let id = known(envelope.id), let entry = entries.removeValue(forKey: id) else { return }
      forget([id])
      if let refused = refusal(errors) {
        entry.subscriber.failed(
          APIError.authorization(operationName: entry.subscriber.operationName, underlying: refused))
      } else {
        entry.subscriber.failed(
          APIError.graphQL(
            operationName: entry.subscriber.operationName, errors: errors, partialData: nil,
            body: message))
      }
      if entries.isEmpty { tearDown(next: .idle) }
    case "complete":
      // The server ended an active subscription (a `complete` after our own `stop` names an id
      // already forgotten): its stream finishes normally.
      guard let id = known(envelope.id), let entry = entries.removeValue(forKey: id) else { return }
      forget([id])
      entry.subscriber.failed(SubscriptionFinished())
      if entries.isEmpty { tearDown(next: .idle) }
    case "connection_error":
      let errors = ErrorsPayload.errors(in: message)
      if let refused = refusal(errors) {
        failures = 0
        finishAllWith { .authorization(operationName: $0, underlying: refused) }
      } else {
        fatal(.connectionError(errors: errors))
      }
    default:
      fault(.unknownMessageType(envelope.type))
    }
  }

  /// The ``AuthorizationError`` of a `connection_error` or a `start`'s `error` whose every error is
  /// AppSync's refusal of the credentials (`errorType` `UnauthorizedException`, also namespaced as
  /// AWS sends it, `…#UnauthorizedException`, or `Unauthorized`,
  /// as the real-time guide shows, `errorCode` 401 when sent), naming the configured mode; `nil`
  /// for other errors or when no mode is configured (those stay ``RealtimeError/connectionError(errors:)``
  /// and ``APIError/graphQL(operationName:errors:partialData:body:)``).
  private func refusal(_ errors: [GraphQLError]) -> AuthorizationError? {
    guard let mode = configuration.authorization.mode, !errors.isEmpty,
      errors.allSatisfy({ $0.errorType == "Unauthorized" || $0.errorType?.hasSuffix("UnauthorizedException") == true })
    else { return nil }
    var status = 401
    if case .int(let code)? = errors.first?.extensions?["errorCode"] { status = code }
    return AuthorizationError(mode: mode, reason: .rejected(statusCode: status, errors: errors))
  }

  /// `id` when it names an active subscription; `nil` (ignored) for one stopped recently; a
  /// fault for any other id.
  private func known(_ id: String?) -> String? {
    guard let id else {
      fault(.malformedMessage(reason: "a message that needs an 'id' has none"))
      return nil
    }
    if entries[id] != nil { return id }
    if !stopped.contains(id) { fault(.unknownSubscriptionID(id)) }
    return nil
  }

  private func start(_ id: String) async {
    guard let entry = entries[id] else { return }
    let current = generation
    let authorization: [String: String]
    do {
      authorization = try await self.authorization(
        operationName: entry.subscriber.operationName, startData: entry.subscriber.startData)
    } catch {
      guard entries.removeValue(forKey: id) != nil else { return }
      forget([id])
      entry.subscriber.failed(authorizationFailure(error, operationName: entry.subscriber.operationName))
      if entries.isEmpty { tearDown(next: .idle) }
      return
    }
    guard current == generation, phase == .ready, entries[id] != nil else { return }
    let payload: [String: Any] = [
      "data": entry.subscriber.startData,
      "extensions": ["authorization": authorization],
    ]
    observer?(
      GraphQLRequestRecord(
        operationName: entry.subscriber.operationName, document: entry.subscriber.document,
        variables: entry.subscriber.variables, authorizationMode: configuration.authorization.mode))
    send(["id": id, "type": "start", "payload": payload])
    entries[id]?.started = true
  }

  private func startKeepAliveWatchdog() {
    watchdog?.cancel()
    let current = generation
    let timeout = Duration.milliseconds(keepAliveMilliseconds)
    watchdog = Task { [weak self] in
      var wait = timeout
      while !Task.isCancelled {
        try? await Task.sleep(for: wait)
        guard let self, !Task.isCancelled else { return }
        guard let remaining = await self.keepAliveRemaining(generation: current) else { return }
        wait = remaining
      }
    }
  }

  /// The time left before the keep-alive deadline, or `nil` after faulting the connection.
  private func keepAliveRemaining(generation current: Int) -> Duration? {
    guard current == generation, phase == .ready else { return nil }
    let remaining = lastMessage + .milliseconds(keepAliveMilliseconds) - .now
    if remaining <= .zero {
      fault(.keepAliveTimeout(milliseconds: keepAliveMilliseconds))
      return nil
    }
    return remaining
  }

  // MARK: - Failing and reconnecting

  /// A connection failure: reconnect after a backoff, or give up after too many in a row.
  private func fault(_ reason: RealtimeError) {
    guard phase != .idle, phase != .waitingToReconnect else { return }
    tearDown(next: .waitingToReconnect)
    guard !entries.isEmpty else {
      phase = .idle
      return
    }
    failures += 1
    let limit = configuration.realtime.maximumReconnectAttempts
    if failures > limit {
      fatal(limit == 0 ? reason : .reconnectFailed(attempts: failures - 1, last: reason))
      return
    }
    for id in entries.keys { entries[id]?.started = false }
    for entry in entries.values { entry.subscriber.interrupted(reason) }
    let delay = backoff(attempt: failures)
    let current = generation
    Task { [weak self] in
      try? await Task.sleep(for: .seconds(delay))
      await self?.reconnect(after: current)
    }
  }

  private func reconnect(after current: Int) async {
    guard current == generation, phase == .waitingToReconnect else { return }
    if entries.isEmpty {
      phase = .idle
      return
    }
    await connect()
  }

  /// The delay before reconnect attempt `attempt` (1-based): "equal jitter" over an exponential
  /// backoff capped at ``APIClient/RealtimeConfiguration/reconnectMaximumDelay`` (AWS
  /// Architecture Blog, "Exponential Backoff And Jitter", which the AppSync guide cites).
  private func backoff(attempt: Int) -> Double {
    let settings = configuration.realtime
    let exponential = settings.reconnectInitialDelay * pow(2, Double(min(attempt - 1, 30)))
    let capped = min(settings.reconnectMaximumDelay, exponential)
    return capped / 2 + Double.random(in: 0...(capped / 2))
  }

  /// Ends every subscription with `reason` and closes the connection.
  private func fatal(_ reason: RealtimeError) {
    failures = 0
    finishAllWith { .transport(operationName: $0, underlying: reason) }
  }

  private func finishAllWith(_ error: (String) -> APIError) {
    let ended = entries
    entries = [:]
    forget(ended.keys)
    tearDown(next: .idle)
    for entry in ended.values { entry.subscriber.failed(error(entry.subscriber.operationName)) }
  }

  private func tearDown(next: Phase) {
    watchdog?.cancel()
    watchdog = nil
    transport?.close()
    transport = nil
    generation += 1
    phase = next
    if next == .idle { failures = 0 }
  }

  // MARK: - Messages

  private func send(_ message: [String: Any]) {
    guard let transport,
      let data = try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])
    else { return }
    transport.send(data)
  }

  /// The authorization object of the handshake's `header` parameter and of each `start`'s
  /// `extensions.authorization`: `host` (of the GraphQL endpoint, as AppSync signs it), the
  /// configuration's additional headers, and the headers of the configured authorization mode
  /// (``APIClient/authorizationHeaders(_:url:body:headers:operationName:date:)``, the same
  /// function the HTTP requests use). As AppSync's real-time guide describes, IAM signs the
  /// handshake as a `POST` of `{}` to `<GraphQL endpoint>/connect` and each `start` as a `POST` of
  /// its `data` string to the GraphQL endpoint.
  ///
  /// - Parameter startData: The `start` message's `data` (the JSON text of the query and
  ///   variables); `nil` for the handshake.
  private func authorization(operationName: String, startData: String? = nil) async throws -> [String: String] {
    var headers = configuration.additionalHeaders
    var host = configuration.endpoint.host ?? ""
    if let port = configuration.endpoint.port { host += ":\(port)" }
    headers["host"] = host
    let url = startData == nil ? configuration.endpoint.appendingPathComponent("connect") : configuration.endpoint
    let body = Data((startData ?? "{}").utf8)
    let authorization = configuration.authorization
    let signed: [String: String]
    switch authorization {
    case .none, .apiKey:
      signed = try await APIClient.authorizationHeaders(
        authorization, url: url, body: body, operationName: operationName)
    default:
      // A provider (token, credentials, hook) may hang and ignore cancellation: it runs in a task
      // of its own, raced by the client's deadline (``APIClient/Configuration/timeout``), as for
      // the HTTP requests.
      let onDeadline: @Sendable () -> any Error = { ProviderDeadline() }
      signed = try await withDeadline(seconds: configuration.timeout, onDeadline: onDeadline) {
        try await APIClient.authorizationHeaders(
          authorization, url: url, body: body, operationName: operationName)
      }
    }
    for (name, value) in signed { headers[name] = value }
    return headers
  }

  /// The configured authorization's provider did not answer within the client's deadline; the
  /// subscriptions it was asked for end with ``APIError/timedOut(operationName:seconds:)``.
  private struct ProviderDeadline: Error {}

  /// The error a subscription ends with when its authorization failed with `error`:
  /// ``APIError/timedOut(operationName:seconds:)`` for a provider past the deadline, else
  /// ``APIError/authorization(operationName:underlying:)``.
  private func authorizationFailure(_ error: any Error, operationName: String) -> APIError {
    if error is ProviderDeadline {
      return .timedOut(operationName: operationName, seconds: configuration.timeout)
    }
    return .authorization(operationName: operationName, underlying: error)
  }

  /// `<realtime endpoint>?header=<base64 JSON>&payload=e30=` (the payload is `{}`).
  static func handshakeURL(realtimeEndpoint: URL, header: [String: String]) -> URL {
    let json = (try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) ?? Data("{}".utf8)
    var components = URLComponents(url: realtimeEndpoint, resolvingAgainstBaseURL: false)!
    components.percentEncodedQuery =
      "header=" + percentEncoded(json.base64EncodedString()) + "&payload="
      + percentEncoded(Data("{}".utf8).base64EncodedString())
    return components.url!
  }

  private static func percentEncoded(_ base64: String) -> String {
    base64.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F")
      .replacingOccurrences(of: "=", with: "%3D")
  }
}

/// The error a subscription ends with internally when ``APIClient/finishSubscriptions()`` ends it
/// normally (its stream finishes without throwing).
struct SubscriptionFinished: Error {}
