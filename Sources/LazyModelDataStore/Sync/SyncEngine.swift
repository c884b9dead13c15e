import Foundation
import LazyModel
import LazyModelAPI

/// The outbound half of sync: drains the outbox in order, one request out at a time (so also one
/// per identifier), and applies each answer to the sync metadata and the local row — beside the
/// next request, whose entry was taken while the one before it was out (`Following`).
///
/// States: stopped (no task) → running (``start(store:)`` spawned the drain task, which waits for a
/// wake-up when the outbox is empty) → stopped (``stop()`` cancelled the task and waited for it;
/// what was in flight is marked pending again; the next start reads the server's record before
/// sending it again, and takes a record that already holds it as its answer).
///
/// Thread-safety: `Sendable`; its mutable state sits behind one `StoreLock`. The drain runs on one
/// task; the handlers of ``SyncConfiguration`` are awaited from it, one at a time.
final class SyncEngine: Sendable {
  let configuration: SyncConfiguration

  private struct State: Sendable {
    var task: Task<Void, Never>?
    var wake: AsyncStream<Void>.Continuation?
    var listeners: [UUID: AsyncStream<SyncEvent>.Continuation] = [:]
  }
  private let state = StoreLock(State())
  /// The inbound half's task and progress (InboundSync.swift).
  let inbound = StoreLock(InboundState())
  /// The identifiers whose mutation was sent and whose answer is not stored yet (added before a
  /// request leaves, removed once the write that finished it returned), and the live events of
  /// them that arrived meanwhile, held in memory (`Sending`).
  let sending = StoreLock(Sending())

  /// What is out, and what arrived for it (see `sending`).
  struct Sending: Sendable {
    var keys: Set<ParkedKey> = []
    /// The newest live event of each member of `keys` (by `_version`), as received and patched
    /// (``withReferenceKeys(_:_:)``): most are the echo of the store's own mutation, which
    /// arrives while it is in flight (about 60–90 % of them). The transaction that finishes the
    /// mutation reads it and holds it (`Outbox.park`) only when it is newer than the answer, so
    /// an echo costs no write transaction of its own. In memory only, and only while the
    /// mutation is out: after a crash or a kill the next start's sync query brings the record
    /// again (`lastSync` is stored by sync queries alone, whose pages hold what a pending
    /// mutation skips), and the mutation itself is read back before it is sent again.
    var held: [ParkedKey: HeldEvent] = [:]
  }

  /// A live event held while its identifier's mutation is out (`Sending.held`).
  struct HeldEvent: Sendable {
    var version: Int
    /// The record, patched by ``withReferenceKeys(_:_:)``.
    var record: GraphQLValue
  }

  /// Holds `record` (a live event of `key` at `_version` `version`, patched) when `key`'s
  /// mutation is out, keeping the newer of it and one held already; `false` when it is not out
  /// (the caller applies the event).
  func holdLiveEvent(_ key: ParkedKey, version: Int, _ record: GraphQLValue) -> Bool {
    sending.withLock { sending in
      guard sending.keys.contains(key) else { return false }
      if let held = sending.held[key], held.version >= version { return true }
      sending.held[key] = HeldEvent(version: version, record: record)
      return true
    }
  }

  /// Holds, inside `tx` (the transaction that finishes `key`'s mutation, whose answer stored
  /// `stored`), the live event held in memory for `key` when it is newer than `stored`
  /// (`Outbox.park`: the replay that follows applies it, or keeps it for a later pending entry).
  /// Returns the `_version` of the event it looked at (`nil`: none), which ``endSending(_:_:consumed:_:)``
  /// compares.
  func parkHeldEvent(_ key: ParkedKey, stored: SyncMetadata, _ tx: WriteTransaction) throws -> Int? {
    guard let held = sending.withLock({ $0.held[key] }) else { return nil }
    if held.version > stored.version {
      try Outbox.park(key.modelName, key.identifier, version: held.version, held.record, tx.connection)
    }
    return held.version
  }

  /// Ends the sending of `key`'s mutation: a live event held for it that the finishing
  /// transaction did not see (`consumed`: the `_version` it looked at, `nil` when it found none
  /// or did not commit) is applied as a live event is (``applyLiveRecord(_:_:decoded:_:)``).
  func endSending<M: Model>(_ type: M.Type, _ key: ParkedKey, consumed: Int?, _ store: DataStore) async {
    let held = sending.withLock { sending -> HeldEvent? in
      sending.keys.remove(key)
      return sending.held.removeValue(forKey: key)
    }
    guard let held, held.version > consumed ?? Int.min else { return }
    await applyLiveRecord(M.self, held.record, decoded: nil, store)
  }

  /// The outbox reads the row changes SQLite's hooks collect: a store's local writes make them
  /// collect (`ChangeCollector.feedsOutbox`); its remote writes copy rows only for observers.
  init(configuration: SyncConfiguration) {
    self.configuration = configuration
  }

  // MARK: Events

  func events() -> AsyncStream<SyncEvent> {
    let (stream, continuation) = AsyncStream<SyncEvent>.makeStream()
    let id = UUID()
    state.withLock { $0.listeners[id] = continuation }
    continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
    return stream
  }

  /// Sends `event` to every listener — but for an error event (``SyncEvent/inboundError(_:)``,
  /// ``SyncEvent/error(_:)``) whose error is the cancellation ``stop(store:)`` causes
  /// (``isStopCancellation(_:)``): stopping is no failure.
  func emit(_ event: SyncEvent) {
    switch event {
    case .inboundError(let error) where Self.isStopCancellation(error.underlying): return
    case .error(let error) where Self.isStopCancellation(error.underlying): return
    default: break
    }
    for listener in state.withLock({ Array($0.listeners.values) }) { listener.yield(event) }
  }

