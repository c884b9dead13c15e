import Foundation
import LazyModel
import LazyModelAPI

/// The inbound half's state: the task that subscribes, syncs and applies remote changes, and
/// which models finished a sync since the store opened.
struct InboundState: Sendable {
  var task: Task<Void, Never>?
  var syncedModels: Set<String> = []
  var isSynced = false
  var announcedReady = false
}

/// One event of the merged subscription streams of the synced models.
private enum Incoming: Sendable {
  case connected
  /// A subscription was acknowledged again after a reconnection, at that instant.
  case reconnected(ContinuousClock.Instant)
  case record(modelName: String, GraphQLValue)
  case failed(any Error)
  /// The real-time connection failed and the API client retries it (the subscriptions go on).
  case interrupted
  /// Sync again: a model's last sync left records out (``SyncEngine/syncModel(_:_:)``).
  case resync
}

/// The subscriptions of a cycle were not all acknowledged within
/// ``SyncConfiguration/subscriptionTimeout`` (a network failure: the cycle starts over).
struct SubscriptionsNotEstablished: Error, CustomStringConvertible {
  var seconds: Double
  var description: String { "the subscriptions were not all acknowledged within \(seconds) s" }
}

/// A subscription stream that ended without an error (the connection was closed).
private struct SubscriptionEnded: Error, CustomStringConvertible {
  var description: String { "a subscription ended" }
}

/// The model and identifier (canonical string) of a held remote record
/// (``SyncEngine/replayParked(_:_:)``, `Outbox.parkedTable`).
struct ParkedKey: Hashable, Sendable {
  var modelName: String
  var identifier: String
}

/// What applying one remote record did.
enum Applied: Sendable { case added, updated, deleted, skipped }

/// The inbound half of sync (README, "Sync"; Amplify DataStore's sync engine):
///
/// 1. subscribe to `onCreate`/`onUpdate`/`onDelete` of every synced model (the
///    ``SyncConfiguration/syncExpressions`` as their `filter`) and wait for every acknowledgement,
///    buffering the events that already arrive; a subscription the API does not declare
///    (`@model(subscriptions: null)`) is skipped quietly, and such a model syncs by steps 2-3;
/// 2. per model in dependency order (a `@belongsTo` target before the model), page through
///    `sync<Plural>` — base without `lastSync` (never synced, or the last sync is older than
///    ``SyncConfiguration/fullSyncInterval``), else delta with it — applying each page in one
///    transaction; the last page's transaction also stores `lastSync = startedAt`;
/// 3. apply the buffered events, then the live ones, each in its own transaction; a
///    subscription's `.reconnected` runs a delta sync first (the gap's changes).
///
/// Reconciliation of a remote record: skipped while the outbox holds a mutation for its
/// identifier (the outbound answer brings the server's version), skipped when the stored
/// `_version` is greater or equal, else stored (or deleted, cascading, when `_deleted`) with its
/// metadata; a protected field an event redacted to `null` keeps the stored value, and a sync
/// page's record at the stored `_version` fills the fields such an event left unheld
/// (``RedactedFields``). Nothing inbound enters the outbox. A failure of the network (transport, timeout,
/// HTTP 5xx/429, the real-time connection failing for good, subscriptions not acknowledged within
/// ``SyncConfiguration/subscriptionTimeout``) ends the cycle: `networkStatus(false)` (already
/// reported at the real-time connection's first failed attempt, once per outage), then a new cycle
/// after ``SyncConfiguration/retry``'s delay. A page that cannot be applied is a
/// ``SyncEvent/inboundError(_:)`` and its model is not marked synced; a record of a page that
/// cannot be read or decoded is one too, and is left out while the rest of the page is applied,
/// without advancing the model's `lastSync`. Either way the cycle syncs again after the retry delay
/// (`Incoming.resync`).
///
/// Thread-safety: runs on one task per started store; state behind ``SyncEngine/inbound``.
extension SyncEngine {
  var isSynced: Bool { inbound.withLock { $0.isSynced } }

  func startInbound(store: DataStore) {
    inbound.withLock { state in
      guard state.task == nil else { return }
      state.announcedReady = false
      state.isSynced = false
      state.syncedModels = []
      state.task = Task { [self] in await runInbound(store) }
    }
  }

  /// Cancels the inbound task and waits for it; live queries then report `isSynced == false`.
  func stopInbound(store: DataStore) async {
    let (task, wasSynced) = inbound.withLock { state -> (Task<Void, Never>?, Bool) in
      defer {
        state.task = nil
        state.isSynced = false
        state.syncedModels = []
      }
      return (state.task, state.isSynced)
    }
    task?.cancel()
    await task?.value
    if wasSynced { store.observers.signalAll() }
  }

  /// The synced models' mappings, parents before children (`@belongsTo` targets first; a cycle
  /// keeps registry order).
  func syncedMappings(_ store: DataStore) -> [TableMapping] {
    let synced = store.registry.models.compactMap { try? store.mapping(for: $0) }
      .filter { $0.schema.syncPluralName != nil }
    var ordered: [TableMapping] = []
    var placed: Set<String> = []
    var visiting: Set<String> = []
    let byName = Dictionary(synced.map { ($0.schema.name, $0) }, uniquingKeysWith: { first, _ in first })
    func visit(_ mapping: TableMapping) {
      let name = mapping.schema.name
      guard !placed.contains(name), visiting.insert(name).inserted else { return }
      for reference in mapping.references where reference.isBelongsTo {
        if let parent = byName[reference.target.schema.name] { visit(parent) }
      }
      placed.insert(name)
      ordered.append(mapping)
    }
    for mapping in synced { visit(mapping) }
    return ordered
  }

  // MARK: The cycle

  private func runInbound(_ store: DataStore) async {
    var attempt = 0
    // Whether `networkStatus(active: false)` was the last status reported (once per outage).
    var down = false
    while !Task.isCancelled {
      do {
        try await cycle(store, attempt: &attempt, down: &down)
      } catch {
        if Task.isCancelled { break }
        if !down { emit(.networkStatus(active: false)) }
        down = true
      }
      if Task.isCancelled { break }
      try? await Task.sleep(for: configuration.retry.delay(attempt: attempt))
      attempt += 1
    }
  }

