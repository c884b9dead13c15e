import AuthRulesModels
import Foundation
import LazyModel
import Testing

@testable import LazyModelAPI

/// Issue 15, H3: `@auth` rules may grant the read operations one by one (`get`, `list`, `sync`,
/// `listen`, `search`, transformer v2) instead of `read`. The transformer protects each root field
/// with the roles of its own operation (`protectGetResolver`: get; `protectListResolver`: list and
/// the index queries; `protectSyncResolver`: sync; the subscriptions: listen), so a multi-auth
/// client picks the modes per request kind, and the local server (Tests/GraphQLServer/auth.py)
/// refuses a mode whose rules grant another read operation. `Bulletin`: the API key may get, IAM
/// list and sync, the Listeners group (user pools) listen, the owner (user pools) only write.
@Suite("Fine-grained read rules: get, list, listen and sync each pick their own modes (issue 15)")
struct FineGrainedReadRulesTests {
  private static let key = APIClient.Authorization.apiKey("k")
  private static let pools = APIClient.Authorization.userPools { "t" }
  private static let iam = APIClient.Authorization.iam(
    { AWSCredentials(accessKeyID: "a", secretAccessKey: "s") }, region: "r")

  private func modes(_ operation: AuthRule.Operation, _ schema: ModelSchema = Bulletin.schema) -> [AuthorizationMode?] {
    AuthorizationStrategy.ordered([Self.key, Self.pools, Self.iam], for: schema, operation: operation).map(\.mode)
  }

  @Test("each operation's modes come from the rules that grant that operation")
  func orderPerOperation() {
    #expect(modes(.get) == [.apiKey])
    #expect(modes(.list) == [.iam])
    #expect(modes(.sync) == [.iam])
    #expect(modes(.listen) == [.userPools])
    #expect(modes(.search) == [])
    #expect(modes(.create) == [.userPools])
    #expect(modes(.update) == [.userPools])
    #expect(modes(.delete) == [.userPools])
    // A relationship read admits the roles of every read operation (protectRelationalResolver),
    // in Amplify's order: groups, private, public.
    #expect(modes(.read) == [.userPools, .iam, .apiKey])
    // `read` in a rule still covers each read operation (Notice: public read, owner all).
    #expect(modes(.get, Notice.schema) == [.userPools, .apiKey])
    #expect(modes(.list, Notice.schema) == [.userPools, .apiKey])
  }

  @Test("the request kind decides the operation: get, list, index query, mutations, a tagged sync query")
  func operationOfEachRequest() throws {
    #expect(try ModelQueries.get(Bulletin.self, byIdentifier: .init(id: "b1")).ruleOperation == .get)
    #expect(try ModelQueries.list(Bulletin.self).ruleOperation == .list)
    let byTitle = try ModelQueries.query(Memo.self, index: Memo.indexes.byTitle, partitionKey: "t")
    #expect(byTitle.ruleOperation == .list)
    #expect(try ModelMutations.create(Bulletin(id: "b1", text: "t")).ruleOperation == .create)
    #expect(try ModelMutations.update(Bulletin(id: "b1", text: "t")).ruleOperation == .update)
    #expect(try ModelMutations.delete(Bulletin(id: "b1", text: "t")).ruleOperation == .delete)
    let sync = GraphQLRequest<GraphQLValue>(
      operationType: .query, operationName: "SyncBulletins",
      document: "query SyncBulletins { syncBulletins { items { id } } }",
      variables: [:], responseField: "syncBulletins")
    #expect(sync.modelSchema == nil)
    let tagged = sync.authorized(by: Bulletin.schema, operation: .sync)
    #expect(tagged.modelSchema?.name == "Bulletin")
    #expect(tagged.ruleOperation == .sync)
  }

