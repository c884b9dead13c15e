import Foundation

/// What one WebSocket connection reports, in order: ``opened`` once (the HTTP upgrade succeeded and
/// the `graphql-ws` subprotocol was accepted), any number of ``text(_:)`` (one complete text
/// message each, at most the connection's `maximumMessageBytes`), then ``closed(_:)`` once.
enum WebSocketEvent: Sendable {
  /// The handshake completed.
  case opened
  /// One complete text message (UTF-8 bytes).
  case text(Data)
  /// The connection ended: `nil` after ``WebSocketConnection/close()``, else why it failed.
  case closed(RealtimeError?)
}

/// One WebSocket client connection, whatever carries it (URLSession on Apple platforms,
/// libwebsockets on Linux). The AppSync protocol (``RealtimeConnection``) sits on top of this and
/// knows nothing of the transport.
///
/// Thread-safety: `send` and `close` may be called from any thread and never block on I/O.
protocol WebSocketConnection: Sendable {
  /// The connection's events; finishes after ``WebSocketEvent/closed(_:)``.
  var events: AsyncStream<WebSocketEvent> { get }
  /// Queues one text message (UTF-8 bytes); messages go out in the order queued.
  func send(_ text: Data)
  /// Sends what is queued, then closes with status 1000 (normal closure). Idempotent.
  func close()
}

/// How to open one ``WebSocketConnection``.
struct WebSocketOptions: Sendable {
  /// The subprotocol offered (`graphql-ws`).
  var subprotocol: String
  /// A message longer than this (bytes) fails the connection with
  /// ``RealtimeError/messageTooLarge(limit:)``.
  var maximumMessageBytes: Int
  /// A PEM file of the certificate authorities `wss://` servers are verified against, or `nil`
  /// for the platform's (the system bundle on Linux, the system trust store on Apple platforms).
  var certificateAuthorityFile: String?
}

/// Opens ``WebSocketConnection``s.
protocol WebSocketConnector: Sendable {
  /// Starts connecting to `url` (`ws://` or `wss://`).
  func connect(to url: URL, options: WebSocketOptions) -> any WebSocketConnection
}

/// The platform's transport: `URLSessionWebSocketTask` where Foundation has a working one (Apple
/// platforms), the system libwebsockets on Linux (FoundationNetworking's WebSocket support needs a
/// libcurl built with WebSockets, which Debian's is not).
func platformWebSocketConnector() -> any WebSocketConnector {
  #if canImport(Darwin)
    URLSessionWebSocketConnector()
  #else
    LibWebSocketsConnector()
  #endif
}
