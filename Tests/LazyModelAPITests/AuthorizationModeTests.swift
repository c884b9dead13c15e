import AuthRulesModels
import Foundation
import LazyModel
import Testing

@testable import LazyModelAPI

/// Keys, tokens and credentials made for one test, and the `--auth-config` file of the local
/// server that checks them (Tests/GraphQLServer/auth.py).
struct AuthFixture {
  static let userPoolIssuer = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_LocalTest"
  static let oidcIssuer = "https://oidc.example.test"

  let apiKey = "da2-\(UUID().uuidString)"
  let userPoolSecret = UUID().uuidString
  let oidcSecret = UUID().uuidString
  let credentials = AWSCredentials(
    accessKeyID: "ASIA\(UUID().uuidString.prefix(8))", secretAccessKey: UUID().uuidString,
    sessionToken: "session-\(UUID().uuidString)")
  let configURL: URL

  /// Writes the config of test-only things (keys, the JWT test keys, the Lambda authorizer table,
  /// IAM test credentials); `clockOffsetSeconds` shifts the server's clock. The `@auth` rules are
  /// not in it: the server reads them from the schema's manifest (`schema.local.json`).
  init(clockOffsetSeconds: Double = 0) throws {
    configURL = FileManager.default.temporaryDirectory.appendingPathComponent(
      "auth-\(UUID().uuidString).json")
    let config: [String: Any] = [
      "apiKey": apiKey,
      "clockOffsetSeconds": clockOffsetSeconds,
      "userPools": ["secret": userPoolSecret, "issuer": Self.userPoolIssuer, "audience": "client-1"],
      "oidc": ["secret": oidcSecret, "issuer": Self.oidcIssuer, "audience": "oidc-client"],
      "lambda": [
        "tokens": [
          "allow-token": ["isAuthorized": true, "principal": "lambda-user"],
          "deny-token": ["isAuthorized": false],
          "limited-token": ["isAuthorized": true, "deniedFields": ["Query.getDocument"]],
          "title-denied-token": ["isAuthorized": true, "deniedFields": ["Document.title"]],
        ]
      ],
      "iam": [
        "region": "us-east-1",
        "credentials": [
          [
            "accessKeyId": credentials.accessKeyID,
            "secretAccessKey": credentials.secretAccessKey,
            "sessionToken": credentials.sessionToken!,
          ]
        ],
      ],
    ]
    try JSONSerialization.data(withJSONObject: config).write(to: configURL)
  }

  /// An HS256 JWT (RFC 7519) with `claims`, signed with `secret`.
  static func jwt(_ claims: [String: Any], secret: String) throws -> String {
    func base64URL(_ data: Data) -> String {
      data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    let header = base64URL(try JSONSerialization.data(withJSONObject: ["alg": "HS256", "typ": "JWT"]))
    let payload = base64URL(try JSONSerialization.data(withJSONObject: claims))
    let signature = Digest.hmacSHA256(
      key: Array(secret.utf8), data: Array("\(header).\(payload)".utf8))
    return "\(header).\(payload).\(base64URL(Data(signature)))"
  }

  /// A user pool ID token for `username` in `groups`, expiring `expiresIn` seconds from now.
  func userPoolToken(_ username: String, groups: [String] = [], expiresIn: Double = 600) throws
    -> String
  {
    try Self.jwt(
      [
        "iss": Self.userPoolIssuer, "aud": "client-1", "sub": "sub-\(username)",
        "cognito:username": username, "cognito:groups": groups,
        "exp": Int(Date().timeIntervalSince1970 + expiresIn), "token_use": "id",
      ], secret: userPoolSecret)
  }

  /// An OIDC token for `subject`, with `claims` beside the registered ones (a provider's own
  /// claims, such as `user_id` or `custom:roles`, that an `@auth` rule's `identityClaim` or
  /// `groupClaim` names).
  func oidcToken(_ subject: String, claims: [String: Any] = [:], expiresIn: Double = 600) throws
    -> String
  {
    try Self.jwt(
      [
        "iss": Self.oidcIssuer, "aud": "oidc-client", "sub": subject,
        "exp": Int(Date().timeIntervalSince1970 + expiresIn),
      ].merging(claims) { registered, _ in registered }, secret: oidcSecret)
  }

  func server() async throws -> GraphQLServerProcess {
    try await GraphQLServerProcess(schema: authSchemaPath, authConfig: configURL)
  }
}

let authSchemaPath = "Generated/auth-rules/schema.api.graphql"

private func client(
  _ server: GraphQLServerProcess, _ authorization: APIClient.Authorization, timeout: Double = testRequestDeadline,
  log: RequestLog? = nil
) -> APIClient {
  makeClient(server, log: log, timeout: timeout, authorization: authorization)
}

/// The `AuthorizationError` of an `APIError.authorization`, or a recorded issue.
private func authorizationFailure(
  _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> (operation: String, error: AuthorizationError)? {
  do {
    try await body()
    Issue.record("expected APIError.authorization", sourceLocation: sourceLocation)
  } catch let APIError.authorization(name, underlying) {
    if let failure = underlying as? AuthorizationError { return (name, failure) }
    Issue.record("underlying \(underlying) is not an AuthorizationError", sourceLocation: sourceLocation)
  } catch {
    Issue.record("expected APIError.authorization, got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

private func rejected(_ failure: AuthorizationError?) -> (status: Int, message: String)? {
  guard case .rejected(let status, let errors)? = failure?.reason else { return nil }
  return (status, errors.first?.message ?? "")
}

@Suite("Authorization modes against the local server's enforcement (issue 15)")
struct AuthorizationModeTests {
  @Test("API key: the right key reads; a wrong key is rejected; @aws_api_key absent denies a write")
  func apiKey() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let reader = client(server, .apiKey(keys.apiKey))
    #expect(try await reader.get(Document.self, byIdentifier: .init(id: "none")) == nil)

    let wrong = await authorizationFailure {
      _ = try await client(server, .apiKey("da2-wrong")).get(Document.self, byIdentifier: .init(id: "x"))
    }
    #expect(wrong?.operation == "GetDocument")
    #expect(wrong?.error.mode == .apiKey)
    #expect(rejected(wrong?.error)?.status == 401)

    // createDocument carries no @aws_api_key (public apiKey is read-only): Unauthorized.
    let write = await authorizationFailure {
      try await reader.create(Document(id: "d1", title: "T"))
    }
    #expect(write?.operation == "CreateDocument")
    #expect(write?.error.mode == .apiKey)
    #expect(rejected(write?.error)?.status == 200)
    #expect(rejected(write?.error)?.message == "Not Authorized to access createDocument on type Mutation")
  }

  @Test("user pools: a valid JWT writes and reads; expired, forged and wrong-audience tokens are rejected")
  func userPools() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let token = try keys.userPoolToken("ann")
    let ann = client(server, .userPools { token })
    try await ann.create(Ticket(id: "t1", subject: "Bug"))
    #expect(try await ann.get(Ticket.self, byIdentifier: .init(id: "t1"))?.subject == "Bug")
    // Tickets allow user pools only: the API key may not read them.
    let byKey = await authorizationFailure {
      _ = try await client(server, .apiKey(keys.apiKey)).get(Ticket.self, byIdentifier: .init(id: "t1"))
    }
    #expect(rejected(byKey?.error)?.message == "Not Authorized to access getTicket on type Query")

    let expired = try keys.userPoolToken("ann", expiresIn: -10)
    let stale = await authorizationFailure {
      _ = try await client(server, .userPools { expired }).get(Ticket.self, byIdentifier: .init(id: "t1"))
    }
    #expect(stale?.error.mode == .userPools)
    #expect(rejected(stale?.error)?.status == 401)
    #expect(rejected(stale?.error)?.message == "Token has expired.")

    let forged = try AuthFixture.jwt(
      [
        "iss": AuthFixture.userPoolIssuer, "aud": "client-1", "cognito:username": "mallory",
        "exp": Int(Date().timeIntervalSince1970 + 600),
      ], secret: "not-the-pool-key")
    let forgery = await authorizationFailure {
      _ = try await client(server, .userPools { forged }).get(Ticket.self, byIdentifier: .init(id: "t1"))
    }
    #expect(rejected(forgery?.error)?.status == 401)
    #expect(rejected(forgery?.error)?.message == "Valid authorization header not provided.")

    let otherAudience = try AuthFixture.jwt(
      [
        "iss": AuthFixture.userPoolIssuer, "aud": "client-2", "cognito:username": "ann",
        "exp": Int(Date().timeIntervalSince1970 + 600),
      ], secret: keys.userPoolSecret)
    let audience = await authorizationFailure {
      _ = try await client(server, .userPools { otherAudience }).get(Ticket.self, byIdentifier: .init(id: "t1"))
    }
    #expect(rejected(audience?.error)?.status == 401)

    let malformed = await authorizationFailure {
      _ = try await client(server, .userPools { "not.a-jwt" }).get(Ticket.self, byIdentifier: .init(id: "t1"))
    }
    #expect(rejected(malformed?.error)?.status == 401)
  }

  @Test("token refresh: the provider is asked before every request and each fresh token is sent")
  func tokenRefresh() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let issued = TestLock<[String]>([])
    let refreshing = client(
      server,
      .userPools {
        let token = try keys.userPoolToken("ann", expiresIn: 600 + Double(issued.withLock { $0.count }))
        issued.withLock { $0.append(token) }
        return token
      })
    try await refreshing.create(Ticket(id: "t1", subject: "One"))
    _ = try await refreshing.get(Ticket.self, byIdentifier: .init(id: "t1"))
    let tokens = issued.withLock { $0 }
    #expect(tokens.count == 2 && tokens[0] != tokens[1])
    let sent = try await server.receivedRequests().compactMap {
      ($0["headers"] as? [String: String])?["authorization"]
    }
    #expect(sent == tokens)
  }

  @Test("OIDC: a valid token authenticates, but no field of this schema allows OIDC; expired is 401")
  func oidc() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let token = try keys.oidcToken("user-1")
    let denied = await authorizationFailure {
      _ = try await client(server, .oidc { token }).get(Document.self, byIdentifier: .init(id: "x"))
    }
    #expect(denied?.error.mode == .oidc)
    #expect(rejected(denied?.error)?.status == 200)
    #expect(rejected(denied?.error)?.message == "Not Authorized to access getDocument on type Query")
    let expired = try keys.oidcToken("user-1", expiresIn: -1)
    let stale = await authorizationFailure {
      _ = try await client(server, .oidc { expired }).get(Document.self, byIdentifier: .init(id: "x"))
    }
    #expect(rejected(stale?.error)?.status == 401)
  }

  @Test("Lambda: the test authorizer allows, denies, and denies one field")
  func lambda() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    // Document's `{allow: custom, provider: function}` rule lets the Lambda mode do everything
    // (Memo's owner-only field rules would null its `secret` for a Lambda caller, as AppSync does).
    let allowed = client(server, .lambda { "allow-token" })
    try await allowed.create(Document(id: "d1", title: "Plan"))
    #expect(try await allowed.get(Document.self, byIdentifier: .init(id: "d1"))?.title == "Plan")

    let denied = await authorizationFailure {
      _ = try await client(server, .lambda { "deny-token" }).get(Document.self, byIdentifier: .init(id: "d1"))
    }
    #expect(denied?.error.mode == .lambda)
    #expect(rejected(denied?.error)?.status == 401)

    let limited = client(server, .lambda { "limited-token" })
    #expect(try await limited.send(ModelQueries.list(Document.self)).items.map(\.id) == ["d1"])
    let field = await authorizationFailure {
      _ = try await limited.get(Document.self, byIdentifier: .init(id: "d1"))
    }
    #expect(rejected(field?.error)?.message == "Not Authorized to access getDocument on type Query")
  }

