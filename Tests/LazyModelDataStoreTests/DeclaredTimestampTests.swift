import Foundation
import LazyModel
import LazyModelDataStore
import RegressionDeclaredTimestampsReplacedOnSave
import Testing

/// `Schemas/regressions/declared-timestamps-replaced-on-save.graphql` on a real SQLite file: a
/// timestamp field the model declares itself is the caller's (stored as given, on insert and on
/// update, filled only when nil; a nil `createdAt` on update keeps the stored one), and the
/// implicit ones keep the store's rules. Each save is read back from a second store opened on the
/// same file, so the values are the ones on disk, not the returned model's.
@Suite("DataStore: declared timestamps are the caller's")
struct DeclaredTimestampTests {
  private typealias Book = RegressionDeclaredTimestampsReplacedOnSave.Book
  private typealias Post = RegressionDeclaredTimestampsReplacedOnSave.Post
  private typealias Note = RegressionDeclaredTimestampsReplacedOnSave.Note
  private typealias Memo = RegressionDeclaredTimestampsReplacedOnSave.Memo
  private typealias Draft = RegressionDeclaredTimestampsReplacedOnSave.Draft

  private static let registry = RegressionDeclaredTimestampsReplacedOnSave.Models.registry
  private static let y2001 = try! Temporal.DateTime(iso8601String: "2001-01-01T00:00:00.000Z")
  private static let y2002 = try! Temporal.DateTime(iso8601String: "2002-02-02T00:00:00.000Z")

  /// A store on a fresh file, and a function that opens a second store on it.
  private func fileStores() throws -> (DataStore, @Sendable () throws -> DataStore, SQLLog) {
    let url = try temporaryFileURL()
    let log = SQLLog()
    let store = try DataStore(fileURL: url, registry: Self.registry, traceSQL: log.hook)
    return (store, { try DataStore(fileURL: url, registry: Self.registry) }, log)
  }

  /// The instant just before a save, truncated to the millisecond the store records.
  private func now() throws -> Temporal.DateTime {
    let milliseconds = (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000
    return try Temporal.DateTime(Date(timeIntervalSince1970: milliseconds))
  }

  @Test func aDeclaredUpdatedAtIsStoredAsGivenAndFilledOnlyWhenNil() async throws {
    let (store, reopen, _) = try fileStores()
    let saved = try await store.save(Book(isbn: "978", title: "Dune", updatedAt: Self.y2001))
    #expect(saved.updatedAt == Self.y2001, "the save returns the given updatedAt")
    let read = try #require(try await reopen().query(Book.self, byIdentifier: .init(isbn: "978")))
    #expect(read.updatedAt == Self.y2001, "stored as given, not replaced by the save's instant")
    let createdAt = try #require(read.createdAt, "the implicit createdAt is set on insert")

    var book = read
    book.title = "Dune II"
    book.updatedAt = Self.y2002
    #expect(try await store.save(book).updatedAt == Self.y2002)
    let updated = try #require(try await reopen().query(Book.self, byIdentifier: .init(isbn: "978")))
    #expect(updated.updatedAt == Self.y2002, "an update stores the given value too")
    #expect(updated.title == "Dune II")
    #expect(updated.createdAt == createdAt, "the implicit createdAt is kept on update")

    book.updatedAt = nil
    let before = try now()
    let filled = try #require(try await store.save(book).updatedAt)
    #expect(filled >= before, "a nil declared updatedAt takes the save's instant")
    let stored = try #require(try await reopen().query(Book.self, byIdentifier: .init(isbn: "978")))
    #expect(stored.updatedAt == filled)
    let inserted = try #require(try await store.save(Book(isbn: "979", title: nil)).updatedAt)
    #expect(inserted >= before, "and so does an insert without one")
  }

  @Test func aDeclaredCreatedAtChangedOnUpdateIsStoredAndANilOneKeepsTheStoredValue() async throws {
    let (store, reopen, log) = try fileStores()
    var post = Post(id: "p1", title: "first", createdAt: Self.y2001)
    #expect(try await store.save(post).createdAt == Self.y2001)
    post.createdAt = Self.y2002
    post.title = "second"
    let saved = try await store.save(post)
    #expect(saved.createdAt == Self.y2002, "the update's returned model holds the new createdAt")
    let read = try #require(try await reopen().query(Post.self, byIdentifier: .init(id: "p1")))
    #expect(read.createdAt == Self.y2002, "an update writes the changed createdAt")
    #expect(read.title == "second")
    let implicitUpdatedAt = try #require(read.updatedAt, "the implicit updatedAt is set")

    post.createdAt = nil
    post.title = "third"
    let kept = try await store.save(post)
    #expect(kept.createdAt == Self.y2002, "an update leaving createdAt nil returns the stored one")
    let stored = try #require(try await reopen().query(Post.self, byIdentifier: .init(id: "p1")))
    #expect(stored.createdAt == Self.y2002, "and keeps it")
    #expect(stored.title == "third")
    #expect(try #require(stored.updatedAt) >= implicitUpdatedAt)

    let before = try now()
    let inserted = try #require(try await store.save(Post(id: "p2", title: "new")).createdAt)
    #expect(inserted >= before, "an insert without createdAt takes the save's instant")
    #expect(
      log.all.contains(
        "INSERT INTO \"Post\" (\"id\", \"title\", \"createdAt\", \"updatedAt\") VALUES (?, ?, ?, ?)"
          + " ON CONFLICT (\"id\") DO UPDATE SET \"title\" = excluded.\"title\","
          + " \"createdAt\" = COALESCE(?5, \"createdAt\"), \"updatedAt\" = excluded.\"updatedAt\""),
      "the upsert keeps the stored createdAt only when the save gives none: \(log.all)")
  }

