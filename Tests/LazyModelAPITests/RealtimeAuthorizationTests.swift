import AuthRulesModels
import Foundation
import LazyModel
import Testing

@testable import LazyModelAPI

/// The real-time endpoint enforces every mode the HTTP side does (Tests/GraphQLServer/realtime.py
/// through auth.py): the handshake's `header` and each `start`'s `extensions.authorization`, IAM
/// signed as AppSync's real-time guide describes. A refusal is `APIError.authorization` naming the
/// mode, as an HTTP 401 is.
@Suite("Real-time authorization: every mode in the handshake and in each start (issue 15)")
struct RealtimeAuthorizationTests {
  /// Subscribes to `onCreateDocument` with `authorization`, waits for `start_ack`, creates a
  /// document over HTTP with IAM (which may write documents) and returns the titles delivered.
  /// With `author` (a caller the owner rule admits, not an outright one), another author's
  /// document is created first: the owner rule keeps it from the subscriber.
  private func delivered(
    _ keys: AuthFixture, _ server: GraphQLServerProcess, _ authorization: APIClient.Authorization,
    title: String, author: String? = nil
  ) async throws -> [String] {
    let client = makeRealtimeClient(server, authorization: authorization)
    let documents = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Document.self)))
    defer { documents.cancel() }
    try await documents.waitConnected()
    let credentials = keys.credentials
    let writer = makeClient(server, authorization: .iam({ credentials }, region: "us-east-1"))
    if author != nil {
      try await writer.create(Document(id: UUID().uuidString, title: "someone else's", author: "sub-nobody"))
    }
    try await writer.create(Document(id: UUID().uuidString, title: title, author: author))
    try await documents.waitModels(1)
    return documents.models.map(\.title)
  }

  /// The `AuthorizationError` a subscription with `authorization` ends with, and its first error.
  private func refusal(
    _ server: GraphQLServerProcess, _ authorization: APIClient.Authorization,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> (operation: String, error: AuthorizationError, message: String?)? {
    let client = makeRealtimeClient(server, authorization: authorization, maximumReconnectAttempts: 0)
    let documents = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Document.self)))
    try await documents.waitFinished()
    guard case APIError.authorization(let name, let underlying)? = documents.recorded.error,
      let failure = underlying as? AuthorizationError,
      case .rejected(_, let errors) = failure.reason
    else {
      Issue.record(
        "expected APIError.authorization, got \(String(describing: documents.recorded.error))",
        sourceLocation: sourceLocation)
      return nil
    }
    #expect(documents.models.isEmpty, sourceLocation: sourceLocation)
    return (name, failure, errors.first?.message)
  }

  @Test("a hanging token provider ends the subscription with timedOut at the client's deadline")
  func hangingProviderIsBounded() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    // A provider that ignores cancellation and never answers in time.
    var configuration = APIClient.Configuration(
      endpoint: server.endpoint,
      authorization: .userPools {
        await sleepIgnoringCancellation(seconds: 60 * testDeadlineScale)
        return "late"
      }, timeout: 1)
    configuration.realtime = APIClient.RealtimeConfiguration(maximumReconnectAttempts: 0)
    let client = APIClient(configuration: configuration)
    let start = ContinuousClock.now
    let documents = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Document.self)))
    defer { documents.cancel() }
    try await documents.waitFinished(30 * testDeadlineScale)
    guard case APIError.timedOut(let name, let seconds)? = documents.recorded.error else {
      Issue.record("expected APIError.timedOut, got \(String(describing: documents.recorded.error))")
      return
    }
    #expect(name == "OnCreateDocument" && seconds == 1)
    // Well before the provider's 60 s: the deadline does not wait for it.
    #expect(ContinuousClock.now - start < .seconds(30 * testDeadlineScale))
    #expect(try await server.activeSubscriptions().isEmpty)
  }

  @Test("API key: the right key receives events; a wrong key is refused at connect")
  func apiKey() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    #expect(try await delivered(keys, server, .apiKey(keys.apiKey), title: "by key") == ["by key"])
    let refused = try await refusal(server, .apiKey("da2-wrong"))
    #expect(refused?.operation == "OnCreateDocument")
    #expect(refused?.error.mode == .apiKey)
    #expect(refused?.message == "You are not authorized to make this call.")
  }

  @Test("user pools: a valid JWT receives events; an expired or forged one is refused at connect")
  func userPools() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let token = try keys.userPoolToken("ann")
    #expect(
      try await delivered(keys, server, .userPools { token }, title: "for ann", author: "sub-ann") == ["for ann"])
    let expired = try keys.userPoolToken("ann", expiresIn: -10)
    let stale = try await refusal(server, .userPools { expired })
    #expect(stale?.error.mode == .userPools)
    #expect(stale?.message == "Token has expired.")
    let forged = try AuthFixture.jwt(
      [
        "iss": AuthFixture.userPoolIssuer, "aud": "client-1", "cognito:username": "mallory",
        "exp": Int(Date().timeIntervalSince1970 + 600),
      ], secret: "not-the-pool-key")
    let forgery = try await refusal(server, .userPools { forged })
    #expect(forgery?.message == "Valid authorization header not provided.")
  }

  @Test("OIDC: a valid token connects but the start is refused (no @aws_oidc); an expired one is refused at connect")
  func oidc() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let token = try keys.oidcToken("user-1")
    let start = try await refusal(server, .oidc { token })
    #expect(start?.error.mode == .oidc)
    #expect(start?.message == "Not Authorized to access onCreateDocument on type Subscription")
    let expired = try keys.oidcToken("user-1", expiresIn: -1)
    let stale = try await refusal(server, .oidc { expired })
    #expect(stale?.error.mode == .oidc)
    #expect(stale?.message == "Token has expired.")
  }

  @Test("OIDC: an owner subscribes with the writer argument its identityClaim names and receives its own letters only")
  func oidcOwner() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let olgaToken = try keys.oidcToken("sub-olga", claims: ["user_id": "olga-1"])
    let oscarToken = try keys.oidcToken("sub-oscar", claims: ["user_id": "oscar-1"])
    let olga = makeRealtimeClient(server, authorization: .oidc { olgaToken })
    let letters = SubscriptionRecorder(
      olga.subscribe(to: try ModelSubscriptions.onCreate(Letter.self, ownerArguments: ["writer": "olga-1"])))
    defer { letters.cancel() }
    try await letters.waitConnected()
    try await makeClient(server, authorization: .oidc { oscarToken }).create(Letter(id: "n0", body: "Oscar's"))
    try await makeClient(server, authorization: .oidc { olgaToken }).create(Letter(id: "l1", body: "Olga's"))
    try await letters.waitModels(1)
    #expect(letters.models.map(\.id) == ["l1"])
    #expect(letters.models.map(\.writer) == ["olga-1"])
    // Another owner's argument is refused at `start`, as AppSync refuses it.
    let spy = makeRealtimeClient(server, authorization: .oidc { oscarToken }, maximumReconnectAttempts: 0)
    let spied = SubscriptionRecorder(
      spy.subscribe(to: try ModelSubscriptions.onCreate(Letter.self, ownerArguments: ["writer": "olga-1"])))
    try await spied.waitFinished()
    guard case APIError.authorization(_, let underlying)? = spied.recorded.error,
      let failure = underlying as? AuthorizationError
    else {
      Issue.record("expected APIError.authorization, got \(String(describing: spied.recorded.error))")
      return
    }
    #expect(failure.mode == .oidc)
  }

  @Test("Lambda: the test authorizer's allowed token receives events; a denied one is refused")
  func lambda() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    #expect(try await delivered(keys, server, .lambda { "allow-token" }, title: "lambda") == ["lambda"])
    let denied = try await refusal(server, .lambda { "deny-token" })
    #expect(denied?.error.mode == .lambda)
    #expect(denied?.message == "You are not authorized to make this call.")
  }

  @Test("IAM: a SigV4-signed handshake and start receive events; a wrong secret is refused")
  func iam() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let credentials = keys.credentials
    #expect(
      try await delivered(keys, server, .iam({ credentials }, region: "us-east-1"), title: "signed") == ["signed"])
    let wrongSecret = AWSCredentials(
      accessKeyID: credentials.accessKeyID, secretAccessKey: "wrong", sessionToken: credentials.sessionToken)
    let bad = try await refusal(server, .iam({ wrongSecret }, region: "us-east-1"))
    #expect(bad?.error.mode == .iam)
    #expect(bad?.message == "The request signature we calculated does not match the signature you provided.")
  }
}
