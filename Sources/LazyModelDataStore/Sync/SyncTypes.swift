import Foundation
import LazyModel
import LazyModelAPI

/// How a ``DataStore`` syncs with an AppSync API whose schema is a versioned data source
/// (`modelgen generate --conflict-resolution`): ``DataStore/init(fileURL:registry:sync:listPageSize:readerCount:busyTimeout:)``.
///
/// Only the models whose `ModelSchema.syncPluralName` is set are synced; saves and deletes of the
/// others never enter the outbox.
///
/// Thread-safety: a `Sendable` value; the handlers are called from the store's sync task, one at a time.
public struct SyncConfiguration: Sendable {
  /// The API client the outbox sends its mutations with (its endpoint and authorization).
  public var client: APIClient
  /// Called when the service rejects a mutation with `ConflictUnhandled` (optimistic concurrency,
  /// a rejecting Lambda handler, a merge Automerge cannot do). Default: ``SyncConflictResolution/applyRemote``.
  public var conflictHandler: @Sendable (SyncConflict) async -> SyncConflictResolution
  /// Called with each mutation the server refused (a GraphQL error at the mutation's path:
  /// a conditional check, `Unauthorized`, a validation error, HTTP 400); the entry leaves the outbox
  /// and the local row is reverted to the server's value read back (deleted when the server has
  /// none). Also called, with ``SyncError/isRetried`` `true`, once per streak of retries of an
  /// entry that stays in the outbox: HTTP 401/403 or another 4xx, a redirect, an undecodable
  /// answer, a GraphQL error naming neither the mutation nor the request, or a revert whose read of
  /// the server's record failed (the whole rule: `SyncEngine.classify(_:responseField:)`).
  /// Awaited on the outbox's task, one call at a time.
  public var errorHandler: @Sendable (SyncError) async -> Void
  /// How failed sends that may succeed later (network errors, timeouts, HTTP 5xx and 429) are retried.
  /// The inbound side waits the same delays before it subscribes and syncs again after the
  /// network failed.
  public var retry: SyncRetryPolicy
  /// The `limit` of each `sync<Plural>` page: records per request (default 1,000, Amplify's
  /// `syncPageSize`). At least 1.
  public var syncPageSize: Int
  /// The most records one sync of one model reads (default 10,000, Amplify's
  /// `syncMaxRecords`): paging stops once that many arrived, and the model counts as synced.
  public var maxRecordsToSync: Int
  /// A model's sync is a base sync (no `lastSync`: every record, tombstones included) when its
  /// last sync started longer ago than this (default 24 hours, Amplify's `fullSyncInterval`), and
  /// a delta sync (`lastSync`: the changes since) otherwise. The server may still answer a delta
  /// query with its base table when `lastSync` is older than its delta table's TTL.
  public var fullSyncInterval: Duration
  /// How long the inbound side waits for the subscriptions of a cycle to be acknowledged
  /// (default 30 s). When they are not all acknowledged by then (the endpoint unreachable, a
  /// real-time connection failing after its `connection_ack` while the API client retries by
  /// itself), it reports ``SyncEvent/networkStatus(active:)`` `false` and starts over after
  /// ``retry``'s delay, as for any network failure.
  public var subscriptionTimeout: Duration = .seconds(30)
  /// Selective sync: per model, only the records matching its predicate are synced (the
  /// predicate is the `filter` of its `sync<Plural>` queries and of its three subscriptions). A
  /// model without one syncs every record. ``DataStore/start()`` throws ``SyncExpressionError``
  /// for a predicate a subscription filter cannot express (`not`, a null comparison, an empty `or`),
  /// one the sync query's filter cannot express, or a model that is not synced.
  public var syncExpressions: [SyncExpression]

  /// Creates a configuration.
  public init(
    client: APIClient,
    conflictHandler: @escaping @Sendable (SyncConflict) async -> SyncConflictResolution = { _ in .applyRemote },
    errorHandler: @escaping @Sendable (SyncError) async -> Void = { _ in },
    retry: SyncRetryPolicy = SyncRetryPolicy(),
    syncPageSize: Int = 1_000,
    maxRecordsToSync: Int = 10_000,
    fullSyncInterval: Duration = .seconds(24 * 3600),
    syncExpressions: [SyncExpression] = []
  ) {
    self.client = client
    self.conflictHandler = conflictHandler
    self.errorHandler = errorHandler
    self.retry = retry
    self.syncPageSize = syncPageSize
    self.maxRecordsToSync = maxRecordsToSync
    self.fullSyncInterval = fullSyncInterval
    self.syncExpressions = syncExpressions
  }
}

