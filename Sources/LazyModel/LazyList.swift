/// A hasMany value: loaded (elements, possibly with more pages) or not loaded (the parent's key
/// values and the child fields to query by).
///
/// Thread-safety: a `Sendable` final class; its state sits behind one lock (a `pthread_mutex_t`). ``fetch()`` loads the
/// first page at most once: concurrent callers share one in-flight load, whose result is stored even
/// when its callers were cancelled; a failed load is not cached. ``nextPage()`` calls are serialized:
/// each one starts after the previous one finished and reads the page after it, so no page is read
/// twice or skipped. Reading ``elements`` or ``loaded`` before the list is loaded throws
/// ``LazyModelError/listNotLoaded(model:associatedFields:associatedIdentifiers:)``; nothing traps.
///
/// Random access: a loaded list is read through ``loaded`` (a ``Loaded`` snapshot, which is a
/// `RandomAccessCollection` of `M`), through ``elements`` (an array) or through the array
/// ``fetch()`` returns. The list object itself is not a collection, because a collection cannot
/// report "not loaded" other than by trapping or by pretending to be empty.
public final class LazyList<M: Model>: Codable, Sendable {
  /// What a list holds.
  public enum State: Sendable {
    /// Not fetched yet: the children whose `associatedFields` equal `associatedIdentifiers`.
    case notLoaded(associatedIdentifiers: [KeyValue], associatedFields: [String])
    /// Fetched: the elements of every page read so far.
    case loaded([M])
  }

  /// A snapshot of a loaded list: the elements of every page read so far, as a
  /// `RandomAccessCollection` indexed `0..<count`, plus whether more pages exist.
  ///
  /// A value type; later pages read with ``LazyList/nextPage()`` do not change a snapshot taken
  /// before. Subscripting outside `indices` traps, as for every Swift collection.
  public struct Loaded: RandomAccessCollection, Sendable {
    /// The elements, in the source's order.
    public let elements: [M]
    /// Whether the list had a further page when the snapshot was taken.
    public let hasNextPage: Bool

    /// Creates a snapshot.
    public init(elements: [M], hasNextPage: Bool) {
      self.elements = elements
      self.hasNextPage = hasNextPage
    }

    /// Always `0`.
    public var startIndex: Int { elements.startIndex }
    /// The number of elements.
    public var endIndex: Int { elements.endIndex }
    /// The element at `position` (`0..<count`).
    public subscript(position: Int) -> M { elements[position] }
  }

  fileprivate struct Storage {
    var elements: [M]?
    var nextCursor: String?
    /// The first-page load in flight, tagged with the generation that started it.
    var fetchTask: (task: Task<[M], any Error>, generation: UInt64)?
    var generation: UInt64 = 0
    /// The last `nextPage()` scheduled; the next one waits for it.
    var lastPageTask: Task<[M], any Error>?
  }

  fileprivate let storage: Locked<Storage>
  private let provider: (any ModelListProvider<M>)?
  /// The parent's key values the children are queried by (empty for a list made from elements).
  public let associatedIdentifiers: [KeyValue]
  /// The child's FK field names, in the parent's key order (empty for a list made from elements).
  public let associatedFields: [String]

  /// A loaded list of `elements` with no further pages.
  public init(_ elements: [M]) {
    storage = Locked(Storage(elements: elements))
    provider = nil
    associatedIdentifiers = []
    associatedFields = []
  }

  /// A not-loaded list that pages through `provider` (`nil`: ``fetch()`` throws
  /// ``LazyModelError/noProvider(model:identifiers:)``).
  ///
  /// - Parameters:
  ///   - associatedIdentifiers: The parent's key values, in key order.
  ///   - associatedFields: The child's FK field names, same order.
  ///   - provider: What loads the pages; `nil` when nothing can.
  public init(
    associatedIdentifiers: [KeyValue], associatedFields: [String],
    provider: (any ModelListProvider<M>)?
  ) {
    storage = Locked(Storage())
    self.provider = provider
    self.associatedIdentifiers = associatedIdentifiers
    self.associatedFields = associatedFields
  }

  /// A loaded list whose first page arrived already (for example nested in a GraphQL response),
  /// with `nextCursor` pointing at the rest (`nil` when there is no more).
  public init(
    firstPage elements: [M], nextCursor: String?, associatedIdentifiers: [KeyValue],
    associatedFields: [String], provider: (any ModelListProvider<M>)?
  ) {
    storage = Locked(Storage(elements: elements, nextCursor: nextCursor))
    self.provider = provider
    self.associatedIdentifiers = associatedIdentifiers
    self.associatedFields = associatedFields
  }