  /// Subscribes, syncs, applies the buffered then the live events; returns or throws when the
  /// network fails (or the task is cancelled).
  ///
  /// `down`: whether the network was last reported down; the cycle reports it down at the
  /// real-time connection's first failed attempt and up once the subscriptions are acknowledged.
  private func cycle(_ store: DataStore, attempt: inout Int, down: inout Bool) async throws {
    let mappings = syncedMappings(store)
    guard !mappings.isEmpty else { return await waitForCancellation() }
    let (incoming, sink) = AsyncStream<Incoming>.makeStream()
    let client = configuration.client
    var forwarders: [Task<Void, Never>] = []
    defer {
      for forwarder in forwarders { forwarder.cancel() }
      sink.finish()
    }
    for mapping in mappings {
      // A subscription the API does not declare (`@model(subscriptions: null)`, `{level: off}`,
      // a renamed-away one, or one whose mutation is disabled) is not subscribed to, quietly: the
      // model syncs through its sync queries and its outbox, and its remote changes arrive with
      // the next base or delta sync.
      let kinds = ModelSubscriptionKind.allCases.filter { Self.subscriptionField($0, of: mapping.schema) != nil }
      guard !kinds.isEmpty else { continue }
      // The tokens are read once per model and cycle; a provider that fails is a network failure.
      let (owners, modeOwners) = try await subscriptionOwnerArguments(mapping.schema)
      for kind in kinds {
        let request: GraphQLRequest<GraphQLValue>
        var modeVariables: [AuthorizationMode: [String: GraphQLValue]] = [:]
        do {
          request = try subscription(
            kind, mapping.schema, ownerArguments: owners,
            declaring: Set(modeOwners.values.flatMap(\.keys)))
          for (mode, arguments) in modeOwners {
            modeVariables[mode] = request.variables.merging(arguments.mapValues { GraphQLValue.string($0) }) {
              _, owner in owner
            }
          }
        } catch {
          emit(.inboundError(SyncInboundError(modelName: mapping.schema.name, identifier: nil, underlying: error)))
          continue
        }
        let name = mapping.schema.name
        forwarders.append(
          Task {
            do {
              let events = client.subscribe(
                document: request.document, variables: request.variables, operationName: request.operationName,
                responseField: request.responseField, modelSchema: mapping.schema, modeVariables: modeVariables,
                onInterruption: { _ in sink.yield(.interrupted) })
              for try await event in events {
                switch event {
                case .connected: sink.yield(.connected)
                case .reconnected: sink.yield(.reconnected(.now))
                case .value(let value): sink.yield(.record(modelName: name, value))
                }
              }
              sink.yield(.failed(SubscriptionEnded()))
            } catch {
              sink.yield(.failed(error))
            }
          })
      }
    }
    var events = incoming.makeAsyncIterator()
    var buffered: [Incoming] = []
    var acknowledged = 0
    // Bounded: a real-time connection that keeps failing (while the client retries by itself)
    // is a network failure of the cycle, reported, and the cycle starts over.
    let bound = configuration.subscriptionTimeout
    let timer = Task {
      try? await Task.sleep(for: bound)
      if Task.isCancelled { return }
      let parts = bound.components
      sink.yield(
        .failed(SubscriptionsNotEstablished(seconds: Double(parts.seconds) + Double(parts.attoseconds) / 1e18)))
    }
    var resyncs: [Task<Void, Never>] = []
    defer {
      timer.cancel()
      for resync in resyncs { resync.cancel() }
    }
    /// A sync that left records out is run again after the retry delay (`resyncAttempt`).
    var resyncAttempt = 0
    func scheduleResync(_ complete: Bool) {
      guard !complete else {
        resyncAttempt = 0
        return
      }
      let delay = configuration.retry.delay(attempt: resyncAttempt)
      resyncAttempt += 1
      resyncs.append(
        Task {
          try? await Task.sleep(for: delay)
          if !Task.isCancelled { sink.yield(.resync) }
        })
    }
    // The network is reported down at the connection's first failed attempt (the client retries
    // it by itself), once until it is up again.
    func interrupted() {
      guard !down else { return }
      down = true
      emit(.networkStatus(active: false))
    }
    while acknowledged < forwarders.count {
      guard let event = await events.next() else { throw CancellationError() }
      switch event {
      case .connected: acknowledged += 1
      case .interrupted: interrupted()
      case .reconnected, .resync: break
      case .record: buffered.append(event)
      case .failed(let error): throw error
      }
    }
    timer.cancel()
    down = false
    emit(.networkStatus(active: true))
    emit(.subscriptionsEstablished)
    var lastSyncStart = ContinuousClock.now
    scheduleResync(try await syncAll(store, mappings))
    attempt = 0
    for case .record(let name, let value) in buffered { await applyLive(store, name, value) }
    while let event = await events.next() {
      switch event {
      case .record(let name, let value): await applyLive(store, name, value)
      case .interrupted: interrupted()
      case .reconnected(let instant):
        if down {
          down = false
          emit(.networkStatus(active: true))
        }
        // One delta sync covers the gap of every subscription that reconnected before it began.
        guard instant >= lastSyncStart else { continue }
        lastSyncStart = .now
        _ = try await syncAll(store, mappings)
      case .resync:
        lastSyncStart = .now
        scheduleResync(try await syncAll(store, mappings))
      case .connected: break
      case .failed(let error): throw error
      }
    }
    throw CancellationError()
  }

  private func waitForCancellation() async {
    while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
  }

  // MARK: Sync queries

  /// Syncs every model in order; throws on a network failure. Returns whether every model's
  /// sync was complete (``syncModel(_:_:)``).
  private func syncAll(_ store: DataStore, _ mappings: [TableMapping]) async throws -> Bool {
    emit(.syncQueriesStarted(modelNames: mappings.map(\.schema.name)))
    var complete = true
    for mapping in mappings {
      try Task.checkCancellation()
      func open<M: Model>(_ type: M.Type) async throws -> Bool { try await syncModel(M.self, store) }
      if try await !open(mapping.type) { complete = false }
    }
    emit(.syncQueriesReady)
    let names = Set(mappings.map(\.schema.name))
    let (becameSynced, announce) = inbound.withLock { state -> (Bool, Bool) in
      let was = state.isSynced
      state.isSynced = names.isSubset(of: state.syncedModels)
      let announce = state.isSynced && !state.announcedReady
      if announce { state.announcedReady = true }
      return (!was && state.isSynced, announce)
    }
    if becameSynced { store.observers.signalAll() }
    if announce { emit(.ready) }
    return complete
  }

