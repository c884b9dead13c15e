import Foundation
import LazyModel
import LazyModelDataStore
import RegressionKeyOperatorsCompileOnEveryField
import Testing

/// `Schemas/regressions/key-operators-compile-on-every-field.graphql`: a typed key offers only the
/// operators its field can take. `contains`/`notContains` need text or a list of text, `isNil`/
/// `isNotNil` an optional field, and an association whose key fields are on the other model (a
/// `@hasMany`, a `@hasOne` found through the child's `references:`) has a `ModelAssociationKey`,
/// which names it for `includes:` but builds no predicate.
@Suite("Generated: key kinds")
struct KeyKindsTests {
  @Test func keysSayWhatTheFieldIs() {
    let name: ModelFieldKey<Author, String> = Author.keys.name
    let nickname: ModelFieldKey<Author, String?> = Author.keys.nickname
    let age: ModelFieldKey<Author, Int?> = Author.keys.age
    let aliases: ModelFieldKey<Author, [String]> = Author.keys.aliases
    let tags: ModelFieldKey<Author, [String?]?> = Author.keys.tags
    let profile: ModelAssociationKey<Author, Profile> = Author.keys.profile
    let books: ModelAssociationKey<Author, Book> = Author.keys.books
    let author: ModelFieldKey<Book, Author?> = Book.keys.author
    #expect(
      [name.name, nickname.name, age.name, aliases.name, tags.name, profile.name, books.name, author.name]
        == ["name", "nickname", "age", "aliases", "tags", "profile", "books", "author"])
    #expect(profile.stringValue == "profile" && profile.intValue == nil)
    #expect(ModelAssociationKey<Author, Book>(stringValue: "books") == books)
  }

  @Test func theOperatorsEachKeyHasBuildTheSharedPredicate() {
    #expect(Author.keys.name.contains("an").untyped == .field("name", .contains("an")))
    #expect(Author.keys.nickname.notContains("x").untyped == .field("nickname", .notContains("x")))
    #expect(Author.keys.aliases.contains("Ann").untyped == .field("aliases", .contains("Ann")))
    #expect(Author.keys.tags.notContains("sf").untyped == .field("tags", .notContains("sf")))
    #expect(Author.keys.age.isNil().untyped == .field("age", .eq(nil)))
    #expect(Author.keys.tags.isNotNil().untyped == .field("tags", .ne(nil)))
    #expect(Book.keys.author.isNil().untyped == .field("author", .eq(nil)))
    #expect(Book.keys.author.eq(Author.Identifier(id: "a1")).untyped == .field("author", .references([.string("a1")])))
  }

  @Test func theOperatorsQueryADataStoreAndAssociationKeysInclude() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("KeyKinds-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try DataStore(fileURL: directory.appendingPathComponent("kinds.sqlite"), registry: Models.registry)
    let ann = Author(id: "a1", name: "Ann", nickname: "annie", age: 41, aliases: ["A.", "Annie"], tags: ["sf"])
    let bo = Author(id: "a2", name: "Bo", nickname: nil, age: nil, aliases: [], tags: nil)
    try await store.save([ann, bo])
    try await store.save([Book(id: "b1", title: "One", author: ann), Book(id: "b2", title: "Two", author: ann)])
    try await store.save(Profile(id: "p1", bio: "writes", author: ann))

    let ids = { (predicate: QueryPredicate<Author>) in
      try await store.query(Author.self, where: predicate, sort: [.ascending(Author.keys.id)]).map(\.id)
    }
    #expect(try await ids(Author.keys.name.contains("n")) == ["a1"])
    // A null field matches `notContains`, as a missing attribute does in AppSync's filters (README).
    #expect(try await ids(Author.keys.nickname.notContains("x")) == ["a1", "a2"])
    #expect(try await ids(Author.keys.nickname.notContains("nn")) == ["a2"])
    #expect(try await ids(Author.keys.age.isNil()) == ["a2"])
    #expect(try await ids(Author.keys.tags.isNotNil()) == ["a1"])
    #expect(try await ids(Author.keys.aliases.contains("Annie")) == ["a1"])
    #expect(try await ids(Author.keys.tags.contains("sf")) == ["a1"])

    let loaded = try await store.query(
      Author.self, where: Author.keys.id.eq("a1"),
      includes: [.include(Author.keys.books), .include(Author.keys.profile)])
    let first = try #require(loaded.first)
    #expect(try await first.books?.fetch().map(\.id).sorted() == ["b1", "b2"])
    #expect(try await first.profile?.id == "p1")
    let byAuthor = try await store.query(
      Book.self, where: Book.keys.author.eq(ann), sort: [.descending(Book.keys.title)])
    #expect(byAuthor.map(\.id) == ["b2", "b1"])
  }

  /// The misuses the fresh-user pass found are compile errors: `swiftc -typecheck` against the built
  /// modules rejects each line with the compiler's complaint about that line, and accepts the
  /// right uses (so the check cannot pass by failing to run).
  @Test func operatorsAFieldCannotTakeDoNotCompile() async throws {
    try await TypeCheck.expectAccepted(
      """
      import LazyModel
      import RegressionKeyOperatorsCompileOnEveryField
      let predicates: [QueryPredicate<Author>] = [
        Author.keys.name.contains("a"), Author.keys.nickname.notContains("b"), Author.keys.aliases.contains("c"),
        Author.keys.tags.contains("d"), Author.keys.age.isNil(), Author.keys.nickname.isNotNil(),
      ]
      let book: QueryPredicate<Book> = Book.keys.author.eq(Author(id: "a", name: "A", aliases: []))
      let profile: QueryPredicate<Profile> = Profile.keys.author.isNil()
      let includes: [any CodingKey] = [Author.keys.books, Author.keys.profile]
      """)

    let rejectedLines: [(line: String, error: String)] = [
      ("let a = Author.keys.age.contains(\"4\")", "no exact matches in call to instance method 'contains'"),
      ("let b = Author.keys.age.notContains(\"4\")", "no exact matches in call to instance method 'notContains'"),
      (
        "let c = Author.keys.books.contains(\"b\")",
        "value of type 'ModelAssociationKey<Author, Book>' has no member 'contains'"
      ),
      ("let d = Author.keys.books.isNil()", "value of type 'ModelAssociationKey<Author, Book>' has no member 'isNil'"),
      (
        "let e = Author.keys.profile.isNil()",
        "value of type 'ModelAssociationKey<Author, Profile>' has no member 'isNil'"
      ),
      (
        "let f = Author.keys.profile.eq(Profile(id: \"p\"))",
        "value of type 'ModelAssociationKey<Author, Profile>' has no member 'eq'"
      ),
      (
        "let g = Author.keys.name.isNil()",
        "instance method 'isNil()' requires the types 'String' and 'Wrapped?' be equivalent"
      ),
      (
        "let h = Author.keys.id.isNotNil()",
        "instance method 'isNotNil()' requires the types 'String' and 'Wrapped?' be equivalent"
      ),
    ]
    try await TypeCheck.expectEachLineRejected(
      prelude: ["import LazyModel", "import RegressionKeyOperatorsCompileOnEveryField"], rejectedLines)
  }
}