/// The records of one model a store syncs (``SyncConfiguration/syncExpressions``).
public struct SyncExpression: Sendable {
  /// The model's GraphQL type name (`M.modelName` of the initializer's `M`). Read-only, like
  /// ``predicate``: the two are set together from one typed model, so an expression can never
  /// pair a predicate with another model's name.
  public let modelName: String
  /// The records synced, on the fields of the model ``modelName``: sent as the `filter` of the
  /// sync queries and the subscriptions. Untyped (`AnyQueryPredicate`) because
  /// ``SyncConfiguration/syncExpressions`` holds the expressions of every model in one array.
  public let predicate: AnyQueryPredicate

  /// Syncs only the `M` matching `predicate` (a predicate on `M`'s keys: `SyncExpression(Post.self,
  /// where: Post.keys.rating.gt(3))`; another model's keys do not compile).
  public init<M: Model>(_ type: M.Type, where predicate: QueryPredicate<M>) {
    modelName = M.modelName
    self.predicate = predicate.untyped
  }
}

/// A selective-sync predicate (``SyncConfiguration/syncExpressions``) the store cannot sync by,
/// thrown by ``DataStore/start()`` before anything is sent (the store stays stopped).
///
/// The predicate is the `filter` of the model's `sync<Plural>` query (`Model<Name>FilterInput`)
/// and of its three subscriptions (`ModelSubscription<Name>FilterInput`, AppSync's subscription
/// filters). The transformer's subscription filter input has `and`, `or` and per-field operators
/// only: no `not`, and no `attributeExists`, which a null comparison (`isNil()`, `isNotNil()`) and
/// an empty `or` become. Amplify's DataStore falls back to filtering subscription events on the
/// device when the service refuses a filter; this store refuses the predicate up front instead,
/// so a record outside the selective sync never arrives unnoticed.
public struct SyncExpressionError: Error, Sendable, CustomStringConvertible {
  /// The model's GraphQL type name, as the ``SyncExpression`` named it.
  public var modelName: String
  /// The whole predicate of the expression.
  public var predicate: AnyQueryPredicate
  /// The part of ``predicate`` that cannot be expressed (the whole predicate when the fault is
  /// not one part's: an unknown model).
  public var unsupported: AnyQueryPredicate
  /// Why, in words.
  public var reason: String

  /// `sync expression of Post: not(…) cannot be a subscription filter: …`.
  public var description: String {
    "sync expression of \(modelName) (\(predicate)): \(unsupported == predicate ? "" : "\(unsupported) ")\(reason)"
  }
}

/// What one model's sync query brought (``SyncEvent/modelSynced(_:)``).
public struct ModelSyncedEvent: Sendable, Hashable {
  /// The model's GraphQL type name.
  public var modelName: String
  /// A base sync: no `lastSync` was sent.
  public var isFullSync: Bool
  /// A delta sync: `lastSync` was sent.
  public var isDeltaSync: Bool
  /// Records stored that the store did not hold.
  public var added: Int
  /// Stored records replaced by a newer version.
  public var updated: Int
  /// Stored records deleted (tombstones), cascades not counted.
  public var deleted: Int
}

/// A remote record or page the store could not apply (``SyncEvent/inboundError(_:)``). A page's:
/// nothing of its transaction was written. A record's (`null` with an error at its path, or not
/// decodable): it was left out of its page, whose other records were applied, and the model's
/// `lastSync` was not advanced. Either way the model is synced again after
/// ``SyncConfiguration/retry``'s delay (and on the next ``DataStore/start()`` or reconnection).
public struct SyncInboundError: Error, Sendable, CustomStringConvertible {
  /// The model's GraphQL type name (as the server named it, for an unknown model).
  public var modelName: String
  /// The record's identifier (canonical string, or its key fields as received), `nil` when the
  /// fault is the page's, not one record's.
  public var identifier: String?
  /// Why: a decoding error, a `DataStoreError`, an `APIError` of the sync query.
  public var underlying: any Error

