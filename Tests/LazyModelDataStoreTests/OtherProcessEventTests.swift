import CSQLite
import ChildProcessSupport
import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Testing

/// A `DataStoreKillHelper` child process and the lines it prints, read on a thread of its own (never
/// a cooperative-pool thread).
final class HelperProcess: Sendable {
  let lines: AsyncStream<String>
  private let process: ChildProcess

  init(_ arguments: [String]) throws {
    let process = try ChildProcess(executable: KillTests.helper, arguments: arguments, standardOutput: .pipe)
    let (lines, sink) = AsyncStream<String>.makeStream()
    self.lines = lines
    self.process = process
    guard let handle = process.standardOutput else { preconditionFailure("standardOutput: .pipe has a handle") }
    Thread {
      var pending = Data()
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        pending.append(chunk)
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
          sink.yield(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
          pending.removeSubrange(pending.startIndex...end)
        }
      }
      sink.finish()
    }.start()
  }

  /// Ends the child if it still runs.
  func stop() { if process.isRunning { process.terminate() } }
}

/// The lines of `stream` up to and including the first equal to `last` (or the first `count`),
/// failing after 20 s.
func lines(
  of stream: AsyncStream<String>, until last: String? = nil, count: Int = .max
) async throws -> [String] {
  try await withThrowingTaskGroup(of: [String]?.self) { group in
    group.addTask {
      var seen: [String] = []
      for await line in stream {
        seen.append(line)
        if line == last || seen.count == count { break }
      }
      return seen
    }
    group.addTask {
      try await Task.sleep(for: .seconds(20 * testDeadlineScale))
      return nil
    }
    let first = try await group.next() ?? nil
    group.cancelAll()
    return try #require(first, "no line \(last ?? "") within \(20 * testDeadlineScale) s")
  }
}

/// `"saved p Hello"` / `"deleted p Hello"` for a post event.
func describe(_ event: DataStoreEvent<Post4V2>) -> String {
  switch event {
  case .saved(let post): return "saved \(post.id) \(post.title)"
  case .deleted(let post): return "deleted \(post.id) \(post.title)"
  }
}

