import LazyModel

/// The not-loaded references of one `@belongsTo`/`@hasOne` field decoded by one query (its
/// siblings), loaded together: the first load of any of them reads the targets of all of them in
/// chunked `SELECT … WHERE (<primary key>) IN (…)` statements (``DataStore/batchChunkSize`` keys
/// each, composite keys as row values), and later loads of the others are answered from that
/// result without SQL — the DataLoader idea (one batch per tick) applied to a query's result.
///
/// The result is valid only while the file has not changed: every load first reads the file's
/// version (``FileVersionProbe``: the WAL-index header the store's writer connection has
/// mapped, which every commit to the file rewrites — this store's writer, another store, another
/// process),
/// and answers from the batch only when it equals the version read before the batch's read
/// began; so a load answers what an unbatched ``DataStore/loadOne(_:identifiers:)`` at that
/// moment answers. After a commit, the siblings are
/// read again in one batch only once at least as many loads were answered since the last batch as
/// the batch has keys (so a loop that writes between loads costs at most twice the unbatched
/// lookups); until then, and while another load reads the batch, a load is one primary-key lookup.
/// A key the batch did not find is looked up on its own (so a missing target, or a key whose type
/// SQL compares differently, answers as the unbatched path does).
///
/// Only references that name the target's primary key are batched (a `@hasOne(references:)`
/// names the child's FK fields and is looked up on its own). Memory: one identifiers array per
/// sibling and the loaded targets, for as long as one of the references lives.
///
/// Thread-safety: `Sendable`; the state sits behind a ``StoreLock`` that is never held across SQL.
final class SiblingReferences<M: Model>: Sendable {
  private struct State: Sendable {
    /// The identifiers of the siblings, in row order: each identifiers array once (the children of
    /// one parent share one array, recorded when it is made), other duplicates kept.
    var siblings: [[IdentifierComponent]] = []
    /// Whether a sibling shares an identifiers array recorded in ``siblings`` (so there are at
    /// least two references even when ``siblings`` holds one entry).
    var sharesIdentifiers = false
    /// The last batch's targets by identifiers (`nil` model: no such row), or `nil` before it.
    var targets: [[IdentifierComponent]: M?]?
    /// The file's version (``FileVersionProbe/current``) read before ``targets`` started reading.
    var targetsGeneration = FileVersion(first: 0)
    /// Loads answered since the last batch (from it or one by one).
    var loadsSinceBatch = 0
    /// Distinct keys of the last batch.
    var batchKeys = 0
    /// Whether a batch is being read now.
    var reading = false
    /// Batches read so far (tests compare it).
    var batches = 0
  }

  let store: DataStore
  private let state = StoreLock(State())

  init(store: DataStore) { self.store = store }

  /// Records one sibling (the row decoder, while decoding the query's rows).
  func add(_ identifiers: [IdentifierComponent]) {
    state.withLock { $0.siblings.append(identifiers) }
  }

  /// Records that another sibling shares an identifiers array ``add(_:)`` recorded: the row decoder
  /// calls it once per query (on its first reuse of a shared array), so that the children of one
  /// parent cost one entry and one lock, not one per row (issue 11's query-all row).
  func addSharingSibling() {
    state.withLock { $0.sharesIdentifiers = true }
  }

  /// How many batches were read so far.
  var batchCount: Int { state.withLock { $0.batches } }

  /// The file's version now, or `nil` when it cannot be read at once (no batch is then used).
  private var generation: FileVersion? { store.fileVersion.current }

  /// What a load does next.
  private enum Step {
    /// Answered from the current batch (`nil`: no such row).
    case answer(M?)
    /// Read a batch of these distinct keys, labelled with this generation.
    case batch([[IdentifierComponent]], generation: FileVersion)
    /// Look it up on its own.
    case alone
  }