  /// `Post "a": cannot apply the remote record: …`.
  public var description: String {
    "\(modelName)\(identifier.map { " \($0)" } ?? ""): cannot apply the remote change: \(underlying)"
  }
}

/// Capped exponential backoff with "equal jitter" (AWS Architecture Blog, "Exponential Backoff
/// and Jitter"): before retry `n` (0-based) the outbox waits `d / 2 + random(0 … d / 2)` with
/// `d = min(maximumDelay, initialDelay × 2ⁿ)`. The failed mutation stays at the head of the
/// outbox, so nothing behind it is sent first.
public struct SyncRetryPolicy: Sendable, Hashable {
  /// The first delay (default 0.5 s).
  public var initialDelay: Duration
  /// The cap (default 30 s).
  public var maximumDelay: Duration

  /// Creates a policy.
  public init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30)) {
    self.initialDelay = initialDelay
    self.maximumDelay = maximumDelay
  }

  /// The delay before retry `attempt` (0-based), jittered.
  public func delay(attempt: Int) -> Duration {
    let initial = Double(initialDelay.components.seconds) + Double(initialDelay.components.attoseconds) / 1e18
    let maximum = Double(maximumDelay.components.seconds) + Double(maximumDelay.components.attoseconds) / 1e18
    let capped = min(maximum, initial * pow(2, Double(min(attempt, 60))))
    return .milliseconds(Int((capped / 2 + Double.random(in: 0...(capped / 2))) * 1000))
  }
}

/// The kind of a pending mutation of the outbox (as AppSync's mutation fields name them).
public enum SyncMutationKind: String, Sendable, Hashable {
  /// `create<Name>`.
  case create
  /// `update<Name>`.
  case update
  /// `delete<Name>`.
  case delete
}

/// One pending mutation of the outbox: which model and identifier, and what will be sent. A
/// create or update sends the row's values at the time it is sent (so later saves merge into it).
public struct PendingMutation: Sendable, Hashable {
  /// Its position in the outbox (sent in ascending order).
  public var sequence: Int64
  /// The model's GraphQL type name.
  public var modelName: String
  /// The identifier's canonical string (`ModelIdentifierProtocol.canonicalString`).
  public var identifier: String
  /// The mutation.
  public var kind: SyncMutationKind
  /// `true` while the mutation has been sent and its answer is awaited.
  public var inFlight: Bool
}

/// The sync metadata of one record, kept beside its row (AppSync's versioned data source fields).
public struct SyncMetadata: Sendable, Hashable {
  /// `_version`: the server's version of the record the store last saw.
  public var version: Int
  /// `_lastChangedAt`: when the server last changed the record, in epoch milliseconds.
  public var lastChangedAt: Int
  /// `_deleted`: the server holds a tombstone.
  public var deleted: Bool
}

/// A mutation the service rejected with `ConflictUnhandled`: the local change and the server's item.
public struct SyncConflict: Sendable {
  /// The model's GraphQL type name.
  public var modelName: String
  /// The identifier's canonical string.
  public var identifier: String
  /// The rejected mutation.
  public var kind: SyncMutationKind
  /// The local model that was sent (`nil` for a delete).
  public var local: (any Model)?
  /// The server's current item, as the error's `data` carried it (with `_version`, `_deleted`,
  /// `_lastChangedAt`).
  public var remote: [String: GraphQLValue]
  /// The server's `_version` of the item.
  public var remoteVersion: Int
}

/// What to do about a ``SyncConflict``.
public enum SyncConflictResolution: Sendable {
  /// Keep the server's item: the local row becomes it (or is deleted when the server's is a
  /// tombstone) and the mutation is dropped.
  case applyRemote
  /// Send the local mutation again, with the server's `_version`.
  case retryLocal
  /// Save `model` locally and send it, with the server's `_version`. `model` must be of the
  /// conflict's model and identifier; otherwise nothing is saved, the server's record is kept (as
  /// ``applyRemote``) and the error handler gets a ``SyncConflictRetryMismatch``.
  case retry(with: any Model)
}

