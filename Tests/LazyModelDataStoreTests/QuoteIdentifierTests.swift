import Foundation
import LazyModel
import Testing

@testable import LazyModelDataStore

/// `quote(_:)` builds every SQL identifier the store writes (tables, columns, indexes), so a
/// name holding a double quote must come out as one SQLite identifier with the quote doubled
/// (SQLite, "SQLite Keywords": a name in double quotes is an identifier).
@Suite("SQLite identifiers: quote(_:)")
struct QuoteIdentifierTests {
  @Test func quotesANameAndDoublesEachInnerQuote() {
    #expect(quote("Post") == #""Post""#)
    #expect(quote("") == #""""#)
    #expect(quote(#"a"b"#) == #""a""b""#)
    #expect(quote(#"""#) == #""""""#)
    #expect(quote(#""x"""#) == #""""x""""""#)
    #expect(quote(#"é"名"#) == #""é""名""#)
  }

  /// The quoted name is the identifier SQLite reads: a table created by it is found by its name.
  @Test func aQuotedNameIsOneIdentifierInARealFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quote-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let connection = try Connection(path: directory.appendingPathComponent("q.sqlite").path, trace: nil)
    let name = #"we"ird "" name"#
    try connection.execute("CREATE TABLE \(quote(name)) (\(quote(#"co"l"#)) TEXT)")
    try connection.execute("INSERT INTO \(quote(name)) (\(quote(#"co"l"#))) VALUES ('v')")
    let tables = try connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
    var names: [String] = []
    while try tables.step() { names.append(tables.text(0)) }
    tables.reset()
    #expect(names == [name])
    let rows = try connection.prepare("SELECT \(quote(#"co"l"#)) FROM \(quote(name))")
    #expect(try rows.step() && rows.text(0) == "v")
    rows.reset()
  }
}
