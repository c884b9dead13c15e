import Foundation
import LazyModel
import SyncOwnerModels
import Testing

@testable import LazyModelAPI
@testable import LazyModelDataStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A user pool of two users for the auth-aware local server (Tests/GraphQLServer/auth.py): its
/// `--auth-config` file, with `requireOwnerArgument` (an owner's subscription to a model only its
/// owner may read is refused without the owner argument, as AppSync refuses it), and HS256 ID tokens.
struct OwnerPool {
  static let issuer = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_SyncTest"
  let secret = UUID().uuidString
  let configURL: URL

  /// `defaultMode`: the API's default authorization mode (`"userPools"`), the only one a root
  /// field without `@aws_*` directives admits (a level `public` subscription); none by default.
  init(_ directory: URL, defaultMode: String? = nil) throws {
    configURL = directory.appendingPathComponent("auth.json")
    var config: [String: Any] = [
      "userPools": ["secret": secret, "issuer": Self.issuer, "audience": "client-1"],
      "requireOwnerArgument": true,
    ]
    if let defaultMode { config["defaultMode"] = defaultMode }
    try JSONSerialization.data(withJSONObject: config).write(to: configURL)
  }

  /// An ID token of `username` (RFC 7519, HS256), valid for an hour.
  func token(_ username: String) -> String {
    token(claims: ["sub": "sub-\(username)", "cognito:username": username])
  }

  /// An ID token with the registered claims and `identity` (`sub`, `cognito:username`, …).
  func token(claims identity: [String: Any]) -> String {
    func base64URL(_ data: Data) -> String {
      data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    let claims: [String: Any] = [
      "iss": Self.issuer, "aud": "client-1", "token_use": "id", "exp": Int(Date().timeIntervalSince1970) + 3600,
    ].merging(identity) { registered, _ in registered }
    let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    let payload = base64URL((try? JSONSerialization.data(withJSONObject: claims)) ?? Data())
    let signature = Digest.hmacSHA256(key: Array(secret.utf8), data: Array("\(header).\(payload)".utf8))
    return "\(header).\(payload).\(base64URL(Data(signature)))"
  }

  /// A device of `username`: its own store file and client, signed in to the user pool.
  func device(_ server: SyncServer, _ directory: URL, _ username: String, _ name: String) throws -> DataStore {
    let token = self.token(username)
    var api = APIClient.Configuration(
      endpoint: server.endpoint, authorization: .userPools { token }, timeout: syncRequestTimeout)
    api.realtime = .init(reconnectInitialDelay: 0.1, reconnectMaximumDelay: 0.5, maximumReconnectAttempts: 10_000)
    var configuration = SyncConfiguration(client: APIClient(configuration: api))
    configuration.retry = SyncRetryPolicy(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(500))
    return try DataStore(
      fileURL: directory.appendingPathComponent("\(name).sqlite"), registry: Models.registry, sync: configuration)
  }
}

@Suite("Sync: a model only its owner may read (allow: owner, Cognito user pools)", .serialized)
struct OwnerSyncTests {
  @Test func subscriptionsCarryTheOwnerArgumentAndEachOwnerSyncsOnlyItsRecords() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let server = try await SyncServer(generated: "sync/sync-owner", authConfig: pool.configURL)
    defer { server.stop() }
    #expect(ModelSubscriptions.ownerArgumentNames(of: Note.schema) == ["owner"])
    let alicePhone = try pool.device(server, directory, "alice", "alice-phone")
    let aliceLaptop = try pool.device(server, directory, "alice", "alice-laptop")
    let bobPhone = try pool.device(server, directory, "bob", "bob-phone")
    for store in [alicePhone, aliceLaptop, bobPhone] { try await startAndSync(store) }

    // Each device's three subscriptions name its user as the owner argument.
    let (data, _) = try await URLSession.shared.data(
      from: URL(string: "http://127.0.0.1:\(server.port)/test/realtime/subscriptions")!)
    let active = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    let owners = active.map {
      "\($0["field"] as? String ?? "") \(($0["arguments"] as? [String: Any])?["owner"] ?? "-")"
    }
    #expect(
      owners.sorted()
        == [
          "onCreateNote alice", "onCreateNote alice", "onCreateNote bob", "onDeleteNote alice",
          "onDeleteNote alice", "onDeleteNote bob", "onUpdateNote alice", "onUpdateNote alice", "onUpdateNote bob",
        ])

