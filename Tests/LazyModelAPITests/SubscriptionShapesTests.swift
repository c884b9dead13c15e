import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import AuthRulesModels
@testable import HasOneModels
@testable import PrimaryKeyCompositeModels

@Suite("Subscriptions: composite keys, hasOne and owner arguments over the real-time endpoint")
struct SubscriptionShapesTests {
  @Test("a composite-key model: every key field in each event, onCreate/onUpdate/onDelete")
  func compositeKey() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/primary-key-composite/schema.api.graphql")
    defer { server.stop() }
    let client = makeRealtimeClient(server)
    let created = SubscriptionRecorder(
      client.subscribe(
        to: try ModelSubscriptions.onCreate(Order.self, where: Order.keys.number.ge(2))))
    let updated = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onUpdate(Order.self)))
    let deleted = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onDelete(Order.self)))
    for recorder in [created, updated, deleted] { try await recorder.waitConnected() }
    let placedAt = try Temporal.DateTime(iso8601String: "2026-11-30T10:00:00Z")
    try await client.create(Order(customerId: "c1", placedAt: placedAt, number: 1, total: 1))
    var order = try await client.create(
      Order(customerId: "c1", placedAt: placedAt, number: 2, total: 9.5))
    order.total = 20
    try await client.update(order)
    try await client.delete(order)
    try await created.waitModels(1)
    try await updated.waitModels(1)
    try await deleted.waitModels(1)
    #expect(created.models.map(\.identifier) == [.init(customerId: "c1", placedAt: placedAt, number: 2)])
    #expect(created.models.map(\.total) == [9.5])
    #expect(updated.models.map(\.total) == [20])
    #expect(deleted.models.map(\.identifier) == [order.identifier])
  }

  @Test("a hasOne model: the event's team is a not-loaded reference by its FK, loadable; includes loads it")
  func hasOne() async throws {
    let server = try await GraphQLServerProcess(schema: "Generated/has-one/schema.api.graphql")
    defer { server.stop() }
    let client = makeRealtimeClient(server)
    let lazy = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Project.self)))
    let eager = SubscriptionRecorder(
      client.subscribe(
        to: try ModelSubscriptions.onCreate(Project.self, includes: [Project.keys.team])))
    let updates = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onUpdate(Project.self)))
    try await lazy.waitConnected()
    try await eager.waitConnected()
    try await updates.waitConnected()
    let team = try await client.create(Team(name: "Blue"))
    var project = try await client.create(Project(name: "Apollo", team: team))
    project.name = "Artemis"
    try await client.update(project)
    try await lazy.waitModels(1)
    try await eager.waitModels(1)
    try await updates.waitModels(1)
    let lazyProject = try #require(lazy.models.first)
    #expect(lazyProject.name == "Apollo")
    #expect(!lazyProject._team.isLoaded)
    #expect(try await lazyProject.team?.name == "Blue")
    let eagerProject = try #require(eager.models.first)
    #expect(eagerProject._team.isLoaded)
    #expect(try await eagerProject.team?.id == team.id)
    #expect(updates.models.map(\.name) == ["Artemis"])
  }

  @Test("an owner-auth model: the owner argument is declared and sent, and only that owner's records arrive")
  func ownerArgument() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/auth-rules/schema.api.graphql", apiKey: "auth-key")
    defer { server.stop() }
    let client = makeRealtimeClient(server, authorization: .apiKey("auth-key"))
    let subscription = try ModelSubscriptions.onCreate(
      Document.self, ownerArguments: ["author": "alice"])
    #expect(ModelSubscriptions.ownerArgumentNames(of: Document.schema) == ["author"])
    #expect(ModelSubscriptions.ownerArgumentNames(of: Memo.schema) == ["owner"])
    #expect(
      subscription.document.hasPrefix(
        "subscription OnCreateDocument($filter: ModelSubscriptionDocumentFilterInput, $author: String) { onCreateDocument(filter: $filter, author: $author) {"
      ))
    #expect(subscription.variables == ["author": "alice"])
    let alice = SubscriptionRecorder(client.subscribe(to: subscription))
    let everyone = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onCreate(Document.self)))
    let memos = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Memo.self)))
    try await alice.waitConnected()
    try await everyone.waitConnected()
    try await memos.waitConnected()
    try await client.create(Document(title: "bob's", author: "bob"))
    try await client.create(Document(title: "alice's", author: "alice"))
    try await client.create(Memo(title: "memo"))
    try await everyone.waitModels(2)
    try await alice.waitModels(1)
    try await memos.waitModels(1)
    #expect(everyone.models.map(\.title) == ["bob's", "alice's"])
    #expect(alice.models.map(\.title) == ["alice's"])
    #expect(memos.models.map(\.title) == ["memo"])
  }

  @Test("a document the server rejects ends that stream with the server's errors; the others keep running")
  func rejectedDocument() async throws {
    // The seed's subscriptions do not exist in the has-one API schema: the server's graphql-core
    // validation rejects the start, as AppSync would.
    let server = try await GraphQLServerProcess(schema: "Generated/has-one/schema.api.graphql")
    defer { server.stop() }
    let client = makeRealtimeClient(server)
    let good = SubscriptionRecorder(client.subscribe(to: try ModelSubscriptions.onCreate(Team.self)))
    let rejected = SubscriptionRecorder(
      client.subscribe(to: try ModelSubscriptions.onCreate(Customer.self)))
    try await good.waitConnected()
    try await rejected.waitFinished()
    let error = try #require(rejected.recorded.error)
    guard case APIError.graphQL(let name, let errors, _, _) = error else {
      Issue.record("unexpected error \(error)")
      return
    }
    #expect(name == "OnCreateCustomer")
    #expect(errors.map(\.errorType) == ["ValidationError", "ValidationError"])
    #expect(
      errors.map(\.message).sorted().first?.hasPrefix("Cannot query field 'onCreateCustomer' on type 'Subscription'")
        == true)
    #expect(
      errors.map(\.message).sorted().last?.hasPrefix("Unknown type 'ModelSubscriptionCustomerFilterInput'.") == true)
    try await client.create(Team(name: "still here"))
    try await good.waitModels(1)
    #expect(good.models.map(\.name) == ["still here"])
    #expect(await client.activeSubscriptionCount == 1)
  }
}
