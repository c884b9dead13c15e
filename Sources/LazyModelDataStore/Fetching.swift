import Foundation
import LazyModel

extension DataStore {
  /// Runs `sql` and decodes every row as an `M`. Without includes the rows are decoded as they are
  /// stepped; with includes they are copied first, the included associations are loaded (one
  /// `IN (…)` query per association and level), then the rows are decoded with them.
  func fetch<M: Model>(
    _ type: M.Type, _ mapping: TableMapping, sql: String, bindings: [SQLValue],
    includes: [QueryInclude],
    _ connection: Connection, cached: Bool = true
  ) throws -> [M] {
    let statement = try connection.prepare(sql, cached: cached)
    defer { statement.reset() }
    try statement.bind(bindings)
    if includes.isEmpty {
      let decoder = RowDecoder(
        mapping: mapping, store: self, row: .statement(statement), prefetched: nil)
      return try Self.decodeRemainingRows(M.self, statement, decoder)
    }
    let rows = try Self.copyRows(statement, columns: mapping.columns.count)
    return try decodeRows(M.self, mapping, rows: rows, includes: includes, connection)
  }

  /// Decodes each remaining row of `statement` as an `M`, in order.
  ///
  /// The result is allocated once with room for as many rows as the statement returned the last
  /// time (``Statement/rowCountHint``, per connection) and the models are decoded straight into it:
  /// no buffer grows by doubling and none is copied into the result, so a repeated query touches its
  /// result's fresh pages once (for 100,000 `Comment4V2`s one 8.8 MB array, where doubling buffers
  /// and a copy touched about three times that; page faults of two reader threads contend on the
  /// kernel's memory-map locks). The first query of a statement, and rows beyond the hint, grow a
  /// ``ModelBuffer``; a result of less than half the hint is copied into an array of its own size,
  /// so that an earlier, larger result of the same statement does not keep memory in a small one.
  /// The result size (rows) from which a query pins its connection thread's heap top
  /// (`Connection.pinHeapTop()`).
  static let heapPinRows = 1_000

  private static func decodeRemainingRows<M: Model>(
    _ type: M.Type, _ statement: Statement, _ decoder: RowDecoder
  ) throws -> [M] {
    let hint = statement.rowCountHint
    guard hint > 0 else {
      var models = ModelBuffer<M>()
      defer { models.release() }
      while try statement.step() { models.append(try decoder.decode(M.self)) }
      statement.rowCountHint = models.count
      return models.array()
    }
    var full = false
    var models = try [M](unsafeUninitializedCapacity: hint) { buffer, initialized in
      let base = buffer.baseAddress.unsafelyUnwrapped
      while initialized < hint {
        guard try statement.step() else { return }
        (base + initialized).initialize(to: try decoder.decode(M.self))
        initialized += 1
      }
      full = true
    }
    if full, try statement.step() {
      var beyond = ModelBuffer<M>()
      defer { beyond.release() }
      repeat { beyond.append(try decoder.decode(M.self)) } while try statement.step()
      models.append(contentsOf: beyond.array())
    } else if models.isEmpty {
      models = []
    } else if models.count < hint / 2 {
      let count = models.count
      models = models.withUnsafeBufferPointer { decoded in
        [M](unsafeUninitializedCapacity: count) { buffer, initialized in
          buffer.baseAddress.unsafelyUnwrapped.initialize(
            from: decoded.baseAddress.unsafelyUnwrapped, count: count)
          initialized = count
        }
      }
    }
    statement.rowCountHint = models.count
    // Keeps the heap this result was allocated from mapped after the caller frees it.
    if models.count >= Self.heapPinRows { statement.connection.pinHeapTop() }
    return models
  }

  private static func copyRows(_ statement: Statement, columns: Int) throws -> [[SQLValue]] {
    var rows: [[SQLValue]] = []
    while try statement.step() { rows.append((0..<columns).map { statement.value(Int32($0)) }) }
    return rows
  }

  /// Decodes copied rows with `includes` loaded.
  private func decodeRows<M: Model>(
    _ type: M.Type, _ mapping: TableMapping, rows: [[SQLValue]], includes: [QueryInclude],
    _ connection: Connection
  ) throws -> [M] {
    let prefetched = try prefetch(mapping, rows: rows, includes: includes, connection)
    let decoder = RowDecoder(
      mapping: mapping, store: self, row: .values([]), prefetched: prefetched)
    return try rows.map { row in
      decoder.row = .values(row)
      return try decoder.decode(M.self)
    }
  }

