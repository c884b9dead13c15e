import Foundation
import LazyModel

/// The AppSync authorization modes (AppSync Developer Guide, "Configuring authorization and
/// authentication to secure your GraphQL APIs"), as named in errors and in multi-auth.
public enum AuthorizationMode: String, Sendable, Hashable, CaseIterable {
  /// `API_KEY`: the `x-api-key` header.
  case apiKey
  /// `AMAZON_COGNITO_USER_POOLS`: a user pool JWT in the `Authorization` header.
  case userPools
  /// `OPENID_CONNECT`: an OIDC JWT in the `Authorization` header.
  case oidc
  /// `AWS_LAMBDA`: a token for the Lambda authorizer in the `Authorization` header.
  case lambda
  /// `AWS_IAM`: Signature Version 4 over the request.
  case iam
  /// A caller's own hook (``APIClient/Authorization/headers(_:)`` or ``APIClient/Authorization/custom(_:)``).
  case custom
}

/// Why authorizing a request failed, with the mode that failed.
///
/// Thrown as the `underlying` error of ``APIError/authorization(operationName:underlying:)``.
/// Its description never contains a token, key or secret.
public struct AuthorizationError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Sendable {
    /// The token or credentials provider threw `error`; the request was not sent.
    case providerFailed(any Error)
    /// The credentials are empty (an empty API key, token, access key, secret or session token,
    /// or a hook that returned no header or an empty value); the request was not sent.
    case emptyCredentials
    /// The service refused the credentials: HTTP `statusCode` (401/403), or a GraphQL error of
    /// type `Unauthorized`, with the `errors` it sent (an expired or malformed token, a bad
    /// signature, a clock-skew rejection, a rule that does not allow this caller).
    case rejected(statusCode: Int, errors: [GraphQLError])
  }

  /// The mode that failed.
  public let mode: AuthorizationMode
  /// What went wrong.
  public let reason: Reason

  /// Creates an error.
  public init(mode: AuthorizationMode, reason: Reason) {
    self.mode = mode
    self.reason = reason
  }

  /// The error the provider threw, for ``Reason/providerFailed(_:)``.
  public var providerError: (any Error)? {
    if case .providerFailed(let error) = reason { return error }
    return nil
  }

  /// `<mode>: <reason>`.
  public var description: String {
    switch reason {
    case .providerFailed(let error): return "\(mode.rawValue): the provider failed: \(error)"
    case .emptyCredentials: return "\(mode.rawValue): the provider returned no credentials"
    case .rejected(let status, let errors):
      let detail = errors.map(\.description).joined(separator: "; ")
      return "\(mode.rawValue): rejected (HTTP \(status))\(detail.isEmpty ? "" : ": \(detail)")"
    }
  }
}

/// What a request-signing hook sees of the request it authorizes (``APIClient/Authorization/custom(_:)``).
public struct AuthorizationRequest: Sendable {
  /// The operation name.
  public let operationName: String
  /// The HTTP method (`POST`).
  public let method: String
  /// The URL the request goes to.
  public let url: URL
  /// The headers already set (content type, accept, ``APIClient/Configuration/additionalHeaders``).
  public let headers: [String: String]
  /// The exact body bytes.
  public let body: Data
}

extension APIClient {
  /// Returns a token (a JWT for user pools and OIDC, any string for a Lambda authorizer); called
  /// before every request, so it may refresh an expired token. Bounded by the request deadline.
  public typealias TokenProvider = @Sendable () async throws -> String
  /// Returns AWS credentials for IAM; called before every request (it may refresh them).
  public typealias CredentialsProvider = @Sendable () async throws -> AWSCredentials

