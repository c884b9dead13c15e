import Foundation
import IndexSecondaryModels
import LazyModel
import LazyModelAPI
import Testing

@testable import SeedPostCommentModels

/// Issue 14: `client.list` pages, `client.listAll`, and index queries with sort key conditions,
/// against the local server.
@Suite("client.list, listAll and index queries with sort key conditions")
struct ListPagingTests {
  @Test(
    "list pages by limit with hasNextPage/nextPage; nextPage after the last page is a typed error")
  func paging() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let posts = (0..<25).map { Post4V2(id: String(format: "p%02d", $0), title: "post \($0)") }
    try await concurrently(posts) { try await client.create($0) }

    log.clear()
    var page = try await client.list(Post4V2.self, limit: 10)
    #expect(log.last?.operationName == "ListPost4V2s")
    #expect(log.last?.variables["limit"] == 10)
    var seen = page.items.map(\.id)
    #expect(page.items.count == 10)
    #expect(page.hasNextPage)
    var pages = 1
    while page.hasNextPage {
      page = try await page.nextPage()
      seen += page.items.map(\.id)
      pages += 1
    }
    #expect(pages == 3)
    #expect(seen.sorted() == posts.map(\.id).sorted())
    #expect(log.all.count == 3)
    #expect(
      log.all.dropFirst().allSatisfy {
        $0.variables["nextToken"] != nil && $0.variables["limit"] == 10
      })

    let sent = log.all.count
    do {
      _ = try await page.nextPage()
      Issue.record("nextPage() after the last page did not throw")
    } catch APIError.invalidRequest(let operationName, let reason) {
      #expect(operationName == "ListPost4V2s")
      #expect(reason.contains("Post4V2"))
    }
    #expect(log.all.count == sent)  // nothing was sent

    let filtered = try await client.list(
      Post4V2.self, where: Post4V2.keys.title.beginsWith("post 1"), limit: 100)
    #expect(filtered.items.map(\.title).sorted() == ["post 1"] + (10..<20).map { "post \($0)" })
    #expect(!filtered.hasNextPage)
  }

  @Test("listAll yields every item across pages, one request per page, and stops when cancelled")
  func listAll() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let posts = (0..<23).map { Post4V2(id: String(format: "a%02d", $0), title: "t\($0)") }
    try await concurrently(posts) { try await client.create($0) }

    log.clear()
    var ids: [String] = []
    for try await post in client.listAll(Post4V2.self, pageSize: 5) { ids.append(post.id) }
    #expect(ids.sorted() == posts.map(\.id).sorted())
    #expect(log.all.count == 5)  // 5 + 5 + 5 + 5 + 3

    log.clear()
    let sequence = client.listAll(Post4V2.self, pageSize: 5)
    let task = Task {
      var count = 0
      do {
        for try await _ in sequence {
          count += 1
          if count == 7 { withUnsafeCurrentTask { $0?.cancel() } }
        }
      } catch APIError.cancelled {
        return (count, true)
      }
      return (count, false)
    }
    let (count, cancelled) = try await task.value
    #expect(cancelled)
    #expect(count == 10)  // the second page is drained, the third is never requested
    #expect(log.all.count == 2)
  }

  @Test("index queries with every sort key condition on a composite sort key, both directions")
  func compositeSortKey() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/index-secondary/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let books = [
      Book(id: "b1", isbn: "1", author: "Le Guin", year: 1969, title: "The Left Hand of Darkness"),
      Book(id: "b2", isbn: "2", author: "Le Guin", year: 1974, title: "The Dispossessed"),
      Book(id: "b3", isbn: "3", author: "Le Guin", year: 1974, title: "A Wizard"),
      Book(id: "b4", isbn: "4", author: "Le Guin", year: 1985, title: "Always Coming Home"),
      Book(id: "b5", isbn: "5", author: "Butler", year: 1979, title: "Kindred"),
    ]
    try await concurrently(books) { try await client.create($0) }
    let index = Book.indexes.booksByAuthorAndYearAndTitle
    typealias YearTitle = Book.Indexes.BooksByAuthorAndYearAndTitleSortKey
    func ids(_ sortKey: ModelSortKeyCondition<YearTitle>?, _ direction: ModelSortDirection? = nil)
      async throws
      -> [String]
    {
      try await client.list(
        Book.self, index: index, key: "Le Guin", sortKey: sortKey, sortDirection: direction
      ).items.map(\.id)
    }

    #expect(try await ids(nil) == ["b1", "b3", "b2", "b4"])  // by year, then title
    #expect(
      log.last?.document
        == "query BooksByAuthorAndYearAndTitle($author: String!, $yearTitle: ModelBookBooksByAuthorAndYearAndTitleCompositeKeyConditionInput, $sortDirection: ModelSortDirection, $filter: ModelBookFilterInput, $limit: Int, $nextToken: String) { booksByAuthorAndYearAndTitle(author: $author, yearTitle: $yearTitle, sortDirection: $sortDirection, filter: $filter, limit: $limit, nextToken: $nextToken) { items { id isbn author year title createdAt updatedAt __typename } nextToken } }"
    )
    #expect(try await ids(nil, .descending) == ["b4", "b2", "b3", "b1"])
    #expect(log.last?.variables["sortDirection"] == "DESC")
    // A partial eq is `sortKey = "1974"` on AppSync, which no stored `year#title` equals: refused
    // before sending, naming the model, the index and the missing field, pointing at beginsWith.
    let sentBeforeEq = log.all.count
    await #expect {
      try await ids(.eq(YearTitle(year: 1974)))
    } throws: { error in
      guard case .invalidRequest(let operationName, let reason) = error as? APIError else { return false }
      return operationName == "BooksByAuthorAndYearAndTitle"
        && reason.contains("index booksByAuthorAndYearAndTitle of Book gives year but not title")
        && reason.contains("use beginsWith")
    }
    #expect(log.all.count == sentBeforeEq)
    #expect(try await ids(.eq(YearTitle(year: 1974, title: "A Wizard"))) == ["b3"])
    #expect(log.last?.variables["yearTitle"] == ["eq": ["year": 1974, "title": "A Wizard"]])
    // The other operators compare the joined text with the stored key, as AppSync's resolver:
    // a prefix is the shorter string, so "1974#…" > "1974" (gt and ge take the 1974 books, le
    // and lt leave them out).
    #expect(try await ids(.le(YearTitle(year: 1974, title: "A Wizard"))) == ["b1", "b3"])
    #expect(try await ids(.lt(YearTitle(year: 1974))) == ["b1"])
    #expect(try await ids(.le(YearTitle(year: 1974))) == ["b1"])
    #expect(try await ids(.gt(YearTitle(year: 1974))) == ["b3", "b2", "b4"])
    #expect(try await ids(.ge(YearTitle(year: 1974))) == ["b3", "b2", "b4"])
    #expect(try await ids(.gt(YearTitle(year: 1974, title: "The Dispossessed"))) == ["b4"])
    #expect(try await ids(.between(YearTitle(year: 1970), and: YearTitle(year: 1980))) == ["b3", "b2"])
    #expect(log.last?.variables["yearTitle"] == ["between": [["year": 1970], ["year": 1980]]])
    #expect(try await ids(.beginsWith(YearTitle(year: 1974, title: "The"))) == ["b2"])
    // A composite key's beginsWith is a text prefix of the joined key (`1974#The Dispossessed`),
    // as the transformer's resolver matches it: a number is a prefix of its digits.
    #expect(try await ids(.beginsWith(YearTitle(year: 197))) == ["b3", "b2"])
    #expect(log.last?.variables["yearTitle"] == ["beginsWith": ["year": 197]])
    #expect(try await ids(.beginsWith(YearTitle(year: 19))) == ["b1", "b3", "b2", "b4"])
    #expect(try await ids(.beginsWith(YearTitle(year: 1974, title: "A"))) == ["b3"])
    #expect(try await ids(.ge(YearTitle(year: 1974)), .descending) == ["b4", "b2", "b3"])

    // Paging through an index query keeps the condition and the order.
    var page = try await client.list(
      Book.self, index: index, key: "Le Guin", sortKey: .ge(YearTitle(year: 1970)), limit: 2)
    var paged = page.items.map(\.id)
    while page.hasNextPage {
      page = try await page.nextPage()
      paged += page.items.map(\.id)
    }
    #expect(paged == ["b3", "b2", "b4"])
    var all: [String] = []
    for try await book in client.listAll(
      Book.self, index: index, key: "Le Guin", sortDirection: .descending, pageSize: 1)
    {
      all.append(book.id)
    }
    #expect(all == ["b4", "b2", "b3", "b1"])

    // A number in a composite key orders and compares as text: `999#Early` sorts after `1985#…`,
    // and is above `1990`.
    _ = try await client.create(Book(id: "b6", isbn: "6", author: "Le Guin", year: 999, title: "Early"))
    #expect(try await ids(nil) == ["b1", "b3", "b2", "b4", "b6"])
    #expect(try await ids(.gt(YearTitle(year: 1990))) == ["b6"])
    #expect(try await ids(.lt(YearTitle(year: 1000))) == [])
    #expect(try await ids(.beginsWith(YearTitle(year: 9))) == ["b6"])
  }

  @Test("a gap in a composite sort key condition sent as written is the server's InvalidArgumentsError")
  func gapRefusedByServer() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/index-secondary/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server)
    // The escape hatch sends the condition as written (the typed forms refuse the gap first).
    let request = try ModelQueries.query(
      Book.self, uncheckedIndex: "booksByAuthorAndYearAndTitle", partitionKey: .string("Le Guin"),
      sortKeyCondition: ["eq": ["title": "A Wizard"]])
    await #expect {
      try await client.send(request)
    } throws: { error in
      guard case .graphQL(let operationName, let errors, _, _) = error as? APIError else { return false }
      return operationName == "BooksByAuthorAndYearAndTitle"
        && errors.first?.errorType == "InvalidArgumentsError"
        && errors.first?.message
          == "When providing argument 'yearTitle.eq.title' you must also provide 'yearTitle.eq.year'."
    }
  }

  @Test("sort key conditions the index cannot take are typed errors naming model, index and field")
  func badSortKeyConditions() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/index-secondary/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let index = "booksByAuthorAndYearAndTitle"
    func reason(_ sortKey: SortKeyCondition, index: String = "booksByAuthorAndYearAndTitle")
      async -> String?
    {
      do {
        _ = try await client.list(Book.self, uncheckedIndex: index, key: "x", sortKey: sortKey)
        return nil
      } catch APIError.invalidRequest(let operationName, let reason) {
        #expect(operationName.hasPrefix("Book"))
        return reason
      } catch {
        return "\(error)"
      }
    }
    #expect(
      await reason(.eq(["isbn": "1"]))?.contains(
        "Book.isbn is not a sort key field of index \(index)") == true)
    #expect(await reason(.eq(["title": "A"]))?.contains("year is missing") == true)
    #expect(await reason(.eq(["year": "1974"]))?.contains("Book.year is Int") == true)
    #expect(
      await reason(.eq(["year": 1974]))?.contains(
        "eq on the composite sort key of index \(index) of Book gives year but not title") == true)
    #expect(await reason(.eq(["year": 1974]))?.contains("use beginsWith") == true)
    #expect(
      await reason(.eq(["isbn": "1"]), index: "byIsbn")?.contains("no sort key fields") == true)
    #expect(log.all.isEmpty)  // nothing was sent
  }
}
