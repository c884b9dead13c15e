import Synchronization

/// A belongsTo/hasOne value that is either loaded (a model or `nil`) or not loaded (only the
/// identifiers of the referenced model).
///
/// Thread-safety: a `Sendable` final class; its state sits behind one `Mutex`. ``get()`` loads at
/// most once: concurrent callers share one in-flight load; a failed load is not cached.
public final class LazyReference<M: Model>: Codable, Sendable {
  /// What a reference holds.
  public enum State: Sendable {
    /// Not loaded: field name/value pairs of `M` (its primary key, or for a `@hasOne(references:)`
    /// the FK fields of `M` that point at the parent).
    case notLoaded(identifiers: [IdentifierComponent])
    /// Loaded: the model, or `nil` when there is none.
    case loaded(M?)
  }

  private enum Storage {
    case notLoaded([IdentifierComponent])
    case loading([IdentifierComponent], Task<M?, any Error>)
    case loaded(M?)
  }

  private let storage: Mutex<Storage>
  private let provider: (any ModelProvider<M>)?

  /// A loaded reference to `model` (`nil` for none).
  public init(_ model: M?) {
    storage = Mutex(.loaded(model))
    provider = nil
  }

  /// A not-loaded reference that loads through `provider`.
  public init(identifiers: [IdentifierComponent], provider: any ModelProvider<M>) {
    storage = Mutex(.notLoaded(identifiers))
    self.provider = provider
  }

  /// A not-loaded reference with no provider: ``get()`` throws ``LazyModelError/noProvider(model:identifiers:)``.
  public init(identifiers: [IdentifierComponent]) {
    storage = Mutex(.notLoaded(identifiers))
    provider = nil
  }

  /// The current state, read without loading.
  public var state: State {
    storage.withLock { storage in
      switch storage {
      case .notLoaded(let identifiers), .loading(let identifiers, _): return .notLoaded(identifiers: identifiers)
      case .loaded(let model): return .loaded(model)
      }
    }
  }

  /// The model, loading it on first use.
  ///
  /// - Returns: The referenced model, or `nil` when the reference is empty or nothing matches.
  /// - Throws: The provider's error (the reference stays not loaded, so a later call retries), or
  ///   ``LazyModelError/noProvider(model:identifiers:)``.
  public func get() async throws -> M? {
    let task: Task<M?, any Error> = try storage.withLock { storage in
      switch storage {
      case .loaded(let model):
        return Task { model }
      case .loading(_, let task):
        return task
      case .notLoaded(let identifiers):
        guard let provider else {
          throw LazyModelError.noProvider(model: M.modelName, identifiers: identifiers)
        }
        let task = Task { try await provider.load(identifiers: identifiers) }
        storage = .loading(identifiers, task)
        return task
      }
    }
    do {
      let model = try await task.value
      storage.withLock { storage in
        if case .loading = storage { storage = .loaded(model) }
      }
      return model
    } catch {
      storage.withLock { storage in
        if case .loading(let identifiers, _) = storage { storage = .notLoaded(identifiers) }
      }
      throw error
    }
  }

  /// The model, which must exist.
  ///
  /// - Throws: ``LazyModelError/notFound(model:identifiers:)`` naming `M` and the identifiers when
  ///   nothing matches, or what ``get()`` throws.
  public func require() async throws -> M {
    if let model = try await get() { return model }
    let identifiers: [IdentifierComponent]
    switch state {
    case .notLoaded(let ids): identifiers = ids
    case .loaded: identifiers = lastIdentifiers
    }
    throw LazyModelError.notFound(model: M.modelName, identifiers: identifiers)
  }

  private var lastIdentifiers: [IdentifierComponent] { [] }

  /// Decodes `null` as an empty loaded reference, an object holding only `M`'s key fields (plus
  /// `__typename`) as a not-loaded reference whose provider comes from the decoder's
  /// ``ModelDecodingContext``, and any other object as a loaded model.
  public convenience init(from decoder: any Decoder) throws {
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self.init(nil as M?)
      return
    }
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    let keys = Set(container.allKeys.map(\.stringValue)).subtracting(["__typename"])
    let primaryKey = M.schema.primaryKey
    if !keys.isEmpty, keys.isSubset(of: Set(primaryKey)), keys.count == primaryKey.count {
      var identifiers: [IdentifierComponent] = []
      for name in primaryKey {
        guard let field = M.schema.field(named: name) else { continue }
        let value = try container.decodeKeyValue(of: field.type, forKey: AnyCodingKey(name))
        identifiers.append(IdentifierComponent(name: name, value: value))
      }
      if let context = decoder.userInfo[.modelDecodingContext] as? any ModelDecodingContext {
        self.init(identifiers: identifiers, provider: context.referenceProvider(for: M.self, identifiers: identifiers))
      } else {
        self.init(identifiers: identifiers)
      }
      return
    }
    self.init(try M(from: decoder))
  }

  /// Encodes a loaded model in full, an empty reference as `null`, and a not-loaded reference as an
  /// object of its identifiers (so decoding it through the same source gives a loadable reference).
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

extension KeyedDecodingContainer {
  /// Decodes a key value of a field of `type` (scalars, enums as their raw string).
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

  /// Decodes a bare JSON value; integers become `.int`, other numbers `.double`.
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