  @Test("IAM: SigV4 with a session token verifies; a wrong secret or missing token is rejected")
  func iam() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let credentials = keys.credentials
    let signed = client(server, .iam({ credentials }, region: "us-east-1"))
    try await signed.create(Document(id: "d1", title: "Signed"))
    #expect(try await signed.get(Document.self, byIdentifier: .init(id: "d1"))?.title == "Signed")
    let headers = try #require(try await server.receivedRequests().last?["headers"] as? [String: String])
    #expect(headers["authorization"]?.hasPrefix("AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/") == true)
    #expect(headers["x-amz-security-token"] == credentials.sessionToken)

    let wrongSecret = AWSCredentials(
      accessKeyID: credentials.accessKeyID, secretAccessKey: "wrong",
      sessionToken: credentials.sessionToken)
    let bad = await authorizationFailure {
      _ = try await client(server, .iam({ wrongSecret }, region: "us-east-1")).get(
        Document.self, byIdentifier: .init(id: "d1"))
    }
    #expect(bad?.error.mode == .iam)
    #expect(rejected(bad?.error)?.status == 401)
    #expect(
      rejected(bad?.error)?.message
        == "The request signature we calculated does not match the signature you provided.")

    let noToken = AWSCredentials(
      accessKeyID: credentials.accessKeyID, secretAccessKey: credentials.secretAccessKey)
    let missing = await authorizationFailure {
      _ = try await client(server, .iam({ noToken }, region: "us-east-1")).get(
        Document.self, byIdentifier: .init(id: "d1"))
    }
    #expect(rejected(missing?.error)?.message == "The security token included in the request is invalid.")

    let otherRegion = await authorizationFailure {
      _ = try await client(server, .iam({ credentials }, region: "eu-west-1")).get(
        Document.self, byIdentifier: .init(id: "d1"))
    }
    #expect(rejected(otherRegion?.error)?.status == 401)
  }

  @Test("IAM: a server clock 10 minutes ahead rejects the signature (clock skew)")
  func clockSkew() async throws {
    let keys = try AuthFixture(clockOffsetSeconds: 600)
    let server = try await keys.server()
    defer { server.stop() }
    let credentials = keys.credentials
    let skewed = await authorizationFailure {
      _ = try await client(server, .iam({ credentials }, region: "us-east-1")).get(
        Document.self, byIdentifier: .init(id: "d1"))
    }
    #expect(rejected(skewed?.error)?.status == 401)
    #expect(rejected(skewed?.error)?.message.hasPrefix("Signature expired") == true)
  }

  @Test("a throwing provider sends nothing; a hanging one is bounded by the deadline")
  func failingProviders() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    struct SignedOut: Error {}
    let throwing = await authorizationFailure {
      _ = try await client(server, .userPools { throw SignedOut() }).get(
        Ticket.self, byIdentifier: .init(id: "t1"))
    }
    #expect(throwing?.operation == "GetTicket")
    #expect(throwing?.error.mode == .userPools)
    #expect(throwing?.error.providerError is SignedOut)
    let empty = await authorizationFailure {
      _ = try await client(server, .lambda { "" }).get(Memo.self, byIdentifier: .init(id: "m"))
    }
    if case .emptyCredentials? = empty?.error.reason {} else { Issue.record("expected emptyCredentials") }
    #expect(try await server.receivedRequests().isEmpty, "nothing was sent")

    // A provider that ignores cancellation and never answers in time.
    let hanging = client(
      server,
      .userPools {
        await sleepIgnoringCancellation(seconds: 60 * testDeadlineScale)
        return "late"
      }, timeout: 1)
    let start = ContinuousClock.now
    do {
      _ = try await hanging.get(Ticket.self, byIdentifier: .init(id: "t1"))
      Issue.record("expected a timeout")
    } catch let APIError.timedOut(name, seconds) {
      #expect(name == "GetTicket")
      #expect(seconds == 1)
    }
    // Well before the provider's 60 s: the deadline does not wait for it. The margin absorbs a
    // cooperative pool kept busy by the CPU-heavy suites running beside this one.
    #expect(ContinuousClock.now - start < .seconds(30 * testDeadlineScale))
  }

  @Test("multi-auth: the rules' order picks user pools first; a rejected mode falls back; the last error is thrown")
  func multiAuth() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let token = try keys.userPoolToken("ann")
    let expired = try keys.userPoolToken("ann", expiresIn: -5)

    // Document: owner and groups (user pools) before private IAM before public API key.
    let both = APIClient(
      configuration: .init(
        endpoint: server.endpoint, timeout: testRequestDeadline,
        authorizationStrategy: .multiAuth([.apiKey(keys.apiKey), .userPools { token }])))
    try await both.create(Document(id: "d1", title: "T"))
    var seen = try await server.receivedRequests().map { $0["headers"] as? [String: String] ?? [:] }
    #expect(seen.count == 1 && seen[0]["authorization"] == token && seen[0]["x-api-key"] == nil)

    // An expired token is rejected, the API key (public read) then succeeds.
    let fallback = APIClient(
      configuration: .init(
        endpoint: server.endpoint, timeout: testRequestDeadline,
        authorizationStrategy: .multiAuth([.apiKey(keys.apiKey), .userPools { expired }])))
    #expect(try await fallback.get(Document.self, byIdentifier: .init(id: "d1"))?.title == "T")
    seen = try await server.receivedRequests().dropFirst().map { $0["headers"] as? [String: String] ?? [:] }
    #expect(seen.count == 2)
    #expect(seen.first?["authorization"] == expired && seen.last?["x-api-key"] == keys.apiKey)

    // Both rejected: the last mode's error.
    let neither = APIClient(
      configuration: .init(
        endpoint: server.endpoint, timeout: testRequestDeadline,
        authorizationStrategy: .multiAuth([.apiKey("da2-wrong"), .userPools { expired }])))
    let last = await authorizationFailure {
      _ = try await neither.get(Document.self, byIdentifier: .init(id: "d1"))
    }
    #expect(last?.error.mode == .apiKey)

    // A write the API key may not make is not tried with it: user pools only.
    let keyOnly = APIClient(
      configuration: .init(
        endpoint: server.endpoint, timeout: testRequestDeadline,
        authorizationStrategy: .multiAuth([.apiKey(keys.apiKey)])))
    do {
      try await keyOnly.create(Ticket(id: "t9", subject: "x"))
      Issue.record("expected invalidRequest")
    } catch let APIError.invalidRequest(name, reason) {
      #expect(name == "CreateTicket")
      #expect(reason.contains("Ticket"))
    }
  }

  @Test("multi-auth: a mutation that ran is never re-sent when a field of its result is Unauthorized")
  func multiAuthNeverResendsAMutationThatRan() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let log = RequestLog()
    let annToken = try keys.userPoolToken("ann")
    // Document's rules try Lambda (custom) before user pools. The Lambda authorizer lets the
    // create run but denies `Document.title` (non-null), so AppSync's answer is
    // `data.createDocument: null` with `Unauthorized` at ["createDocument", "title"]: the
    // operation ran and is not re-sent under user pools.
    let client = APIClient(
      configuration: .init(
        endpoint: server.endpoint, timeout: testRequestDeadline,
        authorizationStrategy: .multiAuth([.userPools { annToken }, .lambda { "title-denied-token" }])),
      observer: { log.append($0) })
    do {
      try await client.create(Document(id: "d1", title: "Once"))
      Issue.record("expected the response's Unauthorized error")
    } catch APIError.authorization(let name, let underlying) {
      Issue.record("a nested Unauthorized is not a refusal of \(name): \(underlying)")
    } catch {
      #expect("\(error)".contains("Not Authorized to access title on type Document"), "\(error)")
    }
    #expect(log.all.map(\.operationName) == ["CreateDocument"])
    let reader = makeClient(server, authorization: .apiKey(keys.apiKey))
    let stored = try await reader.get(Document.self, byIdentifier: .init(id: "d1"))
    #expect(stored?.title == "Once" && stored?.author == nil, "created once, by the Lambda caller")

    // The rule itself, on AppSync's bodies: only an Unauthorized error at the root path with no
    // data there is a refusal of the mode.
    func refusal(_ json: String) -> [String]? {
      APIClient.unauthorizedErrors(in: Data(json.utf8), field: "createMemo")?.map(\.message)
    }
    let root =
      #"{"path":["createMemo"],"errorType":"Unauthorized","#
      + #""message":"Not Authorized to access createMemo on type Mutation"}"#
    let nested =
      #"{"path":["createMemo","title"],"errorType":"Unauthorized","#
      + #""message":"Not Authorized to access title on type Memo"}"#
    let conditional =
      #"{"path":["createMemo"],"errorType":"DynamoDB:ConditionalCheckFailedException","message":"x"}"#
    #expect(
      refusal(#"{"data":{"createMemo":null},"errors":[\#(root)]}"#)
        == ["Not Authorized to access createMemo on type Mutation"])
    #expect(refusal(#"{"data":null,"errors":[\#(root)]}"#) != nil)
    #expect(refusal(#"{"data":{"createMemo":null},"errors":[\#(nested)]}"#) == nil)
    #expect(refusal(#"{"data":{"createMemo":{"id":"m1"}},"errors":[\#(root)]}"#) == nil)
    #expect(refusal(#"{"data":{"createMemo":null},"errors":[\#(conditional)]}"#) == nil)
  }

  @Test("Amplify's priority order from ModelSchema.authRules, per operation")
  func priorityOrder() {
    let configured: [APIClient.Authorization] = [
      .apiKey("k"), .iam({ AWSCredentials(accessKeyID: "a", secretAccessKey: "b") }, region: "r"),
      .lambda { "t" }, .oidc { "t" }, .userPools { "t" },
    ]
    func modes(_ schema: ModelSchema, _ operation: AuthRule.Operation) -> [AuthorizationMode?] {
      AuthorizationStrategy.ordered(configured, for: schema, operation: operation).map(\.mode)
    }
    // Document: custom function, owner(userPools), groups(userPools), private iam, public apiKey
    // (read only) — amplify-swift's AWSMultiAuthModeStrategy puts custom first.
    #expect(modes(Document.schema, .read) == [.lambda, .userPools, .iam, .apiKey])
    #expect(modes(Document.schema, .create) == [.lambda, .userPools, .iam])
    // Ticket: owner only, create and read.
    #expect(modes(Ticket.schema, .create) == [.userPools])
    #expect(modes(Ticket.schema, .update) == [])
  }

  @Test("owner field: a create never sends the service-set owner field")
  func ownerFieldNotSent() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let log = RequestLog()
    let token = try keys.userPoolToken("ann")
    try await client(server, .userPools { token }, log: log).create(Ticket(id: "t1", subject: "Bug"))
    #expect(log.last?.variables == ["input": ["id": "t1", "subject": "Bug"]])
  }

  @Test("owner field: a nil single owner field is sent by neither create nor update, so the stored owner stays")
  func nilOwnerFieldNeverSent() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let log = RequestLog()
    let token = try keys.userPoolToken("ann")
    let ann = client(server, .userPools { token }, log: log)
    #expect(ModelMutations.ownerFields(of: Document.schema) == ["author"])
    #expect(ModelMutations.ownerFields(of: Memo.schema) == ["owner"])
    let created = try await ann.create(Document(id: "d1", title: "Draft", author: nil))
    #expect(log.last?.variables == ["input": ["id": "d1", "title": "Draft"]])
    #expect(created.author == "sub-ann")
    // A model built without the owner (as a form would) updates its title only: `author` is
    // left out of the input (the service keeps the owner) and `readers`, not an owner field,
    // is still sent as null.
    try await ann.update(Document(id: "d1", title: "Final", author: nil))
    #expect(log.last?.operationName == "UpdateDocument")
    #expect(log.last?.variables == ["input": ["id": "d1", "title": "Final", "readers": nil]])
    let stored = try #require(try await ann.get(Document.self, byIdentifier: .init(id: "d1")))
    #expect(stored.title == "Final" && stored.author == "sub-ann")
    // A set owner field is sent, and the service decides.
    #expect(
      try ModelMutations.input(.update, of: Document(id: "d1", title: "T", author: "sub-ann"))["author"]
        == "sub-ann")
  }

  @Test("owner rules: the owner reads, updates and lists their record; another user is refused and filtered out")
  func ownerRules() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let bobToken = try keys.userPoolToken("bob")
    let ann = client(server, .userPools { annToken })
    let bob = client(server, .userPools { bobToken })
    let created = try await ann.create(Ticket(id: "t1", subject: "Ann's"))
    #expect(created.assignee == "ann", "the service fills the owner field from the token")
    try await bob.create(Ticket(id: "t2", subject: "Bob's"))
    #expect(try await ann.get(Ticket.self, byIdentifier: .init(id: "t1"))?.subject == "Ann's")
    let refused = await authorizationFailure {
      _ = try await bob.get(Ticket.self, byIdentifier: .init(id: "t1"))
    }
    #expect(rejected(refused?.error)?.message == "Not Authorized to access getTicket on type Query")
    #expect(try await ann.send(ModelQueries.list(Ticket.self)).items.map(\.id) == ["t1"])
    #expect(try await bob.send(ModelQueries.list(Ticket.self)).items.map(\.id) == ["t2"])
    // `operations: [create, read]`: not even the owner may update (AppSync's field has no mode).
    var ticket = created
    ticket.subject = "Changed"
    let update = await authorizationFailure { try await ann.update(ticket) }
    #expect(rejected(update?.error)?.message == "Not Authorized to access updateTicket on type Mutation")

    // Document: owner `author` by the `sub` claim; bob may not update ann's document.
    var document = try await ann.create(Document(id: "d1", title: "Draft"))
    #expect(document.author == "sub-ann")
    document.title = "Ann edits"
    try await ann.update(document)
    document.title = "Bob edits"
    let write = await authorizationFailure { try await bob.update(document) }
    #expect(rejected(write?.error)?.message == "Not Authorized to access updateDocument on type Mutation")
    let delete = await authorizationFailure { try await bob.delete(document) }
    #expect(delete?.operation == "DeleteDocument")
    #expect(try await ann.get(Document.self, byIdentifier: .init(id: "d1"))?.title == "Ann edits")
  }

  @Test(
    "OIDC rules: the owner is the token's identityClaim (user_id), groups are its groupClaim (custom:roles); both directions"
  )
  func oidcRules() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let olgaToken = try keys.oidcToken("sub-olga", claims: ["user_id": "olga-1"])
    let oscarToken = try keys.oidcToken("sub-oscar", claims: ["user_id": "oscar-1"])
    let moderatorToken = try keys.oidcToken(
      "sub-mona", claims: ["user_id": "mona-1", "custom:roles": ["Moderators"]])
    // The group in the user pools' claim name does not count: the rule reads `custom:roles`.
    let wrongClaimToken = try keys.oidcToken(
      "sub-walt", claims: ["user_id": "walt-1", "cognito:groups": ["Moderators"]])
    let readerToken = try keys.oidcToken(
      "sub-rita", claims: ["user_id": "rita-1", "custom:roles": ["team-a"]])
    let olga = client(server, .oidc { olgaToken })
    let oscar = client(server, .oidc { oscarToken })

    // Owner: a create fills `writer` from `user_id` (not `sub`); the owner reads and updates.
    var letter = try await olga.create(Letter(id: "l1", body: "Olga's"))
    #expect(letter.writer == "olga-1")
    letter.body = "Olga edits"
    try await olga.update(letter)
    #expect(try await olga.get(Letter.self, byIdentifier: .init(id: "l1"))?.body == "Olga edits")
    #expect(try await olga.send(ModelQueries.list(Letter.self)).items.map(\.id) == ["l1"])
    let foreignCreate = await authorizationFailure {
      try await oscar.create(Letter(id: "n9", body: "Claims Olga's", writer: "olga-1"))
    }
    #expect(foreignCreate?.error.mode == .oidc)

    // Another OIDC user: refused on get, update and delete, filtered out of the list.
    let read = await authorizationFailure { _ = try await oscar.get(Letter.self, byIdentifier: .init(id: "l1")) }
    #expect(rejected(read?.error)?.message == "Not Authorized to access getLetter on type Query")
    #expect(try await oscar.send(ModelQueries.list(Letter.self)).items.isEmpty)
    letter.body = "Oscar edits"
    let write = await authorizationFailure { try await oscar.update(letter) }
    #expect(rejected(write?.error)?.message == "Not Authorized to access updateLetter on type Mutation")
    let delete = await authorizationFailure { try await oscar.delete(letter) }
    #expect(delete?.operation == "DeleteLetter")

    // Static group by `custom:roles`: a moderator writes anyone's letter; the same group under
    // `cognito:groups` is no group at all.
    let moderator = client(server, .oidc { moderatorToken })
    var moderated = try #require(try await moderator.get(Letter.self, byIdentifier: .init(id: "l1")))
    moderated.body = "Moderated"
    try await moderator.update(moderated)
    #expect(try await olga.get(Letter.self, byIdentifier: .init(id: "l1"))?.body == "Moderated")
    let pretender = client(server, .oidc { wrongClaimToken })
    let pretend = await authorizationFailure { try await pretender.update(moderated) }
    #expect(rejected(pretend?.error)?.message == "Not Authorized to access updateLetter on type Mutation")

    // Dynamic group by `custom:roles`, `operations: [read]`: team-a reads the letter naming it,
    // never writes it, and does not see the others.
    try await olga.create(Letter(id: "n2", body: "For team A", audiences: ["team-a"]))
    let reader = client(server, .oidc { readerToken })
    #expect(try await reader.get(Letter.self, byIdentifier: .init(id: "n2"))?.body == "For team A")
    #expect(try await reader.send(ModelQueries.list(Letter.self)).items.map(\.id) == ["n2"])
    var shared = try #require(try await reader.get(Letter.self, byIdentifier: .init(id: "n2")))
    shared.body = "Team A edits"
    let readOnly = await authorizationFailure { try await reader.update(shared) }
    #expect(rejected(readOnly?.error)?.message == "Not Authorized to access updateLetter on type Mutation")

    // `Letter` allows OIDC only: a valid user-pools token for the same person is refused.
    let userPoolToken = try keys.userPoolToken("olga")
    let otherMode = await authorizationFailure {
      _ = try await client(server, .userPools { userPoolToken }).get(Letter.self, byIdentifier: .init(id: "l1"))
    }
    #expect(otherMode?.error.mode == .userPools)
    #expect(rejected(otherMode?.error)?.message == "Not Authorized to access getLetter on type Query")
  }

  @Test("group rules: a static group writes anyone's record; a dynamic group reads the records naming it")
  func groupRules() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let editorToken = try keys.userPoolToken("eve", groups: ["Editors"])
    let readerToken = try keys.userPoolToken("rita", groups: ["team-x"])
    let outsiderToken = try keys.userPoolToken("otto", groups: ["team-y"])
    let ann = client(server, .userPools { annToken })
    try await ann.create(Document(id: "d1", title: "Shared", readers: ["team-x"]))
    try await ann.create(Document(id: "d2", title: "Private"))

    var edited = try #require(
      try await client(server, .userPools { editorToken }).get(Document.self, byIdentifier: .init(id: "d2")))
    edited.title = "Edited by an editor"
    try await client(server, .userPools { editorToken }).update(edited)
    #expect(try await ann.get(Document.self, byIdentifier: .init(id: "d2"))?.title == "Edited by an editor")

    let reader = client(server, .userPools { readerToken })
    #expect(try await reader.get(Document.self, byIdentifier: .init(id: "d1"))?.title == "Shared")
    #expect(try await reader.send(ModelQueries.list(Document.self)).items.map(\.id) == ["d1"])
    let outsider = client(server, .userPools { outsiderToken })
    #expect(try await outsider.send(ModelQueries.list(Document.self)).items.isEmpty)
    let refused = await authorizationFailure {
      _ = try await outsider.get(Document.self, byIdentifier: .init(id: "d1"))
    }
    #expect(rejected(refused?.error)?.status == 200)
    // Write, both ways: the dynamic group that `readers` names updates d1; a group it does not
    // name is refused, and the stored title stays the reader's.
    var shared = try #require(try await reader.get(Document.self, byIdentifier: .init(id: "d1")))
    shared.title = "Edited by team-x"
    try await reader.update(shared)
    var taken = shared
    taken.title = "Taken"
    let write = await authorizationFailure { try await outsider.update(taken) }
    #expect(rejected(write?.error)?.message == "Not Authorized to access updateDocument on type Mutation")
    #expect(try await ann.get(Document.self, byIdentifier: .init(id: "d1"))?.title == "Edited by team-x")
  }

  @Test("field-level rules: an owner-only field is null with Unauthorized for others, readable by the owner")
  func fieldRules() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let ann = client(server, .userPools { annToken })
    let memo = try await ann.create(Memo(id: "m1", title: "Plan", secret: "s3cret"))
    // `secret` is protected: null in every mutation response (Per-Field with Subscriptions).
    #expect(memo.owner == "ann" && memo.secret == nil)

    let byKey = client(server, .apiKey(keys.apiKey))
    let response = try await byKey.response(for: ModelQueries.get(Memo.self, byIdentifier: .init(id: "m1")))
    let partial = try #require(response.data ?? nil)
    #expect(partial.title == "Plan")
    #expect(partial.secret == nil)
    // `secret` (owner) and `reviewNote` (owner, Admin) carry field rules the API key meets neither of.
    #expect(response.errors.map(\.errorType) == ["Unauthorized", "Unauthorized"])
    #expect(
      Set(response.errors.compactMap(\.path)) == [
        [.string("getMemo"), .string("secret")], [.string("getMemo"), .string("reviewNote")],
      ])
    #expect(response.errors.map(\.message).contains("Not Authorized to access secret on type Memo"))
    #expect(try await ann.get(Memo.self, byIdentifier: .init(id: "m1"))?.secret == "s3cret")

    // `get`, `list` and an index query return the model with the refused (nullable) fields nil,
    // and remember them for the record; before, each threw `APIError.graphQL`.
    let got = try #require(try await byKey.get(Memo.self, byIdentifier: .init(id: "m1")))
    #expect("\(got.title) | \(got.secret ?? "-") | \(got.reviewNote ?? "-")" == "Plan | - | -")
    #expect(byKey.unreadableFields(of: got) == ["secret", "reviewNote"])
    #expect(try await byKey.list(Memo.self).items.map(\.title) == ["Plan"])
    let byTitle = try await byKey.list(Memo.self, index: Memo.indexes.byTitle, key: "Plan")
    #expect(byTitle.items.map { "\($0.id) \($0.secret ?? "-")" } == ["m1 -"])

    // A refused non-null field is not a model with nil: AppSync's null propagation nulls its
    // parent (`data.getDocument: null`), and the error is thrown.
    try await ann.create(Document(id: "d1", title: "Draft"))
    let lambda = client(server, .lambda { "title-denied-token" })
    let denied = try await lambda.response(for: ModelQueries.get(Document.self, byIdentifier: .init(id: "d1")))
    #expect(denied.errors.map(\.path) == [[.string("getDocument"), .string("title")]])
    #expect(denied.errors.map(\.errorType) == ["Unauthorized"])
    do {
      _ = try await lambda.get(Document.self, byIdentifier: .init(id: "d1"))
      Issue.record("a refused non-null field must throw")
    } catch APIError.graphQL(let name, let errors, _, _) {
      #expect(name == "GetDocument")
      #expect(errors.map(\.message) == ["Not Authorized to access title on type Document"])
    }
  }

  @Test("field refusals: only Unauthorized errors at a nullable member answered null let a read return the model")
  func fieldRefusalShape() throws {
    func refusal(_ path: [GraphQLValue], type: String? = "Unauthorized", data: String) throws -> Bool {
      let value = try JSONDecoder().decode(GraphQLValue.self, from: Data(data.utf8))
      return APIClient.isFieldRefusal(GraphQLError(message: "m", path: path, errorType: type), in: value)
    }
    let item = #"{"listMemos":{"items":[{"id":"m1","secret":null}]}}"#
    #expect(try refusal([.string("getMemo"), .string("secret")], data: #"{"getMemo":{"id":"m1","secret":null}}"#))
    #expect(try refusal([.string("listMemos"), .string("items"), .int(0), .string("secret")], data: item))
    // The root field itself (a refusal of the operation), a parent nulled by propagation, a
    // member that holds a value or is absent, a list index out of range, another error type.
    #expect(try !refusal([.string("getMemo")], data: #"{"getMemo":null}"#))
    #expect(try !refusal([.string("getMemo"), .string("title")], data: #"{"getMemo":null}"#))
    #expect(try !refusal([.string("getMemo"), .string("secret")], data: #"{"getMemo":{"secret":"s"}}"#))
    #expect(try !refusal([.string("getMemo"), .string("secret")], data: #"{"getMemo":{"id":"m1"}}"#))
    #expect(try !refusal([.string("listMemos"), .string("items"), .int(1), .string("secret")], data: item))
    #expect(
      try !refusal(
        [.string("getMemo"), .string("secret")], type: "DynamoDB:ConditionalCheckFailedException",
        data: #"{"getMemo":{"id":"m1","secret":null}}"#))
    #expect(try !refusal([.string("getMemo"), .string("secret")], type: nil, data: #"{"getMemo":{"secret":null}}"#))
  }

  @Test(
    "co-owners: an update with the co-owner list nil sends null and clears it, as [] does; a nil single owner is never sent"
  )
  func coOwnerListClearedByNil() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let log = RequestLog()
    let aliceToken = try keys.userPoolToken("alice")
    let bobToken = try keys.userPoolToken("bob")
    let alice = client(server, .userPools { aliceToken }, log: log)
    let bob = client(server, .userPools { bobToken })
    #expect(ModelMutations.ownerFields(of: Multi.schema) == ["editors", "owner"])
    #expect(ModelMutations.singleOwnerFields(of: Multi.schema) == ["owner"])

    var shared = try await alice.create(Multi(id: "x1", editors: ["sub-bob"], title: "Plan"))
    #expect(log.last?.variables == ["input": ["id": "x1", "editors": ["sub-bob"], "title": "Plan"]])
    #expect(shared.editors == ["sub-bob"] && shared.owner == "alice")
    #expect(try await bob.get(Multi.self, byIdentifier: .init(id: "x1"))?.title == "Plan")

    // nil: sent as null, the co-owners are cleared (before: left out, bob stayed a co-owner).
    shared.editors = nil
    let cleared = try await alice.update(shared)
    #expect(log.last?.variables == ["input": ["id": "x1", "editors": nil, "title": "Plan"]])
    #expect(cleared.editors == nil && cleared.owner == "alice")
    let stored = try #require(try await server.storedRecords(of: "Multi").first)
    #expect(stored["editors"] == nil || stored["editors"] is NSNull)
    #expect(stored["owner"] as? String == "sub-alice::alice")
    let refused = await authorizationFailure { _ = try await bob.get(Multi.self, byIdentifier: .init(id: "x1")) }
    #expect(rejected(refused?.error)?.message == "Not Authorized to access getMulti on type Query")

    // `[]` clears as well; a create without co-owners gets the caller's identity (AppSync fills
    // a list owner field with the caller when the input leaves it out).
    shared.editors = ["sub-bob"]
    try await alice.update(shared)
    shared.editors = []
    #expect(try await alice.update(shared).editors == [])
    let second = try await alice.create(Multi(id: "x2", title: "Two"))
    #expect(log.last?.variables == ["input": ["id": "x2", "title": "Two"]])
    #expect(second.editors == ["sub-alice"] && second.owner == "alice")
  }

  @Test("the headers for a (URL, body) pair, as the real-time handshake will take them")
  func handshakeHeaders() async throws {
    let credentials = AWSCredentials(
      accessKeyID: "AKIDHANDSHAKE", secretAccessKey: "secret", sessionToken: "token")
    let url = URL(string: "https://example.appsync-realtime-api.us-east-1.amazonaws.com/graphql/connect")!
    let body = Data("{}".utf8)
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let headers = try await APIClient.authorizationHeaders(
      .iam({ credentials }, region: "us-east-1"), url: url, body: body,
      headers: ["accept": "application/json, text/javascript", "content-type": "application/json; charset=UTF-8"],
      operationName: "connect", date: date)
    let expected = SigV4Signer(credentials: credentials, region: "us-east-1").signedHeaders(
      method: "POST", url: url,
      headers: ["accept": "application/json, text/javascript", "content-type": "application/json; charset=UTF-8"],
      body: body, date: date)
    #expect(headers["host"] == "example.appsync-realtime-api.us-east-1.amazonaws.com")
    #expect(headers["Authorization"] == expected["Authorization"])
    #expect(headers["X-Amz-Date"] == "20231114T221320Z")
    #expect(headers["X-Amz-Security-Token"] == "token")
    #expect(
      try await APIClient.authorizationHeaders(
        .apiKey("da2-k"), url: url, body: body, operationName: "connect") == ["x-api-key": "da2-k"])
    #expect(
      try await APIClient.authorizationHeaders(
        .userPools { "jwt" }, url: url, body: body, operationName: "connect") == ["Authorization": "jwt"])
  }
}