  /// Whether `error`, caught on the current task, is that task's cancellation (``stop(store:)``
  /// cancels the engine's tasks): a `CancellationError` (a store job skipped or interrupted) or
  /// ``LazyModelAPI/APIError/cancelled(operationName:)`` (a request cancelled), possibly wrapped in
  /// a ``SyncInboundError`` or ``SyncError``, thrown while the current task is cancelled. Any
  /// other error, or a cancellation error on a task nobody cancelled, is a real failure.
  static func isStopCancellation(_ error: any Error) -> Bool {
    guard Task.isCancelled else { return false }
    switch error {
    case is CancellationError: return true
    case APIError.cancelled: return true
    case let wrapped as SyncInboundError: return isStopCancellation(wrapped.underlying)
    case let wrapped as SyncError: return isStopCancellation(wrapped.underlying)
    default: return false
    }
  }

  /// After a local transaction committed what it enqueued.
  func didEnqueue(_ events: [SyncEvent]) {
    for event in events { emit(event) }
    state.withLock { $0.wake }?.yield(())
  }

  // MARK: Lifecycle

  var isRunning: Bool { state.withLock { $0.task != nil } }

  func start(store: DataStore) async throws {
    guard !isRunning else { return }
    try validateSyncExpressions(store)
    try await store.write { tx in
      tx.appliesRemote = true
      try Outbox.resetInFlight(tx.connection)
      try self.replayOrphanedParked(tx)
    }
    let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let started = state.withLock { state -> Bool in
      guard state.task == nil else { return false }
      state.wake = wake
      state.task = Task { [self] in
        for await _ in wakes {
          if Task.isCancelled { break }
          await drain(store)
        }
      }
      return true
    }
    if started { wake.yield(()) } else { wake.finish() }
    startInbound(store: store)
  }

  /// Throws ``SyncExpressionError`` for the first expression the store cannot sync by.
  private func validateSyncExpressions(_ store: DataStore) throws {
    for expression in configuration.syncExpressions {
      let predicate = expression.predicate
      func refuse(_ part: AnyQueryPredicate, _ reason: String) -> SyncExpressionError {
        SyncExpressionError(modelName: expression.modelName, predicate: predicate, unsupported: part, reason: reason)
      }
      guard let mapping = store.mapping(table: expression.modelName), mapping.schema.syncPluralName != nil else {
        throw refuse(predicate, "names no synced model of the store's registry")
      }
      do {
        _ = try GraphQLFilter.from(predicate, schema: mapping.schema)
      } catch {
        throw refuse(predicate, "cannot be the sync query's filter: \(error)")
      }
      if let (part, reason) = Self.unsupportedBySubscriptions(predicate) {
        throw refuse(
          part,
          "cannot be a subscription filter (\(ModelDocument.subscriptionFilterInputType(mapping.schema))): \(reason)")
      }
    }
  }

  /// The first part of `predicate` that AppSync's subscription filter input cannot express, and why.
  static func unsupportedBySubscriptions(_ predicate: AnyQueryPredicate) -> (
    AnyQueryPredicate, String
  )? {
    switch predicate {
    case .all: return nil
    case .and(let parts): return parts.lazy.compactMap { unsupportedBySubscriptions($0) }.first
    case .or(let parts):
      guard !parts.isEmpty else {
        return (
          predicate, "an empty `or` never holds, and a filter can only say so with `attributeExists`, which it lacks"
        )
      }
      return parts.lazy.compactMap { unsupportedBySubscriptions($0) }.first
    case .not: return (predicate, "it has no `not`")
    case .field(_, .eq(nil)), .field(_, .ne(nil)):
      return (predicate, "a null comparison becomes `attributeExists`, which it lacks")
    case .field: return nil
    }
  }

  func stop(store: DataStore) async {
    let (task, wake) = state.withLock { state in
      defer {
        state.task = nil
        state.wake = nil
      }
      return (state.task, state.wake)
    }
    task?.cancel()
    wake?.finish()
    await stopInbound(store: store)
    await task?.value
    _ = try? await store.write { tx in
      tx.appliesRemote = true
      try Outbox.resetInFlight(tx.connection)
    }
  }

  // MARK: Draining

  /// An outbox head ready to send, prepared in the transaction that took it.
  private struct Prepared: Sendable {
    var components: [IdentifierComponent]
    /// The local row (`nil` for a delete, or when the row is gone).
    var local: (any Model)?
    /// The mutation; `nil` when there is nothing to send (a create or update whose row is gone).
    var request: GraphQLRequest<GraphQLValue>?
    /// What `request` sends (recorded in the entry's row).
    var sent: SentMutation?
  }

  /// An outbox head taken and marked in flight: the entry, what an earlier attempt sent for it
  /// without its answer arriving, and its prepared mutation (`nil`: an unknown model).
  private typealias Taken = (PendingMutation, SentMutation?, Result<Prepared, any Error>?)

  /// Takes the head inside `tx`, reads its row and metadata, and records what is sent; `nil` when
  /// the outbox is empty.
  private static func take(_ tx: WriteTransaction) throws -> Taken? {
    try prepared(Outbox.takeHead(tx.connection), tx)
  }

  /// Takes the entry after `entry` inside `tx` (``Outbox/takeNext(after:_:)``): `nil` when there
  /// is none or it is of `entry`'s identifier.
  private static func take(after entry: PendingMutation, _ tx: WriteTransaction) throws -> Taken? {
    try prepared(Outbox.takeNext(after: entry, tx.connection), tx)
  }

  private static func prepared(_ taken: (PendingMutation, SentMutation?)?, _ tx: WriteTransaction) -> Taken? {
    guard let (head, previous) = taken else { return nil }
    guard let mapping = tx.store.mapping(table: head.modelName) else { return (head, previous, nil) }
    func open<M: Model>(_ type: M.Type) -> Result<Prepared, any Error> {
      Result { try Self.prepare(M.self, head, tx) }
    }
    return (head, previous, open(mapping.type))
  }

  /// The next head, when the transaction that finished the previous mutation already took it.
  private enum NextHead {
    case unknown
    case taken(Taken?)
  }

