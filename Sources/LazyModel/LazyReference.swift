/// A belongsTo/hasOne value that is either loaded (a model or `nil`) or not loaded (only the
/// identifiers of the referenced model).
///
/// Thread-safety: a `Sendable` final class; its state sits behind one lock (a `pthread_mutex_t`). ``get()`` loads at
/// most once: concurrent callers share one in-flight load, and its result is stored even when every
/// caller was cancelled meanwhile; a failed load is not cached (the reference goes back to not
/// loaded, so the next call retries). ``loadAll(_:)`` loads many references of one type with one
/// ``ModelProvider/load(batch:)`` call per provider.
public final class LazyReference<M: Model>: Codable, Sendable {
  /// What a reference holds.
  public enum State: Sendable {
    /// Not loaded: field name/value pairs of `M` (its primary key, or for a `@hasOne(references:)`
    /// the FK fields of `M` that point at the parent).
    case notLoaded(identifiers: [IdentifierComponent])
    /// Loaded: the model, or `nil` when there is none.
    case loaded(M?)
  }

  /// What callers of an in-flight load wait for.
  fileprivate enum Pending {
    /// A load of this reference alone, run by its own task.
    case single(Task<M?, any Error>)
    /// A batch of ``loadAll(_:)``; the result is the entry for these identifiers.
    case batch(BatchPromise<[[IdentifierComponent]: M?]>, [IdentifierComponent])

    func value() async throws -> M? {
      switch self {
      case .single(let task): return try await task.value
      case .batch(let promise, let identifiers):
        return try await promise.value()[identifiers] ?? nil
      }
    }
  }

  private enum Phase {
    case notLoaded
    case loading(Pending, generation: UInt64)
    case loaded(M?)
  }

  private struct Storage {
    var phase: Phase
    /// The identifiers the reference was made with; kept after loading so errors can name them.
    var identifiers: [IdentifierComponent]?
    /// Increments with every load started, so a finished load only updates its own state.
    var generation: UInt64 = 0
  }

  private let storage: Locked<Storage>
  private let provider: (any ModelProvider<M>)?

  /// A loaded reference to `model` (`nil` for none). Its ``identifiers`` are `model`'s identifier
  /// components, or `nil` for an empty reference.
  public init(_ model: M?) {
    storage = Locked(Storage(phase: .loaded(model), identifiers: model?.identifier.components))
    provider = nil
  }

  /// A not-loaded reference that loads through `provider`.
  ///
  /// - Parameter identifiers: Field name/value pairs of `M` as ``ModelProvider/load(identifiers:)`` takes them.
  public init(identifiers: [IdentifierComponent], provider: any ModelProvider<M>) {
    storage = Locked(Storage(phase: .notLoaded, identifiers: identifiers))
    self.provider = provider
  }

  /// A not-loaded reference with no provider: ``get()`` throws ``LazyModelError/noProvider(model:identifiers:)``.
  public init(identifiers: [IdentifierComponent]) {
    storage = Locked(Storage(phase: .notLoaded, identifiers: identifiers))
    provider = nil
  }

  /// The current state, read without loading. A reference whose load is in flight is still
  /// `.notLoaded`.
  public var state: State {
    storage.withLock { storage in
      switch storage.phase {
      case .notLoaded, .loading: return .notLoaded(identifiers: storage.identifiers ?? [])
      case .loaded(let model): return .loaded(model)
      }
    }
  }

  /// `true` once the reference holds its model (or `nil`); read without loading.
  public var isLoaded: Bool {
    storage.withLock { storage in
      if case .loaded = storage.phase { return true }
      return false
    }
  }

  /// The identifiers this reference points at, read without loading: those it was created or
  /// decoded with (kept after it loads, also when nothing was found), or the components of the model
  /// it was created with. `nil` only for an empty reference made from `nil` or decoded from `null`.
  public var identifiers: [IdentifierComponent]? {
    storage.withLock { $0.identifiers }
  }

