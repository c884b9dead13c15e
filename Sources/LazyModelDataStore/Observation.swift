import Foundation
import LazyModel
import Synchronization

/// A committed change to the stored models of one type, as ``DataStore/observe(_:)`` reports it.
///
/// Reported once, after the transaction that made it commits (never for rolled-back work), for
/// every row SQLite changed: saves, deletes, rows removed by `ON DELETE CASCADE`, and changes made
/// through another ``DataStore`` on the same file — of this process (handed over directly, in
/// commit order) or of another process (read from the file's change log within about 50 ms of
/// their commit; see ``DataStore/observe(_:)``).
public enum DataStoreEvent<M: Model>: Sendable {
  /// `model` was inserted or updated; it is the row as stored (timestamps as the store set them),
  /// decoded by this store: references hold their FK values and lists are not loaded, both loading
  /// from this store.
  case saved(M)
  /// The row was deleted; `model` is its last stored value (references still load their targets
  /// while those exist).
  case deleted(M)
}

/// Who made a change ``DataStore/observeChanges(_:)`` reports.
public enum DataStoreChangeSource: Sendable, Hashable {
  /// A save or delete of the app (this store, another store on the file, another process).
  case local
  /// The sync engine applied the server's record: a remote change (subscription event or sync
  /// query page) or the server's answer to an outbox mutation (README, "Sync").
  case remote
}

/// One committed change with its source (``DataStore/observeChanges(_:)``).
public struct DataStoreChange<M: Model>: Sendable {
  /// The change, as ``DataStore/observe(_:)`` reports it.
  public let event: DataStoreEvent<M>
  /// Whether the app or the sync engine made it.
  public let source: DataStoreChangeSource
}

/// The observers of a store: per table, the event sinks of ``DataStore/observe(_:)`` and the change
/// signals of ``DataStore/observeQuery(_:where:sort:)``; and the sinks of
/// ``DataStore/observeFailures()``.
///
/// Thread-safety: `Sendable`; the tables sit behind a `Mutex`, and sinks are called outside it.
final class Observers: Sendable {
  typealias Sink = @Sendable (_ kind: RowChange.Kind, _ model: any Model, _ source: DataStoreChangeSource) -> Void
  typealias Signal = @Sendable () -> Void
  typealias FailureSink = @Sendable (DataStoreError) -> Void
  private struct Tables {
    var sinks: [String: [UUID: Sink]] = [:]
    var signals: [String: [UUID: Signal]] = [:]
    var failureSinks: [UUID: FailureSink] = [:]
  }
  private let tables = StoreLock(Tables())
  private let signalCount = Atomic<Int>(0)
  private let generation = Atomic<Int>(0)

  /// Whether any live query listens.
  var hasSignals: Bool { signalCount.load(ordering: .relaxed) > 0 }

  /// How many commits of this process on the file (counted by the committing writer's commit hook,
  /// before other connections see them) and reports of other processes' changes this store had so
  /// far; a reader that sees `PRAGMA data_version` move while this stands still saw another
  /// process's commit.
  var deliveredGeneration: Int { generation.load(ordering: .acquiring) }

  /// Counts one commit of this process, or one report.
  func delivered() { generation.add(1, ordering: .releasing) }

  /// Signals every live query (a change of unknown tables).
  func signalAll() {
    let signals = tables.withLock { $0.signals.values.flatMap(\.values) }
    for signal in signals { signal() }
  }

  func add(_ table: String, _ sink: @escaping Sink) -> UUID {
    let id = UUID()
    tables.withLock { $0.sinks[table, default: [:]][id] = sink }
    ObservationSwitch.listeners.add(1, ordering: .relaxed)
    return id
  }

  func addSignal(_ table: String, _ signal: @escaping Signal) -> UUID {
    let id = UUID()
    tables.withLock { $0.signals[table, default: [:]][id] = signal }
    ObservationSwitch.listeners.add(1, ordering: .relaxed)
    signalCount.add(1, ordering: .relaxed)
    return id
  }

