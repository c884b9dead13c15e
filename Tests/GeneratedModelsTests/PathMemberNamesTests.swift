import Foundation
import LazyModel
import LazyModelDataStore
import RegressionAssociationNamesClashWithPathMembers
import Testing

/// `Schemas/regressions/association-names-clash-with-path-members.graphql`: associations
/// named like `ModelPath`'s properties (`fieldNames`, `stringValue`, `intValue`) get path members
/// with the suffix `Value`, so the module compiles and every path is typed; the models' properties
/// and the GraphQL names keep the fields' names, and `appending`/`hash` (methods of `ModelPath`)
/// keep theirs on the path too.
@Suite("Generated: path member names")
struct PathMemberNamesTests {
  @Test func pathMembersAvoidModelPathsOwnProperties() {
    let books: ModelPath<Shelf, Book> = Shelf.path.fieldNamesValue
    let cover: ModelPath<Shelf, Cover> = Shelf.path.stringValueValue
    let notes: ModelPath<Shelf, Note> = Shelf.path.appending
    let shelf: ModelPath<Book, Shelf> = Book.path.intValueValue
    let back: ModelPath<Note, Book> = Note.path.hash.fieldNamesValue
    #expect(books.fieldNames == ["fieldNames"] && books.stringValue == "fieldNames")
    #expect(cover.fieldNames == ["stringValue"])
    #expect(notes.fieldNames == ["appending"])
    #expect(shelf.fieldNames == ["intValue"])
    #expect(back.fieldNames == ["hash", "fieldNames"] && back.stringValue == "hash.fieldNames")
    #expect(Shelf.keys.fieldNames.name == "fieldNames" && Book.keys.intValue.name == "intValue")
  }

  /// A renamed path member beside an association that already has the suffixed name takes the
  /// next free number, so no `ModelPath` extension declares a member twice.
  @Test func renamedPathMembersTakeTheNextFreeSuffix() {
    let mugs: ModelPath<Rack, Mug> = Rack.path.fieldNamesValue2
    let jars: ModelPath<Rack, Jar> = Rack.path.fieldNamesValue
    let rack: ModelPath<Crate, Rack> = Crate.path.intValueValue2
    let cover: ModelPath<Crate, Cover> = Crate.path.intValueValue
    #expect(mugs.fieldNames == ["fieldNames"] && jars.fieldNames == ["fieldNamesValue"])
    #expect(rack.fieldNames == ["intValue"] && cover.fieldNames == ["intValueValue"])
    #expect(Mug.path.rack.fieldNamesValue2.stringValue == "rack.fieldNames")
  }

  @Test func pathsThroughThoseAssociationsLoadFromADataStore() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("PathMembers-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try DataStore(fileURL: directory.appendingPathComponent("paths.sqlite"), registry: Models.registry)
    let shelf = Shelf(id: "s1", label: "top")
    try await store.save(shelf)
    try await store.save([Book(id: "b1", title: "One", intValue: shelf), Book(id: "b2", title: "Two", intValue: shelf)])
    try await store.save(Note(id: "n1", text: "hi", hash: shelf))
    let notes = try await store.query(Note.self, includes: [.path(Note.path.hash.fieldNamesValue)])
    let note = try #require(notes.first)
    let held = try await note.hash
    #expect(held?.id == "s1" && held?.label == "top")
    #expect(try await held?.fieldNames?.fetch().map(\.id).sorted() == ["b1", "b2"])
    let book = try #require(try await store.query(Book.self, byIdentifier: .init(id: "b1")))
    #expect(try await book.intValue?.id == "s1")
  }
}