  /// The current state, read without loading. A list whose first load is in flight is still
  /// `.notLoaded`.
  public var state: State {
    storage.withLock { storage in
      if let elements = storage.elements { return .loaded(elements) }
      return .notLoaded(
        associatedIdentifiers: associatedIdentifiers, associatedFields: associatedFields)
    }
  }

  /// `true` once the first page is in; read without loading.
  public var isLoaded: Bool {
    storage.withLock { $0.elements != nil }
  }

  /// The elements read so far.
  ///
  /// - Throws: ``LazyModelError/listNotLoaded(model:associatedFields:associatedIdentifiers:)`` before
  ///   the first page is in.
  public var elements: [M] {
    get throws { try loaded.elements }
  }

  /// A `RandomAccessCollection` snapshot of the elements read so far.
  ///
  /// - Throws: ``LazyModelError/listNotLoaded(model:associatedFields:associatedIdentifiers:)`` before
  ///   the first page is in.
  public var loaded: Loaded {
    get throws {
      let snapshot = storage.withLock { storage in
        storage.elements.map { Loaded(elements: $0, hasNextPage: storage.nextCursor != nil) }
      }
      guard let snapshot else { throw notLoadedError }
      return snapshot
    }
  }

  /// Whether a further page can be read with ``nextPage()``; `false` before the first page is in.
  public var hasNextPage: Bool {
    storage.withLock { $0.elements != nil && $0.nextCursor != nil }
  }

  /// Loads the first page (once) and returns the elements read so far.
  ///
  /// Concurrent callers share one in-flight ``ModelListProvider/loadPage(after:limit:)`` call;
  /// on a loaded list this returns at once without calling the provider.
  ///
  /// - Returns: The elements of every page read so far, in the source's order.
  /// - Throws: The provider's error (the list stays not loaded, so a later call retries), or
  ///   ``LazyModelError/noProvider(model:identifiers:)`` (naming the associated fields and the
  ///   parent's values) when the list was decoded without a ``ModelDecodingContext``.
  @discardableResult
  public func fetch() async throws -> [M] {
    let access: Access = try storage.withLock { storage in
      if let elements = storage.elements { return .loaded(elements) }
      if let inFlight = storage.fetchTask { return .waiting(inFlight.task) }
      guard let provider else { throw noProviderError }
      storage.generation &+= 1
      let generation = storage.generation
      let task = Task<[M], any Error> {
        do {
          let page = try await provider.loadPage(after: nil, limit: nil)
          return self.finishFetch(generation: generation, page: page)
        } catch {
          _ = self.finishFetch(generation: generation, page: nil)
          throw error
        }
      }
      storage.fetchTask = (task, generation)
      return .waiting(task)
    }
    switch access {
    case .loaded(let elements): return elements
    case .waiting(let task): return try await task.value
    }
  }

  /// Loads the next page, appends it, and returns the new page's elements.
  ///
  /// Calls are serialized: a call made while another is in flight waits for it, then reads the page
  /// after the one it read. Cancelling a caller does not cancel its read: the page is still appended.
  ///
  /// - Returns: The elements of the page read (possibly empty: a source may return an empty page
  ///   with a further cursor).
  /// - Throws: ``LazyModelError/listNotLoaded(model:associatedFields:associatedIdentifiers:)`` before
  ///   the first page is in, ``LazyModelError/noNextPage(model:)`` when there is no further page
  ///   when this call's turn comes, ``LazyModelError/noProvider(model:identifiers:)`` for a list
  ///   decoded with a cursor but without a ``ModelDecodingContext``, or the provider's error (nothing
  ///   is appended; the cursor stays, so a later call retries the same page).
  @discardableResult
  public func nextPage() async throws -> [M] {
    let task: Task<[M], any Error> = try storage.withLock { storage in
      guard storage.elements != nil else { throw notLoadedError }
      let previous = storage.lastPageTask
      let task = Task<[M], any Error> {
        _ = await previous?.result
        return try await self.readNextPage()
      }
      storage.lastPageTask = task
      return task
    }
    return try await task.value
  }

  /// One serialized page read: the cursor is read when this call's turn comes.
  private func readNextPage() async throws -> [M] {
    guard let cursor = storage.withLock({ $0.nextCursor }) else {
      throw LazyModelError.noNextPage(model: M.modelName)
    }
    guard let provider else { throw noProviderError }
    let page = try await provider.loadPage(after: cursor, limit: nil)
    storage.withLock { storage in
      storage.elements = (storage.elements ?? []) + page.elements
      storage.nextCursor = page.nextCursor
    }
    return page.elements
  }

