import Foundation

/// A store of models built in code, kept in memory, that is also a ``ModelDecodingContext``: the
/// models it returns hold not-loaded references and lists that load from it.
///
/// It stores each model the way a database would: its data fields, each `@belongsTo`/`@hasOne`
/// that holds target names reduced to the referenced model's key (the FK), and no `@hasMany` or
/// `@hasOne(references:)` value (those are queried from the other side). Reading a model decodes it
/// with this store as the decoding context, so its lazy fields load from here. Tests use it, and so
/// do the tests of generated code.
///
/// Identifiers and queried field values match exactly (``KeyValue`` equality: strings by their
/// Unicode scalars, as SQLite and DynamoDB compare keys); a target name of a belongsTo/hasOne
/// (`postID`) matches the referenced key value. List pages hold ``pageSize`` models in the order
/// they were first saved; cursors are decimal offsets.
///
/// Thread-safety: a `Sendable` final class; the rows and counters sit behind one lock. Encoding
/// and decoding happen outside the lock.
public final class InMemoryModelStore: ModelDecodingContext, Sendable {
  /// How often the providers of this store were called (to assert loads happen once, batch, page).
  public struct Statistics: Sendable, Equatable {
    /// Calls of ``ModelProvider/load(identifiers:)``.
    public var referenceLoads = 0
    /// Calls of ``ModelProvider/load(batch:)``.
    public var batchLoads = 0
    /// Identifier sets received by ``ModelProvider/load(batch:)`` calls, summed.
    public var batchIdentifiers = 0
    /// Calls of ``ModelListProvider/loadPage(after:limit:)``.
    public var pageLoads = 0

    /// All zero.
    public init() {}
  }

  /// One model type's rows by the canonical string of their identifier, compared exactly (two
  /// ids that differ only in Unicode normalization are two rows, as in SQLite and DynamoDB).
  private struct Table {
    var order: [ExactString] = []
    var rows: [ExactString: JSONValue] = [:]
  }

  private struct State {
    var tables: [String: Table] = [:]
    var statistics = Statistics()
  }

  private let state = Locked(State())
  /// The most models one list page holds when the caller gives no limit.
  public let pageSize: Int
  /// How long each provider call waits before it reads (to make concurrent callers overlap in
  /// tests); `.zero` for none.
  public let latency: Duration

  /// Creates an empty store.
  ///
  /// - Parameters:
  ///   - pageSize: The default number of models per list page (at least 1).
  ///   - latency: A pause before each provider call reads, or `.zero`.
  public init(pageSize: Int = 100, latency: Duration = .zero) {
    self.pageSize = max(1, pageSize)
    self.latency = latency
  }

  /// The counters since the store was created or ``resetStatistics()`` was called.
  public var statistics: Statistics { state.withLock { $0.statistics } }

  /// Sets every counter back to zero.
  public func resetStatistics() { state.withLock { $0.statistics = Statistics() } }

  /// Inserts `model`, or replaces the stored model with the same identifier (keeping its position).
  ///
  /// - Throws: What encoding `model` throws.
  public func save<M: Model>(_ model: M) throws {
    let row = try Self.storedRow(of: model)
    let key = ExactString(model.identifier.canonicalString)
    state.withLock { state in
      var table = state.tables[M.modelName] ?? Table()
      if table.rows.updateValue(row, forKey: key) == nil { table.order.append(key) }
      state.tables[M.modelName] = table
    }
  }

  /// Saves every model of `models` in order (see ``save(_:)``).
  ///
  /// - Throws: What encoding a model throws; the models before it stay saved.
  public func save<M: Model>(_ models: [M]) throws {
    for model in models { try save(model) }
  }

  /// Removes the `type` model with `identifier`.
  ///
  /// - Returns: `true` when a model was removed.
  @discardableResult
  public func delete<M: Model>(_ type: M.Type, identifier: some ModelIdentifierProtocol) -> Bool {
    let key = ExactString(identifier.canonicalString)
    return state.withLock { state in
      guard state.tables[M.modelName]?.rows.removeValue(forKey: key) != nil else { return false }
      state.tables[M.modelName]?.order.removeAll { $0 == key }
      return true
    }
  }

