import CSQLite
import Foundation

/// `SQLITE_TRANSIENT`: SQLite copies bound text before `sqlite3_bind_text` returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// `SQLITE_CONSTRAINT_FOREIGNKEY` (an extended result code; its C macro is not imported).
let sqliteConstraintForeignKey: Int32 = SQLITE_CONSTRAINT | (3 << 8)
/// `SQLITE_CONSTRAINT_PRIMARYKEY`.
let sqliteConstraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)
/// `SQLITE_CONSTRAINT_UNIQUE`.
let sqliteConstraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
/// Whether `code` (an extended result code) is one of the `SQLITE_CONSTRAINT_*` codes.
func isConstraintFailure(_ code: Int32) -> Bool { code & 0xff == SQLITE_CONSTRAINT }

/// Receives the SQL text (with `?` placeholders, never values) of every statement SQLite starts.
final class TraceBox: Sendable {
  let body: @Sendable (String) -> Void
  init(_ body: @escaping @Sendable (String) -> Void) { self.body = body }
}

/// A model's table as the store made it: the model it stores and its columns (``TableMapping``).
struct ExpectedTable: Sendable {
  let model: String
  let columns: [String]
}

/// One open SQLite connection with a prepared-statement cache.
///
/// Not thread-safe: it is only ever used by the one ``SerializedConnection`` that owns it, which
/// is why it is opened with `SQLITE_OPEN_NOMUTEX`.
final class Connection {
  let handle: OpaquePointer
  private var statements: [String: Statement] = [:]
  private let trace: TraceBox?
  /// The file (or `":memory:"`), for errors that name it.
  let path: String
  /// The busy timeout (see ``DataStoreError/busy(file:timeoutMilliseconds:)``).
  let busyTimeoutMilliseconds: Int32
  /// The cancellation flag of the job running on this connection, read by the progress handler
  /// and the busy handler (both on the connection's own thread).
  let cancellation = CancellationSlot()
  /// The busy handler's state (its context pointer; kept alive by the connection).
  private let busyWait: BusyWait
  /// Collects the changes of the open write transaction (writer only).
  private(set) var changes: ChangeCollector?
  /// A 64-byte block allocated on this connection's thread after each large query result and
  /// kept until the next one (``pinHeapTop()``).
  private var heapPin: UnsafeMutableRawPointer?

  /// Allocates a new small block and frees the previous one, right after a large result was
  /// decoded on this connection's thread (issue 11's two-reader row).
  ///
  /// Why: glibc gives each thread a malloc arena, and a non-main arena's heap is shrunk
  /// (`madvise(MADV_DONTNEED)`) whenever the free space at its top grows past the trim threshold;
  /// a result's rows are the newest blocks of the reader's heap, so when the caller frees them the
  /// whole result's span is returned to the kernel, and the next query faults every page in again
  /// (measured: 4,300–5,300 minor faults per 100,000-row query with two readers, against
  /// 750–960 with the pin). A block allocated after the rows (at the heap's top, where the rows just
  /// ended) keeps the freed span below it mapped, for the next result to reuse; glibc never trims
  /// below a live block. The memory stays in the arena (about one result's size per reader, reused
  /// by every allocation of that thread; `malloc_trim` still releases it), not in the process's
  /// peak. With another allocator this is one `malloc`/`free` pair per large query. Not a
  /// process-wide setting (no `mallopt`).
  func pinHeapTop() {
    let pin = malloc(64)
    free(heapPin)
    heapPin = pin
  }