@Suite("Authorization faults of the fresh-user pass (issue 15)")
struct AuthorizationFaultTests {
  @Test("a role only field rules name (Auditors) reads and updates its field and is refused the others")
  func fieldOnlyRole() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let auditorToken = try keys.userPoolToken("ada", groups: ["Auditors"])
    let bobToken = try keys.userPoolToken("bob")
    let ann = client(server, .userPools { annToken })
    try await ann.create(Review(id: "r1", summary: "Fine", body: "Long text"))

    // Read: Auditors pass the model-level check of get and list through `summary`'s rules, then
    // `body` (the model's owner rule only) is null with Unauthorized.
    let log = RequestLog()
    let auditor = client(server, .userPools { auditorToken }, log: log)
    let response = try await auditor.response(for: ModelQueries.get(Review.self, byIdentifier: .init(id: "r1")))
    var read = try #require(response.data ?? nil)
    #expect(read.summary == "Fine" && read.body == nil)
    #expect(response.errors.map(\.errorType) == ["Unauthorized"])
    #expect(response.errors.map(\.path) == [[.string("getReview"), .string("body")]])
    #expect(response.errors.map(\.message) == ["Not Authorized to access body on type Review"])
    let listed = try await auditor.response(for: ModelQueries.list(Review.self))
    #expect(listed.data?.items.map(\.id) == ["r1"])