  /// The `type` model whose primary key is `identifier`, decoded with lazy fields loading from this
  /// store, or `nil`.
  ///
  /// - Throws: What decoding the stored model throws.
  public func model<M: Model>(_ type: M.Type, identifier: some ModelIdentifierProtocol) throws -> M? {
    let key = ExactString(identifier.canonicalString)
    guard let row = state.withLock({ $0.tables[M.modelName]?.rows[key] }) else { return nil }
    return try decode(M.self, from: row)
  }

  /// Every `type` model whose fields equal `fields` (all of them; an empty list matches every
  /// model), in the order they were first saved.
  ///
  /// - Parameters:
  ///   - type: The model type to list.
  ///   - fields: Field names of `M` (data fields or target names) with the values to match.
  /// - Throws: What decoding a stored model throws.
  public func models<M: Model>(_ type: M.Type, where fields: [IdentifierComponent] = []) throws
    -> [M]
  {
    try matchingRows(M.self, fields).map { try decode(M.self, from: $0) }
  }

  /// Decodes JSON `data` as a `type` model whose lazy fields load from this store.
  ///
  /// - Throws: `DecodingError` when `data` is not a `type` model.
  public func decode<M: Model>(_ type: M.Type, from data: Data) throws -> M {
    try decoder().decode(M.self, from: data)
  }

  /// A `JSONDecoder` whose `userInfo` carries this store as the ``ModelDecodingContext``.
  public func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.userInfo[.modelDecodingContext] = self
    return decoder
  }

  /// A provider that loads `type` models from this store. Providers of one store compare equal,
  /// so ``LazyReference/loadAll(_:)`` sends all their references in one batch.
  public func referenceProvider<M: Model>(for type: M.Type, identifiers: [IdentifierComponent])
    -> any ModelProvider<M>
  {
    InMemoryReferenceProvider<M>(store: self)
  }

  /// A provider that pages through the `type` models whose `associatedFields` equal
  /// `associatedIdentifiers`, ``pageSize`` at a time.
  public func listProvider<M: Model>(
    for type: M.Type, associatedFields: [String], associatedIdentifiers: [KeyValue]
  ) -> any ModelListProvider<M> {
    InMemoryListProvider<M>(
      store: self,
      fields: zip(associatedFields, associatedIdentifiers).map {
        IdentifierComponent(name: $0, value: $1)
      })
  }

  // MARK: Provider entry points

  fileprivate func loadOne<M: Model>(_ type: M.Type, identifiers: [IdentifierComponent])
    async throws -> M?
  {
    try await pause()
    state.withLock { $0.statistics.referenceLoads += 1 }
    return try matchingRows(M.self, identifiers).first.map { try decode(M.self, from: $0) }
  }

  fileprivate func loadBatch<M: Model>(_ type: M.Type, batch: [[IdentifierComponent]]) async throws
    -> [M?]
  {
    try await pause()
    state.withLock {
      $0.statistics.batchLoads += 1
      $0.statistics.batchIdentifiers += batch.count
    }
    return try batch.map { identifiers in
      try matchingRows(M.self, identifiers).first.map { try decode(M.self, from: $0) }
    }
  }

  fileprivate func loadPage<M: Model>(
    _ type: M.Type, fields: [IdentifierComponent], after cursor: String?, limit: Int?
  ) async throws -> ModelPage<M> {
    try await pause()
    state.withLock { $0.statistics.pageLoads += 1 }
    let start: Int
    if let cursor {
      guard let offset = Int(cursor), offset >= 0 else {
        throw InMemoryModelStoreError.invalidCursor(cursor)
      }
      start = offset
    } else {
      start = 0
    }
    let rows = matchingRows(M.self, fields)
    let end = min(rows.count, start + max(1, limit ?? pageSize))
    let page = start < end ? Array(rows[start..<end]) : []
    return ModelPage(
      elements: try page.map { try decode(M.self, from: $0) },
      nextCursor: end < rows.count ? String(end) : nil)
  }

  private func pause() async throws {
    if latency > .zero { try await Task.sleep(for: latency) }
  }

  // MARK: Rows

  private func decode<M: Model>(_ type: M.Type, from row: JSONValue) throws -> M {
    try row.decode(M.self, userInfo: [.modelDecodingContext: self])
  }

  private func matchingRows<M: Model>(_ type: M.Type, _ fields: [IdentifierComponent])
    -> [JSONValue]
  {
    let table = state.withLock { $0.tables[M.modelName] } ?? Table()
    if fields.map(\.name) == M.schema.primaryKey {
      let key = ExactString(
        ModelIdentifier(modelName: M.modelName, components: fields).canonicalString)
      return table.rows[key].map { [$0] } ?? []
    }
    let paths = fields.map { (path: FieldPath(name: $0.name, schema: M.schema), value: $0.value) }
    return table.order.compactMap { table.rows[$0] }.filter { row in
      paths.allSatisfy { $0.path.value(in: row) == $0.value }
    }
  }

  /// The stored form of `model`: its JSON object with each association reduced to what a database
  /// row holds.
  private static func storedRow<M: Model>(of model: M) throws -> JSONValue {
    guard case .object(var members) = try JSONValue(encoding: model) else {
      throw InMemoryModelStoreError.notAnObject(model: M.modelName)
    }
    for field in M.schema.fields {
      let keyFields: [String]
      switch field.association {
      case .belongsTo(let associated, _):
        keyFields = associated
      case .hasOne(let associated, let targets) where !targets.isEmpty:
        keyFields = associated
      case .hasOne, .hasMany:
        members[field.name] = nil
        continue
      case nil:
        continue
      }
      if case .object(let referenced)? = members[field.name] {
        members[field.name] = .object(referenced.filter { keyFields.contains($0.key) })
      } else {
        members[field.name] = nil
      }
    }
    return .object(members)
  }

  fileprivate static func keyValue(_ json: JSONValue, type: ModelFieldType?) -> KeyValue? {
    switch json {
    case .string(let text): return .string(text)
    case .bool(let flag): return .bool(flag)
    case .number(let number):
      if type == .scalar(.float) { return .double(number) }
      if number.rounded() == number, let integer = Int(exactly: number) { return .int(integer) }
      return .double(number)
    case .null, .array, .object: return nil
    }
  }
}