  func remove(_ table: String, _ id: UUID) {
    let (sink, signal) = tables.withLock { tables in
      (
        tables.sinks[table]?.removeValue(forKey: id) != nil,
        tables.signals[table]?.removeValue(forKey: id) != nil
      )
    }
    if sink || signal { ObservationSwitch.listeners.subtract(1, ordering: .relaxed) }
    if signal { signalCount.subtract(1, ordering: .relaxed) }
  }

  func addFailureSink(_ sink: @escaping FailureSink) -> UUID {
    let id = UUID()
    tables.withLock { $0.failureSinks[id] = sink }
    return id
  }

  func removeFailureSink(_ id: UUID) {
    _ = tables.withLock { $0.failureSinks.removeValue(forKey: id) }
  }

  /// The sinks of ``DataStore/observeFailures()``.
  var failureSinks: [FailureSink] { tables.withLock { Array($0.failureSinks.values) } }

  /// The sinks and signals of `table`.
  func listeners(_ table: String) -> (sinks: [Sink], signals: [Signal]) {
    tables.withLock {
      (Array(($0.sinks[table] ?? [:]).values), Array(($0.signals[table] ?? [:]).values))
    }
  }
}

/// The commits of this process on one database file, counted by each writer's commit hook before
/// other connections can see them (``DataStore/detectOtherProcesses(_:)``; an in-memory store's
/// file version, ``FileVersionProbe``). Shared by the stores of the file
/// (``SameFileStores/commitCounter(_:)``); it holds no store, so the hook never keeps one alive.
///
/// Thread-safety: `Sendable`; one atomic.
final class FileCommitCounter: Sendable {
  private let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .acquiring) }

  /// Counts one commit (the commit hook, before other connections can see it).
  func increment() { count.add(1, ordering: .releasing) }
}

/// The stores of this process, by file identity (``FileIdentity``: device and inode, so every path
/// to one file is one file): a commit of one is reported to the observers of all, and they share
/// one ``FileCommitCounter``.
enum SameFileStores {
  private struct Entry: Sendable {
    weak var store: DataStore?
    let id: ObjectIdentifier
    /// The path the store's connections opened.
    let path: String
  }
  private struct File: Sendable {
    weak var counter: FileCommitCounter?
    var stores: [Entry] = []
  }
  private static let files = StoreLock<[FileIdentity: File]>([:])

  /// The path a new store on `path` should open: the path a live store of this process opened the
  /// same file by (a hard link's other name), else `path` itself. SQLite names the `-wal` file
  /// after the path it opens (symbolic links resolved, hard links not), and two connections of one
  /// process that reach one file by two hard-link names share its lock and shared-memory state but
  /// not its WAL file: the second fails with a disk I/O error (SQLite, "How To Corrupt An SQLite
  /// Database File", 2.6). Processes that open one file by different hard-link names stay unsafe.
  static func openingPath(for path: String) -> String {
    guard let identity = FileIdentity(path: path) else { return path }
    return files.withLock { files in
      files[identity]?.stores.first { $0.store != nil }?.path
    } ?? path
  }

  /// The commit counter of the file `identity` (a new one for an in-memory store, `nil`).
  static func commitCounter(_ identity: FileIdentity?) -> FileCommitCounter {
    guard let identity else { return FileCommitCounter() }
    return files.withLock { files in
      if let counter = files[identity]?.counter { return counter }
      let counter = FileCommitCounter()
      files = files.filter { $0.value.counter != nil || $0.value.stores.contains { $0.store != nil } }
      files[identity, default: File()].counter = counter
      return counter
    }
  }

  /// Registers `store` (a file store) as opened by `path`.
  static func add(_ store: DataStore, path: String) {
    guard let identity = store.fileIdentity else { return }
    files.withLock {
      $0[identity, default: File()].stores.append(Entry(store: store, id: ObjectIdentifier(store), path: path))
    }
  }

  /// Forgets the store `id` of the file `identity` (and the stores released meanwhile).
  static func remove(_ identity: FileIdentity, _ id: ObjectIdentifier) {
    files.withLock { $0[identity]?.stores.removeAll { $0.id == id || $0.store == nil } }
  }