  /// Opens `path` (`":memory:"` for a private in-memory database), turning on WAL (files only)
  /// and foreign keys; read-only (`readOnly`) for the store's reader connections.
  init(
    path: String, trace: TraceBox?, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 5_000
  ) throws {
    var db: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX
    self.path = path
    self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    let code = sqlite3_open_v2(path, &db, flags, nil)
    guard code == SQLITE_OK, let db else {
      let extended = db.map { sqlite3_extended_errcode($0) } ?? code
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      if let db { sqlite3_close_v2(db) }
      if path != ":memory:", let failure = OpenFailure.classify(path: path, code: extended) {
        throw failure
      }
      throw DataStoreError.sqlite(code: extended, message: message, sql: nil)
    }
    // A file SQLite could only open for reading (it falls back to read-only when the read-write
    // `open(2)` is refused): refused before anything touches it, so no `-wal`/`-shm` is made.
    if !readOnly, path != ":memory:", sqlite3_db_readonly(db, "main") == 1 {
      sqlite3_close_v2(db)
      throw OpenFailure.readOnlyFile(path: path)
    }
    handle = db
    self.trace = trace
    busyWait = BusyWait(timeoutMilliseconds: busyTimeoutMilliseconds, cancellation: cancellation)
    sqlite3_extended_result_codes(db, 1)
    // A double-quoted name that is no column must be an error, not the string it spells (SQLite's
    // legacy "double-quoted string literal" fallback, <https://www.sqlite.org/quirks.html#dblquote>):
    // with it, a column another connection renamed read back as its own name, and a query went on
    // without an error.
    modelgen_sqlite3_db_config_int(db, SQLITE_DBCONFIG_DQS_DML, 0)
    // Not `sqlite3_busy_timeout`, whose one sleep cannot see a cancelled job (see ``BusyWait``).
    sqlite3_busy_handler(
      db,
      { context, attempt in
        guard let context else { return 0 }
        return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue().retry(attempt: attempt)
          ? 1 : 0
      }, Unmanaged.passUnretained(busyWait).toOpaque())
    // Every 1,000 virtual-machine instructions: stop the statement when its job was cancelled
    // (`SQLITE_INTERRUPT`; the job then throws `CancellationError`).
    sqlite3_progress_handler(
      db, 1_000,
      { context in
        guard let context else { return 0 }
        return Unmanaged<CancellationSlot>.fromOpaque(context).takeUnretainedValue().isCancelled
          ? 1 : 0
      }, Unmanaged.passUnretained(cancellation).toOpaque())
    if let trace {
      let context = Unmanaged.passUnretained(trace).toOpaque()
      sqlite3_trace_v2(
        db, UInt32(SQLITE_TRACE_STMT),
        { _, context, _, text in
          guard let context, let text else { return 0 }
          let sql = String(cString: text.assumingMemoryBound(to: CChar.self))
          if !sql.hasPrefix("--") {  // statements run by triggers arrive as comments
            Unmanaged<TraceBox>.fromOpaque(context).takeUnretainedValue().body(sql)
          }
          return 0
        }, context)
    }
    if readOnly {
      try execute("PRAGMA query_only = ON")
      return
    }
    if path != ":memory:" {
      // The first statement that reads the file's header and makes its `-wal`/`-shm` files: where a
      // file that is not a database, or a directory where they cannot be made, shows.
      do {
        try execute("PRAGMA journal_mode = WAL")
      } catch let failure {
        if case DataStoreError.sqlite(let code, _, _) = failure,
          let typed = OpenFailure.classify(path: path, code: code)
        {
          throw typed
        }
        throw failure
      }
      try execute("PRAGMA synchronous = NORMAL")
    }
    try execute("PRAGMA foreign_keys = ON")
  }

  /// Installs the change hooks (preupdate, commit, rollback) that feed `collector`: the writer's.
  func installChangeHooks(_ collector: ChangeCollector) {
    changes = collector
    let context = Unmanaged.passUnretained(collector).toOpaque()
    sqlite3_preupdate_hook(
      handle,
      { context, db, operation, _, table, _, _ in
        guard let context, let db, let table else { return }
        Unmanaged<ChangeCollector>.fromOpaque(context).takeUnretainedValue().record(
          db: db, operation: operation, table: table)
      }, context)
    sqlite3_rollback_hook(
      handle,
      { context in
        guard let context else { return }
        Unmanaged<ChangeCollector>.fromOpaque(context).takeUnretainedValue().rolledBack()
      }, context)
    sqlite3_commit_hook(
      handle,
      { context in
        guard let context else { return 0 }
        Unmanaged<ChangeCollector>.fromOpaque(context).takeUnretainedValue().committing()
        return 0  // 0: the commit goes ahead
      }, context)
  }

