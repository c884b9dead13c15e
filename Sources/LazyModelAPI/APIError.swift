import Foundation
import LazyModel

/// One entry of a response's `errors` (GraphQL spec §7.1.2 "Errors"), with AppSync's `errorType`
/// and `errorInfo` kept when present.
public struct GraphQLError: Error, Sendable, Hashable, Decodable, CustomStringConvertible {
  /// A line/column position in the document (1-based).
  public struct Location: Sendable, Hashable, Decodable {
    /// The 1-based line.
    public let line: Int
    /// The 1-based column.
    public let column: Int
  }

  /// The error text.
  public let message: String
  /// Where in the document the error arose, when the server says.
  public let locations: [Location]?
  /// The response path of the field that failed: field names (strings) and list indexes (ints).
  public let path: [GraphQLValue]?
  /// Server-specific details (`extensions`).
  public let extensions: [String: GraphQLValue]?
  /// AppSync's error class (`DynamoDB:ConditionalCheckFailedException`, `Unauthorized`), when sent.
  public let errorType: String?

  /// Creates an error (for tests and custom transports).
  public init(
    message: String, locations: [Location]? = nil, path: [GraphQLValue]? = nil,
    extensions: [String: GraphQLValue]? = nil, errorType: String? = nil
  ) {
    self.message = message
    self.locations = locations
    self.path = path
    self.extensions = extensions
    self.errorType = errorType
  }

  /// `message`, with the path when there is one.
  public var description: String {
    guard let path, !path.isEmpty else { return message }
    let steps = path.map { step -> String in
      switch step {
      case .string(let name): return name
      case .int(let index): return String(index)
      default: return "?"
      }
    }
    return "\(message) (at \(steps.joined(separator: ".")))"
  }
}

/// Every way sending a ``GraphQLRequest`` can fail. Each case names the operation and keeps what
/// the server sent, so a failure can be logged and diagnosed without re-running it.
///
/// Thread-safety: `Sendable` values.
public enum APIError: Error, Sendable, CustomStringConvertible {
  /// The request could not be built: key components that do not match the model's primary key,
  /// an unknown index, a model that cannot be encoded as an input, a non-finite `Float`.
  case invalidRequest(operationName: String, reason: String)
  /// The response had `errors` (GraphQL spec §7.1.2). `partialData` is the response's `data`
  /// member when it was present and not `null` (partial results, §6.4.4 "Handling Field Errors").
  case graphQL(
    operationName: String, errors: [GraphQLError], partialData: GraphQLValue?, body: Data)
  /// The server answered with a non-2xx HTTP status. `errors` are those of a GraphQL error body,
  /// if the body was one (AppSync answers 401 with `errors`).
  case httpStatus(operationName: String, statusCode: Int, errors: [GraphQLError], body: Data)
  /// The body was not JSON, had neither `data` nor `errors`, or `data.<field>` did not decode as
  /// the expected model. `reason` names the failing coding path.
  case undecodableResponse(operationName: String, reason: String, body: Data)
  /// The exchange did not finish within ``APIClient/Configuration/timeout`` (a deadline for the
  /// whole exchange: authorization, connecting, sending and reading the body), or no byte arrived
  /// for ``APIClient/Configuration/idleTimeout``. `seconds` is the limit that passed.
  case timedOut(operationName: String, seconds: Double)
  /// The server could not be reached or the connection failed (refused, reset, DNS, TLS).
  case transport(operationName: String, underlying: any Error)
  /// The authorization hook threw; the request was not sent.
  case authorization(operationName: String, underlying: any Error)
  /// The task was cancelled before the response arrived.
  case cancelled(operationName: String)
  /// The endpoint answered with an HTTP redirect (3xx). The client never follows one: AppSync
  /// never redirects, and following would send the authorization headers (and, for 307/308, the
  /// body) to whatever `location` names. `location` is the `Location` header, if any.
  case redirected(operationName: String, statusCode: Int, location: String?)
  /// The response body, counted after `Content-Encoding` decompression while it streams in, grew
  /// past ``APIClient/Configuration/maximumResponseBytes`` (`limit`, in bytes); the transfer was
  /// stopped there.
  case responseTooLarge(operationName: String, limit: Int)
  /// An object of the response names in `__typename` another type than the model it decodes as
  /// (`expected`, the model's `ModelSchema.name`); `path` is its coding path (`getPost.post`).
  case unexpectedTypename(
    operationName: String, expected: String, received: String, path: String, body: Data)

  /// The operation the error belongs to.
  public var operationName: String {
    switch self {
    case .invalidRequest(let name, _), .graphQL(let name, _, _, _), .httpStatus(let name, _, _, _),
      .undecodableResponse(let name, _, _), .timedOut(let name, _), .transport(let name, _),
      .authorization(let name, _), .cancelled(let name), .redirected(let name, _, _),
      .responseTooLarge(let name, _), .unexpectedTypename(let name, _, _, _, _):
      return name
    }
  }

  /// The raw response body, for the cases that received one.
  public var responseBody: Data? {
    switch self {
    case .graphQL(_, _, _, let body), .httpStatus(_, _, _, let body),
      .undecodableResponse(_, _, let body), .unexpectedTypename(_, _, _, _, let body):
      return body
    default:
      return nil
    }
  }

  /// A one-line explanation naming the operation.
  public var description: String {
    switch self {
    case .invalidRequest(let name, let reason):
      return "\(name): invalid request: \(reason)"
    case .graphQL(let name, let errors, let partial, _):
      let kind = partial == nil ? "GraphQL errors" : "GraphQL errors with partial data"
      return "\(name): \(kind): " + errors.map(\.description).joined(separator: "; ")
    case .httpStatus(let name, let status, let errors, let body):
      let detail =
        errors.isEmpty
        ? String(decoding: body.prefix(200), as: UTF8.self)
        : errors.map(\.description).joined(separator: "; ")
      return "\(name): HTTP \(status): \(detail)"
    case .undecodableResponse(let name, let reason, _):
      return "\(name): undecodable response: \(reason)"
    case .timedOut(let name, let seconds):
      return "\(name): no response within \(seconds) s"
    case .transport(let name, let underlying):
      return "\(name): transport failure: \(underlying)"
    case .authorization(let name, let underlying):
      return "\(name): authorization hook failed: \(underlying)"
    case .cancelled(let name):
      return "\(name): cancelled"
    case .redirected(let name, let status, let location):
      return "\(name): HTTP \(status) redirect to \(location ?? "no Location") not followed"
    case .responseTooLarge(let name, let limit):
      return "\(name): response body larger than \(limit) bytes"
    case .unexpectedTypename(let name, let expected, let received, let path, _):
      return "\(name): \(path) has __typename \(received), expected \(expected)"
    }
  }
}
