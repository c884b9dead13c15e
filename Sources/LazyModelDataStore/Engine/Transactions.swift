import Dispatch
import LazyModel
import Synchronization

/// An object whose identity marks one store's dispatch queues (``DataStore/queueKey``).
final class StoreToken: Sendable {}

/// A read transaction of a ``DataStore``: every query through it reads the same committed snapshot.
///
/// Handed to the closure of ``DataStore/read(_:)`` (and, as a ``WriteTransaction``, of
/// ``DataStore/write(_:)``) and valid only while that closure runs, on the thread running it.
/// Using it afterwards or from another thread throws ``DataStoreError/transactionMisuse(operation:reason:)``.
/// Thread-safety: not `Sendable`; confined to its closure.
public class ReadTransaction {
  let store: DataStore
  let connection: Connection
  private let isOpen = Atomic<Bool>(true)

  init(store: DataStore, connection: Connection) {
    self.store = store
    self.connection = connection
  }

  /// Ends the transaction's validity (its closure returned).
  func close() { isOpen.store(false, ordering: .releasing) }

  /// Throws unless the transaction is open and used on its own connection's queue.
  func check(_ operation: String) throws {
    guard isOpen.load(ordering: .acquiring) else {
      throw DataStoreError.transactionMisuse(
        operation: operation, reason: "the transaction's closure has returned")
    }
    guard DispatchQueue.getSpecific(key: DataStore.queueKey) == ObjectIdentifier(store.token) else {
      throw DataStoreError.transactionMisuse(
        operation: operation, reason: "a transaction is used only inside its own closure")
    }
    // A closure that runs many short statements stops at the next one once its task is cancelled.
    if connection.cancellation.isCancelled { throw CancellationError() }
  }

  /// The `M` with `identifier`, or `nil` (see ``DataStore/query(_:byIdentifier:includes:)``).
  ///
  /// - Throws: As ``DataStore/query(_:byIdentifier:includes:)``.
  public func query<M: Model>(
    _ type: M.Type, byIdentifier identifier: M.Identifier, includes: [QueryInclude] = []
  ) throws -> M? {
    try check("query")
    if includes.isEmpty {
      return try store.loadOne(M.self, identifiers: identifier.components, connection)
    }
    let mapping = try store.mapping(for: M.self)
    let names = identifier.components.map(\.name)
    let sql =
      "SELECT \(mapping.selectList) FROM \(quote(mapping.table)) WHERE "
      + names.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
    return try store.fetch(
      M.self, mapping, sql: sql, bindings: identifier.components.map { SQLValue($0.value) },
      includes: includes, connection
    ).first
  }

  /// The `M`s matching `predicate` (see ``DataStore/query(_:where:sort:limit:offset:includes:)``).
  ///
  /// - Throws: As ``DataStore/query(_:where:sort:limit:offset:includes:)``.
  public func query<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M> = .all, sort: [QuerySort<M>] = [],
    limit: Int? = nil, offset: Int? = nil, includes: [QueryInclude] = []
  ) throws -> [M] {
    try check("query")
    let plan = try store.queryPlan(
      M.self, where: predicate, sort: sort, limit: limit, offset: offset)
    return try store.fetch(
      M.self, plan.mapping, sql: plan.sql, bindings: plan.bindings, includes: includes, connection)
  }

  /// The number of `M`s matching `predicate`.
  ///
  /// - Throws: As ``DataStore/count(_:where:)``.
  public func count<M: Model>(_ type: M.Type, where predicate: QueryPredicate<M> = .all) throws
    -> Int
  {
    try check("count")
    let mapping = try store.mapping(for: M.self)
    return try store.count(mapping, try mapping.sql(for: predicate.untyped), connection)
  }
}

/// A write transaction of a ``DataStore`` over any models (``DataStore/write(_:)``): everything it
/// saves and deletes commits together or not at all. Foreign keys are checked at commit, so a child
/// may be saved before its parent.
///
/// Thread-safety: not `Sendable`; valid only inside its closure (see ``ReadTransaction``).
public final class WriteTransaction: ReadTransaction {
  /// The instants this transaction's saves record: one per save, never decreasing within the
  /// transaction (see ``SaveClock``).
  private let clock = SaveClock()
  /// The sync engine's own writes (answers and remote records) set this: their changes do not
  /// enter the outbox, so the hooks copy their rows only for observers.
  var appliesRemote = false {
    didSet { connection.changes?.feedsOutbox = store.sync != nil && !appliesRemote }
  }
  /// The sync engine's writes of remote records set this: the timestamps they hold are kept.
  var keepsGivenTimestamps: Bool {
    get { clock.keepsGivenTimestamps }
    set { clock.keepsGivenTimestamps = newValue }
  }