  /// Loads the associations `includes` names for copied `rows` of `mapping`: one `IN (…)` query per
  /// association (per 500 distinct keys), then the same for the nested includes of what it loaded.
  func prefetch(
    _ mapping: TableMapping, rows: [[SQLValue]], includes: [QueryInclude], _ connection: Connection
  ) throws -> Prefetched {
    let prefetched = Prefetched()
    let probe = RowDecoder(mapping: mapping, store: self, row: .values([]), prefetched: nil)
    for include in includes {
      guard let plan = mapping.plans[include.field] else {
        throw DataStoreError.unknownField(model: mapping.schema.name, field: include.field)
      }
      let target: any Model.Type
      let keyColumns: [Int]
      let targetColumns: [String]
      var indexName: String?
      switch plan {
      case .column:
        throw DataStoreError.invalidPredicate(
          model: mapping.schema.name, field: include.field, reason: "not an association")
      case .reference(let position):
        let reference = mapping.references[position]
        (target, keyColumns, targetColumns) = (
          reference.target, reference.columnIndexes, reference.associatedFields
        )
      case .childReference(let position):
        let child = mapping.childReferences[position]
        (target, keyColumns, targetColumns) = (
          child.target, mapping.primaryKeyColumns, child.associatedFields
        )
      case .list(let position):
        let list = mapping.lists[position]
        (target, keyColumns, targetColumns) = (
          list.target, mapping.primaryKeyColumns, list.associatedColumns
        )
        indexName = list.indexName
      }
      var seen: Set<[KeyValue]> = []
      var keys: [[KeyValue]] = []
      for row in rows {
        probe.row = .values(row)
        if let key = try probe.keyValues(keyColumns), seen.insert(key).inserted { keys.append(key) }
      }
      if case .childReference = plan {
        // Generated code decodes a @hasOne(references:) through `superDecoder(forKey:)`, so keep the
        // target rows to decode there.
        let targetMapping = try self.mapping(for: target)
        let grouped = try fetchGroupedRows(
          targetMapping, byColumns: targetColumns, keys: keys, connection)
        let nested = try prefetch(
          targetMapping, rows: grouped.values.flatMap { $0 }, includes: include.nested, connection)
        prefetched.childRows[include.field] = ChildRows(
          mapping: targetMapping, rows: grouped, nested: nested)
      } else {
        prefetched.models[include.field] = try fetchGrouped(
          target, byColumns: targetColumns, keys: keys, indexName: indexName,
          includes: include.nested, connection)
      }
    }
    return prefetched
  }

  /// The copied rows of `mapping` whose `columns` equal one of `keys`, grouped by those values (one
  /// `IN (…)` query per ``batchChunkSize`` keys).
  func fetchGroupedRows(
    _ mapping: TableMapping, byColumns columns: [String], keys: [[KeyValue]],
    _ connection: Connection
  ) throws -> [[KeyValue]: [[SQLValue]]] {
    let columnIndexes = try mapping.columnIndexes(named: columns)
    let probe = RowDecoder(mapping: mapping, store: self, row: .values([]), prefetched: nil)
    var grouped: [[KeyValue]: [[SQLValue]]] = [:]
    var start = 0
    while start < keys.count {
      let chunk = keys[start..<min(start + Self.batchChunkSize, keys.count)]
      start += chunk.count
      let statement = try connection.prepare(
        mapping.membershipQuery(columns: columns, count: chunk.count),
        cached: chunk.count == Self.batchChunkSize || chunk.count == 1)
      defer { statement.reset() }
      try statement.bind(chunk.flatMap { $0.map(SQLValue.init) })
      for row in try Self.copyRows(statement, columns: mapping.columns.count) {
        probe.row = .values(row)
        guard let key = try probe.keyValues(columnIndexes) else { continue }
        grouped[key, default: []].append(row)
      }
    }
    return grouped
  }

