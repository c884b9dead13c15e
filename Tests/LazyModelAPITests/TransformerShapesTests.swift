import Foundation
import LazyModel
import LazyModelAPI
import ModelTimestampsModels
import RegressionDeclaredTimestampsReadOnly
import RegressionHasManyChildWithoutQueriesFilter
import RegressionImplicitIdAfterDeclaredFields
import RegressionIndexOnModelWithoutListQuery
import RegressionNonModelInputOnlyWhenUsed
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 20, the input shapes of the transformer's API schema: the local server serving each fixed
/// (deployable) regression schema with its manifest runs every kind of document the client builds
/// for it (get, list with a filter, includes, create/update/delete with a condition) and validates
/// each subscription document against it.
@Suite("Transformer input shapes in documents against the fixed schema")
struct TransformerShapesTests {
  typealias HPost = RegressionHasManyChildWithoutQueriesFilter.Post
  typealias HComment = RegressionHasManyChildWithoutQueriesFilter.Comment
  typealias HTag = RegressionHasManyChildWithoutQueriesFilter.Tag

  @Test("a child with queries: null: written by its mutations, read through its parent's connection")
  func childWithoutQueries() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/has-many-child-without-queries-filter/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    #expect(HComment.schema.operations.get == nil && HComment.schema.operations.list == nil)
    _ = try await client.create(HPost(id: "p1", title: "First"))
    _ = try await client.create(HPost(id: "p2", title: "Second"))
    for (id, content, post) in [("c1", "a", "p1"), ("c2", "b", "p1"), ("c3", "c", "p2")] {
      _ = try await client.create(HComment(id: id, content: content, postCommentsId: post))
    }
    #expect(
      log.last?.document.hasPrefix(
        "mutation CreateComment($input: CreateCommentInput!, $condition: ModelCommentConditionInput) {") == true)
    #expect(log.last?.variables["input"] == ["id": "c3", "content": "c", "postCommentsId": "p2"])

    // The connection field's filter is the hasMany-made `ModelCommentFilterInput` (declared fields).
    let included = try #require(
      try await client.get(HPost.self, byIdentifier: .init(id: "p1"), includes: [HPost.path.comments]))
    #expect(try #require(included.comments).elements.map(\.content).sorted() == ["a", "b"])
    let lazy = try #require(try await client.get(HPost.self, byIdentifier: .init(id: "p1")))
    let fetched = try await #require(lazy.comments).fetch()
    #expect(fetched.map(\.id).sorted() == ["c1", "c2"])
    #expect(log.last?.operationName == "GetPostComments", "Comment has no list query: read through getPost")
    #expect(log.last?.variables["id"] == "p1")

    // A parent that arrives included in another model reads its children the same way.
    _ = try await client.create(HTag(id: "t1", label: "news", post: lazy))
    let tag = try #require(
      try await client.get(HTag.self, byIdentifier: .init(id: "t1"), includes: [HTag.path.post]))
    let tagged = try #require(try await tag.post)
    #expect(try await #require(tagged.comments).fetch().map(\.id).sorted() == ["c1", "c2"])
    #expect(log.last?.operationName == "GetPostComments")

    // The condition input holds the foreign key the hasMany added (relational transformer).
    var moved = HComment(id: "c2", content: "b2", postCommentsId: "p2")
    moved = try await client.update(moved, condition: HComment.keys.postCommentsId.eq("p1"))
    #expect(moved.content == "b2" && moved.postCommentsId == "p2")
    _ = try await client.delete(moved, condition: HComment.keys.content.eq("b2"))
    let second = try #require(try await client.get(HPost.self, byIdentifier: .init(id: "p2")))
    #expect(try await #require(second.comments).fetch().map(\.id) == ["c3"])

    try await expectValid(
      try ModelSubscriptions.onCreate(HComment.self, where: HComment.keys.content.eq("x")).document, on: server)
    try await expectValid(
      try ModelSubscriptions.onUpdate(HPost.self, where: HPost.keys.title.beginsWith("F")).document, on: server)
  }

  @Test("a non-model type a model reaches (also through another) has its input; nested values round-trip")
  func nonModelInputs() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/non-model-input-only-when-used/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    var place = Place(id: "pl", address: Address(street: "Main 1", geo: Geo(lat: 52.5, lng: 13.25)))
    _ = try await client.create(place)
    #expect(
      log.last?.variables["input"]
        == ["id": "pl", "address": ["street": "Main 1", "geo": ["lat": 52.5, "lng": 13.25]]])
    let fetched = try #require(try await client.get(Place.self, byIdentifier: .init(id: "pl")))
    #expect(fetched.address?.street == "Main 1" && fetched.address?.geo?.lng == 13.25)
    place.address = Address(street: "Side 2")
    // `ModelPlaceConditionInput` has no `id` (an ID-typed id is dropped), only the timestamps.
    let updated = try await client.update(place, condition: Place.keys.createdAt.isNotNil())
    #expect(updated.address?.street == "Side 2" && updated.address?.geo == nil)
    let page = try await client.send(try ModelQueries.list(Place.self, where: Place.keys.id.eq("pl")))
    #expect(page.items.map(\.address?.street) == ["Side 2"])
    _ = try await client.delete(place)
    #expect(try await client.get(Place.self, byIdentifier: .init(id: "pl")) == nil)
    try await expectValid(try ModelSubscriptions.onDelete(Place.self).document, on: server)
  }

  @Test("the implicit id after the declared fields: Team and Member written and read by id")
  func implicitIdentifier() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/implicit-id-after-declared-fields/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    var team = Team(id: "t1", name: "Core")
    _ = try await client.create(team)
    #expect(log.last?.variables["input"] == ["id": "t1", "name": "Core"])
    _ = try await client.create(Member(id: "m1", name: "Ana", teamMembersId: "t1"))
    _ = try await client.create(Member(id: "m2", name: "Bo", teamMembersId: "t1"))
    let fetched = try #require(try await client.get(Team.self, byIdentifier: .init(id: "t1")))
    #expect(log.last?.document.hasPrefix("query GetTeam($id: ID!) { getTeam(id: $id) {") == true)
    #expect(try await #require(fetched.members).fetch().map(\.name).sorted() == ["Ana", "Bo"])
    team.name = "Kernel"
    #expect(try await client.update(team, condition: Team.keys.name.eq("Core")).name == "Kernel")
    let page = try await client.send(try ModelQueries.list(Member.self, where: Member.keys.name.beginsWith("A")))
    #expect(page.items.map(\.id) == ["m1"])
    #expect(log.last?.document.contains("$filter: ModelMemberFilterInput") == true)
    _ = try await client.delete(team, condition: Team.keys.name.eq("Kernel"))
    #expect(try await client.get(Team.self, byIdentifier: .init(id: "t1")) == nil)
    try await expectValid(
      try ModelSubscriptions.onCreate(Member.self, where: Member.keys.name.eq("Cy")).document, on: server)
  }

  @Test("declared timestamps are written when given and filled by the service when left out")
  func declaredTimestamps() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/declared-timestamps-read-only/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let written = try Temporal.DateTime(iso8601String: "2020-01-02T03:04:05.678Z")
    let given = try await client.create(Event(id: "e1", name: "given", createdAt: written))
    #expect(given.createdAt == written)
    #expect(log.last?.variables["input"] == ["id": "e1", "name": "given", "createdAt": .string(written.iso8601String)])
    let filled = try await client.create(Event(id: "e2", name: "filled"))
    #expect(filled.createdAt != nil && filled.createdAt != written && filled.updatedAt != nil)
    var event = given
    event.createdAt = try Temporal.DateTime(iso8601String: "2021-06-07T08:09:10.000Z")
    let updated = try await client.update(event, condition: Event.keys.createdAt.eq(written))
    #expect(updated.createdAt == event.createdAt)
    try await expectValid(
      try ModelSubscriptions.onUpdate(Event.self, where: Event.keys.name.eq("given")).document, on: server)

    // Renamed timestamps stay in the condition input under their names; a declared one is writable.
    let timestamps = try await GraphQLServerProcess(schema: "Generated/model-timestamps/schema.api.graphql")
    defer { timestamps.stop() }
    let other = makeClient(timestamps, log: log)
    let renamed = try await other.create(Renamed(id: "r1", text: "x"))
    #expect(renamed.createdOn != nil)
    _ = try await other.update(renamed, condition: Renamed.keys.createdOn.isNotNil())
    let declared = try await other.create(Declared(id: "d1", createdAt: written, text: "d"))
    #expect(declared.createdAt == written && declared.updatedAt != nil)
    _ = try await other.create(Untimed(id: "u1", text: "u"))
    #expect(try await other.get(Untimed.self, byIdentifier: .init(id: "u1"))?.text == "u")
  }

  @Test("an index on a model without list: its query, the declared-fields filter, a key without list")
  func indexWithoutList() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/index-on-model-without-list-query/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    #expect(Log.schema.operations.list == nil && Entry.schema.operations.list == nil)
    for (id, level, text) in [("l1", "warn", "disk"), ("l2", "warn", "cpu"), ("l3", "info", "disk")] {
      _ = try await client.create(Log(id: id, level: level, text: text))
    }
    // `ModelLogFilterInput` holds the declared fields (`text`), no timestamps.
    let warnings = try await client.send(
      try ModelQueries.query(
        Log.self, index: Log.indexes.byLevel, partitionKey: "warn", where: Log.keys.text.eq("disk")))
    #expect(warnings.items.map(\.id) == ["l1"])
    #expect(
      log.last?.document.hasPrefix(
        "query LogsByLevel($level: String!, $sortDirection: ModelSortDirection, $filter: ModelLogFilterInput,") == true)
    #expect(try await client.get(Log.self, byIdentifier: .init(id: "l3"))?.text == "disk")
    _ = try await client.create(Entry(book: "b", page: 2, line: "two"))
    let entry = try #require(try await client.get(Entry.self, byIdentifier: .init(book: "b", page: 2)))
    #expect(log.last?.document.hasPrefix("query GetEntry($book: String!, $page: Int!) {") == true)
    _ = try await client.update(entry, condition: Entry.keys.line.eq("two"))
    _ = try await client.delete(entry)
    #expect(try await client.get(Entry.self, byIdentifier: .init(book: "b", page: 2)) == nil)
    try await expectValid(
      try ModelSubscriptions.onCreate(Log.self, where: Log.keys.level.eq("warn")).document, on: server)

    // `Alert` has its index query only (no list, mutations or subscriptions): the schema defines
    // the enum inputs its filter names (`ModelSeverityInput`, `ModelSeverityListInput`: the server
    // built the schema), and the index query filtering on the enum field validates and runs
    // (nothing was written, so no item).
    #expect(Alert.schema.operations.get == nil && Alert.schema.operations.create == nil)
    let alerts = try await client.send(
      try ModelQueries.query(
        Alert.self, index: Alert.indexes.bySource, partitionKey: "disk",
        where: Alert.keys.severity.eq(.high)))
    #expect(alerts.items.isEmpty && alerts.nextToken == nil)
    #expect(
      log.last?.document.hasPrefix(
        "query AlertsBySource($source: String!, $sortDirection: ModelSortDirection, $filter: ModelAlertFilterInput,")
        == true)
  }

  /// The server validates a subscription document against the schema before it answers that it
  /// serves subscriptions only on the real-time endpoint: a document naming an unknown type or
  /// field is a `ValidationError` instead.
  func expectValid(_ document: String, on server: GraphQLServerProcess) async throws {
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