  /// The headers that authorize a `POST` of `body` to `url` under `authorization`: `x-api-key`,
  /// `Authorization` (a token, or a SigV4 signature with `X-Amz-Date` and `X-Amz-Security-Token`),
  /// or what a hook returns. For IAM the signed `host` is included too, for the real-time
  /// handshake (which carries the headers in its payload); the HTTP request drops it, since
  /// URLSession sends the same `Host`.
  ///
  /// Shared by the HTTP requests and the real-time handshake and `start` messages.
  ///
  /// Empty credentials are refused before anything is sent, in every mode: an empty API key, an
  /// empty token, IAM credentials with an empty access key, secret or session token, a hook that
  /// returns no header or a header with an empty value (all-whitespace counts as empty).
  ///
  /// - Parameter headers: The other headers the request sends (signed under IAM).
  /// - Throws: ``AuthorizationError`` (provider failed, or ``AuthorizationError/Reason/emptyCredentials``),
  ///   `CancellationError`.
  static func authorizationHeaders(
    _ authorization: Authorization, url: URL, body: Data, headers: [String: String] = [:],
    operationName: String, date: Date = Date()
  ) async throws -> [String: String] {
    func token(_ mode: AuthorizationMode, _ provider: TokenProvider) async throws -> [String: String] {
      let value: String
      do { value = try await provider() } catch {
        if Task.isCancelled { throw CancellationError() }
        throw AuthorizationError(mode: mode, reason: .providerFailed(error))
      }
      guard !isBlank(value) else { throw AuthorizationError(mode: mode, reason: .emptyCredentials) }
      return ["Authorization": value]
    }
    func hooked(_ headers: [String: String]) throws -> [String: String] {
      guard !headers.isEmpty, !headers.values.contains(where: isBlank) else {
        throw AuthorizationError(mode: .custom, reason: .emptyCredentials)
      }
      return headers
    }
    switch authorization {
    case .none:
      return [:]
    case .apiKey(let key):
      guard !isBlank(key) else { throw AuthorizationError(mode: .apiKey, reason: .emptyCredentials) }
      return ["x-api-key": key]
    case .userPools(let provider):
      return try await token(.userPools, provider)
    case .oidc(let provider):
      return try await token(.oidc, provider)
    case .lambda(let provider):
      return try await token(.lambda, provider)
    case .iam(let provider, let region):
      let credentials: AWSCredentials
      do { credentials = try await provider() } catch {
        if Task.isCancelled { throw CancellationError() }
        throw AuthorizationError(mode: .iam, reason: .providerFailed(error))
      }
      guard !isBlank(credentials.accessKeyID), !isBlank(credentials.secretAccessKey),
        !(credentials.sessionToken.map(isBlank) ?? false)
      else {
        throw AuthorizationError(mode: .iam, reason: .emptyCredentials)
      }
      let signer = SigV4Signer(credentials: credentials, region: region, service: "appsync")
      var signed = signer.signedHeaders(
        method: "POST", url: url, headers: headers, body: body, date: date)
      signed["host"] = SigV4Signer.host(of: url)
      return signed
    case .headers(let hook):
      let added: [String: String]
      do { added = try await hook(operationName) } catch {
        if Task.isCancelled { throw CancellationError() }
        throw AuthorizationError(mode: .custom, reason: .providerFailed(error))
      }
      return try hooked(added)
    case .custom(let hook):
      let added: [String: String]
      do {
        added = try await hook(
          AuthorizationRequest(
            operationName: operationName, method: "POST", url: url, headers: headers, body: body))
      } catch {
        if Task.isCancelled { throw CancellationError() }
        throw AuthorizationError(mode: .custom, reason: .providerFailed(error))
      }
      return try hooked(added)
    }
  }

  /// Whether a credential is empty or only whitespace (never a valid key, token or secret).
  private static func isBlank(_ value: String) -> Bool {
    value.allSatisfy { $0.isWhitespace }
  }
}

extension APIClient.Authorization {
  /// The mode this authorization uses, or `nil` for ``none``.
  public var mode: AuthorizationMode? {
    switch self {
    case .none: return nil
    case .apiKey: return .apiKey
    case .userPools: return .userPools
    case .oidc: return .oidc
    case .lambda: return .lambda
    case .iam: return .iam
    case .headers, .custom: return .custom
    }
  }
}