  /// The entry after the one being sent, taken early so that its request goes out as soon as the
  /// answer before it arrives: the accepted mutation's finishing write then runs beside that
  /// request instead of before it (the drain's wall time per mutation is about one round trip, not
  /// a round trip plus a store job). Order is kept: a request is sent only after the answer to the
  /// one before it, never two of one identifier at once (``Outbox/takeNext(after:_:)``), and a
  /// finishing write is awaited (its event emitted) before anything else of the drain runs.
  private enum Following: Sendable {
    /// Nothing taken after the entry being sent.
    case none
    /// Taken (and prepared) by the transaction that took the entry being sent.
    case taken(Taken)
    /// The finishing write of the mutation before, running; its value is the entry it took after
    /// the one being sent.
    case finishing(Task<Taken?, Never>)

    /// Waits for a finishing write; the entry taken after the one being sent, if any.
    mutating func settle() async -> Taken? {
      defer { self = .none }
      switch self {
      case .none: return nil
      case .taken(let taken): return taken
      case .finishing(let task): return await task.value
      }
    }
  }

  /// Waits for `following`'s finishing write and puts back the entry it took: what is sent next
  /// is decided again from the outbox (the entry before it was not accepted, or the drain ends).
  private func release(_ following: inout Following, store: DataStore) async {
    guard let (entry, previous, _) = await following.settle() else { return }
    _ = try? await store.writeRemote { tx in try Outbox.release(entry, previous: previous, tx.connection) }
  }

  private func drain(_ store: DataStore) async {
    var following = Following.none
    await drain(store, &following)
    await release(&following, store: store)
  }

  private func drain(_ store: DataStore, _ following: inout Following) async {
    var wasEmpty = false
    var next = NextHead.unknown
    while !Task.isCancelled {
      let taken: Taken?
      switch next {
      case .taken(let head): taken = head
      case .unknown:
        await release(&following, store: store)
        do {
          taken = try await store.write { tx -> (Taken, Taken?)? in
            tx.appliesRemote = true
            guard let head = try Self.take(tx) else { return nil }
            return (head, try? Self.take(after: head.0, tx))
          }.map { head, after in
            if let after { following = .taken(after) }
            return head
          }
        } catch {
          return
        }
      }
      next = .unknown
      guard let (head, previous, prepared) = taken else {
        await release(&following, store: store)
        if !wasEmpty { emit(.outboxStatus(isEmpty: true)) }
        return
      }
      wasEmpty = false
      guard let prepared, let mapping = store.mapping(table: head.modelName) else {
        await release(&following, store: store)
        await fail(head, DataStoreError.unknownModel(head.modelName), store: store)
        continue
      }
      switch prepared {
      case .failure(let error):
        await release(&following, store: store)
        await fail(head, error, store: store)
      case .success(let prepared):
        if previous != nil || prepared.request == nil { await release(&following, store: store) }
        await send(mapping.type, head, prepared, unanswered: previous, store, next: &next, following: &following)
      }
    }
  }

  /// Reads the row and metadata of `entry` inside `tx`, builds its mutation and records it in the
  /// entry's row as what is sent.
  private static func prepare<M: Model>(_ type: M.Type, _ entry: PendingMutation, _ tx: WriteTransaction) throws
    -> Prepared
  {
    let components = try ModelIdentifier(M.self, canonicalString: entry.identifier).components
    let local = try tx.store.loadOne(M.self, identifiers: components, tx.connection)
    let metadata = try Outbox.metadata(entry.modelName, entry.identifier, tx.connection)
    var input: [String: GraphQLValue]
    let kind: ModelMutationKind
    switch entry.kind {
    case .create, .update:
      // The row is gone without a pending delete (deleted by a remote change): nothing to send.
      guard let local else { return Prepared(components: components, local: nil, request: nil, sent: nil) }
      kind = entry.kind == .create ? .create : .update
      // A protected field the store never held (a redacted event's) is left out, not sent as `null`.
      input = try RedactedFields.withoutUnheld(
        try ModelMutations.input(kind, of: local), entry.modelName, entry.identifier, tx.connection)
    case .delete:
      kind = .delete
      input = [:]
      for component in components { input[component.name] = GraphQLValue(component.value) }
    }
    var version: Int?
    if entry.kind != .create, let metadata {
      input["_version"] = .int(metadata.version)
      version = metadata.version
    }
    let sent = SentMutation(input: input, version: version)
    try Outbox.setSent(entry.sequence, sent, tx.connection)
    let request =
      try tx.store.sync?.mutationRequest(kind, M.schema, input: input) ?? mutation(kind, M.schema, input: input)
    return Prepared(components: components, local: local, request: request, sent: sent)
  }

  private enum Outcome {
    case done
    /// Try again after a delay; `unanswered`: the request may have reached the service (a
    /// transport failure, a timeout, HTTP 5xx, an undecodable answer), so its record is read before
    /// the next send. `reporting`: a failure the error handler hears of (once per streak of
    /// retries of the entry, ``SyncError/isRetried`` `true`): one the retry may not cure by itself
    /// (an endpoint-wide refusal, an unreadable answer, a revert whose read failed).
    case retry(unanswered: Bool, reporting: (any Error)? = nil)
    /// Send again now (the metadata or the row changed: prepare the mutation again).
    case resend
  }

  /// Sends `entry` until it is done (accepted, resolved or failed for good) or the task is
  /// cancelled. `unanswered` is what an earlier attempt sent without its answer arriving (a
  /// stopped or killed process): before anything is sent again, the server's record says whether
  /// that attempt was applied (Amplify's outgoing mutation queue has no such step: a duplicate
  /// send there fails its condition, which is the fault this avoids).
  private func send<M: Model>(
    _ type: M.Type, _ initial: PendingMutation, _ first: Prepared, unanswered: SentMutation?, _ store: DataStore,
    next: inout NextHead, following: inout Following
  ) async {
    var entry = initial
    var prepared = first
    var unanswered = unanswered
    var attempt = 0
    var reported = false
    while !Task.isCancelled {
      var outcome: Outcome?
      if let sent = unanswered {
        outcome = await reconcileUnanswered(M.self, &entry, sent, prepared, store)
      }
      if outcome == nil {
        outcome = await attemptSend(M.self, entry, prepared, store, next: &next, following: &following)
      }
      switch outcome ?? .done {
      case .done: return
      case .resend:
        attempt = 0
        reported = false
        unanswered = nil
        let current = entry
        do {
          prepared = try await store.write { tx in
            tx.appliesRemote = true
            return try Self.prepare(M.self, current, tx)
          }
        } catch {
          if Task.isCancelled { return }
          return await fail(entry, error, store: store)
        }
      case .retry(let maybeApplied, let failure):
        if maybeApplied { unanswered = prepared.sent }
        if let failure, !reported {
          reported = true
          await report(entry, failure, retried: true)
        }
        let delay = configuration.retry.delay(attempt: attempt)
        emit(.retrying(modelName: entry.modelName, identifier: entry.identifier, attempt: attempt, delay: delay))
        attempt += 1
        try? await Task.sleep(for: delay)
      }
    }
  }

