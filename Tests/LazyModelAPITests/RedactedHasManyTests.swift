import Foundation
import LazyModel
import RegressionRedactedHasManyClaimedNoChildren
import Testing

@testable import LazyModelAPI

/// `Schemas/regressions/redacted-has-many-claimed-no-children.graphql` against the local server,
/// which redacts relationship fields in mutation answers as AppSync does (`relation_redacted`).
@Suite("A redacted hasMany in a mutation answer stays lazily loadable")
struct RedactedHasManyTests {
  static let schemaPath = "Generated/regressions/redacted-has-many-claimed-no-children/schema.api.graphql"

  /// Issue 15 (s15): `Album.songs` is redacted in every mutation answer (an album's readers, the
  /// API key and every signed-in user, are not a song's: relational field redaction,
  /// amplify-category-api PR #2536; the relational resolver's
  /// `#if($ctx.stash.deniedField) #return($util.toJson(null))`), so an update selecting it gets
  /// `songs: null`. The client shows that as a list it has not loaded, keyed by the album, never
  /// as "no songs": reading it loads the songs the caller may read. A query reads them at once.
  /// Pinned (the client decoded a `null` hasMany so before too).
  @Test func aRedactedHasManyInAnAnswerStaysLazilyLoadable() async throws {
    let keys = try AuthFixture()
    let server = try await GraphQLServerProcess(schema: Self.schemaPath, authConfig: keys.configURL)
    defer { server.stop() }
    let client = makeClient(server, authorization: .apiKey(keys.apiKey))
    try await client.create(Album(id: "a1", title: "Blue"))
    for (id, name) in [("s1", "All I Want"), ("s2", "River")] {
      try await client.create(Song(id: id, name: name, albumSongsId: "a1"))
    }
    let updated = try await client.update(Album(id: "a1", title: "Blue (remastered)"), includes: [Album.keys.songs])
    #expect(updated.title == "Blue (remastered)")
    let songs = try #require(updated.songs)
    guard case .notLoaded(let identifiers, let fields) = songs.state else {
      Issue.record("a redacted hasMany decoded as loaded: \(songs.state)")
      return
    }
    #expect(identifiers == [.string("a1")])
    #expect(fields == ["albumSongsId"])
    #expect(try await songs.fetch().map(\.name).sorted() == ["All I Want", "River"])
    // A query is not redacted: its included page is loaded.
    let read = try #require(
      try await client.get(Album.self, byIdentifier: .init(id: "a1"), includes: [Album.keys.songs]))
    guard case .loaded(let elements) = try #require(read.songs).state else {
      Issue.record("an included page of a query decoded as not loaded")
      return
    }
    #expect(elements.map(\.name).sorted() == ["All I Want", "River"])
  }
}
