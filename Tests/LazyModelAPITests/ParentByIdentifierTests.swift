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

  @Test("init(…, readingIdentifier:) stores a not-loaded reference; create stores every FK component")
  func compositeKeyInitializer() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/composite-key-has-many/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let reading = Reading(
      id: "r#2",
      takenAt: try Temporal.DateTime(iso8601String: "2026-12-01T23:59:59.999Z"),
      day: try Temporal.Date(iso8601String: "2026-12-01"),
      time: try Temporal.Time(iso8601String: "23:59:59"),
      seq: -7, priority: .low, value: -0.5, flagged: false, note: "parent")
    try await client.create(reading)

    let note = ReadingNote(id: "n-2", text: "init by identifier", readingIdentifier: reading.identifier)
    #expect(!note.readingReference.isLoaded)
    #expect(note.readingReference.identifier == reading.identifier)
    // The same value as the setter's form: equal models, the same encoded input.
    var set = ReadingNote(id: "n-2", text: "init by identifier")
    set.setReading(identifier: reading.identifier)
    #expect(note == set)

    let created = try await client.create(note)
    #expect(created.readingReference.identifier == reading.identifier)
    let input = try #require(log.last?.variables["input"])
    #expect(input["readingNotesSeq"] == -7)
    #expect(input["readingNotesFlagged"] == false)
    let stored = try #require(
      try await server.storedRecords(of: "ReadingNote").first { $0["id"] as? String == "n-2" })
    #expect(stored["readingNotesId"] as? String == "r#2")
    #expect(stored["readingNotesTakenAt"] as? String == "2026-12-01T23:59:59.999Z")
    #expect(stored["readingNotesDay"] as? String == "2026-12-01")
    #expect(stored["readingNotesTime"] as? String == "23:59:59")
    #expect(stored["readingNotesSeq"] as? Int == -7)
    #expect(stored["readingNotesPriority"] as? String == "LOW")
    #expect(stored["readingNotesValue"] as? Double == -0.5)
    #expect(stored["readingNotesFlagged"] as? Bool == false)

    let fetched = try #require(
      try await client.get(ReadingNote.self, byIdentifier: .init(id: "n-2")))
    #expect(fetched.readingReference.identifier == reading.identifier)
    #expect(!fetched.readingReference.isLoaded)
    let loaded = try #require(try await fetched.reading)
    #expect(loaded.note == "parent")
    #expect(loaded.identifier == reading.identifier)

    // A nil identifier: no parent, no FK stored.
    try await client.create(ReadingNote(id: "n-3", text: "orphan", readingIdentifier: nil))
    let orphan = try #require(
      try await server.storedRecords(of: "ReadingNote").first { $0["id"] as? String == "n-3" })
    #expect(orphan["readingNotesId"] == nil || orphan["readingNotesId"] is NSNull)
    #expect(try await client.get(ReadingNote.self, byIdentifier: .init(id: "n-3"))?.reading == nil)
  }
}