    // Write: `summary` is the auditor's to update; the update leaves out the refused `body`, and
    // its response refuses `body` again.
    read.summary = "Audited"
    let updated = try await auditor.response(for: ModelMutations.update(read))
    #expect(updated.data?.summary == "Audited")
    #expect(updated.errors.map(\.message) == ["Not Authorized to access body on type Review"])
    #expect(log.last?.variables["input"] == ["id": "r1", "summary": "Audited"])
    let stored = try #require(try await server.storedRecords(of: "Review").first)
    #expect(stored["summary"] as? String == "Audited" && stored["body"] as? String == "Long text")
    // `body` in an input, or a delete (the group has `delete` on no field): refused.
    read.body = "Rewritten"
    let body = await authorizationFailure { try await auditor.update(read) }
    #expect(rejected(body?.error)?.message == "Unauthorized on [body]")
    let delete = await authorizationFailure { try await auditor.delete(read) }
    #expect(rejected(delete?.error)?.message == "Not Authorized to access deleteReview on type Mutation")

    // Another user with no rule at all is refused at the model level; the owner reads everything.
    let bob = client(server, .userPools { bobToken })
    let refused = await authorizationFailure { _ = try await bob.get(Review.self, byIdentifier: .init(id: "r1")) }
    #expect(rejected(refused?.error)?.message == "Not Authorized to access getReview on type Query")
    let own = try #require(try await ann.get(Review.self, byIdentifier: .init(id: "r1")))
    #expect(own.summary == "Audited" && own.body == "Long text" && own.owner == "ann")
  }

  @Test(
    "multi-auth considers field rules: the API key, granted by Review's field rules only, is tried and reads its fields"
  )
  func multiAuthFromFieldRules() async throws {
    let configured: [APIClient.Authorization] = [.apiKey("k"), .userPools { "t" }, .oidc { "t" }]
    func modes(_ operation: AuthRule.Operation, _ written: Set<String>? = nil) -> [AuthorizationMode?] {
      AuthorizationStrategy.ordered(configured, for: Review.schema, operation: operation, writtenFields: written)
        .map(\.mode)
    }
    // Model-level rules alone (amplify-swift) would give user pools only, for every operation.
    #expect(modes(.read) == [.userPools, .apiKey])
    #expect(modes(.create) == [.userPools])
    #expect(modes(.update, ["id", "summary"]) == [.userPools])
    #expect(modes(.delete) == [.userPools])
    // A write reaching only fields a mode may write keeps it; one field it may not drops it.
    #expect(modes(.update, ["id", "body"]) == [.userPools])
    #expect(
      AuthorizationStrategy.ordered([.apiKey("k")], for: Review.schema, operation: .update, writtenFields: ["summary"])
        .isEmpty)

    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    try await client(server, .userPools { annToken }).create(Review(id: "r1", summary: "Fine", body: "Long"))
    // Only the API key is configured: it is tried (a field rule grants it) and reads `summary`.
    let keyOnly = APIClient(
      configuration: .init(
        endpoint: server.endpoint, timeout: testRequestDeadline,
        authorizationStrategy: .multiAuth([.apiKey(keys.apiKey)])))
    let response = try await keyOnly.response(for: ModelQueries.get(Review.self, byIdentifier: .init(id: "r1")))
    #expect(response.data??.summary == "Fine" && response.data??.body == nil)
    #expect(response.errors.map(\.message) == ["Not Authorized to access body on type Review"])
    // Writes: the API key has no rule granting them, so nothing is sent.
    do {
      try await keyOnly.create(Review(id: "r2", summary: "x"))
      Issue.record("expected invalidRequest")
    } catch let APIError.invalidRequest(name, _) {
      #expect(name == "CreateReview")
    }
    // Both configured: user pools first (the owner rule), the API key after it.
    let expired = try keys.userPoolToken("ann", expiresIn: -5)
    let both = APIClient(
      configuration: .init(
        endpoint: server.endpoint, timeout: testRequestDeadline,
        authorizationStrategy: .multiAuth([.apiKey(keys.apiKey), .userPools { expired }])))
    let fallback = try await both.response(for: ModelQueries.get(Review.self, byIdentifier: .init(id: "r1")))
    #expect(fallback.data??.summary == "Fine")
    let seen = try await server.receivedRequests().suffix(2).map { $0["headers"] as? [String: String] ?? [:] }
    #expect(seen.first?["authorization"] == expired && seen.last?["x-api-key"] == keys.apiKey)
  }

  @Test(
    "sub::username: the owner is stored as <sub>::<username> and reads as the username; a token without one owns nothing"
  )
  func subUsernameIdentity() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let ann = client(server, .userPools { annToken })
    let created = try await ann.create(Ticket(id: "t1", subject: "Ann's"))
    #expect(created.assignee == "ann", "the owner field reads as the username")
    let stored = try await server.storedRecords(of: "Ticket")
    #expect(stored.map { $0["assignee"] as? String } == ["sub-ann::ann"])
    #expect(try await ann.send(ModelQueries.list(Ticket.self)).items.map(\.id) == ["t1"])

    // The collision the fall back to `sub` made: a token whose sub is "ann" but that has no
    // username claim (or an empty or non-string one) is not ann, and owns nothing.
    func token(_ identity: [String: Any]) throws -> String {
      try AuthFixture.jwt(
        [
          "iss": AuthFixture.userPoolIssuer, "aud": "client-1", "exp": Int(Date().timeIntervalSince1970 + 600),
        ].merging(identity) { registered, _ in registered }, secret: keys.userPoolSecret)
    }
    for identity: [String: Any] in [
      ["sub": "ann"], ["sub": "ann", "cognito:username": false], ["sub": "ann", "cognito:username": 0],
      ["cognito:username": "ann"], ["sub": "", "cognito:username": ""],
    ] {
      let impostorToken = try token(identity)
      let impostor = client(server, .userPools { impostorToken })
      let refused = await authorizationFailure {
        _ = try await impostor.get(Ticket.self, byIdentifier: .init(id: "t1"))
      }
      #expect(rejected(refused?.error)?.message == "Not Authorized to access getTicket on type Query", "\(identity)")
      // Owning nothing and naming no group, it makes no auth filter: the list is refused too
      // (the transformer's `$util.unauthorized()`), not an empty page.
      let listed = await authorizationFailure { _ = try await impostor.send(ModelQueries.list(Ticket.self)) }
      #expect(rejected(listed?.error)?.message == "Not Authorized to access listTickets on type Query", "\(identity)")
      let create = await authorizationFailure { try await impostor.create(Ticket(id: "t9", subject: "x")) }
      #expect(rejected(create?.error)?.message == "Not Authorized to access createTicket on type Mutation")
    }
    #expect(try await server.storedRecords(of: "Ticket").count == 1)

    // An empty username is a value, as the transformer's `$util.defaultIfNull` keeps it: no fall
    // back to `cognito:username` (this token is not ann); it owns "<sub>::", read as "". The "" part
    // alone names no one, so another token with an empty username does not own that record.
    let emptyToken = try token(["sub": "sub-e", "username": "", "cognito:username": "ann"])
    let empty = client(server, .userPools { emptyToken })
    let notAnn = await authorizationFailure { _ = try await empty.get(Ticket.self, byIdentifier: .init(id: "t1")) }
    #expect(rejected(notAnn?.error)?.message == "Not Authorized to access getTicket on type Query")
    let own = try await empty.create(Ticket(id: "t2", subject: "Empty's"))
    #expect(own.assignee == "")
    #expect(
      try await server.storedRecords(of: "Ticket").compactMap { $0["assignee"] as? String }.sorted() == [
        "sub-ann::ann", "sub-e::",
      ])
    #expect(try await empty.send(ModelQueries.list(Ticket.self)).items.map(\.id) == ["t2"])
    let otherToken = try token(["sub": "sub-f", "username": ""])
    let other = client(server, .userPools { otherToken })
    #expect(try await other.send(ModelQueries.list(Ticket.self)).items.isEmpty)
    let refusedOther = await authorizationFailure {
      _ = try await other.get(Ticket.self, byIdentifier: .init(id: "t2"))
    }
    #expect(rejected(refusedOther?.error)?.message == "Not Authorized to access getTicket on type Query")
  }

  @Test(
    "the fields the transformer adds (owner, timestamps) are outside the access matrix: every role past the model check reads them"
  )
  func implicitFieldsOutsideTheMatrix() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let auditorToken = try keys.userPoolToken("ada", groups: ["Auditors"])
    let bobToken = try keys.userPoolToken("bob")
    let ann = client(server, .userPools { annToken })
    let created = try await ann.create(Review(id: "r1", summary: "Fine", body: "Long text"))
    let createdAt = try #require(created.createdAt)
    let updatedAt = try #require(created.updatedAt)
    #expect(created.owner == "ann")
    // Allowed: the Auditors group and the API key (roles of Review's field rules only) read the
    // owner and the timestamps, which have no field rules and no field resolver; `body` (in the
    // matrix, under the model's owner rule) is null with Unauthorized.
    for authorization: APIClient.Authorization in [.userPools { auditorToken }, .apiKey(keys.apiKey)] {
      let caller = client(server, authorization)
      let response = try await caller.response(for: ModelQueries.get(Review.self, byIdentifier: .init(id: "r1")))
      let read = try #require(response.data ?? nil)
      #expect(read.owner == "ann" && read.createdAt == createdAt && read.updatedAt == updatedAt)
      #expect(read.body == nil)
      #expect(response.errors.map(\.path) == [[.string("getReview"), .string("body")]])
      let page = try await caller.response(for: ModelQueries.list(Review.self))
      #expect(page.data?.items.map(\.owner) == ["ann"] && page.data?.items.map(\.createdAt) == [createdAt])
    }
    // Denied: a user no rule names reads none of them (refused at the model level).
    let bob = client(server, .userPools { bobToken })
    let refused = await authorizationFailure { _ = try await bob.get(Review.self, byIdentifier: .init(id: "r1")) }
    #expect(rejected(refused?.error)?.message == "Not Authorized to access getReview on type Query")
    // Writes: the implicit fields are in no input (the server's self-test refuses an input naming
    // them), so an auditor's update of `summary` sends neither and the stored owner stays ann's.
    let log = RequestLog()
    let auditor = client(server, .userPools { auditorToken }, log: log)
    var read = try #require(
      try await auditor.response(for: ModelQueries.get(Review.self, byIdentifier: .init(id: "r1"))).data ?? nil)
    read.summary = "Audited"
    _ = try await auditor.response(for: ModelMutations.update(read))
    #expect(log.last?.variables["input"] == ["id": "r1", "summary": "Audited"])
    let stored = try #require(try await server.storedRecords(of: "Review").first)
    #expect(stored["owner"] as? String == "sub-ann::ann" && stored["summary"] as? String == "Audited")
  }

  @Test(
    "a field rule that is the model's only owner rule: a user's create fills the owner and may set the field; others may not write or read it"
  )
  func ownerFilledByAFieldRuleAlone() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let bobToken = try keys.userPoolToken("bob")
    // Allowed: Dossier's private rule covers every field but `hidden` (owner: read, create). Ann's
    // create runs the owner rule while she is not yet authorized for `hidden`: the server fills
    // `owner` with her, so the create succeeds with `hidden` and without it.
    let ann = client(server, .userPools { annToken })
    let created = try await ann.create(Dossier(id: "n1", title: "Plan", hidden: "h"))
    // `hidden` is protected: null in the create's response (Per-Field with Subscriptions).
    #expect(created.owner == "ann" && created.hidden == nil)
    let plain = try await ann.create(Dossier(id: "n2", title: "Other"))
    #expect(plain.owner == "ann" && plain.hidden == nil)
    let stored = try await server.storedRecords(of: "Dossier")
    #expect(stored.count == 2 && stored.allSatisfy { $0["owner"] as? String == "sub-ann::ann" })
    #expect(stored.compactMap { $0["hidden"] as? String } == ["h"])
    // Denied: the API key writing `hidden` (its mode has no owner rule), ann updating it (the rule
    // has no `update`), bob reading it (null, with Unauthorized at its path).
    let key = client(server, .apiKey(keys.apiKey))
    let keyed = await authorizationFailure { try await key.create(Dossier(id: "k1", title: "K", hidden: "k")) }
    #expect(rejected(keyed?.error)?.message == "Unauthorized on [hidden]")
    var own = try #require(try await ann.get(Dossier.self, byIdentifier: .init(id: "n1")))
    #expect(own.hidden == "h")
    own.hidden = "changed"
    let update = await authorizationFailure { try await ann.update(own) }
    #expect(rejected(update?.error)?.message == "Unauthorized on [hidden]")
    let bob = client(server, .userPools { bobToken })
    let response = try await bob.response(for: ModelQueries.get(Dossier.self, byIdentifier: .init(id: "n1")))
    let read = try #require(response.data ?? nil)
    #expect(read.title == "Plan" && read.hidden == nil && read.owner == "ann")
    #expect(response.errors.map(\.message) == ["Not Authorized to access hidden on type Dossier"])
    #expect(try await server.storedRecords(of: "Dossier").compactMap { $0["hidden"] as? String } == ["h"])
  }

  @Test(
    "an implicit id is outside the access matrix: a create naming it by a role of field rules is refused, one without it succeeds"
  )
  func implicitIdOutsideTheMatrixOnCreate() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let ann = client(server, .userPools { annToken })
    // Denied: Memento has Dossier's rules without a declared `id`; the model's create sends the client's
    // `id`, which no role of ann's may create (AppSync: "Unauthorized on [id]").
    let refused = await authorizationFailure { try await ann.create(Memento(title: "A", hidden: "h")) }
    #expect(rejected(refused?.error)?.message == "Unauthorized on [id]")
    #expect(try await server.storedRecords(of: "Memento").isEmpty)
    // Allowed: the same create without `id`; the service picks it and ann is the owner.
    let create = GraphQLRequest<Memento?>(
      operationType: .mutation, operationName: "CreateMemento",
      document:
        "mutation CreateMemento($input: CreateMementoInput!) { createMemento(input: $input) { id title hidden owner } }",
      variables: ["input": ["title": "A", "hidden": "h"]], responseField: "createMemento")
    let jot = try #require(try await ann.send(create))
    // `hidden` is protected: null in the create's response, stored as sent.
    #expect(!jot.id.isEmpty && jot.title == "A" && jot.hidden == nil && jot.owner == "ann")
    let stored = try await server.storedRecords(of: "Memento")
    #expect(stored.map { $0["id"] as? String } == [jot.id] && stored.first?["owner"] as? String == "sub-ann::ann")
    #expect(stored.first?["hidden"] as? String == "h")
  }

  @Test("an update of a model read with fields refused by field-level @auth leaves them out; the stored values survive")
  func updateKeepsUnreadableFields() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let adminToken = try keys.userPoolToken("ada", groups: ["Admin"])
    let ann = client(server, .userPools { annToken })
    try await ann.create(Memo(id: "m1", title: "Plan", secret: "s3cret"))
    try await ann.create(Memo(id: "m2", title: "Other", secret: "two"))

    // An Admin reads `reviewNote` but not the owner-only `secret`, and sets the note: the update
    // leaves `secret` out (the server refuses a non-owner's `secret` in an input, null or not).
    let adminLog = RequestLog()
    let admin = client(server, .userPools { adminToken }, log: adminLog)
    var reviewed = try #require(
      try await admin.response(for: ModelQueries.get(Memo.self, byIdentifier: .init(id: "m1"))).data ?? nil)
    #expect(reviewed.secret == nil)
    reviewed.reviewNote = "fine"
    let review = try await admin.response(for: ModelMutations.update(reviewed))
    // `reviewNote` is protected (the API key may not read it): null in the mutation's response.
    #expect(review.data?.reviewNote == nil)
    #expect(review.errors.map(\.message) == ["Not Authorized to access secret on type Memo"])
    #expect(
      adminLog.last?.variables["input"]
        == ["id": "m1", "title": "Plan", "editors": nil, "reviewNote": "fine", "attachment": nil])

    // The API key reads neither field; `get` then `update` through `send`, and a list then
    // `client.update` (`items[i]` paths; the response refuses both fields again, thrown as partial data).
    let log = RequestLog()
    let byKey = client(server, .apiKey(keys.apiKey), log: log)
    let got = try await byKey.response(for: ModelQueries.get(Memo.self, byIdentifier: .init(id: "m1")))
    var memo = try #require(got.data ?? nil)
    #expect(memo.secret == nil && memo.reviewNote == nil)
    memo.title = "Plan B"
    let updated = try await byKey.response(for: ModelMutations.update(memo))
    #expect(updated.data?.title == "Plan B")
    #expect(log.last?.variables["input"] == ["id": "m1", "title": "Plan B", "editors": nil, "attachment": nil])
    let page = try await byKey.response(for: ModelQueries.list(Memo.self))
    var other = try #require(page.data?.items.first { $0.id == "m2" })
    other.editors = ["eve"]
    // The answer refuses `secret` and `reviewNote` (nullable) again: the updated model is
    // returned with them nil (before: thrown as partial data, though the update ran).
    let answered = try await byKey.update(other)
    #expect(answered.editors == ["eve"] && answered.secret == nil && answered.reviewNote == nil)
    #expect(log.last?.variables["input"] == ["id": "m2", "title": "Other", "editors": ["eve"], "attachment": nil])

    let stored = try await server.storedRecords(of: "Memo").sorted { "\($0["id"]!)" < "\($1["id"]!)" }
    #expect(stored.map { $0["title"] as? String } == ["Plan B", "Other"])
    #expect(stored.map { $0["secret"] as? String } == ["s3cret", "two"])
    #expect(stored.map { $0["reviewNote"] as? String } == ["fine", nil])
    #expect((stored.last?["editors"] as? [String]) == ["eve"])

    // A field set to a value is sent, and the server decides: the API key may not write `secret`.
    memo.secret = "mine"
    let write = await authorizationFailure { try await byKey.update(memo) }
    #expect(log.last?.variables["input"]?["secret"] == "mine")
    #expect(rejected(write?.error)?.message == "Unauthorized on [secret]")

    // The owner reads `secret` and may clear it: a field the client could read is sent as null.
    var owned = try #require(try await ann.get(Memo.self, byIdentifier: .init(id: "m1")))
    #expect(owned.secret == "s3cret" && owned.reviewNote == "fine")
    owned.secret = nil
    let ownerLog = RequestLog()
    try await client(server, .userPools { annToken }, log: ownerLog).update(owned)
    #expect(ownerLog.last?.variables["input"]?["secret"] == .null)
    let cleared = try await server.storedRecords(of: "Memo").first { $0["id"] as? String == "m1" }
    #expect(cleared?["secret"] == nil || cleared?["secret"] is NSNull)
    #expect(cleared?["title"] as? String == "Plan B")
  }
}

