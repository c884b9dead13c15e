import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import SeedPostCommentModels

@Suite("Seed scenario over HTTP")
struct SeedOverHTTPTests {
  @Test(
    "create Post and Comments; get Comment; comment.post loads by get; post.comments pages 250 by 100"
  )
  func seedScenario() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log, pageSize: 100)

    let post = Post4V2(title: "Seed post")
    let created = try await client.create(post)
    #expect(created.id == post.id)
    #expect(created.title == "Seed post")
    #expect(created.createdAt != nil)

    let comments = (0..<250).map { index in
      Comment4V2(id: "c\(index)", content: String(format: "comment %03d", index), post: post)
    }
    try await concurrently(comments) { comment in _ = try await client.create(comment) }
    let createRecord = try #require(log.all.first { $0.operationName == "CreateComment4V2" })
    #expect(
      createRecord.document
        == "mutation CreateComment4V2($input: CreateComment4V2Input!, $condition: ModelComment4V2ConditionInput) { createComment4V2(input: $input, condition: $condition) { id content postID post { id __typename } createdAt updatedAt __typename } }"
    )
    #expect(createRecord.variables["input"]?["postID"] == .string(post.id))
    #expect(createRecord.variables["input"]?["post"] == nil)

    log.clear()
    let comment = try #require(try await client.get(Comment4V2.self, byIdentifier: .init(id: "c7")))
    #expect(comment.content == "comment 007")
    #expect(
      comment._post.notLoadedIdentifiers == [
        IdentifierComponent(name: "id", value: .string(post.id))
      ])
    #expect(log.all.count == 1)

    let loadedPost = try #require(try await comment.post)
    #expect(loadedPost.title == "Seed post")
    #expect(comment._post.isLoaded)
    let getPost = try #require(log.last)
    #expect(
      getPost.document
        == "query GetPost4V2($id: ID!) { getPost4V2(id: $id) { id title createdAt updatedAt __typename } }"
    )
    #expect(getPost.variables == ["id": .string(post.id)])
    _ = try await comment.post
    #expect(log.all.count == 2, "a loaded reference does not load again")

    log.clear()
    let list = try #require(loadedPost.comments)
    #expect(!list.isLoaded)
    #expect(throws: LazyModelError.self) { _ = try list.elements }
    let first = try await list.fetch()
    #expect(first.count == 100)
    #expect(list.hasNextPage)
    while list.hasNextPage { try await list.nextPage() }
    let all = try list.elements
    #expect(all.count == 250)
    #expect(all.map(\.content) == comments.map(\.content))
    #expect(
      all.allSatisfy {
        $0._post.notLoadedIdentifiers == [IdentifierComponent(name: "id", value: .string(post.id))]
      })

    let pages = log.all
    #expect(pages.count == 3)
    #expect(pages.allSatisfy { $0.operationName == "Comment4V2sByPostIDAndContent" })
    #expect(
      pages[0].document
        == "query Comment4V2sByPostIDAndContent($postID: ID!, $content: ModelStringKeyConditionInput, $sortDirection: ModelSortDirection, $filter: ModelComment4V2FilterInput, $limit: Int, $nextToken: String) { comment4V2sByPostIDAndContent(postID: $postID, content: $content, sortDirection: $sortDirection, filter: $filter, limit: $limit, nextToken: $nextToken) { items { id content postID post { id __typename } createdAt updatedAt __typename } nextToken } }"
    )
    #expect(pages[0].variables == ["postID": .string(post.id), "limit": 100])
    #expect(pages[1].variables["nextToken"] != nil)
    #expect(pages[2].variables["limit"] == 100)

    // The server saw exactly what the client logged.
    let received = try await server.receivedRequests()
    let bodies = received.compactMap { $0["body"] as? [String: Any] }
    #expect(
      bodies.suffix(3).compactMap { $0["operationName"] as? String } == pages.map(\.operationName))
  }

  @Test(
    "includes: belongsTo arrives loaded, hasMany arrives with its first page and pages on through the nested field"
  )
  func includes() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log, pageSize: 100)
    let post = Post4V2(id: "p-includes", title: "Eager")
    try await client.create(post)
    let comments = (0..<150).map {
      Comment4V2(id: "e\($0)", content: String(format: "c%03d", $0), post: post)
    }
    try await concurrently(comments) { comment in _ = try await client.create(comment) }

    log.clear()
    let comment = try #require(
      try await client.get(
        Comment4V2.self, byIdentifier: .init(id: "e3"), includes: [Comment4V2.keys.post]))
    #expect(comment._post.isLoaded)
    #expect(try await comment.post?.title == "Eager")
    #expect(
      log.last?.document
        == "query GetComment4V2($id: ID!) { getComment4V2(id: $id) { id content postID post { id title createdAt updatedAt __typename } createdAt updatedAt __typename } }"
    )
    #expect(log.all.count == 1)

    log.clear()
    let eager = try #require(
      try await client.get(
        Post4V2.self, byIdentifier: .init(id: post.id), includes: [Post4V2.keys.comments]))
    let list = try #require(eager.comments)
    #expect(list.isLoaded)
    #expect(try list.elements.count == 100)
    #expect(list.hasNextPage)
    #expect(
      log.last?.document
        == "query GetPost4V2($id: ID!) { getPost4V2(id: $id) { id title comments { items { id content postID post { id __typename } createdAt updatedAt __typename } nextToken } createdAt updatedAt __typename } }"
    )
    let rest = try await list.nextPage()
    #expect(rest.count == 50)
    #expect(!list.hasNextPage)
    #expect(try list.elements.map(\.content) == comments.map(\.content))
    let next = try #require(log.last)
    #expect(next.operationName == "GetPost4V2Comments")
    #expect(
      next.document
        == "query GetPost4V2Comments($id: ID!, $limit: Int, $nextToken: String) { getPost4V2(id: $id) { comments(limit: $limit, nextToken: $nextToken) { items { id content postID post { id __typename } createdAt updatedAt __typename } nextToken } } }"
    )
    #expect(next.variables["id"] == .string(post.id))
  }
}