  /// Syncs `M` (its base or delta sync, every page); throws on a network failure. Returns
  /// `false` when the sync left something out: a page that failed (an error event, the model not
  /// marked synced), or records that could not be read or applied — an item `null` with an error
  /// at its path, or one that does not decode, is an ``SyncEvent/inboundError(_:)`` naming the
  /// model (and the identifier when the raw item has one), the rest of its page is applied, the
  /// model counts as synced, but its `lastSync` is not advanced, so the next sync (the cycle's
  /// resync after ``SyncConfiguration/retry``'s delay) fetches those records again.
  private func syncModel<M: Model>(_ type: M.Type, _ store: DataStore) async throws -> Bool {
    let schema = M.schema
    let name = schema.name
    let stored = try await store.read { tx in try Outbox.lastSync(name, tx.connection) }
    let now = Int((Date().timeIntervalSince1970 * 1000).rounded(.down))
    let interval = configuration.fullSyncInterval.components
    let intervalMilliseconds = Int(interval.seconds) * 1000 + Int(interval.attoseconds / 1_000_000_000_000_000)
    let lastSync = stored.flatMap { now - $0 > intervalMilliseconds ? nil : $0 }
    var filter: GraphQLValue?
    if let expression = configuration.syncExpressions.first(where: { $0.modelName == name }) {
      do {
        filter = try GraphQLFilter.from(expression.predicate, schema: schema)?.value
      } catch {
        emit(.inboundError(SyncInboundError(modelName: name, identifier: nil, underlying: error)))
        return false
      }
    }
    var token: String?
    var total = 0
    var counts = ModelSyncedEvent(
      modelName: name, isFullSync: lastSync == nil, isDeltaSync: lastSync != nil, added: 0, updated: 0, deleted: 0)
    let pageSize = max(1, configuration.syncPageSize)
    let client = configuration.client
    /// The page after `token`, fetched while the current one is applied (the next page's request
    /// overlaps the current page's transaction; pages are still applied one after another, in order).
    func fetch(_ token: String?, _ limit: Int) throws -> Task<SyncPage, any Error> {
      let request = try Self.syncQuery(schema, filter: filter, limit: limit, nextToken: token, lastSync: lastSync)
      return Task { try Self.syncPage(try await client.response(for: request), of: request, schema) }
    }
    var upcoming: Task<SyncPage, any Error>?
    defer { upcoming?.cancel() }
    /// Whether an earlier page of this sync left a record out (its `lastSync` is then kept).
    var leftOut = false
    repeat {
      let limit = min(pageSize, configuration.maxRecordsToSync - total)
      guard limit > 0 else { break }
      let answer: SyncPage
      do {
        let page = try upcoming ?? fetch(token, limit)
        upcoming = nil
        answer = try await withTaskCancellationHandler {
          try await page.value
        } onCancel: {
          page.cancel()
        }
      } catch let error as APIError {
        if Self.isNetworkFailure(error) { throw error }
        emit(.inboundError(SyncInboundError(modelName: name, identifier: nil, underlying: error)))
        return false
      }
      guard case .object(let page) = answer.value, case .list(let items)? = page["items"],
        case .int(let startedAt)? = page["startedAt"]
      else {
        emit(
          .inboundError(
            SyncInboundError(
              modelName: name, identifier: nil,
              underlying: APIError.undecodableResponse(
                operationName: "Sync\(schema.syncPluralName ?? name)",
                reason: "a sync page without items or startedAt", body: Data()))))
        return false
      }
      var next: String?
      if case .string(let value)? = page["nextToken"] { next = value }
      total += items.count
      let last = next == nil || total >= configuration.maxRecordsToSync
      if !last, let next { upcoming = try fetch(next, min(pageSize, configuration.maxRecordsToSync - total)) }
      let leftOutBefore = leftOut
      do {
        let (applied, unapplied) = try await store.writeRemote { tx -> ([Applied], [SyncInboundError]) in
          var applied: [Applied] = []
          applied.reserveCapacity(items.count)
          var unapplied: [SyncInboundError] = []
          // The whole page decoded first; in a page that does not decode, each record is decoded
          // by itself, and one that does not decode (or came back `null` with an error at its
          // path) is left out with an error naming it.
          var patched = items.map { Self.withReferenceKeys($0, schema) }
          var models = try? patched.map { try Self.decode(M.self, $0) }
          // The page index of each record of `patched`.
          var order = Array(patched.indices)
          if models == nil || !answer.unreadable.isEmpty {
            order = []
            var kept: [GraphQLValue] = []
            var decoded: [M] = []
            for (index, item) in patched.enumerated() {
              if let error = answer.unreadable[index] {
                unapplied.append(
                  SyncInboundError(modelName: name, identifier: Self.rawIdentifier(item, schema), underlying: error))
                continue
              }
              do {
                decoded.append(try Self.decode(M.self, item))
                kept.append(item)
                order.append(index)
              } catch {
                unapplied.append(
                  SyncInboundError(modelName: name, identifier: Self.rawIdentifier(item, schema), underlying: error))
              }
            }
            patched = kept
            models = decoded
          }
          // Looked up once per page: with no entry of the model pending, no record is skipped for one.
          let outboxHoldsModel = try Outbox.hasEntries(name, tx.connection)
          // The page's upserts go to SQLite together (one statement setup for the page).
          let upserts = PageUpserts<M>()
          let mayHaveUnheld = try RedactedFields.hasEntries(name, tx.connection)
          for (index, item) in patched.enumerated() {
            applied.append(
              try self.reconcile(
                M.self, item, decoded: models?[index], outboxHoldsModel: outboxHoldsModel,
                redacted: answer.refused[order[index]] ?? [],
                mayHaveUnheld: mayHaveUnheld, tx, upserts: upserts))
          }
          try upserts.flush(tx)
          // A record left out keeps the last sync time: the next sync fetches it again.
          if last, !leftOutBefore, unapplied.isEmpty { try Outbox.setLastSync(name, startedAt, tx.connection) }
          return (applied, unapplied)
        }
        if !unapplied.isEmpty { leftOut = true }
        for error in unapplied { emit(.inboundError(error)) }
        for outcome in applied {
          switch outcome {
          case .added: counts.added += 1
          case .updated: counts.updated += 1
          case .deleted: counts.deleted += 1
          case .skipped: break
          }
        }
      } catch let error as SyncInboundError {
        emit(.inboundError(error))
        return false
      }
      token = last ? nil : next
    } while token != nil
    inbound.withLock { _ = $0.syncedModels.insert(name) }
    emit(.modelSynced(counts))
    return !leftOut
  }

  static func isNetworkFailure(_ error: APIError) -> Bool {
    switch error {
    case .transport, .timedOut, .cancelled: return true
    case .httpStatus(_, let status, _, _): return status >= 500 || status == 429
    default: return false
    }
  }

  // MARK: Live events

