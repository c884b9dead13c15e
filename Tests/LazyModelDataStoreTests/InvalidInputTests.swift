import CompositeKeyHasManyModels
import ForeignKeysWithoutBelongsToModels
import Foundation
import HasManyImplicitModels
import LazyModel
import LazyModelDataStore
import RegressionReferencesHasOneHasMany
import SeedPostCommentModels
import Testing

@Suite("Invalid input: typed errors before any SQL writes")
struct InvalidInputTests {
  /// The INSERT statements `log` saw (none may run for a rejected save).
  private func inserts(_ log: SQLLog) -> [String] {
    log.queries.filter { $0.hasPrefix("INSERT") }
  }

  @Test(
    "NaN and infinity are typed errors naming model, field path and value; nothing is written",
    arguments: StoreLocation.allCases)
  func nonFiniteNumbers(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: foreignKeyRegistry)
    let cases: [(Writer, String, String)] = [
      (Writer(id: "w", name: "n", rating: .nan), "rating", "nan"),
      (Writer(id: "w", name: "n", rating: .infinity), "rating", "inf"),
      (Writer(id: "w", name: "n", rating: 1, bonus: .nan), "bonus", "nan"),
      (Writer(id: "w", name: "n", rating: 1, bonus: -.infinity), "bonus", "-inf"),
      (Writer(id: "w", name: "n", rating: 1, scores: [1, 2, .nan]), "scores[2]", "nan"),
      (Writer(id: "w", name: "n", rating: 1, scores: [-.infinity]), "scores[0]", "-inf"),
      (Writer(id: "w", name: "n", rating: 1, origin: Point(x: .nan)), "origin.x", "nan"),
      (
        Writer(
          id: "w", name: "n", rating: 1, path: [Point(x: 1, y: 2), Point(x: 3, y: .infinity)]),
        "path[1].y", "inf"
      ),
    ]
    for (writer, field, value) in cases {
      log.clear()
      await #expect(
        throws: DataStoreError.nonFiniteNumber(model: "Writer", field: field, value: value)
      ) {
        try await store.save([Writer(id: "fine", name: "ok", rating: 1), writer])
      }
      #expect(inserts(log) == [], "\(field)")
    }
    #expect(try await store.count(Writer.self) == 0)
    #expect(
      DataStoreError.nonFiniteNumber(model: "Writer", field: "scores[2]", value: "nan").description
        == "cannot save Writer.scores[2] = nan: only finite numbers can be stored")

    // Finite extremes are stored and read back exactly.
    let extremes = Writer(
      id: "x", name: "n", rating: .greatestFiniteMagnitude, bonus: -0.0,
      scores: [.leastNonzeroMagnitude, -1e308], origin: Point(x: 1.5, y: nil),
      path: [Point(x: -2.25, y: 3)])
    try await store.save(extremes)
    let stored = try #require(try await store.query(Writer.self, byIdentifier: .init(id: "x")))
    #expect(stored.rating == .greatestFiniteMagnitude && stored.bonus == 0)
    #expect(stored.scores == [.leastNonzeroMagnitude, -1e308])
    #expect(stored.origin == Point(x: 1.5, y: nil) && stored.path == [Point(x: -2.25, y: 3)])
  }

  @Test(
    "a non-finite Float in other generated models: optional, and a composite key part",
    arguments: StoreLocation.allCases)
  func nonFiniteInOtherModels(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    // Before: an optional Float NaN was saved and read back as nil.
    await #expect(
      throws: DataStoreError.nonFiniteNumber(model: "Order", field: "total", value: "nan")
    ) {
      try await store.save(Order(id: "o", total: .nan))
    }
    // Before: a required Float NaN reached SQLite as NULL ("NOT NULL constraint failed").
    let reading = Reading(
      id: "r", takenAt: RelationshipShapeTests.takenAt, day: RelationshipShapeTests.day,
      time: RelationshipShapeTests.time, seq: 1, priority: .low, value: .nan, flagged: false)
    await #expect(
      throws: DataStoreError.nonFiniteNumber(model: "Reading", field: "value", value: "nan")
    ) {
      try await store.save(reading)
    }
    #expect(inserts(log) == [])
    #expect(try await store.count(Order.self) == 0)
    #expect(try await store.count(Reading.self) == 0)
  }

  @Test(
    "a NaN or infinite number in a predicate is a typed error, not a silent NULL comparison",
    arguments: StoreLocation.allCases)
  func nonFinitePredicates(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    try await store.save(Order(id: "o", total: 1))
    log.clear()
    await #expect(
      throws: DataStoreError.invalidPredicate(
        model: "Order", field: "total", reason: "nan is not a finite number")
    ) {
      _ = try await store.query(Order.self, where: Order.keys.total.eq(Double.nan))
    }
    await #expect(
      throws: DataStoreError.invalidPredicate(
        model: "Order", field: "total", reason: "inf is not a finite number")
    ) {
      _ = try await store.count(Order.self, where: Order.keys.total.between(0.0, Double.infinity))
    }
    await #expect(
      throws: DataStoreError.invalidPredicate(
        model: "Order", field: "total", reason: "-inf is not a finite number")
    ) {
      _ = try await store.delete(Order.self, where: Order.keys.total.gt(-Double.infinity))
    }
    #expect(log.queries == [])
    #expect(try await store.query(Order.self, where: Order.keys.total.lt(2.0)).map(\.id) == ["o"])
  }

  @Test(
    "negative limit or offset and page sizes below 1 are typed errors naming the argument",
    arguments: StoreLocation.allCases)
  func invalidArguments(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: seedRegistry)
    try await store.save(Post4V2(id: "p", title: "t"))
    log.clear()
    await #expect(
      throws: DataStoreError.invalidArgument(
        name: "limit", value: -1, reason: "must not be negative")
    ) {
      _ = try await store.query(Post4V2.self, limit: -1, offset: -5)
    }
    await #expect(
      throws: DataStoreError.invalidArgument(
        name: "offset", value: -5, reason: "must not be negative")
    ) {
      _ = try await store.query(Post4V2.self, offset: -5)
    }
    await #expect(
      throws: DataStoreError.invalidArgument(
        name: "offset", value: -1, reason: "must not be negative")
    ) {
      _ = try await store.query(Post4V2.self, limit: 3, offset: -1)
    }
    #expect(log.queries == [])
    #expect(try await store.query(Post4V2.self, limit: 0).isEmpty)
    #expect(try await store.query(Post4V2.self, limit: 1, offset: 0).map(\.id) == ["p"])
    #expect(
      log.queries.last
        == #"SELECT "id", "title", "createdAt", "updatedAt" FROM "Post4V2" LIMIT ? OFFSET ?"#)

    let provider = DataStoreListProvider<Comment4V2>(
      store: store, associatedFields: ["postID"], associatedIdentifiers: [.string("p")])
    for limit in [0, -3] {
      await #expect(
        throws: DataStoreError.invalidArgument(
          name: "limit", value: limit, reason: "must be at least 1")
      ) {
        _ = try await provider.loadPage(after: nil, limit: limit)
      }
    }
    #expect(try await provider.loadPage(after: nil, limit: 1).elements.isEmpty)

    for size in [0, -1] {
      #expect(
        throws: DataStoreError.invalidArgument(
          name: "listPageSize", value: size, reason: "must be at least 1")
      ) {
        _ = try makeStore(location, registry: seedRegistry, listPageSize: size)
      }
    }
    #expect(
      DataStoreError.invalidArgument(name: "limit", value: -1, reason: "must not be negative")
        .description == "invalid argument limit = -1: must not be negative")
  }

  @Test(
    "a nil key field and values of the wrong storage class are typed errors, never SQLite's",
    arguments: StoreLocation.allCases)
  func storageMismatches(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: foreignKeyRegistry)
    // STRICT tables make key columns NOT NULL: SQLite would say "NOT NULL constraint failed: Draft.id".
    await #expect(throws: DataStoreError.missingRequiredField(model: "Draft", field: "id")) {
      try await store.save(LooseDraft(id: nil, title: "t"))
    }
    await #expect(throws: DataStoreError.missingRequiredField(model: "Draft", field: "title")) {
      try await store.save(LooseDraft(id: "d", title: nil))
    }
    // SQLite would silently store the integer 12 as the text "12".
    await #expect(
      throws: DataStoreError.encodingFailed(
        model: "Draft", field: "writerId", reason: "INTEGER value for the TEXT column writerId")
    ) {
      try await store.save(LooseDraft(id: "d", title: "t", writerId: 12))
    }
    // SQLite would reject "twelve" ("cannot store TEXT value in INTEGER column Item.shelfItemsNumber")
    // and silently turn "12" into 12.
    for number in ["twelve", "12"] {
      await #expect(
        throws: DataStoreError.encodingFailed(
          model: "Item", field: "shelfItemsNumber",
          reason: "TEXT value for the INTEGER column shelfItemsNumber")
      ) {
        try await store.save(LooseItem(id: "i", shelfItemsNumber: number))
      }
    }
    #expect(inserts(log) == [])
    #expect(try await store.count(Draft.self) == 0)
    #expect(try await store.count(Item.self) == 0)
  }

  @Test("a unique index added to the file is a typed error naming the fields and identifiers")
  func uniqueIndexViolation() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: foreignKeyRegistry)
    try executeRaw(
      #"CREATE UNIQUE INDEX "Draft_unique_title" ON "Draft" ("title", "writerId")"#, on: url)
    try await store.save(Draft(id: "d1", title: "same", writerId: "w"))
    await #expect(
      throws: DataStoreError.uniqueConstraintViolation(
        model: "Draft", fields: ["title", "writerId"],
        identifiers: [IdentifierComponent(name: "id", value: .string("d2"))])
    ) {
      try await store.save([
        Draft(id: "d3", title: "other", writerId: "w"),
        Draft(id: "d2", title: "same", writerId: "w"),
      ])
    }
    #expect(try await store.query(Draft.self).map(\.id) == ["d1"])
    // Saving the stored row again updates it in place (the primary key never conflicts).
    try await store.save(Draft(id: "d1", title: "same", writerId: "w"))
    #expect(try await store.count(Draft.self) == 1)
  }
}

