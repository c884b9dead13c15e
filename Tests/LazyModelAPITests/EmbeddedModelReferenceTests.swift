import Foundation
import LazyModel
import LazyModelAPI
import RegressionEmbeddedModelReferenceLoadedNil
import Testing

/// `Schemas/regressions/embedded-model-reference-loaded-nil.graphql` against the local server: a
/// model held by a non-model value (`Pick.volume`, `Pick.edition`) is written with its FK fields
/// (its `Create<Model>Input` shape) and read back with them, so its `@belongsTo` and `@hasOne`
/// are not loaded, hold the key the value stored and load their targets through the API; a value
/// that names no target reads as an empty (loaded `nil`) reference.
@Suite("API: references of a model held by an embedded value")
struct EmbeddedModelReferenceTests {
  @Test func heldModelsKeepTheirForeignKeysAndLoadTheirTargets() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/embedded-model-reference-loaded-nil/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let author = Author(id: "a1", name: "Herbert")
    let cover = Cover(id: "c1", artist: "Schoenherr")
    let publisher = Publisher(id: "pub1", name: "Chilton")
    try await client.create(author)
    try await client.create(cover)
    try await client.create(publisher)
    let list = ReadingList(
      id: "r1",
      picks: [
        Pick(
          volume: Volume(id: "v1", title: "Dune", author: author, cover: cover),
          edition: Edition(id: "e1", year: 1965, publisher: publisher), note: "first"),
        Pick(volume: Volume(id: "v2", title: "Anonymous"), edition: Edition(id: "e2"), note: "no author"),
      ])
    try await client.create(list)
    let sent: GraphQLValue? = log.last?.variables["input"]?["picks"]
    guard case .list(let picks)? = sent, picks.count == 2 else {
      Issue.record("createReadingList sent no picks: \(String(describing: sent))")
      return
    }
    #expect(
      picks[0]["volume"]
        == .object(["id": "v1", "title": "Dune", "authorBooksId": "a1", "volumeCoverId": "c1"]),
      "the held volume in its CreateVolumeInput shape, FK fields included")
    #expect(picks[0]["edition"] == .object(["id": "e1", "year": 1965, "publisherID": "pub1"]))

    let fetched = try #require(try await client.get(ReadingList.self, byIdentifier: .init(id: "r1")))
    #expect(
      log.last?.document
        == "query GetReadingList($id: ID!) { getReadingList(id: $id) { id picks { volume { id title"
        + " authorBooksId volumeCoverId __typename } edition { id year publisherID __typename } note }"
        + " createdAt updatedAt __typename } }",
      "the held model selects its implicit FK fields")
    #expect(fetched.picks.count == 2)
    let volume = try #require(fetched.picks[0].volume)
    #expect(!volume.authorReference.isLoaded, "not loaded: the value names its author")
    #expect(volume.authorReference.identifiers == [IdentifierComponent(name: "id", value: .string("a1"))])
    #expect(volume.coverReference.identifiers == [IdentifierComponent(name: "id", value: .string("c1"))])
    let edition = try #require(fetched.picks[0].edition)
    #expect(!edition.publisherReference.isLoaded)
    #expect(try await volume.author?.name == "Herbert", "loads through the API by the stored key")
    #expect(try await volume.cover?.artist == "Schoenherr")
    #expect(try await edition.publisher?.name == "Chilton")
    #expect(
      log.last?.document
        == "query GetPublisher($id: ID!) { getPublisher(id: $id) { id name createdAt updatedAt __typename } }")

    let anonymous = try #require(fetched.picks[1].volume)
    #expect(anonymous.authorReference.isLoaded, "the value names no author: an empty reference")
    #expect(anonymous.authorReference.identifiers == nil)
    #expect(try await anonymous.author == nil)
    #expect(try #require(fetched.picks[1].edition).publisherReference.identifiers == nil)
  }
}
