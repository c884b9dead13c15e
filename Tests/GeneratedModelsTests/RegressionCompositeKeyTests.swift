import Foundation
import LazyModel
import RegressionCompositeKeyNonStringComponents
import Testing

@Suite("Generated regression: composite-key-non-string-components")
struct RegressionCompositeKeyNonStringComponentsTests {
  func reading() throws -> Reading {
    Reading(
      id: "r1", takenAt: try Temporal.DateTime(iso8601String: "2024-05-01T10:00:00Z"),
      day: try Temporal.Date(iso8601String: "2024-05-01"),
      time: try Temporal.Time(iso8601String: "10:00:00"),
      seq: 7, priority: .high, value: 2.5, note: "n")
  }

  @Test func identifierComponentsKeepTheirTypesAndOrder() throws {
    let components = try reading().identifier.components
    #expect(components.map(\.name) == ["id", "takenAt", "day", "time", "seq", "priority", "value"])
    #expect(
      components.map(\.value) == [
        .string("r1"), .string("2024-05-01T10:00:00Z"), .string("2024-05-01"), .string("10:00:00"),
        .int(7),
        .string("HIGH"), .double(2.5),
      ])
    #expect(
      Reading.schema.primaryKey == ["id", "takenAt", "day", "time", "seq", "priority", "value"])
  }

  @Test func roundTripKeepsEveryComponent() throws {
    let original = try reading()
    let decoded = try JSON.decode(Reading.self, try JSON.encode(original))
    #expect(decoded.identifier == original.identifier)
    #expect(decoded.note == "n")
    #expect(try JSON.object(JSON.encode(original))["priority"] as? String == "HIGH")
    #expect(try JSON.object(JSON.encode(original))["seq"] as? Int == 7)
  }

  @Test func theStoreFindsAModelByItsTypedIdentifier() throws {
    let store = InMemoryModelStore()
    let original = try reading()
    try store.save(original)
    let found = try store.model(Reading.self, identifier: original.identifier)
    #expect(found?.value == 2.5)
    var other = original.identifier
    other = Reading.Identifier(
      id: other.id, takenAt: other.takenAt, day: other.day, time: other.time, seq: 8,
      priority: other.priority,
      value: other.value)
    #expect(try store.model(Reading.self, identifier: other) == nil)
  }
}
