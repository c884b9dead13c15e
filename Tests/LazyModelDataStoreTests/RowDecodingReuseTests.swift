import Foundation
import LazyModel
import LazyModelDataStore
import Testing

@testable import SeedPostCommentModels

/// What a query's row decoder reuses from one row to the next (issue 11's query-all row): the
/// last timestamp text it parsed, the byte of each generated coding key, the identifiers array of
/// each parent. Each row must still read its own stored values.
@Suite("Row decoding: what a query reuses between rows reads each row's own values")
struct RowDecodingReuseTests {
  /// Timestamp texts that repeat (between a row's two columns and between rows), that differ from
  /// the last one in one byte only, that are `NULL`, and a text other than the last of the same
  /// length: each row reads the value of its own text.
  @Test func timestampsRepeatedOrOneByteApartReadTheirOwnText() async throws {
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try DataStore(fileURL: url, registry: SeedPostCommentModels.Models.registry)
    let stamps: [(created: String?, updated: String?)] = [
      ("2026-11-30T09:30:00.250Z", "2026-11-30T09:30:00.250Z"),
      ("2026-11-30T09:30:00.251Z", "2026-11-30T09:30:00.250Z"),
      ("2026-11-30T09:30:00.251Z", nil),
      (nil, "2026-11-30T09:30:00.251Z"),
      ("2026-11-30T09:30:00.251+01:00", "2026-11-30T09:30:00.251+01:00"),
      ("2026-12-30T09:30:00.251Z", "2026-11-30T09:30:00.251Z"),
    ]
    for index in stamps.indices {
      try await store.save(Comment4V2(id: "c\(index)", content: "Comment \(index)", post: nil))
    }
    for (index, stamp) in stamps.enumerated() {
      let created = stamp.created.map { "'\($0)'" } ?? "NULL"
      let updated = stamp.updated.map { "'\($0)'" } ?? "NULL"
      try executeRaw(
        "UPDATE \"Comment4V2\" SET \"createdAt\" = \(created), \"updatedAt\" = \(updated) WHERE \"id\" = 'c\(index)'",
        on: url)
    }
    // Twice: the second query's decoder starts with the key order the first one learned.
    for _ in 0..<2 {
      let read = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
      #expect(read.map(\.createdAt?.iso8601String) == stamps.map(\.created))
      #expect(read.map(\.updatedAt?.iso8601String) == stamps.map(\.updated))
    }
  }

  /// A text holding a valid timestamp followed by a NUL and more bytes, right after a row whose
  /// text is that valid timestamp: the whole text is compared (its byte count, not up to the NUL),
  /// so it is a typed error naming the model and field, not the earlier row's value.
  @Test func aTimestampTextWithAnEmbeddedNULIsNotTheTextBeforeIt() async throws {
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try DataStore(fileURL: url, registry: SeedPostCommentModels.Models.registry)
    for id in ["c0", "c1"] {
      try await store.save(Comment4V2(id: id, content: "Comment \(id)", post: nil))
    }
    let valid = "2026-11-30T09:30:00.250Z"
    try executeRaw(
      "UPDATE \"Comment4V2\" SET \"createdAt\" = '\(valid)', \"updatedAt\" = '\(valid)'", on: url)
    // `valid`, a NUL, then "x", as TEXT.
    let hex = (Array(valid.utf8) + [0, UInt8(ascii: "x")]).map { String(format: "%02X", $0) }
      .joined()
    try executeRaw(
      "UPDATE \"Comment4V2\" SET \"updatedAt\" = CAST(X'\(hex)' AS TEXT) WHERE \"id\" = 'c1'",
      on: url)
    let stored = valid + "\u{0}x"
    await #expect(
      throws: DataStoreError.decodingFailed(
        model: "Comment4V2", field: "updatedAt",
        reason: TemporalError(scalar: "AWSDateTime", text: stored).description)
    ) {
      try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    }
  }

  /// More parents than the FK identifiers cache keeps apart in one set (3,000 posts over 1,024
  /// four-way sets, their children met in turn, twice): every child holds its own parent's key,
  /// and loading every reference finds that parent.
  @Test func manyParentsEachChildHoldsItsOwnParentsKey() async throws {
    let url = try temporaryFileURL()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let store = try DataStore(fileURL: url, registry: SeedPostCommentModels.Models.registry)
    let posts = (0..<3_000).map { Post4V2(id: "post-\($0)", title: "Post \($0)") }
    try await store.save(posts)
    let comments = (0..<6_000).map { index in
      Comment4V2(
        id: String(format: "c%05d", index), content: "Comment \(index)",
        post: posts[index % posts.count])
    }
    try await store.save(comments)
    let read = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    #expect(read.count == comments.count)
    let parents = (0..<6_000).map { $0 % 3_000 }
    #expect(read.map { $0.postReference.identifier?.id } == parents.map { "post-\($0)" })
    let loaded = try await LazyReference.loadAll(read.map(\.postReference))
    #expect(loaded.map { $0?.title } == parents.map { "Post \($0)" })
  }
}
