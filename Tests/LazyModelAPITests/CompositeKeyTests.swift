import Foundation
import LazyModel
import LazyModelAPI
import RegressionCompositeKeyNonStringComponents
import RegressionCompositeKeySortKeyNamedId
import Testing

@Suite("Composite keys over HTTP: non-String components, a sort key named id")
struct CompositeKeyTests {
  @Test("every key component travels as a typed variable in get, update and delete")
  func nonStringComponents() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/composite-key-non-string-components/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let reading = Reading(
      id: "sensor \"7\" \\ #1 🌡",
      takenAt: try Temporal.DateTime(iso8601String: "2026-11-30T09:15:00.250Z"),
      day: try Temporal.Date(iso8601String: "2026-11-30"),
      time: try Temporal.Time(iso8601String: "09:15:00"),
      seq: 42, priority: .high, value: 2.5, note: "first")
    let twin = Reading(
      id: reading.id, takenAt: reading.takenAt, day: reading.day, time: reading.time, seq: 43,
      priority: .high,
      value: 2.5, note: "second")
    try await client.create(reading)
    try await client.create(twin)
    let create = try #require(log.all.first)
    #expect(create.variables["input"]?["seq"] == .int(42))
    #expect(create.variables["input"]?["value"] == .double(2.5))
    #expect(create.variables["input"]?["priority"] == .string("HIGH"))

    log.clear()
    let fetched = try #require(try await client.get(Reading.self, byIdentifier: reading.identifier))
    #expect(fetched.note == "first")
    #expect(fetched.seq == 42)
    let get = try #require(log.last)
    #expect(
      get.document
        == "query GetReading($id: ID!, $takenAt: AWSDateTime!, $day: AWSDate!, $time: AWSTime!, $seq: Int!, $priority: Priority!, $value: Float!) { getReading(id: $id, takenAt: $takenAt, day: $day, time: $time, seq: $seq, priority: $priority, value: $value) { id takenAt day time seq priority value note createdAt updatedAt __typename } }"
    )
    #expect(
      get.variables == [
        "id": .string(reading.id), "takenAt": "2026-11-30T09:15:00.250Z", "day": "2026-11-30",
        "time": "09:15:00",
        "seq": 42, "priority": "HIGH", "value": 2.5,
      ])
    #expect(!get.document.contains("sensor"))

    var changed = fetched
    changed.note = nil
    let updated = try await client.update(changed)
    #expect(updated.note == nil)
    #expect(log.last?.variables["input"]?["note"] == .null)
    #expect(log.last?.variables["input"]?["seq"] == .int(42))

    let deleted = try await client.delete(updated)
    #expect(deleted.seq == 42)
    #expect(
      log.last?.variables["input"]
        == [
          "id": .string(reading.id), "takenAt": "2026-11-30T09:15:00.250Z", "day": "2026-11-30",
          "time": "09:15:00",
          "seq": 42, "priority": "HIGH", "value": 2.5,
        ])
    #expect(try await client.get(Reading.self, byIdentifier: reading.identifier) == nil)
    #expect(try await client.get(Reading.self, byIdentifier: twin.identifier)?.note == "second")
  }

  @Test("a sort key named id: get, update and delete send ownerId and id")
  func sortKeyNamedID() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/composite-key-sort-key-named-id/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let mine = RegressionCompositeKeySortKeyNamedId.TaskType(ownerId: "alice", id: "t1", title: "Mine")
    let theirs = RegressionCompositeKeySortKeyNamedId.TaskType(
      ownerId: "bob", id: "t1", title: "Theirs")
    try await client.create(mine)
    try await client.create(theirs)

    log.clear()
    var fetched = try #require(
      try await client.get(
        RegressionCompositeKeySortKeyNamedId.TaskType.self,
        byIdentifier: .init(ownerId: "bob", id: "t1")))
    #expect(fetched.title == "Theirs")
    #expect(
      log.last?.document
        == "query GetTask($ownerId: String!, $id: ID!) { getTask(ownerId: $ownerId, id: $id) { ownerId id title createdAt updatedAt __typename } }"
    )
    fetched.title = "Theirs, renamed"
    try await client.update(fetched)
    #expect(
      log.last?.variables["input"] == ["ownerId": "bob", "id": "t1", "title": "Theirs, renamed"])
    try await client.delete(fetched)
    #expect(log.last?.variables["input"] == ["ownerId": "bob", "id": "t1"])
    #expect(
      try await client.get(
        RegressionCompositeKeySortKeyNamedId.TaskType.self,
        byIdentifier: .init(ownerId: "alice", id: "t1"))?.title == "Mine")
    #expect(
      try await client.get(
        RegressionCompositeKeySortKeyNamedId.TaskType.self,
        byIdentifier: .init(ownerId: "bob", id: "t1")) == nil)
  }
}
