import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import SeedPostCommentModels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Server errors, partial data, timeouts, cancellation, a server that is down")
struct ErrorHandlingTests {
  @Test("GraphQL errors without data are typed errors with the body and operation name")
  func graphQLErrorWithoutData() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeClient(server, headers: ["x-test-fail": "graphql-error"])
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "x"))
      Issue.record("expected an error")
    } catch let error as APIError {
      guard case .graphQL(let name, let errors, let partial, let body) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(name == "GetPost4V2")
      #expect(errors.first?.errorType == "TestInjectedError")
      #expect(partial == nil)
      #expect(!body.isEmpty)
      #expect(error.responseBody == body)
    }
  }

  @Test("partial data: the error carries data and errors; response(for:) returns both")
  func partialData() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    try await makeClient(server).create(Post4V2(id: "p1", title: "Partial"))
    let client = makeClient(server, headers: ["x-test-fail": "partial"])
    let request = try ModelQueries.get(Post4V2.self, byIdentifier: .init(id: "p1"))
    do {
      _ = try await client.send(request)
      Issue.record("expected an error")
    } catch let APIError.graphQL(name, errors, partial, _) {
      #expect(name == "GetPost4V2")
      #expect(errors.first?.path == [.string("getPost4V2")])
      #expect(partial?["getPost4V2"]?["title"] == .string("Partial"))
    }
    let response = try await client.response(for: request)
    #expect(response.errors.count == 1)
    #expect(response.data??.title == "Partial")
  }

  @Test("real partial data: a field that fails to resolve is null and named in errors")
  func fieldFailure() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeClient(server)
    // The create itself stores the record; echoing the failing title already reports the error.
    let created = try await client.response(
      for: ModelMutations.create(Post4V2(id: "bad", title: "__modelgen_fail__")))
    #expect(created.errors.first?.path == [.string("createPost4V2"), .string("title")])
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "bad"))
      Issue.record("expected an error")
    } catch let APIError.graphQL(name, errors, _, _) {
      #expect(name == "GetPost4V2")
      #expect(errors.first?.path?.contains(.string("title")) == true)
    }
  }

  @Test("HTTP 500 keeps status and body")
  func httpError() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeClient(server, headers: ["x-test-fail": "http-500"])
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "x"))
      Issue.record("expected an error")
    } catch let APIError.httpStatus(name, status, errors, body) {
      #expect(name == "GetPost4V2")
      #expect(status == 500)
      #expect(errors.isEmpty)
      #expect(String(decoding: body, as: UTF8.self).contains("Internal Server Error"))
    }
  }

  @Test("a body that is not JSON is an undecodable response keeping the body")
  func malformed() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeClient(server, headers: ["x-test-fail": "malformed"])
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "x"))
      Issue.record("expected an error")
    } catch let APIError.undecodableResponse(name, _, body) {
      #expect(name == "GetPost4V2")
      #expect(String(decoding: body, as: UTF8.self).hasPrefix("{\"data\": {not json"))
    }
  }

  @Test("a document the schema rejects comes back as a ValidationError")
  func validationError() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeClient(server)
    let request = GraphQLRequest<Post4V2?>(
      operationType: .query, operationName: "GetPost4V2",
      document: "query GetPost4V2($id: ID!) { getPost4V2(id: $id) { nope } }",
      variables: ["id": "x"], responseField: "getPost4V2")
    do {
      _ = try await client.send(request)
      Issue.record("expected an error")
    } catch let APIError.graphQL(_, errors, partial, _) {
      #expect(errors.first?.errorType == "ValidationError")
      #expect(partial == nil)
    }
  }

  @Test("a model that does not decode is an undecodable response naming the coding path")
  func undecodableModel() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeClient(server)
    try await client.create(Post4V2(id: "p", title: "T"))
    // Asks for the post without its title, then decodes it as a Post4V2.
    let request = GraphQLRequest<Post4V2?>(
      operationType: .query, operationName: "GetPost4V2",
      document: "query GetPost4V2($id: ID!) { getPost4V2(id: $id) { id } }",
      variables: ["id": "p"], responseField: "getPost4V2")
    do {
      _ = try await client.send(request)
      Issue.record("expected an error")
    } catch let APIError.undecodableResponse(name, reason, body) {
      #expect(name == "GetPost4V2")
      #expect(reason.contains("title"))
      #expect(String(decoding: body, as: UTF8.self).contains("\"id\""))
    }
  }

  @Test("a server slower than the timeout gives timedOut")
  func timeout() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    // The server answers after 15 s (times the run's slowdown, see `testDeadlineScale`); the
    // client must answer at its deadline, well before that (the margin absorbs a busy pool).
    let delay = 15 * testDeadlineScale
    let client = makeClient(server, timeout: 0.5, headers: ["x-test-delay-ms": String(Int(delay * 1000))])
    let start = ContinuousClock.now
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "x"))
      Issue.record("expected an error")
    } catch let APIError.timedOut(name, seconds) {
      #expect(name == "GetPost4V2")
      #expect(seconds == 0.5)
    }
    #expect(ContinuousClock.now - start < .seconds(delay * 0.8))
  }

  @Test("cancelling the task cancels the request")
  func cancellation() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let delay = 10 * testDeadlineScale  // the server's answer; cancelling must not wait for it
    let client = makeClient(
      server, timeout: 3 * delay, headers: ["x-test-delay-ms": String(Int(delay * 1000))])
    let start = ContinuousClock.now
    let task = Task { try await client.get(Post4V2.self, byIdentifier: .init(id: "x")) }
    try await Task.sleep(for: .milliseconds(300))
    task.cancel()
    do {
      _ = try await task.value
      Issue.record("expected an error")
    } catch let APIError.cancelled(name) {
      #expect(name == "GetPost4V2")
    }
    #expect(ContinuousClock.now - start < .seconds(delay / 2))
  }

  @Test("a connection dropped without an answer is a transport error")
  func droppedConnection() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeClient(server, headers: ["x-test-fail": "close"])
    do {
      _ = try await client.get(Post4V2.self, byIdentifier: .init(id: "x"))
      Issue.record("expected an error")
    } catch let APIError.transport(name, _) {
      #expect(name == "GetPost4V2")
    }
  }

  @Test("a server that is down is a transport error, and lazy loads surface it")
  func serverDown() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    let client = makeClient(server, timeout: 5)
    let post = Post4V2(id: "p", title: "T")
    try await client.create(post)
    try await client.create(Comment4V2(id: "c", content: "x", post: post))
    let comment = try #require(try await client.get(Comment4V2.self, byIdentifier: .init(id: "c")))
    await server.stopAndWaitForExit()
    do {
      _ = try await comment.post
      Issue.record("expected an error")
    } catch let APIError.transport(name, _) {
      #expect(name == "GetPost4V2")
    }
    #expect(!comment._post.isLoaded, "a failed load is not cached")
  }

  @Test(
    "API key: missing key is HTTP 401 with errors; the key header and the authorization hook pass")
  func apiKey() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath, apiKey: "secret-key")
    defer { server.stop() }
    do {
      _ = try await makeClient(server).get(Post4V2.self, byIdentifier: .init(id: "x"))
      Issue.record("expected an error")
    } catch let APIError.httpStatus(name, status, errors, _) {
      #expect(name == "GetPost4V2")
      #expect(status == 401)
      #expect(errors.first?.errorType == "UnauthorizedException")
    }
    let keyed = makeClient(server, authorization: .apiKey("secret-key"))
    try await keyed.create(Post4V2(id: "k", title: "Keyed"))
    let hooked = makeClient(
      server,
      authorization: .headers { operationName in
        #expect(operationName == "GetPost4V2")
        return ["x-api-key": "secret-key"]
      })
    #expect(try await hooked.get(Post4V2.self, byIdentifier: .init(id: "k"))?.title == "Keyed")

    struct NoToken: Error {}
    let failing = makeClient(server, authorization: .headers { _ in throw NoToken() })
    do {
      _ = try await failing.get(Post4V2.self, byIdentifier: .init(id: "k"))
      Issue.record("expected an error")
    } catch let APIError.authorization(name, underlying) {
      #expect(name == "GetPost4V2")
      let failure = try #require(underlying as? AuthorizationError)
      #expect(failure.mode == .custom)
      #expect(failure.providerError is NoToken)
    }
  }

  @Test("a failed condition is a GraphQL error naming the mutation")
  func conditionFailure() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeClient(server)
    var post = Post4V2(id: "p", title: "Before")
    try await client.create(post)
    post.title = "After"
    do {
      try await client.update(post, condition: Post4V2.keys.title.eq("Other"))
      Issue.record("expected an error")
    } catch let APIError.graphQL(name, errors, _, _) {
      #expect(name == "UpdatePost4V2")
      #expect(errors.first?.errorType == "DynamoDB:ConditionalCheckFailedException")
    }
    let updated = try await client.update(
      post, condition: Post4V2.keys.title.eq("Before"))
    #expect(updated.title == "After")
    let deleted = try await client.delete(post)
    #expect(deleted.id == "p")
    #expect(try await client.get(Post4V2.self, byIdentifier: .init(id: "p")) == nil)
  }
}