  deinit {
    free(heapPin)
    if changes != nil {
      sqlite3_preupdate_hook(handle, nil, nil)
      sqlite3_rollback_hook(handle, nil, nil)
      sqlite3_commit_hook(handle, nil, nil)
    }
    sqlite3_progress_handler(handle, 0, nil, nil)
    sqlite3_busy_handler(handle, nil, nil)
    for statement in statements.values { sqlite3_finalize(statement.handle) }
    sqlite3_close_v2(handle)
  }

  /// The current error of the connection as a typed error about `sql`.
  func error(_ code: Int32, sql: String?) -> DataStoreError {
    let extended = sqlite3_extended_errcode(handle)
    if extended & 0xff == SQLITE_BUSY {
      return .busy(file: path, timeoutMilliseconds: Int(busyTimeoutMilliseconds))
    }
    let message = String(cString: sqlite3_errmsg(handle))
    if extended == SQLITE_ERROR, let sql, let changed = changedTable(message: message, sql: sql) {
      return changed
    }
    return .sqlite(code: extended, message: message, sql: sql)
  }

  /// The store's tables, by name: what a statement that no longer compiles is checked against.
  /// Set once by the store after migrating, before the connection runs any job.
  var expectedTables: [String: ExpectedTable] = [:]

  /// ``DataStoreError/tableChanged(model:table:reason:)`` when `message` (SQLite's, for `sql`) is
  /// `no such table` for one of ``expectedTables``, or `no such column`/`has no column named` and
  /// one of them that `sql` names lacks a column of its model; else `nil`. Reads the stored
  /// columns with `pragma_table_info` through the C API (not ``prepare(_:cached:)``, whose
  /// failures come back here).
  private func changedTable(message: String, sql: String) -> DataStoreError? {
    let noSuchTable = "no such table: "
    if message.hasPrefix(noSuchTable) {
      let name = String(message.dropFirst(noSuchTable.count))
      let table = name.hasPrefix("main.") ? String(name.dropFirst(5)) : name
      guard let expected = expectedTables[table] else { return nil }
      return .tableChanged(
        model: expected.model, table: table,
        reason:
          "the table does not exist (dropped by another connection); reopen the store to create it again")
    }
    guard message.hasPrefix("no such column: ") || message.contains(" has no column named ") else {
      return nil
    }
    for (table, expected) in expectedTables.sorted(by: { $0.key < $1.key })
    where sql.contains("\"\(table)\"") {
      guard let stored = storedColumns(table) else { continue }
      let missing = expected.columns.filter { !stored.contains($0) }
      guard !missing.isEmpty else { continue }
      return .tableChanged(
        model: expected.model, table: table,
        reason:
          "the table has no column \(missing.joined(separator: ", ")) (dropped or renamed by another connection); reopen the store to migrate it"
      )
    }
    return nil
  }

  /// The column names of the stored table `table` (`pragma_table_info`), or `nil` when they cannot
  /// be read.
  private func storedColumns(_ table: String) -> Set<String>? {
    var raw: OpaquePointer?
    guard
      sqlite3_prepare_v2(handle, "SELECT name FROM pragma_table_info(?)", -1, &raw, nil)
        == SQLITE_OK, let raw
    else { return nil }
    defer { sqlite3_finalize(raw) }
    sqlite3_bind_text(raw, 1, table, -1, transient)
    var names: Set<String> = []
    while sqlite3_step(raw) == SQLITE_ROW {
      if let text = sqlite3_column_text(raw, 0) { names.insert(String(cString: text)) }
    }
    return names
  }

