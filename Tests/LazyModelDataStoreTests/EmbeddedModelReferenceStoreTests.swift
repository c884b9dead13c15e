import Foundation
import LazyModel
import LazyModelDataStore
import RegressionEmbeddedModelReferenceLoadedNil
import Testing

/// `Schemas/regressions/embedded-model-reference-loaded-nil.graphql` on a real SQLite file: a model
/// held by a non-model value (`ReadingList.picks[i].volume`, `.edition`: embedded JSON) read back
/// from the DataStore — by a query, as `save` returns it, in an `observe` event and an
/// `observeQuery` snapshot — loads its `@belongsTo` and `@hasOne` from the store. The JSON
/// column's decoder used to carry no decoding context, so the not-loaded reference had no
/// provider: `no provider to load Author(id: "a1"): it was decoded without a ModelDecodingContext`.
@Suite("DataStore: references of a model held by an embedded value load from the store")
struct EmbeddedModelReferenceStoreTests {
  private static func readingList() -> ReadingList {
    ReadingList(
      id: "r1",
      picks: [
        Pick(
          volume: Volume(id: "v1", title: "Dune", authorIdentifier: .init(id: "a1"), coverIdentifier: .init(id: "c1")),
          edition: Edition(id: "e1", year: 1965, publisherIdentifier: .init(id: "pub1")), note: "first"),
        Pick(
          volume: Volume(id: "v2", title: "Children", authorIdentifier: .init(id: "a2"), coverIdentifier: nil),
          edition: Edition(id: "e2"), note: "second"),
      ])
  }

  /// Loads every relationship `list`'s picks hold (as the fixture stores them).
  private static func expectLoads(_ list: ReadingList, _ what: String) async throws {
    #expect(list.picks.count == 2, "\(what)")
    let first = try #require(list.picks.first?.volume)
    #expect(!first.authorReference.isLoaded, "\(what): not loaded, it holds the author's key")
    #expect(first.authorReference.identifiers == [IdentifierComponent(name: "id", value: .string("a1"))])
    #expect(try await first.author?.name == "Herbert", "\(what): loads from the store")
    #expect(try await first.cover?.artist == "Schoenherr", "\(what): the @hasOne too")
    #expect(try await list.picks[0].edition?.publisher?.name == "Chilton", "\(what): @belongsTo(fields:)")
    // The second element of the list: another author, no cover, no publisher.
    let second = try #require(list.picks[1].volume)
    #expect(try await second.author?.name == "Le Guin", "\(what): a later list element")
    #expect(try await second.cover == nil)
    #expect(try await list.picks[1].edition?.publisher == nil)
    // The loaded author came from the store: its own `@hasMany` loads from it as well.
    let author = try #require(try await first.author)
    #expect(try await author.books?.fetch().isEmpty == true, "\(what): an embedded volume is no Volume row")
  }

  @Test func heldModelsLoadTheirReferencesFromTheStore() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: Models.registry)
    try await store.save(Author(id: "a1", name: "Herbert"))
    try await store.save(Author(id: "a2", name: "Le Guin"))
    try await store.save(Cover(id: "c1", artist: "Schoenherr"))
    try await store.save(Publisher(id: "pub1", name: "Chilton"))

    let events = store.observe(ReadingList.self)
    let snapshots = store.observeQuery(ReadingList.self)
    var snapshotIterator = snapshots.makeAsyncIterator()
    let first = try #require(try await snapshotIterator.next())
    #expect(first.items.isEmpty)

    let saved = try await store.save(Self.readingList())
    try await Self.expectLoads(saved, "save's returned model")

    let fetched = try #require(try await store.query(ReadingList.self, byIdentifier: .init(id: "r1")))
    try await Self.expectLoads(fetched, "query(byIdentifier:)")
    let all = try await store.query(ReadingList.self)
    try await Self.expectLoads(try #require(all.first), "query")

    var eventIterator = events.makeAsyncIterator()
    guard case .saved(let observed)? = await eventIterator.next() else {
      Issue.record("observe gave no saved event")
      return
    }
    try await Self.expectLoads(observed, "observe's event")
    var snapshot = try #require(try await snapshotIterator.next())
    while snapshot.items.isEmpty { snapshot = try #require(try await snapshotIterator.next()) }
    try await Self.expectLoads(try #require(snapshot.items.first), "observeQuery's snapshot")
  }
}