/// Where the value of one queried field sits in a stored row, worked out once per query from the
/// schema: a data field, a target name of a belongsTo/hasOne (the referenced key value inside the
/// reduced reference object), or a single-key belongsTo/hasOne field itself.
private struct FieldPath {
  let member: String
  let nested: String?
  let type: ModelFieldType?

  init(name: String, schema: ModelSchema) {
    if let field = schema.field(named: name) {
      switch field.association {
      case .belongsTo(let associated, _) where associated.count == 1,
        .hasOne(let associated, _) where associated.count == 1:
        (member, nested, type) = (name, associated[0], nil)
      default:
        (member, nested, type) = (name, nil, field.type)
      }
      return
    }
    for field in schema.fields {
      switch field.association {
      case .belongsTo(let associated, let targets), .hasOne(let associated, let targets):
        if let index = targets.firstIndex(of: name), index < associated.count {
          (member, nested, type) = (field.name, associated[index], schema.keyFieldType(named: name))
          return
        }
      default:
        continue
      }
    }
    (member, nested, type) = (name, nil, nil)
  }

  func value(in row: JSONValue) -> KeyValue? {
    guard var value = row[member] else { return nil }
    if let nested {
      guard let inner = value[nested] else { return nil }
      value = inner
    }
    return InMemoryModelStore.keyValue(value, type: type)
  }
}

/// Errors of ``InMemoryModelStore``.
public enum InMemoryModelStoreError: Error, Sendable, Equatable {
  /// A list cursor that this store did not write (not a decimal offset).
  case invalidCursor(String)
  /// The model did not encode as a JSON object.
  case notAnObject(model: String)
}

/// Loads `M` from an ``InMemoryModelStore``; equal (and hashing equal) for the same store.
struct InMemoryReferenceProvider<M: Model>: ModelProvider, Hashable {
  let store: InMemoryModelStore

  func load(identifiers: [IdentifierComponent]) async throws -> M? {
    try await store.loadOne(M.self, identifiers: identifiers)
  }

  func load(batch: [[IdentifierComponent]]) async throws -> [M?] {
    try await store.loadBatch(M.self, batch: batch)
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.store === rhs.store }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(store)) }
}

/// Pages through the `M` of an ``InMemoryModelStore`` whose fields equal `fields`.
struct InMemoryListProvider<M: Model>: ModelListProvider {
  let store: InMemoryModelStore
  let fields: [IdentifierComponent]

  func loadPage(after cursor: String?, limit: Int?) async throws -> ModelPage<M> {
    try await store.loadPage(M.self, fields: fields, after: cursor, limit: limit)
  }
}