  /// Runs one or more statements that take no parameters and return no rows of interest.
  func execute(_ sql: String) throws {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code, sql: sql) }
  }

  /// The prepared statement for `sql`, reset and with its bindings cleared: from the cache when
  /// `cached` (statements whose text repeats), else a fresh one finalized when released.
  func prepare(_ sql: String, cached: Bool = true) throws -> Statement {
    if cached, let statement = statements[sql] {
      sqlite3_reset(statement.handle)
      sqlite3_clear_bindings(statement.handle)
      return statement
    }
    var raw: OpaquePointer?
    let flags = cached ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    let code = sqlite3_prepare_v3(handle, sql, -1, flags, &raw, nil)
    guard code == SQLITE_OK, let raw else { throw error(code, sql: sql) }
    let statement = Statement(handle: raw, connection: self, sql: sql, isCached: cached)
    if cached { statements[sql] = statement }
    return statement
  }

  /// The cached statement a table mapping uses on every save or primary-key lookup, found by the
  /// mapping's identity and `kind` instead of by hashing its SQL text (the hot paths' cost).
  func prepare(_ sql: String, owner: AnyObject, kind: Int) throws -> Statement {
    let key = StatementKey(owner: ObjectIdentifier(owner), kind: kind)
    if let statement = statementsByOwner[key] {
      sqlite3_reset(statement.handle)
      sqlite3_clear_bindings(statement.handle)
      return statement
    }
    let statement = try prepare(sql)
    statementsByOwner[key] = statement
    return statement
  }

  private struct StatementKey: Hashable {
    let owner: ObjectIdentifier
    let kind: Int
  }
  /// The same statements as in ``statements`` (which finalizes them), by owner and kind.
  private var statementsByOwner: [StatementKey: Statement] = [:]

  /// Runs `body` in a transaction (`BEGIN IMMEDIATE` when `write`, else `BEGIN DEFERRED`),
  /// committing when it returns and rolling back when it throws.
  func transaction<T>(write: Bool, _ body: () throws -> T) throws -> T {
    try run(write ? .beginImmediate : .beginDeferred)
    do {
      let result = try body()
      try run(.commit)
      return result
    } catch {
      if !isAutocommit { try? run(.rollback) }
      throw error
    }
  }

  /// The statements that open and end every transaction.
  enum TransactionControl: Int, CaseIterable {
    case beginImmediate, beginDeferred, commit, rollback

    var sql: String {
      switch self {
      case .beginImmediate: return "BEGIN IMMEDIATE"
      case .beginDeferred: return "BEGIN DEFERRED"
      case .commit: return "COMMIT"
      case .rollback: return "ROLLBACK"
      }
    }
  }

  /// The prepared statement of each ``TransactionControl``, by its raw value (`nil` until first run).
  private var controlStatements = [Statement?](repeating: nil, count: TransactionControl.allCases.count)

  /// Runs `control` (`BEGIN IMMEDIATE`, `BEGIN DEFERRED`, `COMMIT`, `ROLLBACK`) as a statement
  /// prepared once per connection: ``execute(_:)`` (`sqlite3_exec`) compiles its text again on
  /// every call, which was a sizeable part of each short transaction (the sync engine runs two to
  /// three per drained outbox mutation). Errors are those ``execute(_:)`` throws (the extended
  /// result code, e.g. `SQLITE_BUSY` or `SQLITE_CONSTRAINT_FOREIGNKEY` at `COMMIT`).
  func run(_ control: TransactionControl) throws {
    let statement: Statement
    if let prepared = controlStatements[control.rawValue] {
      statement = prepared
    } else {
      statement = try prepare(control.sql)
      controlStatements[control.rawValue] = statement
    }
    try statement.run()
  }

  /// Rows changed by the last INSERT, UPDATE or DELETE (not counting cascades).
  var changedRows: Int { Int(sqlite3_changes(handle)) }

  /// The `PRAGMA data_version` this connection saw last (a reader's; `nil` before the first), and
  /// the store's count of reported commits then (see `DataStore.detectOtherProcesses`).
  var lastDataVersion: Int64?
  var lastDeliveredGeneration = 0

  /// `PRAGMA data_version`: changes when another connection commits to the file.
  func dataVersion() throws -> Int64 {
    let statement = try prepare("PRAGMA data_version")
    defer { statement.reset() }
    return try statement.step() ? statement.int64(0) : 0
  }

  /// Whether no transaction is open.
  var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  /// Whether SQLite enforces foreign keys on this connection (`PRAGMA foreign_keys`), as
  /// ``setForeignKeys(_:)`` last set it (`true` after opening).
  private(set) var enforcesForeignKeys = true

  /// Sets `PRAGMA foreign_keys` when it differs from ``enforcesForeignKeys`` (outside a
  /// transaction: SQLite ignores the pragma inside one). Only a change runs the pragma: every
  /// flag pragma expires all of the connection's prepared statements (SQLite's `pragma.c` adds
  /// `OP_Expire`), so each cached statement would be compiled again on its next step — about
  /// twenty per drained outbox mutation when every remote write toggled it off and on.
  func setForeignKeys(_ enforced: Bool) throws {
    guard enforced != enforcesForeignKeys else { return }
    try execute(enforced ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
    enforcesForeignKeys = enforced
  }
}