/// A conflict handler answered ``SyncConflictResolution/retry(with:)`` with a model whose
/// identifier is not the conflict's (the ``SyncError/underlying`` of the error handler's call):
/// nothing was saved, and the conflict's record is the server's.
public struct SyncConflictRetryMismatch: Error, Sendable, CustomStringConvertible {
  /// The model's GraphQL type name.
  public var modelName: String
  /// The conflict's identifier (canonical string).
  public var identifier: String
  /// The identifier of the model the handler returned (canonical string).
  public var retried: String

  /// `Post "a": the conflict handler's retry(with:) model is "b", another identifier`.
  public var description: String {
    "\(modelName) \(identifier): the conflict handler's retry(with:) model is \(retried), another identifier"
  }
}

/// A mutation of the outbox that failed for good (``SyncConfiguration/errorHandler``).
public struct SyncError: Error, Sendable, CustomStringConvertible {
  /// The model's GraphQL type name.
  public var modelName: String
  /// The identifier's canonical string.
  public var identifier: String
  /// The mutation that failed.
  public var kind: SyncMutationKind
  /// Why: an `APIError` from the client, or a `DataStoreError` applying the answer.
  public var underlying: any Error
  /// `false`: the mutation failed for good and left the outbox (its row reverted, see
  /// ``SyncConfiguration/errorHandler``). `true`: the mutation stays at the head of the outbox and
  /// is sent again after ``SyncConfiguration/retry``'s delay — the server's answer said nothing
  /// definitive about it (HTTP 401/403, a redirect, an undecodable answer, a pathless server
  /// error) or the revert's read of the server's record failed; reported once per streak of
  /// retries of the entry.
  public var isRetried: Bool = false

  /// `Post "a": update failed: …`.
  public var description: String { "\(modelName) \(identifier): \(kind.rawValue) failed: \(underlying)" }
}

/// What the sync engine reports on ``DataStore/syncEvents``.
public enum SyncEvent: Sendable {
  /// A local save or delete entered the outbox (after its transaction committed); `kind` is the
  /// pending mutation after merging with the ones already pending for the identifier (`nil` when
  /// they cancelled out: a create then a delete).
  case outboxMutationEnqueued(modelName: String, identifier: String, kind: SyncMutationKind?)
  /// The service accepted a mutation; `version` is the record's new `_version`.
  case outboxMutationProcessed(modelName: String, identifier: String, kind: SyncMutationKind, version: Int)
  /// Whether the outbox is empty (reported when the processor finds it so, and when it fills again).
  case outboxStatus(isEmpty: Bool)
  /// A send failed in a way that may pass; it is retried after `delay`.
  case retrying(modelName: String, identifier: String, attempt: Int, delay: Duration)
  /// The service rejected a mutation with `ConflictUnhandled`; the handler answered.
  case conflict(SyncConflict)
  /// A mutation failed for good and left the outbox, or (``SyncError/isRetried`` `true`) stays at
  /// its head and is retried (also given to the error handler).
  case error(SyncError)
  /// Whether the API is reachable: `true` once the subscriptions are acknowledged, `false` (once
  /// per outage) when a sync query failed, the real-time connection failed (at its first failed
  /// attempt, while the API client retries it), or the subscriptions were not acknowledged within
  /// ``SyncConfiguration/subscriptionTimeout`` (the inbound side retries with
  /// ``SyncConfiguration/retry``'s delays).
  case networkStatus(active: Bool)
  /// The onCreate/onUpdate/onDelete subscriptions of every synced model are acknowledged (their
  /// events are buffered until the sync queries finished); those the API does not declare
  /// (`@model(subscriptions: null)`) are not subscribed to.
  case subscriptionsEstablished
  /// The sync queries of these models (in dependency order: parents first) begin.
  case syncQueriesStarted(modelNames: [String])
  /// One model finished its sync query (its `lastSync` is stored).
  case modelSynced(ModelSyncedEvent)
  /// Every model's sync query finished (buffered subscription events are applied next).
  case syncQueriesReady
  /// The first sync since ``DataStore/start()`` finished: ``QuerySnapshot/isSynced`` is `true`.
  case ready
  /// A remote page or record could not be applied (nothing of its transaction was written).
  case inboundError(SyncInboundError)
}
