import Foundation
import LazyModel

/// A local store of generated models in one SQLite database (a file in WAL mode, or in memory).
///
/// Tables come from each model's ``ModelSchema`` (see `TableMapping` rules: native composite primary
/// keys, FK columns named by target names, `ON DELETE CASCADE` for `@belongsTo`, an index on every FK
/// and every `@index`). Rows decode straight into models with a ``DataStoreDecodingContext``, so a
/// queried model's `@belongsTo`/`@hasOne` fields are not-loaded references holding the FK values, and
/// its `@hasMany` fields not-loaded lists; both load from this store on first use.
///
/// Thread-safety: `Sendable`. One `Mutex` serialises every use of the single SQLite connection, so
/// any number of tasks may call any method at once; each call is atomic (writes run in a
/// transaction, multi-statement reads in a read transaction).
public final class DataStore: Sendable {
  /// Keys per `IN (…)` statement when loading many models at once.
  public static let batchChunkSize = 500

  /// The registry the store was opened with.
  public let registry: ModelRegistry
  /// The default page size of lazy lists loaded from this store.
  public let listPageSize: Int

  let connection: SerializedConnection
  let observers = Observers()
  private let mappings: [ObjectIdentifier: TableMapping]
  private let mappingsByName: [String: TableMapping]

  /// Opens (creating or migrating) the database at `fileURL` for the models of `registry`.
  ///
  /// - Parameters:
  ///   - fileURL: A `file:` URL; the file and its `-wal`/`-shm` companions are created when missing.
  ///   - registry: The generated registry (`Models.registry`); every model a relationship points at
  ///     must be in it.
  ///   - listPageSize: Elements per page of a lazy `LazyList` (default 100; at least 1).
  ///   - traceSQL: Called with the SQL text (placeholders, never values) of every statement SQLite
  ///     starts, on the calling thread while the connection is held; for tests and diagnostics.
  /// - Throws: ``DataStoreError/incompatibleSchema(model:reason:)`` when the stored tables cannot be
  ///   migrated without losing data (the file is left unchanged), ``DataStoreError/unknownModel(_:)``
  ///   when a relationship points outside the registry, ``DataStoreError/invalidArgument(name:value:reason:)``
  ///   when `listPageSize` is below 1, ``DataStoreError/sqlite(code:message:sql:)``.
  public convenience init(
    fileURL: URL, registry: ModelRegistry, listPageSize: Int = 100,
    traceSQL: (@Sendable (String) -> Void)? = nil
  ) throws {
    try self.init(
      path: fileURL.path, registry: registry, listPageSize: listPageSize, traceSQL: traceSQL)
  }

  /// Opens a private in-memory database for the models of `registry` (see
  /// ``init(fileURL:registry:listPageSize:traceSQL:)``); it disappears with the store.
  public static func inMemory(
    registry: ModelRegistry, listPageSize: Int = 100, traceSQL: (@Sendable (String) -> Void)? = nil
  ) throws -> DataStore {
    try DataStore(
      path: ":memory:", registry: registry, listPageSize: listPageSize, traceSQL: traceSQL)
  }

  private init(
    path: String, registry: ModelRegistry, listPageSize: Int,
    traceSQL: (@Sendable (String) -> Void)?
  ) throws {
    self.registry = registry
    try requireArgument("listPageSize", listPageSize, atLeast: 1)
    self.listPageSize = listPageSize
    var mappings: [ObjectIdentifier: TableMapping] = [:]
    var byName: [String: TableMapping] = [:]
    let incomingForeignKeys = TableMapping.incomingForeignKeys(of: registry.models)
    for type in registry.models {
      let mapping = try TableMapping(
        type, incomingForeignKeys: incomingForeignKeys[type.schema.name] ?? [])
      mappings[ObjectIdentifier(type)] = mapping
      byName[mapping.schema.name] = mapping
    }
    for mapping in byName.values {
      let targets =
        mapping.references.map(\.target) + mapping.childReferences.map(\.target)
        + mapping.lists.map(\.target)
      for target in targets where mappings[ObjectIdentifier(target)] == nil {
        throw DataStoreError.unknownModel(target.modelName)
      }
    }
    self.mappings = mappings
    mappingsByName = byName
    let connection = try Connection(path: path, trace: traceSQL.map(TraceBox.init))
    try Migration.run(registry.models.compactMap { mappings[ObjectIdentifier($0)] }, on: connection)
    self.connection = SerializedConnection(connection)
  }

