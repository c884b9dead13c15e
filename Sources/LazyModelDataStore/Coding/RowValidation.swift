import Foundation
import LazyModel

extension TableMapping {
  /// Checks the column values `row` of a model about to be saved, so that SQLite never changes or
  /// rejects them with a raw error: every number finite (SQLite stores NaN as `NULL`), every value of
  /// its column's storage class (a `STRICT` table rejects some mismatches and silently converts others,
  /// such as the text `"12"` in an `INTEGER` column), and no primary-key column `NULL` (`STRICT` tables
  /// make key columns `NOT NULL`).
  ///
  /// - Throws: ``DataStoreError/nonFiniteNumber(model:field:value:)``,
  ///   ``DataStoreError/encodingFailed(model:field:reason:)`` for a storage class mismatch,
  ///   ``DataStoreError/missingRequiredField(model:field:)`` for a `NULL` key column.
  func validate(_ row: [SQLValue]) throws {
    for (index, column) in columns.enumerated() {
      switch (row[index], column.storage) {
      case (.null, _):
        if primaryKeyColumns.contains(index) {
          throw DataStoreError.missingRequiredField(model: schema.name, field: column.field)
        }
      case (.real(let number), _) where !number.isFinite:
        throw DataStoreError.nonFiniteNumber(
          model: schema.name, field: column.field, value: "\(number)")
      case (.text, .text), (.text, .json), (.integer, .integer), (.integer, .boolean),
        (.integer, .real), (.real, .real):
        continue
      case (let value, _):
        throw DataStoreError.encodingFailed(
          model: schema.name, field: column.field,
          reason:
            "\(value.storageClass) value for the \(column.storage.sqlType) column \(column.name)")
      }
    }
  }

  /// The typed error for the SQLite constraint failure `code`/`message` raised while saving `row`,
  /// or `nil` when none fits. ``validate(_:)`` already rules out `NOT NULL` and `STRICT` type
  /// failures, and the upsert rules out primary-key conflicts, so what remains is a unique index added
  /// to the file by someone else; SQLite names its columns in the message
  /// (`UNIQUE constraint failed: T.a, T.b`).
  func constraintFailure(code: Int32, message: String, row: [SQLValue]) -> DataStoreError? {
    guard code == sqliteConstraintUnique || code == sqliteConstraintPrimaryKey,
      let range = message.range(of: ": ", options: .backwards)
    else { return nil }
    let prefix = table + "."
    let fields = message[range.upperBound...].components(separatedBy: ", ").map { name in
      let column = name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
      return self.column(named: column).map { columns[$0].field } ?? column
    }
    let identifiers = primaryKeyColumns.map { index in
      IdentifierComponent(
        name: columns[index].name,
        value: (try? row[index].keyValue(
          for: columns[index].fieldType, model: schema.name, field: columns[index].field))
          ?? .string(""))
    }
    return .uniqueConstraintViolation(model: schema.name, fields: fields, identifiers: identifiers)
  }
}

extension SQLValue {
  /// SQLite's name of the storage class (`NULL`, `INTEGER`, `REAL`, `TEXT`).
  var storageClass: String {
    switch self {
    case .null: return "NULL"
    case .integer: return "INTEGER"
    case .real: return "REAL"
    case .text: return "TEXT"
    }
  }
}

extension RowEncoder {
  /// The typed error for `error`, thrown by `JSONEncoder` while encoding the JSON column of `field`:
  /// ``DataStoreError/nonFiniteNumber(model:field:value:)`` for a NaN or infinite number, else
  /// ``DataStoreError/encodingFailed(model:field:reason:)``, naming the path inside the value
  /// (`scores[2]`, `origin.x`).
  func jsonFailure(_ error: any Error, field: String) -> DataStoreError {
    guard case EncodingError.invalidValue(let value, let context) = error else {
      return .encodingFailed(model: mapping.schema.name, field: field, reason: "\(error)")
    }
    let path = field + Self.path(context.codingPath)
    let number: Double? =
      switch value {
      case let double as Double: double
      case let float as Float: Double(float)
      default: nil
      }
    if let number, !number.isFinite {
      return .nonFiniteNumber(model: mapping.schema.name, field: path, value: "\(number)")
    }
    return .encodingFailed(
      model: mapping.schema.name, field: path, reason: context.debugDescription)
  }

  /// `[2].x`-style text of a coding path (indexes in brackets, keys after dots).
  static func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
  }
}
