import Foundation
import LazyModel
import LazyModelAPI

/// The outbound half of sync: drains the outbox in order, one mutation in flight at a time (so
/// also one per identifier), and applies each answer to the sync metadata and the local row.
///
/// States: stopped (no task) → running (``start(store:)`` spawned the drain task, which waits for a
/// wake-up when the outbox is empty) → stopped (``stop()`` cancelled the task and waited for it;
/// what was in flight is marked pending again and resent on the next start, where the `_version`
/// condition rejects a duplicate).
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

  init(configuration: SyncConfiguration) {
    self.configuration = configuration
    // The outbox reads the row changes SQLite's hooks collect: they must collect while sync is on.
    ObservationSwitch.listeners.add(1, ordering: .relaxed)
  }

  deinit { ObservationSwitch.listeners.subtract(1, ordering: .relaxed) }

  // MARK: Events

  func events() -> AsyncStream<SyncEvent> {
    let (stream, continuation) = AsyncStream<SyncEvent>.makeStream()
    let id = UUID()
    state.withLock { $0.listeners[id] = continuation }
    continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
    return stream
  }

  func emit(_ event: SyncEvent) {
    for listener in state.withLock({ Array($0.listeners.values) }) { listener.yield(event) }
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
    try await store.write { tx in
      tx.appliesRemote = true
      try Outbox.resetInFlight(tx.connection)
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

  private func drain(_ store: DataStore) async {
    var wasEmpty = false
    while !Task.isCancelled {
      let head: PendingMutation?
      do {
        head = try await store.write { tx in
          tx.appliesRemote = true
          return try Outbox.takeHead(tx.connection)
        }
      } catch {
        return
      }
      guard let head else {
        if !wasEmpty { emit(.outboxStatus(isEmpty: true)) }
        return
      }
      wasEmpty = false
      guard let mapping = store.mapping(table: head.modelName) else {
        await fail(head, DataStoreError.unknownModel(head.modelName), store: store)
        continue
      }
      await send(mapping.type, head, store)
    }
  }

  private enum Outcome { case done, retry, resend }

  /// Sends `entry` until it is done (accepted, resolved or failed for good) or the task is cancelled.
  private func send<M: Model>(_ type: M.Type, _ entry: PendingMutation, _ store: DataStore) async {
    var attempt = 0
    while !Task.isCancelled {
      switch await attemptSend(M.self, entry, store) {
      case .done: return
      case .resend: attempt = 0
      case .retry:
        let delay = configuration.retry.delay(attempt: attempt)
        emit(.retrying(modelName: entry.modelName, identifier: entry.identifier, attempt: attempt, delay: delay))
        attempt += 1
        try? await Task.sleep(for: delay)
      }
    }
  }

  private func attemptSend<M: Model>(_ type: M.Type, _ entry: PendingMutation, _ store: DataStore) async -> Outcome {
    let schema = M.schema
    let components: [IdentifierComponent]
    let local: M?
    let metadata: SyncMetadata?
    do {
      components = try ModelIdentifier(M.self, canonicalString: entry.identifier).components
      (local, metadata) = try await store.read { tx in
        (
          try tx.store.loadOne(M.self, identifiers: components, tx.connection),
          try Outbox.metadata(entry.modelName, entry.identifier, tx.connection)
        )
      }
    } catch {
      await fail(entry, error, store: store)
      return .done
    }
    let request: GraphQLRequest<GraphQLValue>
    do {
      var input: [String: GraphQLValue]
      let kind: ModelMutationKind
      switch entry.kind {
      case .create, .update:
        guard let local else {
          // The row is gone without a pending delete (deleted by a remote change): nothing to send.
          try await finish(entry, store: store) { _ in }
          return .done
        }
        kind = entry.kind == .create ? .create : .update
        input = try ModelMutations.input(kind, of: local)
      case .delete:
        kind = .delete
        input = [:]
        for component in components { input[component.name] = GraphQLValue(component.value) }
      }
      if entry.kind != .create, let metadata { input["_version"] = .int(metadata.version) }
      request = try Self.mutation(kind, schema, input: input)
    } catch {
      await fail(entry, error, store: store)
      return .done
    }
    do {
      let answer = try await configuration.client.send(request)
      let record = Self.syncFields(answer)
      try await finish(entry, store: store) { tx in
        try Outbox.setMetadata(entry.modelName, entry.identifier, record, tx.connection)
        if entry.kind != .delete, try Outbox.latestEntry(entry.modelName, entry.identifier, tx.connection) == nil,
          let remote = try? Self.decode(M.self, answer)
        {
          try tx.save(remote)  // the server's values (Automerge may have merged)
        }
      }
      emit(
        .outboxMutationProcessed(
          modelName: entry.modelName, identifier: entry.identifier, kind: entry.kind, version: record.version))
      return .done
    } catch let error as APIError {
      // `stop()` cancelled the send: the mutation stays pending (marked so by `stop()`).
      if Task.isCancelled { return .retry }
      switch error {
      case .transport, .timedOut, .cancelled:
        return .retry
      case .httpStatus(_, let status, _, _) where status >= 500 || status == 429:
        return .retry
      case .graphQL(_, let errors, _, let body) where errors.contains(where: { $0.errorType == "ConflictUnhandled" }):
        return await conflict(M.self, entry, local: local, body: body, store: store)
      default:
        await fail(entry, error, store: store, revert: (M.self, components))
        return .done
      }
    } catch {
      await fail(entry, error, store: store)
      return .done
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
        try await finish(entry, store: store) { tx in
          try Outbox.setMetadata(entry.modelName, entry.identifier, record, tx.connection)
          guard try Outbox.latestEntry(entry.modelName, entry.identifier, tx.connection) == nil else { return }
          if record.deleted {
            let identifier = try ModelIdentifier(M.self, canonicalString: entry.identifier)
            try tx.delete(M.self, where: .and(identifier.components.map { .field($0.name, .eq($0.value)) }))
          } else {
            try tx.save(try Self.decode(M.self, .object(remote)))
          }
        }
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
            entry, DataStoreError.encodingFailed(model: M.modelName, field: "", reason: "the conflict handler's model is not a \(M.modelName)"),
            store: store)
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

  /// Removes `entry` from the outbox with `body`'s changes, in one transaction that enqueues nothing.
  private func finish(
    _ entry: PendingMutation, store: DataStore, _ body: @escaping @Sendable (WriteTransaction) throws -> Void
  ) async throws {
    try await store.write { tx in
      tx.appliesRemote = true
      try Outbox.remove(entry.sequence, tx.connection)
      try body(tx)
    }
  }

  /// A mutation that failed for good: reported, dropped, and (when `revert` names the model) the
  /// local row reverted to the server's value (deleted when the server has none).
  private func fail<M: Model>(
    _ entry: PendingMutation, _ error: any Error, store: DataStore, revert: (M.Type, [IdentifierComponent])
  ) async {
    var remote: M?
    var known = false
    if let request = try? ModelQueries.get(M.self, identifiers: revert.1),
      let answer = try? await configuration.client.send(request)
    {
      remote = answer
      known = true
    }
    let found = remote
    let revertable = known
    _ = try? await finish(entry, store: store) { tx in
      guard revertable, try Outbox.latestEntry(entry.modelName, entry.identifier, tx.connection) == nil else { return }
      if let found {
        try tx.save(found)
      } else {
        try tx.delete(M.self, where: .and(revert.1.map { .field($0.name, .eq($0.value)) }))
      }
    }
    await report(entry, error)
  }

  private func fail(_ entry: PendingMutation, _ error: any Error, store: DataStore) async {
    _ = try? await finish(entry, store: store) { _ in }
    await report(entry, error)
  }

  private func report(_ entry: PendingMutation, _ error: any Error) async {
    let failure = SyncError(modelName: entry.modelName, identifier: entry.identifier, kind: entry.kind, underlying: error)
    emit(.error(failure))
    await configuration.errorHandler(failure)
  }

  // MARK: Documents and answers

  /// The selection set of `schema` with the sync metadata fields.
  static func selectionSet(_ schema: ModelSchema) -> String {
    String(ModelDocument.selectionSet(of: schema).dropLast()) + "_version _deleted _lastChangedAt }"
  }

  /// `mutation CreatePost($input: CreatePostInput!) { createPost(input: $input) { … _version _deleted _lastChangedAt } }`.
  static func mutation(_ kind: ModelMutationKind, _ schema: ModelSchema, input: [String: GraphQLValue]) throws
    -> GraphQLRequest<GraphQLValue>
  {
    let field = try ModelDocument.mutationField(kind, schema)
    let name = field.prefix(1).uppercased() + field.dropFirst()
    let inputType = ModelDocument.mutationInputType(kind, schema)
    return GraphQLRequest(
      operationType: .mutation, operationName: name,
      document: "mutation \(name)($input: \(inputType)!) { \(field)(input: $input) \(selectionSet(schema)) }",
      variables: ["input": .object(input)], responseField: field)
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

  /// A model decoded from a record of the API (no decoding context: its references hold keys).
  static func decode<M: Model>(_ type: M.Type, _ record: GraphQLValue) throws -> M {
    try JSONDecoder().decode(M.self, from: JSONEncoder().encode(record))
  }
}
