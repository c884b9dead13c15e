import Foundation

/// Why a real-time connection failed, as the `underlying` error of
/// ``APIError/transport(operationName:underlying:)`` (or the reason of
/// ``APIError/undecodableResponse(operationName:reason:body:)`` for a malformed message). The
/// protocol is AppSync's ("Building a real-time WebSocket client in AWS AppSync").
///
/// No case carries the endpoint URL: its `header` query parameter holds the authorization.
///
/// Thread-safety: `Sendable` values.
public enum RealtimeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The WebSocket handshake failed (refused, not `101 Switching Protocols`, TLS, DNS).
  case handshakeFailed(reason: String)
  /// No `connection_ack` arrived within `seconds` after connecting.
  case connectionAckTimeout(seconds: Double)
  /// No `ka` (or other message) arrived within the `connectionTimeoutMs` the server announced.
  case keepAliveTimeout(milliseconds: Int)
  /// A message was longer than ``APIClient/RealtimeConfiguration/maximumMessageBytes``; the
  /// connection was closed before reading the rest.
  case messageTooLarge(limit: Int)
  /// A message was not a JSON object with a string `type`, or its `id` was neither absent,
  /// `null` nor a string (AppSync's subscription ids are the strings the client's `start` sent).
  case malformedMessage(reason: String)
  /// A message `type` the protocol does not have.
  case unknownMessageType(String)
  /// A `data`, `start_ack` or `error` for a subscription id this connection never started.
  case unknownSubscriptionID(String)
  /// The server sent `connection_error` (for example `UnauthorizedException`): the connection is
  /// refused and is not retried.
  case connectionError(errors: [GraphQLError])
  /// The connection closed without a `stop`/`complete` exchange (dropped, reset, closed mid-frame).
  case transportClosed(reason: String)
  /// Reconnecting failed `attempts` times in a row; the last failure is `last`.
  indirect case reconnectFailed(attempts: Int, last: RealtimeError)

  /// A one-line explanation.
  public var description: String {
    switch self {
    case .handshakeFailed(let reason): return "WebSocket handshake failed: \(reason)"
    case .connectionAckTimeout(let seconds): return "no connection_ack within \(seconds) s"
    case .keepAliveTimeout(let ms): return "no keep-alive (ka) within \(ms) ms"
    case .messageTooLarge(let limit): return "a message exceeded \(limit) bytes"
    case .malformedMessage(let reason): return "malformed message: \(reason)"
    case .unknownMessageType(let type): return "unknown message type '\(type)'"
    case .unknownSubscriptionID(let id): return "message for unknown subscription id '\(id)'"
    case .connectionError(let errors):
      return "connection_error: " + errors.map(\.description).joined(separator: "; ")
    case .transportClosed(let reason): return "connection closed: \(reason)"
    case .reconnectFailed(let attempts, let last):
      return "reconnecting failed \(attempts) times; last: \(last)"
    }
  }
}