    try await alicePhone.save(Note(id: "a1", content: "alice's"))
    try await bobPhone.save(Note(id: "b1", content: "bob's"))
    // Through the subscription: alice's other device gets her note, never bob's.
    #expect(try await eventuallyScaled { try await aliceLaptop.query(Note.self).map(\.id) == ["a1"] })
    #expect(try await eventuallyScaled { try await alicePhone.pendingMutations().isEmpty })
    #expect(try await eventuallyScaled { try await bobPhone.pendingMutations().isEmpty })
    try await aliceLaptop.save(Note(id: "a1", content: "alice's, edited on the laptop"))
    #expect(
      try await eventuallyScaled {
        try await alicePhone.query(Note.self, byIdentifier: .init(id: "a1"))?.content == "alice's, edited on the laptop"
      })
    #expect(try await bobPhone.query(Note.self).map(\.id) == ["b1"])
    #expect(try await aliceLaptop.query(Note.self).map(\.id) == ["a1"])

    // A new device of bob's: its base sync brings bob's note only.
    let bobTablet = try pool.device(server, directory, "bob", "bob-tablet")
    try await startAndSync(bobTablet)
    #expect(try await bobTablet.query(Note.self).map(\.content) == ["bob's"])
    for store in [alicePhone, aliceLaptop, bobPhone, bobTablet] { await store.stop() }
  }

  /// Under `.multiAuth` the sync engine's subscriptions pass the owner argument of each user
  /// pools or OIDC mode's own token on that mode's connection (the server refuses an owner's start
  /// without it: `requireOwnerArgument`); before, the engine read the owner from the default
  /// authorization only, so a multi-auth device subscribed with none and never synced.
  @Test func multiAuthSubscriptionsCarryEachModesOwnerArgument() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let server = try await SyncServer(generated: "sync/sync-owner", authConfig: pool.configURL)
    defer { server.stop() }
    func device(_ name: String) throws -> DataStore {
      let token = pool.token("alice")
      var api = APIClient.Configuration(
        endpoint: server.endpoint, timeout: syncRequestTimeout,
        authorizationStrategy: .multiAuth([.apiKey("da2-not-configured"), .userPools { token }]))
      api.realtime = .init(reconnectInitialDelay: 0.1, reconnectMaximumDelay: 0.5, maximumReconnectAttempts: 10_000)
      var configuration = SyncConfiguration(client: APIClient(configuration: api))
      configuration.retry = SyncRetryPolicy(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(500))
      return try DataStore(
        fileURL: directory.appendingPathComponent("\(name).sqlite"), registry: Models.registry, sync: configuration)
    }
    let phone = try device("alice-phone")
    let laptop = try device("alice-laptop")
    for store in [phone, laptop] { try await startAndSync(store) }
    let (data, _) = try await URLSession.shared.data(
      from: URL(string: "http://127.0.0.1:\(server.port)/test/realtime/subscriptions")!)
    let active = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    let started = active.map {
      "\($0["field"] as? String ?? "") \(($0["arguments"] as? [String: Any])?["owner"] ?? "-") \($0["mode"] ?? "-")"
    }
    #expect(
      started.sorted()
        == [
          "onCreateNote alice userPools", "onCreateNote alice userPools",
          "onDeleteNote alice userPools", "onDeleteNote alice userPools",
          "onUpdateNote alice userPools", "onUpdateNote alice userPools",
        ], "\(started)")
    try await phone.save(Note(id: "a1", content: "from the phone"))
    #expect(try await eventuallyScaled { try await laptop.query(Note.self).map(\.content) == ["from the phone"] })
    try await laptop.save(Note(id: "a1", content: "edited on the laptop"))
    #expect(
      try await eventuallyScaled {
        try await phone.query(Note.self, byIdentifier: .init(id: "a1"))?.content == "edited on the laptop"
      })
    for store in [phone, laptop] { await store.stop() }
  }

  @Test func theOwnerArgumentIsTheSignedInUsersClaimAndOnlyForUserPoolsAndOIDC() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let token = pool.token("carol")
    let claims = try #require(SyncEngine.claims(ofJWT: token))
    #expect(claims["cognito:username"] == .string("carol") && claims["sub"] == .string("sub-carol"))
    #expect(SyncEngine.claims(ofJWT: "not a token") == nil)
    #expect(SyncEngine.claims(ofJWT: "a.%%%.c") == nil)
    let endpoint = URL(string: "http://127.0.0.1:9/graphql")!
    func arguments(_ authorization: APIClient.Authorization) async throws -> [String: String] {
      let client = APIClient(configuration: .init(endpoint: endpoint, authorization: authorization))
      return try await SyncEngine(configuration: SyncConfiguration(client: client)).ownerArguments(Note.schema)
    }
    #expect(try await arguments(.userPools { token }) == ["owner": "carol"])
    // The transformer's claim: `username`, else `cognito:username`; never `sub` instead (a token
    // whose sub is another user's username would otherwise subscribe as that user).
    let shapes: [([String: Any], [String: String])] = [
      (["sub": "sub-carol", "username": "carol", "cognito:username": "other"], ["owner": "carol"]),
      (["sub": "carol"], [:]),
      // An empty username is a value (`$util.defaultIfNull` keeps it; no fall back to
      // `cognito:username`): the owner is "<sub>::", passed whole since its last part is empty.
      (["sub": "carol", "cognito:username": ""], ["owner": "carol::"]),
      (["sub": "sub-e", "username": "", "cognito:username": "ann"], ["owner": "sub-e::"]),
      (["sub": "", "cognito:username": ""], [:]),
      (["sub": "", "cognito:username": "carol"], ["owner": "carol"]),
      // A part holding the separator would stand for another user's whole owner value.
      (["sub": "sub-x", "cognito:username": "sub-carol::carol"], [:]),
      (["cognito:username": "carol"], [:]),
      (["sub": "carol", "cognito:username": false], [:]),
      (["sub": "carol", "cognito:username": 0], [:]),
      (["sub": "carol", "cognito:username": ["carol"]], [:]),
      // A null `username` is absent: `cognito:username` is read, as the service reads it.
      (["sub": "sub-ed", "username": NSNull(), "cognito:username": "ed"], ["owner": "ed"]),
    ]
    for (claims, expected) in shapes {
      let shaped = pool.token(claims: claims)
      #expect(try await arguments(.userPools { shaped }) == expected, "\(claims)")
    }
    // Beside a static group rule, a member of the group subscribes without the owner argument, its
    // groups claim read as the service reads it: a list, one string, or a string holding a JSON list.
    let grouped = ModelSchema(
      name: Note.schema.name, pluralName: Note.schema.pluralName, primaryKey: Note.schema.primaryKey,
      fields: Note.schema.fields, authRules: [AuthRule(allow: .owner), AuthRule(allow: .groups, groups: ["Admin"])])
    let groupShapes: [(Any, [String: String])] = [
      (["Admin"], [:]), ("Admin", [:]), ("[\"Staff\",\"Admin\"]", [:]), ("[\"Staff\"]", ["owner": "dan"]),
      (["Staff"], ["owner": "dan"]), ("Staff", ["owner": "dan"]),
    ]
    for (groups, expected) in groupShapes {
      let shaped = pool.token(claims: ["sub": "sub-dan", "cognito:username": "dan", "cognito:groups": groups])
      let client = APIClient(configuration: .init(endpoint: endpoint, authorization: .userPools { shaped }))
      let got = try await SyncEngine(configuration: SyncConfiguration(client: client)).ownerArguments(grouped)
      #expect(got == expected, "groups \(groups)")
    }
    // Note's owner rule is a user pools rule: an OIDC, API key or unreadable token passes none.
    #expect(try await arguments(.oidc { token }).isEmpty)
    #expect(try await arguments(.apiKey("key")).isEmpty)
    #expect(try await arguments(.userPools { "opaque" }).isEmpty)
    struct Refused: Error {}
    await #expect(throws: AuthorizationError.self) { try await arguments(.userPools { throw Refused() }) }
  }

  @Test("the sync engine's requests carry their model and @auth operation, so multi-auth reads Note's rules")
  func syncRequestsCarryTheirAuthOperation() throws {
    let sync = try SyncEngine.syncQuery(Note.schema, filter: nil, limit: 10, nextToken: nil, lastSync: nil)
    #expect(sync.modelSchema?.name == "Note")
    #expect(sync.ruleOperation == .sync)
    let get = try SyncEngine.getQuery(Note.schema, [IdentifierComponent(name: "id", value: .string("n1"))])
    #expect(get.ruleOperation == .get)
    for kind in ModelMutationKind.allCases {
      let mutation = try SyncEngine.mutation(kind, Note.schema, input: ["id": .string("n1")])
      #expect(mutation.ruleOperation.rawValue == kind.rawValue)
      #expect(mutation.modelSchema?.name == "Note")
    }
    // Note's only rule is the owner's (user pools): IAM and the API key are never tried.
    let modes: [APIClient.Authorization] = [.apiKey("k"), .userPools { "t" }]
    #expect(
      AuthorizationStrategy.ordered(modes, for: sync.modelSchema, operation: sync.ruleOperation).map(\.mode) == [
        .userPools
      ])
  }
}