  /// Reads the server's record of `entry`, whose mutation `sent` was sent without its answer
  /// arriving. When `sent` was applied (``wasApplied(_:_:server:)``), the record is the answer:
  /// the entry is done as if it had arrived — unless the row changed since `sent` and the change
  /// was merged into this entry (a save after a restart), when the server's version is stored and
  /// the entry is sent again as an update (a change in a later entry is sent by that entry).
  /// `nil`: not applied, send it.
  private func reconcileUnanswered<M: Model>(
    _ type: M.Type, _ entry: inout PendingMutation, _ sent: SentMutation, _ prepared: Prepared, _ store: DataStore
  ) async -> Outcome? {
    let record: GraphQLValue
    let refused: Set<String>
    do {
      // Read as the revert reads (``record(_:_:)``): a protected field the caller may not read
      // comes back `null` with an `Unauthorized` error, and the rest of the record still answers.
      (record, refused) = try await self.record(try Self.getQuery(M.schema, prepared.components), M.schema)
    } catch let error as APIError {
      if Task.isCancelled || Self.isNetworkFailure(error) { return .retry(unanswered: true) }
      return nil  // the record cannot be read (authorization, a disabled get): the condition decides
    } catch {
      return nil
    }
    guard Self.wasApplied(entry.kind, sent, server: record, refused: refused) else { return nil }
    let metadata = Self.syncFields(record)
    let current = entry
    if prepared.request != nil, prepared.sent != sent, current.kind != .delete {
      // The row changed since `sent`. A later entry of the identifier sends that change itself
      // (this one is done below); a change merged into this entry makes it go out again.
      let resend: Bool
      do {
        resend = try await store.write { tx in
          tx.appliesRemote = true
          guard
            try Outbox.latestEntry(current.modelName, current.identifier, tx.connection)?.sequence
              == current.sequence
          else { return false }
          try Outbox.setMetadata(current.modelName, current.identifier, metadata, tx.connection)
          try Outbox.setKind(current.sequence, .update, tx.connection)
          return true
        }
      } catch {
        await fail(current, error, store: store)
        return .done
      }
      if resend {
        entry.kind = .update
        return .resend
      }
    }
    do {
      try await finish(current, store: store) { tx in
        guard current.kind != .delete,
          try Outbox.latestEntry(current.modelName, current.identifier, tx.connection) == nil
        else {
          return try Outbox.setMetadata(current.modelName, current.identifier, metadata, tx.connection)
        }
        // A refused field keeps the row's value: the mutation that set it was applied.
        try Self.storeServerRecord(M.self, record, identifier: current.identifier, redacted: refused, tx)
      }
    } catch {
      await fail(current, error, store: store)
      return .done
    }
    emit(
      .outboxMutationProcessed(
        modelName: current.modelName, identifier: current.identifier, kind: current.kind, version: metadata.version))
    return .done
  }

  /// Whether the server's `record` (`null` when it has none) shows that `sent`, a `kind` mutation
  /// whose answer never arrived, was applied: a create when the record is live and holds every
  /// value of the input; an update when, besides, its `_version` is past the one sent; a delete
  /// when the record is a tombstone past the version sent. Numbers compare by value (`5` = `5.0`).
  /// A field in `refused` (the read was refused it, ``refusedFields(_:of:_:)``) shows nothing and
  /// is not compared.
  static func wasApplied(
    _ kind: SyncMutationKind, _ sent: SentMutation, server record: GraphQLValue, refused: Set<String> = []
  ) -> Bool {
    guard case .object(let members) = record else { return false }
    let metadata = syncFields(record)
    let advanced = metadata.version > (sent.version ?? 0)
    switch kind {
    case .delete:
      return metadata.deleted && advanced
    case .create, .update:
      guard !metadata.deleted, kind == .create || advanced else { return false }
      return sent.input.allSatisfy { name, value in
        name == "_version" || refused.contains(name) || sameValue(value, members[name] ?? .null)
      }
    }
  }

  private static func sameValue(_ a: GraphQLValue, _ b: GraphQLValue) -> Bool {
    switch (a, b) {
    case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
    case (.list(let x), .list(let y)): return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
    case (.object(let x), .object(let y)):
      return Set(x.keys) == Set(y.keys) && x.allSatisfy { key, value in sameValue(value, y[key] ?? .null) }
    default: return a == b
    }
  }

