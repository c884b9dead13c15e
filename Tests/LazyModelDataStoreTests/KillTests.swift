import CSQLite
import ChildProcessSupport
import Foundation
import Testing

/// The SQLite file after a writer process was killed: what `PRAGMA integrity_check` and
/// `PRAGMA foreign_key_check` say, and the comment count of each post `t<n>`.
struct FileState {
  var integrity: [String] = []
  var foreignKeyProblems = 0
  var commentsPerPost: [Int: Int] = [:]
  var orphanComments = 0

  init(_ url: URL) throws {
    var db: OpaquePointer?
    guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
      throw KillTestError.cannotOpen(url.path)
    }
    defer { sqlite3_close_v2(db) }
    func rows(_ sql: String, _ row: (OpaquePointer) -> Void) {
      var statement: OpaquePointer?
      guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
        integrity.append("cannot prepare \(sql): \(String(cString: sqlite3_errmsg(db)))")
        return
      }
      defer { sqlite3_finalize(statement) }
      while sqlite3_step(statement) == SQLITE_ROW { row(statement) }
    }
    rows("PRAGMA integrity_check") { integrity.append(String(cString: sqlite3_column_text($0, 0))) }
    rows("PRAGMA foreign_key_check") { _ in foreignKeyProblems += 1 }
    rows(
      #"SELECT p."id", count(c."id") FROM "Post4V2" p LEFT JOIN "Comment4V2" c ON c."postID" = p."id" GROUP BY p."id""#
    ) { statement in
      let id = String(cString: sqlite3_column_text(statement, 0))
      commentsPerPost[Int(id.dropFirst()) ?? -1] = Int(sqlite3_column_int64(statement, 1))
    }
    rows(
      #"SELECT count(*) FROM "Comment4V2" c WHERE NOT EXISTS (SELECT 1 FROM "Post4V2" p WHERE p."id" = c."postID")"#
    ) { orphanComments = Int(sqlite3_column_int64($0, 0)) }
  }
}

enum KillTestError: Error {
  case cannotOpen(String)
  case noHelper(String)
}

@Suite("A writer killed with SIGKILL")
struct KillTests {
  /// The helper executable, built beside the test bundle.
  static var helper: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("DataStoreKillHelper")
  }

  @Test(
    "killed at 24 random points: integrity and foreign keys hold, each transaction is all or nothing, nothing committed is lost"
  )
  func killedAtRandomPoints() async throws {
    let helper = Self.helper
    guard FileManager.default.isExecutableFile(atPath: helper.path) else {
      throw KillTestError.noHelper(helper.path)
    }
    let seed = UInt64(Date().timeIntervalSince1970 * 1000)
    var random = SplitMix(seed: seed)
    let url = try temporaryFileURL()
    var next = 0
    var committed: Set<Int> = []
    for round in 0..<24 {
      let process = try ChildProcess(
        executable: helper, arguments: [url.path, String(next)], standardOutput: .collect)
      // Kill somewhere between opening the file and a few hundred transactions in.
      let delay = 30 + Int(random.next() % 400)
      try await Task.sleep(for: .milliseconds(delay))
      process.kill(SIGKILL)
      // The exit and the output's end are waited for by ChildProcess's threads; this suspends.
      await process.waitForExit()
      let printed = String(decoding: process.collectedStandardOutput, as: UTF8.self)
      let acknowledged = printed.split(separator: "\n").compactMap { Int($0) }
      committed.formUnion(acknowledged)

      let state = try FileState(url)
      let context = "round \(round), seed \(seed), killed after \(delay) ms"
      #expect(state.integrity == ["ok"], "\(context)")
      #expect(state.foreignKeyProblems == 0, "\(context)")
      #expect(state.orphanComments == 0, "\(context)")
      // All or nothing: every stored transaction has its post and all 20 comments.
      #expect(state.commentsPerPost.values.allSatisfy { $0 == 20 }, "\(context)")
      // Nothing acknowledged is lost.
      #expect(committed.isSubset(of: state.commentsPerPost.keys), "\(context)")
      next = (state.commentsPerPost.keys.max() ?? -1) + 1
      next = max(next, (committed.max() ?? -1) + 1)
    }
    #expect(!committed.isEmpty, "seed \(seed): no transaction ever committed")
  }
}

/// A small seeded generator (SplitMix64), so that a failure names the seed that reproduces it.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
