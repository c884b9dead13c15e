import Foundation
import LazyModel
import SyncBlogModels
import Testing

@testable import LazyModelAPI
@testable import LazyModelDataStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 13 (break13 report, finding 1): an outbox entry leaves the outbox only when the server
/// answered its mutation definitively; an endpoint-wide or unreadable answer, or a refusal whose
/// revert cannot read the server's record, keeps it at the head, reported, and retried.
@Suite("Sync: an outbox entry stays until the server answered it", .serialized)
struct OutboxKeepTests {
  /// A store on `directory`'s file whose requests carry `headers` (`x-test-fail`) and `apiKey`.
  private func open(
    _ directory: URL, _ server: SyncServer, headers: [String: String] = [:], apiKey: String = "sync-test-key",
    errors: Recorder<SyncError>
  ) throws -> DataStore {
    try syncStore(directory, endpoint: server.endpoint) { configuration in
      var api = APIClient.Configuration(
        endpoint: server.endpoint, authorization: .apiKey(apiKey), timeout: syncRequestTimeout)
      api.additionalHeaders = headers
      configuration.client = APIClient(configuration: api)
      configuration.retry = SyncRetryPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200))
      configuration.errorHandler = { errors.append($0) }
    }
  }

  /// The titles of the server's stored posts by id (`GET /test/records/Post`, no API key needed).
  private func serverTitles(_ server: SyncServer) async throws -> [String: String] {
    let (data, _) = try await URLSession.shared.data(
      from: URL(string: "http://127.0.0.1:\(server.port)/test/records/Post")!)
    let records = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    var titles: [String: String] = [:]
    for record in records { if let id = record["id"] as? String { titles[id] = record["title"] as? String ?? "-" } }
    return titles
  }

  /// Saves offline, starts with a client whose every answer is `fault`, and checks that the
  /// entries stay (reported once, `isRetried`), then drains them with a good client.
  private func keepsTheEntries(
    headers: [String: String] = [:], apiKey: String = "sync-test-key", serverKey: String? = nil,
    _ check: (APIError) -> Bool
  ) async throws {
    let server = try await SyncServer(apiKey: serverKey)
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let errors = Recorder<SyncError>()
    let bad = try open(directory, server, headers: headers, apiKey: apiKey, errors: errors)
    try await bad.save(Post(id: "mine", title: "created offline, precious"))
    try await bad.save(Post(id: "next", title: "after it"))
    let log = EventLog(bad)
    defer { log.stop() }
    try await bad.start()
    func retried() -> [String] {
      log.events.compactMap { if case .retrying(_, let id, _, _) = $0 { return id } else { return nil } }
    }
    // Bounded: the old engine dropped the entries and never retried.
    #expect(try await eventuallyScaled(15) { retried().count >= 3 })
    await bad.stop()
    #expect(Set(retried()) == ["\"mine\""])  // the head stays the head
    #expect(try await outbox(bad) == ["create Post \"mine\"", "create Post \"next\""])
    #expect(try await bad.query(Post.self, byIdentifier: .init(id: "mine"))?.title == "created offline, precious")
    #expect(errors.values.map(\.identifier) == ["\"mine\""], "reported once per streak")
    #expect(errors.values.first?.isRetried == true)
    if let underlying = errors.values.first?.underlying as? APIError {
      #expect(check(underlying), "\(underlying)")
    } else {
      Issue.record("expected an APIError, got \(String(describing: errors.values.first?.underlying))")
    }
    #expect(try await serverTitles(server).isEmpty)

    let goodErrors = Recorder<SyncError>()
    let good = try open(directory, server, apiKey: serverKey ?? "sync-test-key", errors: goodErrors)
    try await good.start()
    #expect(try await eventuallyScaled { try await good.pendingMutations().isEmpty })
    await good.stop()
    #expect(try await serverTitles(server) == ["mine": "created offline, precious", "next": "after it"])
    #expect(goodErrors.values.isEmpty)
  }

  /// HTTP 401 (a wrong or expired API key) is the endpoint's refusal, not the record's. The old
  /// engine dropped every entry (one error each) and kept the rows: never sent.
  @Test func anExpiredKeyKeepsTheEntries() async throws {
    try await keepsTheEntries(apiKey: "expired", serverKey: "k1") { error in
      // The client reports an API key's 401 as the authorization's refusal.
      if case .authorization = error { return "\(error)".contains("HTTP 401") }
      return false
    }
  }

  /// An HTTP 200 whose body is not JSON (`x-test-fail: malformed`; a captive portal's page):
  /// whether the mutation was applied is unknown.
  @Test func anUndecodableAnswerKeepsTheEntries() async throws {
    try await keepsTheEntries(headers: ["x-test-fail": "malformed"]) { error in
      if case .undecodableResponse = error { return true }
      return false
    }
  }

  /// A GraphQL error that names neither the mutation's path nor the request
  /// (`x-test-fail: graphql-error`: `data: null`, a pathless `TestInjectedError`).
  @Test func aPathlessServerErrorKeepsTheEntries() async throws {
    try await keepsTheEntries(headers: ["x-test-fail": "graphql-error"]) { error in
      if case .graphQL(_, let errors, _, _) = error { return errors.first?.errorType == "TestInjectedError" }
      return false
    }
  }

  /// A create refused by its condition (the server has "dup") whose revert cannot read the
  /// server's record (`x-test-fail: partial` adds an error to every answer): the entry stays, and
  /// the next client that can read reverts the row. The old engine removed the entry and kept
  /// "mine" locally for good.
  @Test func aRefusalWhoseRevertCannotReadTheRecordIsRetriedUntilReverted() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try await server.graphQL(
      "mutation C($i: CreatePostInput!) { createPost(input: $i) { id } }", ["i": ["id": "dup", "title": "server's"]])
    let errors = Recorder<SyncError>()
    let bad = try open(directory, server, headers: ["x-test-fail": "partial"], errors: errors)
    try await bad.save(Post(id: "dup", title: "mine"))
    let log = EventLog(bad)
    defer { log.stop() }
    try await bad.start()
    #expect(
      try await eventuallyScaled(15) {
        log.events.filter { if case .retrying = $0 { return true } else { return false } }.count >= 2
      })
    await bad.stop()
    #expect(try await outbox(bad) == ["create Post \"dup\""])
    #expect(errors.values.map(\.isRetried) == [true])

    let goodErrors = Recorder<SyncError>()
    let good = try open(directory, server, errors: goodErrors)
    try await good.start()
    #expect(try await eventuallyScaled { try await good.pendingMutations().isEmpty })
    await good.stop()
    #expect(try await good.query(Post.self, byIdentifier: .init(id: "dup"))?.title == "server's")
    #expect(goodErrors.values.map(\.isRetried) == [false])
    if case .graphQL(_, let graphQLErrors, _, _)? = goodErrors.values.first?.underlying as? APIError {
      #expect(graphQLErrors.first?.errorType == "DynamoDB:ConditionalCheckFailedException")
    } else {
      Issue.record("expected the condition's error, got \(String(describing: goodErrors.values.first?.underlying))")
    }
  }

  /// verify13's finding A: a create the server applied but whose answer has an error below the
  /// mutation's field (the stored title `__modelgen_fail__` fails to resolve) was taken for a
  /// refusal; its revert's `get` failed the same way, so the entry was retried for good and every
  /// entry behind it waited. Now: the entry is done, the local row kept, one error reported, and
  /// the next entry goes out.
  @Test func anAppliedMutationWithAnUnreadableAnswerIsDoneAndTheOutboxGoesOn() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let errors = Recorder<SyncError>()
    let store = try open(directory, server, errors: errors)
    try await store.save(Post(id: "bad", title: "__modelgen_fail__"))
    try await store.save(Post(id: "after", title: "behind it"))
    try await store.start()
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    await store.stop()
    #expect(try await serverTitles(server) == ["bad": "__modelgen_fail__", "after": "behind it"])
    #expect(try await store.query(Post.self, byIdentifier: .init(id: "bad"))?.title == "__modelgen_fail__")
    #expect(errors.values.map(\.identifier) == ["\"bad\""])
    #expect(errors.values.map(\.isRetried) == [false])
  }

  /// A conflict handler answering `.retry(with:)` a model of another identifier: the old engine
  /// saved it (a row "other" with no outbox entry, never sent) and dropped the conflict's entry.
  @Test func aRetryWithAnotherIdentifierIsATypedErrorAndTheServersRecordStays() async throws {
    let server = try await SyncServer(conflictHandler: "OPTIMISTIC_CONCURRENCY")
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let errors = Recorder<SyncError>()
    let store = try syncStore(directory, endpoint: server.endpoint) { configuration in
      configuration.errorHandler = { errors.append($0) }
      configuration.conflictHandler = { _ in .retry(with: Post(id: "other", title: "merged")) }
    }
    try await store.save(Post(id: "o", title: "A"))
    try await store.start()
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    await store.stop()
    _ = try await server.graphQL(
      "mutation U($i: UpdatePostInput!) { updatePost(input: $i) { id } }",
      ["i": ["id": "o", "title": "remote", "_version": 1]])
    try await store.save(Post(id: "o", title: "local"))
    try await store.start()
    #expect(try await eventuallyScaled(15) { !errors.values.isEmpty })
    #expect(try await eventuallyScaled(15) { try await store.pendingMutations().isEmpty })
    await store.stop()
    let mismatch = try #require(errors.values.first?.underlying as? SyncConflictRetryMismatch)
    #expect(mismatch.modelName == "Post" && mismatch.identifier == "\"o\"" && mismatch.retried == "\"other\"")
    #expect(errors.values.count == 1 && errors.values.first?.isRetried == false)
    #expect(try await store.query(Post.self, byIdentifier: .init(id: "other")) == nil)
    #expect(try await store.query(Post.self, byIdentifier: .init(id: "o"))?.title == "remote")
    #expect(try await store.syncMetadata(Post.self, byIdentifier: .init(id: "o"))?.version == 2)
    #expect(try await server.post("other") == nil)
  }

  /// The rule itself, for the answers the local server cannot give (a redirect, HTTP 403).
  @Test func theClassificationOfFailedSends() {
    let body = Data()
    func classify(_ error: APIError) -> SyncEngine.SendFailure {
      SyncEngine.classify(error, responseField: "createPost")
    }
    let maybe = SyncEngine.SendFailure.retry(unanswered: true, reported: true)
    let endpoint = SyncEngine.SendFailure.retry(unanswered: false, reported: true)
    #expect(classify(.redirected(operationName: "CreatePost", statusCode: 302, location: "http://portal/")) == maybe)
    #expect(classify(.httpStatus(operationName: "CreatePost", statusCode: 401, errors: [], body: body)) == endpoint)
    #expect(classify(.httpStatus(operationName: "CreatePost", statusCode: 403, errors: [], body: body)) == endpoint)
    #expect(classify(.httpStatus(operationName: "CreatePost", statusCode: 404, errors: [], body: body)) == endpoint)
    #expect(classify(.undecodableResponse(operationName: "CreatePost", reason: "not JSON", body: body)) == maybe)
    #expect(classify(.httpStatus(operationName: "CreatePost", statusCode: 400, errors: [], body: body)) == .refused)
    #expect(
      classify(.httpStatus(operationName: "CreatePost", statusCode: 503, errors: [], body: body))
        == .retry(unanswered: true, reported: false))
    #expect(
      classify(.httpStatus(operationName: "CreatePost", statusCode: 429, errors: [], body: body))
        == .retry(unanswered: false, reported: false))
    let atPath = GraphQLError(message: "Not Authorized", path: [.string("createPost")], errorType: "Unauthorized")
    #expect(classify(.graphQL(operationName: "CreatePost", errors: [atPath], partialData: nil, body: body)) == .refused)
    let validation = GraphQLError(
      message: "Validation error of type WrongType", locations: [.init(line: 1, column: 40)])
    #expect(
      classify(.graphQL(operationName: "CreatePost", errors: [validation], partialData: nil, body: body)) == .refused)
    let refusedRule = AuthorizationError(
      mode: .userPools, reason: .rejected(statusCode: 200, errors: [GraphQLError(message: "Not Authorized")]))
    #expect(classify(.authorization(operationName: "CreatePost", underlying: refusedRule)) == .refused)
    let expired = AuthorizationError(mode: .apiKey, reason: .rejected(statusCode: 401, errors: []))
    #expect(classify(.authorization(operationName: "CreatePost", underlying: expired)) == endpoint)
    let belowTheField = GraphQLError(
      message: "field failed", path: [.string("createPost"), .string("title")], errorType: "FieldError")
    #expect(
      classify(.graphQL(operationName: "CreatePost", errors: [belowTheField], partialData: nil, body: body))
        == .appliedAnswerUnreadable)
    #expect(
      classify(.graphQL(operationName: "CreatePost", errors: [belowTheField, atPath], partialData: nil, body: body))
        == .refused)
    let pathless = GraphQLError(message: "Internal failure", errorType: "InternalFailure")
    #expect(classify(.graphQL(operationName: "CreatePost", errors: [pathless], partialData: nil, body: body)) == maybe)
  }
}
