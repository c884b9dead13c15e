import Foundation

#if canImport(CryptoKit)
  import CryptoKit
#elseif canImport(CCrypto)
  import CCrypto
#endif

/// SHA-256 and HMAC-SHA256 from a maintained library: CryptoKit on Apple platforms, OpenSSL's
/// `libcrypto` (the `CCrypto` system library, apt `libssl-dev`) elsewhere. Nothing is hashed by
/// code of our own.
enum Digest {
  /// SHA-256 of `data` (FIPS 180-4): 32 bytes.
  static func sha256(_ data: some ContiguousBytes) -> [UInt8] {
    #if canImport(CryptoKit)
      return data.withUnsafeBytes { Array(SHA256.hash(data: $0)) }
    #else
      var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      let ok = data.withUnsafeBytes { bytes in
        out.withUnsafeMutableBufferPointer { out in
          EVP_Digest(
            bytes.baseAddress, bytes.count, out.baseAddress, &length, EVP_sha256(), nil)
        }
      }
      precondition(ok == 1 && length == 32, "libcrypto EVP_Digest(SHA-256) failed")
      return Array(out.prefix(32))
    #endif
  }

  /// HMAC-SHA256 (RFC 2104) of `data` under `key`: 32 bytes.
  static func hmacSHA256(key: some ContiguousBytes, data: some ContiguousBytes) -> [UInt8] {
    #if canImport(CryptoKit)
      let key = key.withUnsafeBytes { SymmetricKey(data: Data($0)) }
      return data.withUnsafeBytes { Array(HMAC<SHA256>.authenticationCode(for: $0, using: key)) }
    #else
      var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      let result = key.withUnsafeBytes { key in
        data.withUnsafeBytes { data in
          out.withUnsafeMutableBufferPointer { out in
            HMAC(
              EVP_sha256(), key.baseAddress, Int32(key.count),
              data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, out.baseAddress,
              &length)
          }
        }
      }
      precondition(result != nil && length == 32, "libcrypto HMAC(SHA-256) failed")
      return Array(out.prefix(32))
    #endif
  }

  /// Lowercase hexadecimal of `bytes`.
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}

/// AWS credentials for Signature Version 4: an access key, its secret, and for temporary
/// credentials (STS, Cognito identity pools) the session token.
///
/// Thread-safety: a `Sendable` value. Its `description` never shows the secret or the token.
public struct AWSCredentials: Sendable, Hashable, CustomStringConvertible {
  /// The access key ID (`AKIA…`, `ASIA…` for temporary credentials).
  public var accessKeyID: String
  /// The secret access key.
  public var secretAccessKey: String
  /// The session token of temporary credentials, sent as `X-Amz-Security-Token`, or `nil`.
  public var sessionToken: String?

  /// Creates credentials.
  public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
    self.accessKeyID = accessKeyID
    self.secretAccessKey = secretAccessKey
    self.sessionToken = sessionToken
  }

  /// The access key ID only.
  public var description: String { "AWSCredentials(\(accessKeyID), secret hidden)" }
}

/// Signs HTTP requests with AWS Signature Version 4 in the `Authorization` header (AWS IAM User
/// Guide, "Create a signed AWS API request"): canonical request (method, URI-encoded path,
/// sorted query, lowercased sorted headers with trimmed values, SHA-256 of the body), string to
/// sign over the credential scope `<yyyymmdd>/<region>/<service>/aws4_request`, and the signing
/// key derived by HMAC-SHA256 from `"AWS4" + secret`. Pinned to AWS's published SigV4 test suite.
///
/// Thread-safety: a `Sendable` value.
public struct SigV4Signer: Sendable {
  /// The credentials signed with.
  public var credentials: AWSCredentials
  /// The region of the credential scope (`us-east-1`).
  public var region: String
  /// The service of the credential scope (`appsync` for AppSync).
  public var service: String

  /// Creates a signer.
  public init(credentials: AWSCredentials, region: String, service: String = "appsync") {
    self.credentials = credentials
    self.region = region
    self.service = service
  }

  /// The headers to add to a request so that it is signed: `Authorization`, `X-Amz-Date`, and
  /// `X-Amz-Security-Token` when the credentials have a session token.
  ///
  /// - Parameters:
  ///   - method: The HTTP method (`POST`).
  ///   - url: The full URL; its host (with a non-default port) is signed as `host`.
  ///   - headers: The other headers the request sends, all of them signed (names in any case).
  ///   - body: The exact body bytes.
  ///   - date: The signing time (AWS rejects a signature more than 5 minutes off its clock).
  public func signedHeaders(
    method: String, url: URL, headers: [String: String], body: Data, date: Date
  ) -> [String: String] {
    let parts = signature(method: method, url: url, headers: headers, body: body, date: date)
    var added = [
      "Authorization":
        "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(parts.scope), SignedHeaders=\(parts.signedHeaders), Signature=\(parts.signature)",
      "X-Amz-Date": parts.amzDate,
    ]
    if let token = credentials.sessionToken { added["X-Amz-Security-Token"] = token }
    return added
  }