  /// The table mapping of `type`: a registry model, or a type whose schema equals one's.
  func mapping(for type: any Model.Type) throws -> TableMapping {
    if let mapping = mappings[ObjectIdentifier(type)] { return mapping }
    if let mapping = mappingsByName[type.modelName], mapping.schema == type.schema {
      return mapping
    }
    throw DataStoreError.unknownModel(type.modelName)
  }

  // MARK: Saving

  /// Inserts `model`, or updates the stored row with its primary key, in one transaction.
  ///
  /// Its `@belongsTo`/`@hasOne` FK columns are taken from the reference (loaded model or not-loaded
  /// identifiers); lists and `@hasOne(references:)` fields are not saved (save the children).
  /// The schema's `createdAt` timestamp (``ModelSchema/timestamps``, whatever its name) is set on
  /// insert when nil and kept on update; its `updatedAt` timestamp is set on every save.
  /// An update never deletes and re-inserts the row, so children are not cascaded away.
  ///
  /// - Throws: ``DataStoreError/missingRequiredField(model:field:)`` when a required field, a
  ///   primary-key field or a required association is nil,
  ///   ``DataStoreError/nonFiniteNumber(model:field:value:)`` for a NaN or infinite `Float` (in lists
  ///   and embedded values too), ``DataStoreError/encodingFailed(model:field:reason:)`` for a value
  ///   its column cannot hold, ``DataStoreError/foreignKeyViolation(model:field:identifiers:)``
  ///   when a `@belongsTo` points at no stored row,
  ///   ``DataStoreError/uniqueConstraintViolation(model:fields:identifiers:)`` when a unique index
  ///   added to the file outside the store rejects the row, ``DataStoreError/unknownModel(_:)``, or
  ///   ``DataStoreError/sqlite(code:message:sql:)``. Nothing is written when it throws.
  public func save<M: Model>(_ model: M) async throws {
    try saveAll([model])
  }

  /// Saves every model of `models` (see ``save(_:)``) in one transaction: all or nothing.
  public func save<M: Model>(_ models: [M]) async throws {
    try saveAll(models)
  }

  private func saveAll<M: Model>(_ models: [M]) throws {
    let mapping = try mapping(for: M.self)
    let now = Self.timestamp()
    let rows = try models.map { model in
      var row = try RowEncoder.encode(model, mapping: mapping, store: self)
      for (index, column) in mapping.columns.enumerated() {
        if let timestamp = column.timestamp, timestamp == .updatedAt || row[index] == .null {
          row[index] = .text(now)
        }
        if column.isNotNull, row[index] == .null {
          throw DataStoreError.missingRequiredField(model: mapping.schema.name, field: column.field)
        }
      }
      return row
    }
    try connection.withConnection { connection in
      try connection.transaction(write: true) {
        let statement = try connection.prepare(mapping.upsert)
        for row in rows {
          do {
            try statement.bind(row)
            try statement.run()
          } catch DataStoreError.sqlite(let code, _, _) where code == sqliteConstraintForeignKey {
            throw try foreignKeyFailure(mapping, row: row, connection)
          } catch DataStoreError.sqlite(let code, let message, _) where isConstraintFailure(code) {
            throw mapping.constraintFailure(code: code, message: message, row: row)
              ?? DataStoreError.sqlite(code: code, message: message, sql: mapping.upsert)
          }
        }
      }
    }
    if observers.hasObservers(mapping.schema.name) {
      observers.saved(models, name: mapping.schema.name)
    }
  }

