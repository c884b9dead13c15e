import LazyModel

/// A `WHERE`/`ORDER BY` fragment and the values bound to its `?` placeholders, in order.
struct SQLFragment: Sendable {
  var sql: String
  var bindings: [SQLValue]
}

extension TableMapping {
  /// The columns a predicate or sort on `field` compares: a data field's column, a
  /// `@belongsTo`/`@hasOne` field's FK columns, or an FK column named by its target name.
  func columns(forField field: String) throws -> [String] {
    switch plans[field] {
    case .column(let index)?: return [columns[index].name]
    case .reference(let position)?: return references[position].targetNames
    case .childReference?, .list?:
      throw DataStoreError.invalidPredicate(
        model: schema.name, field: field,
        reason: "the association is stored on \(field)'s model, not on \(schema.name)")
    case nil:
      guard column(named: field) != nil else {
        throw DataStoreError.unknownField(model: schema.name, field: field)
      }
      return [field]
    }
  }

  /// `predicate` as SQL over this table (every value a bound parameter, every name quoted).
  ///
  /// NULL columns follow AppSync's filters (a comparison with a missing attribute is false): `ne`
  /// and `notContains` match them, and `!p` matches every row `p` does not (`NOT IFNULL(p, 0)`).
  /// `contains`/`notContains` use `instr` on text and `json_each` membership on a list (a JSON array
  /// column, on which `beginsWith` matches nothing); an optional `@belongsTo`/`@hasOne` with a composite key is `eq(nil)` when any FK
  /// column is NULL. `beginsWith` compares the leading UTF-8 bytes (as BLOBs:
  /// text `length()` would stop at a NUL character); all case-sensitive and byte for byte, like
  /// SQLite's default BINARY collation.
  ///
  /// - Throws: ``DataStoreError/unknownField(model:field:)``, ``DataStoreError/invalidPredicate(model:field:reason:)``
  ///   (also for a NaN or infinite number, which SQLite cannot compare).
  func sql(for predicate: AnyQueryPredicate) throws -> SQLFragment {
    switch predicate {
    case .all:
      return SQLFragment(sql: "1", bindings: [])
    case .and(let parts), .or(let parts):
      var isAnd = false
      if case .and = predicate { isAnd = true }
      guard !parts.isEmpty else { return SQLFragment(sql: isAnd ? "1" : "0", bindings: []) }
      let compiled = try parts.map { try sql(for: $0) }
      return SQLFragment(
        sql: "(" + compiled.map(\.sql).joined(separator: isAnd ? " AND " : " OR ") + ")",
        bindings: compiled.flatMap(\.bindings))
    case .not(let inner):
      // A comparison with a NULL column is NULL in SQL, and `NOT NULL` is NULL again: the row would
      // drop out of both `p` and `!p`. AppSync (DynamoDB) treats a comparison with a missing
      // attribute as false, so `!p` holds there; IFNULL makes the store agree.
      let compiled = try sql(for: inner)
      return SQLFragment(sql: "NOT IFNULL(" + compiled.sql + ", 0)", bindings: compiled.bindings)
    case .field(let field, let comparison):
      return try sql(field: field, comparison)
    }
  }

  private func sql(field: String, _ comparison: QueryOperator) throws -> SQLFragment {
    let names = try columns(forField: field)
    let values: [KeyValue?]
    switch comparison {
    case .eq(let value), .ne(let value): values = [value]
    case .lt(let value), .le(let value), .gt(let value), .ge(let value): values = [value]
    case .between(let lower, let upper): values = [lower, upper]
    case .references(let keys): values = keys
    case .beginsWith, .contains, .notContains: values = []
    }
    for case .double(let number)? in values where !number.isFinite {
      // SQLite binds NaN as NULL, so the comparison would silently match nothing.
      throw DataStoreError.invalidPredicate(
        model: schema.name, field: field, reason: "\(number) is not a finite number")
    }
    if case .references(let values) = comparison {
      guard values.count == names.count else {
        throw DataStoreError.invalidPredicate(
          model: schema.name, field: field,
          reason: "\(values.count) key values for \(names.count) FK columns")
      }
      return SQLFragment(
        sql: "(" + names.map { "\(quote($0)) = ?" }.joined(separator: " AND ") + ")",
        bindings: values.map(SQLValue.init))
    }
    if names.count > 1, case .reference? = plans[field] {
      // A reference points at nothing when any FK column is NULL (it is decoded as `nil` then).
      switch comparison {
      case .eq(nil):
        return SQLFragment(
          sql: "(" + names.map { "\(quote($0)) IS NULL" }.joined(separator: " OR ") + ")",
          bindings: [])
      case .ne(nil):
        return SQLFragment(
          sql: "(" + names.map { "\(quote($0)) IS NOT NULL" }.joined(separator: " AND ") + ")",
          bindings: [])
      default: break
      }
    }
    guard names.count == 1, let name = names.first else {
      throw DataStoreError.invalidPredicate(
        model: schema.name, field: field,
        reason:
          "the association has a composite key (\(names.joined(separator: ", "))); compare it with eq(identifier)"
      )
    }
    let column = quote(name)
    if let index = self.column(named: name), case .list = columns[index].fieldType {
      // A list is stored as a JSON array: `contains` tests membership of one element (DynamoDB's
      // `contains` on a list attribute), never a substring of the JSON text, and `beginsWith`
      // never matches (DynamoDB's `begins_with` is false on a list, as on the local server).
      switch comparison {
      case .beginsWith:
        return SQLFragment(sql: "0", bindings: [])
      case .contains(let element):
        return SQLFragment(
          sql: "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE value = ?)",
          bindings: [.text(element)])
      case .notContains(let element):
        return SQLFragment(
          sql: "(\(column) IS NULL OR NOT EXISTS (SELECT 1 FROM json_each(\(column)) WHERE value = ?))",
          bindings: [.text(element)])
      default: break
      }
    }
    return try sql(column: column, field: field, comparison)
  }

