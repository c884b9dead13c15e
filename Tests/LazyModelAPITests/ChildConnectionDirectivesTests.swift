import Foundation
import LazyModel
import RegressionChildWithoutQueriesConnectionUnauthorized
import Testing

@testable import LazyModelAPI

/// `Schemas/regressions/child-without-queries-connection-unauthorized.graphql` against the local
/// server, which enforces every type's `@aws_*` directives as AppSync does (a type without any
/// admits only the default mode; the test config names none). A child with `queries: null` is
/// read only through its parent's connection field; its `ModelTrackConnection` now carries the
/// parent's providers, so a page through `getAlbum { tracks }` is answered under the API key and
/// under IAM (before: "Not Authorized to access items on type ModelTrackConnection" for both).
@Suite("A child without queries: pages through its parent under every mode of the parent")
struct ChildConnectionDirectivesTests {
  static let schemaPath = "Generated/regressions/child-without-queries-connection-unauthorized/schema.api.graphql"

  @Test func nestedPagesOfAChildWithoutQueriesAreAuthorized() async throws {
    let keys = try AuthFixture()
    let server = try await GraphQLServerProcess(schema: Self.schemaPath, authConfig: keys.configURL)
    defer { server.stop() }
    let apiKey = makeClient(server, authorization: .apiKey(keys.apiKey))
    let credentials = keys.credentials
    let iam = makeClient(server, authorization: .iam({ credentials }, region: "us-east-1"))
    try await apiKey.create(Album(id: "a1", title: "Blue"))
    for (id, name) in [("t1", "All I Want"), ("t2", "River")] {
      try await apiKey.create(Track(id: id, name: name, albumTracksId: "a1"))
    }
    for client in [apiKey, iam] {
      let page = try await client.send(
        ModelQueries.nestedPage(
          Track.self, parent: Album.schema, field: "tracks", parentKey: [.string("a1")], limit: nil, nextToken: nil))
      #expect(page.connection?.items.map(\.name).sorted() == ["All I Want", "River"])
    }
  }
}
