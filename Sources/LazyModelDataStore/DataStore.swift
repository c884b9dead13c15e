import Dispatch
import Foundation
import LazyModel
import Synchronization

/// A local store of generated models in one SQLite database (a file in WAL mode, or in memory).
///
/// Tables come from each model's `ModelSchema` (see `TableMapping` rules: native composite primary
/// keys, FK columns named by target names, `ON DELETE CASCADE` for `@belongsTo`, an index on every FK
/// and every `@index`). Rows decode straight into models with a ``DataStoreDecodingContext``, so a
/// queried model's `@belongsTo`/`@hasOne` fields are not-loaded references holding the FK values, and
/// its `@hasMany` fields not-loaded lists; both load from this store on first use.
///
/// Execution (GRDB's `DatabasePool` design): one writer connection, used only by one serial
/// dispatch queue, runs every ``write(_:)`` (and every `save`/`delete`) one at a time; a file store
/// also opens a small pool of read-only connections (`readerCount`, default 2) on which ``read(_:)``
/// and every query run concurrently, each seeing one committed snapshot (WAL). No call blocks a
/// thread of Swift's cooperative pool: the calling task suspends on a continuation until its job has
/// run on the connection's own queue. An in-memory store has one connection (SQLite's private
/// `:memory:` database cannot be shared), so its reads run on the writer's queue, between writes.
///
/// Thread-safety: `Sendable`; any number of tasks may call any method at once.
public final class DataStore: Sendable {
  /// Keys per `IN (…)` statement when loading many models at once.
  public static let batchChunkSize = 500

  /// The registry the store was opened with.
  public let registry: ModelRegistry
  /// The default page size of lazy lists loaded from this store.
  public let listPageSize: Int
  /// The database file, or `nil` for an in-memory store.
  public let fileURL: URL?

  /// Whether the not-loaded references a query decodes load in sibling batches (default `true`):
  /// the first `get()` of one `@belongsTo`/`@hasOne` reference of a query's result reads the
  /// targets of all that result's references of the same field (one read transaction of chunked
  /// `SELECT … WHERE (<primary key>) IN (…)`, ``batchChunkSize`` keys per statement, composite keys
  /// as row values), and the others answer from that read without SQL while the file is unchanged.
  ///
  /// The check, before every answer from a batch: the file's WAL-index header (in the `-shm`
  /// shared memory, as the store's writer connection has mapped it), which every
  /// commit to the file rewrites — this store's writer, another store of this process, another
  /// process, any SQLite program — compared with the header read before the batch's read began
  /// (`PRAGMA data_version` on a read-only connection of its own when the header cannot be mapped; an in-memory
  /// store compares its writer's commit count). It costs about 90 instructions on the calling
  /// thread, with no system call and no lock, and never waits: while a writer is storing the
  /// header, the load is one primary-key lookup instead. So the values are always those of one
  /// primary-key lookup per reference at the moment of the load, whoever changed the file;
  /// `false` makes every load that lookup (the baseline of `DataStoreBenchmark`). Applies to
  /// queries started after it is set.
  ///
  /// Thread-safety: any thread (an atomic).
  public var batchesSiblingReferences: Bool {
    get { siblingBatching.load(ordering: .relaxed) }
    set { siblingBatching.store(newValue, ordering: .relaxed) }
  }
  private let siblingBatching = Atomic<Bool>(true)

  let writer: ConnectionQueue
  let readers: [ConnectionQueue]
  private let readerLoad: StoreLock<[Int]>
  /// The reader whose executor ``readerExecutor`` hands out next.
  private let nextPreferredReader = Atomic<UInt>(0)
  /// The commits of this process on the store's file, counted by every writer's commit hook
  /// before other connections see them, row changes or not (the change log's registrations, the
  /// sync engine's own tables), so that ``detectOtherProcesses(_:)`` never takes one for another
  /// process's: one commit, one live-query snapshot.
  let fileCommits: FileCommitCounter
  /// The file's device and inode (`nil` in memory): how the stores of one file find each other
  /// (``SameFileStores``), whatever path each was opened by.
  let fileIdentity: FileIdentity?
  /// The version of the file that sibling batches are checked against (``FileVersionProbe``).
  let fileVersion: FileVersionProbe
  let observers = Observers()
  /// The change log (``ChangeLog``) of a file store: the writer's side (on the writer's queue) and
  /// the watcher that brings other processes' changes to this store's observers.
  let changeLogWriter: ChangeLogWriter?
  let changeLogWatcher: ChangeLogWatcher?
  /// Marks this store's queues (``queueKey``), to detect a call from inside one of its own jobs.
  let token = StoreToken()
  static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
  private let mappings: [ObjectIdentifier: TableMapping]
  private let mappingsByName: [String: TableMapping]
  /// For each table, the mapping and, per column of the stored table (its order in the file), the
  /// column position in the mapping: how a row the hooks report becomes a model.
  let storedLayouts: [String: (mapping: TableMapping, mappingColumn: [Int])]
  /// The sync engine (outbox, outbound processor) when the store was opened with a
  /// ``SyncConfiguration``; `nil` otherwise.
  let sync: SyncEngine?

