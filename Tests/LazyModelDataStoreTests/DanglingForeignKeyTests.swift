import Foundation
import LazyModel
import LazyModelDataStore
import Testing

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
}