  /// The `M`s whose `columns` equal one of `keys`, grouped by those values: one `IN (…)` query per
  /// ``batchChunkSize`` keys, each group in the order of a list through `columns` and the `@index`
  /// named `indexName` (``TableMapping/listOrder(associatedColumns:indexName:)``).
  func fetchGrouped<M: Model>(
    _ type: M.Type, byColumns columns: [String], keys: [[KeyValue]], indexName: String? = nil,
    includes: [QueryInclude], _ connection: Connection
  ) throws -> [[KeyValue]: [any Model]] {
    let mapping = try mapping(for: M.self)
    let columnIndexes = try mapping.columnIndexes(named: columns)
    var grouped: [[KeyValue]: [any Model]] = [:]
    var start = 0
    while start < keys.count {
      let chunk = keys[start..<min(start + Self.batchChunkSize, keys.count)]
      start += chunk.count
      let statement = try connection.prepare(
        mapping.membershipQuery(columns: columns, count: chunk.count, indexName: indexName),
        cached: chunk.count == Self.batchChunkSize || chunk.count == 1)
      defer { statement.reset() }
      try statement.bind(chunk.flatMap { $0.map(SQLValue.init) })
      if includes.isEmpty {
        let decoder = RowDecoder(
          mapping: mapping, store: self, row: .statement(statement), prefetched: nil)
        while try statement.step() {
          guard let key = try decoder.keyValues(columnIndexes) else { continue }
          grouped[key, default: []].append(try decoder.decode(M.self))
        }
      } else {
        let rows = try Self.copyRows(statement, columns: mapping.columns.count)
        let models = try decodeRows(M.self, mapping, rows: rows, includes: includes, connection)
        let probe = RowDecoder(mapping: mapping, store: self, row: .values([]), prefetched: nil)
        for (row, model) in zip(rows, models) {
          probe.row = .values(row)
          guard let key = try probe.keyValues(columnIndexes) else { continue }
          grouped[key, default: []].append(model)
        }
      }
    }
    return grouped
  }

  /// The one `M` whose fields equal `identifiers` (its primary key: the cached lookup statement).
  func loadOne<M: Model>(_ type: M.Type, identifiers: [IdentifierComponent]) async throws -> M? {
    try await onReader("load") { connection in
      try self.loadOne(M.self, identifiers: identifiers, connection)
    }
  }

  /// ``loadOne(_:identifiers:)`` run synchronously on the calling thread when it is one of this
  /// store's reader threads between jobs (``idleReaderHere()``: a task preferring
  /// ``readerExecutor``); `nil` anywhere else, where the caller must use the async path.
  func loadOneWithoutSuspending<M: Model>(_ type: M.Type, identifiers: [IdentifierComponent])
    throws -> M??
  {
    guard let here = idleReaderHere() else { return nil }
    return .some(
      try here.runSynchronously { connection in
        if observers.hasSignals { detectOtherProcesses(connection) }
        return try loadOne(M.self, identifiers: identifiers, connection)
      })
  }

  /// ``loadOne(_:identifiers:)`` on `connection`.
  func loadOne<M: Model>(
    _ type: M.Type, identifiers: [IdentifierComponent], _ connection: Connection
  ) throws -> M? {
    let mapping = try mapping(for: M.self)
    // The primary-key lookup (the N+1 hot path) compares and binds in place: no array of names or
    // of bound values per lookup.
    let byPrimaryKey =
      identifiers.count == mapping.primaryKeyNames.count
      && zip(identifiers, mapping.primaryKeyNames).allSatisfy { $0.name == $1 }
    let statement: Statement
    if byPrimaryKey {
      statement = try connection.prepare(mapping.selectByPrimaryKey, owner: mapping, kind: 1)
    } else {
      let names = identifiers.map(\.name)
      _ = try mapping.columnIndexes(named: names)
      statement = try connection.prepare(
        "SELECT \(mapping.selectList) FROM \(quote(mapping.table)) WHERE "
          + names.map { "\(quote($0)) = ?" }.joined(separator: " AND ") + " LIMIT 1")
    }
    defer { statement.reset() }
    for (offset, identifier) in identifiers.enumerated() {
      try statement.bind(SQLValue(identifier.value), at: Int32(offset + 1))
    }
    guard try statement.step() else { return nil }
    let decoder = RowDecoder(
      mapping: mapping, store: self, row: .statement(statement), prefetched: nil)
    guard byPrimaryKey else { return try decoder.decode(M.self) }
    // The lookup statement keeps the key order its model asks for (no key hashed after the first).
    if let order = statement.keyOrder { decoder.keyOrder = order }
    let model = try decoder.decode(M.self)
    if statement.keyOrder == nil { statement.keyOrder = decoder.keyOrder }
    return model
  }