  /// One send of `entry`. An accepted mutation is finished in the transaction that also takes the
  /// entry after the next one, so the drain spends one store job per mutation; when the next entry
  /// was taken already (`following`), its request goes out at once and this finishing write runs
  /// beside it (``Following``). Otherwise the finishing write takes the next head (`next`) first.
  private func attemptSend<M: Model>(
    _ type: M.Type, _ entry: PendingMutation, _ prepared: Prepared, _ store: DataStore, next: inout NextHead,
    following: inout Following
  ) async -> Outcome {
    let local = prepared.local as? M
    guard let request = prepared.request else {
      do {
        try await finish(entry, store: store) { _ in }
      } catch {
        await fail(entry, error, store: store)
      }
      return .done
    }
    let key = ParkedKey(modelName: entry.modelName, identifier: entry.identifier)
    sending.withLock { _ = $0.keys.insert(key) }
    do {
      let answer: GraphQLValue
      do {
        // A protected field the caller may not read comes back `null` with an `Unauthorized`
        // error (field-level `@auth`); the mutation was applied, and the field is redacted.
        answer = try await record(request, M.schema).record
      } catch {
        // A live event held meanwhile goes to the writer (parked there for the pending entry).
        await endSending(M.self, key, consumed: nil, store)
        await release(&following, store: store)  // not accepted: nothing after it goes out yet
        throw error
      }
      let record = Self.syncFields(answer)
      // Returns the `_version` of the held live event it looked at (``parkHeldEvent(_:stored:_:)``).
      let finishing: @Sendable (WriteTransaction) throws -> Int? = { tx in
        try Outbox.remove(entry.sequence, tx.connection)
        try Outbox.setMetadata(entry.modelName, entry.identifier, record, tx.connection)
        let pending = try Outbox.latestEntry(entry.modelName, entry.identifier, tx.connection) != nil
        if entry.kind != .delete, !pending {
          // The server's values (Automerge may have merged), but a protected field the answer
          // redacted to `null` keeps the row's value (``RedactedFields``).
          let patched = Self.withReferenceKeys(answer, M.schema)
          let held =
            try RedactedFields.merge(
              M.self, patched, identifier: entry.identifier, redacted: M.schema.fieldsRedactedInMutationResponses, tx)
            ?? patched
          if let remote = try? Self.decode(M.self, held) { try tx.saveWithoutReadBack([remote]) }
        }
        let consumed = try self.parkHeldEvent(key, stored: record, tx)
        // What this transaction just read and wrote (a remote save enqueues nothing).
        try self.replayParked(entry, tx, known: (pending: pending, stored: record))
        return consumed
      }
      let processed = SyncEvent.outboxMutationProcessed(
        modelName: entry.modelName, identifier: entry.identifier, kind: entry.kind, version: record.version)
      if let upcoming = await following.settle() {
        // The next entry is prepared: it is sent now, and this answer is stored beside its request.
        next = .taken(upcoming)
        following = .finishing(
          Task { [self] in
            do {
              let (consumed, after) = try await store.writeRemote { tx -> (Int?, Taken?) in
                (try finishing(tx), try? Self.take(after: upcoming.0, tx))
              }
              await endSending(M.self, key, consumed: consumed, store)
              emit(processed)
              return after
            } catch {
              await endSending(M.self, key, consumed: nil, store)
              await fail(entry, error, store: store)
              return nil
            }
          })
        return .done
      }
      let consumed: Int?
      let taken: (Taken?, Taken?)?
      do {
        (consumed, taken) = try await store.writeRemote { tx -> (Int?, (Taken?, Taken?)?) in
          let consumed = try finishing(tx)
          // A failure to take the next head (`nil`) leaves it to the drain's own transaction;
          // `(nil, nil)`: the outbox is empty.
          let head: Taken?
          do { head = try Self.take(tx) } catch { return (consumed, nil) }
          return (consumed, (head, head.flatMap { try? Self.take(after: $0.0, tx) }))
        }
      } catch {
        await endSending(M.self, key, consumed: nil, store)
        throw error
      }
      await endSending(M.self, key, consumed: consumed, store)
      if let (head, after) = taken {
        next = .taken(head)
        if let after { following = .taken(after) }
      }
      emit(processed)
      return .done
    } catch let error as APIError {
      // `stop()` cancelled the send: the mutation stays pending, and its record is read first on
      // the next start (it may have been applied).
      if Task.isCancelled { return .retry(unanswered: true) }
      switch Self.classify(error, responseField: request.responseField) {
      case .retry(let unanswered, let reported):
        return .retry(unanswered: unanswered, reporting: reported ? error : nil)
      case .conflict(let body):
        return await conflict(M.self, entry, local: local, body: body, store: store)
      case .refused:
        return await fail(entry, error, store: store, revert: (M.self, prepared.components))
      case .appliedAnswerUnreadable:
        // The server ran the mutation (the errors lie below its field): the entry is done, the
        // local row stays as saved, and the error handler hears that the answer was unreadable.
        await fail(entry, error, store: store)
        return .done
      }
    } catch {
      await fail(entry, error, store: store)
      return .done
    }
  }

  /// What a failed send of a mutation whose answer is `responseField` means for its outbox entry.
  enum SendFailure: Equatable {
    /// The server may not have answered this mutation (or may have applied it): the entry stays
    /// at the head and is sent again after ``SyncConfiguration/retry``'s delay. `unanswered`: it
    /// may have been applied, so its record is read first; `reported`: the error handler hears of
    /// it (a failure a delay alone may not cure).
    case retry(unanswered: Bool, reported: Bool)
    /// `ConflictUnhandled` with the server's item (the body): the conflict handler decides.
    case conflict(body: Data)
    /// The server refused this mutation itself: error handler, revert, entry removed.
    case refused
    /// The server applied the mutation but part of its answer could not be read (every error at
    /// the mutation's field lies below it, e.g. `["createPost", "title"]`: a field of the returned
    /// record failed to resolve, GraphQL spec §6.4.4): error handler, entry removed, the local row
    /// kept as saved (no revert: a read of the record would fail the same way and block the outbox).
    case appliedAnswerUnreadable
  }

  /// The error types a response names for a request it refused as a whole without executing it
  /// (GraphQL spec §6.1 "Validation"; AppSync's `ValidationError`, `MalformedHttpRequestException`,
  /// `BadRequestException`).
  static let requestRefusals: Set<String> = ["ValidationError", "MalformedHttpRequestException", "BadRequestException"]