extension AuthorizationFaultTests {
  @Test(
    "multi-auth order is amplify-swift's AWSMultiAuthModeStrategy: strategies, then written providers, then written order"
  )
  func amplifyMultiAuthOrder() {
    let configured: [APIClient.Authorization] = [
      .apiKey("k"), .iam({ AWSCredentials(accessKeyID: "a", secretAccessKey: "b") }, region: "r"),
      .lambda { "t" }, .oidc { "t" }, .userPools { "t" },
    ]
    func modes(_ rules: [AuthRule]) -> [AuthorizationMode?] {
      let schema = ModelSchema(
        name: "Probe", pluralName: "Probes", primaryKey: ["id"],
        fields: [ModelField(name: "id", type: .id, isRequired: true)], authRules: rules)
      return AuthorizationStrategy.ordered(configured, for: schema, operation: .read).map(\.mode)
    }
    // By strategy: custom, owner, groups, private, public, whatever the written order.
    #expect(
      modes([
        AuthRule(allow: .public), AuthRule(allow: .private, provider: .iam),
        AuthRule(allow: .groups, provider: .oidc, groups: ["G"]), AuthRule(allow: .owner),
        AuthRule(allow: .custom),
      ]) == [.lambda, .userPools, .oidc, .iam, .apiKey])
    // One strategy, providers written on both: function, user pools, OIDC, IAM, API key.
    #expect(
      modes([
        AuthRule(allow: .public, provider: .apiKey), AuthRule(allow: .public, provider: .iam),
        AuthRule(allow: .public, provider: .identityPool),
      ]) == [.iam, .apiKey])
    #expect(
      modes([
        AuthRule(allow: .private, provider: .iam), AuthRule(allow: .private, provider: .oidc),
        AuthRule(allow: .private, provider: .userPools),
      ]) == [.userPools, .oidc, .iam])
    // A provider left unwritten compares by strategy only: the rules keep their written order.
    #expect(modes([AuthRule(allow: .private, provider: .iam), AuthRule(allow: .private)]) == [.iam, .userPools])
    #expect(modes([AuthRule(allow: .private), AuthRule(allow: .private, provider: .iam)]) == [.userPools, .iam])
  }
}

