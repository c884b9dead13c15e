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
    /// A load of this reference alone, run by its own task (which resolves the promise).
    case single(BatchPromise<M?>)
    /// A batch of ``loadAll(_:)``; the result is the entry for these identifiers.
    case batch(BatchPromise<[[IdentifierComponent]: M?]>, [IdentifierComponent])

    func value() async throws -> M? {
      switch self {
      case .single(let promise): return try await promise.value()
      case .batch(let promise, let identifiers):
        return try await promise.value()[identifiers] ?? nil
      }
    }
  }

  /// A loaded model, boxed: a reference that is not loaded stays small whatever the size of `M`
  /// (a query decodes one reference per row).
  private final class Loaded: Sendable {
    let model: M?
    init(_ model: M?) { self.model = model }
  }

  /// A load in flight, boxed for ``ReferenceLockState/payload``.
  private final class InFlight: Sendable {
    let pending: Pending
    init(_ pending: Pending) { self.pending = pending }
  }

  /// The state behind the lock; its payload is a `Loaded` (or `nil` for no model) when loaded, an
  /// `InFlight` while loading. Only read and written inside ``withLock(_:)``: it is stored in the
  /// reference itself and guarded by one of ``StripedLocks``' mutexes, so making a reference is one
  /// allocation (a query decodes one reference per row; a lock of its own was a second allocation
  /// and a `pthread_mutex_init`/`destroy` pair, issue 11's query-all row).
  nonisolated(unsafe) private var lockState: ReferenceLockState
  /// The identifiers the reference was made with; kept after loading so errors can name them.
  /// Never changes, so it is read without the lock.
  private let storedIdentifiers: [IdentifierComponent]?
  /// Boxed, so that a reference holds one pointer (references made together share the box) and
  /// copying or destroying it needs no metadata of the generic existential.
  private let sharedProvider: SharedModelProvider<M>?

  private var provider: (any ModelProvider<M>)? { sharedProvider?.provider }

  /// Runs `body` with exclusive access to ``lockState`` (this reference's stripe of
  /// ``StripedLocks``). Not reentrant, and `body` must take no other reference's lock (two
  /// references may share a stripe): every body here only reads and assigns the state.
  @inline(__always)
  private func withLock<Result>(_ body: (inout ReferenceLockState) throws -> Result) rethrows
    -> Result
  {
    try StripedLocks.withLock(for: self) { try body(&lockState) }
  }

  /// A loaded reference to `model` (`nil` for none). Its ``identifiers`` are `model`'s identifier
  /// components, or `nil` for an empty reference.
  public init(_ model: M?) {
    lockState = ReferenceLockState(phase: .loaded, payload: model.map { Loaded($0) })
    storedIdentifiers = model?.identifier.components
    sharedProvider = nil
  }

  /// A not-loaded reference that loads through `provider`.
  ///
  /// - Parameters:
  ///   - identifiers: Field name/value pairs of `M` as ``ModelProvider/load(identifiers:)`` takes them.
  ///   - provider: What loads the model on the first ``get()``.
  public convenience init(identifiers: [IdentifierComponent], provider: any ModelProvider<M>) {
    self.init(identifiers: identifiers, sharedProvider: SharedModelProvider(provider))
  }

  /// A not-loaded reference that loads through `sharedProvider`'s provider: the way to make many
  /// references over one provider (a store decoding a query's rows makes one box for them all).
  /// ``loadAll(_:)`` groups references with the same box without comparing providers.
  ///
  /// - Parameters:
  ///   - identifiers: Field name/value pairs of `M` as ``ModelProvider/load(identifiers:)`` takes them.
  ///   - sharedProvider: The box of the provider that loads the model, shared by references
  ///     decoded together.
  public init(identifiers: [IdentifierComponent], sharedProvider: SharedModelProvider<M>) {
    lockState = ReferenceLockState(phase: .notLoaded, payload: nil)
    storedIdentifiers = identifiers
    self.sharedProvider = sharedProvider
  }

  /// A not-loaded reference with no provider: ``get()`` throws ``LazyModelError/noProvider(model:identifiers:)``.
  public init(identifiers: [IdentifierComponent]) {
    lockState = ReferenceLockState(phase: .notLoaded, payload: nil)
    storedIdentifiers = identifiers
    sharedProvider = nil
  }

  /// The current state, read without loading. A reference whose load is in flight is still
  /// `.notLoaded`.
  public var state: State {
    withLock { storage in
      switch storage.phase {
      case .notLoaded, .loading: return .notLoaded(identifiers: storedIdentifiers ?? [])
      case .loaded: return .loaded(Self.model(storage))
      }
    }
  }

  /// `true` once the reference holds its model (or `nil`); read without loading.
  public var isLoaded: Bool {
    withLock { storage in
      storage.phase == .loaded
    }
  }

  /// The identifiers this reference points at, read without loading: those it was created or
  /// decoded with (kept after it loads, also when nothing was found), or the components of the model
  /// it was created with. `nil` only for an empty reference made from `nil` or decoded from `null`.
  public var identifiers: [IdentifierComponent]? { storedIdentifiers }

  /// Whether ``identifiers`` is `nil` (an empty reference), read without copying the array
  /// (generated `init(from:)` asks it once per decoded row).
  @usableFromInline var isEmptyReference: Bool { storedIdentifiers == nil }

  /// The identifiers that name the referenced model exactly as its loaded model's key would, read
  /// without building the model: those of a reference with no provider (made from a model, whose
  /// identifier components they are, or from identifiers alone: neither ever changes) and those
  /// of a reference that has not loaded; `nil` for a reference that loaded through its provider
  /// (its model is then the source) and for an empty one. What a store writes as a foreign key
  /// without the lock's loaded state or the model's `identifier` (issue 11's save path).
  ///
  /// Thread-safety: any thread; takes the lock only for a reference with a provider.
  package var identifiersWithoutModel: [IdentifierComponent]? {
    guard let storedIdentifiers else { return nil }
    if sharedProvider == nil { return storedIdentifiers }
    return withLock { $0.phase == .loaded } ? nil : storedIdentifiers
  }

  /// The typed identifier of the model this reference points at, read without loading (the
  /// typed form of ``identifiers``: `comment.postReference.identifier?.id`). `nil` for an empty
  /// reference, or when the identifiers are not `M`'s primary key (a `@hasOne(references:)`
  /// holds the child's FK fields instead).
  public var identifier: M.Identifier? {
    storedIdentifiers.flatMap { M.Identifier(components: $0) }
  }

  /// A not-loaded reference to the `M` with `identifier` (an empty one for `nil`), made without
  /// the model: what a generated `set<Field>(identifier:)` stores. It has no provider, so
  /// ``get()`` throws ``LazyModelError/noProvider(model:identifiers:)`` until the owning model is
  /// saved and read back through a store or the API; saving it writes the identifier's values
  /// as the foreign key.
  public convenience init(identifier: M.Identifier?) {
    if let identifier {
      self.init(identifiers: identifier.components)
    } else {
      self.init(nil as M?)
    }
  }

  /// The model, loading it on first use.
  ///
  /// Concurrent callers share one in-flight ``ModelProvider/load(identifiers:)`` call. The load runs
  /// in a task of its own, so cancelling a caller does not cancel the shared load; that task starts
  /// on the first caller's thread (`Task.immediate`), so a provider that answers without suspending
  /// (a local store) costs no thread switch. A provider whose
  /// ``ModelProvider/loadWithoutSuspending(identifiers:)`` answers (a DataStore read from a task
  /// that runs on the store's `readerExecutor`) loads on the caller's thread with no task at all;
  /// concurrent callers still share that one load.
  ///
  /// - Returns: The referenced model, or `nil` when the reference is empty or nothing matches.
  /// - Throws: The provider's error (the reference goes back to not loaded, so a later call
  ///   retries), or ``LazyModelError/noProvider(model:identifiers:)`` when it was decoded without a
  ///   ``ModelDecodingContext``.
  public func get() async throws -> M? {
    let access: Access = try withLock { storage in
      switch storage.phase {
      case .loaded:
        return .loaded(Self.model(storage))
      case .loading:
        return .waiting(Self.pending(storage))
      case .notLoaded:
        guard let provider else {
          throw LazyModelError.noProvider(model: M.modelName, identifiers: storedIdentifiers ?? [])
        }
        let promise = BatchPromise<M?>()
        storage.startLoading(InFlight(.single(promise)))
        return .start(promise, generation: storage.generation, provider: provider)
      }
    }
    switch access {
    case .loaded(let model): return model
    case .waiting(let pending): return try await pending.value()
    case .start(let promise, let generation, let provider):
      // A provider that can answer on this thread (a local store's reader thread) loads right
      // here: no task, no continuation, no thread switch.
      let immediate: M??
      do {
        immediate = try provider.loadWithoutSuspending(identifiers: storedIdentifiers ?? [])
      } catch {
        finishLoad(generation: generation, loaded: nil)
        promise.resolve(.failure(error))
        throw error
      }
      if let model = immediate {
        finishLoad(generation: generation, loaded: .some(model.map { Loaded($0) }))
        promise.resolve(.success(model))
        return model
      }
      // Started outside the lock: the task runs here until it first suspends, and it takes the
      // lock itself when it finishes.
      return try await startLoad(promise, generation: generation, through: provider).value
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
  /// References are grouped by provider: the same ``SharedModelProvider`` box, the same class
  /// instance, or equal values for providers that are `Hashable` structs; any other provider forms
  /// a group of its own. Within a group each
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
    // A duplicate reference needs no set to drop it: it lands in the same group, and `loadBatch`
    // claims it once (the second claim finds it loading already).
    var groups: [(provider: any ModelProvider<M>, references: [LazyReference<M>])] = []
    var groupIndex: [AnyHashable: Int] = [:]
    // Group of each provider box seen: references made together share a box, so most references
    // are grouped by one pointer comparison, without hashing their provider.
    var groupOfBox: [ObjectIdentifier: Int] = [:]
    var last: (box: ObjectIdentifier, group: Int)?
    for reference in references {
      guard let box = reference.sharedProvider, !reference.isLoaded else { continue }
      let boxIdentity = ObjectIdentifier(box)
      if let last, last.box == boxIdentity {
        groups[last.group].references.append(reference)
        continue
      }
      let group: Int
      if let known = groupOfBox[boxIdentity] {
        group = known
        groups[group].references.append(reference)
      } else {
        let key = batchKey(of: box.provider)
        if let key, let known = groupIndex[key] {
          group = known
          groups[group].references.append(reference)
        } else {
          group = groups.count
          if let key { groupIndex[key] = group }
          groups.append((box.provider, [reference]))
        }
      }
      groupOfBox[boxIdentity] = group
      last = (boxIdentity, group)
    }
    try await withThrowingTaskGroup(of: Void.self) { taskGroup in
      for group in groups {
        taskGroup.addTask { try await loadBatch(group.references, through: group.provider) }
      }
      try await taskGroup.waitForAll()
    }
    var models: [M?] = []
    models.reserveCapacity(references.count)
    for reference in references {
      // Loaded by now, unless a newer load replaced the batch's: then wait for that one.
      if let model = reference.loadedModel {
        models.append(model)
      } else {
        models.append(try await reference.get())
      }
    }
    return models
  }

  /// `.some(model)` when loaded, `nil` when not (read under the lock, without loading).
  private var loadedModel: M?? {
    withLock { storage in storage.phase == .loaded ? .some(Self.model(storage)) : nil }
  }

  /// The model of a loaded `state`.
  private static func model(_ state: ReferenceLockState) -> M? {
    guard let payload = state.payload else { return nil }
    return unsafeDowncast(payload, to: Loaded.self).model
  }

  /// The load in flight of a loading `state`.
  private static func pending(_ state: ReferenceLockState) -> Pending {
    // A loading state always has its `InFlight` payload.
    unsafeDowncast(state.payload.unsafelyUnwrapped, to: InFlight.self).pending
  }

  /// Claims the not-loaded references of one provider group, loads them in one batch call, records
  /// each reference's outcome, then wakes the callers waiting on the batch.
  private static func loadBatch(
    _ references: [LazyReference<M>], through provider: any ModelProvider<M>
  ) async throws {
    let promise = BatchPromise<[[IdentifierComponent]: M?]>()
    var batch: [[IdentifierComponent]] = []
    // The position in `batch` of each distinct identifier set. References decoded together often
    // share one identifiers array (the children of one parent), so the array's storage address is
    // tried before hashing its contents; the claimed references keep every array alive meanwhile,
    // so no address is reused.
    var positionOfStorage: [UnsafeRawPointer: Int] = [:]
    var positionOfIdentifiers: [[IdentifierComponent]: Int] = [:]
    // One in-flight payload per distinct identifier set, shared by the references claimed for it
    // (one allocation per distinct key, not per reference).
    var inFlights: [InFlight] = []
    var claimed: [(reference: LazyReference<M>, position: Int, generation: UInt64)] = []
    claimed.reserveCapacity(references.count)
    for reference in references {
      // Never changes, so it is read before taking the lock.
      let identifiers = reference.storedIdentifiers ?? []
      let storage = identifiers.withUnsafeBufferPointer {
        $0.baseAddress.map(UnsafeRawPointer.init)
      }
      let known = storage.flatMap { positionOfStorage[$0] } ?? positionOfIdentifiers[identifiers]
      let inFlight = known.map { inFlights[$0] } ?? InFlight(.batch(promise, identifiers))
      let generation: UInt64? = reference.withLock { storage in
        guard storage.phase == .notLoaded else { return nil }
        storage.startLoading(inFlight)
        return storage.generation
      }
      guard let generation else { continue }
      let position: Int
      if let known {
        position = known
      } else {
        position = batch.count
        positionOfIdentifiers[identifiers] = position
        batch.append(identifiers)
        inFlights.append(inFlight)
      }
      if let storage { positionOfStorage[storage] = position }
      claimed.append((reference, position, generation))
    }
    guard !batch.isEmpty else { return }
    do {
      let models = try await provider.load(batch: batch)
      guard models.count == batch.count else {
        throw BatchLoadError(model: M.modelName, requested: batch.count, returned: models.count)
      }
      var results: [[IdentifierComponent]: M?] = [:]
      results.reserveCapacity(batch.count)
      for (identifiers, model) in zip(batch, models) { results[identifiers] = model }
      // References with the same identifiers share one box.
      let boxes = models.map { $0.map { Loaded($0) } }
      for claim in claimed {
        claim.reference.finishLoad(generation: claim.generation, loaded: boxes[claim.position])
      }
      promise.resolve(.success(results))
    } catch {
      for claim in claimed {
        claim.reference.finishLoad(generation: claim.generation, loaded: nil)
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

  /// Starts the task of a single load that the caller has marked in flight (with `promise` and
  /// `generation`): it records its own outcome (loaded on success, not loaded again on failure,
  /// unless a newer load replaced it) and then wakes the other callers waiting on `promise`.
  private func startLoad(
    _ promise: BatchPromise<M?>, generation: UInt64, through provider: any ModelProvider<M>
  ) -> Task<M?, any Error> {
    let identifiers = storedIdentifiers ?? []
    return Task.immediate {
      do {
        let model = try await provider.load(identifiers: identifiers)
        self.finishLoad(generation: generation, loaded: .some(model.map { Loaded($0) }))
        promise.resolve(.success(model))
        return model
      } catch {
        self.finishLoad(generation: generation, loaded: nil)
        promise.resolve(.failure(error))
        throw error
      }
    }
  }

  /// Ends load `generation` (unless a newer load replaced it): loaded with the box in `loaded`
  /// (`.some(nil)`: no model), or not loaded again when `loaded` is `nil` (the load failed).
  private func finishLoad(generation: UInt64, loaded: Loaded??) {
    withLock { storage in
      guard storage.phase == .loading, storage.generation == generation else { return }
      if let box = loaded {
        storage.phase = .loaded
        storage.payload = box
      } else {
        storage.phase = .notLoaded
        storage.payload = nil
      }
    }
  }

  /// Decodes `null` as an empty loaded reference, an object holding only `M`'s key fields (plus
  /// `__typename`) as a not-loaded reference whose provider comes from the decoder's
  /// ``ModelDecodingContext``, and any other object as a loaded model.
  ///
  /// A model whose encoded form holds nothing but its key fields therefore decodes as not loaded;
  /// loading it reads it again from the decoding source.
  ///
  /// - Throws: `DecodingError` when the value is neither `null`, key fields, nor a model `M`;
  ///   ``TypenameMismatch`` when the object's `__typename` names another type.
  public convenience init(from decoder: any Decoder) throws {
    try self.init(from: decoder, identifyingFields: M.schema.primaryKey)
  }

  /// Decodes as ``init(from:)``, recognising a not-loaded reference by `identifyingFields` (the
  /// primary key of `M`, or the FK fields of a `@hasOne(references:)`).
  @usableFromInline
  convenience init(from decoder: any Decoder, identifyingFields: [String]) throws {
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self.init(nil as M?)
      return
    }
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    try container.checkTypename(of: M.self)
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

  /// The not-loaded reference that the foreign-key fields `targetNames` of the object `decoder`
  /// reads hold (paired in order with the primary key of `M`), or `nil` when a target name is
  /// absent or `null`, or their count is not that of the key.
  ///
  /// - Throws: `DecodingError` when a value does not fit its key field's type.
  @usableFromInline
  static func fromForeignKeys(_ targetNames: [String], decoder: any Decoder) throws
    -> LazyReference<M>?
  {
    let key = M.schema.primaryKey
    guard key.count == targetNames.count,
      let container = try? decoder.container(keyedBy: AnyCodingKey.self)
    else { return nil }
    var identifiers: [IdentifierComponent] = []
    identifiers.reserveCapacity(key.count)
    for (target, name) in zip(targetNames, key) {
      let codingKey = AnyCodingKey(target)
      guard container.contains(codingKey), try !container.decodeNil(forKey: codingKey) else {
        return nil
      }
      let value: KeyValue
      if let type = M.schema.keyFieldType(named: name) {
        value = try container.decodeKeyValue(of: type, forKey: codingKey)
      } else {
        value = try container.decode(KeyValue.self, forKey: codingKey)
      }
      identifiers.append(IdentifierComponent(name: name, value: value))
    }
    if let context = decoder.userInfo[.modelDecodingContext] as? any ModelDecodingContext {
      return LazyReference(
        identifiers: identifiers,
        provider: context.referenceProvider(for: M.self, identifiers: identifiers))
    }
    return LazyReference(identifiers: identifiers)
  }

  /// Encodes a loaded model in full, an empty reference as `null`, and a not-loaded reference
  /// (also one whose load is in flight) as an object of its identifiers, so decoding it through the
  /// same source gives a loadable reference. A reference that was made with identifiers and
  /// loaded `nil` (its target does not exist, or not yet) still encodes its identifiers: the key
  /// it holds is kept, never written back as `null` (issue 14).
  ///
  /// - Throws: What the model's or the encoder's `encode` throws.
  public func encode(to encoder: any Encoder) throws {
    switch state {
    case .loaded(let model?):
      try model.encode(to: encoder)
    case .loaded(nil):
      if let identifiers = storedIdentifiers, !identifiers.isEmpty {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for component in identifiers {
          try container.encode(component.value, forKey: AnyCodingKey(component.name))
        }
        return
      }
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
  /// What ``get()`` does once it has left the lock: return a loaded value, wait for a load in
  /// flight, or start the load it has marked in flight.
  fileprivate enum Access {
    case loaded(M?)
    case waiting(Pending)
    case start(BatchPromise<M?>, generation: UInt64, provider: any ModelProvider<M>)
  }
}

/// One model provider shared by many ``LazyReference``s (for example every reference one query
/// decodes): each reference holds a pointer to this box instead of its own copy of the provider,
/// and ``LazyReference/loadAll(_:)`` puts references with the same box in one batch.
///
/// Thread-safety: immutable, `Sendable`.
public final class SharedModelProvider<M: Model>: Sendable {
  /// The provider the references load through.
  public let provider: any ModelProvider<M>

  /// A box holding `provider`.
  public init(_ provider: any ModelProvider<M>) { self.provider = provider }
}

/// The lock-guarded state of a ``LazyReference``. It is not generic, so making a reference looks
/// up no generic type metadata (a query makes one reference per row); the reference interprets the
/// payload.
struct ReferenceLockState: Sendable {
  enum Phase: Sendable {
    case notLoaded, loading, loaded
  }

  var phase: Phase
  /// Loaded: the box of the model (`nil` when there is none). Loading: the box of the load in
  /// flight. Not loaded: `nil`.
  var payload: (any AnyObject & Sendable)?
  /// Increments with every load started, so a finished load only updates its own state.
  var generation: UInt64 = 0

  /// Marks a new load in flight.
  mutating func startLoading(_ inFlight: any AnyObject & Sendable) {
    generation &+= 1
    phase = .loading
    payload = inFlight
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
