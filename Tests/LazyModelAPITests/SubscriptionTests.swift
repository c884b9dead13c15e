import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import SeedPostCommentModels

/// Subscriptions over AppSync's real-time protocol against the local server's real-time endpoint.
@Suite("Subscriptions: seed models over the real-time endpoint")
struct SubscriptionTests {
  @Test("documents: the query selection rules, filter and owner arguments, variables only")
  func documents() throws {
    let comments = try ModelSubscriptions.onCreate(Comment4V2.self)
    #expect(comments.operationName == "OnCreateComment4V2")
    #expect(comments.responseField == "onCreateComment4V2")
    #expect(
      comments.document
        == "subscription OnCreateComment4V2($filter: ModelSubscriptionComment4V2FilterInput) { onCreateComment4V2(filter: $filter) { id content postID post { id __typename } createdAt updatedAt __typename } }"
    )
    #expect(comments.variables.isEmpty)
    let included = try ModelSubscriptions.onUpdate(
      Comment4V2.self, where: Comment4V2.keys.content.beginsWith("x"),
      includes: [Comment4V2.keys.post])
    #expect(
      included.document
        == "subscription OnUpdateComment4V2($filter: ModelSubscriptionComment4V2FilterInput) { onUpdateComment4V2(filter: $filter) { id content postID post { id title createdAt updatedAt __typename } createdAt updatedAt __typename } }"
    )
    #expect(included.variables == ["filter": ["content": ["beginsWith": "x"]]])
    let posts = try ModelSubscriptions.onDelete(Post4V2.self, where: Post4V2.keys.title.eq("t"))
    #expect(posts.responseField == "onDeletePost4V2")
    #expect(posts.variables == ["filter": ["title": ["eq": "t"]]])
  }

  @Test("a predicate a subscription filter cannot express, or an unknown owner argument, throws before sending")
  func invalidDocuments() {
    #expect {
      try ModelSubscriptions.onCreate(Post4V2.self, where: !Post4V2.keys.title.eq("a"))
    } throws: { error in
      guard case APIError.invalidRequest(let name, let reason) = error else { return false }
      return name == "OnCreatePost4V2" && reason.contains("'not'")
    }
    #expect {
      // A null comparison (untyped: the required `title`'s key has no `isNil()`).
      try ModelSubscriptions.onCreate(Post4V2.self, where: .init(unchecked: .field("title", .eq(nil))))
    } throws: { error in
      guard case APIError.invalidRequest(_, let reason) = error else { return false }
      return reason.contains("'attributeExists'")
    }
    #expect {
      try ModelSubscriptions.onCreate(Post4V2.self, ownerArguments: ["owner": "alice"])
    } throws: { error in
      guard case APIError.invalidRequest(let name, let reason) = error else { return false }
      return name == "OnCreatePost4V2" && reason.contains("owner is not an owner argument")
    }
  }

  @Test("the real-time endpoint is derived from the GraphQL endpoint as AppSync serves it")
  func realtimeEndpoint() {
    #expect(
      APIClient.realtimeEndpoint(
        for: URL(string: "https://abc123.appsync-api.eu-west-1.amazonaws.com/graphql")!)
        == URL(string: "wss://abc123.appsync-realtime-api.eu-west-1.amazonaws.com/graphql")!)
    #expect(
      APIClient.realtimeEndpoint(for: URL(string: "https://api.example.com/graphql")!)
        == URL(string: "wss://api.example.com/graphql/realtime")!)
    #expect(
      APIClient.realtimeEndpoint(for: URL(string: "http://127.0.0.1:8080/graphql")!)
        == URL(string: "ws://127.0.0.1:8080/graphql/realtime")!)
  }

  @Test(
    "onCreate, onUpdate and onDelete of both seed models deliver the stored models; a comment's post loads lazily over the API"
  )
  func seedCreateUpdateDelete() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath, apiKey: "seed-key")
    defer { server.stop() }
    let client = makeRealtimeClient(server, authorization: .apiKey("seed-key"))
    let postsCreated = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    let postsUpdated = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onUpdate(Post4V2.self)))
    let postsDeleted = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onDelete(Post4V2.self)))
    let commentsCreated = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onCreate(Comment4V2.self)))
    let commentsUpdated = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onUpdate(Comment4V2.self)))
    let commentsDeleted = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onDelete(Comment4V2.self)))
    for recorder in [postsCreated, postsUpdated, postsDeleted] { try await recorder.waitConnected() }
    for recorder in [commentsCreated, commentsUpdated, commentsDeleted] {
      try await recorder.waitConnected()
    }
    #expect(try await server.activeSubscriptions().count == 6)

    var post = Post4V2(title: "Live")
    post = try await client.create(post)
    var comment = try await client.create(Comment4V2(content: "First!", post: post))
    post.title = "Live, edited"
    try await client.update(post)
    comment.content = "First, edited"
    try await client.update(comment)
    try await client.delete(comment)
    try await client.delete(post)

    try await postsCreated.waitModels(1)
    try await postsUpdated.waitModels(1)
    try await postsDeleted.waitModels(1)
    try await commentsCreated.waitModels(1)
    try await commentsUpdated.waitModels(1)
    try await commentsDeleted.waitModels(1)
    #expect(postsCreated.models.map(\.title) == ["Live"])
    #expect(postsCreated.models.first?.id == post.id)
    #expect(postsCreated.models.first?.createdAt != nil)
    #expect(postsUpdated.models.map(\.title) == ["Live, edited"])
    #expect(postsDeleted.models.map(\.id) == [post.id])
    #expect(commentsCreated.models.map(\.content) == ["First!"])
    #expect(commentsUpdated.models.map(\.content) == ["First, edited"])
    #expect(commentsDeleted.models.map(\.id) == [comment.id])

    // Without includes the post is a not-loaded reference holding its key, loadable over the API
    // (here after the delete, so it loads nil: the same identifiers, the live server's answer).
    let created = try #require(commentsCreated.models.first)
    #expect(created._post.notLoadedIdentifiers == [IdentifierComponent(name: "id", value: .string(post.id))])
    #expect(try await created.post == nil)
    #expect(postsCreated.connectedCount == 1)
    #expect(postsCreated.reconnectedCount == 0)
  }

  @Test("includes: the event's post is loaded; without it the post is not loaded and loads lazily")
  func includesInSubscription() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(server)
    let eager = SubscriptionRecorder(
      client.subscribe(
        to: try ModelSubscriptions.onCreate(Comment4V2.self, includes: [Comment4V2.keys.post])))
    let lazy = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onCreate(Comment4V2.self)))
    try await eager.waitConnected()
    try await lazy.waitConnected()
    let post = try await client.create(Post4V2(title: "Eager"))
    // The create selects the post as the eager subscription does: AppSync publishes the mutation's
    // response, so an include the mutation does not select would arrive null there.
    try await client.create(Comment4V2(content: "c", post: post), includes: [Comment4V2.keys.post])
    try await eager.waitModels(1)
    try await lazy.waitModels(1)
    let eagerComment = try #require(eager.models.first)
    #expect(eagerComment._post.isLoaded)
    #expect(try await eagerComment.post?.title == "Eager")
    let lazyComment = try #require(lazy.models.first)
    #expect(!lazyComment._post.isLoaded)
    #expect(lazyComment._post.notLoadedIdentifiers == [IdentifierComponent(name: "id", value: .string(post.id))])
    #expect(try await lazyComment.post?.title == "Eager")
    #expect(lazyComment._post.isLoaded)
  }

  @Test("a filter delivers only matching models, in mutation order")
  func filters() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(server)
    let filtered = SubscriptionRecorder(
      client.subscribe(
        to: try ModelSubscriptions.onCreate(
          Post4V2.self, where: Post4V2.keys.title.beginsWith("a") || Post4V2.keys.title.eq("z"))))
    let all = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await filtered.waitConnected()
    try await all.waitConnected()
    for title in ["b", "abc", "z", "y", "a2"] { try await client.create(Post4V2(title: title)) }
    try await all.waitModels(5)
    try await filtered.waitModels(3)
    #expect(all.models.map(\.title) == ["b", "abc", "z", "y", "a2"])
    #expect(filtered.models.map(\.title) == ["abc", "z", "a2"])
  }

  @Test("ten subscriptions share one connection; stopping one leaves the others delivering")
  func tenOnOneConnectionAndStoppingOne() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(server)
    var recorders: [SubscriptionRecorder<Post4V2>] = []
    for _ in 0..<10 {
      recorders.append(
        SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self))))
    }
    for recorder in recorders { try await recorder.waitConnected() }
    let active = try await server.activeSubscriptions()
    #expect(try await server.realtimeConnectionCount() == 1)
    #expect(active.count == 10)
    #expect(Set(active.map(\.connection)).count == 1)
    #expect(Set(active.map(\.id)).count == 10)
    #expect(await client.activeSubscriptionCount == 10)

    try await client.create(Post4V2(title: "to all ten"))
    for recorder in recorders { try await recorder.waitModels(1) }

    recorders[3].cancel()
    try await recorders[3].waitFinished()
    try await server.waitForSubscriptions(9)
    #expect(await client.activeSubscriptionCount == 9)
    try await client.create(Post4V2(title: "to nine"))
    for (index, recorder) in recorders.enumerated() where index != 3 {
      try await recorder.waitModels(2)
      #expect(recorder.models.map(\.title) == ["to all ten", "to nine"])
    }
    #expect(recorders[3].models.map(\.title) == ["to all ten"])
    #expect(recorders[3].recorded.error == nil)

    // The last one ending closes the connection.
    await client.finishSubscriptions()
    for recorder in recorders { try await recorder.waitFinished() }
    try await server.waitForSubscriptions(0)
    #expect(recorders.allSatisfy { $0.recorded.error == nil })
    let deadline = ContinuousClock.now + .seconds(10 * testDeadlineScale)
    while try await server.realtimeConnectionCount() != 0, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(try await server.realtimeConnectionCount() == 0, "the connection outlived its last subscription")
  }

  @Test("a dropped connection comes back: the stream emits reconnected and keeps delivering")
  func reconnectAfterDrop() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(server)
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    let comments = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onCreate(Comment4V2.self)))
    try await posts.waitConnected()
    try await comments.waitConnected()
    try await client.create(Post4V2(title: "before"))
    try await posts.waitModels(1)

    #expect(try await server.dropRealtimeConnections() == 1)
    try await posts.wait(10, "reconnected") { $0.reconnectedCount == 1 }
    try await comments.wait(10, "reconnected") { $0.reconnectedCount == 1 }
    try await server.waitForSubscriptions(2)
    let post = try await client.create(Post4V2(title: "after"))
    try await client.create(Comment4V2(content: "after", post: post))
    try await posts.waitModels(2)
    try await comments.waitModels(1)
    #expect(posts.models.map(\.title) == ["before", "after"])
    #expect(comments.models.map(\.content) == ["after"])
    #expect(posts.recorded.error == nil)
  }

  @Test("the header hook is asked for the handshake and for each start; its headers authorize both")
  func headerHookAuthorizesHandshakeAndStart() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath, apiKey: "hook-key")
    defer { server.stop() }
    let asked = OperationNames()
    let client = makeRealtimeClient(
      server,
      authorization: .headers { name in
        asked.append(name)
        return ["x-api-key": "hook-key"]
      })
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.waitConnected()
    try await client.create(Post4V2(title: "hooked"))
    try await posts.waitModels(1)
    #expect(posts.models.map(\.title) == ["hooked"])
    #expect(asked.all == ["connection_init", "OnCreatePost4V2", "CreatePost4V2"])
  }

  @Test("a wrong API key is refused at connect: connection_error ends the stream with .authorization naming the mode")
  func wrongAPIKey() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath, apiKey: "right-key")
    defer { server.stop() }
    let client = makeRealtimeClient(server, authorization: .apiKey("wrong-key"))
    let posts = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)))
    try await posts.waitFinished()
    let error = try #require(posts.recorded.error)
    guard case APIError.authorization(let name, let underlying) = error,
      let refused = underlying as? AuthorizationError,
      case .rejected(let status, let errors) = refused.reason
    else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(name == "OnCreatePost4V2")
    #expect(refused.mode == .apiKey)
    #expect(status == 401)
    #expect(errors.map(\.errorType) == ["UnauthorizedException"])
    #expect(errors.first?.extensions == ["errorCode": 401])
    #expect(!"\(error)".contains("wrong-key"))
  }
}

/// Operation names a header hook was asked for, in order.
final class OperationNames: Sendable {
  private let names = TestLock<[String]>([])
  func append(_ name: String) { names.withLock { $0.append(name) } }
  var all: [String] { names.withLock { $0 } }
}
