import Foundation
import LazyModel
import LazyModelDataStore
import Testing

@testable import CompositeKeyHasManyModels
@testable import SeedPostCommentModels

@Suite("AWSDateTime columns keep their exact text")
struct TemporalColumnTests {
  /// Every way an `AWSDateTime` can be written: with and without seconds, 1 to 9 fraction digits,
  /// `Z`, `±hh:mm`, `±hh:mm:ss`, a negative zero offset and a negative zero year.
  static let texts = [
    "2026-11-30T09:30Z", "2026-11-30T09:30:00Z", "2026-11-30T09:30:00.2Z",
    "2026-11-30T09:30:00.250Z", "2026-11-30T09:30:00.123456789Z", "2026-11-30T09:30:00.000000000Z",
    "2026-11-30T09:30+05:30", "2026-11-30T09:30:00-07:00", "2026-11-30T09:30:00.5+05:30:15",
    "2026-11-30T09:30-00:00", "2026-11-30T09:30+00:00", "2026-11-30T09:30+00:00:00",
    "-0044-03-15T12:00:00.5+01:00", "-0000-01-01T00:00Z", "0000-01-01T00:00Z",
  ]

  @Test("every written form is read back as written, as a key and as a column", arguments: StoreLocation.allCases)
  func everyFormRoundTrips(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    let day = try Temporal.Date(iso8601String: "2026-11-30")
    let time = try Temporal.Time(iso8601String: "09:30")
    let readings = try Self.texts.enumerated().map { offset, text in
      Reading(
        id: "r\(offset)", takenAt: try Temporal.DateTime(iso8601String: text), day: day,
        time: time, seq: offset, priority: .low, value: 1, flagged: false, note: text)
    }
    try await store.save(readings)
    let read = try await store.query(Reading.self, sort: [.ascending(Reading.keys.seq)])
    #expect(read.map(\.takenAt.iso8601String) == Self.texts)
    #expect(read.map(\.note) == Self.texts)
    for reading in readings {
      let found = try await store.query(Reading.self, byIdentifier: reading.identifier)
      #expect(found?.takenAt.iso8601String == reading.note)
    }
    // `-00:00` and `+00:00` are the same instant but different text: different keys.
    let negativeZero = try #require(read.first { $0.note == "2026-11-30T09:30-00:00" })
    let positiveZero = try #require(read.first { $0.note == "2026-11-30T09:30+00:00" })
    #expect(negativeZero.takenAt != positiveZero.takenAt)
    #expect(negativeZero.takenAt.foundationDate == positiveZero.takenAt.foundationDate)
  }

  @Test(
    "a column that is not an AWSDateTime is a typed error naming model and field",
    arguments: ["yesterday", "2026-11-30T09:30", "2026-02-30T00:00:00.000Z", ""])
  func invalidColumnText(_ text: String) async throws {
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try DataStore(fileURL: url, registry: SeedPostCommentModels.Models.registry)
    try await store.save(Post4V2(id: "p1", title: "Post"))
    // c1 sits between two good rows: the rows decoded before it are dropped with the error.
    for id in ["c0", "c1", "c2"] {
      try await store.save(Comment4V2(id: id, content: "Comment \(id)", post: nil))
    }
    try executeRaw(
      "UPDATE \"Comment4V2\" SET \"createdAt\" = '\(text)' WHERE \"id\" = 'c1'", on: url)
    await #expect(
      throws: DataStoreError.decodingFailed(
        model: "Comment4V2", field: "createdAt",
        reason: TemporalError(scalar: "AWSDateTime", text: text).description)
    ) {
      try await store.query(Comment4V2.self)
    }
    // Rows copied before decoding (`includes:`) take the other path to the same error.
    await #expect(
      throws: DataStoreError.decodingFailed(
        model: "Comment4V2", field: "createdAt",
        reason: TemporalError(scalar: "AWSDateTime", text: text).description)
    ) {
      try await store.query(Comment4V2.self, includes: [QueryInclude.include(Comment4V2.keys.post)])
    }
  }
}
