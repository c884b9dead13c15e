import CSQLite
import Foundation
import LazyModel
import LazyModelDataStore
import Testing

@testable import RegressionBelongsToFkIsPrimaryKeyField

/// `Schemas/regressions/belongs-to-fk-is-primary-key-field.graphql` (issue 11): `Comment.postID` is
/// the partition key and the FK of `Comment.post`. The table has the column once, and the store
/// opens, round-trips, loads both directions and cascades.
@Suite("A primary-key field that is also the @belongsTo FK")
struct KeyIsForeignKeyTests {
  typealias Post = RegressionBelongsToFkIsPrimaryKeyField.Post
  typealias Comment = RegressionBelongsToFkIsPrimaryKeyField.Comment

  @Test("the column is made once, with its key, FK and index roles", arguments: StoreLocation.allCases)
  func oneColumn(_ location: StoreLocation) async throws {
    let url = try temporaryFileURL()
    let store =
      location == .file
      ? try DataStore(fileURL: url, registry: Models.registry)
      : try DataStore.inMemory(registry: Models.registry)
    let post = Post(id: "p1", title: "Hello")
    try await store.save(post)
    try await store.save(Comment(postID: "p1", n: 2, text: "second"))
    try await store.save(Comment(postID: "p1", n: 1, text: "first"))

    let comment = try #require(
      try await store.query(Comment.self, byIdentifier: .init(postID: "p1", n: 1)))
    #expect(comment.text == "first")
    #expect(comment.postReference.identifiers == [IdentifierComponent(name: "id", value: .string("p1"))])
    #expect(try await comment.post?.title == "Hello")
    let loaded = try #require(try await store.query(Post.self, byIdentifier: .init(id: "p1")))
    let list = try #require(loaded.comments)
    #expect(try await list.fetch().map(\.n) == [1, 2])
    #expect(
      try await store.query(Comment.self, where: Comment.keys.post.eq(Post.Identifier(id: "p1"))).map(\.n).sorted()
        == [1, 2])

    try await store.delete(post)
    #expect(try await store.count(Comment.self) == 0)
    if location == .file {
      #expect(try columnNames(of: "Comment", in: url) == ["postID", "n", "text", "createdAt", "updatedAt"])
    }
  }

  @Test("a comment of a missing post is a foreignKeyViolation naming post and its key")
  func missingParent() async throws {
    let store = try DataStore(fileURL: try temporaryFileURL(), registry: Models.registry)
    await #expect(
      throws: DataStoreError.foreignKeyViolation(
        model: "Comment", field: "post", identifiers: [IdentifierComponent(name: "id", value: .string("nope"))])
    ) {
      _ = try await store.save(Comment(postID: "nope", n: 1))
    }
    #expect(try await store.count(Comment.self) == 0)
  }
}

/// The column names of `table` in the SQLite file at `url`, in table order.
func columnNames(of table: String, in url: URL) throws -> [String] {
  var db: OpaquePointer?
  guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
    throw DataStoreError.sqlite(code: 0, message: "cannot open \(url.path)", sql: nil)
  }
  defer { sqlite3_close_v2(db) }
  var statement: OpaquePointer?
  sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?)", -1, &statement, nil)
  defer { sqlite3_finalize(statement) }
  sqlite3_bind_text(statement, 1, table, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
  var names: [String] = []
  while sqlite3_step(statement) == SQLITE_ROW {
    names.append(String(cString: sqlite3_column_text(statement, 0)))
  }
  return names
}