  /// Sorts a failed mutation send (`error`; the mutation's field is `responseField`).
  ///
  /// An entry leaves the outbox only on a definitive answer to that mutation: a GraphQL error at
  /// the mutation's path (`[createPost, …]`: a conditional check, `Unauthorized`, a Lambda's
  /// refusal) or one that refuses the request itself (a validation error: type
  /// ``requestRefusals``, or one with document `locations`), an `Unauthorized` refusal in an HTTP
  /// 200 answer (``LazyModelAPI/AuthorizationError/Reason/rejected(statusCode:errors:)`` with 200),
  /// HTTP 400, or a request the client could not build. Transport failures, timeouts, HTTP 5xx and 429 are retried unreported (429 was not
  /// applied); HTTP 401/403 (an expired key or token), any other 4xx, a redirect, a failed
  /// authorization hook, an undecodable or oversized answer, and a GraphQL error that names neither
  /// the mutation nor the request (a pathless server error) are retried and reported: whether the
  /// server applied the mutation is unknown, or the fault is the endpoint's, not the record's.
  /// (Amplify's outgoing mutation queue drops the mutation on any error it cannot retry; this keeps
  /// it unless the answer is the server's word on it.)
  static func classify(_ error: APIError, responseField: String) -> SendFailure {
    switch error {
    case .transport, .timedOut, .cancelled: return .retry(unanswered: true, reported: false)
    case .httpStatus(_, let status, _, _) where status >= 500: return .retry(unanswered: true, reported: false)
    case .httpStatus(_, 429, _, _): return .retry(unanswered: false, reported: false)
    case .httpStatus(_, 400, _, _), .invalidRequest: return .refused
    case .authorization(_, let underlying):
      // An HTTP 200 whose errors refuse the operation (`Unauthorized`: a rule of the model or a
      // field denies this record): the server evaluated this mutation and refused it. A 401/403
      // or a failed token provider is the endpoint's or the credentials' fault.
      if let refusal = underlying as? AuthorizationError, case .rejected(200, _) = refusal.reason { return .refused }
      return .retry(unanswered: false, reported: true)
    case .httpStatus: return .retry(unanswered: false, reported: true)
    case .redirected, .undecodableResponse, .responseTooLarge, .unexpectedTypename:
      return .retry(unanswered: true, reported: true)
    case .graphQL(_, let errors, _, let body):
      if errors.contains(where: { $0.errorType == "ConflictUnhandled" }) { return .conflict(body: body) }
      if errors.contains(where: { $0.errorType.map(requestRefusals.contains) ?? false }) { return .refused }
      let atField = errors.filter { error in
        if case .string(responseField)? = error.path?.first { return true }
        return false
      }
      if !atField.isEmpty {
        return atField.allSatisfy { ($0.path?.count ?? 0) > 1 } ? .appliedAnswerUnreadable : .refused
      }
      let invalid = errors.contains { $0.path == nil && !($0.locations ?? []).isEmpty }
      return invalid ? .refused : .retry(unanswered: true, reported: true)
    }
  }

  /// Finishes `entry` with the server's item `remote` (its sync fields `record`) as the local row —
  /// or, while a newer local change of the identifier is pending, only its metadata, so that
  /// change is sent against the server's `_version`.
  private func applyRemote<M: Model>(
    _ type: M.Type, _ entry: PendingMutation, remote: [String: GraphQLValue], record: SyncMetadata,
    store: DataStore
  ) async throws {
    try await finish(entry, store: store) { tx in
      guard try Outbox.latestEntry(entry.modelName, entry.identifier, tx.connection) == nil else {
        return try Outbox.setMetadata(entry.modelName, entry.identifier, record, tx.connection)
      }
      try Self.storeServerRecord(M.self, .object(remote), identifier: entry.identifier, tx)
    }
  }

  private func conflict<M: Model>(
    _ type: M.Type, _ entry: PendingMutation, local: M?, body: Data, store: DataStore
  ) async -> Outcome {
    let remote = Self.conflictData(body)
    let record = Self.syncFields(.object(remote))
    let conflict = SyncConflict(
      modelName: entry.modelName, identifier: entry.identifier, kind: entry.kind, local: local,
      remote: remote, remoteVersion: record.version)
    let resolution = await configuration.conflictHandler(conflict)
    emit(.conflict(conflict))
    do {
      switch resolution {
      case .applyRemote:
        try await applyRemote(M.self, entry, remote: remote, record: record, store: store)
        return .done
      case .retryLocal:
        try await store.write { tx in
          tx.appliesRemote = true
          try Outbox.setMetadata(entry.modelName, entry.identifier, record, tx.connection)
        }
        return .resend
      case .retry(let model):
        guard let model = model as? M else {
          await fail(
            entry,
            DataStoreError.encodingFailed(
              model: M.modelName, field: "", reason: "the conflict handler's model is not a \(M.modelName)"),
            store: store)
          return .done
        }
        let retried = model.identifier.canonicalString
        guard retried == entry.identifier else {
          // Saving it would store a row of another identifier, outside this entry (its create
          // never sent); the conflict's identifier keeps the server's record, as `.applyRemote`.
          try await applyRemote(M.self, entry, remote: remote, record: record, store: store)
          await report(
            entry,
            SyncConflictRetryMismatch(modelName: entry.modelName, identifier: entry.identifier, retried: retried))
          return .done
        }
        try await store.write { tx in
          tx.appliesRemote = true
          try Outbox.setMetadata(entry.modelName, entry.identifier, record, tx.connection)
          try tx.save(model)
        }
        return .resend
      }
    } catch {
      await fail(entry, error, store: store)
      return .done
    }
  }

  /// Removes `entry` from the outbox with `body`'s changes, in one remote write
  /// (``DataStore/writeRemote(_:)``: it enqueues nothing and keeps the server's timestamps).
  private func finish(
    _ entry: PendingMutation, store: DataStore, _ body: @escaping @Sendable (WriteTransaction) throws -> Void
  ) async throws {
    try await store.writeRemote { tx in
      try Outbox.remove(entry.sequence, tx.connection)
      try body(tx)
      try self.replayParked(entry, tx)
    }
  }

