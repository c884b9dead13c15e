import AuthRulesModels
import Foundation
import LazyModel
import Testing

@testable import LazyModelAPI

/// A client whose only authorization is `.multiAuth(modes)`, with fast reconnects, recording every
/// request and subscription `start` (with its mode) in `log`.
func makeMultiAuthClient(
  _ server: GraphQLServerProcess, _ modes: [APIClient.Authorization], log: RequestLog,
  maximumReconnectAttempts: Int = 5
) -> APIClient {
  var configuration = APIClient.Configuration(
    endpoint: server.endpoint, timeout: testRequestDeadline, authorizationStrategy: .multiAuth(modes))
  configuration.realtime = APIClient.RealtimeConfiguration(
    connectionAckTimeout: testRequestDeadline, reconnectInitialDelay: 0.05, reconnectMaximumDelay: 0.5,
    maximumReconnectAttempts: maximumReconnectAttempts)
  return APIClient(configuration: configuration, observer: { log.append($0) })
}

extension RequestLog {
  /// The modes of the records of `operationName`, in the order sent.
  func modes(of operationName: String) -> [AuthorizationMode?] {
    all.filter { $0.operationName == operationName }.map(\.authorizationMode)
  }
}

/// Issue 15, H4: under `.multiAuth` a subscription picks its modes as a query does, from the
/// model's `@auth` rules for `listen` in Amplify's priority order, on a real-time connection of
/// that mode (handshake `header` and `start` `extensions.authorization`), against the local
/// server's enforcement (Tests/GraphQLServer/realtime.py and auth.py). `Notice` may be read by the
/// API key and reached by its owner (user pools) only.
@Suite("Multi-auth subscriptions: modes from the model's @auth rules, fallback on refusal (issue 15)")
struct MultiAuthSubscriptionTests {
  @Test("a handshake refused to user pools (expired token) falls back to the API key, which receives the events")
  func fallsBackFromARefusedHandshake() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let log = RequestLog()
    let expired = try keys.userPoolToken("ann", expiresIn: -10)
    let client = makeMultiAuthClient(server, [.apiKey(keys.apiKey), .userPools { expired }], log: log)
    let notices = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Notice.self)))
    defer { notices.cancel() }
    try await notices.waitConnected()
    // The user pools handshake got `connection_error`: no `start` was sent with it.
    #expect(log.modes(of: "OnCreateNotice") == [.apiKey])
    #expect(try await server.activeSubscriptionModes() == ["onCreateNotice:apiKey"])
    let annToken = try keys.userPoolToken("ann")
    try await makeClient(server, authorization: .userPools { annToken }).create(Notice(id: "n1", text: "hello"))
    try await notices.waitModels(1)
    #expect(notices.models.map(\.id) == ["n1"])
    #expect(notices.models.map(\.owner) == ["ann"])
    #expect(notices.connectedCount == 1 && notices.reconnectedCount == 0)
    #expect(notices.recorded.error == nil)
  }

  @Test("a start refused to user pools (a token without the owner's identity claim) falls back to the API key")
  func fallsBackFromARefusedStart() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let log = RequestLog()
    // A valid user pool token without `sub`: it authenticates, but the owner rule's identity claim
    // (`sub::username`) is missing, so the rule makes no filter and the `start` is Unauthorized.
    let anonymous = try AuthFixture.jwt(
      [
        "iss": AuthFixture.userPoolIssuer, "aud": "client-1", "cognito:username": "ann",
        "exp": Int(Date().timeIntervalSince1970 + 600),
      ], secret: keys.userPoolSecret)
    let client = makeMultiAuthClient(server, [.apiKey(keys.apiKey), .userPools { anonymous }], log: log)
    let notices = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onUpdate(Notice.self)))
    defer { notices.cancel() }
    try await notices.waitConnected()
    #expect(log.modes(of: "OnUpdateNotice") == [.userPools, .apiKey])
    #expect(try await server.activeSubscriptionModes() == ["onUpdateNotice:apiKey"])
    let annToken = try keys.userPoolToken("ann")
    let ann = makeClient(server, authorization: .userPools { annToken })
    var notice = try await ann.create(Notice(id: "n2", text: "draft"))
    notice.text = "final"
    try await ann.update(notice)
    try await notices.waitModels(1)
    #expect(notices.models.map(\.text) == ["final"])
    #expect(notices.connectedCount == 1 && notices.reconnectedCount == 0)
  }

  @Test("a mode no @auth rule of the model names is never used; with no allowed mode nothing is sent")
  func neverUsesAModeTheRulesDoNotName() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let credentials = keys.credentials
    let iam = APIClient.Authorization.iam({ credentials }, region: "us-east-1")
    // IAM first in the configuration, and valid: Notice's rules do not name it, so it is skipped.
    let log = RequestLog()
    let client = makeMultiAuthClient(server, [iam, .apiKey(keys.apiKey)], log: log)
    let notices = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onDelete(Notice.self)))
    defer { notices.cancel() }
    try await notices.waitConnected()
    #expect(log.modes(of: "OnDeleteNotice") == [.apiKey])
    #expect(try await server.activeSubscriptionModes() == ["onDeleteNotice:apiKey"])
    #expect(try await server.realtimeConnectionCount() == 1)
    notices.cancel()
    try await server.waitForSubscriptions(0)

    // IAM alone: refused before anything is sent, naming the model and the operation.
    let lonely = RequestLog()
    let iamOnly = makeMultiAuthClient(server, [iam], log: lonely)
    let refused = SubscriptionRecorder(iamOnly.subscribe(to: try ModelSubscriptions.onCreate(Notice.self)))
    try await refused.waitFinished()
    guard case APIError.invalidRequest(let name, let reason)? = refused.recorded.error else {
      Issue.record("expected APIError.invalidRequest, got \(String(describing: refused.recorded.error))")
      return
    }
    #expect(name == "OnCreateNotice")
    #expect(reason == "multi-auth: no configured mode is allowed by the @auth rules of Notice for listen")
    #expect(lonely.all.isEmpty)
    #expect(await iamOnly.activeSubscriptionCount == 0)
  }

  @Test(
    "an owner's subscription under user pools receives only the caller's records, with or without the owner argument")
  func ownerReceivesOnlyTheirRecords() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let bobToken = try keys.userPoolToken("bob")
    let log = RequestLog()
    let client = makeMultiAuthClient(server, [.apiKey(keys.apiKey), .userPools { annToken }], log: log)
    let filtered = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Notice.self)))
    let argued = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onCreate(Notice.self, ownerArguments: ["owner": "ann"])))
    defer {
      filtered.cancel()
      argued.cancel()
    }
    try await filtered.waitConnected()
    try await argued.waitConnected()
    // User pools first (owner before public), on one connection for both.
    #expect(log.modes(of: "OnCreateNotice") == [.userPools, .userPools])
    #expect(try await server.activeSubscriptionModes() == ["onCreateNotice:userPools", "onCreateNotice:userPools"])
    #expect(try await server.realtimeConnectionCount() == 1)
    try await makeClient(server, authorization: .userPools { bobToken }).create(Notice(id: "b1", text: "Bob's"))
    try await makeClient(server, authorization: .userPools { annToken }).create(Notice(id: "a1", text: "Ann's"))
    try await filtered.waitModels(1)
    try await argued.waitModels(1)
    // Bob's notice was published first: had it been delivered, it would be here by now.
    #expect(filtered.models.map(\.id) == ["a1"])
    #expect(argued.models.map(\.id) == ["a1"])
    #expect(argued.models.map(\.owner) == ["ann"])
  }

  @Test("the caller's owner argument goes to the user pools start only: the API key start it falls back to has none")
  func ownerArgumentsGoToTheOwnerModeOnly() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let expired = try keys.userPoolToken("ann", expiresIn: -10)
    let annToken = try keys.userPoolToken("ann")
    func started(_ modes: [APIClient.Authorization]) async throws -> (sent: [String], held: [String]) {
      let log = RequestLog()
      let client = makeMultiAuthClient(server, modes, log: log)
      #expect(
        client.ownerVariablesByMode(["owner": "ann", "filter": .null], of: Notice.schema)
          == [.apiKey: ["filter": .null]])
      let notices = SubscriptionRecorder(
        client.subscribe(to: try ModelSubscriptions.onCreate(Notice.self, ownerArguments: ["owner": "ann"])))
      defer { notices.cancel() }
      try await notices.waitConnected()
      let sent = log.all.filter { $0.operationName == "OnCreateNotice" }.map {
        "\($0.authorizationMode.map(\.rawValue) ?? "-") \($0.variables["owner"].map { "\($0)" } ?? "no owner")"
      }
      let held = try await server.activeSubscriptionArguments()
      notices.cancel()
      try await server.waitForSubscriptions(0)
      return (sent, held)
    }
    // User pools (owner first) takes the argument.
    let owner = try await started([.apiKey(keys.apiKey), .userPools { annToken }])
    #expect(owner.sent == ["userPools string(\"ann\")"])
    #expect(owner.held == ["onCreateNotice:userPools owner=ann"])
    // Its handshake refused, the API key's start leaves it out. Before, it sent `owner: "ann"`.
    let fallback = try await started([.apiKey(keys.apiKey), .userPools { expired }])
    #expect(fallback.sent == ["apiKey no owner"])
    #expect(fallback.held == ["onCreateNotice:apiKey -"])
  }

  @Test("once an event arrived the mode is kept: a later refusal ends the stream instead of falling back")
  func neverFallsBackAfterData() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let expired = try keys.userPoolToken("ann", expiresIn: -10)
    let signedOut = TestLock(false)
    let log = RequestLog()
    let client = makeMultiAuthClient(
      server, [.apiKey(keys.apiKey), .userPools { signedOut.withLock { $0 } ? expired : annToken }], log: log)
    let notices = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Notice.self)))
    defer { notices.cancel() }
    try await notices.waitConnected()
    try await makeClient(server, authorization: .userPools { annToken }).create(Notice(id: "a1", text: "first"))
    try await notices.waitModels(1)
    // The token expires and the connection drops: the reconnect's handshake is refused.
    signedOut.withLock { $0 = true }
    try await server.dropRealtimeConnections()
    try await notices.waitFinished()
    guard case APIError.authorization(let name, let underlying)? = notices.recorded.error,
      let failure = underlying as? AuthorizationError
    else {
      Issue.record("expected APIError.authorization, got \(String(describing: notices.recorded.error))")
      return
    }
    #expect(name == "OnCreateNotice")
    #expect(failure.mode == .userPools)
    #expect(log.modes(of: "OnCreateNotice") == [.userPools])
    #expect(notices.models.map(\.id) == ["a1"])
    #expect(try await server.activeSubscriptions().isEmpty)
  }

  @Test("the modes of listen follow Amplify's priority order and the rules' operations")
  func listenOrder() throws {
    let key = APIClient.Authorization.apiKey("k")
    let pools = APIClient.Authorization.userPools { "t" }
    let iam = APIClient.Authorization.iam({ AWSCredentials(accessKeyID: "a", secretAccessKey: "s") }, region: "r")
    let modes = [key, pools, iam]
    #expect(
      AuthorizationStrategy.ordered(modes, for: Notice.schema, operation: .listen).map(\.mode) == [.userPools, .apiKey])
    #expect(AuthorizationStrategy.orderedIndices(modes, for: Notice.schema, operation: .listen) == [1, 0])
    // Ticket's owner rule grants create and read: listen is a read.
    #expect(AuthorizationStrategy.ordered(modes, for: Ticket.schema, operation: .listen).map(\.mode) == [.userPools])
  }
}
