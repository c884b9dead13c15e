import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import RegressionLazyListReadBeforeFetch

@Suite("implicit hasMany/belongsTo (albumPhotosId) over HTTP")
struct ImplicitHasManyTests {
  @Test(
    "a list read before fetch throws; fetch uses list + filter on the implicit FK; belongsTo loads by get"
  )
  func implicitForeignKey() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/lazy-list-read-before-fetch/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let album = Album(id: "a1", name: "Summer")
    try await client.create(album)
    try await client.create(Photo(id: "ph1", caption: "Beach", album: album))
    #expect(
      log.last?.variables["input"] == ["id": "ph1", "caption": "Beach", "albumPhotosId": "a1"])
    try await client.create(Photo(id: "ph2", caption: "Dunes", album: album))

    let fetched = try #require(try await client.get(Album.self, byIdentifier: .init(id: "a1")))
    let photos = try #require(fetched.photos)
    #expect(throws: LazyModelError.self) { _ = try photos.elements }
    log.clear()
    let loaded = try await photos.fetch()
    #expect(loaded.compactMap(\.caption).sorted() == ["Beach", "Dunes"])
    #expect(log.last?.operationName == "ListPhotos")
    #expect(log.last?.variables == ["filter": ["albumPhotosId": ["eq": "a1"]]])
    #expect(try await loaded[0].album?.name == "Summer")
    #expect(log.last?.operationName == "GetAlbum")
  }
}
