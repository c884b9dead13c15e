import Synchronization

/// A hasMany value: loaded (elements, possibly with more pages) or not loaded (the parent's key
/// values and the child fields to query by).
///
/// Thread-safety: a `Sendable` final class; its state sits behind one `Mutex`. ``fetch()`` loads the
/// first page at most once: concurrent callers share one in-flight load; a failed load is not cached.
/// Reading ``elements`` before ``fetch()`` throws ``LazyModelError/listNotLoaded(model:associatedFields:associatedIdentifiers:)``; nothing traps.
public final class LazyList<M: Model>: Codable, Sendable {
  /// What a list holds.
  public enum State: Sendable {
    /// Not fetched yet: the children whose `associatedFields` equal `associatedIdentifiers`.
    case notLoaded(associatedIdentifiers: [KeyValue], associatedFields: [String])
    /// Fetched: the elements of every page read so far.
    case loaded([M])
  }

  fileprivate struct Storage {
    var elements: [M]?
    var inFlight: Task<ModelPage<M>, any Error>?
    var nextCursor: String?
  }

  fileprivate let storage: Mutex<Storage>
  private let provider: (any ModelListProvider<M>)?
  private let associatedIdentifiers: [KeyValue]
  private let associatedFields: [String]

  /// A loaded list of `elements` with no further pages.
  public init(_ elements: [M]) {
    storage = Mutex(Storage(elements: elements))
    provider = nil
    associatedIdentifiers = []
    associatedFields = []
  }

  /// A not-loaded list that pages through `provider`.
  public init(
    associatedIdentifiers: [KeyValue], associatedFields: [String], provider: (any ModelListProvider<M>)?
  ) {
    storage = Mutex(Storage())
    self.provider = provider
    self.associatedIdentifiers = associatedIdentifiers
    self.associatedFields = associatedFields
  }

  /// A list whose first page arrived already (for example nested in a GraphQL response), with
  /// `nextCursor` pointing at the rest.
  public init(
    firstPage elements: [M], nextCursor: String?, associatedIdentifiers: [KeyValue],
    associatedFields: [String], provider: (any ModelListProvider<M>)?
  ) {
    storage = Mutex(Storage(elements: elements, nextCursor: nextCursor))
    self.provider = provider
    self.associatedIdentifiers = associatedIdentifiers
    self.associatedFields = associatedFields
  }

  /// The current state, read without loading.
  public var state: State {
    storage.withLock { storage in
      if let elements = storage.elements { return .loaded(elements) }
      return .notLoaded(associatedIdentifiers: associatedIdentifiers, associatedFields: associatedFields)
    }
  }

  /// The elements read so far.
  ///
  /// - Throws: ``LazyModelError/listNotLoaded(model:associatedFields:associatedIdentifiers:)`` before ``fetch()``.
  public var elements: [M] {
    get throws {
      guard let elements = storage.withLock({ $0.elements }) else {
        throw LazyModelError.listNotLoaded(
          model: M.modelName, associatedFields: associatedFields, associatedIdentifiers: associatedIdentifiers)
      }
      return elements
    }
  }

  /// Whether a further page can be read with ``nextPage()``.
  public var hasNextPage: Bool {
    storage.withLock { $0.elements != nil && $0.nextCursor != nil }
  }

  /// Loads the first page (once) and returns the elements read so far.
  ///
  /// - Throws: The provider's error (the list stays not loaded), or ``LazyModelError/noProvider(model:identifiers:)``.
  @discardableResult
  public func fetch() async throws -> [M] {
    let task: Task<ModelPage<M>, any Error> = try storage.withLock { storage in
      if let elements = storage.elements {
        let cursor = storage.nextCursor
        return Task { ModelPage(elements: elements, nextCursor: cursor) }
      }
      if let task = storage.inFlight { return task }
      guard let provider else {
        throw LazyModelError.noProvider(model: M.modelName, identifiers: [])
      }
      let task = Task { try await provider.loadPage(after: nil, limit: nil) }
      storage.inFlight = task
      return task
    }
    do {
      let page = try await task.value
      return storage.withLock { storage in
        if storage.elements == nil {
          storage.elements = page.elements
          storage.nextCursor = page.nextCursor
        }
        storage.inFlight = nil
        return storage.elements ?? []
      }
    } catch {
      storage.withLock { $0.inFlight = nil }
      throw error
    }
  }

