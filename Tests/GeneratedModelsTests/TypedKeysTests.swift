import Foundation
import LazyModel
import LazyModelDataStore
import RegressionKeyPredicatesAcceptAnyValueType
import Testing

/// `Schemas/regressions/key-predicates-accept-any-value-type.graphql`: every generated key carries
/// its field's Swift type (`ModelFieldKey<Review, String>`), so a predicate with a value of the
/// wrong type does not compile, and the predicates that do compile build a `QueryPredicate<Review>`
/// wrapping the untyped `AnyQueryPredicate` the DataStore and the API read.
@Suite("Generated: typed keys")
struct TypedKeysTests {
  @Test func keysCarryTheFieldsSwiftTypes() {
    let title: ModelFieldKey<Review, String> = Review.keys.title
    let rating: ModelFieldKey<Review, Int?> = Review.keys.rating
    let status: ModelFieldKey<Review, ReviewStatus?> = Review.keys.status
    let shelf: ModelFieldKey<Review, Shelf?> = Review.keys.shelf
    let reviews: ModelAssociationKey<Shelf, Review> = Shelf.keys.reviews
    let tags: ModelFieldKey<Review, [String?]?> = Review.keys.tags
    #expect(
      [title.name, rating.name, status.name, shelf.name, reviews.name, tags.name]
        == ["title", "rating", "status", "shelf", "reviews", "tags"])
    #expect(Review.schema.primaryKey == ["id"])
    #expect(Shelf.schema.primaryKey == ["building", "number"])
  }

  @Test func typedPredicatesBuildTheSharedPredicateValues() throws {
    let published = try Temporal.DateTime(iso8601String: "2024-02-29T10:00:00Z")
    let shelf = Shelf(building: "A", number: 2)
    #expect(Review.keys.title.eq("Dune").untyped == .field("title", .eq(.string("Dune"))))
    #expect(Review.keys.title.beginsWith("Du").untyped == .field("title", .beginsWith("Du")))
    #expect(Review.keys.title.lt("M").untyped == .field("title", .lt(.string("M"))))
    #expect(Review.keys.rating.gt(3).untyped == .field("rating", .gt(.int(3))))
    #expect(Review.keys.rating.eq(nil).untyped == .field("rating", .eq(nil)))
    #expect(Review.keys.rating.ne(nil).untyped == .field("rating", .ne(nil)))
    #expect(Review.keys.rating.eq(4).untyped == .field("rating", .eq(.int(4))))
    #expect(Review.keys.score.between(1.5, 2.5).untyped == .field("score", .between(.double(1.5), .double(2.5))))
    #expect(Review.keys.pinned.eq(true).untyped == .field("pinned", .eq(.bool(true))))
    #expect(Review.keys.status.eq(.published).untyped == .field("status", .eq(.string("PUBLISHED"))))
    #expect(
      Review.keys.publishedAt.ge(published).untyped
        == .field("publishedAt", .ge(.string("2024-02-29T10:00:00Z"))))
    #expect(Review.keys.tags.contains("sf").untyped == .field("tags", .contains("sf")))
    #expect(Review.keys.shelf.eq(shelf).untyped == .field("shelf", .references([.string("A"), .int(2)])))
    #expect(
      Review.keys.shelf.eq(Shelf.Identifier(building: "B", number: 7)).untyped
        == .field("shelf", .references([.string("B"), .int(7)])))
    #expect(Shelf.keys.number.le(9).untyped == .field("number", .le(.int(9))))
  }

  @Test func typedPredicatesAndSortsQueryADataStore() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("TypedKeys-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try DataStore(
      fileURL: directory.appendingPathComponent("typed.sqlite"), registry: Models.registry)
    let near = Shelf(building: "A", number: 1)
    let far = Shelf(building: "A", number: 2)
    try await store.save([near, far])
    try await store.save([
      Review(id: "r1", title: "Dune", rating: 5, score: 4.5, status: .published, shelf: near),
      Review(id: "r2", title: "Dust", rating: nil, score: 2.0, status: .draft, shelf: far),
      Review(id: "r3", title: "Emma", rating: 3, score: 3.5, status: .published, shelf: near),
    ])

    let byShelf = try await store.query(
      Review.self, where: Review.keys.shelf.eq(near), sort: [.descending(Review.keys.score)])
    #expect(byShelf.map(\.id) == ["r1", "r3"])
    let unrated = try await store.query(Review.self, where: Review.keys.rating.eq(nil))
    #expect(unrated.map(\.id) == ["r2"])
    let published = try await store.query(
      Review.self,
      where: Review.keys.status.eq(.published) && Review.keys.title.beginsWith("D"))
    #expect(published.map(\.id) == ["r1"])
    let middle = try await store.query(
      Review.self, where: Review.keys.score.between(2.0, 4.0), sort: [.ascending(Review.keys.title)])
    #expect(middle.map(\.id) == ["r2", "r3"])
    let onFarShelf = try await store.query(
      Review.self, where: Review.keys.shelf.eq(Shelf.Identifier(building: "A", number: 2)))
    #expect(onFarShelf.map(\.title) == ["Dust"])
  }

  /// The wrong-typed predicates are compile errors: `swiftc -typecheck` against the built
  /// `LazyModel` and generated modules rejects each line of a snippet, and accepts the right-typed
  /// counterparts (so the check cannot pass by failing to run at all).
  @Test func wrongTypedPredicatesDoNotCompile() async throws {
    try await TypeCheck.expectAccepted(
      """
      import LazyModel
      import RegressionKeyPredicatesAcceptAnyValueType
      let shelf = Shelf(building: "A", number: 1)
      let predicates: [QueryPredicate<Review>] = [
        Review.keys.title.eq("x"), Review.keys.rating.gt(3), Review.keys.title.beginsWith("a"),
        Review.keys.status.eq(.draft), Review.keys.shelf.eq(shelf), Review.keys.rating.eq(nil),
        Review.keys.shelf.eq(Shelf.Identifier(building: "A", number: 1)),
      ]
      """)

    // Each wrong line, with the compiler's complaint about it (the type mismatch itself, never a
    // follow-on error).
    let rejectedLines: [(line: String, error: String)] = [
      ("let a = Review.keys.title.eq(42)", "cannot convert value of type 'Int' to expected argument type 'String'"),
      ("let b = Review.keys.rating.beginsWith(\"a\")", "no exact matches in call to instance method 'beginsWith'"),
      ("let c = Review.keys.pinned.lt(true)", "instance method 'lt' requires that 'Bool' conform to 'Comparable'"),
      (
        "let d = Review.keys.status.eq(\"PUBLISHED\")",
        "cannot convert value of type 'String' to expected argument type 'ReviewStatus'"
      ),
      (
        "let e = Review.keys.shelf.eq(\"A\")",
        "cannot convert value of type 'String' to expected argument type 'Shelf.Identifier'"
      ),
      (
        "let f = Review.keys.status.gt(.draft)",
        "instance method 'gt' requires that 'ReviewStatus' conform to 'Comparable'"
      ),
      ("let g = Review.keys.title.eq(nil)", "'nil' is not compatible with expected argument type 'String'"),
      (
        "let h = Review.keys.shelf.eq(Review(title: \"x\", score: 1))",
        "cannot convert value of type 'Review' to expected argument type 'Shelf.Identifier'"
      ),
    ]
    try await TypeCheck.expectEachLineRejected(
      prelude: ["import LazyModel", "import RegressionKeyPredicatesAcceptAnyValueType"], rejectedLines)
  }
}
