import CSQLite
import ChildProcessSupport
import Dispatch
import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Testing

/// Another connection holding the file's write lock: `BEGIN IMMEDIATE` on a plain SQLite
/// connection of this process, released by ``release()``.
final class LockHolder {
  private var db: OpaquePointer?

  init(_ url: URL) throws {
    #expect(sqlite3_open(url.path, &db) == SQLITE_OK)
    #expect(sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
  }

  /// The rows of `table` as this connection sees them (it holds the lock, so it can read).
  func count(_ table: String) -> Int64 {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, "SELECT count(*) FROM \"\(table)\"", -1, &statement, nil) == SQLITE_OK
    else { return -1 }
    defer { sqlite3_finalize(statement) }
    return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : -1
  }

  /// Ends the transaction (nothing was written in it) and closes the connection.
  func release() {
    #expect(sqlite3_exec(db, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
    sqlite3_close(db)
    db = nil
  }

  deinit { if db != nil { sqlite3_close(db) } }
}

/// The bytes of the database file and its `-wal` (empty when missing): "unchanged" is these equal.
func fileBytes(_ url: URL) -> [Data] {
  [url.path, url.path + "-wal"].map { FileManager.default.contents(atPath: $0) ?? Data() }
}

/// A `DataStoreKillHelper lock` child: another process holding the file's write lock inside a
/// store `write` (post `held` saved, not committed) until ``release()``.
final class LockingProcess: Sendable {
  private let process: ChildProcess
  private let input: FileHandle
  let lines: AsyncStream<String>

  init(_ url: URL) throws {
    let process = try ChildProcess(
      executable: KillTests.helper, arguments: [url.path, "lock"], standardInput: .pipe, standardOutput: .pipe)
    guard let input = process.standardInput, let handle = process.standardOutput else {
      preconditionFailure("standardInput and standardOutput: .pipe have handles")
    }
    let (lines, sink) = AsyncStream<String>.makeStream()
    self.process = process
    self.input = input
    self.lines = lines
    // Read on a thread of its own, never a cooperative-pool thread.
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

  /// Lets the child commit; the lines it printed from then on, up to `released`.
  func release() async throws -> [String] {
    input.write(Data("\n".utf8))
    return try await LazyModelDataStoreTests.lines(of: lines, until: "released")
  }

  func stop() { if process.isRunning { process.terminate() } }
}

/// The outcome of a call, timed where it runs: the calling task prefers one of the store's reader
/// executors (a dispatch queue), and the cancel comes from a Dispatch timer, so neither the times
/// nor the cancel wait for a thread of Swift's cooperative pool, which the whole suite shares (on
/// a loaded machine a task there waited minutes to resume).
struct TimedCall: Sendable {
  let error: (any Error)?
  /// From the start of the call to its return or throw.
  let total: Duration
  /// From `cancel()` to the return or throw (`nil` when not cancelled).
  let afterCancel: Duration?
}

/// Arms a cancel: a store's `traceSQL` hook that, once ``arm(_:after:)`` was called, cancels the
/// armed task `delay` after the next `BEGIN IMMEDIATE` starts (the call's job has begun and is
/// waiting for the lock).
final class CancelOnBegin: Sendable {
  private let armed = TestLock<(task: Task<Void, Never>?, delay: Duration)?>(nil)
  let cancelledAt = TestLock<ContinuousClock.Instant?>(nil)
  let statements = SQLLog()

  var hook: @Sendable (String) -> Void {
    { [self] sql in
      statements.hook(sql)
      guard sql == "BEGIN IMMEDIATE", let (task, delay) = armed.withLock({ $0 }), let task else {
        return
      }
      armed.withLock { $0 = nil }
      let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
        self.cancelledAt.withLock { $0 = .now }
        task.cancel()
      }
    }
  }

  func arm(_ task: Task<Void, Never>, after delay: Duration) { armed.withLock { $0 = (task, delay) } }
}

/// Runs `body` in a task that prefers a reader executor of `store`, cancelled `delay` after its
/// job's `BEGIN IMMEDIATE` when `trigger` is given, and times it there.
func timedCall(
  _ store: DataStore, cancel trigger: CancelOnBegin? = nil, after delay: Duration = .zero,
  _ body: @escaping @Sendable () async throws -> Void
) async -> TimedCall {
  let result = TestLock<(error: (any Error)?, total: Duration, end: ContinuousClock.Instant)?>(nil)
  // Armed before the body runs: a paused task, released by the gate once armed.
  let gate = Gate()
  let task = Task(executorPreference: store.readerExecutor) {
    await gate.opened()
    let start = ContinuousClock.now
    var error: (any Error)?
    do { try await body() } catch let thrown { error = thrown }
    let end = ContinuousClock.now
    result.withLock { $0 = (error, end - start, end) }
  }
  trigger?.arm(task, after: delay)
  gate.open()
  await task.value
  let outcome = result.withLock { $0 }!
  let cancelled = trigger?.cancelledAt.withLock { $0 }
  return TimedCall(
    error: outcome.error, total: outcome.total, afterCancel: cancelled.map { outcome.end - $0 })
}

@Suite("Busy wait: bounded by the timeout, ended by cancellation")
struct BusyCancellationTests {
  /// The busy timeout of the cancellation tests: far longer than any bound they assert.
  static let longTimeout = Duration.seconds(20 * testDeadlineScale)
  /// How long after its job's `BEGIN IMMEDIATE` a waiting call is cancelled.
  static let cancelDelay = Duration.milliseconds(200)
  /// The most a cancelled call may take in all (a quarter of the timeout).
  static let cancelledBound = Duration.seconds(5 * testDeadlineScale)
  /// The most a cancelled call may take after its cancel (40 steps of 25 ms).
  static let afterCancelBound = Duration.seconds(testDeadlineScale)