  /// A mutation that failed for good: reported, dropped, and (when `revert` names the model) the
  /// local row reverted to the server's record with its `_version`, `_lastChangedAt` and `_deleted`
  /// (``storeServerRecord(_:_:identifier:_:)``): a tombstone, or no record at all, reverts to a local
  /// delete that cascades as a remote delete does. A record read with some protected fields
  /// refused (field-level `@auth`: `null` with an `Unauthorized` error, ``refusedFields(_:of:_:)``)
  /// is reverted with those fields `null` and unheld (``RedactedFields``: the row's value there
  /// may be the refused change, and an update leaves them out). Nothing is reverted while a newer
  /// local change of the identifier is pending, or when the model has no `get` query (the entry is
  /// removed then). When the read of the server's record fails (the network, an expired key, an
  /// unreadable answer), the entry stays at the head and is sent again — its revert with it —
  /// after the retry delay (`.retry`, reported once with ``SyncError/isRetried`` `true`), so the
  /// local row never stays apart from the server's record with nothing pending.
  private func fail<M: Model>(
    _ entry: PendingMutation, _ error: any Error, store: DataStore, revert: (M.Type, [IdentifierComponent])
  ) async -> Outcome {
    guard !Self.isStopCancellation(error) else { return .done }
    var found: (record: GraphQLValue, refused: Set<String>)?
    if let request = try? Self.getQuery(M.schema, revert.1) {
      do {
        found = try await record(request, M.schema)
      } catch {
        if Task.isCancelled { return .retry(unanswered: false) }
        return .retry(unanswered: false, reporting: error)
      }
    }
    let server = found
    _ = try? await finish(entry, store: store) { tx in
      guard let server, try Outbox.latestEntry(entry.modelName, entry.identifier, tx.connection) == nil else { return }
      if server.record == .null {
        let mapping = try tx.store.mapping(for: M.self)
        try tx.store.deleteCascading(mapping, Self.keyCondition(revert.1), tx.connection)
      } else {
        try Self.storeServerRecord(
          M.self, server.record, identifier: entry.identifier, redacted: server.refused, keepsRow: false, tx)
      }
    }
    await report(entry, error)
    return .done
  }

  /// The record `request` (a `get` or a mutation of one record of `schema`) answers, and the
  /// fields of it that came back refused (``refusedFields(_:of:_:)``: `null` with an
  /// `Unauthorized` error, which this accepts).
  ///
  /// - Throws: What ``LazyModelAPI/APIClient/send(_:)`` throws, but for those errors.
  func record(_ request: GraphQLRequest<GraphQLValue>, _ schema: ModelSchema) async throws
    -> (record: GraphQLValue, refused: Set<String>)
  {
    let response = try await configuration.client.response(for: request)
    let refused = try Self.refusedFields(response, of: request, schema)
    return (try APIClient.data(of: response, for: request), refused[[.string(request.responseField)]] ?? [])
  }

  /// Stores the server's `record` of `M` (a get, a mutation's answer or a conflict's item, with its
  /// sync fields) as the local state of `identifier` inside `tx` (a ``DataStore/writeRemote(_:)``):
  /// its metadata, and the row itself — or, for a tombstone (`_deleted: true`), the row's delete with
  /// its `ON DELETE CASCADE` children (``DataStore/deleteCascading(_:_:_:depth:)``), as a remote delete.
  /// `redacted`: the fields the query refused (``RedactedFields``); the others are real values.
  /// `keepsRow` `false`: the refused fields become `null` rather than keep the row's values.
  ///
  /// - Throws: A decoding error when `record` is not an `M`; what the store's writes throw.
  static func storeServerRecord<M: Model>(
    _ type: M.Type, _ record: GraphQLValue, identifier: String, redacted: Set<String> = [], keepsRow: Bool = true,
    _ tx: WriteTransaction
  ) throws {
    let metadata = syncFields(record)
    try Outbox.setMetadata(M.modelName, identifier, metadata, tx.connection)
    // A query's record holds real values, but for the fields it refused.
    let record =
      try RedactedFields.merge(
        M.self, record, identifier: identifier, redacted: metadata.deleted ? [] : redacted, keepsRow: keepsRow, tx)
      ?? record
    if metadata.deleted {
      let components = try ModelIdentifier(M.self, canonicalString: identifier).components
      try tx.store.deleteCascading(try tx.store.mapping(for: M.self), keyCondition(components), tx.connection)
    } else {
      try tx.saveWithoutReadBack([try decode(M.self, withReferenceKeys(record, M.schema))])
    }
  }

  /// `"id" = ?` (one term per key component, joined by `AND`) with the components' values bound.
  static func keyCondition(_ components: [IdentifierComponent]) -> SQLFragment {
    SQLFragment(
      sql: components.map { "\(quote($0.name)) = ?" }.joined(separator: " AND "),
      bindings: components.map { SQLValue($0.value) })
  }

  /// A mutation that failed for good: dropped and reported. A failure that is `stop()`'s
  /// cancellation (``isStopCancellation(_:)``) is none: the entry stays, pending again.
  private func fail(_ entry: PendingMutation, _ error: any Error, store: DataStore) async {
    guard !Self.isStopCancellation(error) else { return }
    _ = try? await finish(entry, store: store) { _ in }
    await report(entry, error)
  }

  /// Reports `error` of `entry` (an ``SyncEvent/error(_:)`` event, then the error handler);
  /// `retried`: the entry stays in the outbox and is sent again (``SyncError/isRetried``).
  private func report(_ entry: PendingMutation, _ error: any Error, retried: Bool = false) async {
    guard !Self.isStopCancellation(error) else { return }
    let failure = SyncError(
      modelName: entry.modelName, identifier: entry.identifier, kind: entry.kind, underlying: error,
      isRetried: retried)
    emit(.error(failure))
    await configuration.errorHandler(failure)
  }

  // MARK: Documents and answers