  /// The model, loading it on first use.
  ///
  /// Concurrent callers share one in-flight ``ModelProvider/load(identifiers:)`` call. Cancelling a
  /// caller does not cancel the shared load.
  ///
  /// - Returns: The referenced model, or `nil` when the reference is empty or nothing matches.
  /// - Throws: The provider's error (the reference goes back to not loaded, so a later call
  ///   retries), or ``LazyModelError/noProvider(model:identifiers:)`` when it was decoded without a
  ///   ``ModelDecodingContext``.
  public func get() async throws -> M? {
    let access: Access = try storage.withLock { storage in
      switch storage.phase {
      case .loaded(let model):
        return .loaded(model)
      case .loading(let pending, _):
        return .waiting(pending)
      case .notLoaded:
        let identifiers = storage.identifiers ?? []
        guard let provider else {
          throw LazyModelError.noProvider(model: M.modelName, identifiers: identifiers)
        }
        return .waiting(startLoad(&storage) { try await provider.load(identifiers: identifiers) })
      }
    }
    switch access {
    case .loaded(let model): return model
    case .waiting(let pending): return try await pending.value()
    }
  }

  /// The model, which must exist.
  ///
  /// - Throws: ``LazyModelError/notFound(model:identifiers:)`` naming `M` and the identifiers
  ///   (``identifiers``, empty for a reference made from `nil`) when nothing matches, or what
  ///   ``get()`` throws.
  public func require() async throws -> M {
    if let model = try await get() { return model }
    throw LazyModelError.notFound(model: M.modelName, identifiers: identifiers ?? [])
  }

  /// Loads every not-loaded reference of `references` with one ``ModelProvider/load(batch:)`` call
  /// per provider, then returns each reference's model.
  ///
  /// References are grouped by provider: the same class instance, or equal values for providers
  /// that are `Hashable` structs; any other provider forms a group of its own. Within a group each
  /// distinct identifier set is sent once. A reference listed twice is loaded once; references that
  /// are loaded already are not sent; references whose load is in flight (a concurrent ``get()``)
  /// are awaited instead. Concurrent ``get()`` calls on a reference in the batch share the batch.
  ///
  /// - Parameter references: References of one model type, in any order; duplicates allowed.
  /// - Returns: One model (or `nil`) per element of `references`, in the same order.
  /// - Throws: The first provider error (those references go back to not loaded),
  ///   ``BatchLoadError`` when a provider returns the wrong number of results, or
  ///   ``LazyModelError/noProvider(model:identifiers:)`` for a not-loaded reference without provider.
  @discardableResult
  public static func loadAll(_ references: [LazyReference<M>]) async throws -> [M?] {
    var seen: Set<ObjectIdentifier> = []
    var groups: [(provider: any ModelProvider<M>, references: [LazyReference<M>])] = []
    var groupIndex: [AnyHashable: Int] = [:]
    for reference in references where seen.insert(ObjectIdentifier(reference)).inserted {
      guard let provider = reference.provider, !reference.isLoaded else { continue }
      if let key = batchKey(of: provider) {
        if let index = groupIndex[key] {
          groups[index].references.append(reference)
          continue
        }
        groupIndex[key] = groups.count
      }
      groups.append((provider, [reference]))
    }
    try await withThrowingTaskGroup(of: Void.self) { taskGroup in
      for group in groups {
        taskGroup.addTask { try await loadBatch(group.references, through: group.provider) }
      }
      try await taskGroup.waitForAll()
    }
    var models: [M?] = []
    models.reserveCapacity(references.count)
    for reference in references { models.append(try await reference.get()) }
    return models
  }

  /// Claims the not-loaded references of one provider group, loads them in one batch call, records
  /// each reference's outcome, then wakes the callers waiting on the batch.
  private static func loadBatch(
    _ references: [LazyReference<M>], through provider: any ModelProvider<M>
  ) async throws {
    let promise = BatchPromise<[[IdentifierComponent]: M?]>()
    var batch: [[IdentifierComponent]] = []
    var distinct: Set<[IdentifierComponent]> = []
    var claimed:
      [(reference: LazyReference<M>, identifiers: [IdentifierComponent], generation: UInt64)] = []
    for reference in references {
      let claim: ([IdentifierComponent], UInt64)? = reference.storage.withLock { storage in
        guard case .notLoaded = storage.phase else { return nil }
        let identifiers = storage.identifiers ?? []
        storage.generation &+= 1
        storage.phase = .loading(.batch(promise, identifiers), generation: storage.generation)
        return (identifiers, storage.generation)
      }
      guard let (identifiers, generation) = claim else { continue }
      claimed.append((reference, identifiers, generation))
      if distinct.insert(identifiers).inserted { batch.append(identifiers) }
    }
    guard !batch.isEmpty else { return }
    do {
      let models = try await provider.load(batch: batch)
      guard models.count == batch.count else {
        throw BatchLoadError(model: M.modelName, requested: batch.count, returned: models.count)
      }
      var results: [[IdentifierComponent]: M?] = [:]
      for (identifiers, model) in zip(batch, models) { results[identifiers] = model }
      for claim in claimed {
        claim.reference.finishLoad(
          generation: claim.generation, with: .loaded(results[claim.identifiers] ?? nil))
      }
      promise.resolve(.success(results))
    } catch {
      for claim in claimed {
        claim.reference.finishLoad(generation: claim.generation, with: .notLoaded)
      }
      promise.resolve(.failure(error))
      throw error
    }
  }

