import Foundation
import LazyModel
import LazyModelAPI
import LazyModelDataStore
import RegressionKeyOperatorsRejectValidAppsyncFilters
import Testing

/// `Schemas/regressions/key-operators-reject-valid-appsync-filters.graphql`: the typed keys offer
/// the operators of each field's AppSync filter input (`ModelStringInput` for `AWSDate`, `AWSTime`
/// and `AWSDateTime` too, `Model<Enum>ListInput.contains` for a list of enum values, `ne` and
/// `eq(nil)` on a reference's foreign key), and the DataStore tests list membership, not a
/// substring of the list's JSON text.
@Suite("Generated: keys offer AppSync's filter operators")
struct ValidFilterKeysTests {
  static func date(_ text: String) throws -> Temporal.Date { try Temporal.Date(iso8601String: text) }
  static func dateTime(_ text: String) throws -> Temporal.DateTime {
    try Temporal.DateTime(iso8601String: text)
  }

  @Test func predicatesAreTheSharedValues() throws {
    let library = Library(id: "L1", name: "Main")
    #expect(Volume.keys.genres.contains(.darkScifi).untyped == .field("genres", .contains("DARK_SCIFI")))
    #expect(Volume.keys.moods.notContains(.scifi).untyped == .field("moods", .notContains("SCIFI")))
    #expect(Volume.keys.editions.contains("2024-01-05").untyped == .field("editions", .contains("2024-01-05")))
    #expect(Volume.keys.publishedOn.beginsWith("2024").untyped == .field("publishedOn", .beginsWith("2024")))
    #expect(Volume.keys.printedAt.contains("T08").untyped == .field("printedAt", .contains("T08")))
    #expect(Volume.keys.opensAt.notContains(":30").untyped == .field("opensAt", .notContains(":30")))
    #expect(Volume.keys.library.eq(nil).untyped == .field("library", .eq(nil)))
    #expect(Volume.keys.library.ne(nil).untyped == .field("library", .ne(nil)))
    #expect(Volume.keys.library.ne(library).untyped == .not(.field("library", .references([.string("L1")]))))
    #expect(
      Volume.keys.shelf.ne(Shelf.Identifier(building: "A", number: 2)).untyped
        == .not(.field("shelf", .references([.string("A"), .int(2)]))))
    #expect(Volume.keys.library.eq(library).untyped == .field("library", .references([.string("L1")])))
  }

  @Test func predicatesQueryADataStore() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ValidFilterKeys-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try DataStore(
      fileURL: directory.appendingPathComponent("filters.sqlite"), registry: Models.registry)
    let main = Library(id: "L1", name: "Main")
    let annex = Library(id: "L2", name: "Annex")
    let first = Shelf(building: "A", number: 1)
    let second = Shelf(building: "A", number: 2)
    try await store.save([main, annex])
    try await store.save([first, second])
    try await store.save([
      Volume(
        id: "v1", title: "Dune", genres: [.scifi], moods: [.darkScifi], tags: ["sf", "classic"],
        editions: [try Self.date("2024-01-05")], publishedOn: try Self.date("2024-01-05"),
        printedAt: try Self.dateTime("2024-01-05T10:00:00Z"),
        opensAt: try Temporal.Time(iso8601String: "09:30:00"), library: main, shelf: first),
      Volume(
        id: "v2", title: "Gloom", genres: [.darkScifi], tags: ["dark-sf"],
        publishedOn: try Self.date("2025-06-01"), printedAt: try Self.dateTime("2025-06-01T08:00:00Z")),
      Volume(
        id: "v3", title: "Elves", genres: [.fantasy, .scifi], moods: [nil, .fantasy],
        printedAt: try Self.dateTime("2024-12-31T23:00:00Z"), library: annex, shelf: second),
    ])
    func ids(_ predicate: QueryPredicate<Volume>) async throws -> [String] {
      try await store.query(Volume.self, where: predicate, sort: [.ascending(Volume.keys.id)]).map(\.id)
    }
    // Membership of one element: `DARK_SCIFI` and `dark-sf` do not contain `SCIFI` / `sf`.
    #expect(try await ids(Volume.keys.genres.contains(.scifi)) == ["v1", "v3"])
    #expect(try await ids(Volume.keys.genres.notContains(.scifi)) == ["v2"])
    #expect(try await ids(Volume.keys.moods.contains(.darkScifi)) == ["v1"])
    #expect(try await ids(Volume.keys.moods.notContains(.darkScifi)) == ["v2", "v3"])
    #expect(try await ids(Volume.keys.tags.contains("sf")) == ["v1"])
    #expect(try await ids(Volume.keys.tags.notContains("sf")) == ["v2", "v3"])
    #expect(try await ids(Volume.keys.editions.contains("2024-01-05")) == ["v1"])
    // No key offers `beginsWith` on a list; the untyped predicate matches nothing (DynamoDB's
    // `begins_with` on a list), never the JSON text's leading `[`.
    #expect(try await ids(.init(unchecked: .field("tags", .beginsWith("[")))).isEmpty)
    #expect(try await ids(.init(unchecked: .field("tags", .beginsWith("sf")))).isEmpty)
    // AWSDate, AWSDateTime and AWSTime filter as text.
    #expect(try await ids(Volume.keys.publishedOn.beginsWith("2024-")) == ["v1"])
    #expect(try await ids(Volume.keys.printedAt.beginsWith("2024-")) == ["v1", "v3"])
    #expect(try await ids(Volume.keys.printedAt.contains("T08")) == ["v2"])
    #expect(try await ids(Volume.keys.opensAt.beginsWith("09:")) == ["v1"])
    #expect(try await ids(Volume.keys.publishedOn.notContains("-01-")) == ["v2", "v3"])
    // A single-field reference: ne matches the volumes without a library, eq(nil) only those.
    #expect(try await ids(Volume.keys.library.ne(main)) == ["v2", "v3"])
    #expect(try await ids(Volume.keys.library.eq(nil)) == ["v2"])
    #expect(try await ids(Volume.keys.library.ne(nil)) == ["v1", "v3"])
    // A composite reference (`shelfVolumesBuilding`, `shelfVolumesNumber`).
    #expect(try await ids(Volume.keys.shelf.eq(nil)) == ["v2"])
    #expect(try await ids(Volume.keys.shelf.ne(nil)) == ["v1", "v3"])
    #expect(try await ids(Volume.keys.shelf.ne(first)) == ["v2", "v3"])
    #expect(try await ids(Volume.keys.shelf.ne(Shelf.Identifier(building: "A", number: 2))) == ["v1", "v2"])
  }

  /// The API provider's filters for the same predicates: a composite reference's `eq(nil)` is
  /// "any target name missing", `ne(nil)` "every one present", `ne` is `not` of the key equality.
  @Test func predicatesBecomeAppSyncFilters() throws {
    #expect(
      try GraphQLFilter.from(Volume.keys.shelf.eq(nil))?.value
        == .object([
          "or": .list([
            .object(["shelfVolumesBuilding": .object(["attributeExists": .bool(false)])]),
            .object(["shelfVolumesNumber": .object(["attributeExists": .bool(false)])]),
          ])
        ]))
    #expect(
      try GraphQLFilter.from(Volume.keys.shelf.ne(nil))?.value
        == .object([
          "and": .list([
            .object(["shelfVolumesBuilding": .object(["attributeExists": .bool(true)])]),
            .object(["shelfVolumesNumber": .object(["attributeExists": .bool(true)])]),
          ])
        ]))
    #expect(
      try GraphQLFilter.from(Volume.keys.library.ne(Library(id: "L1", name: "x")))?.value
        == .object(["not": .object(["libraryVolumesId": .object(["eq": .string("L1")])])]))
    #expect(
      try GraphQLFilter.from(Volume.keys.genres.contains(.scifi))?.value
        == .object(["genres": .object(["contains": .string("SCIFI")])]))
  }

  /// The operators AppSync's inputs have compile; the ones they lack (or that never match) do not.
  @Test func onlyTheFilterInputsOperatorsCompile() async throws {
    try await TypeCheck.expectAccepted(
      """
      import LazyModel
      import RegressionKeyOperatorsRejectValidAppsyncFilters
      let shelf = Shelf(building: "A", number: 1)
      let predicates: [QueryPredicate<Volume>] = [
        Volume.keys.genres.contains(.scifi), Volume.keys.genres.notContains(.fantasy),
        Volume.keys.moods.contains(.scifi), Volume.keys.tags.contains("a"), Volume.keys.editions.contains("2024"),
        Volume.keys.publishedOn.beginsWith("2024"), Volume.keys.printedAt.beginsWith("2024"),
        Volume.keys.printedAt.contains("T"), Volume.keys.opensAt.notContains("9"),
        Volume.keys.shelf.ne(shelf), Volume.keys.shelf.eq(nil), Volume.keys.library.ne(nil),
        Volume.keys.shelf.ne(Shelf.Identifier(building: "A", number: 1)), Volume.keys.title.beginsWith("D"),
      ]
      """)

    let rejectedLines: [(line: String, error: String)] = [
      (
        "let a = Volume.keys.counts.contains(1)",
        "instance method 'contains' requires that 'Int' conform to 'RawRepresentable'"
      ),
      ("let b = Volume.keys.tags.beginsWith(\"a\")", "no exact matches in call to instance method 'beginsWith'"),
      (
        "let c = Volume.keys.genres.contains(\"SCIFI\")",
        "cannot convert value of type 'String' to expected argument type 'Genre'"
      ),
      (
        "let d = Volume.keys.genres.beginsWith(\"S\")",
        "referencing instance method 'beginsWith' on 'ModelFieldKey' requires that '[Genre]' conform to 'StringFilterable'"
      ),
      (
        "let e = Volume.keys.printedAt.eq(nil)",
        "'nil' is not compatible with expected argument type 'Temporal.DateTime'"
      ),
      (
        "let f = Volume.keys.shelf.ne(\"A\")",
        "cannot convert value of type 'String' to expected argument type 'Shelf.Identifier'"
      ),
    ]
    try await TypeCheck.expectEachLineRejected(
      prelude: ["import LazyModel", "import RegressionKeyOperatorsRejectValidAppsyncFilters"], rejectedLines)
  }
}