  /// `query GetPost($id: ID!) { getPost(id: $id) { … _version _deleted _lastChangedAt postID } }`:
  /// the server's record of `components` with its sync fields (a versioned data source answers a
  /// tombstone too), or `null`.
  ///
  /// - Throws: `APIError.invalidRequest` when the model's `get` query is disabled;
  ///   ``DataStoreError/invalidArgument(name:value:reason:)`` when `components` lack a key field.
  static func getQuery(_ schema: ModelSchema, _ components: [IdentifierComponent]) throws
    -> GraphQLRequest<GraphQLValue>
  {
    let field = try ModelDocument.getField(schema)
    let name = field.prefix(1).uppercased() + field.dropFirst()
    let values = Dictionary(components.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    let keyFields = schema.primaryKeyFields
    let declarations = keyFields.map { "$\($0.name): \(ModelDocument.keyArgumentType($0, of: schema))!" }
    let arguments = keyFields.map { "\($0.name): $\($0.name)" }
    var variables: [String: GraphQLValue] = [:]
    for keyField in keyFields {
      guard let value = values[keyField.name] else {
        throw DataStoreError.invalidArgument(
          name: "identifier", value: 0, reason: "\(schema.name) has no value for its key field \(keyField.name)")
      }
      variables[keyField.name] = GraphQLValue(value)
    }
    return GraphQLRequest(
      operationType: .query, operationName: name,
      document: "query \(name)(\(declarations.joined(separator: ", "))) {"
        + " \(field)(\(arguments.joined(separator: ", "))) \(inboundSelectionSet(schema)) }",
      variables: variables, responseField: field
    ).authorized(by: schema, operation: .get)
  }

  /// The selection set of `schema` with the sync metadata fields, each reference whose FK fields
  /// are on the model selected by those fields alone
  /// (`ModelDocument.selectionSet(of:includes:referencesByForeignKeys:)`): what sync queries,
  /// subscriptions and the engine's mutations read, so the service resolves no parent per record;
  /// ``withReferenceKeys(_:_:)`` rebuilds the reference.
  static func syncSelectionSet(_ schema: ModelSchema) -> String {
    String(ModelDocument.selectionSet(of: schema, referencesByForeignKeys: true).dropLast())
      + "_version _deleted _lastChangedAt }"
  }

  /// `mutation CreatePost($input: CreatePostInput!) { createPost(input: $input) { … _version _deleted _lastChangedAt } }`,
  /// selecting what sync queries and events select (``inboundSelectionSet(_:)``): each reference
  /// by its FK fields, never `post { id }`. AppSync returns a relationship field as `null` in a
  /// mutation response when the related model's readers differ from this model's (the auth
  /// transformer's relational field redaction, amplify-category-api PR #2536, while
  /// `subscriptionsInheritPrimaryAuth` is off); the FK fields are plain fields it returns, so the
  /// answer's reference is rebuilt from them (``withReferenceKeys(_:_:)``) and never cleared.
  static func mutation(_ kind: ModelMutationKind, _ schema: ModelSchema, input: [String: GraphQLValue]) throws
    -> GraphQLRequest<GraphQLValue>
  {
    let field = try ModelDocument.mutationField(kind, schema)
    let name = field.prefix(1).uppercased() + field.dropFirst()
    let inputType = ModelDocument.mutationInputType(kind, schema)
    return GraphQLRequest(
      operationType: .mutation, operationName: name,
      document: "mutation \(name)($input: \(inputType)!) { \(field)(input: $input) \(inboundSelectionSet(schema)) }",
      variables: ["input": .object(input)], responseField: field
    )
    // The row holds what the store knows; a field it never held is left out already
    // (``RedactedFields``), and a `null` there is the caller's.
    .authorized(by: schema, operation: AuthRule.Operation(rawValue: kind.rawValue) ?? .update).sendingInputAsIs()
  }

  /// The operation name, document and response field of ``mutation(_:_:input:)`` for each model
  /// and kind this engine sent: a document depends only on the schema and the kind (its values
  /// are variables), so it is built once per model of the store's registry (building it, the
  /// selection set above all, was about 30 k instructions of each drained mutation).
  private let mutationDocuments = StoreLock([MutationDocumentKey: (name: String, document: String, field: String)]())

  private struct MutationDocumentKey: Hashable {
    var modelName: String
    var kind: ModelMutationKind
  }

  /// ``mutation(_:_:input:)``, its document built once per model and kind (`mutationDocuments`).
  ///
  /// - Throws: What ``mutation(_:_:input:)`` throws.
  func mutationRequest(_ kind: ModelMutationKind, _ schema: ModelSchema, input: [String: GraphQLValue]) throws
    -> GraphQLRequest<GraphQLValue>
  {
    let key = MutationDocumentKey(modelName: schema.name, kind: kind)
    guard let cached = mutationDocuments.withLock({ $0[key] }) else {
      let request = try Self.mutation(kind, schema, input: input)
      mutationDocuments.withLock { $0[key] = (request.operationName, request.document, request.responseField) }
      return request
    }
    return GraphQLRequest(
      operationType: .mutation, operationName: cached.name, document: cached.document,
      variables: ["input": .object(input)], responseField: cached.field
    )
    .authorized(by: schema, operation: AuthRule.Operation(rawValue: kind.rawValue) ?? .update).sendingInputAsIs()
  }

  /// `_version`, `_lastChangedAt`, `_deleted` of a record.
  static func syncFields(_ record: GraphQLValue) -> SyncMetadata {
    guard case .object(let members) = record else { return SyncMetadata(version: 0, lastChangedAt: 0, deleted: false) }
    func int(_ name: String) -> Int {
      if case .int(let value)? = members[name] { return value }
      if case .double(let value)? = members[name] { return Int(value) }
      return 0
    }
    var deleted = false
    if case .bool(let flag)? = members["_deleted"] { deleted = flag }
    return SyncMetadata(version: int("_version"), lastChangedAt: int("_lastChangedAt"), deleted: deleted)
  }

  /// The server's item a `ConflictUnhandled` error carries in its `data`.
  static func conflictData(_ body: Data) -> [String: GraphQLValue] {
    guard case .object(let response)? = try? JSONDecoder().decode(GraphQLValue.self, from: body),
      case .list(let errors)? = response["errors"]
    else { return [:] }
    for error in errors {
      if case .object(let members) = error, members["errorType"] == .string("ConflictUnhandled"),
        case .object(let data)? = members["data"]
      {
        return data
      }
    }
    return [:]
  }

  /// A model decoded from a record of the API (no decoding context: its references hold keys), as
  /// `JSONDecoder` decodes the record's JSON, without writing it (``GraphQLValueDecoder``).
  static func decode<M: Model>(_ type: M.Type, _ record: GraphQLValue) throws -> M {
    try GraphQLValueDecoder.decode(M.self, from: record)
  }
}