  /// Checks that `call` was cancelled while waiting and ended long before the timeout.
  func expectCancelledPromptly(_ call: TimedCall) {
    #expect(call.error is CancellationError, "\(String(describing: call.error))")
    #expect(call.total >= Self.cancelDelay)
    #expect(call.total < Self.cancelledBound, "took \(call.total) with a \(Self.longTimeout) timeout")
    let afterCancel = call.afterCancel ?? .seconds(1_000)
    #expect(afterCancel < Self.afterCancelBound, "\(afterCancel) after cancel")
  }

  @Test("a save waiting for another connection's lock throws CancellationError soon after cancel; nothing is written")
  func cancelledSave() async throws {
    let url = try temporaryFileURL()
    let trigger = CancelOnBegin()
    let store = try DataStore(
      fileURL: url, registry: seedRegistry, busyTimeout: Self.longTimeout, traceSQL: trigger.hook)
    try await store.save(Post4V2(id: "before", title: "t"))
    let holder = try LockHolder(url)
    let before = fileBytes(url)
    trigger.statements.clear()
    let call = await timedCall(store, cancel: trigger, after: Self.cancelDelay) {
      _ = try await store.save(Post4V2(id: "cancelled", title: "t"))
    }
    expectCancelledPromptly(call)
    // The job had started and was waiting for the lock (not skipped before it began).
    #expect(trigger.statements.all == ["BEGIN IMMEDIATE"])
    #expect(fileBytes(url) == before)
    #expect(holder.count("Post4V2") == 1)
    holder.release()
    // Uncancelled, once the lock is released: saved.
    try await store.save(Post4V2(id: "after", title: "t"))
    #expect(
      try await store.query(Post4V2.self, sort: [.ascending(Post4V2.keys.id)]).map(\.id) == [
        "after", "before",
      ])
  }

  @Test("a write waiting for the lock is cancelled before its closure runs; it writes nothing")
  func cancelledWrite() async throws {
    let url = try temporaryFileURL()
    let trigger = CancelOnBegin()
    let store = try DataStore(
      fileURL: url, registry: seedRegistry, busyTimeout: Self.longTimeout, traceSQL: trigger.hook)
    let holder = try LockHolder(url)
    let ran = TestLock(false)
    let call = await timedCall(store, cancel: trigger, after: Self.cancelDelay) {
      try await store.write { tx in
        ran.withLock { $0 = true }
        try tx.save(Post4V2(id: "cancelled", title: "t"))
      }
    }
    expectCancelledPromptly(call)
    #expect(ran.withLock { $0 } == false)
    holder.release()
    #expect(try await store.count(Post4V2.self) == 0)
    let stored = try await store.write { tx in try tx.save(Post4V2(id: "later", title: "t")) }
    #expect(stored.id == "later")
  }

  @Test("another process holds the write lock: a cancelled save stops waiting; after the release a save succeeds")
  func otherProcessLock() async throws {
    let helper = KillTests.helper
    guard FileManager.default.isExecutableFile(atPath: helper.path) else {
      throw KillTestError.noHelper(helper.path)
    }
    let url = try temporaryFileURL()
    let trigger = CancelOnBegin()
    let store = try DataStore(
      fileURL: url, registry: seedRegistry, busyTimeout: Self.longTimeout, traceSQL: trigger.hook)
    let child = try LockingProcess(url)
    defer { child.stop() }
    #expect(try await lines(of: child.lines, until: "locked") == ["locked"])
    let before = fileBytes(url)
    let call = await timedCall(store, cancel: trigger, after: Self.cancelDelay) {
      _ = try await store.save(Post4V2(id: "cancelled", title: "t"))
    }
    expectCancelledPromptly(call)
    #expect(fileBytes(url) == before)
    #expect(try await child.release() == ["released"])
    try await store.save(Post4V2(id: "mine", title: "t"))
    #expect(
      try await store.query(Post4V2.self, sort: [.ascending(Post4V2.keys.id)]).map(\.id) == [
        "held", "mine",
      ])
  }

  @Test("not cancelled: the wait lasts the whole timeout, then .busy names the file and the timeout")
  func timeout() async throws {
    let url = try temporaryFileURL()
    // Not a multiple of the 25 ms step: the last sleep is shortened, never skipped.
    let store = try DataStore(fileURL: url, registry: seedRegistry, busyTimeout: .milliseconds(310))
    let holder = try LockHolder(url)
    let call = await timedCall(store) { _ = try await store.save(Post4V2(id: "p", title: "t")) }
    #expect(call.error as? DataStoreError == .busy(file: url.path, timeoutMilliseconds: 310))
    #expect(call.total >= .milliseconds(310), "waited \(call.total)")
    #expect(call.total < .seconds(5 * testDeadlineScale), "waited \(call.total)")
    #expect(holder.count("Post4V2") == 0)
    holder.release()
    try await store.save(Post4V2(id: "p", title: "t"))
    #expect(try await store.count(Post4V2.self) == 1)
  }

  @Test("a zero busy timeout does not wait: .busy at once")
  func zeroTimeout() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: seedRegistry, busyTimeout: .zero)
    let holder = try LockHolder(url)
    let call = await timedCall(store) { _ = try await store.save(Post4V2(id: "p", title: "t")) }
    #expect(call.error as? DataStoreError == .busy(file: url.path, timeoutMilliseconds: 0))
    #expect(call.total < .seconds(testDeadlineScale), "took \(call.total)")
    holder.release()
  }
}
