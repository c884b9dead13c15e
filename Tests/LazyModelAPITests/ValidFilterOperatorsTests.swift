import Foundation
import LazyModel
import LazyModelAPI
import RegressionKeyOperatorsRejectValidAppsyncFilters
import Testing

/// The filters typed keys now allow (`Schemas/regressions/key-operators-reject-valid-appsync-filters.graphql`),
/// sent to the local GraphQL server: they are valid `ModelVolumeFilterInput` values and select
/// the same volumes as the DataStore does for the same predicates
/// (`GeneratedModelsTests.ValidFilterKeysTests.predicatesQueryADataStore`).
@Suite("Filters AppSync's inputs allow, over HTTP")
struct ValidFilterOperatorsTests {
  @Test func typedKeyFiltersSelectTheSameVolumesAsTheDataStore() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/key-operators-reject-valid-appsync-filters/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server, log: RequestLog())
    let main = Library(id: "L1", name: "Main")
    let annex = Library(id: "L2", name: "Annex")
    let first = Shelf(building: "A", number: 1)
    let second = Shelf(building: "A", number: 2)
    for library in [main, annex] { try await client.create(library) }
    for shelf in [first, second] { try await client.create(shelf) }
    let date = { (text: String) in try Temporal.Date(iso8601String: text) }
    let dateTime = { (text: String) in try Temporal.DateTime(iso8601String: text) }
    try await client.create(
      Volume(
        id: "v1", title: "Dune", genres: [.scifi], moods: [.darkScifi], tags: ["sf", "classic"],
        editions: [try date("2024-01-05")], publishedOn: try date("2024-01-05"),
        printedAt: try dateTime("2024-01-05T10:00:00Z"),
        opensAt: try Temporal.Time(iso8601String: "09:30:00"), library: main, shelf: first))
    try await client.create(
      Volume(
        id: "v2", title: "Gloom", genres: [.darkScifi], tags: ["dark-sf"],
        publishedOn: try date("2025-06-01"), printedAt: try dateTime("2025-06-01T08:00:00Z")))
    try await client.create(
      Volume(
        id: "v3", title: "Elves", genres: [.fantasy, .scifi], moods: [nil, .fantasy],
        printedAt: try dateTime("2024-12-31T23:00:00Z"), library: annex, shelf: second))
    let expected: [(String, QueryPredicate<Volume>, [String])] = [
      ("genres contains", Volume.keys.genres.contains(.scifi), ["v1", "v3"]),
      ("genres notContains", Volume.keys.genres.notContains(.scifi), ["v2"]),
      ("moods contains", Volume.keys.moods.contains(.darkScifi), ["v1"]),
      ("moods notContains", Volume.keys.moods.notContains(.darkScifi), ["v2", "v3"]),
      ("tags contains", Volume.keys.tags.contains("sf"), ["v1"]),
      ("tags notContains", Volume.keys.tags.notContains("sf"), ["v2", "v3"]),
      ("editions contains", Volume.keys.editions.contains("2024-01-05"), ["v1"]),
      ("untyped beginsWith on a list", QueryPredicate(unchecked: .field("tags", .beginsWith("sf"))), []),
      ("AWSDate beginsWith", Volume.keys.publishedOn.beginsWith("2024-"), ["v1"]),
      ("AWSDateTime beginsWith", Volume.keys.printedAt.beginsWith("2024-"), ["v1", "v3"]),
      ("AWSDateTime contains", Volume.keys.printedAt.contains("T08"), ["v2"]),
      ("AWSTime beginsWith", Volume.keys.opensAt.beginsWith("09:"), ["v1"]),
      ("AWSDate notContains", Volume.keys.publishedOn.notContains("-01-"), ["v2", "v3"]),
      ("library ne", Volume.keys.library.ne(main), ["v2", "v3"]),
      ("library eq nil", Volume.keys.library.eq(nil), ["v2"]),
      ("library ne nil", Volume.keys.library.ne(nil), ["v1", "v3"]),
      ("shelf eq nil", Volume.keys.shelf.eq(nil), ["v2"]),
      ("shelf ne nil", Volume.keys.shelf.ne(nil), ["v1", "v3"]),
      ("shelf ne", Volume.keys.shelf.ne(first), ["v2", "v3"]),
      ("shelf ne identifier", Volume.keys.shelf.ne(Shelf.Identifier(building: "A", number: 2)), ["v1", "v2"]),
    ]
    for (name, predicate, ids) in expected {
      let page = try await client.send(try ModelQueries.list(Volume.self, where: predicate))
      #expect(page.items.map(\.id).sorted() == ids, "\(name)")
    }
  }
}