  @Test func renamedTimestampsFollowTheSameRulesDeclaredOrImplicit() async throws {
    let (store, reopen, _) = try fileStores()
    // Both declared (`made`, `changed`).
    var note = Note(id: "n1", text: "a", made: Self.y2001, changed: Self.y2001)
    try await store.save(note)
    note.made = Self.y2002
    note.changed = Self.y2002
    try await store.save(note)
    let read = try #require(try await reopen().query(Note.self, byIdentifier: .init(id: "n1")))
    #expect(read.made == Self.y2002)
    #expect(read.changed == Self.y2002)
    note.made = nil
    note.changed = nil
    let before = try now()
    try await store.save(note)
    let filled = try #require(try await reopen().query(Note.self, byIdentifier: .init(id: "n1")))
    #expect(filled.made == Self.y2002, "a nil made keeps the stored one")
    #expect(try #require(filled.changed) >= before, "a nil changed takes the save's instant")

    // `made` declared, `changed` implicit: read-only, set by every save.
    #expect(Memo.schema.field(named: "changed")?.isReadOnly == true)
    var memo = Memo(id: "m1", text: "a", made: Self.y2001)
    let first = try await store.save(memo)
    #expect(first.made == Self.y2001)
    let firstChanged = try #require(first.changed)
    try await Task.sleep(for: .milliseconds(3))
    memo.made = Self.y2002
    try await store.save(memo)
    let memoRead = try #require(try await reopen().query(Memo.self, byIdentifier: .init(id: "m1")))
    #expect(memoRead.made == Self.y2002)
    #expect(try #require(memoRead.changed) > firstChanged, "the implicit changed is the later save's")
  }

  @Test func withTimestampsNullFieldsNamedCreatedAtAndUpdatedAtAreOrdinaryData() async throws {
    let (store, reopen, _) = try fileStores()
    #expect(Draft.schema.timestamps == ModelTimestampFields(createdAt: nil, updatedAt: nil))
    try await store.save(Draft(id: "d1", text: "a", createdAt: Self.y2001, updatedAt: Self.y2002))
    try await store.save(Draft(id: "d2", text: "b"))
    let given = try #require(try await reopen().query(Draft.self, byIdentifier: .init(id: "d1")))
    #expect(given.createdAt == Self.y2001)
    #expect(given.updatedAt == Self.y2002)
    let none = try #require(try await reopen().query(Draft.self, byIdentifier: .init(id: "d2")))
    #expect(none.createdAt == nil, "never filled")
    #expect(none.updatedAt == nil)
    var draft = given
    draft.createdAt = nil
    try await store.save(draft)
    let cleared = try #require(try await reopen().query(Draft.self, byIdentifier: .init(id: "d1")))
    #expect(cleared.createdAt == nil, "an ordinary field: nil is stored as nil")
  }
}
