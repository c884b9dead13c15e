import Foundation
import IndexSecondaryModels
import LazyModel
import LazyModelAPI
import Testing

/// `Schemas/index-secondary.graphql` (issue 17, typed keys): each `@index` with a query field is a
/// generated `ModelIndexKey<Book, PartitionKey, SortKey>` (`Book.indexes.byIsbn`), and the API's
/// filters, conditions and index queries take typed values (`QueryPredicate<Book>`, the index's
/// key types), so the untyped spellings that compiled before (`.field("title", .eq(42))`, an index
/// name as a string) are compile errors, and the untyped escape hatch is spelt `unchecked…`.
@Suite("Generated: typed index keys and typed API filters")
struct TypedIndexesTests {
  typealias YearTitle = Book.Indexes.BooksByAuthorAndYearAndTitleSortKey

  @Test func indexKeysCarryTheKeyFieldsSwiftTypes() {
    let byIsbn: ModelIndexKey<Book, String, ModelNoSortKey> = Book.indexes.byIsbn
    let byAuthor: ModelIndexKey<Book, String, YearTitle> = Book.indexes.booksByAuthorAndYearAndTitle
    #expect(byIsbn.name == "byIsbn" && byIsbn.fields == ["isbn"] && byIsbn.sortKeyFields.isEmpty)
    #expect(byAuthor.name == "booksByAuthorAndYearAndTitle")
    #expect(byAuthor.sortKeyFields == ["year", "title"])
    // The generated keys name the schema's own indexes.
    #expect(
      Book.schema.indexes.map(\.name) == [byIsbn.name, byAuthor.name]
        && Book.schema.indexes.map(\.fields) == [byIsbn.fields, byAuthor.fields])
    #expect(YearTitle(year: 2001).sortKeyValues == [.int(2001), nil])
    #expect(YearTitle(year: 2001, title: "A").sortKeyValues == [.int(2001), .string("A")])
  }

  @Test func typedIndexQueriesSendTheKeyConditionInputs() throws {
    let byIsbn = try ModelQueries.query(Book.self, index: Book.indexes.byIsbn, partitionKey: "isbn-2")
    #expect(byIsbn.operationName == "BookByIsbn" && byIsbn.variables == ["isbn": "isbn-2"])
    let prefix = try ModelQueries.query(
      Book.self, index: Book.indexes.booksByAuthorAndYearAndTitle, partitionKey: "Le Guin",
      sortKey: .beginsWith(YearTitle(year: 2001, title: "T")), sortDirection: .descending,
      where: Book.keys.title.ne("X"), limit: 3)
    #expect(
      prefix.variables == [
        "author": "Le Guin", "yearTitle": ["beginsWith": ["year": 2001, "title": "T"]],
        "sortDirection": "DESC",
        "filter": ["title": ["ne": "X"]], "limit": 3,
      ])
    let range = try ModelQueries.query(
      Book.self, index: Book.indexes.booksByAuthorAndYearAndTitle, partitionKey: "Le Guin",
      sortKey: .between(YearTitle(year: 1970), and: YearTitle(year: 1980, title: "M")))
    #expect(
      range.variables["yearTitle"] == ["between": [["year": 1970], ["year": 1980, "title": "M"]]])
    // The typed request is the one the escape hatch builds from the same values.
    let unchecked = try ModelQueries.query(
      Book.self, uncheckedIndex: "booksByAuthorAndYearAndTitle", partitionKey: .string("Le Guin"),
      sortKeyCondition: ["beginsWith": ["year": 2001, "title": "T"]], sortDirection: .descending,
      uncheckedFilter: .unchecked(field: "title", .ne("X")), limit: 3)
    #expect(unchecked.document == prefix.document && unchecked.variables == prefix.variables)
  }

  @Test func typedConditionsAndFiltersSendTheSameInputs() throws {
    let book = Book(id: "b1", isbn: "1", author: "Le Guin", year: 1974, title: "The Dispossessed")
    let update = try ModelMutations.update(
      book, condition: Book.keys.year.lt(1980) && Book.keys.title.beginsWith("The"))
    #expect(
      update.variables["condition"]
        == ["and": [["year": ["lt": 1980]], ["title": ["beginsWith": "The"]]]])
    #expect(try ModelMutations.update(book, condition: .all).variables["condition"] == nil)
    let raw = try ModelMutations.update(
      book,
      uncheckedCondition: .unchecked(field: "year", .lt(1980)) && .unchecked(field: "title", .beginsWith("The")))
    #expect(raw.variables == update.variables)
    let list = try ModelQueries.list(Book.self, where: Book.keys.author.eq("Butler"))
    #expect(list.variables == ["filter": ["author": ["eq": "Butler"]]])
    // A predicate the API cannot express is refused naming the mutation, before anything is sent.
    #expect {
      try ModelMutations.delete(book, condition: QueryPredicate(unchecked: .field("nope", .eq(.int(1)))))
    } throws: { error in
      guard case .invalidRequest(let operationName, let reason) = error as? APIError else { return false }
      return operationName == "DeleteBook" && reason == "condition: Book has no field nope"
    }
  }

  /// The wrong-typed calls are compile errors (`swiftc -typecheck` against the built modules, the
  /// mechanism of `TypedKeysTests`), and their right-typed counterparts compile.
  @Test func wrongTypedFiltersConditionsAndIndexesDoNotCompile() async throws {
    let prelude = [
      "import LazyModel", "import LazyModelAPI", "import IndexSecondaryModels",
      "let book = Book(isbn: \"1\", author: \"A\", year: 1, title: \"T\")",
    ]
    try await TypeCheck.expectAccepted(
      (prelude + [
        "let a = try ModelMutations.update(book, condition: Book.keys.year.eq(1974))",
        "let b = try ModelQueries.query(Book.self, index: Book.indexes.byIsbn, partitionKey: \"x\")",
        "let c = try ModelQueries.query(Book.self, index: Book.indexes.booksByAuthorAndYearAndTitle, partitionKey: \"x\", sortKey: .eq(.init(year: 1974, title: \"T\")))",
        "let d = try ModelQueries.list(Book.self, uncheckedFilter: .unchecked(field: \"title\", .eq(42)))",
        "let e = try ModelMutations.create(book, uncheckedCondition: .unchecked(field: \"id\", .attributeExists(false)))",
      ]).joined(separator: "\n"))

    let rejectedLines: [(line: String, error: String)] = [
      (
        "let a = try ModelMutations.update(book, condition: Book.keys.year.eq(\"1974\"))",
        "cannot convert value of type 'String' to expected argument type 'Int'"
      ),
      ("let b = GraphQLFilter.field(\"title\", .eq(42))", "type 'GraphQLFilter' has no member 'field'"),
      (
        "let c = try ModelQueries.query(Book.self, index: Book.indexes.byIsbn, partitionKey: 42)",
        "cannot convert value of type 'Int' to expected argument type 'String'"
      ),
      (
        "let d = try ModelQueries.query(Book.self, index: Book.indexes.booksByAuthorAndYearAndTitle, partitionKey: \"x\", sortKey: .eq(1974))",
        "cannot convert value of type 'Int' to expected argument type 'Book.Indexes.BooksByAuthorAndYearAndTitleSortKey'"
      ),
      (
        "let e = try ModelQueries.query(Book.self, index: \"byIsbn\", partitionKey: \"x\")",
        "cannot convert value of type 'String' to expected argument type 'ModelIndexKey<Book, String, SortKey>'"
      ),
      (
        "let f = try ModelQueries.query(Book.self, index: Book.indexes.byIsbn, partitionKey: \"x\", sortKey: .eq(\"a\"))",
        "no exact matches in call to static method 'eq'"
      ),
      (
        "let g = try ModelMutations.update(book, condition: .field(\"title\", .eq(42)))",
        "type 'QueryPredicate<Book>?' has no member 'field'"
      ),
    ]
    try await TypeCheck.expectEachLineRejected(prelude: prelude, rejectedLines)
  }
}
