import CompositeKeyHasManyModels
import Foundation
import LazyModel
import LazyModelDataStore
import RegressionHasOneBelongsToCompositeKeys
import RegressionReferencesHasOneHasMany
import SeedPostCommentModels
import SwiftKeywordsModels
import Testing

@Suite("Typed predicates, sort, limit, offset")
struct QueryTests {
  /// Readings with seq 1…6, values 0.5…3.0, alternating priority and flag, notes "n1"… (n3 nil).
  static func seeded(_ location: StoreLocation) async throws -> (DataStore, SQLLog) {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    let takenAt = try Temporal.DateTime(iso8601String: "2026-01-01T00:00:00Z")
    let day = try Temporal.Date(iso8601String: "2026-01-01")
    let time = try Temporal.Time(iso8601String: "00:00")
    try await store.save(
      (1...6).map { seq in
        Reading(
          id: "r\(seq)", takenAt: takenAt, day: day, time: time, seq: seq,
          priority: seq.isMultiple(of: 2) ? .high : .low,
          value: Double(seq) / 2, flagged: seq.isMultiple(of: 2),
          note: seq == 3 ? nil : "note \(seq)")
      })
    log.clear()
    return (store, log)
  }

  func ids(_ store: DataStore, _ predicate: QueryPredicate<Reading>) async throws -> [String] {
    try await store.query(Reading.self, where: predicate, sort: [.ascending(Reading.keys.seq)]).map(
      \.id)
  }

  @Test("every operator on every kind of value", arguments: StoreLocation.allCases)
  func operators(_ location: StoreLocation) async throws {
    let (store, _) = try await Self.seeded(location)
    let keys = Reading.keys
    #expect(try await ids(store, keys.seq.eq(2)) == ["r2"])
    #expect(try await ids(store, keys.seq.ne(2)) == ["r1", "r3", "r4", "r5", "r6"])
    #expect(try await ids(store, keys.note.ne("note 1")) == ["r2", "r3", "r4", "r5", "r6"])
    #expect(try await ids(store, keys.seq.lt(3)) == ["r1", "r2"])
    #expect(try await ids(store, keys.seq.le(3)) == ["r1", "r2", "r3"])
    #expect(try await ids(store, keys.value.gt(2.5)) == ["r6"])
    #expect(try await ids(store, keys.value.ge(2.5)) == ["r5", "r6"])
    #expect(try await ids(store, keys.value.between(1.0, 2.0)) == ["r2", "r3", "r4"])
    #expect(try await ids(store, keys.note.beginsWith("note 1")) == ["r1"])
    #expect(try await ids(store, keys.note.contains("te 5")) == ["r5"])
    #expect(try await ids(store, keys.note.notContains("5")) == ["r1", "r2", "r3", "r4", "r6"])
    #expect(try await ids(store, keys.note.isNil()) == ["r3"])
    #expect(try await ids(store, keys.note.isNotNil()).count == 5)
    #expect(try await ids(store, keys.flagged.eq(true)) == ["r2", "r4", "r6"])
    #expect(try await ids(store, keys.priority.eq(Priority.low)) == ["r1", "r3", "r5"])
    #expect(try await ids(store, keys.id.beginsWith("R")) == [])
  }

  @Test("beginsWith compares bytes: NUL characters, accents, emoji", arguments: StoreLocation.allCases)
  func beginsWithBytes(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    let takenAt = try Temporal.DateTime(iso8601String: "2026-01-01T00:00:00Z")
    let day = try Temporal.Date(iso8601String: "2026-01-01")
    let time = try Temporal.Time(iso8601String: "00:00")
    let notes: [String?] = [
      "a\u{0}b1", "a\u{0}b2", "a\u{0}c", "ab", "\u{E9}t\u{E9}", "e\u{301}t\u{E9}", "🦊 fox", "", nil,
    ]
    try await store.save(
      notes.enumerated().map { seq, note in
        Reading(
          id: "r\(seq)", takenAt: takenAt, day: day, time: time, seq: seq, priority: .low,
          value: 1, flagged: false, note: note)
      })
    func matching(_ prefix: String) async throws -> [String] {
      try await store.query(
        Reading.self, where: Reading.keys.note.beginsWith(prefix), sort: [.ascending(Reading.keys.seq)]
      ).map(\.id)
    }
    #expect(try await matching("a\u{0}b") == ["r0", "r1"])
    #expect(try await matching("a\u{0}") == ["r0", "r1", "r2"])
    #expect(try await matching("a") == ["r0", "r1", "r2", "r3"])
    // Precomposed and decomposed accents are different bytes, as in every other comparison.
    #expect(try await matching("\u{E9}") == ["r4"])
    #expect(try await matching("e\u{301}") == ["r5"])
    #expect(try await matching("🦊") == ["r6"])
    // Every value begins with "", the empty one too; a NULL note is no value.
    #expect(try await matching("") == ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"])
  }