/// A prepared statement owned by a ``Connection``'s cache.
final class Statement {
  let handle: OpaquePointer
  unowned let connection: Connection
  let sql: String
  /// Cached statements are finalized by their connection; others when released.
  let isCached: Bool
  /// For a cached statement whose rows decode one model type (the primary-key lookup): the order in
  /// which that model's `init(from:)` asks for its keys (``RowDecoder/keyOrder``), learned on the
  /// first decode.
  var keyOrder: [(name: String, plan: FieldPlan)]?
  /// The number of rows the last ``DataStore/fetch(_:_:sql:bindings:includes:_:cached:)`` of this
  /// statement decoded (0 before the first): the capacity its next result is allocated with.
  var rowCountHint = 0

  init(handle: OpaquePointer, connection: Connection, sql: String, isCached: Bool) {
    self.handle = handle
    self.connection = connection
    self.sql = sql
    self.isCached = isCached
  }

  deinit {
    if !isCached { sqlite3_finalize(handle) }
  }

  /// Binds `values` to parameters 1…n.
  func bind(_ values: [SQLValue]) throws {
    for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
  }

  /// Binds `value` to the 1-based parameter `index`.
  func bind(_ value: SQLValue, at index: Int32) throws {
    let code: Int32
    switch value {
    case .null: code = sqlite3_bind_null(handle, index)
    case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
    case .real(let number): code = sqlite3_bind_double(handle, index, number)
    case .text(let text):
      // The string's own UTF-8 bytes (a native string's storage, a small string's copy on the
      // stack), which SQLite copies (`SQLITE_TRANSIENT`): passing the `String` as a C string
      // made a NUL-terminated array of it first, an allocation per text value bound.
      let bound = text.utf8.withContiguousStorageIfAvailable { bytes -> Int32? in
        // An empty buffer may have no address, and a null pointer would bind NULL, not ''.
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return nil }
        return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
          sqlite3_bind_text(handle, index, $0, Int32(bytes.count), transient)
        }
      }
      code =
        bound.flatMap { $0 }
        ?? sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), transient)
    }
    guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
  }

  /// Advances to the next row: `true` when there is one, `false` when done.
  func step() throws -> Bool {
    let code = sqlite3_step(handle)
    if code == SQLITE_ROW { return true }
    if code == SQLITE_DONE { return false }
    let failure = connection.error(code, sql: sql)
    sqlite3_reset(handle)
    throw failure
  }

  /// Resets the statement so that it releases its read lock (bindings stay).
  func reset() { sqlite3_reset(handle) }

  /// Runs the statement to completion, ignoring rows, and resets it.
  func run() throws {
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  /// Whether column `index` is `NULL` in the current row.
  @inline(__always) func isNull(_ index: Int32) -> Bool {
    sqlite3_column_type(handle, index) == SQLITE_NULL
  }
  /// Column `index` as an integer.
  @inline(__always) func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
  /// Column `index` as a double.
  @inline(__always) func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }
  /// Column `index` as text (empty for `NULL`).
  @inline(__always) func text(_ index: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Column `index` as a ``SQLValue``, by its storage class.
  func value(_ index: Int32) -> SQLValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_NULL: return .null
    case SQLITE_INTEGER: return .integer(int64(index))
    case SQLITE_FLOAT: return .real(double(index))
    default: return .text(text(index))
    }
  }

  /// The number of columns in a result row.
  var columnCount: Int32 { sqlite3_column_count(handle) }
}
