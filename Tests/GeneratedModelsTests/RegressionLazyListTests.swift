import Foundation
import LazyModel
import RegressionLazyListReadBeforeFetch
import Testing

@Suite("Generated regression: lazy-list-read-before-fetch")
struct RegressionLazyListReadBeforeFetchTests {
  @Test func readingBeforeFetchThrowsAndTheStateIsObservable() async throws {
    let store = InMemoryModelStore()
    try store.save(Album(id: "a1", name: "Summer"))
    try store.save(Photo(id: "ph1", caption: "Beach", album: Album(id: "a1")))
    let album = try #require(try store.model(Album.self, identifier: Album.Identifier(id: "a1")))
    let photos = try #require(album.photos)
    guard case .notLoaded(let identifiers, let fields) = photos.state else {
      Issue.record("expected a not-loaded list")
      return
    }
    #expect(identifiers == [.string("a1")])
    #expect(fields == ["albumPhotosId"])
    #expect(
      throws: LazyModelError.listNotLoaded(
        model: "Photo", associatedFields: ["albumPhotosId"], associatedIdentifiers: [.string("a1")])
    ) { try photos.elements }
    #expect(try await photos.fetch().map(\.caption) == ["Beach"])
    #expect(try photos.elements.count == 1)
  }

  @Test func aListDecodedWithoutAContextFailsToFetchWithATypedError() async throws {
    let album = try JSON.decode(Album.self, #"{"id":"a1","name":null}"#)
    let photos = try #require(album.photos)
    #expect(!photos.isLoaded)
    await #expect(throws: LazyModelError.self) { try await photos.fetch() }
  }
}