  @Test(
    "a NULL field: ne, notContains and !p match it, as AppSync's filters do",
    arguments: StoreLocation.allCases)
  func nullFields(_ location: StoreLocation) async throws {
    let (store, _) = try await Self.seeded(location)  // r3's note is nil
    let keys = Reading.keys
    #expect(try await ids(store, keys.note.ne("note 1")) == ["r2", "r3", "r4", "r5", "r6"])
    #expect(try await ids(store, !keys.note.eq("note 1")) == ["r2", "r3", "r4", "r5", "r6"])
    #expect(try await ids(store, !keys.note.beginsWith("note")) == ["r3"])
    #expect(try await ids(store, !keys.note.contains("1")) == ["r2", "r3", "r4", "r5", "r6"])
    #expect(try await ids(store, keys.note.notContains("1")) == ["r2", "r3", "r4", "r5", "r6"])
    #expect(try await ids(store, !keys.note.gt("note 4")) == ["r1", "r2", "r3", "r4"])
    #expect(try await ids(store, !(!keys.note.eq("note 1"))) == ["r1"])
    #expect(try await ids(store, keys.note.beginsWith("")) == ["r1", "r2", "r4", "r5", "r6"])
  }

  /// The same predicates and rows as `LazyModelAPITests.NullFilterTests` (against the local
  /// AppSync-compatible server): both providers select the same models.
  @Test("filters on a null field select what the API selects", arguments: StoreLocation.allCases)
  func nullFieldsLikeTheAPI(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: SwiftKeywordsModels.Models.registry)
    for (key, value) in [("n", nil), ("a", "abc"), ("e", "")] as [(String, String?)] {
      try await store.save(SelfType(default: key, for: "x", identifierValue: value))
    }
    let value = SelfType.keys.identifierValue
    let expected: [(String, QueryPredicate<SelfType>, [String])] = [
      ("ne", value.ne("abc"), ["e", "n"]),
      ("!eq", !value.eq("abc"), ["e", "n"]),
      ("notContains", value.notContains("z"), ["a", "e", "n"]),
      ("!beginsWith", !value.beginsWith("a"), ["e", "n"]),
      ("beginsWith empty", value.beginsWith(""), ["a", "e"]),
      ("contains", value.contains("b"), ["a"]),
      ("empty or", .or([]), []),
      ("not empty or", !.or([]), ["a", "e", "n"]),
      ("empty and", .and([]), ["a", "e", "n"]),
      ("value or empty or", value.eq("abc") || .or([]), ["a"]),
    ]
    for (name, predicate, ids) in expected {
      #expect(
        try await store.query(SelfType.self, where: predicate).map(\.default).sorted() == ids,
        "\(name)")
    }
  }

  @Test("and, or, not, and the SQL sent", arguments: StoreLocation.allCases)
  func combinators(_ location: StoreLocation) async throws {
    let (store, log) = try await Self.seeded(location)
    let keys = Reading.keys
    let predicate =
      (keys.seq.gt(1) && keys.flagged.eq(false)) || !keys.note.isNotNil() || .not(.or([]))
    #expect(try await ids(store, predicate) == ["r1", "r2", "r3", "r4", "r5", "r6"])
    #expect(
      try await ids(store, (keys.seq.gt(1) && keys.flagged.eq(false)) || keys.seq.eq(6)) == [
        "r3", "r5", "r6",
      ])
    #expect(try await ids(store, .and([])).count == 6)
    #expect(try await ids(store, .or([])) == [])
    log.clear()
    _ = try await ids(store, keys.note.beginsWith("n") && !keys.seq.between(2, 4))
    #expect(
      log.queries == [
        #"SELECT "id", "takenAt", "day", "time", "seq", "priority", "value", "flagged", "note", "createdAt", "updatedAt" FROM "Reading" WHERE (substr(CAST("note" AS BLOB), 1, length(CAST(? AS BLOB))) = CAST(? AS BLOB) AND NOT IFNULL("seq" BETWEEN ? AND ?, 0)) ORDER BY "seq" ASC"#
      ])
  }

  @Test("sort, limit and offset", arguments: StoreLocation.allCases)
  func sortLimitOffset(_ location: StoreLocation) async throws {
    let (store, log) = try await Self.seeded(location)
    let page = try await store.query(
      Reading.self, sort: [.descending(Reading.keys.flagged), .ascending(Reading.keys.value)],
      limit: 2, offset: 1)
    #expect(page.map(\.id) == ["r4", "r6"])
    #expect(
      log.queries.last?.hasSuffix(#"ORDER BY "flagged" DESC, "value" ASC LIMIT ? OFFSET ?"#) == true
    )
    #expect(
      try await store.query(Reading.self, sort: [.ascending(Reading.keys.seq)], offset: 4).map(\.id)
        == ["r5", "r6"])
  }

  @Test("a belongsTo field in a predicate means its FK columns", arguments: StoreLocation.allCases)
  func belongsToPredicate(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    let apollo = Project(projectId: "p1", name: "Apollo")
    let gemini = Project(projectId: "p1", name: "Gemini")
    try await store.save([apollo, gemini])
    try await store.save([
      Team(teamId: "t1", name: "A", project: apollo),
      Team(teamId: "t2", name: "G", project: gemini),
    ])
    log.clear()
    let teams = try await store.query(Team.self, where: Team.keys.project.eq(gemini.identifier))
    #expect(teams.map(\.teamId) == ["t2"])
    #expect(
      log.queries == [
        #"SELECT "teamId", "name", "teamProjectProjectId", "teamProjectName", "createdAt", "updatedAt" FROM "Team" WHERE ("teamProjectProjectId" = ? AND "teamProjectName" = ?)"#
      ])

    let (seedStore, _) = try makeStore(location, registry: seedRegistry)
    let post = Post4V2(id: "p", title: "t")
    try await seedStore.save(post)
    try await seedStore.save([
      Comment4V2(id: "a", content: "x", post: post), Comment4V2(id: "b", content: "y", post: nil),
    ])
    #expect(
      try await seedStore.query(Comment4V2.self, where: Comment4V2.keys.post.eq(Post4V2.Identifier(id: "p"))).map(\.id)
        == [
          "a"
        ])
    #expect(
      try await seedStore.query(Comment4V2.self, where: Comment4V2.keys.post.isNil()).map(\.id) == [
        "b"
      ])
  }

  @Test("bad predicates are typed errors", arguments: StoreLocation.allCases)
  func badPredicates(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    await #expect(throws: DataStoreError.unknownField(model: "Team", field: "nope")) {
      try await store.query(Team.self, where: .init(unchecked: .field("nope", .eq(.int(1)))))
    }
    await #expect(throws: DataStoreError.self) {
      try await store.query(Team.self, where: .init(unchecked: .field("project", .eq(.string("only one value")))))
    }
    await #expect(throws: DataStoreError.self) {
      try await store.query(Team.self, where: .init(unchecked: .field("project", .references([.string("p1")]))))
    }
    // `eq(nil)` on a composite reference is valid (any FK column NULL: it points at nothing; the
    // rows it selects are pinned by GeneratedModelsTests.ValidFilterKeysTests); the store is empty.
    #expect(try await store.query(Project.self, where: .init(unchecked: .field("team", .eq(nil)))).isEmpty)
    await #expect(throws: DataStoreError.self) {
      try await store.query(Customer.self, where: .init(unchecked: .field("orders", .eq(nil))))
    }
    await #expect(throws: DataStoreError.unknownField(model: "Team", field: "nope")) {
      try await store.query(Team.self, sort: [QuerySort(unchecked: "nope", ascending: true)])
    }
  }

  @Test("delete by predicate and by identifier", arguments: StoreLocation.allCases)
  func deleteByPredicate(_ location: StoreLocation) async throws {
    let (store, _) = try await Self.seeded(location)
    #expect(try await store.delete(Reading.self, where: Reading.keys.flagged.eq(true)) == 3)
    #expect(try await ids(store, .all) == ["r1", "r3", "r5"])
    let first = try #require(
      try await store.query(Reading.self, where: Reading.keys.id.eq("r1")).first)
    #expect(try await store.delete(first))
    #expect(try await store.delete(first) == false)
    #expect(try await store.count(Reading.self) == 2)
  }
}