extension AuthorizationFaultTests {
  @Test("no credential shows in description, debugDescription, dump or interpolation of any type that carries one")
  func credentialsAreRedacted() throws {
    let key = "da2-\(UUID().uuidString)"
    let headerKey = "hdr-\(UUID().uuidString)"
    let secret = "secret-\(UUID().uuidString)"
    let session = "session-\(UUID().uuidString)"
    let credentials = AWSCredentials(accessKeyID: "AKIDREDACT", secretAccessKey: secret, sessionToken: session)
    let configuration = APIClient.Configuration(
      endpoint: URL(string: "https://example.test/graphql")!, authorization: .apiKey(key),
      additionalHeaders: ["x-api-key": headerKey, "X-Trace": "t1"],
      authorizationStrategy: .multiAuth([.apiKey(key), .iam({ credentials }, region: "eu-west-1")]))
    let signer = SigV4Signer(credentials: credentials, region: "eu-west-1")
    let request = AuthorizationRequest(
      operationName: "GetPost", method: "POST", url: configuration.endpoint,
      headers: ["x-api-key": headerKey], body: Data("{}".utf8))
    let values: [(String, Any)] = [
      ("Authorization", configuration.authorization), ("AuthorizationStrategy", configuration.authorizationStrategy),
      ("Configuration", configuration), ("APIClient", APIClient(configuration: configuration)),
      ("AWSCredentials", credentials), ("SigV4Signer", signer), ("AuthorizationRequest", request),
      ("Authorization.iam", APIClient.Authorization.iam({ credentials }, region: "eu-west-1")),
      ("Authorization.userPools", APIClient.Authorization.userPools { key }),
    ]
    for (name, value) in values {
      var dumped = ""
      dump(value, to: &dumped)
      let renderings = [
        "description": String(describing: value), "debugDescription": String(reflecting: value),
        "dump": dumped, "interpolation": "\(value)",
        "dump of an array": {
          var text = ""
          dump([value], to: &text)
          return text
        }(),
      ]
      for (how, text) in renderings {
        for credential in [key, headerKey, secret, session] {
          #expect(!text.contains(credential), "\(name) \(how) shows a credential: \(text)")
        }
      }
    }
    // What is left still says what was configured.
    #expect(String(describing: configuration.authorization) == "apiKey(<redacted>)")
    #expect(String(describing: credentials) == "AWSCredentials(AKIDREDACT, secret hidden)")
    #expect(
      String(describing: configuration).contains(
        "endpoint: https://example.test/graphql, authorization: apiKey(<redacted>), "
          + "authorizationStrategy: multiAuth([apiKey(<redacted>), iam(<credentials provider>, region: eu-west-1)])"))
    #expect(
      String(describing: configuration).hasSuffix(
        "additionalHeaders: [X-Trace: <redacted>, x-api-key: <redacted>])"))
    var dumpedCredentials = ""
    dump(credentials, to: &dumpedCredentials)
    #expect(dumpedCredentials.contains("AKIDREDACT") && dumpedCredentials.contains("<redacted>"))
  }

}