  /// Records the first page (when this load is still the current one) and returns the elements.
  private func finishFetch(generation: UInt64, page: ModelPage<M>?) -> [M] {
    storage.withLock { storage in
      if let current = storage.fetchTask, current.generation == generation {
        storage.fetchTask = nil
        if let page, storage.elements == nil {
          storage.elements = page.elements
          storage.nextCursor = page.nextCursor
        }
      }
      return storage.elements ?? []
    }
  }

  private var noProviderError: LazyModelError {
    .noProvider(
      model: M.modelName,
      identifiers: zip(associatedFields, associatedIdentifiers).map {
        IdentifierComponent(name: $0, value: $1)
      })
  }

  private var notLoadedError: LazyModelError {
    .listNotLoaded(
      model: M.modelName, associatedFields: associatedFields,
      associatedIdentifiers: associatedIdentifiers)
  }

  /// The cursor of the next page, or `nil`.
  fileprivate var nextCursor: String? { storage.withLock { $0.nextCursor } }

  /// Decodes an array of models as a loaded list, `{"items": [...], "nextToken": ...}` (a GraphQL
  /// connection) as a loaded first page with that cursor, and an object without `items` (what a
  /// not-loaded list encodes) as a not-loaded list with no provider. Inside a generated model use
  /// `KeyedDecodingContainer.decodeLazyList(_:forKey:associatedFields:parent:decoder:)`,
  /// which adds the parent's identifiers and the decoding source's provider.
  ///
  /// - Throws: `DecodingError` when the value is none of these or an element is not an `M`;
  ///   ``TypenameMismatch`` when a connection item's `__typename` names another type.
  public convenience init(from decoder: any Decoder) throws {
    if var array = try? decoder.unkeyedContainer() {
      var elements: [M] = []
      if let count = array.count { elements.reserveCapacity(count) }
      while !array.isAtEnd { elements.append(try array.decode(M.self)) }
      self.init(elements)
      return
    }
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    guard container.contains(AnyCodingKey("items")) else {
      self.init(associatedIdentifiers: [], associatedFields: [], provider: nil)
      return
    }
    let items = try container.decode([TypenameCheckedModel<M>].self, forKey: AnyCodingKey("items"))
      .map(\.model)
    let next = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("nextToken"))
    self.init(
      firstPage: items, nextCursor: next, associatedIdentifiers: [], associatedFields: [],
      provider: nil)
  }

  /// Encodes a loaded list as an array of its elements, or as `{"items": [...], "nextToken": cursor}`
  /// while a further page exists (so the cursor survives a round trip through the same source); a
  /// not-loaded list encodes as an empty object `{}` and is rebuilt from the parent's identifiers
  /// when decoded through the generated model.
  ///
  /// - Throws: What the elements' or the encoder's `encode` throws.
  public func encode(to encoder: any Encoder) throws {
    let (elements, cursor) = storage.withLock { ($0.elements, $0.nextCursor) }
    guard let elements else {
      _ = encoder.container(keyedBy: AnyCodingKey.self)
      return
    }
    if let cursor {
      var container = encoder.container(keyedBy: AnyCodingKey.self)
      try container.encode(elements, forKey: AnyCodingKey("items"))
      try container.encode(cursor, forKey: AnyCodingKey("nextToken"))
    } else {
      var array = encoder.unkeyedContainer()
      for element in elements { try array.encode(element) }
    }
  }
}

extension LazyList {
  /// What ``fetch()`` does under the lock: return loaded elements, or wait for the load.
  fileprivate enum Access {
    case loaded([M])
    case waiting(Task<[M], any Error>)
  }
}

