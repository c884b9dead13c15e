import Foundation
import LazyModel

/// Turns a model into the column values of its table (``TableMapping/columns`` order) through the
/// model's own `encode(to:)`, with no JSON text in between (embedded types and lists excepted: their
/// column holds JSON).
///
/// A `@belongsTo`/`@hasOne` reference becomes its FK column values: from the loaded model, or from the
/// identifiers of a not-loaded reference. `@hasMany` lists and `@hasOne(references:)` fields are not
/// stored on this row and are skipped.
final class RowEncoder: Encoder {
  let mapping: TableMapping
  let store: DataStore
  var values: [SQLValue]
  var failure: DataStoreError?
  /// FK values a reference gave for columns that a data field writes (checked after encoding).
  var sharedForeignKeys: [(column: Int, value: SQLValue, field: String)] = []
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(mapping: TableMapping, store: DataStore) {
    self.mapping = mapping
    self.store = store
    values = Array(repeating: .null, count: mapping.columns.count)
  }

  /// Where the last key was found in ``TableMapping/orderedPlans`` (see ``plan(_:)``).
  private var cursor = 0
  /// The `LazyReferenceBox` type of the last reference value encoded, by the identity of its type:
  /// the conformance is looked up once per encoder, not once per row.
  private var referenceType = ReferenceTypeCache()

  /// The column values of `model`.
  ///
  /// - Throws: ``DataStoreError/encodingFailed(model:field:reason:)`` when a field cannot be stored,
  ///   ``DataStoreError/nonFiniteNumber(model:field:value:)`` for a NaN or infinite number,
  ///   ``DataStoreError/missingRequiredField(model:field:)`` for a nil primary-key field (see
  ///   `TableMapping.validate(_:)`).
  static func encode(_ model: some Model, mapping: TableMapping, store: DataStore) throws
    -> [SQLValue]
  {
    try RowEncoder(mapping: mapping, store: store).encodeRow(model)
  }

  /// The column values of `model` (a model of ``mapping``), as ``encode(_:mapping:store:)``; the
  /// encoder can be reused for the next model (a save of many models encodes them all with one).
  ///
  /// - Throws: As ``encode(_:mapping:store:)``.
  func encodeRow(_ model: some Model) throws -> [SQLValue] {
    cursor = 0
    failure = nil
    sharedForeignKeys.removeAll(keepingCapacity: true)
    if values.count != mapping.columns.count {
      values = Array(repeating: .null, count: mapping.columns.count)
    }
    // The returned array is the caller's alone (no copy when it sets a timestamp); the next row
    // starts from a new one.
    defer { values = [] }
    let encoder = self
    do {
      try model.encode(to: encoder)
    } catch let error as DataStoreError {
      throw error
    } catch EncodingError.invalidValue(_, let context) {
      throw DataStoreError.encodingFailed(
        model: mapping.schema.name, field: String(Self.path(context.codingPath).dropFirst()),
        reason: context.debugDescription)
    } catch {
      throw DataStoreError.encodingFailed(model: mapping.schema.name, field: "", reason: "\(error)")
    }
    if let failure = encoder.failure { throw failure }
    // A column that is both a data field and a reference's FK (a key field that a `@belongsTo`
    // stores, issue 11) is written from the data field; the reference must agree with it.
    for shared in encoder.sharedForeignKeys where shared.value != encoder.values[shared.column] {
      let column = mapping.columns[shared.column]
      throw DataStoreError.encodingFailed(
        model: mapping.schema.name, field: shared.field,
        reason:
          "the reference holds \(shared.value) for \(column.name), but the field \(column.field) holds \(encoder.values[shared.column])"
      )
    }
    try mapping.validate(encoder.values)
    return encoder.values
  }

  /// The plan of the coding key `name`. A model's `encode(to:)` writes its keys in schema order
  /// (skipping nil optionals), so the next few entries of ``TableMapping/orderedPlans`` after the
  /// last key found are compared by name first (no hashing); any other key is looked up in the
  /// mapping's dictionary.
  @inline(__always) func plan(_ name: String) -> FieldPlan? {
    let ordered = mapping.orderedPlans
    var index = cursor
    let end = min(ordered.count, cursor + 4)
    while index < end {
      if ordered[index].name == name {
        cursor = index + 1
        return ordered[index].plan
      }
      index += 1
    }
    return mapping.plans[name]
  }

  /// The FK values of the reference `value` (a `LazyReference`) for `plan` when they can be read
  /// from its identifiers without its model (see `LazyReference.identifiersWithoutModel`), else
  /// `nil` (the caller then takes the general path).
  func foreignKeyValuesWithoutModel<T>(_ value: T, plan: ReferencePlan) -> [KeyValue]? {
    guard let box = referenceType.box(of: T.self) else { return nil }
    // A `LazyReference` is a final class: the value is its object reference.
    guard let identifiers = box.identifiersWithoutModel(of: unsafeBitCast(value, to: AnyObject.self))
    else { return nil }
    return DataStore.foreignKeyValues(identifiers, inOrderOf: plan)
  }

