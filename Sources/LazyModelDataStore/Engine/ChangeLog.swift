import CSQLite
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The change log: how row changes committed by a ``DataStore`` in one process reach the
/// ``DataStore/observe(_:)`` observers of the stores that other processes have open on the same
/// file (SQLite's hooks only see their own connection; stores of one process hand each other their
/// changes directly, see `SameFileStores`).
///
/// Two tables in the database file, created by the first store that observes it (a file nobody
/// observes never gets them), both named with ``tablePrefix`` so that migration leaves them alone:
///
/// - `modelgen_change_observer` — one row per observing store: its random id, its process's token
///   and pid. A store registers when its first observer starts (``ChangeLogWatcher``) and leaves
///   when its last one ends.
/// - `modelgen_change_log` — one row per changed row (`seq` increasing without gaps, AUTOINCREMENT),
///   with the writing process's token, the commit's wall time, the table, the kind (0 saved,
///   1 deleted) and the row's values in the table's column order (the new values of a save, the
///   last stored values of a delete, cascaded deletes included; ``encode(_:)``).
///
/// Writers (``ChangeLogWriter``): a write transaction logs its changes, in the same transaction
/// just before `COMMIT`, when the file has an observer registered by another process — so every
/// committed change is logged once and a rolled-back one never. Whether it must is read again only
/// when `PRAGMA data_version` says another connection committed; registrations of processes that
/// no longer exist (`kill(pid, 0)`; WAL files are shared on one host only) are deleted then.
///
/// Readers (``ChangeLogWatcher``): while a store has observers, one of its reader connections
/// checks `PRAGMA data_version` every ``pollInterval`` and, when it moved, reads the entries after
/// the last one it saw, skips those of its own process and reports the rest as the hooks' changes
/// are reported.
///
/// Pruning is by age: a writer deletes entries older than ``retention`` (at most once per
/// 1,000 logged rows). A store that does not poll for longer than that (a suspended process) misses
/// the pruned entries: it notices the gap (`seq` is contiguous), and its live queries read again,
/// but those `observe` events are lost.
///
/// The sync engine's tables should follow the same prefix; their creation lives next to theirs.
enum ChangeLog {
  /// The prefix of the engine's own tables (not models): migration skips them and the change
  /// hooks do not report them.
  static let tablePrefix = "modelgen_"

  /// The prefix's length in UTF-8 bytes.
  static let tablePrefixLength = tablePrefix.utf8.count

  /// Whether `table` is one of the engine's own tables.
  static func isEngineTable(_ table: String) -> Bool { table.hasPrefix(tablePrefix) }

  /// How often an observing store looks for other processes' changes.
  static let pollInterval: DispatchTimeInterval = .milliseconds(50)

  /// How long log entries are kept (seconds).
  static let retention: Double = 60

  /// This process's token, written with every entry and registration (pids can be reused; this
  /// tells the entries of this run of the process from those of an earlier one).
  static let process = Int64.random(in: 1...Int64.max)

  static let createSQL = """
    CREATE TABLE IF NOT EXISTS "modelgen_change_log" ("seq" INTEGER PRIMARY KEY AUTOINCREMENT, \
    "process" INTEGER NOT NULL, "at" REAL NOT NULL, "model_table" TEXT NOT NULL, \
    "kind" INTEGER NOT NULL, "row" BLOB NOT NULL) STRICT;
    CREATE TABLE IF NOT EXISTS "modelgen_change_observer" ("store" INTEGER PRIMARY KEY, \
    "process" INTEGER NOT NULL, "pid" INTEGER NOT NULL) STRICT;
    """

  /// The last `seq` ever given (0 before the first entry); entries after it get `seq + 1, …`.
  static func lastSequence(_ connection: Connection) throws -> Int64 {
    let statement = try connection.prepare(
      "SELECT seq FROM sqlite_sequence WHERE name = 'modelgen_change_log'")
    defer { statement.reset() }
    return try statement.step() ? statement.int64(0) : 0
  }