  /// Applies one subscription event in its own transaction (errors become events), or holds it
  /// in memory while its identifier's mutation is out (``holdLiveEvent(_:version:_:)``).
  private func applyLive(_ store: DataStore, _ name: String, _ record: GraphQLValue) async {
    guard let mapping = store.mapping(table: name) else {
      emit(
        .inboundError(SyncInboundError(modelName: name, identifier: nil, underlying: DataStoreError.unknownModel(name)))
      )
      return
    }
    func open<M: Model>(_ type: M.Type) async {
      let patched = Self.withReferenceKeys(record, M.schema)
      let decoded = try? Self.decode(M.self, patched)
      // While the identifier's mutation is out, the event waits for the transaction that
      // finishes it (most are the echo of that mutation, no newer than its answer).
      if let decoded,
        holdLiveEvent(
          ParkedKey(modelName: M.modelName, identifier: decoded.identifier.canonicalString),
          version: Self.syncFields(patched).version, patched)
      {
        return
      }
      await applyLiveRecord(M.self, patched, decoded: decoded, store)
    }
    await open(mapping.type)
  }

  /// Applies a live event's `record` of `M` (patched by ``withReferenceKeys(_:_:)``; `decoded`
  /// when decoded already) in its own transaction; errors become ``SyncEvent/inboundError(_:)``.
  func applyLiveRecord<M: Model>(_ type: M.Type, _ patched: GraphQLValue, decoded: M?, _ store: DataStore) async {
    do {
      let decoded = decoded ?? (try? Self.decode(M.self, patched))
      // Most events are skipped (the echo of this store's own mutation, whose answer already
      // stored its version): that is decided on a reader first, so a skipped event costs no
      // write transaction. Only a `.notNewer` skip is final there (a stored `_version` only
      // grows); a record skipped for a pending mutation is parked on the writer, in step with
      // the transaction that finishes the mutation (``replayParked(_:_:)``), else a change made
      // while the mutation was in flight would be lost.
      if let decoded {
        let identifier = decoded.identifier.canonicalString
        let version = Self.syncFields(patched).version
        let skipped = try? await store.read { tx in
          try Outbox.skipsRemote(M.modelName, identifier, version: version, tx.connection)
        }
        if skipped == .notNewer { return }
      }
      let applied = try await store.writeRemote { tx in
        try self.reconcile(
          M.self, patched, decoded: decoded, outboxHoldsModel: true,
          redacted: M.schema.fieldsRedactedInSubscriptionEvents, tx)
      }
      if let decoded, applied == .added || applied == .updated, Self.eventIsAmbiguous(patched, M.schema) {
        await confirmEvent(M.self, decoded.identifier.components, store)
      }
    } catch let error as SyncInboundError {
      emit(.inboundError(error))
    } catch {
      emit(.inboundError(SyncInboundError(modelName: M.modelName, identifier: nil, underlying: error)))
    }
  }

  /// Whether an applied event of `schema` may hold a `null` that is not the record's value: at
  /// `@model(subscriptions: {level: public})` AppSync publishes the mutation's response, whose
  /// protected fields the auth transformer's field resolvers resolved for the mutation's caller
  /// (`protectFieldResolver` with `subsEnabled` false: "Return Source Field" after
  /// `generateAuthExpressionForField`, which refuses a caller its rules do not allow), so a
  /// protected field is `null` in the event both when the record holds `null` and when the caller
  /// of the mutation may not read it. (At level `on` every protected field is `null` in every
  /// event: the engine keeps the stored value, unconfirmed, until the next sync.)
  static func eventIsAmbiguous(_ record: GraphQLValue, _ schema: ModelSchema) -> Bool {
    guard schema.subscriptionLevel == .public, case .object(let members) = record else { return false }
    return schema.fieldsRedactedInSubscriptionEvents.contains { (members[$0] ?? .null) == .null }
  }

  /// Reads the server's record of `components` (its key) after an ambiguous event (``eventIsAmbiguous(_:_:)``)
  /// and reconciles it as a query's record: its protected fields are the subscriber's own read
  /// (the stored value, or `null` with `Unauthorized` for a field the subscriber may not read,
  /// which stays redacted), so the row converges at once rather than at the next sync. A failed
  /// read changes nothing (the fields stay recorded, for the next sync to fill); the read is
  /// one `get` per such event, made in the event's order.
  private func confirmEvent<M: Model>(_ type: M.Type, _ components: [IdentifierComponent], _ store: DataStore) async {
    do {
      let request = try Self.getQuery(M.schema, components)
      let (record, refused) = try await self.record(request, M.schema)
      guard record != .null else { return }
      _ = try await store.writeRemote { tx in
        try self.reconcile(
          M.self, Self.withReferenceKeys(record, M.schema), decoded: nil, outboxHoldsModel: true, redacted: refused, tx)
      }
    } catch let error as SyncInboundError {
      emit(.inboundError(error))
    } catch {
      return
    }
  }

  // MARK: Reconciliation

  /// Applies one remote record inside `tx` (see the type's rules); throws ``SyncInboundError``.
  static func reconcile<M: Model>(_ type: M.Type, _ record: GraphQLValue, _ tx: WriteTransaction) throws
    -> Applied
  {
    try reconcile(M.self, withReferenceKeys(record, M.schema), decoded: nil, outboxHoldsModel: true, tx)
  }

  /// ``reconcile(_:_:_:)`` with this engine: a record skipped for a pending mutation of its
  /// identifier is held (the newest per identifier, in the sync metadata's
  /// `_lazymodel_sync_parked` table, inside `tx`, so it survives a restart or a kill of the
  /// process) and reconciled again once the mutation is done (``replayParked(_:_:)``): a change
  /// another device made while this store's mutation of the record was in flight is newer than the
  /// answer, and the delta sync that brought it (or its live event) will not bring it again.
  ///
  /// `redacted`: the fields of `record` that came back redacted (``RedactedFields``): every
  /// protected field of a subscription event, the fields of a sync page's item that came back
  /// `Unauthorized` (``syncPage(_:of:_:)``), none for the rest of a sync page (`mayHaveUnheld`
  /// `false`: the transaction found no recorded field of `M`).
  func reconcile<M: Model>(
    _ type: M.Type, _ record: GraphQLValue, decoded: M?, outboxHoldsModel: Bool, redacted: Set<String> = [],
    mayHaveUnheld: Bool = true, _ tx: WriteTransaction, upserts: PageUpserts<M>? = nil
  ) throws -> Applied {
    try Self.reconcile(
      M.self, record, decoded: decoded, outboxHoldsModel: outboxHoldsModel, redacted: redacted,
      mayHaveUnheld: mayHaveUnheld, tx, upserts: upserts
    ) {
      identifier, version in
      try Outbox.park(M.modelName, identifier, version: version, record, tx.connection)
    }
  }