  /// Loads the next page, appends it, and returns the new page's elements.
  ///
  /// - Throws: ``LazyModelError/listNotLoaded(model:associatedFields:associatedIdentifiers:)`` before ``fetch()``,
  ///   ``LazyModelError/noNextPage(model:)`` when ``hasNextPage`` is `false`, or the provider's error.
  @discardableResult
  public func nextPage() async throws -> [M] {
    let cursor: String = try storage.withLock { storage in
      guard storage.elements != nil else {
        throw LazyModelError.listNotLoaded(
          model: M.modelName, associatedFields: associatedFields, associatedIdentifiers: associatedIdentifiers)
      }
      guard let cursor = storage.nextCursor else { throw LazyModelError.noNextPage(model: M.modelName) }
      return cursor
    }
    guard let provider else { throw LazyModelError.noNextPage(model: M.modelName) }
    let page = try await provider.loadPage(after: cursor, limit: nil)
    storage.withLock { storage in
      storage.elements = (storage.elements ?? []) + page.elements
      storage.nextCursor = page.nextCursor
    }
    return page.elements
  }

  /// Decodes an array of models, or `{"items": [...], "nextToken": ...}`, as a loaded list.
  public convenience init(from decoder: any Decoder) throws {
    if var array = try? decoder.unkeyedContainer() {
      var elements: [M] = []
      while !array.isAtEnd { elements.append(try array.decode(M.self)) }
      self.init(elements)
      return
    }
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    let items = try container.decode([M].self, forKey: AnyCodingKey("items"))
    let next = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("nextToken"))
    self.init(firstPage: items, nextCursor: next, associatedIdentifiers: [], associatedFields: [], provider: nil)
  }

  /// Encodes a loaded list as an array of its elements; a not-loaded list encodes nothing useful
  /// (an empty keyed container) and is rebuilt from the parent's identifiers when decoded.
  public func encode(to encoder: any Encoder) throws {
    if let elements = storage.withLock({ $0.elements }) {
      var array = encoder.unkeyedContainer()
      for element in elements { try array.encode(element) }
    } else {
      _ = encoder.container(keyedBy: AnyCodingKey.self)
    }
  }
}

extension KeyedDecodingContainer {
  /// Decodes a `@hasMany` field of a generated model.
  ///
  /// When the payload has the key, the list is loaded from it; otherwise it is a not-loaded list of
  /// the children whose `associatedFields` equal `parent`'s values, with a provider from the
  /// decoder's ``ModelDecodingContext`` (`decoder.userInfo[.modelDecodingContext]`).
  ///
  /// - Parameters:
  ///   - associatedFields: The child's FK field names, in the parent's key order.
  ///   - parent: The parent's identifier components, in key order.
  public func decodeLazyList<M: Model>(
    _ type: M.Type, forKey key: Key, associatedFields: [String], parent: [IdentifierComponent],
    decoder: any Decoder
  ) throws -> LazyList<M> {
    let values = parent.map(\.value)
    let context = decoder.userInfo[.modelDecodingContext] as? any ModelDecodingContext
    let provider = context?.listProvider(for: M.self, associatedFields: associatedFields, associatedIdentifiers: values)
    if contains(key), try !decodeNil(forKey: key) {
      let decoded = try decode(LazyList<M>.self, forKey: key)
      let next = decoded.storage.withLock { $0.nextCursor }
      return LazyList(
        firstPage: (try? decoded.elements) ?? [], nextCursor: next, associatedIdentifiers: values,
        associatedFields: associatedFields, provider: provider)
    }
    return LazyList(associatedIdentifiers: values, associatedFields: associatedFields, provider: provider)
  }

  /// Decodes a `@belongsTo`/`@hasOne` field of a generated model (see ``LazyReference/init(from:)``).
  ///
  /// A missing key or `null` is an empty loaded reference, unless `associatedFields` is given (a
  /// `@hasOne(references:)` whose FK lives on `M`): then a missing key is a not-loaded reference to
  /// the `M` whose `associatedFields` equal `parent`'s values.
  public func decodeLazyReference<M: Model>(
    _ type: M.Type, forKey key: Key, associatedFields: [String]? = nil, parent: [IdentifierComponent] = [],
    decoder: any Decoder
  ) throws -> LazyReference<M> {
    if contains(key) {
      return try decode(LazyReference<M>.self, forKey: key)
    }
    guard let associatedFields, !associatedFields.isEmpty else { return LazyReference(nil as M?) }
    let identifiers = zip(associatedFields, parent).map { IdentifierComponent(name: $0, value: $1.value) }
    if let context = decoder.userInfo[.modelDecodingContext] as? any ModelDecodingContext {
      return LazyReference(identifiers: identifiers, provider: context.referenceProvider(for: M.self, identifiers: identifiers))
    }
    return LazyReference(identifiers: identifiers)
  }
}