  /// Names the first `@belongsTo` of `row` whose target row is missing.
  private func foreignKeyFailure(_ mapping: TableMapping, row: [SQLValue], _ connection: Connection)
    throws -> DataStoreError
  {
    for reference in mapping.references where reference.isBelongsTo {
      let values = reference.columnIndexes.map { row[$0] }
      guard !values.contains(.null), let target = mappings[ObjectIdentifier(reference.target)]
      else { continue }
      let sql =
        "SELECT 1 FROM \(quote(target.table)) WHERE "
        + reference.associatedFields.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
      let statement = try connection.prepare(sql, cached: false)
      try statement.bind(values)
      if try !statement.step() {
        let identifiers = zip(reference.associatedFields, reference.columnIndexes).map {
          name, index in
          IdentifierComponent(
            name: name,
            value: row[index].keyValue(for: mapping.columns[index].fieldType) ?? .string(""))
        }
        return .foreignKeyViolation(
          model: mapping.schema.name, field: reference.field, identifiers: identifiers)
      }
    }
    return .foreignKeyViolation(model: mapping.schema.name, field: "", identifiers: [])
  }

  private static func timestamp() -> String {
    Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }

  // MARK: Querying

  /// The `M` with `identifier`, or `nil`: one primary-key lookup (plus one query per included
  /// association).
  ///
  /// - Throws: ``DataStoreError/unknownModel(_:)``, ``DataStoreError/unknownField(model:field:)`` for
  ///   a bad include, ``DataStoreError/decodingFailed(model:field:reason:)``, or an SQLite error.
  public func query<M: Model>(
    _ type: M.Type, byIdentifier identifier: M.Identifier, includes: [QueryInclude] = []
  ) async throws -> M? {
    if includes.isEmpty { return try loadOne(M.self, identifiers: identifier.components) }
    let mapping = try mapping(for: M.self)
    let names = identifier.components.map(\.name)
    let sql =
      "SELECT \(mapping.selectList) FROM \(quote(mapping.table)) WHERE "
      + names.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
    return try connection.withConnection { connection in
      try connection.transaction(write: false) {
        try fetch(
          M.self, mapping, sql: sql, bindings: identifier.components.map { SQLValue($0.value) },
          includes: includes, connection
        ).first
      }
    }
  }

