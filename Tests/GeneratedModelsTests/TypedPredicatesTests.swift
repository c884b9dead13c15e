import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Testing

/// Predicates and sorts carry their model (`QueryPredicate<Comment4V2>`, `QuerySort<Comment4V2>`):
/// every DataStore and API entry point for `M` takes the typed value for `M`, so a predicate or a
/// sort built from another model's keys does not compile (it used to filter on a field the queried
/// model does not have), and the spellings of the README still compile and select the right rows.
@Suite("Generated: predicates and sorts tied to their model")
struct TypedPredicatesTests {
  /// `swiftc -typecheck` against the built modules rejects each use of `Post4V2`'s keys where
  /// `Comment4V2`'s are expected, with the compiler's complaint about that line.
  @Test func predicatesOfAnotherModelDoNotCompile() async throws {
    let prelude = [
      "import LazyModel", "import LazyModelAPI", "import LazyModelDataStore", "import SeedPostCommentModels",
    ]
    try await TypeCheck.expectAccepted(
      (prelude + [
        "func query(_ store: DataStore, _ client: APIClient, _ post: Post4V2) async throws {",
        "  let own = Comment4V2.keys.content.beginsWith(\"a\") && Comment4V2.keys.post.eq(post)",
        "  _ = try await store.query(Comment4V2.self, where: own, sort: [.ascending(Comment4V2.keys.content)])",
        "  _ = try await store.count(Comment4V2.self, where: !own || .all)",
        "  _ = store.observeQuery(Comment4V2.self, where: own, sort: [.descending(Comment4V2.keys.id)])",
        "  _ = try await client.list(Comment4V2.self, where: own)",
        "  _ = try ModelQueries.list(Comment4V2.self, where: own)",
        "  _ = try ModelSubscriptions.onCreate(Comment4V2.self, where: own)",
        "  _ = SyncExpression(Comment4V2.self, where: own)",
        "  _ = try await store.write { try $0.delete(Comment4V2.self, where: own) }",
        "}",
      ]).joined(separator: "\n"))

    let post = "'QueryPredicate<Post4V2>'"
    let comment = "'QueryPredicate<Comment4V2>'"
    let wrongPredicate = "cannot convert value of type \(post) to expected argument type \(comment)"
    let rejectedLines: [(line: String, error: String)] = [
      (
        "func a(_ s: DataStore) async throws { _ = try await s.query(Comment4V2.self, where: Post4V2.keys.title.eq(\"x\")) }",
        wrongPredicate
      ),
      (
        "func b(_ s: DataStore) async throws { _ = try await s.count(Comment4V2.self, where: Post4V2.keys.title.eq(\"x\")) }",
        wrongPredicate
      ),
      (
        "func c(_ s: DataStore) { _ = s.observeQuery(Comment4V2.self, where: Post4V2.keys.title.eq(\"x\")) }",
        wrongPredicate
      ),
      (
        "func d(_ s: DataStore) async throws { _ = try await s.query(Comment4V2.self, sort: [.ascending(Post4V2.keys.title)]) }",
        "cannot convert value of type 'ModelFieldKey<Post4V2, String>' to expected argument type 'ModelFieldKey<Comment4V2, String>'"
      ),
      (
        "func e(_ c: APIClient) async throws { _ = try await c.list(Comment4V2.self, where: Post4V2.keys.title.eq(\"x\")) }",
        wrongPredicate
      ),
      (
        "func f() throws { _ = try ModelQueries.list(Comment4V2.self, where: Post4V2.keys.title.eq(\"x\")) }",
        wrongPredicate
      ),
      (
        "func g() throws { _ = try ModelSubscriptions.onCreate(Comment4V2.self, where: Post4V2.keys.title.eq(\"x\")) }",
        wrongPredicate
      ),
      ("let h = SyncExpression(Comment4V2.self, where: Post4V2.keys.title.eq(\"x\"))", wrongPredicate),
      (
        "func i(_ s: DataStore) async throws { _ = try await s.delete(Comment4V2.self, where: Post4V2.keys.title.eq(\"x\")) }",
        wrongPredicate
      ),
      (
        "let j: QueryPredicate<Comment4V2> = Comment4V2.keys.content.eq(\"a\") && Post4V2.keys.title.eq(\"x\")",
        wrongPredicate
      ),
      // A sync expression's model name and predicate come from one typed model, and stay so.
      (
        "func k() { var e = SyncExpression(Comment4V2.self, where: .all); e.modelName = \"Post4V2\"; _ = e }",
        "cannot assign to property: 'modelName' is a 'let' constant"
      ),
    ]
    try await TypeCheck.expectEachLineRejected(prelude: prelude, rejectedLines)
  }

  /// The README's spellings on a real SQLite file: the rows each selects, the count, the first
  /// live-query snapshot, a transaction's query and delete.
  @Test func predicatesOfTheirOwnModelFilterADataStore() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("TypedPredicates-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try DataStore(
      fileURL: directory.appendingPathComponent("typed.sqlite"), registry: Models.registry)
    let first = Post4V2(id: "p1", title: "First")
    let second = Post4V2(id: "p2", title: "Second")
    try await store.save([first, second])
    try await store.save([
      Comment4V2(id: "c1", content: "apple", post: first),
      Comment4V2(id: "c2", content: "avocado", post: second),
      Comment4V2(id: "c3", content: "banana", post: first),
      Comment4V2(id: "c4", content: "apricot", post: first),
    ])
    let onFirst = Comment4V2.keys.content.beginsWith("a") && Comment4V2.keys.post.eq(first)
    let found = try await store.query(
      Comment4V2.self, where: onFirst, sort: [.descending(Comment4V2.keys.content)])
    #expect(found.map(\.id) == ["c4", "c1"])
    #expect(try await store.count(Comment4V2.self, where: onFirst) == 2)
    #expect(try await store.count(Comment4V2.self, where: !onFirst) == 2)
    #expect(try await store.count(Comment4V2.self, where: .or([])) == 0)
    #expect(try await store.count(Comment4V2.self) == 4)
    var snapshots = store.observeQuery(
      Comment4V2.self, where: onFirst, sort: [.ascending(Comment4V2.keys.content)]
    ).makeAsyncIterator()
    #expect(try await snapshots.next()?.items.map(\.id) == ["c1", "c4"])
    let deleted = try await store.write { transaction in
      let before = try transaction.query(Comment4V2.self, where: onFirst).map(\.id).sorted()
      return (before, try transaction.delete(Comment4V2.self, where: onFirst))
    }
    #expect(deleted.0 == ["c1", "c4"])
    #expect(deleted.1 == 2)
    #expect(
      try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)]).map(\.id) == ["c2", "c3"])
    #expect(try await store.query(Post4V2.self, where: Post4V2.keys.title.eq("Second")).map(\.id) == ["p2"])
  }
}
