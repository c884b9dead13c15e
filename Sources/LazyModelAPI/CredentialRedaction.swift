import Foundation
import LazyModel

// Every value that carries a credential (an API key, a token provider, AWS credentials, headers
// that may hold either) describes itself without it: `description` (`String(describing:)`,
// string interpolation, `print`), `debugDescription` (`String(reflecting:)`, `debugPrint`) and
// `customMirror` (`dump`, debuggers, any reflection-based logger). What remains names the mode,
// the endpoint, the access key ID and the header names, so a log still says what was configured.

/// What a redacted credential reads as.
let redactedCredential = "<redacted>"

extension APIClient.Authorization: CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The mode only, never a key or token: `apiKey(<redacted>)`, `iam(region: us-east-1)`.
  public var description: String {
    switch self {
    case .none: return "none"
    case .apiKey: return "apiKey(\(redactedCredential))"
    case .headers: return "headers(<hook>)"
    case .userPools: return "userPools(<token provider>)"
    case .oidc: return "oidc(<token provider>)"
    case .lambda: return "lambda(<token provider>)"
    case .iam(_, let region): return "iam(<credentials provider>, region: \(region))"
    case .custom: return "custom(<hook>)"
    }
  }

  /// The same as ``description``.
  public var debugDescription: String { "APIClient.Authorization.\(description)" }

  /// The mode (and IAM's region) only.
  public var customMirror: Mirror {
    switch self {
    case .iam(_, let region):
      return Mirror(self, children: ["mode": "iam", "region": region], displayStyle: .enum)
    default:
      return Mirror(self, children: ["mode": mode?.rawValue ?? "none"], displayStyle: .enum)
    }
  }
}

extension AuthorizationStrategy: CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// `default`, or `multiAuth([…])` with each mode redacted.
  public var description: String {
    switch self {
    case .default: return "default"
    case .multiAuth(let modes): return "multiAuth([\(modes.map(\.description).joined(separator: ", "))])"
    }
  }

  /// The same as ``description``.
  public var debugDescription: String { "AuthorizationStrategy.\(description)" }

  /// The modes, each redacted.
  public var customMirror: Mirror {
    switch self {
    case .default: return Mirror(self, children: [:], displayStyle: .enum)
    case .multiAuth(let modes): return Mirror(self, children: ["multiAuth": modes], displayStyle: .enum)
    }
  }
}

extension APIClient.Configuration: CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The endpoint, the authorization and strategy (redacted), the limits, and the names (not the
  /// values) of the additional headers, which may carry credentials.
  public var description: String {
    "Configuration(endpoint: \(endpoint.absoluteString), authorization: \(authorization), "
      + "authorizationStrategy: \(authorizationStrategy), timeout: \(timeout), "
      + "idleTimeout: \(idleTimeout.map { "\($0)" } ?? "nil"), maximumResponseBytes: \(maximumResponseBytes), "
      + "listPageSize: \(listPageSize.map { "\($0)" } ?? "nil"), "
      + "additionalHeaders: \(Self.redacted(additionalHeaders)))"
  }

  /// The same as ``description``.
  public var debugDescription: String { "APIClient.\(description)" }

  /// Every setting, with the authorization redacted and the additional headers' values hidden.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "endpoint": endpoint, "authorization": authorization,
        "authorizationStrategy": authorizationStrategy, "timeout": timeout,
        "idleTimeout": idleTimeout as Any, "maximumResponseBytes": maximumResponseBytes,
        "listPageSize": listPageSize as Any, "additionalHeaders": Self.redacted(additionalHeaders),
        "realtime": realtime,
      ], displayStyle: .struct)
  }

  /// `[name: <redacted>]`, sorted by name.
  static func redacted(_ headers: [String: String]) -> String {
    "[" + headers.keys.sorted().map { "\($0): \(redactedCredential)" }.joined(separator: ", ") + "]"
  }
}

extension APIClient: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `APIClient(<configuration>)`, credentials redacted.
  public var description: String { "APIClient(\(configuration))" }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// The configuration only (redacted).
  public var customMirror: Mirror {
    Mirror(self, children: ["configuration": configuration], displayStyle: .class)
  }
}

extension AWSCredentials: CustomDebugStringConvertible, CustomReflectable {
  /// The same as ``description``: the access key ID only.
  public var debugDescription: String { description }

  /// The access key ID; the secret and the session token redacted.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "accessKeyID": accessKeyID, "secretAccessKey": redactedCredential,
        "sessionToken": sessionToken == nil ? "nil" : redactedCredential,
      ], displayStyle: .struct)
  }
}

extension SigV4Signer: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The access key ID, region and service; never the secret.
  public var description: String {
    "SigV4Signer(\(credentials), region: \(region), service: \(service))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// The credentials (redacted), region and service.
  public var customMirror: Mirror {
    Mirror(
      self, children: ["credentials": credentials, "region": region, "service": service],
      displayStyle: .struct)
  }
}

extension AuthorizationRequest: CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The operation, method, URL, body size and header names; header values (which may carry
  /// credentials) redacted.
  public var description: String {
    "AuthorizationRequest(\(operationName), \(method) \(url.absoluteString), "
      + "headers: \(APIClient.Configuration.redacted(headers)), body: \(body.count) bytes)"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// The operation, method, URL, header names and body size.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "operationName": operationName, "method": method, "url": url,
        "headers": APIClient.Configuration.redacted(headers), "body": "\(body.count) bytes",
      ], displayStyle: .struct)
  }
}
