import Foundation
import Testing

@testable import LazyModelAPI

/// AWS's published Signature Version 4 test suite (aws-sig-v4-test-suite: credentials
/// AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, 2015-08-30T12:36:00Z, us-east-1,
/// service "service"), each case's request and the signature AWS publishes for it.
@Suite("SigV4 signer against AWS's published test suite, and the digests under it")
struct SigV4Tests {
  static let suiteCredentials = AWSCredentials(
    accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
  /// 20150830T123600Z.
  static let suiteDate = Date(timeIntervalSince1970: 1_440_938_160)
  static let suiteSessionToken = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267"

  struct Vector: Sendable, CustomTestStringConvertible {
    let name: String
    let method: String
    let url: String
    var headers: [String: String] = [:]
    var body = ""
    var sessionToken: String? = nil
    let signedHeaders: String
    let signature: String
    var testDescription: String { name }
  }

  static let vectors: [Vector] = [
    Vector(
      name: "get-vanilla", method: "GET", url: "https://example.amazonaws.com/",
      signedHeaders: "host;x-amz-date",
      signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
    Vector(
      name: "get-vanilla-query-order-key-case", method: "GET",
      url: "https://example.amazonaws.com/?Param2=value2&Param1=value1",
      signedHeaders: "host;x-amz-date",
      signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
    Vector(
      name: "get-vanilla-query-unreserved", method: "GET",
      url:
        "https://example.amazonaws.com/?-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz=-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
      signedHeaders: "host;x-amz-date",
      signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
    Vector(
      name: "get-vanilla-empty-query-key", method: "GET",
      url: "https://example.amazonaws.com/?Param1=value1", signedHeaders: "host;x-amz-date",
      signature: "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb"),
    Vector(
      name: "get-vanilla-utf8-query", method: "GET",
      url: "https://example.amazonaws.com/?%E1%88%B4=bar", signedHeaders: "host;x-amz-date",
      signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
    Vector(
      name: "get-utf8", method: "GET", url: "https://example.amazonaws.com/%E1%88%B4",
      signedHeaders: "host;x-amz-date",
      signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
    Vector(
      name: "get-unreserved", method: "GET",
      url:
        "https://example.amazonaws.com/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
      signedHeaders: "host;x-amz-date",
      signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
    Vector(
      name: "get-header-value-trim", method: "GET", url: "https://example.amazonaws.com/",
      headers: ["My-Header1": " value1", "My-Header2": "\"a   b   c\""],
      signedHeaders: "host;my-header1;my-header2;x-amz-date",
      signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
    Vector(
      name: "post-vanilla", method: "POST", url: "https://example.amazonaws.com/",
      signedHeaders: "host;x-amz-date",
      signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
    Vector(
      name: "post-vanilla-query", method: "POST",
      url: "https://example.amazonaws.com/?Param1=value1", signedHeaders: "host;x-amz-date",
      signature: "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"),
    Vector(
      name: "post-header-key-sort", method: "POST", url: "https://example.amazonaws.com/",
      headers: ["My-Header1": "value1"], signedHeaders: "host;my-header1;x-amz-date",
      signature: "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c"),
    Vector(
      name: "post-header-value-case", method: "POST", url: "https://example.amazonaws.com/",
      headers: ["My-Header1": "VALUE1"], signedHeaders: "host;my-header1;x-amz-date",
      signature: "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d"),
    Vector(
      name: "post-x-www-form-urlencoded", method: "POST", url: "https://example.amazonaws.com/",
      headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "Param1=value1",
      signedHeaders: "content-type;host;x-amz-date",
      signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
    Vector(
      name: "get-vanilla-with-session-token", method: "GET", url: "https://example.amazonaws.com/",
      sessionToken: suiteSessionToken, signedHeaders: "host;x-amz-date;x-amz-security-token",
      signature: "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"),
  ]

  @Test("each published vector gives AWS's Authorization header", arguments: vectors)
  func publishedVector(_ vector: Vector) throws {
    var credentials = Self.suiteCredentials
    credentials.sessionToken = vector.sessionToken
    let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "service")
    let headers = signer.signedHeaders(
      method: vector.method, url: try #require(URL(string: vector.url)), headers: vector.headers,
      body: Data(vector.body.utf8), date: Self.suiteDate)
    #expect(
      headers["Authorization"]
        == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=\(vector.signedHeaders), Signature=\(vector.signature)"
    )
    #expect(headers["X-Amz-Date"] == "20150830T123600Z")
    #expect(headers["X-Amz-Security-Token"] == vector.sessionToken)
  }

  @Test("get-vanilla's canonical request and string to sign are AWS's")
  func canonicalForms() throws {
    let signer = SigV4Signer(
      credentials: Self.suiteCredentials, region: "us-east-1", service: "service")
    let parts = signer.signature(
      method: "GET", url: URL(string: "https://example.amazonaws.com/")!, headers: [:],
      body: Data(), date: Self.suiteDate)
    #expect(
      parts.canonicalRequest
        == "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )
    #expect(
      parts.stringToSign
        == "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63"
    )
  }

  @Test("an AppSync POST: port in host, JSON body hash, session token, every sent header signed")
  func appSyncPost() throws {
    let credentials = AWSCredentials(
      accessKeyID: "ASIATESTKEY", secretAccessKey: "test-secret", sessionToken: "token-1")
    let signer = SigV4Signer(credentials: credentials, region: "eu-west-1")
    let body = Data(#"{"operationName":"GetPost","query":"query GetPost { x }","variables":{}}"#.utf8)
    let url = URL(string: "http://127.0.0.1:8123/graphql?a=b%20c&A=1")!
    let sent = ["Content-Type": "application/json", "Accept": "application/json"]
    let parts = signer.signature(
      method: "POST", url: url, headers: sent, body: body, date: Self.suiteDate)
    let bodyHash = Digest.hex(Digest.sha256(body))
    #expect(
      parts.canonicalRequest
        == "POST\n/graphql\nA=1&a=b%20c\naccept:application/json\ncontent-type:application/json\nhost:127.0.0.1:8123\nx-amz-date:20150830T123600Z\nx-amz-security-token:token-1\n\naccept;content-type;host;x-amz-date;x-amz-security-token\n\(bodyHash)"
    )
    #expect(parts.scope == "20150830/eu-west-1/appsync/aws4_request")
    // One byte of body, of query or of token more: another signature.
    var changed = body
    changed.append(UInt8(ascii: " "))
    let others = [
      signer.signature(method: "POST", url: url, headers: sent, body: changed, date: Self.suiteDate),
      signer.signature(
        method: "POST", url: URL(string: "http://127.0.0.1:8123/graphql?a=b%20d&A=1")!,
        headers: sent, body: body, date: Self.suiteDate),
      SigV4Signer(
        credentials: AWSCredentials(
          accessKeyID: "ASIATESTKEY", secretAccessKey: "test-secret", sessionToken: "token-2"),
        region: "eu-west-1"
      ).signature(method: "POST", url: url, headers: sent, body: body, date: Self.suiteDate),
    ]
    #expect(Set(others.map(\.signature) + [parts.signature]).count == 4)
    #expect(
      SigV4Signer.host(of: URL(string: "https://x.appsync-api.eu-west-1.amazonaws.com:443/graphql")!)
        == "x.appsync-api.eu-west-1.amazonaws.com")
  }

  @Test("SHA-256 and HMAC-SHA256 match FIPS 180-4 and RFC 4231 examples")
  func digests() {
    #expect(
      Digest.hex(Digest.sha256(Data()))
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      Digest.hex(Digest.sha256(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    // RFC 4231 test case 2.
    #expect(
      Digest.hex(
        Digest.hmacSHA256(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8)))
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
  }

  @Test("credentials never show their secret or token")
  func credentialsDescription() {
    let credentials = AWSCredentials(
      accessKeyID: "AKID", secretAccessKey: "very-secret", sessionToken: "session-secret")
    #expect(!"\(credentials)".contains("secret-"))
    #expect(!"\(credentials)".contains("very-secret"))
    #expect("\(credentials)".contains("AKID"))
  }
}