  /// Opens (creating or migrating) the database at `fileURL` for the models of `registry`.
  ///
  /// - Parameters:
  ///   - fileURL: A `file:` URL; the file and its `-wal`/`-shm` companions are created when missing.
  ///   - registry: The generated registry (`Models.registry`); every model a relationship points at
  ///     must be in it.
  ///   - listPageSize: Elements per page of a lazy `LazyList` (default 100; at least 1).
  ///   - readerCount: Read-only connections that read concurrently (default 2; at least 1).
  ///   - busyTimeout: How long a connection waits for a lock another connection holds (another
  ///     process, or another store on the same file) before ``DataStoreError/busy(file:timeoutMilliseconds:)``
  ///     (default 5 s; whole milliseconds). It waits in steps of 25 ms, and a call whose task is
  ///     cancelled stops waiting at the next step and throws `CancellationError`.
  ///   - traceSQL: Called with the SQL text (placeholders, never values) of every statement SQLite
  ///     starts, on the connection's queue while its job runs; for tests and diagnostics. It must not
  ///     call the store.
  /// - Throws: ``DataStoreError/cannotOpen(file:code:reason:)`` when `fileURL` is a directory, its
  ///   directory does not exist or is not writable, or the file is not an SQLite database or is
  ///   read-only (nothing is created or written),
  ///   ``DataStoreError/incompatibleSchema(model:reason:)`` when the stored tables cannot be
  ///   migrated without losing data (the file is left unchanged), ``DataStoreError/unknownModel(_:)``
  ///   when a relationship points outside the registry, ``DataStoreError/invalidArgument(name:value:reason:)``
  ///   when `listPageSize` or `readerCount` is below 1, ``DataStoreError/busy(file:timeoutMilliseconds:)``,
  ///   ``DataStoreError/sqlite(code:message:sql:)``. Opening runs on the calling thread (it is
  ///   synchronous); open stores before entering the cooperative pool's hot paths.
  public convenience init(
    fileURL: URL, registry: ModelRegistry, listPageSize: Int = 100, readerCount: Int = 2,
    busyTimeout: Duration = .seconds(5), traceSQL: (@Sendable (String) -> Void)? = nil
  ) throws {
    try self.init(
      path: fileURL.path, registry: registry, listPageSize: listPageSize,
      readerCount: readerCount, busyTimeout: busyTimeout, traceSQL: traceSQL, sync: nil)
  }

  /// Opens the database at `fileURL` as ``init(fileURL:registry:listPageSize:readerCount:busyTimeout:traceSQL:)``
  /// does, with sync (README, "Sync"): every local save and delete of a model whose schema has a
  /// `ModelSchema.syncPluralName` enters the outbox in the same transaction, and ``start()``
  /// sends the outbox with `sync.client`. Creates the outbox and sync metadata tables when missing.
  ///
  /// - Throws: As ``init(fileURL:registry:listPageSize:readerCount:busyTimeout:traceSQL:)``.
  public convenience init(
    fileURL: URL, registry: ModelRegistry, sync: SyncConfiguration, listPageSize: Int = 100,
    readerCount: Int = 2, busyTimeout: Duration = .seconds(5)
  ) throws {
    try self.init(
      path: fileURL.path, registry: registry, listPageSize: listPageSize,
      readerCount: readerCount, busyTimeout: busyTimeout, traceSQL: nil, sync: sync)
  }

  /// Opens a private in-memory database for the models of `registry` (see
  /// ``init(fileURL:registry:listPageSize:readerCount:busyTimeout:traceSQL:)``); it disappears with
  /// the store. Differences from a file store: one connection serves writes and reads (reads wait
  /// for the running write, and never run concurrently), and no other store can open it.
  public static func inMemory(
    registry: ModelRegistry, listPageSize: Int = 100, traceSQL: (@Sendable (String) -> Void)? = nil
  ) throws -> DataStore {
    try DataStore(
      path: ":memory:", registry: registry, listPageSize: listPageSize, readerCount: 0,
      busyTimeout: .seconds(5), traceSQL: traceSQL, sync: nil)
  }

  private init(
    path: String, registry: ModelRegistry, listPageSize: Int, readerCount: Int,
    busyTimeout: Duration, traceSQL: (@Sendable (String) -> Void)?, sync: SyncConfiguration?
  ) throws {
    self.registry = registry
    self.sync = sync.map(SyncEngine.init(configuration:))
    try requireArgument("listPageSize", listPageSize, atLeast: 1)
    if path != ":memory:" { try requireArgument("readerCount", readerCount, atLeast: 1) }
    self.listPageSize = listPageSize
    fileURL = path == ":memory:" ? nil : URL(fileURLWithPath: path)
    // Another name (a hard link) of a file a store of this process has open: open that store's
    // name, so that both use one WAL file (``SameFileStores/openingPath(for:)``).
    let path = path == ":memory:" ? path : SameFileStores.openingPath(for: path)
    var mappings: [ObjectIdentifier: TableMapping] = [:]
    var byName: [String: TableMapping] = [:]
    let incomingForeignKeys = TableMapping.incomingForeignKeys(of: registry.models)
    for type in registry.models {
      let mapping = try TableMapping(
        type, incomingForeignKeys: incomingForeignKeys[type.schema.name] ?? [])
      mappings[ObjectIdentifier(type)] = mapping
      byName[mapping.schema.name] = mapping
    }
    for mapping in byName.values {
      let targets =
        mapping.references.map(\.target) + mapping.childReferences.map(\.target)
        + mapping.lists.map(\.target)
      for target in targets where mappings[ObjectIdentifier(target)] == nil {
        throw DataStoreError.unknownModel(target.modelName)
      }
    }
    self.mappings = mappings
    mappingsByName = byName
    let components = busyTimeout.components
    let milliseconds = Int32(
      clamping: components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000)
    let trace = traceSQL.map(TraceBox.init)
    let connection = try Connection(path: path, trace: trace, busyTimeoutMilliseconds: milliseconds)
    let expectedTables = Dictionary(
      uniqueKeysWithValues: byName.values.map {
        ($0.table, ExpectedTable(model: $0.schema.name, columns: $0.columns.map(\.name)))
      })
    // Known once the file exists (opening created it when missing).
    let identity = path == ":memory:" ? nil : FileIdentity(path: path)
    let commits = SameFileStores.commitCounter(identity)
    fileIdentity = identity
    fileCommits = commits
    try Migration.run(registry.models.compactMap { mappings[ObjectIdentifier($0)] }, on: connection)
    fileVersion = try FileVersionProbe(
      path: path == ":memory:" ? nil : path, commits: commits, writer: connection)
    // After migrating: the migration's own statements keep SQLite's errors.
    connection.expectedTables = expectedTables
    storedLayouts = try Self.storedLayouts(byName, connection)
    if sync != nil { try Outbox.createTables(connection) }
    let collector = ChangeCollector()
    connection.installChangeHooks(collector)
    let token = self.token
    writer = ConnectionQueue(
      connection, label: "LazyModelDataStore.writer", key: Self.queueKey,
      token: ObjectIdentifier(token))
    var readers: [ConnectionQueue] = []
    if path != ":memory:" {
      for number in 0..<readerCount {
        let reader = try Connection(
          path: path, trace: trace, readOnly: true, busyTimeoutMilliseconds: milliseconds)
        reader.expectedTables = expectedTables
        readers.append(
          ConnectionQueue(
            reader, label: "LazyModelDataStore.reader\(number)", key: Self.queueKey,
            token: ObjectIdentifier(token)))
      }
    }
    self.readers = readers
    if let last = readers.last {
      changeLogWriter = ChangeLogWriter()
      changeLogWatcher = ChangeLogWatcher(writer: writer, reader: last)
    } else {
      changeLogWriter = nil
      changeLogWatcher = nil
    }
    readerLoad = StoreLock(Array(repeating: 0, count: readers.count))
    if path != ":memory:" { SameFileStores.add(self, path: path) }
    collector.willCommit = { commits.increment() }
  }

