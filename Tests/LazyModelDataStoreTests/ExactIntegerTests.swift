import CSQLite
import Foundation
import LazyModel
import LazyModelDataStore
import Testing

@Suite("Exact integers")
struct ExactIntegerTests {
  static let registry = ModelRegistry(models: [Gauge.self])

  /// Sets `column` of every `Gauge` row to `value` through the C API (another program writing the file).
  func overwrite(_ url: URL, _ column: String, _ value: String) throws {
    var db: OpaquePointer?
    #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
    defer { sqlite3_close(db) }
    #expect(sqlite3_exec(db, "UPDATE \"Gauge\" SET \"\(column)\" = \(value)", nil, nil, nil) == SQLITE_OK)
  }

  @Test("in-range values round-trip at the edges of each type")
  func edges() async throws {
    let store = try DataStore(fileURL: try temporaryFileURL(), registry: Self.registry)
    let gauges = [
      Gauge(id: "min", small: .min, medium: .min, unsigned: .min, huge: 0),
      Gauge(id: "max", small: .max, medium: .max, unsigned: .max, huge: UInt64(Int64.max)),
    ]
    try await store.save(gauges)
    #expect(try await store.query(Gauge.self, sort: [.descending(Gauge.keys.id)]) == gauges)
  }

  @Test(
    "a stored integer outside the field's type is decodingFailed naming model and field",
    arguments: [
      ("small", "128"), ("small", "-129"), ("medium", "2147483648"), ("unsigned", "-1"),
      ("unsigned", "65536"), ("huge", "-1"),
    ])
  func outOfRange(_ column: String, _ value: String) async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: Self.registry)
    try await store.save(Gauge(id: "g", small: 1, medium: 2, unsigned: 3, huge: 4))
    try overwrite(url, column, value)
    do {
      _ = try await store.query(Gauge.self)
      Issue.record("\(column) = \(value) decoded")
    } catch DataStoreError.decodingFailed(let model, let field, let reason) {
      #expect(model == "Gauge")
      #expect(field == column)
      #expect(reason.contains(value), "\(reason)")
    }
  }

  @Test("a UInt64 above Int64.max is encodingFailed; nothing is written")
  func unsignedTooLarge() async throws {
    let store = try DataStore(fileURL: try temporaryFileURL(), registry: Self.registry)
    do {
      try await store.save(Gauge(id: "g", small: 1, medium: nil, unsigned: 1, huge: UInt64(Int64.max) + 1))
      Issue.record("saved")
    } catch DataStoreError.encodingFailed(let model, let field, _) {
      #expect(model == "Gauge")
      #expect(field == "huge")
    }
    #expect(try await store.count(Gauge.self) == 0)
  }
}