extension AuthorizationFaultTests {
  @Test("empty credentials of every mode fail with emptyCredentials before anything is sent")
  func emptyCredentialsSendNothing() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let url = server.endpoint
    let cases: [(APIClient.Authorization, AuthorizationMode)] = [
      (.apiKey(""), .apiKey), (.apiKey("  "), .apiKey),
      (.userPools { "" }, .userPools), (.oidc { "\n" }, .oidc), (.lambda { "" }, .lambda),
      (.iam({ AWSCredentials(accessKeyID: "", secretAccessKey: "s") }, region: "us-east-1"), .iam),
      (.iam({ AWSCredentials(accessKeyID: "AKID", secretAccessKey: "") }, region: "us-east-1"), .iam),
      (
        .iam({ AWSCredentials(accessKeyID: "AKID", secretAccessKey: "s", sessionToken: "") }, region: "us-east-1"),
        .iam
      ),
      (.headers { _ in [:] }, .custom), (.headers { _ in ["x-api-key": ""] }, .custom),
      (.custom { _ in ["Authorization": " "] }, .custom),
    ]
    for (number, (authorization, mode)) in cases.enumerated() {
      let failure = await authorizationFailure {
        _ = try await client(server, authorization).get(Memo.self, byIdentifier: .init(id: "m"))
      }
      #expect(failure?.operation == "GetMemo", "case \(number)")
      #expect(failure?.error.mode == mode, "case \(number)")
      if case .emptyCredentials? = failure?.error.reason {
      } else {
        Issue.record("case \(number): \(String(describing: failure))")
      }
      // The real-time handshake and each start take their headers from the same function.
      await #expect(throws: AuthorizationError.self, "case \(number)") {
        _ = try await APIClient.authorizationHeaders(
          authorization, url: url, body: Data("{}".utf8), operationName: "connect")
      }
    }
    #expect(try await server.receivedRequests().isEmpty, "nothing reached the server")
  }
}