  /// Deletes the entries older than ``retention``.
  static func prune(_ connection: Connection, now: Double) throws {
    let prune = try connection.prepare(#"DELETE FROM "modelgen_change_log" WHERE "at" < ?"#)
    try prune.bind([.real(now - retention)])
    try prune.run()
  }

  /// Whether a process with `pid` exists (`EPERM`: it exists, owned by someone else).
  static func isAlive(_ pid: Int64) -> Bool {
    guard let pid = Int32(exactly: pid), pid > 0 else { return false }
    return kill(pid, 0) == 0 || errno == EPERM
  }

  // MARK: Row values as bytes

  /// `values` as bytes: per value a tag (0 null, 1 integer, 2 real, 3 text) and its payload
  /// (8 little-endian bytes of the integer or of the double's bits; a 4-byte length and the UTF-8
  /// bytes of a text). Exact: no value changes on the way.
  static func encode(_ values: [SQLValue]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(values.count * 9)
    func append(_ number: UInt64, _ count: Int) {
      for shift in 0..<count { bytes.append(UInt8(truncatingIfNeeded: number >> (8 * shift))) }
    }
    for value in values {
      switch value {
      case .null: bytes.append(0)
      case .integer(let number):
        bytes.append(1)
        append(UInt64(bitPattern: number), 8)
      case .real(let number):
        bytes.append(2)
        append(number.bitPattern, 8)
      case .text(let text):
        bytes.append(3)
        let utf8 = text.utf8
        append(UInt64(utf8.count), 4)
        bytes.append(contentsOf: utf8)
      }
    }
    return bytes
  }

  /// The values ``encode(_:)`` wrote, or `nil` when `bytes` is not such an encoding.
  static func decode(_ bytes: UnsafeRawBufferPointer) -> [SQLValue]? {
    var values: [SQLValue] = []
    var offset = 0
    func read(_ count: Int) -> UInt64? {
      guard offset + count <= bytes.count else { return nil }
      var number: UInt64 = 0
      for index in 0..<count { number |= UInt64(bytes[offset + index]) << (8 * index) }
      offset += count
      return number
    }
    while offset < bytes.count {
      let tag = bytes[offset]
      offset += 1
      switch tag {
      case 0: values.append(.null)
      case 1:
        guard let number = read(8) else { return nil }
        values.append(.integer(Int64(bitPattern: number)))
      case 2:
        guard let number = read(8) else { return nil }
        values.append(.real(Double(bitPattern: number)))
      case 3:
        guard let length = read(4).map(Int.init), offset + length <= bytes.count else { return nil }
        values.append(
          .text(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)))
        offset += length
      default: return nil
      }
    }
    return values
  }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before `sqlite3_bind_blob` returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The writer's side of the change log: decides per write transaction whether its changes must be
/// logged, and logs them before `COMMIT` (see ``ChangeLog``).
///
/// Thread-safety: `Sendable` by confinement: used only on the writer connection's queue.
final class ChangeLogWriter: @unchecked Sendable {
  /// `PRAGMA data_version` when the registrations were last read (`nil`: never).
  private var checkedVersion: Int64?
  /// Whether another process's store observes the file (as of ``checkedVersion``).
  private var mustLog = false
  /// Rows logged since the last pruning (`nil`: not pruned since the store opened).
  private var loggedSincePrune: Int?

  /// At the start of a write transaction (after `BEGIN IMMEDIATE`, so registrations committed
  /// before it are seen): whether this transaction logs its changes; tells the collector to keep
  /// row values when it does.
  func begin(_ connection: Connection) throws {
    let version = try connection.dataVersion()
    if version != checkedVersion {
      mustLog = try foreignObserversExist(connection)
      checkedVersion = version
    }
    connection.changes?.logging = mustLog
  }