  /// Reconciles again the record held for `entry`'s identifier (``reconcile(_:_:decoded:outboxHoldsModel:_:)``)
  /// inside `tx`, the transaction that finishes `entry`, when no later entry of the identifier is
  /// pending: applied when newer than what the answer stored, and no longer held either way. A
  /// record that cannot be applied is an ``SyncEvent/inboundError(_:)`` and leaves the rest of `tx`
  /// as it was (a savepoint).
  ///
  /// `known`: whether an entry of the identifier is still pending and its stored metadata, when
  /// the caller's transaction just read and wrote them (they are not read again).
  func replayParked(
    _ entry: PendingMutation, _ tx: WriteTransaction, known: (pending: Bool, stored: SyncMetadata)? = nil
  ) throws {
    try replayParked(ParkedKey(modelName: entry.modelName, identifier: entry.identifier), tx, known: known)
  }

  /// Replays, inside `tx`, every held record whose identifier has no outbox entry left (its
  /// mutation was merged away, `create`+`delete`, or finished by a process that stopped before
  /// this one): run by ``start(store:)``.
  func replayOrphanedParked(_ tx: WriteTransaction) throws {
    for key in try Outbox.parkedKeys(tx.connection) { try replayParked(key, tx) }
  }

  private func replayParked(
    _ key: ParkedKey, _ tx: WriteTransaction, known: (pending: Bool, stored: SyncMetadata)? = nil
  ) throws {
    guard let version = try Outbox.parkedVersion(key.modelName, key.identifier, tx.connection),
      try !(known?.pending ?? (Outbox.latestEntry(key.modelName, key.identifier, tx.connection) != nil))
    else { return }
    // Not newer than the stored `_version` (most often the echo of this store's own mutation,
    // whose answer stored that version): `reconcile` would skip it (`.notNewer`; a held record is
    // replayed as redacted, so a query's refill of unheld fields never applies), so it is dropped
    // unread — parsing and decoding it was the largest part of finishing a drained mutation.
    if let stored = try known?.stored ?? Outbox.metadata(key.modelName, key.identifier, tx.connection),
      stored.version >= version
    {
      return try Outbox.discardParked(key.modelName, key.identifier, tx.connection)
    }
    guard let record = try Outbox.unpark(key.modelName, key.identifier, tx.connection),
      let mapping = tx.store.mapping(table: key.modelName)
    else { return }
    func open<M: Model>(_ type: M.Type) throws {
      try tx.connection.execute("SAVEPOINT lazymodel_replay")
      do {
        // A held record may be a subscription event's: its `null` protected fields say nothing.
        _ = try Self.reconcile(
          M.self, record, decoded: nil, outboxHoldsModel: true, redacted: M.schema.fieldsRedactedInSubscriptionEvents,
          tx)
        try tx.connection.execute("RELEASE lazymodel_replay")
      } catch {
        try tx.connection.execute("ROLLBACK TO lazymodel_replay")
        try tx.connection.execute("RELEASE lazymodel_replay")
        emit(
          .inboundError(
            error as? SyncInboundError
              ?? SyncInboundError(
                modelName: key.modelName, identifier: key.identifier, underlying: error)))
      }
    }
    try open(mapping.type)
  }

  /// ``reconcile(_:_:_:)`` of a record already patched by ``withReferenceKeys(_:_:)`` (and decoded,
  /// when `decoded` is set); `outboxHoldsModel` `false` (the transaction found no outbox entry of
  /// `M`) skips the record's outbox lookup; `park` receives the identifier and `_version` of a
  /// record skipped for a pending mutation (what it throws fails the record). `redacted` and
  /// `mayHaveUnheld` as ``reconcile(_:_:decoded:outboxHoldsModel:redacted:mayHaveUnheld:_:upserts:)``: a
  /// query's record at the stored `_version` is applied while the record has a recorded field
  /// that `redacted` does not hold (it brings that field's value). With
  /// `upserts`, an upsert is collected there and written by its next ``PageUpserts/flush(_:)``
  /// (before any delete, and before a second record of one identifier is looked at), not at once.
  private static func reconcile<M: Model>(
    _ type: M.Type, _ record: GraphQLValue, decoded: M?, outboxHoldsModel: Bool, redacted: Set<String> = [],
    mayHaveUnheld: Bool = true, _ tx: WriteTransaction, upserts: PageUpserts<M>? = nil,
    park: (String, Int) throws -> Void = { _, _ in }
  ) throws -> Applied {
    var model: M
    do {
      model = try decoded ?? decode(M.self, record)
    } catch {
      throw SyncInboundError(modelName: M.modelName, identifier: rawIdentifier(record, M.schema), underlying: error)
    }
    let identifier = model.identifier.canonicalString
    do {
      let remote = syncFields(record)
      switch try Outbox.skipsRemote(
        M.modelName, identifier, version: remote.version, checkOutbox: outboxHoldsModel, tx.connection)
      {
      case .pendingMutation?:
        try park(identifier, remote.version)
        return .skipped
      case .notNewer?:
        // A query's record of the stored `_version` brings what a redacted answer or event left
        // unheld or unconfirmed, unless it redacts those fields too.
        guard mayHaveUnheld, M.schema.hasFieldAuthRules,
          try Outbox.metadata(M.modelName, identifier, tx.connection)?.version == remote.version,
          try !RedactedFields.state(M.modelName, identifier, tx.connection).all.isSubset(of: redacted)
        else { return .skipped }
      case nil: break
      }
      // A collected upsert of this identifier is written before its row is looked at.
      if let upserts, upserts.holds(identifier) { try upserts.flush(tx) }
      let mapping = try tx.store.mapping(for: M.self)
      let components = model.identifier.components
      let condition = SQLFragment(
        sql: mapping.primaryKeyCondition, bindings: components.map { SQLValue($0.value) })
      let probe = try tx.connection.prepare(mapping.existsByPrimaryKey, owner: mapping, kind: 11)
      try probe.bind(condition.bindings)
      let exists = try probe.step()
      probe.reset()
      try Outbox.setMetadata(M.modelName, identifier, remote, tx.connection)
      if let merged = try RedactedFields.merge(
        M.self, record, identifier: identifier, redacted: remote.deleted ? [] : redacted,
        mayHaveUnheld: mayHaveUnheld, tx)
      {
        model = try decode(M.self, merged)
      }
      if remote.deleted {
        guard exists else { return .skipped }
        try upserts?.flush(tx)  // a cascade may reach a collected child
        try tx.store.deleteCascading(mapping, condition, tx.connection)
        return .deleted
      }
      if let upserts {
        upserts.append(model, identifier)
      } else {
        try tx.saveWithoutReadBack([model])
      }
      return exists ? .updated : .added
    } catch let error as SyncInboundError {
      throw error  // a collected upsert's, from a flush
    } catch {
      throw SyncInboundError(modelName: M.modelName, identifier: identifier, underlying: error)
    }
  }

