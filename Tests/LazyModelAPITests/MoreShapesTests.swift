import Foundation
import HasManyImplicitModels
import IndexSecondaryModels
import LazyModel
import LazyModelAPI
import ManyToManyModels
import SelfAndOneToOneModels
import Testing

@Suite("More relationship shapes of Schemas/ over HTTP")
struct MoreShapesTests {
  @Test("hasMany from a composite String+Int key: list + filter on both implicit FK fields, typed")
  func compositeParentHasMany() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/has-many-implicit/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    try await client.create(Shelf(room: "attic", number: 3))
    try await client.create(
      Item(id: "i1", label: "lamp", shelfItemsRoom: "attic", shelfItemsNumber: 3))
    try await client.create(
      Item(id: "i2", label: "rug", shelfItemsRoom: "attic", shelfItemsNumber: 4))
    let shelf = try #require(
      try await client.get(Shelf.self, byIdentifier: .init(room: "attic", number: 3)))
    #expect(log.last?.variables == ["room": "attic", "number": 3])
    let items = try await #require(shelf.items).fetch()
    #expect(items.map(\.id) == ["i1"])
    #expect(log.last?.operationName == "ListItems")
    #expect(
      log.last?.variables == [
        "filter": ["and": [["shelfItemsRoom": ["eq": "attic"]], ["shelfItemsNumber": ["eq": 3]]]]
      ])
  }

  @Test("a self-referencing model: children page by filter, parent loads by get")
  func selfReference() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/self-and-one-to-one/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server)
    let root = Category(id: "root", name: "Root")
    try await client.create(root)
    try await client.create(Category(id: "leaf-1", name: "Leaf 1", parent: root))
    try await client.create(Category(id: "leaf-2", name: "Leaf 2", parent: root))
    let fetchedRoot = try #require(
      try await client.get(Category.self, byIdentifier: .init(id: "root")))
    #expect(try await fetchedRoot.parent == nil)
    let children = try await #require(fetchedRoot.children).fetch()
    #expect(children.map(\.id).sorted() == ["leaf-1", "leaf-2"])
    #expect(try await children[0].parent?.name == "Root")
  }

  @Test(
    "many-to-many through the join model: each side pages through its index query, the join's references load"
  )
  func manyToMany() async throws {
    let server = try await GraphQLServerProcess(schema: "Generated/many-to-many/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let article = Article(id: "a1", title: "Swift")
    let tags = [Tag(id: "t1", label: "lang"), Tag(id: "t2", label: "apple")]
    try await client.create(article)
    for tag in tags {
      try await client.create(tag)
      try await client.create(ArticleTags(id: "a1-\(tag.id)", article: article, tag: tag))
    }
    #expect(log.last?.variables["input"] == ["id": "a1-t2", "articleId": "a1", "tagId": "t2"])
    let fetched = try #require(try await client.get(Article.self, byIdentifier: .init(id: "a1")))
    let joins = try await #require(fetched.tags).fetch()
    #expect(log.last?.operationName == "ArticleTagsByArticleId")
    #expect(log.last?.variables == ["articleId": "a1"])
    var labels: [String] = []
    for join in joins { labels.append(try await join.tag.label) }
    #expect(labels.sorted() == ["apple", "lang"])
    let tag = try #require(try await client.get(Tag.self, byIdentifier: .init(id: "t1")))
    let back = try await #require(tag.articles).fetch()
    #expect(try await back.first?.article.title == "Swift")
  }

  @Test("index queries: queryField name, default name with a composite sort key condition")
  func secondaryIndexes() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/index-secondary/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    for (index, year) in [1990, 2001, 2001, 2015].enumerated() {
      try await client.create(
        Book(
          id: "b\(index)", isbn: "isbn-\(index)", author: "Le Guin", year: year, title: "T\(index)")
      )
    }
    let byIsbn = try await client.send(
      ModelQueries.query(Book.self, index: Book.indexes.byIsbn, partitionKey: "isbn-2"))
    #expect(byIsbn.items.map(\.id) == ["b2"])
    #expect(log.last?.operationName == "BookByIsbn")
    let request = try ModelQueries.query(
      Book.self, index: Book.indexes.booksByAuthorAndYearAndTitle, partitionKey: "Le Guin",
      sortKey: .beginsWith(.init(year: 2001, title: "T")), sortDirection: .descending)
    #expect(request.variables["yearTitle"] == ["beginsWith": ["year": 2001, "title": "T"]])
    #expect(
      request.document.hasPrefix(
        "query BooksByAuthorAndYearAndTitle($author: String!, $yearTitle: ModelBookBooksByAuthorAndYearAndTitleCompositeKeyConditionInput, $sortDirection: ModelSortDirection,"
      ))
    let page = try await client.send(request)
    #expect(page.items.map(\.id) == ["b2", "b1"])
  }
}
