import Foundation
import LazyModel
import RegressionNestedPageModesFromChildRulesOnly
import Testing

@testable import LazyModelAPI

/// Issue 15 (s12): a page of a nested hasMany is `get<Parent>(…) { <field>(…) { items … } }` (the
/// pages after an included first page: a `nextToken` belongs to the field that issued it), so its
/// multi-auth modes must meet the parent's `get` as well as the child's read rules
/// (`AuthorizationStrategy.ordered(_:forPageOf:through:field:)`). Book puts user pools first (its
/// owner rule); Shelf allows the API key alone.
@Suite("Multi-auth modes of a nested hasMany page against the local server")
struct MultiAuthNestedPageTests {
  static let schemaPath = "Generated/regressions/nested-page-modes-from-child-rules-only/schema.api.graphql"

  @Test("the modes meet the parent's rules and the child's: pages with the API key only, none without it")
  func nestedPageModesMeetEveryTypeTheRequestReaches() async throws {
    let keys = try AuthFixture()
    let server = try await GraphQLServerProcess(schema: Self.schemaPath, authConfig: keys.configURL)
    defer { server.stop() }
    let token = try keys.userPoolToken("ann")
    let userPools = APIClient.Authorization.userPools { token }
    let apiKey = APIClient.Authorization.apiKey(keys.apiKey)

    // The pure choice: the child alone would try user pools first; through Shelf only the API key.
    #expect(
      AuthorizationStrategy.ordered([apiKey, userPools], for: Book.schema, operation: .read).map(\.mode) == [
        .userPools, .apiKey,
      ])
    #expect(
      AuthorizationStrategy.ordered([apiKey, userPools], forPageOf: Book.schema, through: Shelf.schema, field: "books")
        .map(\.mode) == [.apiKey])
    #expect(
      AuthorizationStrategy.ordered([userPools], forPageOf: Book.schema, through: Shelf.schema, field: "books")
        .isEmpty)

    try await makeClient(server, authorization: apiKey).create(Shelf(id: "s1", name: "Fiction"))
    let owner = makeClient(server, authorization: userPools)
    for (id, title) in [("b1", "Dune"), ("b2", "Emma"), ("b3", "Ulysses")] {
      try await owner.create(Book(id: id, shelfID: "s1", title: title))
    }

    let multi = APIClient(
      configuration: .init(
        endpoint: server.endpoint, timeout: testRequestDeadline,
        authorizationStrategy: .multiAuth([userPools, apiKey])))
    // Two pages through `getShelf { books }`, as a list included with its parent pages on.
    let before = try await server.receivedRequests().count
    var titles: [String] = []
    var cursor: String?
    repeat {
      let page = try await multi.send(
        ModelQueries.nestedPage(
          Book.self, parent: Shelf.schema, field: "books", parentKey: [.string("s1")], limit: 2, nextToken: cursor))
      titles += page.connection?.items.map(\.title) ?? []
      cursor = page.connection?.nextToken
    } while cursor != nil
    #expect(titles.sorted() == ["Dune", "Emma", "Ulysses"])
    // Each page one request, with the API key (before: user pools first, refused by `getShelf`,
    // then the API key).
    let sent = try await server.receivedRequests().dropFirst(before)
    #expect(sent.count >= 2)
    for request in sent {
      let headers = request["headers"] as? [String: String]
      #expect(headers?["x-api-key"] == keys.apiKey && headers?["authorization"] == nil, "\(request)")
      #expect((request["body"] as? [String: Any])?["operationName"] as? String == "GetShelfBooks")
    }

    // A client with user pools alone has no mode for the page: a typed error, nothing sent.
    let usersOnly = APIClient(
      configuration: .init(
        endpoint: server.endpoint, timeout: testRequestDeadline, authorizationStrategy: .multiAuth([userPools])))
    let count = try await server.receivedRequests().count
    do {
      _ = try await usersOnly.send(
        ModelQueries.nestedPage(
          Book.self, parent: Shelf.schema, field: "books", parentKey: [.string("s1")], limit: nil, nextToken: nil))
      Issue.record("expected invalidRequest")
    } catch let APIError.invalidRequest(operationName, reason) {
      #expect(operationName == "GetShelfBooks")
      #expect(reason.contains("Book read through Shelf.books for read"), "\(reason)")
    }
    #expect(try await server.receivedRequests().count == count)
  }
}
