import LazyModel

extension DataStore {
  /// Starts sending the outbox to the API of the store's ``SyncConfiguration`` (idempotent: a
  /// running store keeps running). A mutation left in flight by a stopped or killed process is
  /// checked against the server's record first: one the server already applied is not sent again.
  ///
  /// - Throws: ``DataStoreError/invalidArgument(name:value:reason:)`` when the store was opened
  ///   without a ``SyncConfiguration``; ``SyncExpressionError`` for a selective-sync predicate the
  ///   sync queries or subscriptions cannot express (nothing is started); what ``write(_:)`` throws.
  public func start() async throws {
    try await requireSync("start").start(store: self)
  }

  /// Stops the network side of sync: no mutation is sent after it returns (one in flight is
  /// abandoned and stays pending). Local data, sync metadata and the outbox stay. Does nothing
  /// when sync is not running.
  public func stop() async {
    await sync?.stop(store: self)
  }

  /// Stops sync, then deletes every synced model's rows, the sync metadata (held remote records too) and the outbox, in one
  /// transaction (its deletes do not enter the outbox).
  ///
  /// - Throws: ``DataStoreError/invalidArgument(name:value:reason:)`` without a
  ///   ``SyncConfiguration``; what ``write(_:)`` throws.
  public func clear() async throws {
    let sync = try requireSync("clear")
    await sync.stop(store: self)
    let tables = registry.models.compactMap { try? mapping(for: $0) }.filter { $0.schema.syncPluralName != nil }
    try await write { tx in
      tx.appliesRemote = true
      for mapping in tables { try tx.connection.execute("DELETE FROM \(quote(mapping.table))") }
      try Outbox.clear(tx.connection)
    }
  }

  /// The sync engine's events from now on (``SyncEvent``); each call returns a new stream, ended
  /// by cancelling its consumer. Empty (finished) for a store without sync.
  public var syncEvents: AsyncStream<SyncEvent> {
    guard let sync else { return AsyncStream { $0.finish() } }
    return sync.events()
  }

  /// The outbox's pending mutations, in send order.
  ///
  /// - Throws: What ``read(_:)`` throws; ``DataStoreError/invalidArgument(name:value:reason:)``
  ///   without a ``SyncConfiguration``.
  public func pendingMutations() async throws -> [PendingMutation] {
    _ = try requireSync("pendingMutations")
    return try await read { tx in try Outbox.all(tx.connection) }
  }

  /// The sync metadata (`_version`, `_lastChangedAt`, `_deleted`) of the `M` with `identifier`, or
  /// `nil` when the server never answered for it.
  ///
  /// - Throws: What ``read(_:)`` throws; ``DataStoreError/invalidArgument(name:value:reason:)``
  ///   without a ``SyncConfiguration``.
  public func syncMetadata<M: Model>(_ type: M.Type, byIdentifier identifier: M.Identifier) async throws
    -> SyncMetadata?
  {
    _ = try requireSync("syncMetadata")
    let key = identifier.canonicalString
    return try await read { tx in try Outbox.metadata(M.modelName, key, tx.connection) }
  }

  private func requireSync(_ operation: String) throws -> SyncEngine {
    guard let sync else {
      throw DataStoreError.invalidArgument(
        name: "sync", value: 0,
        reason: "\(operation) needs a store opened with DataStore(fileURL:registry:sync:)")
    }
    return sync
  }
}
