import CSQLite
import Foundation
import LazyModel
import SeedPostCommentModels
import Testing

@testable import LazyModelDataStore

/// Issue 11: a sibling batch (``DataStore/batchesSiblingReferences``) answers a load only while
/// the file's version (the WAL-index header the store's probe connection mapped, or its
/// `PRAGMA data_version`) is the one read before the batch was read, so a commit by anyone — this store, a second store on the file, another
/// process, a plain `sqlite3` connection — is seen by the next load, with no observer anywhere.
/// Real files; the child process is `DataStoreKillHelper rename`.
@Suite("Sibling batches check the file's version")
struct SiblingBatchVersionTests {
  /// Who commits to the file after the batch was read.
  enum Committer: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The loading store itself (its writer is another connection than its probe).
    case thisStore
    /// A second `DataStore` of this process on the file's real path.
    case secondStore
    /// `DataStoreKillHelper <file> rename p1 "after 1"`: another process, its own `DataStore`.
    case childProcess
    /// A plain SQLite connection of this process (`sqlite3_open_v2`, `UPDATE`), no `DataStore`.
    case plainSQLite
    var description: String { rawValue }
  }

  /// How the loading store names its file.
  enum PathKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case realPath, symbolicLink
    var description: String { rawValue }
  }

  /// A file with posts `p0`…`p9` (titles `before <n>`) and comments `c000`…`c099` (comment `n` on
  /// post `n % 10`), written by a store that is gone when this returns; the file's real URL and
  /// the URL the loading store should open (the real one, or a symbolic link to it).
  static func seededFile(_ kind: PathKind) async throws -> (real: URL, opened: URL) {
    let url = try temporaryFileURL()
    do {
      let seeding = try DataStore(fileURL: url, registry: seedRegistry)
      let posts = (0..<10).map { Post4V2(id: "p\($0)", title: "before \($0)") }
      try await seeding.save(posts)
      try await seeding.save(
        (0..<100).map { Comment4V2(id: String(format: "c%03d", $0), content: "x", post: posts[$0 % 10]) })
    }
    guard kind == .symbolicLink else { return (url, url) }
    let link = url.deletingLastPathComponent().appendingPathComponent("link.sqlite")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
    return (url, link)
  }

  /// Renames post `p1` to `after 1` as `committer` does it.
  static func rename(by committer: Committer, file: URL, store: DataStore) async throws {
    switch committer {
    case .thisStore, .secondStore:
      let writer = try committer == .thisStore ? store : DataStore(fileURL: file, registry: seedRegistry)
      var post = try #require(try await writer.query(Post4V2.self, byIdentifier: .init(id: "p1")))
      post.title = "after 1"
      try await writer.save(post)
    case .childProcess:
      let child = try HelperProcess([file.path, "rename", "p1", "after 1"])
      defer { child.stop() }
      #expect(try await lines(of: child.lines, until: "renamed").last == "renamed")
    case .plainSQLite:
      var db: OpaquePointer?
      #expect(sqlite3_open_v2(file.path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
      defer { sqlite3_close_v2(db) }
      sqlite3_busy_timeout(db, 5_000)
      #expect(
        sqlite3_exec(db, #"UPDATE "Post4V2" SET "title" = 'after 1' WHERE "id" = 'p1'"#, nil, nil, nil)
          == SQLITE_OK)
      #expect(sqlite3_changes(db) == 1)
    }
  }

  @Test(
    "a commit after the batch was read is seen by the next load, whoever made it and by whatever path the store opened the file",
    arguments: Committer.allCases, PathKind.allCases)
  func commitAfterBatchIsSeen(_ committer: Committer, _ kind: PathKind) async throws {
    let (real, opened) = try await Self.seededFile(kind)
    let log = SQLLog()
    let store = try DataStore(fileURL: opened, registry: seedRegistry, traceSQL: log.hook)
    let comments = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    log.clear()
    #expect(try await comments[0].post?.title == "before 0")
    #expect(try await comments[1].post?.title == "before 1")
    #expect(try await comments[11].post?.title == "before 1")
    // One batch read the ten posts; the other loads answered from it, with no SQL.
    #expect(log.queries.count == 1)
    #expect(log.queries.first?.contains(#"WHERE "id" IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#) == true)

    try await Self.rename(by: committer, file: real, store: store)
    log.clear()
    #expect(try await comments[21].post?.title == "after 1")
    #expect(try await comments[3].post?.title == "before 3")
    // The batch was not answered from: two primary-key lookups.
    #expect(log.queries.count == 2)
    #expect(log.queries.allSatisfy { $0.contains(#"WHERE "id" = ?"#) })

    // A fresh query's batch, and the unbatched path, agree on every comment.
    let again = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    let batched = try await SiblingBatchTests.titles(again)
    #expect(batched == (0..<100).map { $0 % 10 == 1 ? "after 1" : "before \($0 % 10)" })
    #expect(try await SiblingBatchTests.unbatchedTitles(store) == batched)
  }

  @Test("with nothing committed, every load after the first answers from the batch: no SQL")
  func unchangedFileKeepsTheBatch() async throws {
    let (_, opened) = try await Self.seededFile(.realPath)
    let log = SQLLog()
    let store = try DataStore(fileURL: opened, registry: seedRegistry, traceSQL: log.hook)
    let comments = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    log.clear()
    let titles = try await SiblingBatchTests.titles(comments)
    #expect(titles == (0..<100).map { "before \($0 % 10)" })
    // The batch's own transaction and its one statement; the probe runs no statement.
    #expect(log.all.count == 3)
    #expect(log.queries.count == 1)
    // The same from a task preferring a reader's executor (the load runs on the reader's thread).
    let again = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    log.clear()
    let preferring = try await withTaskExecutorPreference(store.readerExecutor) {
      try await SiblingBatchTests.titles(again)
    }
    #expect(preferring == titles)
    #expect(log.queries.count == 1)
  }

  @Test("a commit of another process is seen from a task preferring a reader's executor too")
  func childCommitSeenOnReaderThread() async throws {
    let (real, opened) = try await Self.seededFile(.realPath)
    let log = SQLLog()
    let store = try DataStore(fileURL: opened, registry: seedRegistry, traceSQL: log.hook)
    let comments = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    let before = try await withTaskExecutorPreference(store.readerExecutor) {
      try await comments[1].post?.title
    }
    #expect(before == "before 1")
    try await Self.rename(by: .childProcess, file: real, store: store)
    log.clear()
    let after = try await withTaskExecutorPreference(store.readerExecutor) {
      try await comments[11].post?.title
    }
    #expect(after == "after 1")
    #expect(log.queries.count == 1)
    #expect(log.queries.first?.contains(#"WHERE "id" = ?"#) == true)
  }

  @Test(
    "the probe's version moves with every commit to the file (its own store's writer, a plain connection), and only then; the WAL-index header and the PRAGMA fallback agree",
    arguments: [true, false])
  func probeFollowsCommits(_ mapsWALIndex: Bool) async throws {
    let (real, _) = try await Self.seededFile(.realPath)
    let store = try DataStore(fileURL: real, registry: seedRegistry)
    #expect(store.fileVersion.readsWALIndex)
    let probe = try FileVersionProbe(
      path: real.path, commits: FileCommitCounter(), writer: nil, mapsWALIndex: mapsWALIndex)
    #expect(probe.readsWALIndex == mapsWALIndex)
    let start = try #require(probe.current)
    _ = try await store.query(Post4V2.self)  // reads commit nothing
    #expect(probe.current == start)
    try await store.save(Post4V2(id: "p1", title: "by the writer"))
    let afterWriter = try #require(probe.current)
    #expect(afterWriter != start)
    #expect(probe.current == afterWriter)
    try await Self.rename(by: .plainSQLite, file: real, store: store)
    let afterPlain = try #require(probe.current)
    #expect(afterPlain != afterWriter)
    try await Self.rename(by: .childProcess, file: real, store: store)
    #expect(probe.current != afterPlain)
  }

  @Test(
    "a load cancelled while its batch is read throws CancellationError and leaves no batch behind",
    arguments: StoreLocation.allCases)
  func cancelledDuringBatchRead(_ location: StoreLocation) async throws {
    // The task to cancel when the batch's first `IN` statement starts (the trace hook runs on the
    // connection's queue as SQLite starts it; the progress handler then interrupts it).
    let cancelOnBatch = TestLock<Task<Post4V2??, any Error>?>(nil)
    let log = SQLLog()
    let hook: @Sendable (String) -> Void = { sql in
      log.hook(sql)
      guard sql.contains(" IN (") else { return }
      let task = cancelOnBatch.withLock { slot in
        defer { slot = nil }
        return slot
      }
      task?.cancel()
    }
    let store =
      try location == .file
      ? DataStore(fileURL: try temporaryFileURL(), registry: seedRegistry, traceSQL: hook)
      : DataStore.inMemory(registry: seedRegistry, traceSQL: hook)
    // 3,000 posts: a batch of six statements of 500 keys.
    let posts = (0..<3_000).map { Post4V2(id: String(format: "p%04d", $0), title: "Post \($0)") }
    try await store.save(posts)
    let siblings = SiblingReferences<Post4V2>(store: store)
    for post in posts { siblings.add([IdentifierComponent(name: "id", value: .string(post.id))]) }
    let provider = DataStoreReferenceProvider<Post4V2>(store: store, siblings: siblings)
    let first = [IdentifierComponent(name: "id", value: .string("p0007"))]
    log.clear()

    let task = cancelOnBatch.withLock { slot in
      let task = Task { try await siblings.load(first) }
      slot = task
      return task
    }
    await #expect(throws: CancellationError.self) { _ = try await task.value }
    #expect(cancelOnBatch.withLock { $0 == nil })  // the hook cancelled it during the batch
    #expect(siblings.batchCount == 0)
    #expect(log.queries.count >= 1)
    #expect(log.queries.count < 6)  // interrupted before the batch's last statement

    // Nothing is left half-read: the next load reads the whole batch again and answers from it.
    log.clear()
    #expect(try await provider.load(identifiers: first)?.title == "Post 7")
    #expect(siblings.batchCount == 1)
    #expect(log.queries.map { $0.components(separatedBy: "?").count - 1 } == [500, 500, 500, 500, 500, 500])
    log.clear()
    for index in [0, 499, 500, 2_999] {
      let identifiers = [IdentifierComponent(name: "id", value: .string(String(format: "p%04d", index)))]
      #expect(try await provider.load(identifiers: identifiers)?.title == "Post \(index)")
    }
    #expect(log.queries.isEmpty)
  }
}