  /// See ``DataStoreReferenceProvider/load(batch:)``.
  func loadBatch<M: Model>(_ type: M.Type, batch: [[IdentifierComponent]]) async throws -> [M?] {
    guard let first = batch.first else { return [] }
    let names = first.map(\.name)
    let mapping = try mapping(for: M.self)
    var seen: Set<[KeyValue]> = []
    var keys: [[KeyValue]] = []
    for identifiers in batch {
      guard identifiers.map(\.name) == names else {
        throw DataStoreError.invalidPredicate(
          model: mapping.schema.name, field: names.joined(separator: ", "),
          reason: "a batch must name the same fields in every element")
      }
      let key = identifiers.map(\.value)
      if seen.insert(key).inserted { keys.append(key) }
    }
    let requested = keys
    return try await onReader("load") { connection in
      let grouped = try connection.transaction(write: false) {
        try self.fetchGrouped(M.self, byColumns: names, keys: requested, includes: [], connection)
          .mapValues { $0.first as? M }
      }
      return batch.map { identifiers in grouped[identifiers.map(\.value)] ?? nil }
    }
  }

  /// See ``DataStoreListProvider/loadPage(after:limit:)``.
  ///
  /// A page is read in the list's order (``TableMapping/listOrder(associatedColumns:)``), after the
  /// cursor's row: the cursor is the JSON array of that row's order column values, and "after" is
  /// spelled out term by term so that a nullable sort key column (`NULL`s last) pages too.
  func loadPage<M: Model>(
    _ type: M.Type, associatedFields: [String], associatedIdentifiers: [KeyValue],
    indexName: String?, after cursor: String?, limit: Int
  ) async throws -> ModelPage<M> {
    try requireArgument("limit", limit, atLeast: 1)
    let mapping = try mapping(for: M.self)
    _ = try mapping.columnIndexes(named: associatedFields)
    let order = mapping.listOrder(associatedColumns: associatedFields, indexName: indexName)
    var sql =
      "SELECT \(mapping.selectList) FROM \(quote(mapping.table)) WHERE "
      + associatedFields.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
    var bindings = associatedIdentifiers.map(SQLValue.init)
    if let cursor {
      guard let data = cursor.data(using: .utf8),
        let last = try? JSONDecoder().decode([CursorValue].self, from: data),
        last.count == order.count
      else { throw DataStoreError.invalidCursor(cursor) }
      let after = mapping.after(order, values: last.map(\.value))
      // A row's primary key is never NULL, so a real cursor always has something after it.
      guard !after.sql.isEmpty else { throw DataStoreError.invalidCursor(cursor) }
      sql += " AND (\(after.sql))"
      bindings += after.bindings
    }
    sql += " ORDER BY \(mapping.orderBy(order)) LIMIT ?"
    // One more than asked, to know whether a next page exists (SQLite's LIMIT is a 64-bit integer).
    bindings.append(.integer(limit < Int64.max ? Int64(limit) + 1 : Int64.max))
    let query = sql
    let values = bindings
    var models = try await onReader("loadPage") { connection in
      try self.fetch(M.self, mapping, sql: query, bindings: values, includes: [], connection)
    }
    var next: String?
    if models.count > limit {
      models.removeLast(models.count - limit)
      if let last = models.last {
        let values = try RowEncoder.encode(last, mapping: mapping, store: self)
        let data = try JSONEncoder().encode(order.map { CursorValue(values[$0]) })
        next = String(decoding: data, as: UTF8.self)
      }
    }
    return ModelPage(elements: models, nextCursor: next)
  }
}

/// One value of a list cursor, as JSON: `null`, a number or a string.
private struct CursorValue: Codable {
  let value: SQLValue

  init(_ value: SQLValue) { self.value = value }

