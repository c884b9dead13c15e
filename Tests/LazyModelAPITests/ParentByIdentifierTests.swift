import CompositeKeyHasManyModels
import Foundation
import LazyModel
import LazyModelAPI
import Testing

/// Issue 14: a child pointed at its parent by the parent's identifier alone, on a composite key of
/// every scalar kind.
@Suite("Parent set by identifier")
struct ParentByIdentifierTests {
  @Test("setReading(identifier:) stores a not-loaded reference; create sends every FK component")
  func compositeKey() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/composite-key-has-many/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let reading = Reading(
      id: "r#1",
      takenAt: try Temporal.DateTime(iso8601String: "2026-11-30T09:15:00.250Z"),
      day: try Temporal.Date(iso8601String: "2026-11-30"),
      time: try Temporal.Time(iso8601String: "09:15:00"),
      seq: 42, priority: .high, value: 2.5, flagged: true, note: "first")
    try await client.create(reading)

    var note = ReadingNote(id: "n-1", text: "by identifier")
    note.setReading(identifier: reading.identifier)  // the Reading itself is never loaded
    #expect(note.readingReference.isLoaded == false)
    #expect(note.readingReference.identifiers == reading.identifier.components)
    let typed = try #require(note.readingReference.identifier)
    #expect(typed == reading.identifier)
    #expect(typed.seq == 42)
    #expect(typed.priority == .high)
    #expect(typed.takenAt == reading.takenAt)

    try await client.create(note)
    let input = try #require(log.last?.variables["input"])
    #expect(input["readingNotesId"] == "r#1")
    #expect(input["readingNotesSeq"] == 42)
    #expect(input["readingNotesPriority"] == "HIGH")
    #expect(input["readingNotesValue"] == 2.5)
    let stored = try #require(try await server.storedRecords(of: "ReadingNote").first)
    #expect(stored["readingNotesTakenAt"] as? String == "2026-11-30T09:15:00.250Z")
    #expect(stored["readingNotesDay"] as? String == "2026-11-30")

    let fetched = try #require(
      try await client.get(ReadingNote.self, byIdentifier: .init(id: "n-1")))
    #expect(fetched.readingReference.identifier == reading.identifier)
    let loaded = try #require(try await fetched.reading)
    #expect(loaded.note == "first")

    // nil clears the reference; an identifier of the wrong shape does not rebuild.
    note.setReading(identifier: nil)
    #expect(note.readingReference.identifiers == nil)
    #expect(
      Reading.Identifier(components: [IdentifierComponent(name: "id", value: .string("x"))]) == nil)
  }
}