  deinit {
    if let fileIdentity { SameFileStores.remove(fileIdentity, ObjectIdentifier(self)) }
  }

  /// Per table: the mapping, and the mapping column of each stored column (by name).
  private static func storedLayouts(_ mappings: [String: TableMapping], _ connection: Connection)
    throws -> [String: (mapping: TableMapping, mappingColumn: [Int])]
  {
    var layouts: [String: (mapping: TableMapping, mappingColumn: [Int])] = [:]
    let statement = try connection.prepare(
      "SELECT name FROM pragma_table_info(?) ORDER BY cid", cached: false)
    for (table, mapping) in mappings {
      statement.reset()
      try statement.bind([.text(table)])
      var order: [Int] = []
      while try statement.step() { order.append(mapping.column(named: statement.text(0)) ?? -1) }
      statement.reset()
      layouts[table] = (mapping, order)
    }
    return layouts
  }

  /// The table mapping of `type`: a registry model, or a type whose schema equals one's.
  func mapping(for type: any Model.Type) throws -> TableMapping {
    if let mapping = mappings[ObjectIdentifier(type)] { return mapping }
    if let mapping = mappingsByName[type.modelName], mapping.schema == type.schema {
      return mapping
    }
    throw DataStoreError.unknownModel(type.modelName)
  }

  /// The mapping of the table named `name`, or `nil`.
  func mapping(table name: String) -> TableMapping? { mappingsByName[name] }

  // MARK: Execution

  /// Throws ``DataStoreError/transactionMisuse(operation:reason:)`` when called from a job of this
  /// store (its `write`/`read` closure, a trace hook): waiting there for the store would deadlock.
  func checkNotReentrant(_ operation: String) throws {
    // On one of this store's queues inside a job (not a task's code that merely prefers the queue's
    // executor, ``readerExecutor``).
    if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(token),
      currentQueue()?.inJob ?? true
    {
      throw DataStoreError.transactionMisuse(
        operation: operation,
        reason: "called from inside one of this store's own write or read closures")
    }
  }

  /// A `TaskExecutor` that runs a task on one of this store's reader threads (a serial dispatch
  /// queue of a read-only connection; the writer's for an in-memory store), never on Swift's
  /// cooperative pool. A task that prefers it reads without switching threads: each query, count,
  /// `read` and lazy load of this store runs its SQL on the thread the task is on, and the task does
  /// not suspend for it — what makes N+1 lazy loads (`try await comment.post` in a loop) cost about
  /// what the lookups cost:
  ///
  /// ```swift
  /// try await withTaskExecutorPreference(store.readerExecutor) {
  ///   for comment in comments { _ = try await comment.post }
  /// }
  /// ```
  ///
  /// Each access hands out the next reader's executor (round robin). While such a task runs Swift
  /// code, its reader runs nothing else (other reads go to the other readers or wait): prefer it for
  /// loops of reads, not for long computations. Writes still run on the writer's queue (the task
  /// suspends for them). Calling the store from inside a `read`/`write` closure stays
  /// ``DataStoreError/transactionMisuse(operation:reason:)``.
  public var readerExecutor: any TaskExecutor {
    guard !readers.isEmpty else { return writer.executor }
    let next = nextPreferredReader.add(1, ordering: .relaxed).oldValue
    return readers[Int(next % UInt(readers.count))].executor
  }

  /// The connection queue of this store the calling code runs on, or `nil`.
  private func currentQueue() -> ConnectionQueue? {
    if writer.isCurrent { return writer }
    return readers.first { $0.isCurrent }
  }

  /// The reader connection queue (the writer's for an in-memory store) the calling code runs on
  /// between jobs, or `nil`: where a read may run synchronously, on the caller's own thread (a task
  /// that prefers ``readerExecutor``). `nil` inside a job, so a call from a `read`/`write` closure
  /// takes the path that reports the misuse.
  func idleReaderHere() -> ConnectionQueue? {
    guard let here = ConnectionQueue.currentIdentity else { return nil }
    if readers.isEmpty {
      return ObjectIdentifier(writer) == here && !writer.inJob ? writer : nil
    }
    for reader in readers where ObjectIdentifier(reader) == here {
      return reader.inJob ? nil : reader
    }
    return nil
  }

  /// Runs `body` on a reader connection (the least busy; the writer's for an in-memory store).
  ///
  /// When the calling task already runs on a reader's queue (it prefers ``readerExecutor``),
  /// `body` runs right there, with no thread switch.
  func onReader<T: Sendable>(
    _ operation: String, _ body: @escaping @Sendable (Connection) throws -> T
  ) async throws -> T {
    if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(token),
      let here = currentQueue(), here !== writer || readers.isEmpty
    {
      guard !here.inJob else {
        throw DataStoreError.transactionMisuse(
          operation: operation,
          reason: "called from inside one of this store's own write or read closures")
      }
      return try await here.runHere { connection in
        if self.observers.hasSignals, self.watchesOtherProcesses(here) { self.detectOtherProcesses(connection) }
        return try body(connection)
      }
    }
    try checkNotReentrant(operation)
    if readers.isEmpty { return try await writer.run(body) }
    let chosen = readerLoad.withLock { load -> Int in
      let index = load.indices.min { load[$0] < load[$1] } ?? 0
      load[index] += 1
      return index
    }
    defer { readerLoad.withLock { $0[chosen] -= 1 } }
    let reader = readers[chosen]
    return try await reader.run { connection in
      if self.observers.hasSignals, self.watchesOtherProcesses(reader) { self.detectOtherProcesses(connection) }
      return try body(connection)
    }
  }