  init(from decoder: any Decoder) throws {
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      value = .null
    } else if let integer = try? single.decode(Int64.self) {
      value = .integer(integer)
    } else if let real = try? single.decode(Double.self) {
      value = .real(real)
    } else {
      value = .text(try single.decode(String.self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    switch value {
    case .null: try single.encodeNil()
    case .integer(let integer): try single.encode(integer)
    case .real(let real): try single.encode(real)
    case .text(let text): try single.encode(text)
    }
  }
}

/// Captures the `LazyReference` a model encodes for one field, ignoring every other field.
///
/// Per model: the model's `encode(to:)` runs into this encoder; the field is recognised by its key
/// (one string comparison a field), the reference's `LazyReferenceBox` conformance is looked up once
/// per value type (not a dynamic cast per model), and once it is captured the remaining fields
/// return at once (no error thrown to stop the encoding, which allocated one per model; issue 11's
/// batched row).
final class ReferenceCapture: Encoder {
  let field: String
  /// The captured reference object (a `LazyReference`, a final class) and its conformance.
  fileprivate var reference: (object: AnyObject, box: any LazyReferenceBox.Type)?
  /// Set once ``reference`` is captured for the current model.
  fileprivate var done = false
  /// The `LazyReferenceBox` type of the last field value recognised, by the identity of its type.
  fileprivate var referenceType = ReferenceTypeCache()
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(field: String) { self.field = field }

  /// The reference `model` encodes for ``field``, or `nil`.
  func capture(_ model: some Model) throws -> (any LazyReferenceBox)? {
    reference = nil
    done = false
    try model.encode(to: self)
    guard let reference else { return nil }
    return Self.open(reference.object, as: reference.box)
  }

  private static func open<Box: LazyReferenceBox>(_ object: AnyObject, as box: Box.Type)
    -> any LazyReferenceBox
  {
    unsafeBitCast(object, to: Box.self)
  }

  /// Records `value` (the value encoded for ``field``) when it is a reference.
  fileprivate func record<T>(_ value: T) {
    guard let box = referenceType.box(of: T.self) else { return }
    reference = (unsafeBitCast(value, to: AnyObject.self), box)
    done = true
  }

  /// The keyed container made for the first model, reused for the next ones (see `RowDecoder`).
  private var cachedContainer: (key: ObjectIdentifier, box: AnyObject)?

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if let cached = cachedContainer, cached.key == ObjectIdentifier(Key.self) {
      return unsafeBitCast(cached.box, to: KeyedEncodingContainer<Key>.self)
    }
    let container = KeyedEncodingContainer(Container<Key>(capture: self))
    if MemoryLayout<KeyedEncodingContainer<Key>>.size == MemoryLayout<AnyObject>.size {
      cachedContainer = (ObjectIdentifier(Key.self), unsafeBitCast(container, to: AnyObject.self))
    }
    return container
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyedEncoder(encoder: nil) }
  func singleValueContainer() -> any SingleValueEncodingContainer { ColumnValueEncoder() }

  struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// Not retained: the capture caches this container (see `RowKeyedDecoder.decoder`).
    unowned(unsafe) let capture: ReferenceCapture
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      // The fields after the reference are not needed.
      if !capture.done, key.stringValue == capture.field { capture.record(value) }
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(DiscardingKeyedEncoder<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      DiscardingUnkeyedEncoder(encoder: nil)
    }
    mutating func superEncoder() -> any Encoder { ColumnValueEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ColumnValueEncoder() }
  }
}

extension TableMapping {
  /// The column positions of `names`, in order.
  ///
  /// - Throws: ``DataStoreError/unknownField(model:field:)`` for a name that is not a column.
  func columnIndexes(named names: [String]) throws -> [Int] {
    try names.map { name in
      guard let index = column(named: name) else {
        throw DataStoreError.unknownField(model: schema.name, field: name)
      }
      return index
    }
  }

  /// `SELECT <all> FROM t WHERE (<columns>) IN (…count keys…) ORDER BY <list order>`: the batched
  /// read of one chunk of keys, each key's rows in the order a list through `columns` (and the
  /// `@index` named `indexName`) has (``listOrder(associatedColumns:indexName:)``).
  func membershipQuery(columns: [String], count: Int, indexName: String? = nil) -> String {
    "SELECT \(selectList) FROM \(quote(table)) WHERE "
      + membershipSQL(columns: columns, count: count)
      + " ORDER BY " + orderBy(listOrder(associatedColumns: columns, indexName: indexName))
  }

  /// The order of the rows a `@hasMany` lists through the FK columns `associatedColumns` (positions
  /// in ``columns``): the sort key columns of the `@index` the relationship is queried through
  /// (AppSync returns an index query's items in sort key order) — the one named `indexName` (the
  /// `@hasMany`'s `indexName:`), or without it the first `@index` whose columns start with the FK
  /// columns — then the primary key columns (which make the order total). Without such an index:
  /// the primary key.
  func listOrder(associatedColumns: [String], indexName: String? = nil) -> [Int] {
    var order: [Int] = []
    let named = schema.indexes.filter { $0.name == indexName }
    for index in named + schema.indexes {
      let resolved = Self.resolveColumns(index.fields, of: schema)
      guard resolved.count > associatedColumns.count, resolved.starts(with: associatedColumns)
      else { continue }
      order = resolved.dropFirst(associatedColumns.count).compactMap { column(named: $0) }
      break
    }
    for key in primaryKeyColumns where !order.contains(key) { order.append(key) }
    return order
  }