extension AuthorizationFaultTests {
  @Test(
    "a mutation returns protected fields as null without an error; an update of the returned model keeps them"
  )
  func mutationResponsesRedactProtectedFields() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let adminToken = try keys.userPoolToken("ada", groups: ["Admin"])
    let log = RequestLog()
    let ann = client(server, .userPools { annToken }, log: log)
    // The owner may read `secret`, yet the create's response has it null and no error (the auth
    // transformer's field response template for a Mutation source, so no subscriber gets it).
    let created = try await ann.response(for: ModelMutations.create(Memo(id: "m1", title: "Plan", secret: "s3cret")))
    #expect(created.errors.isEmpty)
    var memo = try #require(created.data)
    #expect(memo.title == "Plan" && memo.secret == nil && memo.reviewNote == nil)
    // An Admin sets `reviewNote` (also protected: null in its response, `secret` refused).
    let admin = client(server, .userPools { adminToken })
    let adminRead = try await admin.response(for: ModelQueries.get(Memo.self, byIdentifier: .init(id: "m1")))
    var reviewed = try #require(adminRead.data ?? nil)
    reviewed.reviewNote = "fine"
    let review = try await admin.response(for: ModelMutations.update(reviewed))
    #expect(review.data?.reviewNote == nil && review.data?.secret == nil)
    #expect(review.errors.compactMap(\.path) == [[.string("updateMemo"), .string("secret")]])
    // The owner updates the model the create returned: the redacted nil fields are left out, so
    // the stored `secret` and `reviewNote` survive (sent as null, they would be cleared).
    memo.title = "Plan B"
    let updated = try await ann.update(memo)
    #expect(updated.title == "Plan B" && updated.secret == nil)
    #expect(log.last?.variables["input"] == ["id": "m1", "title": "Plan B", "editors": nil, "attachment": nil])
    let stored = try #require(try await server.storedRecords(of: "Memo").first)
    #expect(stored["secret"] as? String == "s3cret" && stored["reviewNote"] as? String == "fine")
    #expect(stored["title"] as? String == "Plan B")
    // A query shows the fields: the owner reads both, and may then clear `secret` on purpose.
    var read = try #require(try await ann.get(Memo.self, byIdentifier: .init(id: "m1")))
    #expect(read.secret == "s3cret" && read.reviewNote == "fine")
    read.secret = nil
    try await ann.update(read)
    #expect(log.last?.variables["input"]?["secret"] == .null)
    let cleared = try #require(try await server.storedRecords(of: "Memo").first)
    #expect(cleared["secret"] == nil || cleared["secret"] is NSNull)
  }

  @Test("decodeResponse (custom transports) remembers refused fields per record and forgets them once readable")
  func unreadableFieldsFromDecodedBodies() throws {
    let client = APIClient(configuration: .init(endpoint: URL(string: "https://example.test/graphql")!))
    let get = try ModelQueries.get(Memo.self, byIdentifier: .init(id: "m1"))
    func body(secret: String?) -> Data {
      let value = secret.map { "\"\($0)\"" } ?? "null"
      let errors =
        secret == nil
        ? #", "errors": [{"path": ["getMemo", "secret"], "errorType": "Unauthorized", "message": "no"}]"# : ""
      return Data(
        #"{"data": {"getMemo": {"__typename": "Memo", "id": "m1", "title": "T", "secret": \#(value)}}\#(errors)}"#
          .utf8)
    }
    func sentInput(_ memo: Memo) throws -> [String: GraphQLValue]? {
      let update = client.withoutUnreadableFields(try ModelMutations.update(memo))
      guard case .object(let input)? = update.variables["input"] else { return nil }
      return input
    }
    let refused = try #require(try client.decodeResponse(body(secret: nil), for: get).data ?? nil)
    #expect(try sentInput(refused)?["secret"] == nil)
    #expect(try sentInput(refused)?["title"] == "T")
    // Another record of the same model is not affected.
    #expect(try sentInput(Memo(id: "m2", title: "T"))?["secret"] == .null)
    // A later response showing `secret` readable forgets it: nil is sent as null again.
    _ = try client.decodeResponse(body(secret: "s"), for: get)
    #expect(try sentInput(refused)?["secret"] == .null)
  }
}
