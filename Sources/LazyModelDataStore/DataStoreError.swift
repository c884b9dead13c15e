import LazyModel

/// Errors of ``DataStore``: each carries the model, the field, the identifiers or the SQL involved.
///
/// Values only (`Sendable`, `Equatable`). SQLite's own failures are ``sqlite(code:message:sql:)``;
/// every other case is detected by the store before or after talking to SQLite.
public enum DataStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// SQLite returned `code` (an extended result code, `sqlite3_extended_errcode`) for `sql`.
  case sqlite(code: Int32, message: String, sql: String?)
  /// The model type is not in the store's `ModelRegistry`.
  case unknownModel(String)
  /// A predicate, sort, include or identifier names a field the model does not have.
  case unknownField(model: String, field: String)
  /// A predicate cannot be applied to the field (for example `beginsWith` on an association whose
  /// key has two components, or `references` with the wrong number of values).
  case invalidPredicate(model: String, field: String, reason: String)
  /// `save` was given a model whose required field (or the FK of a required association) is null.
  case missingRequiredField(model: String, field: String)
  /// `save` was given a model whose `@belongsTo` field points at a row that does not exist.
  case foreignKeyViolation(model: String, field: String, identifiers: [IdentifierComponent])
  /// The file's tables do not match the registry in a way that cannot be migrated without losing
  /// or inventing data (a removed or retyped column, a new required column, a changed primary key,
  /// a model no longer in the registry). Nothing was changed.
  case incompatibleSchema(model: String, reason: String)
  /// A stored value could not become the Swift value of `field` (wrong storage class, bad JSON,
  /// unknown enum raw value).
  case decodingFailed(model: String, field: String, reason: String)
  /// A model could not be turned into column values.
  case encodingFailed(model: String, field: String, reason: String)
  /// A page cursor that this store did not produce.
  case invalidCursor(String)
  /// `save` was given a model holding a NaN or infinite `Float` at `field` (a path into lists and
  /// embedded values: `scores[2]`, `origin.x`, `path[1].y`). SQLite stores NaN as `NULL` and JSON
  /// has neither NaN nor infinity, so the value would not read back as saved; nothing was written.
  /// `value` is Swift's description of the number (`nan`, `inf`, `-inf`).
  case nonFiniteNumber(model: String, field: String, value: String)
  /// The argument `name` (`limit`, `offset`, `listPageSize`) has a value out of its range, thrown
  /// before any SQL runs: `limit` and `offset` must be ≥ 0, a page size ≥ 1.
  case invalidArgument(name: String, value: Int, reason: String)
  /// `save` was given a model whose values for `fields` equal a stored row's where the table has a
  /// unique index over them (an index added to the file outside this store; the store's own tables
  /// have none besides the primary key, which `save` updates in place). `identifiers` is the saved
  /// model's primary key. Nothing was written.
  case uniqueConstraintViolation(
    model: String, fields: [String], identifiers: [IdentifierComponent])
  /// The database `file` stayed locked by another connection (another process, or another
  /// ``DataStore`` on the same file, holding the write lock) for the whole busy timeout
  /// (`timeoutMilliseconds`, ``DataStore/init(fileURL:registry:listPageSize:readerCount:busyTimeout:traceSQL:)``'s
  /// `busyTimeout`); nothing was written.
  case busy(file: String, timeoutMilliseconds: Int)
  /// The database `file` cannot be opened as a store, for `reason` (what is wrong, then a hint):
  /// `file` is a directory, its directory does not exist or is not writable (the store creates the
  /// file and its `-wal`/`-shm` companions there), the file is not an SQLite database, or it is
  /// read-only. `code` is SQLite's extended result code (`SQLITE_CANTOPEN` 14, `SQLITE_NOTADB` 26,
  /// `SQLITE_READONLY` 8). Thrown by the ``DataStore`` initializers before any table is touched:
  /// nothing was created or written (SQLite makes no `-wal`/`-shm` file for a file it cannot read
  /// as a database).
  case cannotOpen(file: String, code: Int32, reason: String)
  /// The stored table `table` of `model` was dropped or altered by another connection after the
  /// store opened (its statements no longer compile: SQLite's `no such table` or `no such column`),
  /// for `reason` (which table or column is missing, and a hint). Reopening the store migrates the
  /// file again (a missing table is created; a missing column is added when nullable, else the
  /// open is ``incompatibleSchema(model:reason:)``). Nothing was written by the failed call.
  case tableChanged(model: String, table: String, reason: String)
  /// The store was used where it cannot be: `operation` (`write`, `read`, `save`, …) was called
  /// from inside one of its own ``DataStore/write(_:)``/``DataStore/read(_:)`` closures (which
  /// would wait for itself), or a transaction was used after its closure returned or from another
  /// thread. Nothing ran.
  case transactionMisuse(operation: String, reason: String)
  /// A committed change to a row of `model` could not be decoded for its observers
  /// (``DataStore/observe(_:)``, ``DataStore/observeChanges(_:)``): `identifiers` are the row's
  /// primary-key values as stored, `operation` is `save` (an insert or update) or `delete`, and
  /// `error` is why the row does not decode (usually ``decodingFailed(model:field:reason:)``: another
  /// process, or a store with an older or newer schema of the model, stored a value the Swift type
  /// cannot hold, such as an integer out of range). The change is committed; its event is not
  /// yielded. Reported by ``DataStore/observeFailures()``, never thrown.
  indirect case undecodableChange(
    model: String, identifiers: [IdentifierComponent], operation: String, error: DataStoreError)

  /// A readable description naming the model, field and SQL.
  public var description: String {
    switch self {
    case .sqlite(let code, let message, let sql):
      return "SQLite error \(code): \(message)" + (sql.map { " (SQL: \($0))" } ?? "")
    case .unknownModel(let model): return "model \(model) is not in the DataStore's registry"
    case .unknownField(let model, let field): return "\(model) has no field \(field)"
    case .invalidPredicate(let model, let field, let reason):
      return "invalid predicate on \(model).\(field): \(reason)"
    case .missingRequiredField(let model, let field): return "\(model).\(field) is required but nil"
    case .foreignKeyViolation(let model, let field, let identifiers):
      return
        "\(model).\(field) points at \(identifiers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")), which does not exist"
    case .incompatibleSchema(let model, let reason):
      return "stored table of \(model) cannot be migrated: \(reason)"
    case .decodingFailed(let model, let field, let reason):
      return "cannot decode \(model).\(field): \(reason)"
    case .encodingFailed(let model, let field, let reason):
      return "cannot encode \(model).\(field): \(reason)"
    case .invalidCursor(let cursor): return "invalid page cursor \(cursor)"
    case .nonFiniteNumber(let model, let field, let value):
      return "cannot save \(model).\(field) = \(value): only finite numbers can be stored"
    case .invalidArgument(let name, let value, let reason):
      return "invalid argument \(name) = \(value): \(reason)"
    case .busy(let file, let timeout):
      return "the database \(file) stayed locked by another connection for \(timeout) ms"
    case .cannotOpen(let file, let code, let reason):
      return "cannot open the database \(file) (SQLite error \(code)): \(reason)"
    case .tableChanged(let model, let table, let reason):
      return "the stored table \(table) of \(model) changed while the store was open: \(reason)"
    case .transactionMisuse(let operation, let reason):
      return "\(operation) cannot run: \(reason)"
    case .undecodableChange(let model, let identifiers, let operation, let error):
      return
        "the committed \(operation) of \(model) \(identifiers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")) cannot be reported to observers: \(error)"
    case .uniqueConstraintViolation(let model, let fields, let identifiers):
      return
        "\(model) \(identifiers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")) has the same \(fields.joined(separator: ", ")) as a stored row, which a unique index forbids"
    }
  }
}