  /// The `M`s matching `predicate`, in `sort` order (unsorted: SQLite's table order), skipping
  /// `offset` and returning at most `limit`, with `includes` loaded eagerly.
  ///
  /// One `SELECT` with every value bound; each included association adds one `IN (…)` query per
  /// level (per 500 distinct keys).
  ///
  /// - Throws: ``DataStoreError/invalidArgument(name:value:reason:)`` when `limit` or `offset` is
  ///   negative, ``DataStoreError/unknownField(model:field:)`` or
  ///   ``DataStoreError/invalidPredicate(model:field:reason:)`` for a bad predicate, sort or include,
  ///   ``DataStoreError/decodingFailed(model:field:reason:)``, or an SQLite error.
  public func query<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate = .all, sort: [QuerySort] = [],
    limit: Int? = nil,
    offset: Int? = nil, includes: [QueryInclude] = []
  ) async throws -> [M] {
    try requireArgument("limit", limit, atLeast: 0)
    try requireArgument("offset", offset, atLeast: 0)
    let mapping = try mapping(for: M.self)
    let condition = try mapping.sql(for: predicate)
    var sql = "SELECT \(mapping.selectList) FROM \(quote(mapping.table))"
    if case .all = predicate {} else { sql += " WHERE " + condition.sql }
    sql += try mapping.sql(for: sort)
    var bindings = condition.bindings
    if limit != nil || offset != nil {
      sql += " LIMIT ? OFFSET ?"
      bindings += [.integer(Int64(limit ?? -1)), .integer(Int64(offset ?? 0))]
    }
    return try connection.withConnection { connection in
      if includes.isEmpty {
        return try fetch(M.self, mapping, sql: sql, bindings: bindings, includes: [], connection)
      }
      return try connection.transaction(write: false) {
        try fetch(M.self, mapping, sql: sql, bindings: bindings, includes: includes, connection)
      }
    }
  }

  /// The number of `M`s matching `predicate` (`SELECT count(*)`).
  ///
  /// - Throws: As ``query(_:where:sort:limit:offset:includes:)``.
  public func count<M: Model>(_ type: M.Type, where predicate: QueryPredicate = .all) async throws
    -> Int
  {
    let mapping = try mapping(for: M.self)
    let condition = try mapping.sql(for: predicate)
    let sql = "SELECT count(*) FROM \(quote(mapping.table)) WHERE " + condition.sql
    return try connection.withConnection { connection in
      let statement = try connection.prepare(sql)
      defer { statement.reset() }
      try statement.bind(condition.bindings)
      return try statement.step() ? Int(statement.int64(0)) : 0
    }
  }

  // MARK: Deleting

  /// Deletes `model` by its identifier; rows whose `@belongsTo` points at it are deleted too
  /// (`ON DELETE CASCADE`, recursively).
  ///
  /// - Returns: `true` when a row was deleted.
  /// - Throws: ``DataStoreError/unknownModel(_:)`` or an SQLite error.
  @discardableResult
  public func delete<M: Model>(_ model: M) async throws -> Bool {
    try await delete(M.self, byIdentifier: model.identifier)
  }

  /// Deletes the `M` with `identifier` (cascading as ``delete(_:)``).
  ///
  /// - Returns: `true` when a row was deleted.
  @discardableResult
  public func delete<M: Model>(_ type: M.Type, byIdentifier identifier: M.Identifier) async throws
    -> Bool
  {
    let predicate = QueryPredicate.and(identifier.components.map { .field($0.name, .eq($0.value)) })
    return try await delete(M.self, where: predicate) > 0
  }

  /// Deletes every `M` matching `predicate` in one transaction (cascading as ``delete(_:)``).
  ///
  /// - Returns: The number of `M` rows deleted (rows removed by cascade not counted).
  /// - Throws: As ``query(_:where:sort:limit:offset:includes:)``.
  @discardableResult
  public func delete<M: Model>(_ type: M.Type, where predicate: QueryPredicate) async throws -> Int
  {
    let mapping = try mapping(for: M.self)
    let condition = try mapping.sql(for: predicate)
    let keyColumns = mapping.primaryKeyColumns
    let sql =
      "DELETE FROM \(quote(mapping.table)) WHERE " + condition.sql + " RETURNING "
      + keyColumns.map { quote(mapping.columns[$0].name) }.joined(separator: ", ")
    let deleted = try connection.withConnection { connection in
      try connection.transaction(write: true) {
        let statement = try connection.prepare(sql)
        defer { statement.reset() }
        try statement.bind(condition.bindings)
        var deleted: [ModelIdentifier] = []
        while try statement.step() {
          let components = keyColumns.enumerated().map { offset, index in
            let column = mapping.columns[index]
            let value =
              statement.value(Int32(offset)).keyValue(for: column.fieldType) ?? .string("")
            return IdentifierComponent(name: column.name, value: value)
          }
          deleted.append(ModelIdentifier(modelName: mapping.schema.name, components: components))
        }
        return deleted
      }
    }
    observers.deleted(deleted, name: mapping.schema.name)
    return deleted.count
  }

  // MARK: Batch loading

  /// Loads the `M` for each identifier set of `batch` (as ``DataStoreReferenceProvider/load(batch:)``):
  /// duplicates are read once, with one `IN (…)` query per 500 distinct keys.
  ///
  /// - Returns: One result per element of `batch`, same order (`nil` where nothing matches).
  /// - Throws: ``DataStoreError/invalidPredicate(model:field:reason:)`` when the elements name different
  ///   fields, ``DataStoreError/unknownField(model:field:)``, or an SQLite error.
  public func load<M: Model>(_ type: M.Type, batch: [[IdentifierComponent]]) async throws -> [M?] {
    try loadBatch(M.self, batch: batch)
  }

  /// Loads the model that the `@belongsTo`/`@hasOne` field `key` of each of `models` points at, all
  /// at once: the FK values are read from the models (no query), deduplicated, and loaded with one
  /// `IN (…)` query per 500 distinct keys. N comments of 10 posts cost one query.
  ///
  /// - Parameters:
  ///   - key: The association field (`Comment.keys.post`).
  ///   - models: The models whose references to load.
  ///   - target: The referenced model type.
  /// - Returns: One result per element of `models`, same order (`nil` for an empty reference).
  /// - Throws: ``DataStoreError/unknownField(model:field:)`` when `key` is not a `@belongsTo`/`@hasOne`
  ///   with FK fields on `Owner`, or an SQLite error.
  public func loadReferences<Owner: Model, Target: Model>(
    _ key: some ModelKey, of models: [Owner], as target: Target.Type
  ) async throws -> [Target?] {
    let mapping = try mapping(for: Owner.self)
    guard case .reference(let position)? = mapping.plans[key.name] else {
      throw DataStoreError.unknownField(model: mapping.schema.name, field: key.name)
    }
    let plan = mapping.references[position]
    let capture = ReferenceCapture(field: key.name)
    // Each model's position in `distinct` (-1 for an empty reference): one hash per model. References
    // decoded from one query share the identifiers array of their parent, so the array's storage
    // address is tried first (all references stay alive meanwhile, so no address is reused).
    var positions: [Int] = []
    positions.reserveCapacity(models.count)
    var positionOfStorage: [UnsafeRawPointer: Int] = [:]
    var positionOfKey: [[KeyValue]: Int] = [:]
    var distinct: [[KeyValue]] = []
    for model in models {
      guard let reference = try capture.capture(model) else {
        positions.append(-1)
        continue
      }
      var storage: UnsafeRawPointer?
      if let identifiers = reference.boxIdentifiers, !identifiers.isEmpty {
        storage = identifiers.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        if let storage, let position = positionOfStorage[storage] {
          positions.append(position)
          continue
        }
      }
      guard let values = try foreignKeyValues(reference, plan: plan, owner: mapping) else {
        positions.append(-1)
        continue
      }
      let position: Int
      if let known = positionOfKey[values] {
        position = known
      } else {
        position = distinct.count
        positionOfKey[values] = position
        distinct.append(values)
      }
      positions.append(position)
      if let storage { positionOfStorage[storage] = position }
    }
    let grouped = try connection.withConnection { connection in
      try connection.transaction(write: false) {
        try fetchGrouped(
          Target.self, byColumns: plan.associatedFields, keys: distinct, includes: [], connection)
      }
    }
    let loaded = distinct.map { grouped[$0]?.first as? Target }
    return positions.map { $0 < 0 ? nil : loaded[$0] }
  }

  /// The FK values `reference` holds for `plan` of a model of `owner`, or `nil` for an empty reference.
  func foreignKeyValues(_ reference: any LazyReferenceBox, plan: ReferencePlan, owner: TableMapping)
    throws -> [KeyValue]?
  {
    switch reference.boxState {
    case .loaded(nil):
      return nil
    case .loaded(let model?):
      let components = model.identifier.components
      if components.count == plan.associatedFields.count,
        zip(components, plan.associatedFields).allSatisfy({ $0.name == $1 })
      {
        return components.map(\.value)
      }
      let targetMapping = try mapping(for: type(of: model))
      let row = try RowEncoder.encode(model, mapping: targetMapping, store: self)
      return try plan.associatedFields.map { name in
        guard let index = targetMapping.column(named: name),
          let value = row[index].keyValue(for: targetMapping.columns[index].fieldType)
        else {
          throw DataStoreError.missingRequiredField(model: targetMapping.schema.name, field: name)
        }
        return value
      }
    case .notLoaded(let identifiers):
      guard identifiers.count == plan.associatedFields.count else {
        throw DataStoreError.encodingFailed(
          model: owner.schema.name, field: plan.field,
          reason:
            "the reference holds \(identifiers.count) key values, \(plan.associatedFields.count) expected"
        )
      }
      if zip(identifiers, plan.associatedFields).allSatisfy({ $0.name == $1 }) {
        return identifiers.map(\.value)
      }
      return plan.associatedFields.enumerated().map { offset, name in
        identifiers.first { $0.name == name }?.value ?? identifiers[offset].value
      }
    }
  }
}
