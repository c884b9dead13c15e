import Foundation
import LazyModel
import LazyModelAPI
import RegressionIndexQueriesAcceptAnyKeyType
import Testing

/// Typed index keys (issue 17, `Schemas/regressions/index-queries-accept-any-key-type.graphql`)
/// against the local server: an enum partition key with a Temporal sort key condition, and a
/// keyword-named index with a composite sort key, each answering the items the condition selects.
@Suite("Typed index queries against the local server")
struct TypedIndexQueriesTests {
  @Test func typedKeysAndSortKeyConditionsSelectTheItems() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/index-queries-accept-any-key-type/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let rows: [(String, EventKind, String, String, Int, String)] = [
      ("e1", .talk, "2026-12-03T09:00:00.000Z", "A", 1, "main"),
      ("e2", .talk, "2026-12-04T09:00:00.000Z", "A", 2, "main"),
      ("e3", .workshop, "2026-12-03T14:00:00.000Z", "A", 2, "side"),
      ("e4", .talk, "2027-01-10T09:00:00.000Z", "B", 1, "main"),
    ]
    for (id, kind, start, room, slot, track) in rows {
      let startsAt = try Temporal.DateTime(iso8601String: start)
      _ = try await client.create(
        Event(
          id: id, kind: kind, startsAt: startsAt, room: room, sortKeyValues: slot, track: track,
          day: try Temporal.Date(iso8601String: String(start.prefix(10))), title: id))
    }
    let december = try await client.list(
      Event.self, index: Event.indexes.byKind, key: .talk, sortKey: .beginsWith("2026-12"))
    #expect(december.items.map(\.id) == ["e1", "e2"])
    #expect(log.last?.variables["startsAt"] == ["beginsWith": "2026-12"])
    let fromFourth = try await client.list(
      Event.self, index: Event.indexes.byKind, key: .talk,
      sortKey: .ge(try Temporal.DateTime(iso8601String: "2026-12-04T00:00:00.000Z")),
      sortDirection: .descending)
    #expect(fromFourth.items.map(\.id) == ["e4", "e2"])

    // A leading run of the composite sort key is a beginsWith ("2" begins "2#main" and "2#side");
    // a partial eq would be `sortKey = "2"` on AppSync, which matches nothing: refused unsent.
    let slotTwo = try await client.list(
      Event.self, index: Event.indexes.default, key: "A", sortKey: .beginsWith(.init(sortKeyValues2: 2)))
    #expect(slotTwo.items.map(\.id) == ["e2", "e3"])
    #expect(log.last?.operationName == "EventsByRoom")
    #expect(log.last?.variables["sortKeyValuesTrack"] == ["beginsWith": ["sortKeyValues": 2]])
    let sent = log.all.count
    await #expect {
      try await client.list(
        Event.self, index: Event.indexes.default, key: "A", sortKey: .eq(.init(sortKeyValues2: 2)))
    } throws: { error in
      guard case .invalidRequest(_, let reason) = error as? APIError else { return false }
      return reason.contains("index default of Event gives sortKeyValues but not track")
    }
    #expect(log.all.count == sent)
    let side = try await client.list(
      Event.self, index: Event.indexes.default, key: "A",
      sortKey: .eq(.init(sortKeyValues2: 2, track: "side")), where: Event.keys.title.ne("x"))
    #expect(side.items.map(\.id) == ["e3"])

    var thirdOfDecember: [String] = []
    for try await event in client.listAll(
      Event.self, index: Event.indexes.byDay, key: try Temporal.Date(iso8601String: "2026-12-03"),
      pageSize: 1)
    {
      thirdOfDecember.append(event.id)
    }
    #expect(thirdOfDecember.sorted() == ["e1", "e3"])
  }
}
