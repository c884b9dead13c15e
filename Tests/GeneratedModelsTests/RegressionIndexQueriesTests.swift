import Foundation
import LazyModel
import LazyModelAPI
import RegressionIndexQueriesAcceptAnyKeyType
import Testing

/// `Schemas/regressions/index-queries-accept-any-key-type.graphql`: the typed index keys of an enum
/// partition key with a Temporal sort key, a keyword-named index whose composite sort key has a
/// field named `sortKeyValues` (the property is `sortKeyValues2`, the protocol keeps its member),
/// and a Temporal partition key; `queryField: null` gets no typed key.
@Suite("Generated: typed index keys of every key type")
struct RegressionIndexQueriesTests {
  @Test func keysAreTypedByTheirFields() throws {
    let byKind: ModelIndexKey<Event, EventKind, Temporal.DateTime> = Event.indexes.byKind
    let byRoom: ModelIndexKey<Event, String, Event.Indexes.DefaultSortKey> = Event.indexes.default
    let byDay: ModelIndexKey<Event, Temporal.Date, ModelNoSortKey> = Event.indexes.byDay
    #expect([byKind.name, byRoom.name, byDay.name] == ["byKind", "default", "byDay"])
    #expect(byRoom.sortKeyFields == ["sortKeyValues", "track"])
    let key = Event.Indexes.DefaultSortKey(sortKeyValues2: 3, track: "main")
    #expect(key.sortKeyValues == [.int(3), .string("main")])
    #expect(Event.schema.indexes.map(\.name) == ["byKind", "default", "byDay", "byTitle"])
  }

  @Test func requestsCarryTheTypedValues() throws {
    let start = try Temporal.DateTime(iso8601String: "2026-12-03T09:00:00Z")
    let talks = try ModelQueries.query(
      Event.self, index: Event.indexes.byKind, partitionKey: .talk, sortKey: .beginsWith("2026-12"))
    #expect(talks.operationName == "EventsByKind")
    #expect(talks.variables == ["kind": "TALK", "startsAt": ["beginsWith": "2026-12"]])
    let later = try ModelQueries.query(
      Event.self, index: Event.indexes.byKind, partitionKey: .workshop, sortKey: .ge(start))
    #expect(later.variables == ["kind": "WORKSHOP", "startsAt": ["ge": "2026-12-03T09:00:00Z"]])
    let room = try ModelQueries.query(
      Event.self, index: Event.indexes.default, partitionKey: "A",
      sortKey: .eq(.init(sortKeyValues2: 3, track: "main")))
    #expect(
      room.variables == ["room": "A", "sortKeyValuesTrack": ["eq": ["sortKeyValues": 3, "track": "main"]]])
    let slot = try ModelQueries.query(
      Event.self, index: Event.indexes.default, partitionKey: "A",
      sortKey: .beginsWith(.init(sortKeyValues2: 3)))
    #expect(slot.variables == ["room": "A", "sortKeyValuesTrack": ["beginsWith": ["sortKeyValues": 3]]])
    // A partial eq matches nothing on AppSync (the resolver compares it with the whole stored key).
    #expect {
      try ModelQueries.query(
        Event.self, index: Event.indexes.default, partitionKey: "A", sortKey: .eq(.init(sortKeyValues2: 3)))
    } throws: { error in
      guard case .invalidRequest(let operationName, let reason) = error as? APIError else { return false }
      return operationName == "EventsByRoom"
        && reason.contains("index default of Event gives sortKeyValues but not track")
    }
    let day = try ModelQueries.query(
      Event.self, index: Event.indexes.byDay, partitionKey: try Temporal.Date(iso8601String: "2026-12-03"))
    #expect(day.variables == ["day": "2026-12-03"])
  }

  @Test func wrongKeyTypesDoNotCompile() async throws {
    let prelude = ["import LazyModel", "import LazyModelAPI", "import RegressionIndexQueriesAcceptAnyKeyType"]
    try await TypeCheck.expectAccepted(
      (prelude + [
        "let a = try ModelQueries.query(Event.self, index: Event.indexes.byKind, partitionKey: .talk, sortKey: .beginsWith(\"2026\"))",
        "let b = Event.Indexes.DefaultSortKey(sortKeyValues2: 1).sortKeyValues",
      ]).joined(separator: "\n"))
    let rejectedLines: [(line: String, error: String)] = [
      (
        "let a = try ModelQueries.query(Event.self, index: Event.indexes.byKind, partitionKey: \"TALK\")",
        "cannot convert value of type 'String' to expected argument type 'EventKind'"
      ),
      ("let b = Event.indexes.byTitle", "type 'Event.Indexes' has no member 'byTitle'"),
      (
        "let c = try ModelQueries.query(Event.self, index: Event.indexes.byDay, partitionKey: \"2026-12-03\")",
        "cannot convert value of type 'String' to expected argument type 'Temporal.Date'"
      ),
    ]
    try await TypeCheck.expectEachLineRejected(prelude: prelude, rejectedLines)
  }
}
