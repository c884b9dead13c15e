import Foundation
import LazyModel
import ScalarsEnumsEmbeddedModels
import SelfAndOneToOneModels
import Testing

@Suite("Generated: scalars, self references, one-to-one")
struct ScalarsAndRelationsTests {
  @Test func everyScalarRoundTrips() throws {
    let sample = Sample(
      id: "s", text: "t", email: "a@b.c", json: #"{"k":1}"#, url: "https://x.y", phone: "+1",
      ip: "127.0.0.1", count: 1,
      timestamp: 1_700_000_000, ratio: 0.25, flag: false,
      date: try Temporal.Date(iso8601String: "2024-02-29"),
      time: try Temporal.Time(iso8601String: "23:59:59"),
      dateTime: try Temporal.DateTime(iso8601String: "2024-02-29T23:59:59Z"),
      color: .darkGreen, colors: [.red], address: Address(street: "Main", city: nil, tags: ["a"]),
      addresses: [nil, Address(street: "Side")])
    let json = try JSON.encode(sample)
    #expect(try JSON.object(json)["color"] as? String == "DARK_GREEN")
    let decoded = try JSON.decode(Sample.self, json)
    #expect(decoded.timestamp == 1_700_000_000)
    #expect(decoded.date == sample.date)
    #expect(decoded.dateTime == sample.dateTime)
    #expect(decoded.colors == [.red])
    #expect(decoded.address == sample.address)
    #expect(decoded.addresses == [nil, Address(street: "Side")])
    #expect(Sample.schema.field(named: "timestamp")?.type == .scalar(.awsTimestamp))
  }

  @Test func aSelfReferencingTreeLoadsBothWays() async throws {
    let store = InMemoryModelStore()
    let root = Category(id: "root", name: "Root")
    try store.save(root)
    try store.save(Category(id: "leaf", name: "Leaf", parent: root))
    let leaf = try #require(
      try store.model(Category.self, identifier: Category.Identifier(id: "leaf")))
    #expect(try await leaf.parent?.name == "Root")
    let storedRoot = try #require(
      try store.model(Category.self, identifier: Category.Identifier(id: "root")))
    #expect(try await storedRoot.children?.fetch().map(\.id) == ["leaf"])
  }

  @Test func aTwoWayOneToOneLoadsBothWays() async throws {
    let store = InMemoryModelStore()
    let person = Person(id: "p", name: "Ada", passport: Passport(id: "x", number: "N1"))
    try store.save(person)
    try store.save(Passport(id: "x", number: "N1", holder: person))
    let storedPerson = try #require(
      try store.model(Person.self, identifier: Person.Identifier(id: "p")))
    #expect(try await storedPerson.passport?.number == "N1")
    let passport = try #require(
      try store.model(Passport.self, identifier: Passport.Identifier(id: "x")))
    #expect(try await passport.holder?.name == "Ada")
  }
}
