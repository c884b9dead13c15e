import Foundation
import LazyModel
import LazyModelAPI
import RegressionIndexQueryFieldNullRejected
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 20, `@index(queryField: null)` (index transformer `getOrGenerateDefaultQueryField`: "Any
/// explicit null will take effect"): the local server serves the schema without the index's query
/// field, the `@hasMany(indexName:)` over the index still reads its children, and the client
/// refuses an index query over it before sending anything.
@Suite("An index declared with queryField: null against the local server")
struct IndexWithoutQueryFieldTests {
  @Test("no query field: the hasMany still reads its children, an index query is a typed error")
  func indexWithoutQueryField() async throws {
    #expect(
      Comment.schema.indexes == [
        ModelIndex(name: "byPost", fields: ["postID", "content"], hasQueryField: false)
      ])
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/index-query-field-null-rejected/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    _ = try await client.create(Post(id: "p1", title: "First"))
    _ = try await client.create(Post(id: "p2", title: "Second"))
    for (id, post, content) in [("c1", "p1", "b"), ("c2", "p2", "x"), ("c3", "p1", "a")] {
      _ = try await client.create(Comment(id: id, postID: post, content: content))
    }

    // Included: the nested `comments` connection of `getPost`, whose resolver reads the index.
    let included = try #require(
      try await client.get(Post.self, byIdentifier: .init(id: "p1"), includes: [Post.path.comments]))
    #expect(try #require(included.comments).elements.map(\.id).sorted() == ["c1", "c3"])
    // Lazy: no index query exists, so the list query with a filter on the foreign key.
    let lazy = try #require(try await client.get(Post.self, byIdentifier: .init(id: "p2")))
    #expect(try await #require(lazy.comments).fetch().map(\.id) == ["c2"])
    #expect(log.last?.operationName == "ListComments")

    // The index has no root field: both index query builders throw before sending.
    let sent = log.all.count
    let reason =
      "index byPost of model Comment has no query field in the API schema (@index(queryField: null)); give it a queryField: to query it"
    func expectRefused(_ error: (any Error)?) {
      guard case .invalidRequest(let operationName, let message)? = error as? APIError else {
        Issue.record("expected APIError.invalidRequest, got \(String(describing: error))")
        return
      }
      #expect(operationName == "index byPost")
      #expect(message == reason)
    }
    do {
      _ = try ModelQueries.query(Comment.self, uncheckedIndex: "byPost", partitionKey: .string("p1"))
      expectRefused(nil)
    } catch { expectRefused(error) }
    do {
      _ = try await client.list(Comment.self, uncheckedIndex: "byPost", key: "p1")
      expectRefused(nil)
    } catch { expectRefused(error) }
    #expect(log.all.count == sent)

    // The server's schema really has no such field: the document the transformer's default name
    // would give fails validation.
    var request = URLRequest(url: server.endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: [
      "query": "query { commentsByPostIDAndContent(postID: \"p1\") { items { id } } }", "variables": [:],
    ])
    let (data, _) = try await URLSession.shared.data(for: request)
    let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let errors = try #require(body["errors"] as? [[String: Any]])
    #expect(
      (errors.first?["message"] as? String)?.contains("commentsByPostIDAndContent") == true, "\(body)")
  }
}