  /// The next step of a load of `identifiers`; with `mayRead` `false`, only an answer from the
  /// current batch (else `.alone`, and the load is not counted: the caller's next step counts it).
  private func step(_ identifiers: [IdentifierComponent], mayRead: Bool = true) -> Step {
    let now = generation
    let step: Step = state.withLock { state in
      guard let now, state.siblings.count > 1 || state.sharesIdentifiers else { return .alone }
      if let targets = state.targets, state.targetsGeneration == now {
        if let hit = targets[identifiers] {
          state.loadsSinceBatch += 1
          return .answer(hit)
        }
        if mayRead { state.loadsSinceBatch += 1 }
        return .alone
      }
      guard mayRead else { return .alone }
      guard !state.reading, state.targets == nil || state.loadsSinceBatch >= state.batchKeys
      else {
        state.loadsSinceBatch += 1
        return .alone
      }
      state.reading = true
      return .batch(state.siblings, generation: now)
    }
    guard case .batch(let siblings, let now) = step else { return step }
    var seen: Set<[IdentifierComponent]> = []
    var keys: [[IdentifierComponent]] = []
    for sibling in siblings where seen.insert(sibling).inserted { keys.append(sibling) }
    return .batch(keys, generation: now)
  }

  /// Reads the batch of `keys` on `connection` and keeps it labelled with `generation`; the answer
  /// for `identifiers`, or `nil` when the batch did not find it (it is then looked up on its own).
  private func read(
    _ keys: [[IdentifierComponent]], generation: FileVersion, answering identifiers: [IdentifierComponent],
    _ connection: Connection
  ) throws -> M?? {
    let targets: [[IdentifierComponent]: M?]
    do {
      targets = try store.fetchTargets(M.self, keys: keys, connection)
    } catch {
      state.withLock { $0.reading = false }
      throw error
    }
    return state.withLock { state in
      state.reading = false
      state.batches += 1
      state.targets = targets
      state.targetsGeneration = generation
      state.batchKeys = keys.count
      state.loadsSinceBatch = 1
      return targets[identifiers]
    }
  }

  /// The target of `identifiers` from the batch (reading it first when due), or `nil` when it must
  /// be looked up on its own.
  ///
  /// - Throws: `CancellationError` when the calling task is cancelled while the batch is read;
  ///   SQLite failures are not thrown (the caller's own lookup reports them).
  func load(_ identifiers: [IdentifierComponent]) async throws -> M?? {
    switch step(identifiers) {
    case .answer(let model): return .some(model)
    case .alone: return nil
    case .batch(let keys, let generation):
      do {
        return try await store.onReader("load") { connection in
          try self.read(keys, generation: generation, answering: identifiers, connection)
        }
      } catch is CancellationError {
        state.withLock { $0.reading = false }
        throw CancellationError()
      } catch {
        state.withLock { $0.reading = false }
        return nil
      }
    }
  }

  /// ``load(_:)`` on the calling thread: from the batch, or reading it on `reader` (the calling
  /// thread's idle reader queue, ``DataStore/idleReaderHere()``) when due and given; `nil` when it
  /// must be looked up on its own.
  func loadWithoutSuspending(_ identifiers: [IdentifierComponent], reader: ConnectionQueue?)
    -> M??
  {
    switch step(identifiers, mayRead: reader != nil) {
    case .answer(let model): return .some(model)
    case .alone: return nil
    case .batch(let keys, let generation):
      guard let reader else {  // not reached: no batch is planned without a reader
        state.withLock { $0.reading = false }
        return nil
      }
      return reader.runSynchronously { connection in
        try? self.read(keys, generation: generation, answering: identifiers, connection)
      }
    }
  }
}

extension DataStore {
  /// The `M`s whose primary key equals one of `keys` (identifiers naming `M`'s primary key
  /// fields), one read transaction of chunked `IN (…)` queries (``fetchGrouped``): each key found
  /// maps to its model; a key not found is absent.
  ///
  /// - Throws: ``DataStoreError/unknownField(model:field:)``, ``DataStoreError/sqlite(code:message:sql:)``.
  func fetchTargets<M: Model>(
    _ type: M.Type, keys: [[IdentifierComponent]], _ connection: Connection
  ) throws -> [[IdentifierComponent]: M?] {
    guard let names = keys.first?.map(\.name) else { return [:] }
    let mapping = try mapping(for: M.self)
    guard names == mapping.primaryKeyNames else { return [:] }
    let grouped = try connection.transaction(write: false) {
      try fetchGrouped(
        M.self, byColumns: names, keys: keys.map { $0.map(\.value) }, includes: [], connection)
    }
    var targets: [[IdentifierComponent]: M?] = [:]
    targets.reserveCapacity(keys.count)
    for key in keys {
      if let model = grouped[key.map(\.value)]?.first as? M { targets[key] = .some(model) }
    }
    return targets
  }
}