  /// Whether `queue` is the one reader connection that looks for other processes' commits (the
  /// change log's polling reader, ``ChangeLogWatcher``): every connection sees another process's
  /// commit once, so with more than one looking, one commit would make live queries read twice.
  private func watchesOtherProcesses(_ queue: ConnectionQueue) -> Bool {
    changeLogWatcher?.watches(queue) ?? true
  }

  /// When a reader starts while live queries listen: `PRAGMA data_version` tells whether another
  /// connection committed since this reader last looked; if no commit of this process was reported
  /// meanwhile, it was another process, whose rows the hooks never saw, so every live query reads
  /// again (SQLite gives no row-level report of another process's changes).
  func detectOtherProcesses(_ connection: Connection) {
    // The count first: a commit of this process counted after it was read, whose version the
    // read below already sees, is then not taken for another process's at the next look.
    let generation = observers.deliveredGeneration &+ fileCommits.value
    guard let version = try? connection.dataVersion() else { return }
    defer {
      connection.lastDataVersion = version
      connection.lastDeliveredGeneration = generation
    }
    guard let last = connection.lastDataVersion, last != version,
      generation == connection.lastDeliveredGeneration
    else { return }
    observers.signalAll()
  }

  /// Runs `body` in a write transaction over any models and returns its value.
  ///
  /// The transaction is `BEGIN IMMEDIATE` on the store's one writer connection; foreign-key
  /// checks run at `COMMIT` (the tables declare them `DEFERRABLE INITIALLY DEFERRED`), so a child
  /// may be saved before its parent. If `body` throws, or the commit fails, everything is rolled back and the error is
  /// rethrown; observers hear about the changes only after the commit, in commit order.
  ///
  /// `body` runs on the writer's queue, not on the caller's thread; it must not call this store (it
  /// has `tx`) — doing so throws ``DataStoreError/transactionMisuse(operation:reason:)``.
  ///
  /// - Returns: What `body` returned.
  /// - Throws: What `body` throws; ``DataStoreError/foreignKeyViolation(model:field:identifiers:)``
  ///   when at commit a `@belongsTo` points at no row; ``DataStoreError/busy(file:timeoutMilliseconds:)``
  ///   when another connection holds the write lock past the busy timeout; `CancellationError` when
  ///   the calling task is cancelled (the running statement is interrupted and nothing is written);
  ///   ``DataStoreError/transactionMisuse(operation:reason:)``.
  public func write<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T)
    async throws -> T
  {
    try checkNotReentrant("write")
    return try await writer.run { connection in
      try connection.setForeignKeys(true)
      return try self.runWrite(connection, body)
    }
  }

  /// Runs `body` in a read transaction (`BEGIN DEFERRED`) on a reader connection: every query in
  /// it sees the same committed snapshot, whatever commits meanwhile.
  ///
  /// - Returns: What `body` returned.
  /// - Throws: What `body` throws; `CancellationError` when the calling task is cancelled;
  ///   ``DataStoreError/transactionMisuse(operation:reason:)`` when called from one of this store's
  ///   own closures.
  public func read<T: Sendable>(_ body: @escaping @Sendable (ReadTransaction) throws -> T)
    async throws -> T
  {
    try await onReader("read") { connection in
      try connection.transaction(write: false) {
        let transaction = ReadTransaction(store: self, connection: connection)
        defer { transaction.close() }
        return try body(transaction)
      }
    }
  }

  /// A write of the sync engine's remote records (``SyncEngine``): nothing it changes enters the
  /// outbox, timestamps the records hold are kept, and foreign keys are not enforced
  /// (`PRAGMA foreign_keys = OFF` before the transaction, left off until the next local write
  /// turns it on: ``Connection/setForeignKeys(_:)``), so a child arriving before its parent (or
  /// whose parent is outside the selective sync) is stored; its reference loads `nil` until the
  /// parent exists. A remote delete cascades by ``deleteCascading(_:_:_:)``, not by SQLite.
  func writeRemote<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T)
    async throws -> T
  {
    try checkNotReentrant("write")
    return try await writer.run { connection in
      try connection.setForeignKeys(false)
      return try self.runWrite(connection) { transaction in
        transaction.appliesRemote = true
        transaction.keepsGivenTimestamps = true
        return try body(transaction)
      }
    }
  }

  /// The body of a write job on the writer connection.
  private func runWrite<T>(_ connection: Connection, _ body: (WriteTransaction) throws -> T) throws
    -> T
  {
    try connection.run(.beginImmediate)
    let transaction = WriteTransaction(store: self, connection: connection)
    do {
      try changeLogWriter?.begin(connection)
      connection.changes?.feedsOutbox = sync != nil
      let value = try body(transaction)
      let enqueued =
        sync != nil && !transaction.appliesRemote
        ? try Outbox.enqueue(connection.changes?.current ?? [], store: self, connection) : []
      transaction.close()
      if connection.cancellation.isCancelled { throw CancellationError() }
      // Logged in this transaction, so the log holds exactly what commits.
      try changeLogWriter?.append(connection.changes?.current ?? [], connection)
      do {
        try connection.run(.commit)
      } catch DataStoreError.sqlite(let code, _, _) where code == sqliteConstraintForeignKey {
        throw try foreignKeyFailureAtCommit(connection)
      }
      publish(connection.changes?.take() ?? [], source: transaction.appliesRemote ? .remote : .local)
      if !enqueued.isEmpty { sync?.didEnqueue(enqueued) }
      return value
    } catch {
      transaction.close()
      if !connection.isAutocommit { try? connection.run(.rollback) }
      _ = connection.changes?.take()
      throw error
    }
  }

  /// The first row `PRAGMA foreign_key_check` reports, as a typed error naming its `@belongsTo`
  /// and the identifiers it points at (the transaction is still open).
  private func foreignKeyFailureAtCommit(_ connection: Connection) throws -> DataStoreError {
    let check = try connection.prepare(
      "SELECT \"table\", rowid, fkid FROM pragma_foreign_key_check LIMIT 1", cached: false)
    guard try check.step() else {
      return .foreignKeyViolation(model: "", field: "", identifiers: [])
    }
    let table = check.text(0)
    let rowid = check.int64(1)
    let foreignKey = check.int64(2)
    check.reset()
    guard let mapping = mappingsByName[table] else {
      return .foreignKeyViolation(model: table, field: "", identifiers: [])
    }
    let list = try connection.prepare(
      "SELECT \"from\" FROM pragma_foreign_key_list(?) WHERE id = ? ORDER BY seq", cached: false)
    try list.bind([.text(table), .integer(foreignKey)])
    var from: [String] = []
    while try list.step() { from.append(list.text(0)) }
    list.reset()
    guard let reference = mapping.references.first(where: { $0.targetNames == from }) else {
      return .foreignKeyViolation(model: table, field: "", identifiers: [])
    }
    let row = try connection.prepare(
      "SELECT \(from.map(quote).joined(separator: ", ")) FROM \(quote(table)) WHERE rowid = ?",
      cached: false)
    try row.bind([.integer(rowid)])
    var identifiers: [IdentifierComponent] = []
    if try row.step() {
      for (offset, index) in reference.columnIndexes.enumerated() {
        let value =
          (try? row.value(Int32(offset)).keyValue(
            for: mapping.columns[index].fieldType, model: mapping.schema.name,
            field: mapping.columns[index].field)) ?? .string("")
        identifiers.append(
          IdentifierComponent(name: reference.associatedFields[offset], value: value))
      }
    }
    row.reset()
    return .foreignKeyViolation(
      model: mapping.schema.name, field: reference.field, identifiers: identifiers)
  }

  // MARK: Saving

  /// Inserts `model`, or updates the stored row with its primary key, in one write transaction
  /// (``write(_:)``), and returns it as stored.
  ///
  /// Its `@belongsTo`/`@hasOne` FK columns are taken from the reference (loaded model or not-loaded
  /// identifiers); lists and `@hasOne(references:)` fields are not saved (save the children).
  /// The schema's timestamps (`ModelSchema.timestamps`, whatever their names): an implicit
  /// (read-only) `createdAt` is set on insert when nil and kept on update, an implicit `updatedAt`
  /// is set on every save. A timestamp field the model declares itself (writable) is the caller's,
  /// as in the transformer v2: a value it holds is stored as given (on insert and update), and
  /// only a nil one is filled — `updatedAt` with the save's instant, `createdAt` with it on insert
  /// while an update keeps the stored value.
  /// An update never deletes and re-inserts the row, so children are not cascaded away.
  ///
  /// - Returns: The model as stored, as Amplify's `save` returns it: timestamps set, relationships
  ///   not loaded (references hold their FK values, lists are not-loaded and load from this store).
  /// - Throws: ``DataStoreError/missingRequiredField(model:field:)`` when a required field, a
  ///   primary-key field or a required association is nil,
  ///   ``DataStoreError/nonFiniteNumber(model:field:value:)`` for a NaN or infinite `Float` (in lists
  ///   and embedded values too), ``DataStoreError/encodingFailed(model:field:reason:)`` for a value
  ///   its column cannot hold, ``DataStoreError/foreignKeyViolation(model:field:identifiers:)``
  ///   when a `@belongsTo` points at no stored row,
  ///   ``DataStoreError/uniqueConstraintViolation(model:fields:identifiers:)`` when a unique index
  ///   added to the file outside the store rejects the row, ``DataStoreError/unknownModel(_:)``, or
  ///   what ``write(_:)`` throws. Nothing is written when it throws.
  @discardableResult
  public func save<M: Model>(_ model: M) async throws -> M {
    try checkNotReentrant("save")
    return try await write { transaction in try transaction.save(model) }
  }

  /// Saves every model of `models` (see ``save(_:)``) in one transaction: all or nothing.
  ///
  /// - Returns: The models as stored, same order.
  @discardableResult
  public func save<M: Model>(_ models: [M]) async throws -> [M] {
    try checkNotReentrant("save")
    return try await write { transaction in try transaction.save(models) }
  }

  /// Encodes, upserts and reads back `models` on the writer connection (inside a write).
  ///
  /// - Parameters:
  ///   - clock: The transaction's clock: each model takes its own instant from it, in order, for
  ///     `updatedAt` (and `createdAt` on insert).
  ///   - state: The transaction's ``SaveState`` of `M`'s mapping (its encoder and statements).
  ///   - readBack: Whether the models as stored are returned (an insert's from its bound row, an
  ///     update's read back by primary key); `false` (the sync engine's remote records, whose
  ///     callers drop the result) upserts without building or reading any and returns `[]`.
  func saveRows<M: Model>(
    _ models: [M], clock: SaveClock, state: SaveState, _ connection: Connection,
    readBack: Bool = true
  ) throws -> [M] {
    var saved: [M] = []
    saved.reserveCapacity(readBack ? models.count : 0)
    // The models of one call are decoded by one decoder: their references are siblings, loaded
    // together (``SiblingReferences``), as a query's are.
    let decoder =
      readBack
      ? RowDecoder(mapping: state.mapping, store: self, row: .values([]), prefetched: nil) : nil
    // Every row is encoded and checked before any SQL runs.
    var given: [SQLValue] = []
    let keptWhenNilCount = state.keptWhenNil(clock).count
    given.reserveCapacity(models.count * keptWhenNilCount)
    let rows = try models.map { try state.row(of: $0, clock: clock, given: &given) }
    for (position, row) in rows.enumerated() {
      let start = position * keptWhenNilCount
      let stored = try saveRow(
        M.self, row, given: given[start..<(start + keptWhenNilCount)], clock: clock, state: state,
        decoder: decoder, connection)
      if let stored { saved.append(stored) }
    }
    return saved
  }

  /// Saves one model as ``saveRows(_:clock:state:_:readBack:)`` does, with the decoder that
  /// `state` keeps for the transaction's one-model saves (no sibling batching: each returned
  /// model's reference loads on its own, as a lone reference of a batch does).
  ///
  /// - Returns: The model as stored, or `nil` when the row could not be read back.
  func saveOne<M: Model>(_ model: M, clock: SaveClock, state: SaveState, _ connection: Connection)
    throws -> M?
  {
    var given: [SQLValue] = []
    let row = try state.row(of: model, clock: clock, given: &given)
    return try saveRow(
      M.self, row, given: given[...], clock: clock, state: state,
      decoder: state.singleDecoder(store: self), connection)
  }

  /// Writes one encoded, stamped `row` (``SaveState/row(of:clock:given:)``) and returns the model
  /// as stored (`decoder` `nil`: returns `nil` and reads nothing).
  ///
  /// A local save runs `INSERT … ON CONFLICT (pk) DO NOTHING` (``TableMapping/insertIfAbsent``)
  /// first and, when that inserted nothing (the key is stored), the upsert, which then updates the
  /// row — together what the upsert alone does, without the statement journal SQLite gives an
  /// upsert; a remote record (the sync engine's) runs the upsert alone.
  private func saveRow<M: Model>(
    _ type: M.Type, _ row: [SQLValue], given: ArraySlice<SQLValue>, clock: SaveClock,
    state: SaveState, decoder: RowDecoder?, _ connection: Connection
  ) throws -> M? {
    let mapping = state.mapping
    let collector = connection.changes
    let mark = collector?.mark ?? 0
    let before = collector?.writeCounts
    // The sync engine's writes of remote records (`clock.keepsGivenTimestamps`) mostly update a
    // stored row (a mutation's answer): they run the upsert alone, as before.
    let remote = clock.keepsGivenTimestamps
    var sql = mapping.insertIfAbsent
    do {
      var inserted = false
      if !remote {
        let insert = try state.insertStatement(connection)
        try insert.bind(row)
        _ = try insert.step()  // no row
        insert.reset()
        inserted = connection.changedRows > 0
      }
      if remote || (!inserted && mapping.upsertUpdates) {
        // The key is stored: update it (a declared `createdAt` the save leaves nil keeps the
        // stored value: the given values are bound after the row).
        let upsert = try state.upsertStatement(clock, connection)
        sql = upsert.sql
        try upsert.bind(row)
        for (offset, value) in given.enumerated() {
          try upsert.bind(value, at: Int32(row.count + offset + 1))
        }
        _ = try upsert.step()
        upsert.reset()
      }
      guard let decoder else { return nil }
      if let before, let after = collector?.writeCounts, after.updates == before.updates,
        after.inserts != before.inserts
      {
        // Inserted, and no update of any row (no trigger changed it afterwards): stored as bound.
        decoder.row = .values(row)
        return try decoder.decode(M.self)
      }
      // Updated (`createdAt` may be the stored one), `DO NOTHING` (every column is a key column:
      // the row was already there), or no change hooks on this connection: read it back.
      let identifiers = try mapping.primaryKeyColumns.map { index in
        IdentifierComponent(
          name: mapping.columns[index].name,
          value: try row[index].keyValue(
            for: mapping.columns[index].fieldType, model: mapping.schema.name,
            field: mapping.columns[index].field) ?? .string(""))
      }
      return try loadOne(M.self, identifiers: identifiers, connection)
    } catch DataStoreError.sqlite(let code, let message, _) where isConstraintFailure(code) {
      connection.changes?.revert(to: mark)
      if code == sqliteConstraintForeignKey {
        throw try foreignKeyFailure(mapping, row: row, connection)
      }
      throw mapping.constraintFailure(code: code, message: message, row: row)
        ?? DataStoreError.sqlite(code: code, message: message, sql: sql)
    } catch {
      connection.changes?.revert(to: mark)
      throw error
    }
  }

  /// Names the first `@belongsTo` of `row` whose target row is missing.
  private func foreignKeyFailure(_ mapping: TableMapping, row: [SQLValue], _ connection: Connection)
    throws -> DataStoreError
  {
    for reference in mapping.references where reference.isBelongsTo {
      let values = reference.columnIndexes.map { row[$0] }
      guard !values.contains(.null), let target = mappings[ObjectIdentifier(reference.target)]
      else { continue }
      let sql =
        "SELECT 1 FROM \(quote(target.table)) WHERE "
        + reference.associatedFields.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
      let statement = try connection.prepare(sql, cached: false)
      try statement.bind(values)
      if try !statement.step() {
        let identifiers = zip(reference.associatedFields, reference.columnIndexes).map {
          name, index in
          IdentifierComponent(
            name: name,
            value: (try? row[index].keyValue(
              for: mapping.columns[index].fieldType, model: mapping.schema.name,
              field: mapping.columns[index].field)) ?? .string(""))
        }
        return .foreignKeyViolation(
          model: mapping.schema.name, field: reference.field, identifiers: identifiers)
      }
    }
    return .foreignKeyViolation(model: mapping.schema.name, field: "", identifiers: [])
  }

  // MARK: Querying

  /// The `M` with `identifier`, or `nil`: one primary-key lookup (plus one query per included
  /// association), on a reader connection.
  ///
  /// - Throws: ``DataStoreError/unknownModel(_:)``, ``DataStoreError/unknownField(model:field:)`` for
  ///   a bad include, ``DataStoreError/decodingFailed(model:field:reason:)``, `CancellationError`, or
  ///   an SQLite error.
  public func query<M: Model>(
    _ type: M.Type, byIdentifier identifier: M.Identifier, includes: [QueryInclude] = []
  ) async throws -> M? {
    let components = identifier.components
    if includes.isEmpty {
      return try await onReader("query") { connection in
        try self.loadOne(M.self, identifiers: components, connection)
      }
    }
    return try await read { transaction in
      try transaction.query(M.self, byIdentifier: identifier, includes: includes)
    }
  }

  /// The `M`s matching `predicate`, in `sort` order (unsorted: SQLite's table order), skipping
  /// `offset` and returning at most `limit`, with `includes` loaded eagerly; on a reader connection.
  ///
  /// One `SELECT` with every value bound; each included association adds one `IN (…)` query per
  /// level (per 500 distinct keys).
  ///
  /// - Throws: ``DataStoreError/invalidArgument(name:value:reason:)`` when `limit` or `offset` is
  ///   negative, ``DataStoreError/unknownField(model:field:)`` or
  ///   ``DataStoreError/invalidPredicate(model:field:reason:)`` for a bad predicate, sort or include,
  ///   ``DataStoreError/decodingFailed(model:field:reason:)``, `CancellationError` (the statement is
  ///   interrupted), or an SQLite error.
  public func query<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M> = .all, sort: [QuerySort<M>] = [],
    limit: Int? = nil,
    offset: Int? = nil, includes: [QueryInclude] = []
  ) async throws -> [M] {
    let plan = try queryPlan(M.self, where: predicate, sort: sort, limit: limit, offset: offset)
    return try await onReader("query") { connection in
      if includes.isEmpty {
        return try self.fetch(
          M.self, plan.mapping, sql: plan.sql, bindings: plan.bindings, includes: [], connection)
      }
      return try connection.transaction(write: false) {
        try self.fetch(
          M.self, plan.mapping, sql: plan.sql, bindings: plan.bindings, includes: includes,
          connection)
      }
    }
  }

  /// The SQL of a query (validated before any job runs).
  func queryPlan<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M>, sort: [QuerySort<M>], limit: Int?, offset: Int?
  ) throws -> (mapping: TableMapping, sql: String, bindings: [SQLValue]) {
    try requireArgument("limit", limit, atLeast: 0)
    try requireArgument("offset", offset, atLeast: 0)
    let mapping = try mapping(for: M.self)
    let condition = try mapping.sql(for: predicate.untyped)
    var sql = "SELECT \(mapping.selectList) FROM \(quote(mapping.table))"
    if case .all = predicate.untyped {} else { sql += " WHERE " + condition.sql }
    sql += try mapping.sql(for: sort)
    var bindings = condition.bindings
    if limit != nil || offset != nil {
      sql += " LIMIT ? OFFSET ?"
      bindings += [.integer(Int64(limit ?? -1)), .integer(Int64(offset ?? 0))]
    }
    return (mapping, sql, bindings)
  }

  /// The number of `M`s matching `predicate` (`SELECT count(*)`), on a reader connection.
  ///
  /// - Throws: As ``query(_:where:sort:limit:offset:includes:)``.
  public func count<M: Model>(_ type: M.Type, where predicate: QueryPredicate<M> = .all)
    async throws -> Int
  {
    let mapping = try mapping(for: M.self)
    let condition = try mapping.sql(for: predicate.untyped)
    return try await onReader("count") { connection in
      try self.count(mapping, condition, connection)
    }
  }

  /// `SELECT count(*)` on `connection`.
  func count(_ mapping: TableMapping, _ condition: SQLFragment, _ connection: Connection) throws
    -> Int
  {
    let sql = "SELECT count(*) FROM \(quote(mapping.table)) WHERE " + condition.sql
    let statement = try connection.prepare(sql)
    defer { statement.reset() }
    try statement.bind(condition.bindings)
    return try statement.step() ? Int(statement.int64(0)) : 0
  }

  // MARK: Deleting

  /// Deletes `model` by its identifier in one write transaction; rows whose `@belongsTo` points at
  /// it are deleted too (`ON DELETE CASCADE`, recursively), and observers hear of every one.
  ///
  /// - Returns: `true` when a row was deleted.
  /// - Throws: ``DataStoreError/unknownModel(_:)`` or what ``write(_:)`` throws.
  @discardableResult
  public func delete<M: Model>(_ model: M) async throws -> Bool {
    try await delete(M.self, byIdentifier: model.identifier)
  }

  /// Deletes the `M` with `identifier` (cascading as ``delete(_:)``).
  ///
  /// - Returns: `true` when a row was deleted.
  @discardableResult
  public func delete<M: Model>(_ type: M.Type, byIdentifier identifier: M.Identifier) async throws
    -> Bool
  {
    let predicate = QueryPredicate<M>(
      unchecked: .and(identifier.components.map { .field($0.name, .eq($0.value)) }))
    return try await delete(M.self, where: predicate) > 0
  }

  /// Deletes every `M` matching `predicate` in one write transaction (cascading as ``delete(_:)``).
  ///
  /// - Returns: The number of `M` rows deleted (rows removed by cascade not counted).
  /// - Throws: As ``query(_:where:sort:limit:offset:includes:)`` and ``write(_:)``.
  @discardableResult
  public func delete<M: Model>(_ type: M.Type, where predicate: QueryPredicate<M>) async throws
    -> Int
  {
    try checkNotReentrant("delete")
    let mapping = try mapping(for: M.self)
    let condition = try mapping.sql(for: predicate.untyped)
    return try await write { transaction in try transaction.delete(mapping, condition) }
  }

  /// `DELETE … WHERE condition` on the writer connection (inside a write): the number of rows.
  func deleteRows(_ mapping: TableMapping, _ condition: SQLFragment, _ connection: Connection)
    throws -> Int
  {
    let sql = "DELETE FROM \(quote(mapping.table)) WHERE " + condition.sql
    let statement = try connection.prepare(sql)
    defer { statement.reset() }
    try statement.bind(condition.bindings)
    let mark = connection.changes?.mark ?? 0
    do {
      try statement.run()
    } catch {
      connection.changes?.revert(to: mark)
      throw error
    }
    return connection.changedRows
  }

  // MARK: Batch loading

  /// Loads the `M` for each identifier set of `batch` (as ``DataStoreReferenceProvider/load(batch:)``):
  /// duplicates are read once, with one `IN (…)` query per 500 distinct keys.
  ///
  /// - Returns: One result per element of `batch`, same order (`nil` where nothing matches).
  /// - Throws: ``DataStoreError/invalidPredicate(model:field:reason:)`` when the elements name different
  ///   fields, ``DataStoreError/unknownField(model:field:)``, or an SQLite error.
  public func load<M: Model>(_ type: M.Type, batch: [[IdentifierComponent]]) async throws -> [M?] {
    try await loadBatch(M.self, batch: batch)
  }

  /// Loads the model that the `@belongsTo`/`@hasOne` field `key` of each of `models` points at, all
  /// at once: the FK values are read from the models (no query), deduplicated, and loaded with one
  /// `IN (…)` query per 500 distinct keys. N comments of 10 posts cost one query.
  ///
  /// - Parameters:
  ///   - key: The association field (`Comment.keys.post`).
  ///   - models: The models whose references to load.
  ///   - target: The referenced model type.
  /// - Returns: One result per element of `models`, same order (`nil` for an empty reference).
  /// - Throws: ``DataStoreError/unknownField(model:field:)`` when `key` is not a `@belongsTo`/`@hasOne`
  ///   with FK fields on `Owner`, or an SQLite error.
  public func loadReferences<Owner: Model, Target: Model>(
    _ key: some ModelKey, of models: [Owner], as target: Target.Type
  ) async throws -> [Target?] {
    try await loadReferences(field: key.name, of: models, as: target)
  }

  /// `loadReferences(_:of:as:)` with the typed key of the association (`Comment.keys.post`),
  /// whose owner type is checked by the compiler.
  public func loadReferences<Owner: Model, Target: Model, Value>(
    _ key: ModelFieldKey<Owner, Value>, of models: [Owner], as target: Target.Type
  ) async throws -> [Target?] {
    try await loadReferences(field: key.name, of: models, as: target)
  }

  private func loadReferences<Owner: Model, Target: Model>(
    field name: String, of models: [Owner], as target: Target.Type
  ) async throws -> [Target?] {
    let mapping = try mapping(for: Owner.self)
    guard case .reference(let position)? = mapping.plans[name] else {
      throw DataStoreError.unknownField(model: mapping.schema.name, field: name)
    }
    let plan = mapping.references[position]
    let capture = ReferenceCapture(field: name)
    // Each model's position in `distinct` (-1 for an empty reference): one hash per model. References
    // decoded from one query share the identifiers array of their parent, so the array's storage
    // address is tried first (all references stay alive meanwhile, so no address is reused).
    var positions: [Int] = []
    positions.reserveCapacity(models.count)
    var positionOfStorage: [UnsafeRawPointer: Int] = [:]
    var positionOfKey: [[KeyValue]: Int] = [:]
    var distinct: [[KeyValue]] = []
    for model in models {
      guard let reference = try capture.capture(model) else {
        positions.append(-1)
        continue
      }
      var storage: UnsafeRawPointer?
      if let identifiers = reference.boxIdentifiers, !identifiers.isEmpty {
        storage = identifiers.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        if let storage, let position = positionOfStorage[storage] {
          positions.append(position)
          continue
        }
      }
      guard let values = try foreignKeyValues(reference, plan: plan, owner: mapping) else {
        positions.append(-1)
        continue
      }
      let position: Int
      if let known = positionOfKey[values] {
        position = known
      } else {
        position = distinct.count
        positionOfKey[values] = position
        distinct.append(values)
      }
      positions.append(position)
      if let storage { positionOfStorage[storage] = position }
    }
    let keys = distinct
    let loaded = try await onReader("loadReferences") { connection in
      let grouped = try connection.transaction(write: false) {
        try self.fetchGrouped(
          Target.self, byColumns: plan.associatedFields, keys: keys, includes: [], connection)
      }
      return keys.map { grouped[$0]?.first as? Target }
    }
    return positions.map { $0 < 0 ? nil : loaded[$0] }
  }

  /// The values of `identifiers` when they name `plan`'s associated fields in order (the FK values
  /// they stand for), else `nil`.
  static func foreignKeyValues(_ identifiers: [IdentifierComponent], inOrderOf plan: ReferencePlan)
    -> [KeyValue]?
  {
    guard identifiers.count == plan.associatedFields.count else { return nil }
    for (identifier, name) in zip(identifiers, plan.associatedFields) where identifier.name != name {
      return nil
    }
    return identifiers.map(\.value)
  }

  /// The FK values `reference` holds for `plan` of a model of `owner`, or `nil` for an empty reference.
  func foreignKeyValues(_ reference: any LazyReferenceBox, plan: ReferencePlan, owner: TableMapping)
    throws -> [KeyValue]?
  {
    // The common case (a reference made from a model or decoded not loaded, naming the target's
    // fields in order): its identifiers are the FK values, read without the lock's state, an
    // existential of the model or its `identifier` (about 3,500 instructions a save, issue 11).
    if let identifiers = reference.boxIdentifiersWithoutModel,
      let values = Self.foreignKeyValues(identifiers, inOrderOf: plan)
    {
      return values
    }
    switch reference.boxState {
    case .loaded(nil):
      // A reference made with identifiers whose target was not found keeps its key (issue 14);
      // only an empty reference (set to `nil`) clears the FK columns.
      guard let identifiers = reference.boxIdentifiers,
        identifiers.count == plan.associatedFields.count
      else { return nil }
      return plan.associatedFields.enumerated().map { offset, name in
        identifiers.first { $0.name == name }?.value ?? identifiers[offset].value
      }
    case .loaded(let model?):
      let components = model.identifier.components
      if components.count == plan.associatedFields.count,
        zip(components, plan.associatedFields).allSatisfy({ $0.name == $1 })
      {
        return components.map(\.value)
      }
      let targetMapping = try mapping(for: type(of: model))
      let row = try RowEncoder.encode(model, mapping: targetMapping, store: self)
      return try plan.associatedFields.map { name in
        guard let index = targetMapping.column(named: name),
          let value = try row[index].keyValue(
            for: targetMapping.columns[index].fieldType, model: targetMapping.schema.name,
            field: targetMapping.columns[index].field)
        else {
          throw DataStoreError.missingRequiredField(model: targetMapping.schema.name, field: name)
        }
        return value
      }
    case .notLoaded(let identifiers):
      guard identifiers.count == plan.associatedFields.count else {
        throw DataStoreError.encodingFailed(
          model: owner.schema.name, field: plan.field,
          reason:
            "the reference holds \(identifiers.count) key values, \(plan.associatedFields.count) expected"
        )
      }
      if zip(identifiers, plan.associatedFields).allSatisfy({ $0.name == $1 }) {
        return identifiers.map(\.value)
      }
      return plan.associatedFields.enumerated().map { offset, name in
        identifiers.first { $0.name == name }?.value ?? identifiers[offset].value
      }
    }
  }
}
