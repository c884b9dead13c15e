import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import RegressionListNullabilityWithLazyBelongsTo
@testable import SeedPostCommentModels

@Suite("Hostile key values and exact list shapes over HTTP")
struct HostileKeyTests {
  static let hostile = [
    "quote \" inside", "back\\slash", "hash # and $dollar", "emoji 😀🚀 ok", "brace } { ) (",
    "new\nline",
  ]

  @Test(
    "keys with \", \\, #, emoji and GraphQL punctuation create, load lazily and page without touching the document"
  )
  func hostileKeys() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    for (index, key) in Self.hostile.enumerated() {
      let post = Post4V2(id: "post " + key, title: "title \(index)")
      try await client.create(post)
      try await client.create(Comment4V2(id: "comment " + key, content: key, post: post))
    }
    for (index, key) in Self.hostile.enumerated() {
      let comment = try #require(
        try await client.get(Comment4V2.self, byIdentifier: .init(id: "comment " + key)))
      #expect(comment.content == key)
      #expect(
        comment._post.notLoadedIdentifiers == [
          IdentifierComponent(name: "id", value: .string("post " + key))
        ])
      let post = try #require(try await comment.post)
      #expect(post.title == "title \(index)")
      let children = try await #require(post.comments).fetch()
      #expect(children.map(\.id) == ["comment " + key])
    }
    for record in log.all {
      for key in Self.hostile { #expect(!record.document.contains(key)) }
    }
  }

  @Test("list and element nullability round-trip exactly; the belongsTo stays lazy")
  func listShapes() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/list-nullability-with-lazy-belongs-to/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server)
    let board = Board(id: "b1")
    try await client.create(board)
    let card = Card(
      id: "k1", labelsA: [Label(text: "a"), nil, Label(text: nil)], labelsB: nil,
      labelsC: [Label(text: "c")],
      labelsD: [nil], scores: [1, nil, 3], board: board)
    try await client.create(card)
    let fetched = try #require(try await client.get(Card.self, byIdentifier: .init(id: "k1")))
    #expect(fetched.labelsA == [Label(text: "a"), nil, Label(text: nil)])
    #expect(fetched.labelsB == nil)
    #expect(fetched.labelsC == [Label(text: "c")])
    #expect(fetched.labelsD == [nil])
    #expect(fetched.scores == [1, nil, 3])
    #expect(
      fetched._board.notLoadedIdentifiers == [IdentifierComponent(name: "id", value: .string("b1"))]
    )
    let cards = try await #require(try await fetched.board?.cards).fetch()
    #expect(cards.map(\.id) == ["k1"])
  }
}