  /// Inserts or updates `model` (see `DataStore.save(_:)`). Each save stamps its own instant
  /// (`updatedAt`, and `createdAt` on insert), as Amplify does: millisecond precision, never
  /// earlier than the transaction's previous save (saves within one millisecond share it).
  ///
  /// - Returns: The model as stored (timestamps set, relationships not loaded).
  /// - Throws: As `DataStore.save(_:)`, except that a missing `@belongsTo` target is reported at
  ///   commit, by ``DataStore/write(_:)``. After an error the transaction goes on without the failed
  ///   save (SQLite undid that statement); throwing out of the closure rolls everything back.
  @discardableResult
  public func save<M: Model>(_ model: M) throws -> M {
    try check("save")
    guard let stored = try store.saveOne(model, clock: clock, state: saveState(M.self), connection)
    else {
      throw DataStoreError.encodingFailed(
        model: M.modelName, field: "", reason: "the saved row could not be read back")
    }
    return stored
  }

  /// The ``SaveState`` of each model type this transaction saved, by the type's identity (a
  /// transaction saves few types: a linear search).
  private var saveStates: [(type: ObjectIdentifier, state: SaveState)] = []

  /// This transaction's ``SaveState`` of `M` (made on its first save).
  ///
  /// - Throws: ``DataStoreError/unknownModel(_:)``.
  private func saveState<M: Model>(_ type: M.Type) throws -> SaveState {
    let key = ObjectIdentifier(M.self)
    for entry in saveStates where entry.type == key { return entry.state }
    let state = SaveState(mapping: try store.mapping(for: M.self), store: store)
    saveStates.append((key, state))
    return state
  }

  /// Saves `models` as ``save(_:)`` does without reading the rows back: the sync engine's remote
  /// records, whose stored form nobody reads here.
  func saveWithoutReadBack<M: Model>(_ models: [M]) throws {
    try check("save")
    _ = try store.saveRows(
      models, clock: clock, state: saveState(M.self), connection, readBack: false)
  }

  /// Saves every model of `models` (see ``save(_:)``); each is one save with its own instant, in
  /// order. The call is all or nothing within the transaction: when one model fails, the models
  /// saved before it in this call are undone too (a savepoint), and the transaction goes on.
  ///
  /// - Returns: The models as stored, same order.
  @discardableResult
  public func save<M: Model>(_ models: [M]) throws -> [M] {
    try check("save")
    let state = try saveState(M.self)
    guard models.count > 1 else {
      return try store.saveRows(models, clock: clock, state: state, connection)
    }
    let mark = connection.changes?.mark ?? 0
    try connection.execute("SAVEPOINT modelgen_save_models")
    do {
      let saved = try store.saveRows(models, clock: clock, state: state, connection)
      try connection.execute("RELEASE modelgen_save_models")
      return saved
    } catch {
      // SQLite undid only the failing statement; undo the earlier models of this call as well.
      if !connection.isAutocommit {
        try? connection.execute("ROLLBACK TO modelgen_save_models")
        try? connection.execute("RELEASE modelgen_save_models")
      }
      connection.changes?.revert(to: mark)
      throw error
    }
  }

  /// Deletes `model` by its identifier, cascading (see ``DataStore/delete(_:)``).
  ///
  /// - Returns: `true` when a row was deleted.
  @discardableResult
  public func delete<M: Model>(_ model: M) throws -> Bool {
    try delete(M.self, byIdentifier: model.identifier)
  }

  /// Deletes the `M` with `identifier`, cascading.
  ///
  /// - Returns: `true` when a row was deleted.
  @discardableResult
  public func delete<M: Model>(_ type: M.Type, byIdentifier identifier: M.Identifier) throws
    -> Bool
  {
    let predicate = QueryPredicate<M>(
      unchecked: .and(identifier.components.map { .field($0.name, .eq($0.value)) }))
    return try delete(M.self, where: predicate) > 0
  }

  /// Deletes every `M` matching `predicate`, cascading.
  ///
  /// - Returns: The number of `M` rows deleted (rows removed by cascade not counted).
  @discardableResult
  public func delete<M: Model>(_ type: M.Type, where predicate: QueryPredicate<M>) throws -> Int {
    let mapping = try store.mapping(for: M.self)
    return try delete(mapping, try mapping.sql(for: predicate.untyped))
  }

  func delete(_ mapping: TableMapping, _ condition: SQLFragment) throws -> Int {
    try check("delete")
    return try store.deleteRows(mapping, condition, connection)
  }
}
