import Foundation
import HasOneModels
import LazyModel
import LazyModelAPI
import PrimaryKeyCompositeModels
import SelfAndOneToOneModels
import Testing

@Suite("One-to-one shapes and custom primary keys over HTTP")
struct OneToOneTests {
  @Test(
    "a required hasOne(fields:) loads with require(); one that does not resolve is a GraphQL error at its path"
  )
  func requiredHasOne() async throws {
    let server = try await GraphQLServerProcess(schema: "Generated/has-one/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let badge = Badge(id: "b1", code: "X-1")
    try await client.create(badge)
    try await client.create(Employee(id: "e1", badge: badge))
    #expect(log.last?.variables["input"] == ["id": "e1", "badgeID": "b1"])
    let employee = try #require(try await client.get(Employee.self, byIdentifier: .init(id: "e1")))
    #expect(try await employee.badge.code == "X-1")
    #expect(log.last?.operationName == "GetBadge")

    // A required reference that does not resolve nulls its parent: the server reports the path.
    let created = try await client.response(
      for: ModelMutations.create(Employee(id: "e2", badge: Badge(id: "gone", code: "?"))))
    #expect(created.errors.first?.path == [.string("createEmployee"), .string("badge")])
    do {
      _ = try await client.get(Employee.self, byIdentifier: .init(id: "e2"))
      Issue.record("expected an error")
    } catch let APIError.graphQL(name, errors, _, _) {
      #expect(name == "GetEmployee")
      #expect(errors.first?.path == [.string("getEmployee"), .string("badge")])
    }
  }

  @Test("a two-way one-to-one: each side loads the other by its own foreign key")
  func twoWayOneToOne() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/self-and-one-to-one/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server)
    let bare = Person(id: "per-1", name: "Grace")
    let passport = Passport(id: "pass-1", number: "N123", holder: bare)
    try await client.create(Person(id: "per-1", name: "Grace", passport: passport))
    try await client.create(passport)
    let person = try #require(try await client.get(Person.self, byIdentifier: .init(id: "per-1")))
    let loadedPassport = try #require(try await person.passport)
    #expect(loadedPassport.number == "N123")
    #expect(try await loadedPassport.holder?.name == "Grace")
  }

  @Test("keys not named id: an AWSEmail partition key, and AWSDateTime + Int sort keys")
  func customPrimaryKeys() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/primary-key-composite/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    try await client.create(Customer(email: "ada@example.com", name: "Ada"))
    let customer = try #require(
      try await client.get(Customer.self, byIdentifier: .init(email: "ada@example.com")))
    #expect(customer.name == "Ada")
    #expect(
      log.last?.document
        == "query GetCustomer($email: AWSEmail!) { getCustomer(email: $email) { email name createdAt updatedAt __typename } }"
    )
    let placedAt = try Temporal.DateTime(iso8601String: "2026-11-30T10:00:00Z")
    try await client.create(Order(customerId: "c1", placedAt: placedAt, number: 1, total: 9.5))
    try await client.create(Order(customerId: "c1", placedAt: placedAt, number: 2, total: 20))
    let order = try #require(
      try await client.get(
        Order.self, byIdentifier: .init(customerId: "c1", placedAt: placedAt, number: 2)))
    #expect(order.total == 20)
    #expect(
      log.last?.variables == ["customerId": "c1", "placedAt": "2026-11-30T10:00:00Z", "number": 2])
  }
}
