import Foundation
import LazyModel
import LazyModelDataStore
import Testing

@testable import CompositeKeyHasManyModels
@testable import RegressionHasOneDanglingForeignKey
@testable import SeedPostCommentModels

/// Issue 14, DataStore side: a hasOne FK may point at a row that does not exist yet; neither an
/// include nor a load that finds nothing may turn the stored key into NULL on the next save.
@Suite("Dangling foreign keys survive in the DataStore")
struct DanglingForeignKeyTests {
  @Test(
    "a hasOne FK to a missing row: included, loaded nil, saved again, still stored",
    arguments: StoreLocation.allCases)
  func danglingHasOne(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(
      location, registry: RegressionHasOneDanglingForeignKey.Models.registry)
    let transcript = Transcript(id: "t-1", text: "later")
    try await store.save(PhoneCall(id: "call-1", caller: "Ada", transcript: transcript))

    let included = try #require(
      try await store.query(
        PhoneCall.self, byIdentifier: .init(id: "call-1"),
        includes: [.include(PhoneCall.keys.transcript)]))
    // The include found no row: the reference keeps the key instead of becoming loaded nil.
    #expect(included.transcriptReference.identifiers == transcript.identifier.components)
    #expect(included.transcriptReference.isLoaded == false)
    try await store.save(included)

    let plain = try #require(
      try await store.query(PhoneCall.self, byIdentifier: .init(id: "call-1")))
    #expect(try await plain.transcript == nil)  // loaded: nothing there yet
    #expect(plain.transcriptReference.isLoaded)
    try await store.save(plain)  // saving after the nil load keeps the key too

    try await store.save(transcript)
    let later = try #require(
      try await store.query(PhoneCall.self, byIdentifier: .init(id: "call-1")))
    #expect(try await later.transcript?.text == "later")

    var cleared = later
    cleared.setTranscript(nil)
    try await store.save(cleared)
    let none = try #require(
      try await store.query(PhoneCall.self, byIdentifier: .init(id: "call-1")))
    #expect(none.transcriptReference.identifiers == nil)
  }

  @Test(
    "setPost(identifier:) saves the FK without the post being loaded",
    arguments: StoreLocation.allCases)
  func setByIdentifier(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    let post = Post4V2(id: "p-1", title: "parent")
    try await store.save(post)
    var comment = Comment4V2(id: "c-1", content: "child")
    comment.setPost(identifier: .init(id: "p-1"))
    #expect(comment.postReference.identifier?.id == "p-1")
    try await store.save(comment)
    let stored = try #require(
      try await store.query(Comment4V2.self, byIdentifier: .init(id: "c-1")))
    #expect(stored.postReference.identifier?.id == "p-1")
    #expect(try await stored.post?.title == "parent")
  }

  @Test(
    "init(…, postIdentifier:) saves the FK; the post loads from the store",
    arguments: StoreLocation.allCases)
  func initializerByIdentifier(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    try await store.save(Post4V2(id: "p-2", title: "by init"))
    let comment = Comment4V2(id: "c-2", content: "child", postIdentifier: .init(id: "p-2"))
    #expect(!comment.postReference.isLoaded)
    #expect(comment.postReference.identifier?.id == "p-2")
    try await store.save(comment)
    let stored = try #require(
      try await store.query(Comment4V2.self, byIdentifier: .init(id: "c-2")))
    #expect(stored.postReference.identifier?.id == "p-2")
    #expect(try await stored.post?.title == "by init")
    let byPost = try await store.query(
      Comment4V2.self, where: Comment4V2.keys.post.eq(Post4V2.Identifier(id: "p-2")))
    #expect(byPost.map(\.id) == ["c-2"])
  }

  @Test(
    "init(…, readingIdentifier:) on a composite key saves every FK column; the reading loads",
    arguments: StoreLocation.allCases)
  func compositeInitializerByIdentifier(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    let reading = Reading(
      id: "r#9", takenAt: try Temporal.DateTime(iso8601String: "2026-12-01T08:00:00.125Z"),
      day: try Temporal.Date(iso8601String: "2026-12-01"),
      time: try Temporal.Time(iso8601String: "08:00:00"), seq: 3, priority: .low, value: 1.25,
      flagged: true, note: "composite parent")
    try await store.save(reading)
    let note = ReadingNote(id: "n-9", text: "by init", readingIdentifier: reading.identifier)
    #expect(note.readingReference.identifier == reading.identifier)
    try await store.save(note)
    let stored = try #require(try await store.query(ReadingNote.self, byIdentifier: .init(id: "n-9")))
    #expect(stored.readingReference.identifier == reading.identifier)
    #expect(!stored.readingReference.isLoaded)
    #expect(try await stored.reading?.note == "composite parent")
    let notes = try #require(
      try await store.query(Reading.self, byIdentifier: reading.identifier)?.notes)
    #expect(try await notes.fetch().map(\.id) == ["n-9"])
  }
}