/// A `Draft` whose fields may be nil or of the wrong Swift type, stored under `Draft`'s schema (to
/// reach the store's checks without writing an invalid generated model by hand).
struct LooseDraft: Model {
  var id: String?
  var title: String?
  var writerId: Int?
  var createdAt: Temporal.DateTime?
  var updatedAt: Temporal.DateTime?

  init(id: String?, title: String?, writerId: Int? = nil) {
    self.id = id
    self.title = title
    self.writerId = writerId
  }

  typealias CodingKeys = Draft.CodingKeys
  typealias Identifier = Draft.Identifier
  var identifier: Identifier { Identifier(id: id ?? "") }
  static var schema: ModelSchema { Draft.schema }
}

/// An `Item` whose implicit FK `shelfItemsNumber` (an `Int`) is given as text.
struct LooseItem: Model {
  var id: String
  var label: String?
  var shelfItemsRoom: String?
  var shelfItemsNumber: String?
  var createdAt: Temporal.DateTime?
  var updatedAt: Temporal.DateTime?

  init(id: String, shelfItemsNumber: String) {
    self.id = id
    self.shelfItemsNumber = shelfItemsNumber
  }

  typealias CodingKeys = Item.CodingKeys
  typealias Identifier = Item.Identifier
  var identifier: Identifier { Identifier(id: id) }
  static var schema: ModelSchema { Item.schema }
}