  /// The live stores on the file of `store` (itself included).
  static func stores(sharingFileWith store: DataStore) -> [DataStore] {
    guard let identity = store.fileIdentity else { return [store] }
    return files.withLock { $0[identity]?.stores.compactMap(\.store) } ?? [store]
  }
}

extension DataStore {
  /// Reports a committed transaction's row changes to the observers of every store on this file
  /// (on the committing writer's queue, so in commit order).
  func publish(_ changes: [RowChange], source: DataStoreChangeSource = .local) {
    guard !changes.isEmpty, ObservationSwitch.isOn else { return }
    for store in SameFileStores.stores(sharingFileWith: self) { store.deliver(changes, source: source) }
  }

  /// Decodes `changes` with this store's mappings for its observers, and signals its live queries
  /// once per changed table. A change that does not decode is reported to the
  /// ``observeFailures()`` sinks as ``DataStoreError/undecodableChange(model:identifiers:operation:error:)``
  /// (decoded for them also when only live queries listen to its table, whose next read fails on
  /// the same row).
  func deliver(_ changes: [RowChange], source: DataStoreChangeSource = .local) {
    observers.delivered()
    var signalled: Set<String> = []
    var failureSinks: [Observers.FailureSink]?
    for change in changes {
      let (sinks, signals) = observers.listeners(change.table)
      if !signals.isEmpty, signalled.insert(change.table).inserted {
        for signal in signals { signal() }
      }
      guard !sinks.isEmpty || !signals.isEmpty, let layout = storedLayouts[change.table] else { continue }
      if sinks.isEmpty {
        if failureSinks == nil { failureSinks = observers.failureSinks }
        if failureSinks?.isEmpty ?? true { continue }
      }
      var row = Array(repeating: SQLValue.null, count: layout.mapping.columns.count)
      for (stored, column) in layout.mappingColumn.enumerated()
      where column >= 0 && stored < change.values.count {
        row[column] = change.values[stored]
      }
      let decoder = RowDecoder(
        mapping: layout.mapping, store: self, row: .values(row), prefetched: nil)
      let model: any Model
      do {
        model = try decoder.decodeAny(layout.mapping.type)
      } catch {
        if failureSinks == nil { failureSinks = observers.failureSinks }
        guard let failureSinks, !failureSinks.isEmpty else { continue }
        let failure = Self.undecodableChange(change, row: row, mapping: layout.mapping, error: error)
        for sink in failureSinks { sink(failure) }
        continue
      }
      for sink in sinks { sink(change.kind, model, source) }
    }
  }

  /// The ``DataStoreError/undecodableChange(model:identifiers:operation:error:)`` of `change`,
  /// whose `row` (in `mapping`'s column order) failed to decode with `error`.
  static func undecodableChange(
    _ change: RowChange, row: [SQLValue], mapping: TableMapping, error: any Error
  ) -> DataStoreError {
    var identifiers: [IdentifierComponent] = []
    for (position, column) in mapping.primaryKeyColumns.enumerated() {
      let name = mapping.schema.primaryKey[position]
      let value =
        (try? row[column].keyValue(
          for: mapping.columns[column].fieldType, model: mapping.schema.name, field: name))
        ?? Self.rawKeyValue(row[column])
      identifiers.append(IdentifierComponent(name: name, value: value))
    }
    let underlying =
      error as? DataStoreError
      ?? .decodingFailed(model: mapping.schema.name, field: "", reason: String(describing: error))
    return .undecodableChange(
      model: mapping.schema.name, identifiers: identifiers,
      operation: change.kind == .saved ? "save" : "delete", error: underlying)
  }

  /// A stored key value as it is, for a key column whose value does not fit its field type.
  private static func rawKeyValue(_ value: SQLValue) -> KeyValue {
    switch value {
    case .null: return .string("NULL")
    case .integer(let value): return .int(Int(value))
    case .real(let value): return .double(value)
    case .text(let value): return .string(value)
    }
  }

