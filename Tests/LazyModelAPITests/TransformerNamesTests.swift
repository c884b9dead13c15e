import Foundation
import LazyModel
import LazyModelAPI
import RegressionDefaultValueRequiredInCreateInput
import RegressionIntIdKeyArgumentsTypedId
import RegressionLowerCaseModelTypeNames
import RegressionManyToManyJoinSortKeyFieldNames
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 20: the documents the client builds use the names of the transformer's API schema, and
/// the local server serving the fixed (deployable) schema with its manifest accepts every kind:
/// get, list with a filter, index query, create/update/delete with a condition, and the
/// subscriptions' filter types.
@Suite("Transformer names in documents against the fixed schema")
struct TransformerNamesTests {
  @Test("id: Int! without @primaryKey: query GetTask($id: ID!), DeleteTaskInput.id: ID!, conditions on id")
  func intIdentifier() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/int-id-key-arguments-typed-id/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    #expect(RegressionIntIdKeyArgumentsTypedId.TaskType.schema.implicitKeyTypedAsID)
    #expect(!Ticket.schema.implicitKeyTypedAsID)
    var task = RegressionIntIdKeyArgumentsTypedId.TaskType(id: 5, title: "Write")
    #expect(try await client.create(task, uncheckedCondition: .unchecked(field: "id", .attributeExists(false))).id == 5)
    let fetched = try #require(
      try await client.get(RegressionIntIdKeyArgumentsTypedId.TaskType.self, byIdentifier: .init(id: 5)))
    #expect(fetched.id == 5 && fetched.title == "Write")
    #expect(log.last?.document.hasPrefix("query GetTask($id: ID!) { getTask(id: $id) {") == true)
    task.title = "Rewrite"
    // The condition input keeps `id: ModelIntInput` (only an ID-typed id is dropped).
    let keys = RegressionIntIdKeyArgumentsTypedId.TaskType.keys
    #expect(try await client.update(task, condition: keys.id.eq(5)).title == "Rewrite")
    let page = try await client.send(
      try ModelQueries.list(
        RegressionIntIdKeyArgumentsTypedId.TaskType.self,
        where: RegressionIntIdKeyArgumentsTypedId.TaskType.keys.title.beginsWith("Re")))
    #expect(page.items.map(\.id) == [5])
    _ = try await client.delete(task, condition: keys.id.eq(5))
    #expect(log.last?.document.contains("$condition: ModelTaskConditionInput") == true)
    #expect(try await client.get(RegressionIntIdKeyArgumentsTypedId.TaskType.self, byIdentifier: .init(id: 5)) == nil)

    // With @primaryKey the key keeps its own type: getTicket(id: Int!).
    _ = try await client.create(Ticket(id: 7, title: "T"))
    #expect(try await client.get(Ticket.self, byIdentifier: .init(id: 7))?.title == "T")
    #expect(log.last?.document.hasPrefix("query GetTicket($id: Int!) {") == true)
    try await expectValidSubscription(
      ModelSubscriptions.onCreate(RegressionIntIdKeyArgumentsTypedId.TaskType.self).document, on: server)
  }

  @Test(
    "a lower-case model name: ModelModelTypeFilterInput, ModelModelTypeConditionInput, ModelSubscriptionModelTypeFilterInput"
  )
  func lowerCaseModelName() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/lower-case-model-type-names/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    var model = ModelType(id: "m1", name: "first")
    _ = try await client.create(model)
    #expect(
      log.last?.document.hasPrefix(
        "mutation CreateModelType($input: CreateModelTypeInput!, $condition: ModelModelTypeConditionInput) {"
      ) == true)
    let page = try await client.send(
      try ModelQueries.list(ModelType.self, where: ModelType.keys.name.eq("first")))
    #expect(page.items.map(\.id) == ["m1"])
    #expect(log.last?.document.contains("$filter: ModelModelTypeFilterInput") == true)
    let byName = try await client.send(
      try ModelQueries.query(ModelType.self, index: ModelType.indexes.byName, partitionKey: "first"))
    #expect(byName.items.map(\.id) == ["m1"])
    #expect(log.last?.operationName == "ModelTypesByName")
    model.name = "second"
    _ = try await client.update(model, condition: ModelType.keys.name.eq("first"))
    _ = try await client.create(LowerTask(owner: "o", title: "t", rank: 1, modelTypeTasksId: "m1"))
    let tasks = try await #require(
      try await client.get(ModelType.self, byIdentifier: .init(id: "m1"))?.tasks
    ).fetch()
    #expect(tasks.map(\.title) == ["t"])
    #expect(try await client.get(LowerTask.self, byIdentifier: .init(owner: "o", title: "t", rank: 1))?.rank == 1)
    _ = try await client.delete(model)
    let subscription = try ModelSubscriptions.onCreate(ModelType.self, where: ModelType.keys.name.eq("x"))
    #expect(subscription.document.contains("$filter: ModelSubscriptionModelTypeFilterInput"))
    try await expectValidSubscription(subscription.document, on: server)
  }

  @Test("many-to-many between models with sort keys: join fields modelAId, modelAsortId")
  func manyToManyWithSortKeys() async throws {
    #expect(
      ModelAModelB.schema.indexes.map(\.fields) == [["modelAId", "modelAsortId"], ["modelBId", "modelBsortId"]])
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/many-to-many-join-sort-key-field-names/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let a = ModelA(id: "a", sortId: "1", name: "A")
    let b = ModelB(id: "b", sortId: "2", label: "B")
    _ = try await client.create(a)
    _ = try await client.create(b)
    _ = try await client.create(ModelAModelB(id: "j", modelA: a, modelB: b))
    #expect(
      log.last?.variables["input"]
        == ["id": "j", "modelAId": "a", "modelAsortId": "1", "modelBId": "b", "modelBsortId": "2"])
    let fetched = try #require(try await client.get(ModelA.self, byIdentifier: .init(id: "a", sortId: "1")))
    let joins = try await #require(fetched.models).fetch()
    #expect(log.last?.operationName == "ModelAModelBSByModelAIdAndModelAsortId")
    #expect(try await joins.first?.modelB.label == "B")
  }

  @Test("@default keeps a required field required; an optional one is filled by the server")
  func defaultValues() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/default-value-required-in-create-input/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server)
    let made = try await client.create(Test(id: "t", stringValue: "given", email: nil))
    #expect(made.stringValue == "given" && made.email == "local-part@domain-part")
  }

  /// The server validates a subscription document against the schema before it answers that it
  /// serves subscriptions only on the real-time endpoint: a document naming an unknown type is a
  /// `ValidationError`.
  func expectValidSubscription(_ document: String, on server: GraphQLServerProcess) async throws {
    var request = URLRequest(url: server.endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: ["query": document, "variables": [:]])
    let (data, _) = try await URLSession.shared.data(for: request)
    let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let errors = try #require(body["errors"] as? [[String: Any]])
    #expect(errors.first?["errorType"] as? String == "UnsupportedOperation", "\(body)")
  }
}
