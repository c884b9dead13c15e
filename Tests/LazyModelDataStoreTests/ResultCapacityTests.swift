import CSQLite
import Foundation
import LazyModel
import LazyModelDataStore
import Testing

/// A query's result is allocated with room for as many rows as the same statement returned the
/// last time on that connection, and decoded in place: these pin that a result growing past that
/// count, shrinking below it, empty, or failing halfway is still exactly the rows, in order, and
/// that a small result does not keep an earlier large one's capacity.
@Suite("Result arrays sized from the statement's last row count")
struct ResultCapacityTests {
  static let registry = ModelRegistry(models: [Gauge.self])

  static func gauge(_ index: Int) -> Gauge {
    Gauge(
      id: "g" + String(repeating: "0", count: 3 - String(index).count) + String(index),
      small: Int8(index % 100), medium: index.isMultiple(of: 3) ? nil : Int32(index),
      unsigned: UInt16(index), huge: UInt64(index) * 1_000_000_007)
  }

  /// The gauges with an id below `bound` (one SQL text for every bound: one cached statement).
  func below(_ store: DataStore, _ bound: Int) async throws -> [Gauge] {
    try await store.query(
      Gauge.self, where: Gauge.keys.id.lt(Self.gauge(bound).id), sort: [.ascending(Gauge.keys.id)])
  }

  @Test("growing, shrinking and empty results of one statement hold exactly their rows")
  func resizing() async throws {
    // One reader, so every query below runs on the one connection whose statement keeps the count.
    let store = try DataStore(fileURL: try temporaryFileURL(), registry: Self.registry, readerCount: 1)
    let all = (0..<400).map(Self.gauge)
    try await store.save(all)
    for bound in [300, 300, 100, 0, 1, 300, 400, 399, 2, 400] {
      let result = try await below(store, bound)
      #expect(result == Array(all.prefix(bound)), "bound \(bound)")
      // Without the shrink a 100-row result after 300 rows would keep room for 300.
      #expect(result.capacity <= max(2 * bound, 1), "bound \(bound): capacity \(result.capacity)")
    }
    // Unsorted query all: another statement, the same rows.
    #expect(Set(try await store.query(Gauge.self).map(\.id)) == Set(all.map(\.id)))
    #expect(try await store.query(Gauge.self).count == 400)
  }

  @Test("a row failing to decode past the first rows throws; the next query returns every row")
  func failingHalfway() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: Self.registry, readerCount: 1)
    let all = (0..<300).map(Self.gauge)
    try await store.save(all)
    #expect(try await below(store, 300) == all)
    func setSmall(_ value: String, of id: String) throws {
      var db: OpaquePointer?
      #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
      defer { sqlite3_close(db) }
      #expect(
        sqlite3_exec(
          db, "UPDATE \"Gauge\" SET \"small\" = \(value) WHERE \"id\" = '\(id)'", nil, nil, nil)
          == SQLITE_OK)
    }
    // Row 200 of 300 (inside the room made for 300), then row 299 (the last one).
    for failing in [200, 299] {
      try setSmall("1000", of: all[failing].id)
      do {
        _ = try await below(store, 300)
        Issue.record("row \(failing) with small = 1000 decoded")
      } catch DataStoreError.decodingFailed(let model, let field, _) {
        #expect(model == "Gauge")
        #expect(field == "small")
      }
      try setSmall(String(all[failing].small), of: all[failing].id)
      #expect(try await below(store, 300) == all)
    }
  }
}
