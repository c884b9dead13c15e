import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import SeedPostCommentModels

/// Issue 14: generated typed include paths (`Comment4V2.path.post.comments.post`) at depth 1, 2 and
/// 3 on get, list, index queries, create, update, delete and subscriptions, against the local server.
@Suite("Typed include paths at any depth on every operation")
struct IncludePathTests {
  static let lazyPost = "post { id __typename }"
  static let fullPost = "post { id title createdAt updatedAt __typename }"
  /// The `post` selection of a Comment4V2 for includes of depth 1, 2, 3.
  static let postSelection = [
    1: fullPost,
    2:
      "post { id title comments { items { id content postID \(lazyPost) createdAt updatedAt __typename } nextToken } createdAt updatedAt __typename }",
    3:
      "post { id title comments { items { id content postID \(fullPost) createdAt updatedAt __typename } nextToken } createdAt updatedAt __typename }",
  ]
  static let paths: [Int: any CodingKey] = [
    1: Comment4V2.path.post, 2: Comment4V2.path.post.comments,
    3: Comment4V2.path.post.comments.post,
  ]

  /// Checks that `comment` arrived with exactly `depth` levels loaded, without any request.
  static func expectLoaded(_ comment: Comment4V2, depth: Int, log: RequestLog) async throws {
    let before = log.all.count
    #expect(comment.postReference.isLoaded)
    let post = try #require(try await comment.post)
    #expect(post.title == "Deep")
    let comments = try #require(post.comments)
    #expect(comments.isLoaded == (depth >= 2))
    if depth >= 2 {
      let elements = try comments.elements
      #expect(elements.count == 100)  // the server's default page, with a nextToken kept
      #expect(comments.hasNextPage)
      #expect(elements.allSatisfy { $0.postReference.isLoaded == (depth >= 3) })
      if depth >= 3 { #expect(try await elements[0].post?.title == "Deep") }
    }
    #expect(log.all.count == before)  // all of it came with the one response
  }

  @Test("get, list, index query, create, update and delete take paths of depth 1, 2 and 3")
  func everyOperation() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let post = Post4V2(id: "p-deep", title: "Deep")
    try await client.create(post)
    let comments = (0..<105).map {
      Comment4V2(id: String(format: "d%03d", $0), content: String(format: "c%03d", $0), post: post)
    }
    try await concurrently(comments) { try await client.create($0) }

    for depth in 1...3 {
      let path = try #require(Self.paths[depth])
      let selection = try #require(Self.postSelection[depth])

      log.clear()
      let got = try #require(
        try await client.get(Comment4V2.self, byIdentifier: .init(id: "d001"), includes: [path]))
      #expect(
        log.last?.document
          == "query GetComment4V2($id: ID!) { getComment4V2(id: $id) { id content postID \(selection) createdAt updatedAt __typename } }"
      )
      try await Self.expectLoaded(got, depth: depth, log: log)

      let listed = try await client.list(
        Comment4V2.self, where: Comment4V2.keys.content.eq("c002"), includes: [path])
      #expect(log.last?.document.contains("items { id content postID \(selection)") == true)
      try await Self.expectLoaded(try #require(listed.items.first), depth: depth, log: log)

      let indexed = try await client.list(
        Comment4V2.self, index: Comment4V2.indexes.byPost4, key: post.id, sortKey: .eq("c003"),
        includes: [path])
      #expect(log.last?.operationName == "Comment4V2sByPostIDAndContent")
      #expect(log.last?.document.contains("items { id content postID \(selection)") == true)
      try await Self.expectLoaded(try #require(indexed.items.first), depth: depth, log: log)

      var fresh = Comment4V2(id: "new-\(depth)", content: "zz\(depth)", post: post)
      let created = try await client.create(fresh, includes: [path])
      #expect(log.last?.document.contains("{ id content postID \(selection) createdAt") == true)
      try await Self.expectLoaded(created, depth: depth, log: log)

      fresh.content = "zz\(depth) edited"
      let updated = try await client.update(fresh, includes: [path])
      #expect(updated.content == "zz\(depth) edited")
      try await Self.expectLoaded(updated, depth: depth, log: log)

      let deleted = try await client.delete(fresh, includes: [path])
      #expect(log.last?.operationName == "DeleteComment4V2")
      try await Self.expectLoaded(deleted, depth: depth, log: log)
    }
  }

