import LazyModel

/// Creates or migrates the tables of a registry, in one write transaction.
///
/// Allowed changes: a model that has no table gets one; a nullable column that the table lacks is
/// added (`ALTER TABLE … ADD COLUMN`, with its `REFERENCES` clause when it is a one-column
/// `@belongsTo` FK); a table that lacks a `@belongsTo`'s `FOREIGN KEY … ON DELETE CASCADE` (a
/// composite FK, which `ALTER TABLE` cannot add, one stored without the cascade, or one an older
/// store declared immediate instead of `DEFERRABLE INITIALLY DEFERRED`) is rebuilt with it —
/// SQLite's procedure for changes `ALTER TABLE`
/// cannot make (<https://www.sqlite.org/lang_altertable.html#otheralter>): foreign keys off, create
/// the new table, copy the rows, drop the old one, rename, and `PRAGMA foreign_key_check` before
/// committing; missing indexes are created, and one stored on other columns than the schema now
/// asks for is made again. Everything else (a removed, retyped or newly required
/// column, a changed primary key, a table whose model left the registry, stored rows that break a
/// `FOREIGN KEY` being added) throws ``DataStoreError/incompatibleSchema(model:reason:)`` and rolls
/// back, so the file's schema and rows are unchanged (opening a file still switches it to WAL
/// mode).
enum Migration {
  static func run(_ mappings: [TableMapping], on connection: Connection) throws {
    // Foreign keys are off while tables are rebuilt: dropping the old table with them on would
    // delete (ON DELETE CASCADE) the rows of every table that refers to it. The pragma is a no-op
    // inside a transaction, so it is switched around it.
    try connection.execute("PRAGMA foreign_keys = OFF")
    do {
      try migrate(mappings, connection)
    } catch {
      try connection.execute("PRAGMA foreign_keys = ON")
      throw error
    }
    try connection.execute("PRAGMA foreign_keys = ON")
  }

  private static func migrate(_ mappings: [TableMapping], _ connection: Connection) throws {
    try connection.transaction(write: true) {
      let existing = try tableNames(connection)
      let known = Set(mappings.map(\.table))
      // The engine's change log (Engine/ChangeLog.swift) and the sync engine's outbox and metadata
      // tables (Sync/Outbox.swift) are the store's own.
      for table in existing.sorted()
      where !known.contains(table) && !ChangeLog.isEngineTable(table)
        && !table.hasPrefix(Outbox.tablePrefix)
      {
        throw DataStoreError.incompatibleSchema(
          model: table,
          reason: "the registry has no model \(table); its stored rows would be orphaned")
      }
      for mapping in mappings {
        if existing.contains(mapping.table) {
          try migrate(mapping, connection)
          if try !missingForeignKeys(mapping, connection).isEmpty {
            try rebuild(mapping, connection)
          } else if try !foreignKeysAreDeferred(mapping, connection) {
            // Only the deferral is missing (a file of an older store): the rows held the same
            // constraint, so they are kept as they are, even a child the sync engine stored
            // before its parent (remote writes do not enforce foreign keys).
            try rebuild(mapping, connection, checkingForeignKeys: false)
          }
        } else {
          try connection.execute(mapping.createTableSQL)
        }
        try dropChangedIndexes(mapping, connection)
        for sql in mapping.createIndexSQL { try connection.execute(sql) }
      }
    }
  }

  /// The `@belongsTo` references of `mapping` whose `FOREIGN KEY … ON DELETE CASCADE` the stored
  /// table lacks (by target table, FK columns, parent columns and delete action).
  private static func missingForeignKeys(_ mapping: TableMapping, _ connection: Connection) throws
    -> [ReferencePlan]
  {
    let statement = try connection.prepare(
      "SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq"
    )
    defer { statement.reset() }
    try statement.bind([.text(mapping.table)])
    var stored: [Int64: (table: String, from: [String], to: [String], onDelete: String)] = [:]
    while try statement.step() {
      let id = statement.int64(0)
      stored[id, default: (statement.text(1), [], [], statement.text(4))].from.append(
        statement.text(2))
      stored[id]?.to.append(statement.text(3))
    }
    return mapping.references.filter { reference in
      reference.isBelongsTo && mapping.foreignKeyClause(reference) != nil
        && !stored.values.contains {
          $0.table == reference.target.schema.name && $0.from == reference.targetNames
            && $0.to == reference.associatedFields && $0.onDelete.uppercased() == "CASCADE"
        }
    }
  }

