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
  ///
  /// - Throws: ``DataStoreError/decodingFailed(model:field:reason:)`` naming `model` and `field`
  ///   for a Boolean column holding an integer other than 0 or 1 (what a save binds; a decoded
  ///   `Bool` field rejects the same values).
  func keyValue(for type: ModelFieldType, model: String, field: String) throws(DataStoreError)
    -> KeyValue?
  {
    switch (self, type) {
    case (.null, _): return nil
    case (.integer(let number), .scalar(.boolean)):
      guard number == 0 || number == 1 else {
        throw .decodingFailed(
          model: model, field: field, reason: "the stored integer \(number) is not a Boolean (0 or 1)")
      }
      return .bool(number == 1)
    case (.integer(let number), .scalar(.float)): return .double(Double(number))
    case (.integer(let number), _): return .int(Int(number))
    case (.real(let number), _): return .double(number)
    case (.text(let text), _): return .string(text)
    }
  }
}
