import Foundation
import LazyModel
import LazyModelAPI
import SeedPostCommentModels
import Testing

/// Typed predicates (`QueryPredicate<Comment4V2>`) on the local GraphQL server: the filter sent and
/// the items the server returns for the README's spelling, through `list`, `listAll` and
/// `ModelQueries`, and the subscription filter built from one.
@Suite("Typed predicates over HTTP")
struct TypedPredicateTests {
  @Test func theReadmeSpellingFiltersTheServersList() async throws {
    let server = try await GraphQLServerProcess(schema: "Generated/seed-post-comment/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let first = Post4V2(id: "p1", title: "First")
    let second = Post4V2(id: "p2", title: "Second")
    try await client.create(first)
    try await client.create(second)
    for comment in [
      Comment4V2(id: "c1", content: "apple", post: first), Comment4V2(id: "c2", content: "avocado", post: second),
      Comment4V2(id: "c3", content: "banana", post: first), Comment4V2(id: "c4", content: "apricot", post: first),
    ] {
      try await client.create(comment)
    }
    let onFirst = Comment4V2.keys.content.beginsWith("a") && Comment4V2.keys.post.eq(first)
    let page = try await client.list(Comment4V2.self, where: onFirst)
    #expect(page.items.map(\.id).sorted() == ["c1", "c4"])
    var all: [String] = []
    for try await comment in client.listAll(Comment4V2.self, where: !onFirst, pageSize: 1) {
      all.append(comment.id)
    }
    #expect(all.sorted() == ["c2", "c3"])
    let request = try ModelQueries.list(Comment4V2.self, where: onFirst)
    #expect(
      request.variables["filter"] == [
        "and": [["content": ["beginsWith": "a"]], ["postID": ["eq": "p1"]]]
      ])
    #expect(try await client.send(request).items.map(\.id).sorted() == ["c1", "c4"])
    let posts = try await client.list(Post4V2.self, where: Post4V2.keys.title.eq("Second"))
    #expect(posts.items.map(\.id) == ["p2"])
    let subscription = try ModelSubscriptions.onCreate(Comment4V2.self, where: Comment4V2.keys.post.eq(first))
    #expect(subscription.variables["filter"] == ["postID": ["eq": "p1"]])
  }
}
