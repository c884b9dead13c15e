import Foundation
import LazyModel
import ScalarsEnumsEmbeddedModels
import Testing

@testable import LazyModelDataStore

/// Stored values the row decoder gets from a copied row (an `includes:` query, an observed change,
/// a save read back) rather than from a `STRICT` column: a Boolean is exactly 0 or 1 and an
/// integer is never truncated, as for a column read from the file (issue 11's low findings).
@Suite("Stored value exactness")
struct StoredValueExactnessTests {
  /// A store with one `Sample` mapping, and the encoded row of a saved-shape `Sample`.
  func sampleRow() throws -> (DataStore, TableMapping, [SQLValue]) {
    let store = try DataStore(
      fileURL: try temporaryFileURL(), registry: ScalarsEnumsEmbeddedModels.Models.registry)
    let mapping = try store.mapping(for: Sample.self)
    let row = try RowEncoder.encode(
      Sample(id: "s", count: 7, flag: true, colors: []), mapping: mapping, store: store)
    return (store, mapping, row)
  }

  /// `row` with column `name` set to `value`, decoded as a `Sample`.
  func decode(_ row: [SQLValue], _ mapping: TableMapping, _ store: DataStore, _ name: String, _ value: SQLValue)
    throws -> Sample
  {
    var row = row
    row[try #require(mapping.column(named: name))] = value
    let decoder = RowDecoder(mapping: mapping, store: store, row: .values(row), prefetched: nil)
    return try decoder.decode(Sample.self)
  }

  @Test("a REAL holding a whole number in range decodes as that integer")
  func wholeReal() throws {
    let (store, mapping, row) = try sampleRow()
    #expect(try decode(row, mapping, store, "count", .real(3.0)).count == 3)
    #expect(try decode(row, mapping, store, "count", .real(-9.0e15)).count == -9_000_000_000_000_000)
  }

  @Test(
    "a REAL that is not a whole number in Int64's range is decodingFailed naming model and field",
    arguments: [2.5, -0.5, 9.3e18, -9.3e18, Double.nan, Double.infinity])
  func inexactReal(_ value: Double) throws {
    let (store, mapping, row) = try sampleRow()
    #expect {
      try decode(row, mapping, store, "count", .real(value))
    } throws: { error in
      guard case DataStoreError.decodingFailed(let model, let field, let reason) = error else {
        return false
      }
      return model == "Sample" && field == "count"
        && reason == "the stored number \(value) is not an integer in Int64's range"
    }
  }

  @Test("text that is not an integer is decodingFailed, integer text decodes")
  func integerText() throws {
    let (store, mapping, row) = try sampleRow()
    #expect(try decode(row, mapping, store, "count", .text("42")).count == 42)
    #expect {
      try decode(row, mapping, store, "count", .text("4.2"))
    } throws: { error in
      guard case DataStoreError.decodingFailed("Sample", "count", let reason) = error else {
        return false
      }
      return reason == #"the stored text "4.2" is not an integer"#
    }
  }

  @Test("a key value of a Boolean column is exactly 0 or 1")
  func booleanKeyValue() throws {
    let boolean = ModelFieldType.scalar(.boolean)
    #expect(try SQLValue.integer(0).keyValue(for: boolean, model: "M", field: "f") == .bool(false))
    #expect(try SQLValue.integer(1).keyValue(for: boolean, model: "M", field: "f") == .bool(true))
    #expect(try SQLValue.null.keyValue(for: boolean, model: "M", field: "f") == nil)
    for stored in [2, -1, Int64.max] {
      #expect(
        throws: DataStoreError.decodingFailed(
          model: "M", field: "f", reason: "the stored integer \(stored) is not a Boolean (0 or 1)")
      ) {
        try SQLValue.integer(stored).keyValue(for: boolean, model: "M", field: "f")
      }
    }
  }

  @Test("the row decoder's key value of a Boolean column is exactly 0 or 1")
  func rowBooleanKeyValue() throws {
    let (store, mapping, row) = try sampleRow()
    let flag = try #require(mapping.column(named: "flag"))
    var stored = row
    stored[flag] = .integer(1)
    #expect(
      try RowDecoder(mapping: mapping, store: store, row: .values(stored), prefetched: nil)
        .keyValue(flag) == .bool(true))
    stored[flag] = .integer(2)
    let decoder = RowDecoder(mapping: mapping, store: store, row: .values(stored), prefetched: nil)
    #expect(
      throws: DataStoreError.decodingFailed(
        model: "Sample", field: "flag", reason: "the stored integer 2 is not a Boolean (0 or 1)")
    ) {
      try decoder.keyValue(flag)
    }
  }
}
