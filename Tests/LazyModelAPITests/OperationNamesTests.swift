import Foundation
import LazyModel
import LazyModelAPI
import ModelOperationsModels
import Testing

/// Root field and input type names come from the generated schema (``ModelSchema/operations``),
/// which the generator resolves with the API schema emitter's function, so every request matches
/// `Generated/model-operations/schema.api.graphql`.
@Suite("Operation names from the generated schema")
struct OperationNamesTests {
  static let schemaPath = "Generated/model-operations/schema.api.graphql"

  @Test(
    "a lower-case model name that is a Swift keyword (`class`): getClass, listClasses, CreateClassInput"
  )
  func lowercaseKeywordModel() async throws {
    let server = try await GraphQLServerProcess(schema: Self.schemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    var model = Class(id: "c1", name: "Algebra")
    let created = try await client.create(model)
    #expect(created.name == "Algebra")
    #expect(log.last?.operationName == "CreateClass")
    #expect(
      log.last?.document.hasPrefix(
        "mutation CreateClass($input: CreateClassInput!, $condition: ModelClassConditionInput) { createClass(input: $input, condition: $condition) {"
      ) == true)
    let fetched = try #require(try await client.get(Class.self, byIdentifier: .init(id: "c1")))
    #expect(fetched.name == "Algebra")
    #expect(log.last?.document.hasPrefix("query GetClass($id: ID!) { getClass(id: $id) {") == true)
    let page = try await client.send(try ModelQueries.list(Class.self))
    #expect(page.items.map(\.id) == ["c1"])
    #expect(
      log.last?.document.hasPrefix(
        "query ListClasses($filter: ModelClassFilterInput, $limit: Int, $nextToken: String) { listClasses("
      ) == true)
    model.name = "Geometry"
    #expect(try await client.update(model).name == "Geometry")
    #expect(log.last?.document.contains("updateClass(input: $input") == true)
    #expect(log.last?.document.contains("$input: UpdateClassInput!") == true)
    _ = try await client.delete(model)
    #expect(log.last?.document.contains("deleteClass(input: $input") == true)
    #expect(try await client.get(Class.self, byIdentifier: .init(id: "c1")) == nil)
  }

  @Test(
    "renamed queries and mutations (fetchW, allWs, makeW, changeW, removeW) and the index query field"
  )
  func customNames() async throws {
    #expect(
      W.schema.operations
        == ModelOperationNames(
          get: "fetchW", list: "allWs", create: "makeW", update: "changeW", delete: "removeW",
          onCreate: "onCreateW", onUpdate: "onUpdateW", onDelete: "onDeleteW"))
    let server = try await GraphQLServerProcess(schema: Self.schemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    var model = W(id: "w1", label: "first")
    _ = try await client.create(model)
    #expect(log.last?.operationName == "MakeW")
    #expect(log.last?.document.contains("makeW(input: $input, condition: $condition)") == true)
    #expect(log.last?.document.contains("$input: CreateWInput!") == true)
    let fetched = try #require(try await client.get(W.self, byIdentifier: .init(id: "w1")))
    #expect(fetched.label == "first")
    #expect(log.last?.operationName == "FetchW")
    #expect(log.last?.document.hasPrefix("query FetchW($id: ID!) { fetchW(id: $id) {") == true)
    #expect(try await client.send(try ModelQueries.list(W.self)).items.map(\.id) == ["w1"])
    #expect(log.last?.operationName == "AllWs")
    let byLabel = try await client.send(
      try ModelQueries.query(W.self, index: W.indexes.byLabel, partitionKey: "first"))
    #expect(byLabel.items.map(\.id) == ["w1"])
    #expect(log.last?.operationName == "WSByLabel")
    model.label = "second"
    #expect(try await client.update(model).label == "second")
    #expect(log.last?.operationName == "ChangeW")
    _ = try await client.delete(model)
    #expect(log.last?.operationName == "RemoveW")
    #expect(try await client.get(W.self, byIdentifier: .init(id: "w1")) == nil)
  }

  @Test(
    "queries: null, mutations: null, subscriptions: null: every operation throws a typed error and nothing is sent"
  )
  func everythingDisabled() async throws {
    #expect(
      Z.schema.operations
        == ModelOperationNames(
          get: nil, list: nil, create: nil, update: nil, delete: nil, onCreate: nil, onUpdate: nil,
          onDelete: nil))
    let server = try await GraphQLServerProcess(schema: Self.schemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let before = try await server.receivedRequests().count
    let model = Z(id: "z1", value: 1)
    try await expectDisabled("create Z", "create") { _ = try await client.create(model) }
    try await expectDisabled("update Z", "update") { _ = try await client.update(model) }
    try await expectDisabled("delete Z", "delete") { _ = try await client.delete(model) }
    try await expectDisabled("delete Z", "delete") {
      _ = try ModelMutations.delete(Z.self, byIdentifier: .init(id: "z1"))
    }
    try await expectDisabled("get Z", "get") {
      _ = try await client.get(Z.self, byIdentifier: .init(id: "z1"))
    }
    try await expectDisabled("list Z", "list") {
      _ = try await client.send(try ModelQueries.list(Z.self, limit: 5))
    }
    try await expectDisabled("list Z", "list") {
      _ = try ModelQueries.list(Z.self, where: Z.keys.value.eq(1))
    }
    try await expectDisabled("get Z", "get") {
      _ = try ModelQueries.get(
        Z.self, identifiers: [IdentifierComponent(name: "id", value: .string("z1"))])
    }
    #expect(log.all.isEmpty)
    #expect(try await server.receivedRequests().count == before)
  }

  @Test("queries: {list: null}, mutations: {delete: null}: the rest works, list and delete throw")
  func partlyDisabled() async throws {
    let server = try await GraphQLServerProcess(schema: Self.schemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let model = Half(id: "h1", value: 7)
    _ = try await client.create(model)
    #expect(try await client.get(Half.self, byIdentifier: .init(id: "h1"))?.value == 7)
    let sent = log.all.count
    try await expectDisabled("list Half", "list") {
      _ = try await client.send(try ModelQueries.list(Half.self))
    }
    try await expectDisabled("delete Half", "delete") { _ = try await client.delete(model) }
    #expect(log.all.count == sent)
  }

  /// Runs `body` and expects ``APIError/invalidRequest(operationName:reason:)`` for the disabled
  /// operation `kind`, named `operationName` (`create Z`), with a reason naming the model.
  private func expectDisabled(
    _ operationName: String, _ kind: String, _ body: () async throws -> Void
  ) async throws {
    do {
      try await body()
      Issue.record("expected APIError.invalidRequest for \(operationName)")
    } catch APIError.invalidRequest(let name, let reason) {
      #expect(name == operationName)
      let model = operationName.split(separator: " ").last.map(String.init) ?? ""
      #expect(
        reason
          == "the \(kind) operation of model \(model) is disabled in its API schema (@model(queries:, mutations:))"
      )
    }
  }
}
