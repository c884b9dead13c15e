import Foundation
import LazyModel
import Testing

@testable import RegressionReferencesHasOneHasMany

@Suite("Generated regression: references-has-one-has-many")
struct RegressionReferencesHasOneHasManyTests {
  @Test func hasOneAndHasManyLoadThroughTheChildsForeignKey() async throws {
    let store = InMemoryModelStore()
    let customer = Customer(id: "u1", name: "Ada")
    try store.save(customer)
    try store.save(Cart(id: "cart1", items: ["apple", nil], customer: customer))
    try store.save([
      Order(id: "o1", total: 3, customer: customer),
      Order(id: "o2", total: 4, customer: Customer(id: "u2")),
    ])
    let stored = try #require(
      try store.model(Customer.self, identifier: Customer.Identifier(id: "u1")))
    #expect(
      stored._activeCart.identifiers == [
        IdentifierComponent(name: "customerId", value: .string("u1"))
      ])
    let cart = try await stored.activeCart
    #expect(cart?.id == "cart1")
    #expect(cart?.items == ["apple", nil])
    #expect(try await stored.orders?.fetch().map(\.id) == ["o1"])
  }

  @Test func theSchemaRecordsTheReferences() {
    #expect(
      Customer.schema.field(named: "activeCart")?.association
        == .hasOne(associatedFields: ["customerId"], targetNames: []))
    #expect(
      Order.schema.field(named: "customer")?.association
        == .belongsTo(associatedFields: ["id"], targetNames: ["customerId"]))
  }
}