  /// `ORDER BY` terms for the column positions `order`, ascending, `NULL`s last.
  func orderBy(_ order: [Int]) -> String {
    order.map { position in
      let name = quote(columns[position].name)
      return columns[position].isNotNull ? name : "\(name) IS NULL, \(name)"
    }.joined(separator: ", ")
  }

  /// The condition "comes after the row whose `order` columns hold `values`" in ``orderBy(_:)``'s
  /// order: the row value `(t1, t2, …) > (v1, v2, …)` when every column is `NOT NULL` (a range
  /// seek in the list's index), else `t1 > v1 OR (t1 = v1 AND t2 > v2) OR …`, where after a `NULL`
  /// nothing of that term follows and after a value every `NULL` does.
  func after(_ order: [Int], values: [SQLValue]) -> (sql: String, bindings: [SQLValue]) {
    if order.allSatisfy({ columns[$0].isNotNull }), !values.contains(.null) {
      let names = order.map { quote(columns[$0].name) }.joined(separator: ", ")
      let marks = Array(repeating: "?", count: order.count).joined(separator: ", ")
      return ("(\(names)) > (\(marks))", values)
    }
    var alternatives: [String] = []
    var bindings: [SQLValue] = []
    var equalSQL: [String] = []
    var equalBindings: [SQLValue] = []
    for (position, value) in zip(order, values) {
      let name = quote(columns[position].name)
      if value != .null {
        let greater = columns[position].isNotNull ? "\(name) > ?" : "(\(name) > ? OR \(name) IS NULL)"
        alternatives.append((equalSQL + [greater]).joined(separator: " AND "))
        bindings += equalBindings + [value]
        equalSQL.append("\(name) = ?")
        equalBindings.append(value)
      } else {
        equalSQL.append("\(name) IS NULL")
      }
    }
    return (alternatives.map { "(\($0))" }.joined(separator: " OR "), bindings)
  }
}

/// The rows of one query as they are decoded: a growing buffer of `M`s that, unlike appending to
/// an `[M]` in code generic over `M`, looks up no generic metadata per row (`Array<M>`'s is looked
/// up once, by ``array()``).
struct ModelBuffer<M> {
  private var storage = UnsafeMutablePointer<M>.allocate(capacity: 64)
  private var capacity = 64
  private(set) var count = 0

  /// Moves `model` in, doubling the storage when full.
  @inline(__always) mutating func append(_ model: consuming M) {
    if count == capacity {
      let larger = UnsafeMutablePointer<M>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: storage, count: count)
      storage.deallocate()
      storage = larger
      capacity *= 2
    }
    (storage + count).initialize(to: model)
    count += 1
  }

  /// An array of the models, moved out (the buffer is empty afterwards).
  mutating func array() -> [M] {
    let moved = count
    count = 0
    // (Not through `unsafeUninitializedCapacity: 0`, whose result is the shared empty-array
    // storage, which the initializer writes its count into: a data race between two readers.)
    if moved == 0 { return [] }
    return [M](unsafeUninitializedCapacity: moved) { buffer, initialized in
      buffer.baseAddress!.moveInitialize(from: storage, count: moved)
      initialized = moved
    }
  }

  /// Deinitializes what is left (the models decoded before an error) and frees the storage.
  func release() {
    storage.deinitialize(count: count)
    storage.deallocate()
  }
}

/// The `LazyReferenceBox` conformance of the last type asked about, so that encoding many models
/// of one type casts the reference field's type once, not once a model (issue 11).
struct ReferenceTypeCache {
  private var cached: (key: ObjectIdentifier, box: any LazyReferenceBox.Type)?

  /// `T`'s conformance when `T` is a `LazyReference` (a final class, so a value of it is one object
  /// reference and may be bit-cast to `AnyObject`), else `nil`.
  mutating func box<T>(of type: T.Type) -> (any LazyReferenceBox.Type)? {
    if let cached, cached.key == ObjectIdentifier(T.self) { return cached.box }
    guard let found = T.self as? any LazyReferenceBox.Type,
      MemoryLayout<T>.size == MemoryLayout<AnyObject>.size
    else { return nil }
    cached = (ObjectIdentifier(T.self), found)
    return found
  }
}