extension KeyedDecodingContainer {
  /// Decodes a `@hasMany` field of a generated model.
  ///
  /// When the payload holds elements under `key` (an array, or a connection `{"items", "nextToken"}`),
  /// the list is loaded from them and keeps the cursor for ``LazyList/nextPage()``; when the key is
  /// missing, `null`, or an object without `items` (an encoded not-loaded list), it is a not-loaded
  /// list of the children whose `associatedFields` equal `parent`'s values. Either way its provider
  /// comes from the decoder's ``ModelDecodingContext`` (`decoder.userInfo[.modelDecodingContext]`),
  /// or is `nil` when there is none.
  ///
  /// - Parameters:
  ///   - associatedFields: The child's FK field names, in the parent's key order.
  ///   - indexName: The child's `@index` the `@hasMany` goes through (its `indexName:`), or `nil`;
  ///     passed to ``ModelDecodingContext/listProvider(for:associatedFields:associatedIdentifiers:indexName:)``.
  ///   - parent: The parent's identifier components, in key order.
  /// - Throws: `DecodingError` when the value under `key` is not a list of `M`.
  public func decodeLazyList<M: Model>(
    _ type: M.Type, forKey key: Key, associatedFields: [String], indexName: String? = nil,
    parent: [IdentifierComponent], decoder: any Decoder
  ) throws -> LazyList<M> {
    let values = parent.map(\.value)
    let context = decoder.userInfo[.modelDecodingContext] as? any ModelDecodingContext
    let provider = context?.listProvider(
      for: M.self, associatedFields: associatedFields, associatedIdentifiers: values,
      indexName: indexName)
    if contains(key), try !decodeNil(forKey: key) {
      let decoded = try decode(LazyList<M>.self, forKey: key)
      if case .loaded(let elements) = decoded.state {
        return LazyList(
          firstPage: elements, nextCursor: decoded.nextCursor, associatedIdentifiers: values,
          associatedFields: associatedFields, provider: provider)
      }
    }
    return LazyList(
      associatedIdentifiers: values, associatedFields: associatedFields, provider: provider)
  }

  /// Decodes a `@belongsTo`/`@hasOne` field whose foreign key lives on the decoded model as
  /// `targetNames` (`postID`, `phoneCallTranscriptId`): as
  /// ``decodeLazyReference(_:forKey:associatedFields:parent:decoder:)``, except that when the field
  /// decodes as an empty reference (`null` or absent, as AppSync answers for a target that does not
  /// exist or was deleted) while every target name holds a non-null value in the same object, the
  /// result is a not-loaded reference to those key values (the primary key of `M`, in order).
  /// Loading it then yields `nil` while the target is missing, and encoding it keeps the key, so an
  /// update of the decoded model never turns a foreign key into `null` (issue 14).
  ///
  /// - Throws: `DecodingError` when the value under `key` is neither `null`, identifiers, nor an
  ///   `M`, or a target name holds a value that does not fit its key field's type.
  @inlinable
  public func decodeLazyReference<M: Model>(
    _ type: M.Type, forKey key: Key, targetNames: [String], decoder: any Decoder
  ) throws -> LazyReference<M> {
    let reference = try decodeLazyReference(M.self, forKey: key, decoder: decoder)
    // `identifiers` is `nil` only for an empty reference; it is read without the lock (and
    // without copying the array: `isEmptyReference`).
    guard reference.isEmptyReference, !targetNames.isEmpty else { return reference }
    return try LazyReference<M>.fromForeignKeys(targetNames, decoder: decoder) ?? reference
  }

  /// Decodes a `@belongsTo`/`@hasOne` field of a generated model (see ``LazyReference/init(from:)``).
  ///
  /// A missing key or `null` is an empty loaded reference, unless `associatedFields` is given (a
  /// `@hasOne(references:)` whose FK lives on `M`): then a missing key is a not-loaded reference to
  /// the `M` whose `associatedFields` equal `parent`'s values, and an object holding exactly those
  /// fields (what such a not-loaded reference encodes) is one too.
  ///
  /// - Throws: `DecodingError` when the value under `key` is neither `null`, identifiers, nor an `M`.
  @inlinable  // specialised in the generated module: no generic metadata lookup per decoded row
  public func decodeLazyReference<M: Model>(
    _ type: M.Type, forKey key: Key, associatedFields: [String]? = nil,
    parent: [IdentifierComponent] = [],
    decoder: any Decoder
  ) throws -> LazyReference<M> {
    guard let associatedFields, !associatedFields.isEmpty else {
      // `null` and a missing key are both an empty reference: one `decodeIfPresent` call, not
      // `contains` and `decode` (a store decoding a row answers it without a second key lookup).
      return try decodeIfPresent(LazyReference<M>.self, forKey: key) ?? LazyReference(nil as M?)
    }
    if contains(key) {
      return try LazyReference<M>(
        from: try superDecoder(forKey: key), identifyingFields: associatedFields)
    }
    let identifiers = zip(associatedFields, parent).map {
      IdentifierComponent(name: $0, value: $1.value)
    }
    if let context = decoder.userInfo[.modelDecodingContext] as? any ModelDecodingContext {
      return LazyReference(
        identifiers: identifiers,
        provider: context.referenceProvider(for: M.self, identifiers: identifiers))
    }
    return LazyReference(identifiers: identifiers)
  }
}