  @Test("a list included at depth 2 pages on through its own parent field")
  func nestedNextPage() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let post = Post4V2(id: "p-deep", title: "Deep")
    try await client.create(post)
    let comments = (0..<130).map {
      Comment4V2(id: String(format: "n%03d", $0), content: String(format: "c%03d", $0), post: post)
    }
    try await concurrently(comments) { try await client.create($0) }
    let comment = try #require(
      try await client.get(
        Comment4V2.self, byIdentifier: .init(id: "n000"),
        includes: [Comment4V2.path.post.comments.post]))
    let list = try #require(try await comment.post?.comments)
    #expect(try list.elements.count == 100)
    let rest = try await list.nextPage()
    #expect(rest.count == 30)
    #expect(!list.hasNextPage)
    #expect(log.last?.operationName == "GetPost4V2Comments")
    #expect(log.last?.variables["id"] == "p-deep")
    #expect(try list.elements.map(\.id) == comments.map(\.id))
  }

  @Test("an include that is not an association is a typed error naming model and field")
  func unknownInclude() throws {
    for (operation, build) in [
      (
        "GetComment4V2",
        {
          _ = try ModelQueries.get(
            Comment4V2.self, byIdentifier: .init(id: "x"), includes: [AnyCodingKey("post.nope")])
        }
      ),
      (
        "ListComment4V2s",
        { _ = try ModelQueries.list(Comment4V2.self, includes: [AnyCodingKey("content")]) }
      ),
      (
        "CreateComment4V2",
        {
          _ = try ModelMutations.create(
            Comment4V2(content: "x"), includes: [AnyCodingKey("post.comments.author")])
        }
      ),
      (
        "OnCreateComment4V2",
        { _ = try ModelSubscriptions.onCreate(Comment4V2.self, includes: [AnyCodingKey("nope")]) }
      ),
    ] as [(String, () throws -> Void)] {
      do {
        try build()
        Issue.record("\(operation): no error")
      } catch APIError.invalidRequest(let operationName, let reason) {
        #expect(operationName == operation)
        #expect(reason.contains("is not an association of"))
      }
    }
    do {
      _ = try ModelQueries.get(
        Comment4V2.self, byIdentifier: .init(id: "x"),
        includes: [AnyCodingKey("post.comments.author")])
    } catch APIError.invalidRequest(_, let reason) {
      #expect(
        reason
          == "include post.comments.author: Comment4V2.author is not an association of Comment4V2")
    }
  }

  // AppSync publishes the mutation's response cut to the subscription's selection set, so each
  // mutation here selects what its subscription includes (the local server would fill the nested
  // fields from its store either way; README, Subscriptions): the test holds against both.
  @Test("live subscriptions deliver includes at depth 2 and 3 when the mutation selects them too")
  func liveSubscriptionAtDepth() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let client = makeRealtimeClient(server)
    let created = SubscriptionRecorder(
      client.subscribe(
        to: try ModelSubscriptions.onCreate(Comment4V2.self, includes: [Comment4V2.path.post.comments])))
    let updated = SubscriptionRecorder(
      client.subscribe(
        to: try ModelSubscriptions.onUpdate(
          Comment4V2.self, includes: [Comment4V2.path.post.comments.post])))
    let deleted = SubscriptionRecorder(
      client.subscribe(
        to: try ModelSubscriptions.onDelete(
          Comment4V2.self, includes: [Comment4V2.path.post.comments.post])))
    try await created.waitConnected()
    try await updated.waitConnected()
    try await deleted.waitConnected()
    let post = try await client.create(Post4V2(id: "p-live", title: "Live deep"))
    var first = Comment4V2(id: "live-1", content: "a1", post: post)
    let second = Comment4V2(id: "live-2", content: "a2", post: post)
    try await client.create(first, includes: [Comment4V2.path.post.comments])
    try await created.waitModels(1)
    try await client.create(second, includes: [Comment4V2.path.post.comments])
    try await created.waitModels(2)

    // Depth 2: the event's post and its comments arrived; each listed comment's post is lazy.
    for (event, expected) in zip(created.models, [["a1"], ["a1", "a2"]]) {
      #expect(event.postReference.isLoaded)
      let eventPost = try #require(try await event.post)
      #expect(eventPost.title == "Live deep")
      let list = try #require(eventPost.comments)
      #expect(list.isLoaded)
      #expect(!list.hasNextPage)
      let elements = try list.elements
      #expect(elements.map(\.content) == expected)
      #expect(elements.allSatisfy { !$0.postReference.isLoaded })
      #expect(elements.map { $0.postReference.identifier?.id } == expected.map { _ in "p-live" })
    }

    // Depth 3: every listed comment's post arrived too.
    first.content = "a1 edited"
    try await client.update(first, includes: [Comment4V2.path.post.comments.post])
    try await updated.waitModels(1)
    let edited = try #require(updated.models.first)
    #expect(edited.content == "a1 edited")
    let editedList = try #require(try await edited.post?.comments)
    let editedElements = try editedList.elements
    #expect(editedElements.map(\.content) == ["a1 edited", "a2"])
    #expect(editedElements.allSatisfy { $0.postReference.isLoaded })
    var titles: [String?] = []
    for element in editedElements { titles.append(try await element.post?.title) }
    #expect(titles == ["Live deep", "Live deep"])

    // A delete's event: the deleted comment is no longer among its post's comments.
    try await client.delete(second, includes: [Comment4V2.path.post.comments.post])
    try await deleted.waitModels(1)
    let gone = try #require(deleted.models.first)
    #expect(gone.id == "live-2")
    let remaining = try #require(try await gone.post?.comments)
    #expect(try remaining.elements.map(\.id) == ["live-1"])
    #expect(try await remaining.elements.first?.post?.id == "p-live")
  }

  @Test("subscriptions and path spellings: the same selection; paths merge; old keys still work")
  func documents() throws {
    let subscription = try ModelSubscriptions.onCreate(
      Comment4V2.self, includes: [Comment4V2.path.post.comments.post])
    #expect(
      subscription.document
        == "subscription OnCreateComment4V2($filter: ModelSubscriptionComment4V2FilterInput) { onCreateComment4V2(filter: $filter) { id content postID \(Self.postSelection[3]!) createdAt updatedAt __typename } }"
    )
    #expect(Comment4V2.path.post.comments.post.stringValue == "post.comments.post")
    #expect(Comment4V2.path.post.comments.post.fieldNames == ["post", "comments", "post"])
    // Two paths sharing a prefix select the shared level once; a coding key is depth 1.
    let merged = try ModelQueries.get(
      Comment4V2.self, byIdentifier: .init(id: "x"),
      includes: [Comment4V2.path.post.comments, Comment4V2.path.post])
    let deep = try ModelQueries.get(
      Comment4V2.self, byIdentifier: .init(id: "x"), includes: [Comment4V2.path.post.comments])
    #expect(merged.document == deep.document)
    let key = try ModelQueries.get(
      Comment4V2.self, byIdentifier: .init(id: "x"), includes: [Comment4V2.keys.post])
    let path = try ModelQueries.get(
      Comment4V2.self, byIdentifier: .init(id: "x"), includes: [Comment4V2.path.post])
    #expect(key.document == path.document)
  }
}