  /// Whether a store of another (living) process is registered; deletes dead registrations.
  private func foreignObserversExist(_ connection: Connection) throws -> Bool {
    let exists = try connection.prepare(
      "SELECT count(*) FROM sqlite_schema WHERE name = 'modelgen_change_observer'")
    let hasTable = try exists.step() && exists.int64(0) > 0
    exists.reset()
    guard hasTable else { return false }
    let registered = try connection.prepare(
      #"SELECT "store", "pid" FROM "modelgen_change_observer" WHERE "process" <> ?"#)
    try registered.bind([.integer(ChangeLog.process)])
    var dead: [Int64] = []
    var alive = false
    while try registered.step() {
      if ChangeLog.isAlive(registered.int64(1)) {
        alive = true
      } else {
        dead.append(registered.int64(0))
      }
    }
    registered.reset()
    if !dead.isEmpty {
      let delete = try connection.prepare(
        #"DELETE FROM "modelgen_change_observer" WHERE "store" = ?"#)
      for store in dead {
        try delete.bind([.integer(store)])
        try delete.run()
      }
    }
    return alive
  }

  /// Before `COMMIT`: logs the transaction's changes when ``begin(_:)`` said so, and now and then
  /// deletes entries older than ``ChangeLog/retention``.
  func append(_ changes: [RowChange], _ connection: Connection) throws {
    guard connection.changes?.logging == true, !changes.isEmpty else { return }
    let now = Date().timeIntervalSince1970
    let insert = try connection.prepare(
      #"INSERT INTO "modelgen_change_log" ("process", "at", "model_table", "kind", "row") VALUES (?, ?, ?, ?, ?)"#
    )
    for change in changes {
      try insert.bind([
        .integer(ChangeLog.process), .real(now), .text(change.table),
        .integer(change.kind == .saved ? 0 : 1),
      ])
      let bytes = ChangeLog.encode(change.values)
      let code = sqlite3_bind_blob(insert.handle, 5, bytes, Int32(bytes.count), sqliteTransient)
      guard code == SQLITE_OK else { throw connection.error(code, sql: insert.sql) }
      try insert.run()
    }
    if loggedSincePrune.map({ $0 >= 1_000 }) ?? true {
      try ChangeLog.prune(connection, now: now)
      loggedSincePrune = 0
    }
    loggedSincePrune? += changes.count
  }
}

/// The reader's side of the change log for one store: registers the store while it has observers
/// and polls the log for other processes' changes (see ``ChangeLog``).
///
/// Thread-safety: `Sendable`; its state sits behind a ``StoreLock``; registration runs on the
/// writer's queue, polling on one reader's queue, so no SQLite call runs on the caller's thread.
final class ChangeLogWatcher: Sendable {
  /// `@unchecked`: a Dispatch source is thread-safe (its methods may be called from any thread),
  /// though its protocol is not marked `Sendable`; the other fields are values.
  private struct State: @unchecked Sendable {
    /// Observers of the store (``DataStore/observe(_:)`` and live queries).
    var observers = 0
    /// Bumped on every start and stop, so that a registration that finishes after a later stop
    /// does not start polling.
    var epoch = 0
    var timer: (any DispatchSourceTimer)?
    /// The last `seq` seen; `nil` while not registered.
    var lastSequence: Int64?
    /// `PRAGMA data_version` of the polling connection at the last poll.
    var lastVersion: Int64?
  }
  private let state = StoreLock(State())
  private let id = Int64.random(in: 1...Int64.max)
  private let writer: ConnectionQueue
  private let reader: ConnectionQueue

  init(writer: ConnectionQueue, reader: ConnectionQueue) {
    self.writer = writer
    self.reader = reader
  }

  /// Whether `queue` is the reader this watcher polls on (the one that looks for other processes'
  /// commits).
  func watches(_ queue: ConnectionQueue) -> Bool { queue === reader }

  deinit {
    state.withLock { $0.timer?.cancel() }
  }

  /// An observer of `store` started: the first one registers the store (a write job queued now,
  /// so a `write` of this store called afterwards runs after it) and then starts polling.
  func observerStarted(_ store: DataStore) {
    let epoch = state.withLock { state -> Int? in
      state.observers += 1
      guard state.observers == 1 else { return nil }
      state.epoch += 1
      return state.epoch
    }
    guard let epoch else { return }
    let id = self.id
    writer.enqueue { [weak store, self] connection in
      // The log starts after the last entry committed before the registration: every later
      // commit of another process sees the registration and logs.
      let baseline: Int64? = try? connection.transaction(write: true) {
        try connection.execute(ChangeLog.createSQL)
        let register = try connection.prepare(
          #"INSERT OR REPLACE INTO "modelgen_change_observer" ("store", "process", "pid") VALUES (?, ?, ?)"#
        )
        try register.bind([.integer(id), .integer(ChangeLog.process), .integer(Int64(getpid()))])
        try register.run()
        try ChangeLog.prune(connection, now: Date().timeIntervalSince1970)
        return try ChangeLog.lastSequence(connection)
      }
      guard let baseline, let store else { return }
      self.startPolling(store, epoch: epoch, baseline: baseline)
    }
  }

  /// An observer of the store ended: the last one stops polling and unregisters the store.
  func observerEnded() {
    let stopping = state.withLock { state -> Bool in
      state.observers -= 1
      guard state.observers == 0 else { return false }
      state.epoch += 1
      state.timer?.cancel()
      state.timer = nil
      state.lastSequence = nil
      return true
    }
    guard stopping else { return }
    let id = self.id
    writer.enqueue { connection in
      _ = try? connection.transaction(write: true) {
        let leave = try connection.prepare(
          #"DELETE FROM "modelgen_change_observer" WHERE "store" = ?"#)
        try leave.bind([.integer(id)])
        try leave.run()
      }
    }
  }

  private func startPolling(_ store: DataStore, epoch: Int, baseline: Int64) {
    let reader = self.reader
    // Made only when it will be activated below: Dispatch traps when an inactive source is
    // released. (A stop meanwhile cancels it; activating a cancelled source is harmless.)
    let made = state.withLock { state -> (any DispatchSourceTimer)? in
      guard state.epoch == epoch, state.observers > 0 else { return nil }
      let timer = DispatchSource.makeTimerSource(queue: reader.queue)
      state.lastSequence = baseline
      state.lastVersion = nil
      state.timer?.cancel()
      state.timer = timer
      return timer
    }
    guard let timer = made else { return }
    timer.setEventHandler { [weak store, weak self] in
      guard let store, let self else { return }
      reader.onQueue { connection in self.poll(store, connection) }
    }
    timer.schedule(
      deadline: .now() + ChangeLog.pollInterval, repeating: ChangeLog.pollInterval,
      leeway: .milliseconds(10))
    timer.activate()
  }

  /// One poll, on the reader's queue: when `PRAGMA data_version` moved, reads the entries after the
  /// last one seen and reports those of other processes to the store's observers.
  private func poll(_ store: DataStore, _ connection: Connection) {
    guard let version = try? connection.dataVersion() else { return }
    guard let last = state.withLock({ $0.lastVersion == version ? nil : $0.lastSequence }) else {
      return
    }
    var foreign: [RowChange] = []
    var seen = 0
    let read: Int64? = try? connection.transaction(write: false) {
      let end = try ChangeLog.lastSequence(connection)
      guard end > last else { return end }
      let entries = try connection.prepare(
        #"SELECT "process", "model_table", "kind", "row" FROM "modelgen_change_log" WHERE "seq" > ? ORDER BY "seq""#
      )
      defer { entries.reset() }
      try entries.bind([.integer(last)])
      while try entries.step() {
        seen += 1
        guard entries.int64(0) != ChangeLog.process else { continue }
        let count = Int(sqlite3_column_bytes(entries.handle, 3))
        let values = sqlite3_column_blob(entries.handle, 3).flatMap {
          ChangeLog.decode(UnsafeRawBufferPointer(start: $0, count: count))
        }
        guard let values else { continue }
        foreign.append(
          RowChange(
            table: entries.text(1), kind: entries.int64(2) == 0 ? .saved : .deleted,
            values: values))
      }
      return end
    }
    guard let end = read else { return }
    let current = state.withLock { state -> Bool in
      guard state.lastSequence == last else { return false }
      state.lastSequence = end
      state.lastVersion = version
      return true
    }
    guard current else { return }
    if !foreign.isEmpty { store.deliver(foreign) }
    if Int64(seen) < end - last {
      // Entries pruned before this store read them (it did not poll for ``ChangeLog/retention``):
      // their events are lost; live queries read again.
      store.observers.signalAll()
    } else if store.observers.hasSignals {
      // A commit that logged nothing and was not this process's (another program): live queries
      // read again.
      store.detectOtherProcesses(connection)
    }
  }
}