  @Test("against the server: create, get, list and a subscription each go out with the one mode allowed")
  func multiAuthPerRequestKind() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let credentials = keys.credentials
    let listener = try keys.userPoolToken("lena", groups: ["Listeners"])
    let log = RequestLog()
    let client = makeMultiAuthClient(
      server, [.apiKey(keys.apiKey), .iam({ credentials }, region: "us-east-1"), .userPools { listener }], log: log)
    let updates = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onUpdate(Bulletin.self)))
    defer { updates.cancel() }
    try await updates.waitConnected()
    #expect(try await server.activeSubscriptionModes() == ["onUpdateBulletin:userPools"])

    let created = try await client.create(Bulletin(id: "b1", text: "first"))
    #expect(created.text == "first")
    let got = try await client.get(Bulletin.self, byIdentifier: .init(id: "b1"))
    #expect(got?.text == "first")
    let page = try await client.send(ModelQueries.list(Bulletin.self))
    #expect(page.items.map(\.id) == ["b1"])
    var edited = created
    edited.text = "second"
    try await client.update(edited)
    try await updates.waitModels(1)
    #expect(updates.models.map(\.text) == ["second"])

    #expect(log.modes(of: "OnUpdateBulletin") == [.userPools])
    #expect(log.modes(of: "CreateBulletin") == [.userPools])
    #expect(log.modes(of: "GetBulletin") == [.apiKey])
    #expect(log.modes(of: "ListBulletins") == [.iam])
    #expect(log.modes(of: "UpdateBulletin") == [.userPools])
  }

  @Test("the server refuses a mode whose rules grant another read operation, and admits the one that grants it")
  func serverEnforcesEachOperation() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let credentials = keys.credentials
    let annToken = try keys.userPoolToken("ann")
    let byKey = makeClient(server, authorization: .apiKey(keys.apiKey))
    let byIAM = makeClient(server, authorization: .iam({ credentials }, region: "us-east-1"))
    let byAnn = makeClient(server, authorization: .userPools { annToken })
    try await byAnn.create(Bulletin(id: "b1", text: "posted"))

    #expect(try await byKey.get(Bulletin.self, byIdentifier: .init(id: "b1"))?.text == "posted")
    #expect(try await byIAM.send(ModelQueries.list(Bulletin.self)).items.map(\.id) == ["b1"])
    // get is the API key's only: IAM (list, sync) and the owner (writes only) are refused.
    for (client, mode) in [(byIAM, AuthorizationMode.iam), (byAnn, .userPools)] {
      let failure = await refusal { _ = try await client.get(Bulletin.self, byIdentifier: .init(id: "b1")) }
      #expect(failure?.mode == mode)
      #expect(failure?.message == "Not Authorized to access getBulletin on type Query")
    }
    // list is IAM's only.
    for client in [byKey, byAnn] {
      let failure = await refusal { _ = try await client.send(ModelQueries.list(Bulletin.self)) }
      #expect(failure?.message == "Not Authorized to access listBulletins on type Query")
    }
    // listen is the Listeners group's only: the API key and a user outside the group are refused
    // at start.
    for authorization in [APIClient.Authorization.apiKey(keys.apiKey), .userPools { annToken }] {
      let subscriber = makeRealtimeClient(server, authorization: authorization, maximumReconnectAttempts: 0)
      let stream = SubscriptionRecorder(subscriber.subscribe(to: try ModelSubscriptions.onCreate(Bulletin.self)))
      try await stream.waitFinished()
      guard case APIError.authorization(_, let underlying)? = stream.recorded.error,
        let failure = underlying as? AuthorizationError, case .rejected(_, let errors) = failure.reason
      else {
        Issue.record("expected APIError.authorization, got \(String(describing: stream.recorded.error))")
        continue
      }
      #expect(errors.first?.message == "Not Authorized to access onCreateBulletin on type Subscription")
    }
    #expect(try await server.activeSubscriptions().isEmpty)
  }

  /// The mode and first message of an `APIError.authorization` that `body` throws.
  private func refusal(
    _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> (mode: AuthorizationMode, message: String?)? {
    do {
      try await body()
      Issue.record("expected APIError.authorization", sourceLocation: sourceLocation)
    } catch APIError.authorization(_, let underlying as AuthorizationError) {
      guard case .rejected(_, let errors) = underlying.reason else { return (underlying.mode, nil) }
      return (underlying.mode, errors.first?.message)
    } catch {
      Issue.record("expected APIError.authorization, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
  }
}