  /// The key fields of a record that does not decode, as received (`id=a`), for its error.
  private static func rawIdentifier(_ record: GraphQLValue, _ schema: ModelSchema) -> String? {
    guard case .object(let members) = record else { return nil }
    let parts = schema.primaryKey.compactMap { name -> String? in
      switch members[name] {
      case .string(let value)?: return "\(name)=\(value)"
      case .int(let value)?: return "\(name)=\(value)"
      default: return nil
      }
    }
    return parts.isEmpty ? nil : parts.joined(separator: ",")
  }

  // MARK: Documents

  /// The `@belongsTo` (and `@hasOne` with FK fields on this model) fields of `schema`: the field,
  /// its FK fields on this model (`postID`) and the parent's fields they hold (`id`).
  private static func references(_ schema: ModelSchema) -> [(
    field: ModelField, targetNames: [String], associated: [String]
  )] {
    schema.fields.compactMap { field in
      switch field.association {
      case .belongsTo(let associated, let targetNames) where !targetNames.isEmpty,
        .hasOne(let associated, let targetNames) where !targetNames.isEmpty && associated.count == targetNames.count:
        return (field, targetNames, associated)
      default:
        return nil
      }
    }
  }

  /// ``syncSelectionSet(_:)`` plus the FK fields of each reference (`postID`): a service resolves
  /// `post { id }` to `null` while the parent is missing (a child synced before its parent, or a
  /// parent outside the selective sync), and the FK fields still say which parent it is (a
  /// reference they identify is selected by them alone; ``withReferenceKeys(_:_:)`` rebuilds it).
  static func inboundSelectionSet(_ schema: ModelSchema) -> String {
    let names = references(schema).flatMap(\.targetNames).filter { schema.field(named: $0) == nil }
    let base = syncSelectionSet(schema)
    guard !names.isEmpty else { return base }
    return String(base.dropLast()) + Array(Set(names)).sorted().joined(separator: " ") + " }"
  }

  /// `record` with each reference that came back `null` (or absent) rebuilt from its FK fields,
  /// so the stored row keeps them and the reference loads the parent once it exists locally.
  static func withReferenceKeys(_ record: GraphQLValue, _ schema: ModelSchema) -> GraphQLValue {
    guard case .object(var members) = record else { return record }
    for (field, targetNames, associated) in references(schema) {
      if let nested = members[field.name], nested != .null { continue }
      let values = targetNames.compactMap { name -> GraphQLValue? in
        guard let value = members[name], value != .null else { return nil }
        return value
      }
      guard values.count == targetNames.count, case .model(let target) = field.type else { continue }
      var reference: [String: GraphQLValue] = ["__typename": .string(target.modelName)]
      for (name, value) in zip(associated, values) { reference[name] = value }
      members[field.name] = .object(reference)
    }
    return .object(members)
  }

  /// A sync page's `data.sync<Plural>` and, per index of an item whose protected fields the
  /// service refused, those fields (``syncPage(_:of:_:)``).
  struct SyncPage: Sendable {
    let value: GraphQLValue
    let refused: [Int: Set<String>]
    /// Per index of an item the service could not read (an error at `[sync<Plural>, items, i, …]`
    /// other than a refused protected field): the error, as ``LazyModelAPI/APIError/graphQL(operationName:errors:partialData:body:)``.
    var unreadable: [Int: APIError] = [:]
  }

  /// The page `response` to the sync query `request` of `schema` holds. Its errors are accepted
  /// when every one is an `Unauthorized` error on the path `[sync<Plural>, "items", i, field]` of
  /// a protected field of the model (``refusedFields(_:of:_:)``). Item `i` is then reconciled with
  /// those fields redacted (their `null` says nothing: ``RedactedFields``), and only those: a
  /// protected field the caller may read is a real value.
  ///
  /// Any other error at an item's path (`[sync<Plural>, "items", i, …]`: a field the service
  /// could not resolve) makes item `i` unreadable (``SyncPage/unreadable``): it is left out, the
  /// rest of the page is applied.
  ///
  /// - Throws: ``LazyModelAPI/APIError/graphQL(operationName:errors:partialData:body:)`` (as
  ///   ``LazyModelAPI/APIClient/send(_:)``) for an error outside the items;
  ///   ``LazyModelAPI/APIError/undecodableResponse(operationName:reason:body:)`` when
  ///   the page has no `data.sync<Plural>`.
  static func syncPage(
    _ response: GraphQLResponse<GraphQLValue>, of request: GraphQLRequest<GraphQLValue>, _ schema: ModelSchema
  ) throws -> SyncPage {
    let field = GraphQLValue.string(request.responseField)
    let protected = schema.protectedFields
    var refused: [Int: Set<String>] = [:]
    var unreadable: [Int: [GraphQLError]] = [:]
    for error in response.errors {
      guard let path = error.path, path.count >= 3, path[0] == field, path[1] == "items",
        case .int(let index) = path[2]
      else { throw APIClient.graphQLError(response, of: request) }
      if error.errorType == "Unauthorized", path.count == 4, case .string(let name) = path[3], protected.contains(name)
      {
        refused[index, default: []].insert(name)
      } else {
        unreadable[index, default: []].append(error)
      }
    }
    return SyncPage(
      value: try APIClient.data(of: response, for: request), refused: refused,
      unreadable: unreadable.mapValues { errors in
        APIError.graphQL(operationName: request.operationName, errors: errors, partialData: nil, body: response.body)
      })
  }

  /// The fields that `response` (to a query of `schema`'s records) refused, by the path of the
  /// record that holds them (`[getMemo]`, `[syncMemos, "items", 3]`). Its errors are accepted when
  /// every one is an `Unauthorized` error whose path ends with a protected field of the model
  /// (``LazyModel/ModelSchema/protectedFields``, whatever the subscription level): AppSync's field-level
  /// authorization answers a caller who may read the record but not the field with the field
  /// `null` and such an error (the Amplify transformer's field resolvers; the local server's
  /// `FieldUnauthorized`).
  ///
  /// - Throws: ``LazyModelAPI/APIError/graphQL(operationName:errors:partialData:body:)`` (as
  ///   ``LazyModelAPI/APIClient/send(_:)``) when some error is not accepted.
  static func refusedFields(
    _ response: GraphQLResponse<GraphQLValue>, of request: GraphQLRequest<GraphQLValue>, _ schema: ModelSchema
  ) throws -> [[GraphQLValue]: Set<String>] {
    guard !response.errors.isEmpty else { return [:] }
    let protected = schema.protectedFields
    var refused: [[GraphQLValue]: Set<String>] = [:]
    for error in response.errors {
      guard error.errorType == "Unauthorized", let path = error.path, path.count >= 2,
        path[0] == .string(request.responseField), case .string(let name) = path.last, protected.contains(name)
      else { throw APIClient.graphQLError(response, of: request) }
      refused[Array(path.dropLast()), default: []].insert(name)
    }
    return refused
  }

