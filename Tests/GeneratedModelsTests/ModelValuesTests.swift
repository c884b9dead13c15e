import Foundation
import LazyModel
import LazyModelDataStore
import RegressionModelsNotEquatableOrPrintable
import Testing

/// `Schemas/regressions/models-not-equatable-or-printable.graphql`: generated models behave like
/// Swift values.
@Suite("Generated: models as values")
struct ModelValuesTests {
  @Test func equalityAndHashingFollowStoredFieldsAndReferenceIdentifiers() throws {
    let author = Author(id: "a1", name: "Le Guin")
    let book = Book(isbn: "978", edition: 1, title: "Earthsea", format: .paperback, author: author)
    let sameByValue = Book(
      isbn: "978", edition: 1, title: "Earthsea", format: .paperback, author: Author(id: "a1", name: "Other"))
    #expect(book == sameByValue, "a loaded reference compares by the identifiers it holds")
    #expect(book.hashValue == sameByValue.hashValue)
    var retitled = book
    retitled.title = "A Wizard of Earthsea"
    #expect(book != retitled)
    var moved = book
    moved.setAuthor(Author(id: "a2", name: "Le Guin"))
    #expect(book != moved, "another author is another reference")

    // A decoded, not-loaded reference to the same author equals the loaded one.
    let decoded = try JSON.decode(
      Book.self, #"{"isbn":"978","edition":1,"title":"Earthsea","format":"PAPERBACK","author":{"id":"a1"}}"#)
    #expect(decoded.authorReference.isLoaded == false)
    #expect(decoded == book)
    #expect(Set([book, sameByValue, decoded, retitled]).count == 2)
  }

  @Test func modelsAreIdentifiableByTheirKey() {
    let author = Author(id: "a1", name: "x")
    let authorID: String = author.id
    #expect(authorID == "a1")
    let book = Book(isbn: "978", edition: 2)
    let bookID: Book.Identifier = book.id
    #expect(bookID == Book.Identifier(isbn: "978", edition: 2))
    #expect(!(Page(book: "978", id: 1) as Any is any Identifiable))
    #expect((book as Any) is any Identifiable)
  }

  @Test func modelsPrintTheirFieldsNotRuntimeInternals() throws {
    let author = Author(id: "a1", name: "Le Guin")
    let book = Book(
      isbn: "978", edition: 1, title: "Earthsea", format: .paperback,
      cover: Cover(color: "blue", pages: nil), author: author)
    #expect(
      book.description
        == #"Book(isbn: "978", edition: 1, title: "Earthsea", format: .paperback, cover: Cover(color: "blue", pages: nil), author: loaded(id: "a1"), createdAt: nil, updatedAt: nil)"#
    )
    #expect(String(describing: book) == book.description)
    #expect(String(reflecting: book) == book.description)
    let decoded = try JSON.decode(Book.self, #"{"isbn":"978","edition":1,"author":{"id":"a1"}}"#)
    #expect(
      "\(decoded)"
        == #"Book(isbn: "978", edition: 1, title: nil, format: nil, cover: nil, author: notLoaded(id: "a1"), createdAt: nil, updatedAt: nil)"#
    )
    #expect(Book(isbn: "1", edition: 1).authorReference.description == "loaded(nil)")
    #expect(
      author.description
        == #"Author(id: "a1", name: "Le Guin", books: loaded(count: 0), createdAt: nil, updatedAt: nil)"#)
  }

  @Test func queriedModelsEqualWhatWasSavedUpToServiceFields() async throws {
    let store = try DataStore.inMemory(registry: Models.registry)
    let author = try await store.save(Author(id: "a1", name: "Le Guin"))
    let saved = try await store.save(Book(isbn: "978", edition: 1, title: "Earthsea", author: author))
    let queried = try #require(
      try await store.query(Book.self, byIdentifier: Book.Identifier(isbn: "978", edition: 1)))
    #expect(queried == saved, "the queried book holds a not-loaded reference to the same author")
    let list = try #require(try await store.query(Author.self, byIdentifier: .init(id: "a1"))?.books)
    #expect(list.description == #"notLoaded(authorBooksId: "a1")"#)
  }
}