  /// The intermediate values of one signature (for tests against the published suite).
  struct Parts: Equatable {
    let amzDate: String
    let scope: String
    let canonicalRequest: String
    let stringToSign: String
    let signedHeaders: String
    let signature: String
  }

  func signature(method: String, url: URL, headers: [String: String], body: Data, date: Date)
    -> Parts
  {
    let amzDate = Self.amzDate(date)
    let day = String(amzDate.prefix(8))
    let scope = "\(day)/\(region)/\(service)/aws4_request"
    var canonical: [String: String] = [:]
    for (name, value) in headers {
      canonical[name.lowercased()] = Self.trimmed(value)
    }
    canonical["host"] = canonical["host"] ?? Self.host(of: url)
    canonical["x-amz-date"] = amzDate
    if let token = credentials.sessionToken { canonical["x-amz-security-token"] = token }
    let names = canonical.keys.sorted()
    let signedHeaders = names.joined(separator: ";")
    let headerBlock = names.map { "\($0):\(canonical[$0]!)\n" }.joined()
    let canonicalRequest = [
      method.uppercased(), Self.canonicalPath(of: url), Self.canonicalQuery(of: url), headerBlock,
      signedHeaders, Digest.hex(Digest.sha256(body)),
    ].joined(separator: "\n")
    let stringToSign = [
      "AWS4-HMAC-SHA256", amzDate, scope, Digest.hex(Digest.sha256(Array(canonicalRequest.utf8))),
    ].joined(separator: "\n")
    var key = Digest.hmacSHA256(
      key: Array("AWS4\(credentials.secretAccessKey)".utf8), data: Array(day.utf8))
    for step in [region, service, "aws4_request"] {
      key = Digest.hmacSHA256(key: key, data: Array(step.utf8))
    }
    let signature = Digest.hex(Digest.hmacSHA256(key: key, data: Array(stringToSign.utf8)))
    return Parts(
      amzDate: amzDate, scope: scope, canonicalRequest: canonicalRequest,
      stringToSign: stringToSign, signedHeaders: signedHeaders, signature: signature)
  }

  /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
  static func amzDate(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : String(value)
    }
    return "\(c.year ?? 0)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
  }

  /// The `host` header value: the host, with the port when the URL names a non-default one.
  static func host(of url: URL) -> String {
    let host = url.host ?? ""
    guard let port = url.port else { return host }
    let scheme = url.scheme?.lowercased()
    if (scheme == "https" && port == 443) || (scheme == "http" && port == 80) { return host }
    return "\(host):\(port)"
  }

  /// Leading and trailing spaces removed, inner runs of spaces made one (SigV4 `Trimall`).
  static func trimmed(_ value: String) -> String {
    value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
  }

  /// RFC 3986 percent-encoding of everything but the unreserved characters `A–Z a–z 0–9 - . _ ~`.
  static func uriEncode(_ text: String, keepSlash: Bool = false) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      case UInt8(ascii: "/") where keepSlash:
        out.append("/")
      default:
        let digits = Array("0123456789ABCDEF")
        out.append("%")
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0f)])
      }
    }
    return out
  }

  /// The path, each segment decoded once and encoded by ``uriEncode(_:keepSlash:)``; `/` when empty.
  static func canonicalPath(of url: URL) -> String {
    let encoded = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
    guard !encoded.isEmpty else { return "/" }
    return encoded.split(separator: "/", omittingEmptySubsequences: false).map {
      uriEncode(String($0).removingPercentEncoding ?? String($0))
    }.joined(separator: "/")
  }

  /// The query's `name=value` pairs, each side decoded once and encoded, sorted by name then value.
  static func canonicalQuery(of url: URL) -> String {
    guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery,
      !query.isEmpty
    else { return "" }
    let pairs = query.split(separator: "&").map { pair -> (String, String) in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func clean(_ part: Substring) -> String {
        uriEncode(String(part).removingPercentEncoding ?? String(part))
      }
      return (clean(parts[0]), parts.count > 1 ? clean(parts[1]) : "")
    }
    return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }
      .joined(separator: "&")
  }
}