  func fail(_ field: String, _ reason: String) {
    if failure == nil {
      failure = .encodingFailed(model: mapping.schema.name, field: field, reason: reason)
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(RowKeyedEncoder<Key>(encoder: self, discarding: false))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    fail("", "a model must encode a keyed container")
    return DiscardingUnkeyedEncoder(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    fail("", "a model must encode a keyed container")
    return ColumnValueEncoder()
  }
}

/// Captures the one value a `Codable` type (enum, `Temporal`) encodes into a single-value container.
final class ColumnValueEncoder: Encoder, SingleValueEncodingContainer {
  var value: SQLValue = .null
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  var unsupported = false

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    unsupported = true
    return KeyedEncodingContainer(DiscardingKeyedEncoder<Key>())
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    unsupported = true
    return DiscardingUnkeyedEncoder(encoder: nil)
  }
  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() throws { value = .null }
  func encode(_ value: Bool) throws { self.value = .integer(value ? 1 : 0) }
  func encode(_ value: String) throws { self.value = .text(value) }
  func encode(_ value: Double) throws { self.value = .real(value) }
  func encode(_ value: Float) throws { self.value = .real(Double(value)) }
  func encode(_ value: Int) throws { self.value = .integer(Int64(value)) }
  func encode(_ value: Int8) throws { self.value = .integer(Int64(value)) }
  func encode(_ value: Int16) throws { self.value = .integer(Int64(value)) }
  func encode(_ value: Int32) throws { self.value = .integer(Int64(value)) }
  func encode(_ value: Int64) throws { self.value = .integer(value) }
  func encode(_ value: UInt) throws { try encode(UInt64(value)) }
  func encode(_ value: UInt8) throws { self.value = .integer(Int64(value)) }
  func encode(_ value: UInt16) throws { self.value = .integer(Int64(value)) }
  func encode(_ value: UInt32) throws { self.value = .integer(Int64(value)) }
  func encode(_ value: UInt64) throws {
    // SQLite integers are signed 64-bit: a larger value would read back as a negative number.
    guard let exact = Int64(exactly: value) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [], debugDescription: "\(value) does not fit SQLite's 64-bit signed INTEGER"))
    }
    self.value = .integer(exact)
  }
  func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

/// The keyed container of ``RowEncoder``: each key is looked up in the table mapping.
struct RowKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: RowEncoder
  let discarding: Bool
  var codingPath: [any CodingKey] { [] }

  private func set(_ value: SQLValue, forKey key: Key) {
    guard !discarding, case .column(let index)? = encoder.plan(key.stringValue) else {
      return
    }
    encoder.values[index] = value
  }

  mutating func encodeNil(forKey key: Key) throws { set(.null, forKey: key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    set(.integer(value ? 1 : 0), forKey: key)
  }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.text(value), forKey: key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { set(.real(value), forKey: key) }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    set(.real(Double(value)), forKey: key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    set(.integer(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), forKey: key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard !discarding, let plan = encoder.plan(key.stringValue) else { return }
    switch plan {
    case .column(let index):
      let column = encoder.mapping.columns[index]
      if column.storage == .json {
        let data: Data
        do {
          data = try JSONEncoder().encode(value)
        } catch {
          throw encoder.jsonFailure(error, field: column.field)
        }
        encoder.values[index] = .text(String(decoding: data, as: UTF8.self))
        return
      }
      let single = ColumnValueEncoder()
      do {
        try value.encode(to: single)
      } catch EncodingError.invalidValue(_, let context) {
        encoder.fail(column.field, context.debugDescription)
        return
      }
      if single.unsupported {
        encoder.fail(column.field, "\(T.self) does not encode a single value")
      }
      encoder.values[index] = single.value
    case .reference(let position):
      let reference = encoder.mapping.references[position]
      let keys: [KeyValue]?
      if let known = encoder.foreignKeyValuesWithoutModel(value, plan: reference) {
        keys = known  // the common case: no dynamic cast, lock or model per row
      } else {
        guard let box = value as? any LazyReferenceBox else {
          encoder.fail(reference.field, "expected a LazyReference, got \(T.self)")
          return
        }
        keys = try encoder.store.foreignKeyValues(box, plan: reference, owner: encoder.mapping)
      }
      for (offset, index) in reference.columnIndexes.enumerated() {
        let value = keys.map { SQLValue($0[offset]) } ?? .null
        if encoder.mapping.columns[index].field != reference.field {
          // The data field owns the column; an empty reference leaves it alone.
          if value != .null {
            encoder.sharedForeignKeys.append((index, value, reference.field))
          }
        } else {
          encoder.values[index] = value
        }
      }
    case .childReference, .list:
      return  // stored on the other model's rows
    }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.fail(key.stringValue, "nested containers are not stored")
    return KeyedEncodingContainer(DiscardingKeyedEncoder<NestedKey>())
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.fail(key.stringValue, "nested containers are not stored")
    return DiscardingUnkeyedEncoder(encoder: encoder)
  }
  mutating func superEncoder() -> any Encoder { ColumnValueEncoder() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { ColumnValueEncoder() }
}

/// Accepts and drops everything (returned where a model asks for a container the store cannot hold;
/// the encoder records the failure).
struct DiscardingKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }
  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
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

/// Accepts and drops everything (see ``DiscardingKeyedEncoder``).
struct DiscardingUnkeyedEncoder: UnkeyedEncodingContainer {
  let encoder: RowEncoder?
  var codingPath: [any CodingKey] { [] }
  var count: Int { 0 }
  mutating func encodeNil() throws {}
  mutating func encode<T: Encodable>(_ value: T) throws {}
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    KeyedEncodingContainer(DiscardingKeyedEncoder<NestedKey>())
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    DiscardingUnkeyedEncoder(encoder: encoder)
  }
  mutating func superEncoder() -> any Encoder { ColumnValueEncoder() }
}