  /// `query SyncPosts($filter: …, $limit: Int, $nextToken: String, $lastSync: AWSTimestamp) { syncPosts(…) { items { … } nextToken startedAt } }`.
  static func syncQuery(
    _ schema: ModelSchema, filter: GraphQLValue?, limit: Int, nextToken: String?, lastSync: Int?
  ) throws -> GraphQLRequest<GraphQLValue> {
    guard let plural = schema.syncPluralName else { throw DataStoreError.unknownModel(schema.name) }
    let field = "sync" + plural
    let name = "Sync" + plural
    var variables: [String: GraphQLValue] = ["limit": .int(limit)]
    if let filter { variables["filter"] = filter }
    if let nextToken { variables["nextToken"] = .string(nextToken) }
    if let lastSync { variables["lastSync"] = .int(lastSync) }
    let document =
      "query \(name)($filter: \(ModelDocument.filterInputType(schema)), $limit: Int, $nextToken: String,"
      + " $lastSync: AWSTimestamp) { \(field)(filter: $filter, limit: $limit, nextToken: $nextToken,"
      + " lastSync: $lastSync) { items \(inboundSelectionSet(schema)) nextToken startedAt } }"
    return GraphQLRequest(
      operationType: .query, operationName: name, document: document, variables: variables, responseField: field
    ).authorized(by: schema, operation: .sync)
  }

  /// The root field of `schema`'s `kind` subscription, or `nil` when the API declares none.
  static func subscriptionField(_ kind: ModelSubscriptionKind, of schema: ModelSchema) -> String? {
    switch kind {
    case .onCreate: return schema.operations.onCreate
    case .onUpdate: return schema.operations.onUpdate
    case .onDelete: return schema.operations.onDelete
    }
  }

  /// The `kind` subscription of `schema` with the sync fields, the model's sync expression as
  /// its `filter` and `ownerArguments` (``ownerArguments(_:)``) as its owner arguments; the
  /// document also declares the owner arguments `declaring` names (those of a mode's own start).
  private func subscription(
    _ kind: ModelSubscriptionKind, _ schema: ModelSchema, ownerArguments: [String: String],
    declaring: Set<String> = []
  ) throws -> GraphQLRequest<GraphQLValue> {
    guard let field = Self.subscriptionField(kind, of: schema) else {
      throw DataStoreError.invalidArgument(
        name: "sync", value: 0, reason: "the \(kind.rawValue) subscription of \(schema.name) is disabled")
    }
    var variables: [String: GraphQLValue] = [:]
    if let expression = configuration.syncExpressions.first(where: { $0.modelName == schema.name }),
      let filter = try GraphQLFilter.from(expression.predicate, schema: schema)
    {
      variables["filter"] = filter.value
    }
    let owners = ModelSubscriptions.ownerArgumentNames(of: schema).filter {
      ownerArguments[$0] != nil || declaring.contains($0)
    }
    for name in owners { if let value = ownerArguments[name] { variables[name] = .string(value) } }
    let name = field.prefix(1).uppercased() + field.dropFirst()
    let declarations =
      ["$filter: \(ModelDocument.subscriptionFilterInputType(schema))"] + owners.map { "$\($0): String" }
    let arguments = ["filter: $filter"] + owners.map { "\($0): $\($0)" }
    let document =
      "subscription \(name)(\(declarations.joined(separator: ", "))) {"
      + " \(field)(\(arguments.joined(separator: ", "))) \(Self.inboundSelectionSet(schema)) }"
    return GraphQLRequest(
      operationType: .query, operationName: name, document: document, variables: variables, responseField: field)
  }
}

// MARK: Owner arguments

extension SyncEngine {
  /// The owner arguments of `schema`'s subscriptions for the client's signed-in identity, by owner
  /// field (`["owner": "alice"]`), as Amplify's DataStore passes them: for each `allow: owner`
  /// rule of the client's mode (user pools or OIDC, `APIClient.Configuration.authorization`) that
  /// may listen, unless a rule of that mode lets the caller read every record (`private`, or
  /// `groups` naming one of the token's groups). The value is the token's claim the rule's
  /// `identityClaim` names (by default the transformer's `sub::username`), as the transformer's
  /// subscription resolvers compare it: the part `username` is read from `username`, else
  /// `cognito:username` when `username` is absent or null (`getOwnerClaim`; an empty `username` is
  /// a value and is kept, as `$util.defaultIfNull` keeps it); any other part (a written
  /// `cognito:username`, `sub`, a custom claim) is read as it is named. For a claim of several
  /// parts every part must be a string without `::`, and the last one is passed (what the owner
  /// field of the events reads as), or the whole owner value (`"<sub>::"`) when the last part is
  /// empty. A part that is missing or not a string, a claim of one part that is empty, or one whose
  /// parts are all empty passes no argument for that rule: such a token owns nothing (never a fall
  /// back to `sub`, which could name another user) — the local server's rule
  /// (`Tests/GraphQLServer/auth.py`, `_owner_claims`). Empty for other modes, and for a token whose
  /// claims cannot be read (the service decides).
  ///
  /// - Throws: ``AuthorizationError`` when the token provider fails.
  func ownerArguments(_ schema: ModelSchema) async throws -> [String: String] {
    try await ownerArguments(schema, authorization: configuration.client.configuration.authorization)
  }

  /// The owner arguments of `schema`'s subscriptions: under ``AuthorizationStrategy/default``,
  /// ``ownerArguments(_:)`` for every start (`shared`); under
  /// ``AuthorizationStrategy/multiAuth(_:)``, each user pools or OIDC mode's own (`byMode`: each
  /// mode's connection sends its start with its own token's owner, as AppSync requires the
  /// owner's argument of each), and none for the other modes (an API key or IAM start passes no
  /// owner argument).
  ///
  /// - Throws: ``AuthorizationError`` when a token provider fails.
  func subscriptionOwnerArguments(_ schema: ModelSchema) async throws -> (
    shared: [String: String], byMode: [AuthorizationMode: [String: String]]
  ) {
    guard case .multiAuth(let configured) = configuration.client.configuration.authorizationStrategy else {
      return (try await ownerArguments(schema), [:])
    }
    var byMode: [AuthorizationMode: [String: String]] = [:]
    for authorization in AuthorizationStrategy.ordered(configured, for: schema, operation: .listen) {
      guard let mode = authorization.mode, byMode[mode] == nil else { continue }
      let arguments = try await ownerArguments(schema, authorization: authorization)
      if !arguments.isEmpty { byMode[mode] = arguments }
    }
    return ([:], byMode)
  }

