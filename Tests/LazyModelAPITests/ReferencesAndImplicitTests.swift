import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import RegressionReferencesHasOneHasMany

@Suite("references-style hasOne/hasMany over HTTP")
struct ReferencesTests {
  @Test(
    "hasOne(references:) loads by the child's FK fields; hasMany(references:) pages with list + filter on customerId"
  )
  func references() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/references-has-one-has-many/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log, pageSize: 2)
    let customer = Customer(id: "cust-1", name: "Ada")
    try await client.create(customer)
    #expect(log.last?.variables["input"] == ["id": "cust-1", "name": "Ada"])
    try await client.create(Cart(id: "cart-1", items: ["apple", nil], customer: customer))
    #expect(
      log.last?.variables["input"] == [
        "id": "cart-1", "items": ["apple", nil], "customerId": "cust-1",
      ])
    for index in 0..<5 {
      try await client.create(
        Order(id: "o\(index)", total: Double(index) + 0.5, customer: customer))
    }
    try await client.create(Order(id: "other", total: 1, customer: Customer(id: "cust-2")))

    log.clear()
    let fetched = try #require(
      try await client.get(Customer.self, byIdentifier: .init(id: "cust-1")))
    #expect(
      log.last?.document
        == "query GetCustomer($id: ID!) { getCustomer(id: $id) { id name activeCart { customerId __typename } createdAt updatedAt __typename } }"
    )
    #expect(
      fetched._activeCart.notLoadedIdentifiers == [
        IdentifierComponent(name: "customerId", value: .string("cust-1"))
      ])
    let cart = try #require(try await fetched.activeCart)
    #expect(cart.id == "cart-1")
    #expect(log.last?.operationName == "ListCarts")
    #expect(log.last?.variables == ["filter": ["customerId": ["eq": "cust-1"]]])
    #expect(cart.items == ["apple", nil])
    #expect(try await cart.customer?.name == "Ada")

    log.clear()
    let orders = try #require(fetched.orders)
    try await orders.fetch()
    while orders.hasNextPage { try await orders.nextPage() }
    #expect(try orders.elements.map(\.id).sorted() == ["o0", "o1", "o2", "o3", "o4"])
    let first = try #require(log.all.first)
    #expect(first.operationName == "ListOrders")
    #expect(
      first.document
        == "query ListOrders($filter: ModelOrderFilterInput, $limit: Int, $nextToken: String) { listOrders(filter: $filter, limit: $limit, nextToken: $nextToken) { items { id total customerId customer { id __typename } createdAt updatedAt __typename } nextToken } }"
    )
    #expect(first.variables == ["filter": ["customerId": ["eq": "cust-1"]], "limit": 2])
    #expect(log.all.count >= 3)
  }
}