@Suite("Row events from other processes (the change log)")
struct OtherProcessEventTests {
  @Test(
    "a child process's saves, update, deletes and cascade arrive once each; its rolled-back and refused writes never")
  func childWrites() async throws {
    guard FileManager.default.isExecutableFile(atPath: KillTests.helper.path) else {
      throw KillTestError.noHelper(KillTests.helper.path)
    }
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: seedRegistry)
    let comments = store.observe(Comment4V2.self)
    let posts = store.observe(Post4V2.self)
    // The registration is queued on the writer by `observe`; this write runs after it.
    try await store.write { _ in }
    let child = try HelperProcess([url.path, "events"])
    defer { child.stop() }
    #expect(try await lines(of: child.lines, until: "done").last == "done")
    let seen = try await next(5, of: comments).map(describe)
    #expect(
      seen == [
        "saved c1 one", "saved c2 two", "saved c1 one, edited", "deleted c2 two",
        "deleted c1 one, edited",
      ])
    #expect(try await next(2, of: posts).map(describe) == ["saved p Hello", "deleted p Hello"])
    // Nothing more came from the child: the next event is this process's own.
    try await store.save(Post4V2(id: "q", title: "mine"))
    try await store.save(Comment4V2(id: "marker", content: "mine", post: Post4V2(id: "q", title: "mine")))
    #expect(try await next(1, of: comments).map(describe) == ["saved marker mine"])
  }

  @Test("a deleted row from another process keeps its last stored value; its reference still loads")
  func childDeleteValues() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: seedRegistry)
    let comments = store.observe(Comment4V2.self)
    try await store.write { _ in }
    let child = try HelperProcess([url.path, "events"])
    defer { child.stop() }
    _ = try await lines(of: child.lines, until: "done")
    let events = try await next(4, of: comments)
    guard case .deleted(let deleted) = events[3], case .saved(let saved) = events[0] else {
      Issue.record("unexpected events \(events.map(describe))")
      return
    }
    #expect(deleted.id == "c2" && deleted.content == "two")
    #expect(deleted.createdAt != nil && deleted.updatedAt != nil)
    #expect(deleted.postReference.identifiers == [IdentifierComponent(name: "id", value: .string("p"))])
    #expect(saved.postReference.state.isNotLoaded)
    // Events are reported as they are committed; by now the post is gone too (cascade).
    #expect(try await saved.post == nil)
  }

  @Test("two stores of this process and a child observing: each sees every commit once, a rolled-back write nobody")
  func observersEverywhere() async throws {
    guard FileManager.default.isExecutableFile(atPath: KillTests.helper.path) else {
      throw KillTestError.noHelper(KillTests.helper.path)
    }
    let url = try temporaryFileURL()
    let writer = try DataStore(fileURL: url, registry: seedRegistry)
    let child = try HelperProcess([url.path, "observe", "4"])
    defer { child.stop() }
    #expect(try await lines(of: child.lines, count: 1) == ["ready"])
    let sibling = try DataStore(fileURL: url, registry: seedRegistry)
    let events = sibling.observe(Comment4V2.self)
    try await sibling.write { _ in }

    struct Abandon: Error {}
    let post = Post4V2(id: "p", title: "Hello")
    try await writer.save(post)
    try await writer.write { tx in
      try tx.save(Comment4V2(id: "c1", content: "one", post: post))
      try tx.save(Comment4V2(id: "c2", content: "two", post: post))
    }
    _ = try? await writer.write { tx in
      try tx.save(Comment4V2(id: "c3", content: "rolled back", post: post))
      throw Abandon()
    }
    try await writer.delete(post)
    let expected = ["saved c1 one", "saved c2 two", "deleted c1 one", "deleted c2 two"]
    // The child read them from the change log this process's writer filled.
    #expect(try await lines(of: child.lines, count: 4) == expected)
    // The sibling heard them from this process directly, and skipped their log entries.
    #expect(try await next(4, of: events).map(describe) == expected)
    try await writer.save(Post4V2(id: "q", title: "again"))
    try await writer.save(Comment4V2(id: "marker", content: "m", post: Post4V2(id: "q", title: "again")))
    // Wait past two polls: a duplicate from the log would come before the marker.
    try await Task.sleep(for: .milliseconds(150))
    #expect(try await next(1, of: events).map(describe) == ["saved marker m"])
  }

  @Test("observers started and ended in quick succession leave one registration that still works")
  func churn() async throws {
    guard FileManager.default.isExecutableFile(atPath: KillTests.helper.path) else {
      throw KillTestError.noHelper(KillTests.helper.path)
    }
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: seedRegistry)
    for round in 0..<30 {
      let stream = store.observe(Comment4V2.self)
      let consumer = Task { for await _ in stream {} }
      if round % 3 == 0 { try await store.write { _ in } }  // sometimes registered, sometimes not yet
      consumer.cancel()
      _ = await consumer.value
    }
    let comments = store.observe(Comment4V2.self)
    try await store.write { _ in }
    #expect(
      try RawDatabase(url).rows(#"SELECT count(*) FROM "modelgen_change_observer""#) == [["1"]])
    let child = try HelperProcess([url.path, "events"])
    defer { child.stop() }
    _ = try await lines(of: child.lines, until: "done")
    #expect(try await next(5, of: comments).count == 5)
  }

  @Test("writers log only while another process observes; the log holds exactly the committed rows")
  func logOnlyWhenObserved() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: seedRegistry)
    try await store.save(Post4V2(id: "a", title: "nobody observes"))
    // No store ever observed: the file has no change-log tables.
    let tables = try RawDatabase(url).rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .map { $0[0] }
    #expect(tables == ["Comment4V2", "Post4V2"])
    // Observing in this process only: this process's writes are not logged (no other process reads).
    let events = store.observe(Post4V2.self)
    try await store.write { _ in }
    try await store.save(Post4V2(id: "b", title: "observed here"))
    #expect(try await next(1, of: events).map(describe) == ["saved b observed here"])
    let database = try RawDatabase(url)
    #expect(database.rows(#"SELECT count(*) FROM "modelgen_change_log""#) == [["0"]])
    #expect(database.rows(#"SELECT count(*) FROM "modelgen_change_observer""#) == [["1"]])
    // Reopening with the engine's tables in the file is no migration error.
    _ = try DataStore(fileURL: url, registry: seedRegistry)
  }
}
