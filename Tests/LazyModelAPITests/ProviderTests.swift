import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import SeedPostCommentModels

@Suite("API providers over HTTP")
struct ProviderTests {
  @Test("concurrent loads of one reference share one getPost4V2 request")
  func sharedLoad() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let post = Post4V2(id: "p", title: "Shared")
    try await client.create(post)
    try await client.create(Comment4V2(id: "c", content: "x", post: post))
    let comment = try #require(try await client.get(Comment4V2.self, byIdentifier: .init(id: "c")))
    log.clear()
    let titles = try await withThrowingTaskGroup(of: String?.self) { group in
      for _ in 0..<10 { group.addTask { try await comment.post?.title } }
      return try await group.reduce(into: [String?]()) { $0.append($1) }
    }
    #expect(titles == Array(repeating: "Shared", count: 10))
    #expect(log.all.map(\.operationName) == ["GetPost4V2"])
  }

  @Test(
    "batch loads keep order, request each distinct identifier once, and give nil for missing models"
  )
  func batch() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    for index in 0..<20 { try await client.create(Post4V2(id: "p\(index)", title: "T\(index)")) }
    log.clear()
    let provider = APIReferenceProvider<Post4V2>(client: client)
    let ids = (0..<20).map { "p\($0)" } + ["p3", "missing", "p0"]
    let loaded = try await provider.load(
      batch: ids.map { [IdentifierComponent(name: "id", value: .string($0))] })
    #expect(loaded.map { $0?.title } == (0..<20).map { "T\($0)" } + ["T3", nil, "T0"])
    #expect(log.all.count == 21)
  }

  @Test("a list provider pages through the index query with its page size")
  func listProviderPages() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log, pageSize: 4)
    let post = Post4V2(id: "p", title: "P")
    try await client.create(post)
    for index in 0..<10 {
      try await client.create(Comment4V2(id: "c\(index)", content: "c\(index)", post: post))
    }
    log.clear()
    let provider = APIListProvider<Comment4V2>(
      client: client, associatedFields: ["postID"], associatedIdentifiers: [.string("p")])
    var cursor: String?
    var contents: [String] = []
    repeat {
      let page = try await provider.loadPage(after: cursor, limit: nil)
      contents += page.elements.map(\.content)
      cursor = page.nextCursor
    } while cursor != nil
    #expect(contents == (0..<10).map { "c\($0)" })
    #expect(log.all.count == 3)
    #expect(
      log.all.allSatisfy {
        $0.variables["limit"] == 4 && $0.operationName == "Comment4V2sByPostIDAndContent"
      })
  }
}