  /// The key that groups references for one batch call: class identity, or the value of a
  /// `Hashable` provider.
  private static func batchKey(of provider: any ModelProvider<M>) -> AnyHashable? {
    if type(of: provider) is AnyObject.Type {
      return AnyHashable(ObjectIdentifier(provider as AnyObject))
    }
    if let hashable = provider as? any Hashable { return AnyHashable(hashable) }
    return nil
  }

  /// Starts a load task (called with the lock held) that records its own outcome: loaded on
  /// success, not loaded again on failure, unless a newer load replaced it.
  private func startLoad(
    _ storage: inout Storage, _ load: @escaping @Sendable () async throws -> M?
  ) -> Pending {
    storage.generation &+= 1
    let generation = storage.generation
    let task = Task<M?, any Error> {
      do {
        let model = try await load()
        self.finishLoad(generation: generation, with: .loaded(model))
        return model
      } catch {
        self.finishLoad(generation: generation, with: .notLoaded)
        throw error
      }
    }
    storage.phase = .loading(.single(task), generation: generation)
    return .single(task)
  }

  private func finishLoad(generation: UInt64, with phase: Phase) {
    storage.withLock { storage in
      guard case .loading(_, let current) = storage.phase, current == generation else { return }
      storage.phase = phase
    }
  }

  /// Decodes `null` as an empty loaded reference, an object holding only `M`'s key fields (plus
  /// `__typename`) as a not-loaded reference whose provider comes from the decoder's
  /// ``ModelDecodingContext``, and any other object as a loaded model.
  ///
  /// A model whose encoded form holds nothing but its key fields therefore decodes as not loaded;
  /// loading it reads it again from the decoding source.
  ///
  /// - Throws: `DecodingError` when the value is neither `null`, key fields, nor a model `M`.
  public convenience init(from decoder: any Decoder) throws {
    try self.init(from: decoder, identifyingFields: M.schema.primaryKey)
  }

  /// Decodes as ``init(from:)``, recognising a not-loaded reference by `identifyingFields` (the
  /// primary key of `M`, or the FK fields of a `@hasOne(references:)`).
  convenience init(from decoder: any Decoder, identifyingFields: [String]) throws {
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self.init(nil as M?)
      return
    }
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    let keys = Set(container.allKeys.map(\.stringValue)).subtracting(["__typename"])
    if !identifyingFields.isEmpty, keys == Set(identifyingFields) {
      var identifiers: [IdentifierComponent] = []
      for name in identifyingFields {
        let key = AnyCodingKey(name)
        let value: KeyValue
        if let type = M.schema.keyFieldType(named: name) {
          value = try container.decodeKeyValue(of: type, forKey: key)
        } else {
          value = try container.decode(KeyValue.self, forKey: key)
        }
        identifiers.append(IdentifierComponent(name: name, value: value))
      }
      if let context = decoder.userInfo[.modelDecodingContext] as? any ModelDecodingContext {
        self.init(
          identifiers: identifiers,
          provider: context.referenceProvider(for: M.self, identifiers: identifiers))
      } else {
        self.init(identifiers: identifiers)
      }
      return
    }
    self.init(try M(from: decoder))
  }

  /// Encodes a loaded model in full, an empty reference as `null`, and a not-loaded reference
  /// (also one whose load is in flight) as an object of its identifiers, so decoding it through the
  /// same source gives a loadable reference.
  ///
  /// - Throws: What the model's or the encoder's `encode` throws.
  public func encode(to encoder: any Encoder) throws {
    switch state {
    case .loaded(let model?):
      try model.encode(to: encoder)
    case .loaded(nil):
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .notLoaded(let identifiers):
      var container = encoder.container(keyedBy: AnyCodingKey.self)
      for component in identifiers {
        try container.encode(component.value, forKey: AnyCodingKey(component.name))
      }
    }
  }
}

extension LazyReference {
  /// What ``get()`` does under the lock: return a loaded value, or wait for a load task.
  fileprivate enum Access {
    case loaded(M?)
    case waiting(Pending)
  }
}

