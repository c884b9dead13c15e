import LazyModel

/// One SQLite value as bound to a statement parameter or read from a column.
///
/// Booleans are stored as `INTEGER` 0/1; `Temporal` values, enum raw values, IDs and strings as
/// `TEXT`; embedded types, lists and `AWSJSON` as JSON `TEXT`.
enum SQLValue: Sendable, Hashable {
  /// `NULL`.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// An IEEE double.
  case real(Double)
  /// UTF-8 text.
  case text(String)

  /// The SQL form of a key value.
  init(_ key: KeyValue) {
    switch key {
    case .string(let text): self = .text(text)
    case .int(let number): self = .integer(Int64(number))
    case .double(let number): self = .real(number)
    case .bool(let flag): self = .integer(flag ? 1 : 0)
    }
  }

  /// The key value of a column of `type`, or `nil` for `NULL`.
  func keyValue(for type: ModelFieldType) -> KeyValue? {
    switch (self, type) {
    case (.null, _): return nil
    case (.integer(let number), .scalar(.boolean)): return .bool(number != 0)
    case (.integer(let number), .scalar(.float)): return .double(Double(number))
    case (.integer(let number), _): return .int(Int(number))
    case (.real(let number), _): return .double(number)
    case (.text(let text), _): return .string(text)
    }
  }
}