  /// The committed changes of this store's observed models that could not be reported, from now
  /// on, as an `AsyncStream` (unbounded buffer) of
  /// ``DataStoreError/undecodableChange(model:identifiers:operation:error:)``: a row another
  /// process or another schema version of a model stored with a value the Swift type cannot hold
  /// (an integer out of range, an unknown enum value, bad JSON). Each such change of a table that
  /// ``observe(_:)``, ``observeChanges(_:)`` or ``observeQuery(_:where:sort:minimumInterval:)``
  /// watches is reported here once, after its commit, instead of the event its observers would
  /// have got; their streams go on with the next change. Changes of tables nobody observes are
  /// not decoded, so not reported. The stream ends when the consuming task is cancelled or the
  /// stream is dropped.
  ///
  /// Thread-safety: may be called from any thread; failures are yielded on the thread that reports
  /// the commit.
  public func observeFailures() -> AsyncStream<DataStoreError> {
    let (stream, continuation) = AsyncStream<DataStoreError>.makeStream()
    let id = observers.addFailureSink { continuation.yield($0) }
    continuation.onTermination = { [observers] _ in observers.removeFailureSink(id) }
    return stream
  }

  /// The committed saves and deletes of `M` from now on, as an `AsyncStream` (unbounded buffer):
  /// every row SQLite changed (see ``DataStoreEvent``), once, after its commit, in commit order.
  /// The stream ends when the consuming task is cancelled or the stream is dropped.
  ///
  /// Other processes: while a file store has observers it is registered in the file's change log
  /// (tables `modelgen_change_observer` and `modelgen_change_log`, created by the first store that
  /// observes), and every `DataStore` of another process then logs its committed row changes in
  /// the same transaction; this store reads them on a reader connection when `PRAGMA data_version`
  /// moves (checked every 50 ms). Commits of other processes that begin after the registration
  /// (queued on this store's writer by this call, so a `write` of this store called afterwards runs
  /// after it) are reported. A program that writes the file without a `DataStore` logs nothing: its
  /// commits make live queries read again, but give no row events. Entries are pruned after 60 s,
  /// so a store that cannot poll for that long (a suspended process) loses those events (its live
  /// queries read again).
  public func observe<M: Model>(_ type: M.Type) -> AsyncStream<DataStoreEvent<M>> {
    let (stream, continuation) = AsyncStream<DataStoreEvent<M>>.makeStream()
    let table = (try? mapping(for: M.self).table) ?? M.modelName
    let id = observers.add(table) { kind, model, _ in
      guard let model = model as? M else { return }
      continuation.yield(kind == .saved ? .saved(model) : .deleted(model))
    }
    changeLogWatcher?.observerStarted(self)
    continuation.onTermination = { [observers, changeLogWatcher] _ in
      observers.remove(table, id)
      changeLogWatcher?.observerEnded()
    }
    return stream
  }
}

extension DataStore {
  /// The committed saves and deletes of `M` from now on with their source: what
  /// ``observe(_:)`` reports (same order, same rules, other processes included), each marked
  /// ``DataStoreChangeSource/remote`` when the sync engine applied it. The stream ends when the
  /// consuming task is cancelled or the stream is dropped.
  public func observeChanges<M: Model>(_ type: M.Type) -> AsyncStream<DataStoreChange<M>> {
    let (stream, continuation) = AsyncStream<DataStoreChange<M>>.makeStream()
    let table = (try? mapping(for: M.self).table) ?? M.modelName
    let id = observers.add(table) { kind, model, source in
      guard let model = model as? M else { return }
      continuation.yield(DataStoreChange(event: kind == .saved ? .saved(model) : .deleted(model), source: source))
    }
    changeLogWatcher?.observerStarted(self)
    continuation.onTermination = { [observers, changeLogWatcher] _ in
      observers.remove(table, id)
      changeLogWatcher?.observerEnded()
    }
    return stream
  }
}

extension RowDecoder {
  /// Decodes the current row as a model of the (existential) type `type`.
  func decodeAny(_ type: any Model.Type) throws -> any Model {
    func open<M: Model>(_ type: M.Type) throws -> any Model { try decode(M.self) }
    return try open(type)
  }
}