/// A provider's ``ModelProvider/load(batch:)`` returned a number of results different from the
/// number of identifier sets it was given (a provider bug; the references stay not loaded).
public struct BatchLoadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The GraphQL type name of the model loaded.
  public let model: String
  /// How many identifier sets were sent.
  public let requested: Int
  /// How many results came back.
  public let returned: Int

  /// Creates the error.
  public init(model: String, requested: Int, returned: Int) {
    self.model = model
    self.requested = requested
    self.returned = returned
  }

  /// A message naming the model and both counts.
  public var description: String {
    "load(batch:) of \(model) returned \(returned) results for \(requested) identifier sets"
  }
}

/// A value set once and awaited by any number of tasks (the result of one batch load).
final class BatchPromise<Value: Sendable>: Sendable {
  private enum State {
    case pending([CheckedContinuation<Value, any Error>])
    case resolved(Result<Value, any Error>)
  }

  private let state = Locked(State.pending([]))

  /// Waits for the result.
  func value() async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      let ready: Result<Value, any Error>? = state.withLock { state in
        switch state {
        case .resolved(let result): return result
        case .pending(var waiting):
          waiting.append(continuation)
          state = .pending(waiting)
          return nil
        }
      }
      if let ready { continuation.resume(with: ready) }
    }
  }

  /// Sets the result once and wakes every waiter; later calls are ignored.
  func resolve(_ result: Result<Value, any Error>) {
    let waiting: [CheckedContinuation<Value, any Error>] = state.withLock { state in
      guard case .pending(let waiting) = state else { return [] }
      state = .resolved(result)
      return waiting
    }
    for continuation in waiting { continuation.resume(with: result) }
  }
}

/// A coding key made from any string.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
  /// The key text.
  public let stringValue: String
  /// Always `nil`.
  public var intValue: Int? { nil }
  /// A key named `stringValue`.
  public init(_ stringValue: String) { self.stringValue = stringValue }
  /// A key named `stringValue`.
  public init?(stringValue: String) { self.stringValue = stringValue }
  /// A key named by the decimal text of `intValue`.
  public init?(intValue: Int) { self.stringValue = String(intValue) }
}

extension ModelSchema {
  /// The type of a key or FK field named `name`: a field of this schema, or a target name of one
  /// of its `@belongsTo`/`@hasOne` fields (typed after the associated field of the other model).
  /// `nil` when neither names it.
  public func keyFieldType(named name: String) -> ModelFieldType? {
    if let field = field(named: name), field.association == nil { return field.type }
    for field in fields {
      guard case .model(let other) = field.type else { continue }
      switch field.association {
      case .belongsTo(let associated, let targets), .hasOne(let associated, let targets):
        if let index = targets.firstIndex(of: name), index < associated.count {
          return other.schema.field(named: associated[index])?.type
        }
      default:
        continue
      }
    }
    return nil
  }
}

extension KeyedDecodingContainer {
  /// Decodes a key value of a field of `type`: `Int`/`AWSTimestamp` as `.int`, `Float` as
  /// `.double`, `Boolean` as `.bool`, everything else (IDs, strings, enums, temporal text) as `.string`.
  ///
  /// - Throws: `DecodingError` when the JSON value does not have that type.
  public func decodeKeyValue(of type: ModelFieldType, forKey key: Key) throws -> KeyValue {
    switch type {
    case .scalar(.int), .scalar(.awsTimestamp): return .int(try decode(Int.self, forKey: key))
    case .scalar(.float): return .double(try decode(Double.self, forKey: key))
    case .scalar(.boolean): return .bool(try decode(Bool.self, forKey: key))
    default: return .string(try decode(String.self, forKey: key))
    }
  }
}

extension KeyValue {
  /// Encodes as the bare JSON value (string, number or boolean).
  public func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    switch self {
    case .string(let value): try single.encode(value)
    case .int(let value): try single.encode(value)
    case .double(let value): try single.encode(value)
    case .bool(let value): try single.encode(value)
    }
  }

  /// Decodes a bare JSON value; booleans become `.bool`, integers `.int`, other numbers `.double`,
  /// strings `.string`.
  ///
  /// - Throws: `DecodingError.typeMismatch` for `null`, arrays and objects.
  public init(from decoder: any Decoder) throws {
    let single = try decoder.singleValueContainer()
    if let value = try? single.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? single.decode(Int.self) {
      self = .int(value)
    } else if let value = try? single.decode(Double.self) {
      self = .double(value)
    } else {
      self = .string(try single.decode(String.self))
    }
  }
}