  /// ``ownerArguments(_:)`` for the token of `authorization` (none unless user pools or OIDC).
  func ownerArguments(_ schema: ModelSchema, authorization: APIClient.Authorization) async throws -> [String:
    String]
  {
    let names = ModelSubscriptions.ownerArgumentNames(of: schema)
    guard !names.isEmpty else { return [:] }
    let mode: AuthorizationMode
    let provider: APIClient.TokenProvider
    switch authorization {
    case .userPools(let tokens): (mode, provider) = (.userPools, tokens)
    case .oidc(let tokens): (mode, provider) = (.oidc, tokens)
    default: return [:]
    }
    let provides: AuthRule.Provider = mode == .userPools ? .userPools : .oidc
    let rules = (schema.authRules + schema.fields.flatMap(\.authRules)).filter {
      $0.effectiveProvider == provides && $0.grantedOperations.contains(.listen)
    }
    let token: String
    do {
      token = try await provider()
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw AuthorizationError(mode: mode, reason: .providerFailed(error))
    }
    guard let claims = Self.claims(ofJWT: token) else { return [:] }
    // A group claim as the transformer's resolvers read it (`$util.isString`, then
    // `$util.parseJson`): a list is its groups, a string holding a JSON list is that list, any other
    // string one group; absent or null is no groups (the service refuses other shapes).
    func strings(_ claim: String) -> [String] {
      func texts(_ values: [GraphQLValue]) -> [String] {
        values.compactMap { if case .string(let text) = $0 { text } else { nil } }
      }
      switch claims[claim] {
      case .string(let value)?:
        if case .list(let values)? = try? JSONDecoder().decode(GraphQLValue.self, from: Data(value.utf8)) {
          return texts(values)
        }
        return [value]
      case .list(let values)?: return texts(values)
      default: return []
      }
    }
    for rule in rules where rule.allow == .private || (rule.allow == .groups && rule.groupsField == nil) {
      if rule.allow == .private { return [:] }
      let groups = Set(strings(rule.groupClaim ?? "cognito:groups"))
      if !groups.isDisjoint(with: rule.groups ?? []) { return [:] }
    }
    var arguments: [String: String] = [:]
    for rule in rules where rule.allow == .owner {
      let field = rule.effectiveOwnerField
      guard names.contains(field), arguments[field] == nil else { continue }
      func claim(_ name: String) -> String? {
        let value: GraphQLValue?
        switch name {
        // `username`, else `cognito:username` when the first is absent or null (`getOwnerClaim`).
        case "username":
          if let username = claims["username"], username != .null {
            value = username
          } else {
            value = claims["cognito:username"]
          }
        default: value = claims[name]
        }
        guard case .string(let text)? = value else { return nil }
        return text
      }
      let parts = (rule.identityClaim ?? "sub::username").components(separatedBy: "::").map(claim)
      guard parts.allSatisfy({ $0 != nil }) else { continue }
      let values = parts.compactMap { $0 }
      guard values.count == 1 || !values.contains(where: { $0.contains("::") }),
        values.contains(where: { !$0.isEmpty }), let last = values.last
      else { continue }
      arguments[field] = last.isEmpty ? values.joined(separator: "::") : last
    }
    return arguments
  }

  /// The claims of a JSON Web Token (RFC 7519 §7.2: the base64url JSON payload, its second part),
  /// read without verifying its signature (the service verifies it); `nil` when it is not one.
  static func claims(ofJWT token: String) -> [String: GraphQLValue]? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
    guard let data = Data(base64Encoded: payload),
      case .object(let claims)? = try? JSONDecoder().decode(GraphQLValue.self, from: data)
    else { return nil }
    return claims
  }
}

extension DataStore {
  /// Deletes the rows of `mapping` matching `condition` and, first, every row that reaches them
  /// through a `@belongsTo` with `ON DELETE CASCADE` (what SQLite would cascade; the sync engine's
  /// remote writes run with foreign keys off). Nested up to 16 levels.
  func deleteCascading(_ mapping: TableMapping, _ condition: SQLFragment, _ connection: Connection, depth: Int = 0)
    throws
  {
    if depth < 16 {
      for child in registry.models.compactMap({ try? self.mapping(for: $0) }) {
        for reference in child.references
        where reference.isBelongsTo && reference.target.schema.name == mapping.schema.name
          && child.foreignKeyClause(reference) != nil
        {
          let columns = reference.targetNames.map(quote).joined(separator: ", ")
          let keys = reference.associatedFields.map(quote).joined(separator: ", ")
          let nested = SQLFragment(
            sql: "(\(columns)) IN (SELECT \(keys) FROM \(quote(mapping.table)) WHERE \(condition.sql))",
            bindings: condition.bindings)
          try deleteCascading(child, nested, connection, depth: depth + 1)
        }
      }
    }
    _ = try deleteRows(mapping, condition, connection)
  }
}

/// The upserts of one sync page, collected by ``SyncEngine/reconcile(_:_:decoded:outboxHoldsModel:redacted:mayHaveUnheld:_:upserts:)``
/// and written together: one `saveRows` call (its statement, encoder and key order set up once)
/// instead of one per record. Used inside one write job only.
final class PageUpserts<M: Model> {
  private var models: [M] = []
  private var identifiers: [String] = []
  private var pending: Set<String> = []

  /// Whether an upsert of `identifier` is collected and not written yet.
  func holds(_ identifier: String) -> Bool { pending.contains(identifier) }

  func append(_ model: M, _ identifier: String) {
    models.append(model)
    identifiers.append(identifier)
    pending.insert(identifier)
  }

  /// Writes the collected upserts inside `tx`, in order.
  ///
  /// - Throws: ``SyncInboundError`` naming the record that failed: when the batch fails, its
  ///   records are written again one by one (upserts of the same values), so the error is that
  ///   record's.
  func flush(_ tx: WriteTransaction) throws {
    guard !models.isEmpty else { return }
    defer {
      models.removeAll(keepingCapacity: true)
      identifiers.removeAll(keepingCapacity: true)
      pending.removeAll(keepingCapacity: true)
    }
    do {
      try tx.saveWithoutReadBack(models)
    } catch {
      for (model, identifier) in zip(models, identifiers) {
        do {
          try tx.saveWithoutReadBack([model])
        } catch {
          throw SyncInboundError(modelName: M.modelName, identifier: identifier, underlying: error)
        }
      }
      throw SyncInboundError(modelName: M.modelName, identifier: nil, underlying: error)
    }
  }
}
