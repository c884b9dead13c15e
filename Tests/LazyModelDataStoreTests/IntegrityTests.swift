import Foundation
import LazyModel
import LazyModelDataStore
import RegressionHasManyExplicitFkIndex
import RegressionReferencesHasOneHasMany
import SeedPostCommentModels
import SelfAndOneToOneModels
import Testing

/// The indexed child of `Generated/regressions/has-many-explicit-fk-index`, not Testing's `Comment`.
private typealias Comment = RegressionHasManyExplicitFkIndex.Comment

@Suite("Keys, injection, integrity, cascade")
struct IntegrityTests {
  static let awkwardKeys = [
    "a#b", "a", "b#", "say \"hi\"", "it's", "x; DROP TABLE \"Post4V2\"; --", "🙂🧵", "", " ",
  ]

  @Test(
    "keys containing # \" ' ; emoji round-trip and never collide", arguments: StoreLocation.allCases
  )
  func awkwardKeysRoundTrip(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    // Amplify joins composite keys as "a"#"b": ("a#b", "c") and ("a", "b#c") would collide there.
    try await store.save(TodoTask(ownerId: "a#b", id: "c", title: "first"))
    try await store.save(TodoTask(ownerId: "a", id: "b#c", title: "second"))
    #expect(try await store.count(TodoTask.self) == 2)
    #expect(
      try await store.query(TodoTask.self, byIdentifier: .init(ownerId: "a#b", id: "c"))?.title
        == "first")
    #expect(
      try await store.query(TodoTask.self, byIdentifier: .init(ownerId: "a", id: "b#c"))?.title
        == "second")

    for key in Self.awkwardKeys {
      let post = Post(id: key, title: "title of \(key)")
      try await store.save(post)
      try await store.save(Comment(id: "comment-" + key, postID: key, content: key))
    }
    for key in Self.awkwardKeys {
      let post = try #require(try await store.query(Post.self, byIdentifier: .init(id: key)))
      #expect(post.title == "title of \(key)")
      #expect(try await post.comments?.fetch().map(\.content) == [key])
    }
    #expect(try await store.count(Post.self) == Self.awkwardKeys.count)
  }

  @Test(
    "SQL injection attempts are stored verbatim, in values and in predicates",
    arguments: StoreLocation.allCases)
  func injectionStoredVerbatim(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: seedRegistry)
    let attacks = [
      "'; DROP TABLE \"Comment4V2\"; --", "\" OR 1=1 --", "Robert'); DELETE FROM Post4V2;--",
      "%_\\", "?", "?1 :a @b $c",
    ]
    let post = Post4V2(id: "p", title: attacks[0])
    try await store.save(post)
    for (offset, attack) in attacks.enumerated() {
      try await store.save(Comment4V2(id: "c\(offset)" + attack, content: attack, post: post))
    }
    #expect(try await store.query(Post4V2.self, byIdentifier: .init(id: "p"))?.title == attacks[0])
    for (offset, attack) in attacks.enumerated() {
      log.clear()
      let found = try await store.query(Comment4V2.self, where: Comment4V2.keys.content.eq(attack))
      #expect(found.map(\.id) == ["c\(offset)" + attack])
      #expect(
        log.queries == [
          #"SELECT "id", "content", "postID", "createdAt", "updatedAt" FROM "Comment4V2" WHERE "content" = ?"#
        ])
    }
    #expect(
      try await store.query(Comment4V2.self, where: Comment4V2.keys.content.contains("%_")).count
        == 1)
    #expect(try await store.count(Comment4V2.self) == attacks.count)
  }

  @Test(
    "deleting a parent cascades to its belongsTo children, recursively",
    arguments: StoreLocation.allCases)
  func cascadeDelete(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    let top = Category(id: "top", name: "Top")
    let middle = Category(id: "mid", name: "Mid", parent: top)
    try await store.save(top)
    try await store.save(middle)
    try await store.save(Category(id: "low", name: "Low", parent: middle))
    let customer = Customer(id: "c", name: nil)
    try await store.save(customer)
    try await store.save(Order(id: "o", total: nil, customer: customer))
    try await store.save(Order(id: "orphan", total: nil, customer: nil))

    #expect(try await store.delete(Category.self, byIdentifier: .init(id: "top")))
    #expect(try await store.count(Category.self) == 0)
    #expect(try await store.delete(Customer.self, where: Customer.keys.id.eq("c")) == 1)
    #expect(try await store.query(Order.self).map(\.id) == ["orphan"])
  }

  @Test(
    "updating a parent keeps its children (upsert, not delete + insert)",
    arguments: StoreLocation.allCases)
  func updateKeepsChildren(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    var post = Post4V2(id: "p", title: "old")
    try await store.save(post)
    try await store.save(Comment4V2(id: "c", content: "x", post: post))
    let created = try await store.query(Post4V2.self, byIdentifier: .init(id: "p"))?.createdAt
    post.title = "new"
    try await store.save(post)
    let updated = try #require(try await store.query(Post4V2.self, byIdentifier: .init(id: "p")))
    #expect(updated.title == "new")
    #expect(updated.createdAt != nil && updated.createdAt == created)
    #expect(updated.updatedAt != nil)
    #expect(try await store.count(Comment4V2.self) == 1)
  }

  @Test(
    "a belongsTo to a missing row is a typed error and writes nothing",
    arguments: StoreLocation.allCases)
  func foreignKeyViolation(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    let stored = Post4V2(id: "p", title: "t")
    try await store.save(stored)
    let ghost = Post4V2(id: "ghost", title: "never saved")
    let batch = [
      Comment4V2(id: "ok", content: "fine", post: stored),
      Comment4V2(id: "bad", content: "x", post: ghost),
    ]
    await #expect(
      throws: DataStoreError.foreignKeyViolation(
        model: "Comment4V2", field: "post",
        identifiers: [IdentifierComponent(name: "id", value: .string("ghost"))])
    ) {
      try await store.save(batch)
    }
    #expect(try await store.count(Comment4V2.self) == 0)
  }

  @Test(
    "a missing required field is a typed error and leaves no partial row",
    arguments: StoreLocation.allCases)
  func missingRequiredField(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: shapesRegistry)
    let decoder = JSONDecoder()
    let broken = try decoder.decode(BrokenComment.self, from: Data(#"{"id": "c"}"#.utf8))
    await #expect(throws: DataStoreError.missingRequiredField(model: "Comment", field: "postID")) {
      try await store.save(
        [Comment(id: "first", postID: "p", content: "x")].map(BrokenComment.init) + [broken])
    }
    #expect(try await store.count(Comment.self) == 0)
  }

  @Test("a save that fails in SQLite rolls back every row of the batch")
  func rollbackOnSQLiteFailure() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    let post = Post4V2(id: "p", title: "t")
    try await store.save(post)
    let comments = (0..<10).map {
      Comment4V2(
        id: "c\($0)", content: "x", post: $0 == 9 ? Post4V2(id: "missing", title: "") : post)
    }
    await #expect(throws: DataStoreError.self) { try await store.save(comments) }
    #expect(try await store.count(Comment4V2.self) == 0)
    try await store.save(Array(comments.prefix(9)))
    #expect(try await store.count(Comment4V2.self) == 9)
  }
}

/// A `Comment` whose required fields may be missing, stored under `Comment`'s schema (to test the
/// required-field check without writing an invalid model by hand).
struct BrokenComment: Model {
  var id: String
  var postID: String?
  var content: String?
  var createdAt: Temporal.DateTime?
  var updatedAt: Temporal.DateTime?

  init(_ comment: RegressionHasManyExplicitFkIndex.Comment) {
    id = comment.id
    postID = comment.postID
    content = comment.content
  }

  typealias CodingKeys = RegressionHasManyExplicitFkIndex.Comment.CodingKeys
  typealias Identifier = RegressionHasManyExplicitFkIndex.Comment.Identifier
  var identifier: Identifier { Identifier(id: id) }
  static var schema: ModelSchema { RegressionHasManyExplicitFkIndex.Comment.schema }
}