  private func sql(column: String, field: String, _ comparison: QueryOperator) throws -> SQLFragment {
    switch comparison {
    case .eq(nil): return SQLFragment(sql: "\(column) IS NULL", bindings: [])
    case .eq(let value?): return SQLFragment(sql: "\(column) = ?", bindings: [SQLValue(value)])
    case .ne(nil): return SQLFragment(sql: "\(column) IS NOT NULL", bindings: [])
    case .ne(let value?): return SQLFragment(sql: "\(column) IS NOT ?", bindings: [SQLValue(value)])
    case .lt(let value): return SQLFragment(sql: "\(column) < ?", bindings: [SQLValue(value)])
    case .le(let value): return SQLFragment(sql: "\(column) <= ?", bindings: [SQLValue(value)])
    case .gt(let value): return SQLFragment(sql: "\(column) > ?", bindings: [SQLValue(value)])
    case .ge(let value): return SQLFragment(sql: "\(column) >= ?", bindings: [SQLValue(value)])
    case .between(let lower, let upper):
      return SQLFragment(
        sql: "\(column) BETWEEN ? AND ?", bindings: [SQLValue(lower), SQLValue(upper)])
    case .beginsWith(let prefix):
      // Every value begins with "" (SQLite's `substr` of an empty BLOB is NULL, not empty).
      guard !prefix.isEmpty else { return SQLFragment(sql: "\(column) IS NOT NULL", bindings: []) }
      return SQLFragment(
        sql: "substr(CAST(\(column) AS BLOB), 1, length(CAST(? AS BLOB))) = CAST(? AS BLOB)",
        bindings: [.text(prefix), .text(prefix)])
    case .contains(let text):
      return SQLFragment(sql: "instr(\(column), ?) > 0", bindings: [.text(text)])
    case .notContains(let text):
      // A NULL column contains nothing (as a missing attribute in AppSync's filter).
      return SQLFragment(
        sql: "(\(column) IS NULL OR instr(\(column), ?) = 0)", bindings: [.text(text)])
    case .references:
      throw DataStoreError.invalidPredicate(
        model: schema.name, field: field, reason: "references needs an association field")
    }
  }

  /// `ORDER BY …` for `sort` (empty when `sort` is empty).
  func sql<M: Model>(for sort: [QuerySort<M>]) throws -> String {
    guard !sort.isEmpty else { return "" }
    let terms = try sort.flatMap { criterion in
      try columns(forField: criterion.field).map {
        "\(quote($0)) \(criterion.ascending ? "ASC" : "DESC")"
      }
    }
    return " ORDER BY " + terms.joined(separator: ", ")
  }

  /// `"a" = ? AND "b" = ?` / `("a", "b") IN (VALUES (?, ?), …)` / `"a" IN (?, …)` for `count` keys.
  func membershipSQL(columns names: [String], count: Int) -> String {
    if names.count == 1 {
      return "\(quote(names[0])) IN (" + Array(repeating: "?", count: count).joined(separator: ", ")
        + ")"
    }
    let tuple = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
    return "(" + names.map(quote).joined(separator: ", ") + ") IN (VALUES "
      + Array(repeating: tuple, count: count).joined(separator: ", ") + ")"
  }
}