  /// Whether every `FOREIGN KEY` of the stored table of `mapping` is `DEFERRABLE INITIALLY
  /// DEFERRED` (``TableMapping/foreignKeyActions``). SQLite reports no deferral in
  /// `pragma_foreign_key_list`, so the stored `CREATE TABLE` is read: it must say `INITIALLY
  /// DEFERRED` once per constraint (a column added by `ALTER TABLE … ADD COLUMN … REFERENCES`
  /// is appended to that text with its clause). Stores before this rule declared them immediate
  /// and deferred them per transaction with `PRAGMA defer_foreign_keys`.
  private static func foreignKeysAreDeferred(_ mapping: TableMapping, _ connection: Connection) throws
    -> Bool
  {
    let count = try connection.prepare(
      "SELECT count(DISTINCT id) FROM pragma_foreign_key_list(?)", cached: false)
    defer { count.reset() }
    try count.bind([.text(mapping.table)])
    let constraints = try count.step() ? Int(count.int64(0)) : 0
    guard constraints > 0 else { return true }
    let schema = try connection.prepare(
      "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", cached: false)
    defer { schema.reset() }
    try schema.bind([.text(mapping.table)])
    guard try schema.step() else { return true }
    let sql = schema.text(0).uppercased()
    return sql.components(separatedBy: "INITIALLY DEFERRED").count - 1 >= constraints
  }

  /// Rebuilds the table of `mapping` with its full `CREATE TABLE` (every `FOREIGN KEY`, deferred),
  /// keeping every row, and makes again what the file had on it (step 8 of SQLite's procedure):
  /// the table's indexes and triggers, and every view and trigger of the file (any of which may
  /// name the table; SQLite checks them all when a table is renamed), from their stored SQL in
  /// creation order. Runs inside the migration's transaction with foreign keys off; with
  /// `checkingForeignKeys`, step 10 (`PRAGMA foreign_key_check`) runs before the commit.
  ///
  /// - Throws: ``DataStoreError/incompatibleSchema(model:reason:)`` when, `checkingForeignKeys`,
  ///   stored rows refer to rows that do not exist, so the new `FOREIGN KEY` cannot hold (the
  ///   transaction rolls back).
  private static func rebuild(
    _ mapping: TableMapping, _ connection: Connection, checkingForeignKeys: Bool = true
  ) throws {
    let rebuilt = "modelgen_rebuild_" + mapping.table
    let columns = mapping.columns.map { quote($0.name) }.joined(separator: ", ")
    let dependents = try schemaObjects(dependingOn: mapping.table, connection)
    do {
      try connection.execute(mapping.createTableSQL(named: rebuilt))
      try connection.execute(
        "INSERT INTO \(quote(rebuilt)) (\(columns)) SELECT \(columns) FROM \(quote(mapping.table))")
      for object in dependents.reversed() where object.type != "index" {
        try connection.execute("DROP \(object.type.uppercased()) \(quote(object.name))")
      }
      try connection.execute("DROP TABLE \(quote(mapping.table))")
      try connection.execute("ALTER TABLE \(quote(rebuilt)) RENAME TO \(quote(mapping.table))")
      for object in dependents { try connection.execute(object.sql) }
    } catch DataStoreError.sqlite(_, let message, _) {
      // E.g. a trigger or view another program wrote that no longer compiles.
      throw DataStoreError.incompatibleSchema(
        model: mapping.schema.name,
        reason:
          "the table must be rebuilt to add its FOREIGN KEY, and SQLite refused: \(message)")
    }
    guard checkingForeignKeys else { return }
    let check = try connection.prepare(
      "SELECT parent, count(*) FROM pragma_foreign_key_check(?) GROUP BY parent ORDER BY parent",
      cached: false)
    defer { check.reset() }
    try check.bind([.text(mapping.table)])
    if try check.step() {
      throw DataStoreError.incompatibleSchema(
        model: mapping.schema.name,
        reason:
          "\(check.int64(1)) stored row(s) refer to \(check.text(0)) rows that do not exist, so the FOREIGN KEY the schema asks for cannot be added"
      )
    }
  }

