import Foundation
import LazyModel

/// The `ModelDecodingContext` of a ``DataStore``: every lazy field decoded from its rows loads
/// from that same store.
///
/// Thread-safety: `Sendable` (holds only the store).
public struct DataStoreDecodingContext: ModelDecodingContext {
  /// The store references and lists load from.
  public let store: DataStore

  /// A context for `store`.
  public init(store: DataStore) { self.store = store }

  /// A provider that loads the `M` whose fields equal `identifiers` from ``store``.
  public func referenceProvider<M: Model>(for type: M.Type, identifiers: [IdentifierComponent])
    -> any ModelProvider<M>
  {
    DataStoreReferenceProvider<M>(store: store)
  }

  /// A provider that pages through the `M`s whose `associatedFields` columns equal
  /// `associatedIdentifiers`, in the order of the first `@index` of `M` that starts with those
  /// columns (see ``DataStoreListProvider``).
  public func listProvider<M: Model>(
    for type: M.Type, associatedFields: [String], associatedIdentifiers: [KeyValue]
  ) -> any ModelListProvider<M> {
    listProvider(
      for: type, associatedFields: associatedFields, associatedIdentifiers: associatedIdentifiers,
      indexName: nil)
  }

  /// A provider that pages through the `M`s whose `associatedFields` columns equal
  /// `associatedIdentifiers`, in the sort key order of `M`'s `@index` named `indexName` (see
  /// ``DataStoreListProvider``).
  public func listProvider<M: Model>(
    for type: M.Type, associatedFields: [String], associatedIdentifiers: [KeyValue],
    indexName: String?
  ) -> any ModelListProvider<M> {
    DataStoreListProvider<M>(
      store: store, associatedFields: associatedFields, associatedIdentifiers: associatedIdentifiers,
      indexName: indexName)
  }
}

/// Loads not-loaded references from a ``DataStore``.
///
/// `load(identifiers:)` is one primary-key lookup (or, for a `@hasOne(references:)`, one lookup
/// through the FK index); `load(batch:)` deduplicates the identifiers and reads them with chunked
/// `IN (…)` queries (at most ``DataStore/batchChunkSize`` keys per statement).
///
/// Providers are equal when they read the same store, so `LazyReference.loadAll(_:)` sends every
/// reference decoded from one store in one `load(batch:)` call. Thread-safety: `Sendable`; the store
/// serialises the SQL.
public struct DataStoreReferenceProvider<M: Model>: ModelProvider, Hashable {
  /// The store this provider reads.
  public let store: DataStore
  /// The siblings of the references a query decoded with this provider (loaded in one batch), or
  /// `nil` (every load is its own lookup).
  let siblings: SiblingReferences<M>?

  /// A provider over `store`; every load is one lookup.
  public init(store: DataStore) {
    self.store = store
    siblings = nil
  }

  /// A provider over `store` for the references of one query's field (``SiblingReferences``).
  init(store: DataStore, siblings: SiblingReferences<M>) {
    self.store = store
    self.siblings = siblings
  }

  /// Whether both read the same store (identity).
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.store === rhs.store }

  /// Hashes the store's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(store)) }

  /// The one `M` whose fields equal `identifiers`, or `nil`.
  ///
  /// For a reference decoded by a query (``DataStore/batchesSiblingReferences``), the first load
  /// reads the targets of all the query's references of that field in one batch of chunked
  /// `IN (…)` statements, and later loads of the others answer from it while the file is unchanged
  /// (its WAL-index header: any commit to the file, by any connection or process, ends it); the
  /// result is the same as one lookup's.
  ///
  /// - Throws: ``DataStoreError/unknownField(model:field:)`` when a name is not a column of `M`,
  ///   ``DataStoreError/sqlite(code:message:sql:)`` when SQLite fails, `CancellationError` when the
  ///   calling task is cancelled while reading.
  public func load(identifiers: [IdentifierComponent]) async throws -> M? {
    if let siblings, let answer = try await siblings.load(identifiers) { return answer }
    return try await store.loadOne(M.self, identifiers: identifiers)
  }

  /// The lookup of ``load(identifiers:)`` run on the calling thread when that is one of the
  /// store's reader threads between jobs (a task preferring ``DataStore/readerExecutor``), so
  /// `LazyReference.get()` loads with no task and no thread switch; `nil` anywhere else.
  ///
  /// - Throws: As ``load(identifiers:)``.
  public func loadWithoutSuspending(identifiers: [IdentifierComponent]) throws -> M?? {
    if let siblings,
      let answer = siblings.loadWithoutSuspending(identifiers, reader: store.idleReaderHere())
    {
      return .some(answer)
    }
    return try store.loadOneWithoutSuspending(M.self, identifiers: identifiers)
  }

  /// One result per element of `batch`, same order; one query per 500 distinct keys.
  ///
  /// - Throws: As ``load(identifiers:)``; every element must name the same fields.
  public func load(batch: [[IdentifierComponent]]) async throws -> [M?] {
    try await store.loadBatch(M.self, batch: batch)
  }
}

/// Pages through the children of one parent in a ``DataStore``: one query per page on the child's
/// FK columns, a range seek in the index that serves the list's order.
///
/// Order: the sort key fields of the `@index` the `@hasMany` goes through (``indexName``; without
/// one, the first `@index` of `M` whose fields start with the FK columns), `NULL`s last, then the
/// primary key — as AppSync's index query returns them; with no such index, the primary key. The
/// cursor is the JSON array of the last element's order column values (keyset paging, not
/// `OFFSET`), so a page costs the same however deep it is. Thread-safety: `Sendable`.
public struct DataStoreListProvider<M: Model>: ModelListProvider {
  /// The store this provider reads.
  public let store: DataStore
  /// FK columns of `M`, in the parent's key order.
  public let associatedFields: [String]
  /// The parent's key values, same order.
  public let associatedIdentifiers: [KeyValue]
  /// The `@index` of `M` the list goes through (the `@hasMany`'s `indexName:`), or `nil`.
  public let indexName: String?

  /// A provider for the `M`s whose `associatedFields` equal `associatedIdentifiers`, ordered by the
  /// sort key of the `@index` named `indexName` (or of the first one that starts with
  /// `associatedFields` when `indexName` is `nil` or names no such index).
  public init(
    store: DataStore, associatedFields: [String], associatedIdentifiers: [KeyValue],
    indexName: String? = nil
  ) {
    self.store = store
    self.associatedFields = associatedFields
    self.associatedIdentifiers = associatedIdentifiers
    self.indexName = indexName
  }

  /// The page after `cursor`, at most `limit` (default ``DataStore/listPageSize``) elements.
  ///
  /// - Throws: ``DataStoreError/invalidArgument(name:value:reason:)`` when `limit` is below 1,
  ///   ``DataStoreError/invalidCursor(_:)`` for a cursor this provider did not return,
  ///   ``DataStoreError/unknownField(model:field:)``, or ``DataStoreError/sqlite(code:message:sql:)``.
  public func loadPage(after cursor: String?, limit: Int?) async throws -> ModelPage<M> {
    try await store.loadPage(
      M.self, associatedFields: associatedFields, associatedIdentifiers: associatedIdentifiers,
      indexName: indexName, after: cursor, limit: limit ?? store.listPageSize)
  }
}