  /// The indexes and triggers of `table` and every view and trigger of the file, with the SQL that
  /// made them, in creation order (automatic indexes, which have no SQL, are left out).
  private static func schemaObjects(dependingOn table: String, _ connection: Connection) throws
    -> [(type: String, name: String, sql: String)]
  {
    let statement = try connection.prepare(
      "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND ((type = 'index' AND tbl_name = ?) OR type IN ('trigger', 'view')) ORDER BY rowid",
      cached: false)
    defer { statement.reset() }
    try statement.bind([.text(table)])
    var objects: [(type: String, name: String, sql: String)] = []
    while try statement.step() {
      objects.append((statement.text(0), statement.text(1), statement.text(2)))
    }
    return objects
  }

  /// Drops each index of `mapping` that the file has under its name but on other columns (made by
  /// an earlier schema or store version), so that it is created again as the schema asks.
  private static func dropChangedIndexes(_ mapping: TableMapping, _ connection: Connection) throws {
    let statement = try connection.prepare(
      "SELECT name FROM pragma_index_info(?) ORDER BY seqno")
    defer { statement.reset() }
    for index in mapping.indexes {
      statement.reset()
      try statement.bind([.text(index.name)])
      var stored: [String] = []
      while try statement.step() { stored.append(statement.text(0)) }
      statement.reset()
      if !stored.isEmpty, stored != index.columns {
        try connection.execute("DROP INDEX \(quote(index.name))")
      }
    }
  }

  private static func tableNames(_ connection: Connection) throws -> Set<String> {
    let statement = try connection.prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    )
    defer { statement.reset() }
    var names: Set<String> = []
    while try statement.step() { names.insert(statement.text(0)) }
    return names
  }

  private struct StoredColumn {
    let name: String
    let type: String
    let notNull: Bool
    let primaryKeyPosition: Int
  }

  private static func migrate(_ mapping: TableMapping, _ connection: Connection) throws {
    let statement = try connection.prepare(
      "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)")
    defer { statement.reset() }
    try statement.bind([.text(mapping.table)])
    var stored: [String: StoredColumn] = [:]
    while try statement.step() {
      let column = StoredColumn(
        name: statement.text(0), type: statement.text(1).uppercased(),
        notNull: statement.int64(2) != 0,
        primaryKeyPosition: Int(statement.int64(3)))
      stored[column.name] = column
    }
    let model = mapping.schema.name
    let expectedKey = mapping.primaryKeyColumns.map { mapping.columns[$0].name }
    let storedKey = stored.values.filter { $0.primaryKeyPosition > 0 }.sorted {
      $0.primaryKeyPosition < $1.primaryKeyPosition
    }.map(\.name)
    guard storedKey == expectedKey else {
      throw DataStoreError.incompatibleSchema(
        model: model, reason: "primary key changed from \(storedKey) to \(expectedKey)")
    }
    let expectedNames = Set(mapping.columns.map(\.name))
    for name in stored.keys.sorted() where !expectedNames.contains(name) {
      throw DataStoreError.incompatibleSchema(
        model: model,
        reason: "column \(name) is no longer in the schema; dropping it would lose its data")
    }
    for column in mapping.columns {
      if let old = stored[column.name] {
        guard old.type == column.storage.sqlType else {
          throw DataStoreError.incompatibleSchema(
            model: model,
            reason:
              "column \(column.name) changed type from \(old.type) to \(column.storage.sqlType)")
        }
        guard
          old.notNull == column.isNotNull
            || (old.notNull && !column.isNotNull && old.primaryKeyPosition > 0)
        else {
          throw DataStoreError.incompatibleSchema(
            model: model,
            reason:
              "column \(column.name) changed from \(old.notNull ? "required" : "optional") to \(column.isNotNull ? "required" : "optional")"
          )
        }
        continue
      }
      guard !column.isNotNull else {
        throw DataStoreError.incompatibleSchema(
          model: model,
          reason: "new required column \(column.name) has no value for the stored rows")
      }
      var sql =
        "ALTER TABLE \(quote(mapping.table)) ADD COLUMN \(quote(column.name)) \(column.storage.sqlType)"
      if let reference = mapping.references.first(where: {
        $0.targetNames == [column.name] && $0.isBelongsTo
      }),
        mapping.foreignKeyClause(reference) != nil
      {
        sql +=
          " REFERENCES \(quote(reference.target.schema.name)) (\(quote(reference.associatedFields[0]))) "
          + TableMapping.foreignKeyActions
      }
      try connection.execute(sql)
    }
  }
}
