import CSQLite
import Foundation
import LazyModel

/// Where the decoder reads column values: the current row of a live statement, or a row copied out
/// of one (when `includes:` needs all rows before decoding).
enum RowSource {
  case statement(Statement)
  case values([SQLValue])
}

/// Models loaded ahead by `includes:`, by association field name, then by the key values that
/// connect them to a row (FK values for a reference, the row's primary key for a child reference or
/// a list).
final class Prefetched {
  var models: [String: [[KeyValue]: [any Model]]] = [:]
  /// For included `@hasOne(references:)` fields: the target rows, decoded in `superDecoder(forKey:)`.
  var childRows: [String: ChildRows] = [:]
}

/// The included target rows of one `@hasOne(references:)` field, by the parent's key values.
struct ChildRows {
  let mapping: TableMapping
  let rows: [[KeyValue]: [[SQLValue]]]
  let nested: Prefetched
}

/// Decodes a model straight from a result row through the model's own `init(from:)`.
///
/// One decoder is made per query and reused for every row (``row`` moves on). Its `userInfo` carries
/// the store's ``DataStoreDecodingContext``, so every lazy field of a decoded model loads from this
/// store: a `@belongsTo`/`@hasOne` becomes a not-loaded `LazyReference` holding its FK column values
/// under the target's associated field names; a `@hasMany` a not-loaded `LazyList` (built by
/// `decodeLazyList` from the context). With `includes:` those fields are loaded from ``prefetched``.
final class RowDecoder: Decoder {
  let mapping: TableMapping
  let store: DataStore
  /// Made on first use (a model with a `@hasMany` asks for it; one without never does, so a save
  /// or a query of such a model builds no dictionary).
  lazy var userInfo: [CodingUserInfoKey: Any] = [
    .modelDecodingContext: DataStoreDecodingContext(store: store)
  ]
  /// The decoder of JSON columns (embedded values, lists), made on first use and reused for every
  /// row. Its `userInfo` carries the store's context as ``userInfo`` does, so a model an embedded
  /// value holds (`Pick.volume`, a `[Volume]` of one) loads its relationships from this store too
  /// (README, "A model decoded by the DataStore loads its relationships from the DataStore").
  lazy var jsonDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.userInfo[.modelDecodingContext] = DataStoreDecodingContext(store: store)
    return decoder
  }()
  /// The row being decoded. The statement (owned by the caller) must outlive its use here.
  var row: RowSource {
    didSet { setRow() }
  }
  /// The statement of ``row`` (no reference counting in the per-column hot path), or `nil`.
  private var handle: OpaquePointer?
  /// The values of a copied ``row``.
  private var values: [SQLValue] = []
  let prefetched: Prefetched?
  /// What every key of every row reads and changes, behind one pointer: a stored `var` of a class
  /// costs a dynamic exclusivity check (and often a retain of its storage) on each access, which at
  /// several keys a row is a measurable part of decoding one.
  private let keys: UnsafeMutablePointer<KeyState>
  /// Per reference plan (``TableMapping/references``): its factory and FK identifiers cache.
  private let referenceSlots: UnsafeMutableBufferPointer<ReferenceSlot>
  /// Whether the not-loaded references of each field are siblings, loaded together
  /// (``SiblingReferences``; the store's ``DataStore/batchesSiblingReferences`` too): `false` for
  /// the decoder a write transaction reuses for its one-model saves, whose returned models are
  /// unrelated to each other.
  let batchesReferences: Bool
  var codingPath: [any CodingKey] { [] }

  init(
    mapping: TableMapping, store: DataStore, row: RowSource, prefetched: Prefetched?,
    batchesReferences: Bool = true
  ) {
    self.mapping = mapping
    self.store = store
    self.row = row
    self.prefetched = prefetched
    self.batchesReferences = batchesReferences
    keys = .allocate(capacity: 1)
    keys.initialize(to: KeyState())
    referenceSlots = .allocate(capacity: mapping.references.count)
    _ = referenceSlots.initialize(
      from: mapping.references.map { reference in
        let single =
          reference.columnIndexes.count == 1
          && mapping.columns[reference.columnIndexes[0]].storage == .text
        return ReferenceSlot(
          textColumn: single ? Int32(reference.columnIndexes[0]) : -1,
          name: single ? reference.associatedFields[0] : "")
      })
    setRow()
  }

  deinit {
    keys.deinitialize(count: 1)
    keys.deallocate()
    referenceSlots.deinitialize()
    referenceSlots.deallocate()
  }

  private func setRow() {
    switch row {
    case .statement(let statement):
      handle = statement.handle
      values = []
    case .values(let copied):
      handle = nil
      values = copied
    }
  }

  /// The keys the rows decoded so far asked for, in order, with their plans (see ``KeyState``):
  /// read after a decode and handed to the next decoder of the same statement, so that a one-row
  /// decoder (a primary-key lookup) starts with the order known and hashes no key.
  var keyOrder: [(name: String, plan: FieldPlan)] {
    get { keys.pointee.order }
    set {
      keys.pointee.order = newValue
      keys.pointee.lastOrderIndex = -1
      keys.pointee.orderBytes = []
    }
  }

  /// Decodes the current row as an `M`.
  func decode<M: Model>(_ type: M.Type) throws -> M {
    keys.pointee.rows += 1
    keys.pointee.count = 0
    keys.pointee.last = nil
    keys.pointee.lastOrderIndex = -1
    return try M(from: self)
  }

  // MARK: Column access

  @inline(__always) func isNull(_ column: Int) -> Bool {
    if let handle { return sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL }
    return values[column] == .null
  }

  @inline(__always) func text(_ column: Int) -> String? {
    if let handle {
      guard let bytes = sqlite3_column_text(handle, Int32(column)) else { return nil }
      let count = Int(sqlite3_column_bytes(handle, Int32(column)))
      return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    switch values[column] {
    case .text(let text): return text
    case .integer(let number): return String(number)
    case .real(let number): return String(number)
    case .null: return nil
    }
  }

  /// Column `column` of the current row as a `Temporal.DateTime` (`nil` for `NULL`).
  ///
  /// - Throws: `TemporalError` when the text is not an `AWSDateTime`.
  func dateTime(_ column: Int) throws(TemporalError) -> Temporal.DateTime? {
    if let handle {
      guard let bytes = sqlite3_column_text(handle, Int32(column)) else { return nil }
      let text = UnsafeRawBufferPointer(
        start: bytes, count: Int(sqlite3_column_bytes(handle, Int32(column))))
      // A row's `createdAt` and `updatedAt` hold the same text until the row is updated, and the
      // saves of one millisecond share it: bytes equal to the last text parsed give its value
      // (parsing is a function of the bytes), compared in place with no string made.
      if let value = keys.pointee.lastTimestamp.value(for: text) { return value }
      let value = try Temporal.DateTime(utf8: text)
      keys.pointee.lastTimestamp.remember(text, value)
      return value
    }
    guard let text = text(column) else { return nil }
    // A saved row's `createdAt` and `updatedAt` hold the same instant's text, and saves within
    // one millisecond share it: the last text parsed is compared first (identical strings compare
    // without reading their bytes).
    if let last = lastDateTime, last.text == text { return last.value }
    var utf8 = text
    let value = try utf8.withUTF8 { bytes in
      Result { () throws(TemporalError) in
        try Temporal.DateTime(utf8: UnsafeRawBufferPointer(bytes))
      }
    }.get()
    lastDateTime = (text, value)
    return value
  }

  /// The last timestamp text of a copied row that ``dateTime(_:)`` parsed, and its value.
  private var lastDateTime: (text: String, value: Temporal.DateTime)?

  /// Column `column` of the current row as an integer (`nil` for `NULL`).
  ///
  /// - Throws: ``DataStoreError/decodingFailed(model:field:reason:)`` when the column holds a REAL
  ///   that is not a whole number in `Int64`'s range, or text that is not an integer (a `STRICT`
  ///   `INTEGER` column holds neither; a copied row may): never truncated or wrapped.
  @inline(__always) func int64(_ column: Int) throws(DataStoreError) -> Int64? {
    if let handle {
      let type = sqlite3_column_type(handle, Int32(column))
      if type == SQLITE_INTEGER { return sqlite3_column_int64(handle, Int32(column)) }
      if type == SQLITE_NULL { return nil }
      if type == SQLITE_FLOAT {
        return try exactInteger(.real(sqlite3_column_double(handle, Int32(column))), column)
      }
      return try exactInteger(text(column).map { .text($0) } ?? .null, column)
    }
    return try exactInteger(values[column], column)
  }

  /// `value` (of column `column`) as an integer, exactly (see ``int64(_:)``).
  private func exactInteger(_ value: SQLValue, _ column: Int) throws(DataStoreError) -> Int64? {
    switch value {
    case .null: return nil
    case .integer(let number): return number
    case .real(let number):
      guard let exact = Int64(exactly: number) else {
        throw failure(
          mapping.columns[column].field,
          "the stored number \(number) is not an integer in Int64's range")
      }
      return exact
    case .text(let text):
      guard let number = Int64(text) else {
        throw failure(mapping.columns[column].field, "the stored text \"\(text)\" is not an integer")
      }
      return number
    }
  }

  @inline(__always) func double(_ column: Int) -> Double? {
    if let handle {
      return sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
        ? nil : sqlite3_column_double(handle, Int32(column))
    }
    switch values[column] {
    case .integer(let number): return Double(number)
    case .real(let number): return number
    case .text(let text): return Double(text)
    case .null: return nil
    }
  }

  /// Column `column` of the current row as a key value (`nil` for `NULL`).
  ///
  /// - Throws: ``DataStoreError/decodingFailed(model:field:reason:)`` for an integer that
  ///   ``int64(_:)`` rejects, or a Boolean column holding an integer other than 0 or 1 (as a
  ///   decoded `Bool` field).
  func keyValue(_ column: Int) throws(DataStoreError) -> KeyValue? {
    switch mapping.columns[column].storage {
    case .integer: return try int64(column).map { .int(Int($0)) }
    case .boolean:
      guard let value = try int64(column) else { return nil }
      guard value == 0 || value == 1 else {
        throw failure(
          mapping.columns[column].field, "the stored integer \(value) is not a Boolean (0 or 1)")
      }
      return .bool(value == 1)
    case .real: return double(column).map { .double($0) }
    case .text, .json: return text(column).map { .string($0) }
    }
  }

  /// The identifiers a not-loaded reference of `reference` holds for the current row (associated
  /// field names, FK column values), or `nil` when any FK column is `NULL`. Children of one parent
  /// share one identifiers array (`slot`'s cache, bounded per query); `shared` is set when the
  /// array returned was returned before.
  private func identifiers(
    _ reference: ReferencePlan, _ slot: UnsafeMutablePointer<ReferenceSlot>, shared: inout Bool
  ) throws(DataStoreError) -> [IdentifierComponent]? {
    if reference.columnIndexes.count == 1 {
      // One allocation per distinct parent, not per row.
      guard let value = try keyValue(reference.columnIndexes[0]) else { return nil }
      if let known = slot.pointee.sharedIdentifiers[value] {
        shared = true
        return known
      }
      let identifiers = [IdentifierComponent(name: reference.associatedFields[0], value: value)]
      if slot.pointee.sharedIdentifiers.count >= 4_096 {
        slot.pointee.sharedIdentifiers.removeAll(keepingCapacity: true)
      }
      slot.pointee.sharedIdentifiers[value] = identifiers
      return identifiers
    }
    var identifiers: [IdentifierComponent] = []
    identifiers.reserveCapacity(reference.columnIndexes.count)
    for (offset, column) in reference.columnIndexes.enumerated() {
      guard let value = try keyValue(column) else { return nil }
      identifiers.append(
        IdentifierComponent(name: reference.associatedFields[offset], value: value))
    }
    return identifiers
  }

  /// The not-loaded `T` of reference plan `position` for the current row (an empty loaded one when
  /// an FK column is `NULL`), built by a factory made once per query; `nil` when `T` is not a
  /// `LazyReference` (the caller then reports the mismatch). Returned as the reference object (a
  /// `LazyReference` is a class), not a `T?`, whose generic metadata would be looked up per row.
  ///
  /// An identifiers array shared with an earlier row's reference is not recorded as a sibling
  /// again (``ReferenceFactory/makeSharing``): the first such row records, once, that arrays are
  /// shared.
  func notLoadedReference<T>(_ position: Int, as type: T.Type) throws(DataStoreError) -> AnyObject? {
    let slot = referenceSlots.baseAddress! + position
    if slot.pointee.factoryType != ObjectIdentifier(T.self) {
      guard let box = T.self as? any LazyReferenceBox.Type,
        MemoryLayout<T>.size == MemoryLayout<AnyObject>.size
      else { return nil }
      let factory = box.factory(store: store, batching: batchesReferences)
      slot.pointee.factory = factory
      slot.pointee.unretainedFactory = Unmanaged.passUnretained(factory)
      slot.pointee.factoryType = ObjectIdentifier(T.self)
      // The shared arrays were recorded by the previous factory's siblings, if any.
      slot.pointee.recordedSharing = false
      slot.pointee.cache = nil
      slot.pointee.unretainedCache = nil
      slot.pointee.lookups = 0
      slot.pointee.sharedIdentifiers = [:]
    }
    let identifiers: [IdentifierComponent]?
    var shared = false
    if slot.pointee.textColumn >= 0, let handle {
      identifiers = sharedTextIdentifiers(slot, handle: handle, shared: &shared)
    } else {
      identifiers = try self.identifiers(mapping.references[position], slot, shared: &shared)
    }
    // Not retained for the calls: the slot holds the factory for the decoder's lifetime.
    let factory = slot.pointee.unretainedFactory.unsafelyUnwrapped
    guard let identifiers else { return factory._withUnsafeGuaranteedRef { $0.empty() } }
    guard shared else { return factory._withUnsafeGuaranteedRef { $0.make(identifiers) } }
    if !slot.pointee.recordedSharing {
      slot.pointee.recordedSharing = true
      factory._withUnsafeGuaranteedRef { $0.recordSharing() }
    }
    return factory._withUnsafeGuaranteedRef { $0.makeSharing(identifiers) }
  }

  /// The identifiers of a single text FK column of a live statement: children of one parent
  /// share its identifiers array (one allocation per distinct parent in the cache, not per row),
  /// and a hit reads the column's bytes in place, making no string (`shared` is then set). The
  /// cache is made on the second row, so one-row decoders never allocate it.
  private func sharedTextIdentifiers(
    _ slot: UnsafeMutablePointer<ReferenceSlot>, handle: OpaquePointer, shared: inout Bool
  ) -> [IdentifierComponent]? {
    let column = slot.pointee.textColumn
    guard let text = sqlite3_column_text(handle, column) else { return nil }
    let bytes = UnsafeRawBufferPointer(
      start: text, count: Int(sqlite3_column_bytes(handle, column)))
    if let cache = slot.pointee.unretainedCache {
      // Not retained for the call: the slot holds the cache for the decoder's lifetime.
      return cache._withUnsafeGuaranteedRef { $0.identifiers(text: bytes, hit: &shared) }
    }
    slot.pointee.lookups += 1
    if slot.pointee.lookups == 2 {
      let cache = TextIdentifiersCache(name: slot.pointee.name)
      slot.pointee.cache = cache
      slot.pointee.unretainedCache = Unmanaged.passUnretained(cache)
      return cache.identifiers(text: bytes, hit: &shared)
    }
    return [
      IdentifierComponent(
        name: slot.pointee.name, value: .string(String(decoding: bytes, as: UTF8.self)))
    ]
  }

  /// The key values of `columns`, or `nil` when any is `NULL`.
  ///
  /// - Throws: What ``keyValue(_:)`` throws.
  func keyValues(_ columns: [Int]) throws(DataStoreError) -> [KeyValue]? {
    var values: [KeyValue] = []
    values.reserveCapacity(columns.count)
    for column in columns {
      guard let value = try keyValue(column) else { return nil }
      values.append(value)
    }
    return values
  }

  func failure(_ field: String, _ reason: String) -> DataStoreError {
    .decodingFailed(model: mapping.schema.name, field: field, reason: reason)
  }

  // MARK: Decoder

  /// The keyed container made for the first row, reused for the next rows (it holds only this
  /// decoder), saving an allocation and a generic-metadata lookup per row.
  /// (`KeyedDecodingContainer` is a single class reference, kept here as that reference.)
  private var cachedContainer: (key: ObjectIdentifier, box: AnyObject)?

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if let cached = cachedContainer, cached.key == ObjectIdentifier(Key.self) {
      return unsafeBitCast(cached.box, to: KeyedDecodingContainer<Key>.self)
    }
    let container = KeyedDecodingContainer(RowKeyedDecoder<Key>(decoder: self))
    if MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size {
      cachedContainer = (ObjectIdentifier(Key.self), unsafeBitCast(container, to: AnyObject.self))
    }
    return container
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw failure("", "a model must decode a keyed container")
  }

  /// A container that only answers "is this value null?" (no): `LazyReference` asks before
  /// decoding an included model from this decoder.
  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    PresentValueContainer(decoder: self)
  }

  /// The plan of the field `key`: as ``plan(_:)``, except that a key of a one-byte plain-value
  /// type (a generated `CodingKeys` enum) is first compared by its byte with the entries of
  /// ``KeyState/order`` that earlier rows matched by name, so that its name is not read (a
  /// `stringValue` call, a string comparison and a release per key of every row; issue 11's
  /// query-all row). Equal bytes of such a type are the same key, so the plan is the one its name
  /// finds.
  @inline(__always) func plan<Key: CodingKey>(forKey key: Key) -> FieldPlan? {
    let state = keys
    // One byte read in place: a wider or reference-holding key type goes by name.
    let byte: UInt8? =
      MemoryLayout<Key>.size == 1 && _isPOD(Key.self) ? unsafeBitCast(key, to: UInt8.self) : nil
    if let byte, state.pointee.byteKeyType == ObjectIdentifier(Key.self) {
      let index = state.pointee.count
      if index < state.pointee.orderBytes.count, state.pointee.orderBytes[index] == byte {
        state.pointee.count = index + 1
        state.pointee.lastOrderIndex = index
        return state.pointee.order[index].plan
      }
      let lastIndex = state.pointee.lastOrderIndex
      if lastIndex >= 0, lastIndex < state.pointee.orderBytes.count,
        state.pointee.orderBytes[lastIndex] == byte
      {
        return state.pointee.order[lastIndex].plan
      }
    }
    let plan = plan(key.stringValue)
    if let byte { state.pointee.learn(byte, of: ObjectIdentifier(Key.self)) }
    return plan
  }

  /// The plan of the field named `name`: the entry of ``KeyState/order`` expected at this point
  /// of the row when it matches (no hashing), else the mapping's dictionary.
  @inline(__always) func plan(_ name: String) -> FieldPlan? {
    let state = keys
    // The next key of the order first (the common case: identical names compare by their bits,
    // with no call), then the last key again (`decodeIfPresent` may look a key up more than
    // once). Checking the last key first compared two different names on every new key, which
    // takes the string comparison's slow path.
    let index = state.pointee.count
    if index < state.pointee.order.count, state.pointee.order[index].name == name {
      state.pointee.count = index + 1
      state.pointee.lastOrderIndex = index
      return state.pointee.order[index].plan
    }
    let lastIndex = state.pointee.lastOrderIndex
    if lastIndex >= 0 {
      if state.pointee.order[lastIndex].name == name { return state.pointee.order[lastIndex].plan }
    } else if let last = state.pointee.last, last.name == name {
      return last.plan
    }
    state.pointee.count = index + 1
    let plan = mapping.plans[name]
    if index == state.pointee.order.count, let plan {
      state.pointee.order.append((name, plan))
      state.pointee.lastOrderIndex = index
    } else {
      state.pointee.last = (name, plan)
      state.pointee.lastOrderIndex = -1
    }
    return plan
  }
}

/// Which keys a row's `init(from:)` asks for (see ``RowDecoder/plan(_:)``).
private struct KeyState {
  /// How many distinct keys the current row has asked for so far.
  var count = 0
  /// The keys the first row asked for, in order, with their plans: a model's `init(from:)` asks for
  /// the same keys in the same order on every row (generated code decodes lazy fields last, not in
  /// schema order), so the next row's n-th key is checked against the n-th entry before the
  /// mapping's dictionary is searched.
  var order: [(name: String, plan: FieldPlan)] = []
  /// The position in ``order`` of the last key asked for, or `-1` when it is ``last``
  /// (`decodeIfPresent` may look a key up more than once).
  var lastOrderIndex = -1
  /// The last key asked for and its plan, when it is not in ``order`` (``lastOrderIndex`` `-1`).
  var last: (name: String, plan: FieldPlan?)?
  /// The byte of the key of each entry of ``order`` that a key of type ``byteKeyType`` matched by
  /// name (`nil`: not matched yet), for ``RowDecoder/plan(forKey:)``.
  var orderBytes: [UInt8?] = []
  /// The key type whose bytes ``orderBytes`` holds.
  var byteKeyType: ObjectIdentifier?

  /// The rows decoded so far, the current one included.
  var rows = 0
  /// The last timestamp text of a statement row that ``RowDecoder/dateTime(_:)`` parsed, and its
  /// value (kept here, so that a decoder makes no allocation of its own for it).
  var lastTimestamp = TimestampMemo()

  /// Records that the key just matched by name (entry ``lastOrderIndex`` of ``order``, if any) is
  /// `byte` of type `type`. Only from the second row on: a one-row decoder (a primary-key lookup,
  /// a save's read-back) would only pay for the array.
  mutating func learn(_ byte: UInt8, of type: ObjectIdentifier) {
    guard lastOrderIndex >= 0, rows >= 2 else { return }
    if byteKeyType != type {
      byteKeyType = type
      orderBytes = []
    }
    if orderBytes.count <= lastOrderIndex {
      orderBytes.append(
        contentsOf: repeatElement(nil, count: max(order.count, lastOrderIndex + 1) - orderBytes.count))
    }
    orderBytes[lastOrderIndex] = byte
  }
}

/// The last timestamp text (up to 32 bytes, in place) and the value it parsed to.
private struct TimestampMemo {
  private static let maximumCount = 32
  /// The text's byte count; `-1` while nothing is kept.
  private var count = -1
  private var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  private var value = Temporal.DateTime?.none

  /// The value of `bytes` when they equal the kept text, else `nil`.
  @inline(__always)
  mutating func value(for bytes: UnsafeRawBufferPointer) -> Temporal.DateTime? {
    guard count == bytes.count, let start = bytes.baseAddress else { return nil }
    let equal = withUnsafeBytes(of: &text) { kept in memcmp(kept.baseAddress!, start, count) == 0 }
    return equal ? value : nil
  }

  /// Keeps `bytes` and their `value` (texts longer than 32 bytes are not kept).
  @inline(__always)
  mutating func remember(_ bytes: UnsafeRawBufferPointer, _ value: Temporal.DateTime) {
    guard bytes.count <= Self.maximumCount, bytes.baseAddress != nil else { return }
    withUnsafeMutableBytes(of: &text) { kept in kept.copyMemory(from: bytes) }
    count = bytes.count
    self.value = value
  }
}

/// What a ``RowDecoder`` keeps per reference plan.
private struct ReferenceSlot {
  /// The single text FK column, or `-1` (composite or non-text FKs take the general path).
  let textColumn: Int32
  /// The associated field name of ``textColumn``.
  let name: String
  /// The `LazyReference` type ``factory`` makes.
  var factoryType: ObjectIdentifier?
  var factory: ReferenceFactory?
  /// ``factory``, for calls that do not retain it.
  var unretainedFactory: Unmanaged<ReferenceFactory>?
  /// Shared identifiers arrays by FK text (made on the second lookup).
  var cache: TextIdentifiersCache?
  /// ``cache``, for calls that do not retain it.
  var unretainedCache: Unmanaged<TextIdentifiersCache>?
  var lookups = 0
  /// Identifiers arrays of a single non-text (or copied-row) FK column by value: the general
  /// path's sharing (``RowDecoder/notLoadedReference(_:as:)``).
  var sharedIdentifiers: [KeyValue: [IdentifierComponent]] = [:]
  /// Whether ``factory`` was told that its references share identifiers arrays.
  var recordedSharing = false
}

/// Identifiers arrays of one single-column text reference (`[name: FK text]`), in a four-way
/// set-associative cache keyed by a hash of the text's bytes, so that the children of one parent
/// share one array. 4,096 slots keep a few thousand distinct parents apart; a parent whose set is
/// full replaces the set's oldest entry (its children then get a new array, which is only less
/// sharing). With two ways, 1,000 parents met in turn left a few dozen sets with three parents,
/// which then missed on every row of theirs (about one row in eight of the benchmark's query all,
/// each miss a new array and a new sibling entry). A slot holds its text inline (texts up to 48
/// bytes, a UUID is 36; longer ones are not cached).
///
/// Not thread-safe: owned by one ``RowDecoder``.
final class TextIdentifiersCache {
  private static let slots = 4_096
  private static let maximumTextCount = 48

  private struct Slot {
    var hash: UInt64 = 0
    /// The text's byte count; `-1` in a free slot (so a lookup never reads a free slot's entry).
    var count = -1
    var text: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    var entry: [IdentifierComponent] = []
  }

  private let table: UnsafeMutablePointer<Slot>
  /// The associated field name of every array.
  private let name: String

  init(name: String) {
    self.name = name
    table = .allocate(capacity: Self.slots)
    table.initialize(repeating: Slot(), count: Self.slots)
  }

  deinit {
    table.deinitialize(count: Self.slots)
    table.deallocate()
  }

  /// The shared `[name: text]` identifiers array (made and cached on a miss); `hit` is set when
  /// the array was in the cache.
  func identifiers(text: UnsafeRawBufferPointer, hit: inout Bool) -> [IdentifierComponent] {
    func make() -> [IdentifierComponent] {
      [IdentifierComponent(name: name, value: .string(String(decoding: text, as: UTF8.self)))]
    }
    guard text.count <= Self.maximumTextCount else { return make() }
    let hash = Self.hash(text)
    let first = Int(truncatingIfNeeded: hash >> 32) & (Self.slots - 4)
    for way in 0..<4 where holds(first + way, hash: hash, text: text) {
      hit = true
      return table[first + way].entry
    }
    // The set's entries are kept newest first: the oldest one (the last) is replaced, and the
    // new one goes first (free slots are at the end, so the set fills before it replaces).
    let identifiers = make()
    var entry = Slot()
    entry.hash = hash
    entry.count = text.count
    withUnsafeMutableBytes(of: &entry.text) { stored in stored.copyMemory(from: text) }
    entry.entry = identifiers
    (table + first + 3).deinitialize(count: 1)
    (table + first + 1).moveInitialize(from: table + first, count: 3)  // overlapping: allowed
    (table + first).initialize(to: entry)
    return identifiers
  }

  @inline(__always)
  private func holds(_ slot: Int, hash: UInt64, text: UnsafeRawBufferPointer) -> Bool {
    guard table[slot].hash == hash, table[slot].count == text.count else { return false }
    guard let start = text.baseAddress else { return true }
    return withUnsafeBytes(of: &table[slot].text) { stored in
      memcmp(stored.baseAddress!, start, text.count) == 0
    }
  }

  /// A fast non-cryptographic hash of `bytes` (8 bytes at a time, multiply-xorshift mixing); it
  /// only picks a slot, the bytes are compared on a hit.
  @inline(__always)
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    var offset = 0
    while offset + 8 <= bytes.count {
      hash =
        (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        &* 0xBF58_476D_1CE4_E5B9
      hash ^= hash >> 31
      offset += 8
    }
    if offset < bytes.count {
      // The last 8 bytes (overlapping the loop's when the count is not a multiple of 8), or the
      // few bytes of a shorter text one by one.
      if bytes.count >= 8 {
        hash =
          (hash ^ bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
          &* 0x94D0_49BB_1331_11EB
      } else {
        while offset < bytes.count {
          hash = (hash ^ UInt64(bytes[offset])) &* 0x94D0_49BB_1331_11EB
          offset += 1
        }
      }
    }
    return hash ^ (hash >> 29)
  }
}

/// The keyed container of ``RowDecoder``.
struct RowKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  /// Not retained: the decoder caches this container (a strong reference would be a cycle), and a
  /// container is only used inside a model's `init(from:)` while the decoder decodes that row.
  private let unmanaged: Unmanaged<RowDecoder>
  var codingPath: [any CodingKey] { [] }

  init(decoder: RowDecoder) { unmanaged = .passUnretained(decoder) }

  /// The decoder (retained for the caller's use).
  private var decoder: RowDecoder { unmanaged.takeUnretainedValue() }

  /// Runs `body` with the decoder, not retaining it: the per-field paths below use it (a retain
  /// and a release of the decoder per call were a measurable part of a row).
  @inline(__always)
  private func withDecoder<R>(_ body: (RowDecoder) throws -> R) rethrows -> R {
    try unmanaged._withUnsafeGuaranteedRef(body)
  }

  var allKeys: [Key] {
    decoder.mapping.orderedPlans.compactMap { entry in
      contains(name: entry.name, plan: entry.plan) ? Key(stringValue: entry.name) : nil
    }
  }

  private func contains(name: String, plan: FieldPlan) -> Bool {
    switch plan {
    case .column, .reference: return true
    case .childReference: return decoder.prefetched?.childRows[name] != nil
    case .list: return decoder.prefetched?.models[name] != nil
    }
  }

  func contains(_ key: Key) -> Bool {
    let name = key.stringValue
    guard let plan = withDecoder({ $0.plan(forKey: key) }) else { return false }
    switch plan {
    case .column, .reference: return true
    case .childReference, .list: return contains(name: name, plan: plan)
    }
  }

  private func column(_ key: Key) throws -> Int {
    guard case .column(let index)? = withDecoder({ $0.plan(forKey: key) }) else {
      throw decoder.failure(key.stringValue, "not a stored field of \(decoder.mapping.schema.name)")
    }
    return index
  }

  private func missing(_ key: Key) -> DataStoreError {
    decoder.failure(key.stringValue, "the stored value is NULL")
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    switch decoder.plan(forKey: key) {
    case .column(let index)?: return decoder.isNull(index)
    case .reference(let position)?:
      return decoder.mapping.references[position].columnIndexes.allSatisfy { decoder.isNull($0) }
    case .childReference?: return decoder.prefetched?.childRows[key.stringValue] == nil
    case .list?: return decoder.prefetched?.models[key.stringValue] == nil
    case nil: return true
    }
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    guard let value = try decoder.int64(try column(key)) else { throw missing(key) }
    return try boolean(value, key)
  }

  /// A stored Boolean exactly: 0 or 1 (what a save binds and a predicate compares with); any other
  /// integer is `decodingFailed`, as an integer that does not fit its field's type.
  private func boolean(_ value: Int64, _ key: Key) throws -> Bool {
    guard value == 0 || value == 1 else {
      throw decoder.failure(key.stringValue, "the stored integer \(value) is not a Boolean (0 or 1)")
    }
    return value == 1
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    let index = try column(key)
    guard let value = withDecoder({ $0.text(index) }) else { throw missing(key) }
    return value
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    guard let value = decoder.double(try column(key)) else { throw missing(key) }
    return value
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    Float(try decode(Double.self, forKey: key))
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    guard let value = try decoder.int64(try column(key)) else { throw missing(key) }
    guard let exact = Int(exactly: value) else {
      throw decoder.failure(key.stringValue, "the stored integer \(value) does not fit Int")
    }
    return exact
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    guard let value = try decoder.int64(try column(key)) else { throw missing(key) }
    return value
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let plan = withDecoder { $0.plan(forKey: key) }
    // The hot path: a not-loaded reference.
    if case .reference(let position)? = plan,
      let notLoaded = try notLoadedReference(T.self, position: position, key: key)
    {
      return unsafeBitCast(notLoaded, to: T.self)
    }
    let name = key.stringValue
    guard let plan else {
      throw decoder.failure(name, "not a field of \(decoder.mapping.schema.name)")
    }
    switch plan {
    case .column(let index):
      return try decodeColumn(T.self, index: index, key: key)
    case .reference(let position):
      let reference = decoder.mapping.references[position]
      guard let box = T.self as? any LazyReferenceBox.Type else {
        throw decoder.failure(name, "expected a LazyReference, got \(T.self)")
      }
      guard let values = try decoder.keyValues(reference.columnIndexes) else {
        return box.loaded(nil) as! T
      }
      if let prefetched = decoder.prefetched?.models[name], let model = prefetched[values]?.first {
        return box.loaded(model) as! T
      }
      // Not included, or included but the target row does not exist (a `@hasOne` FK may point at a
      // row not saved yet): a not-loaded reference keeps the FK values (issue 14).
      let identifiers = zip(reference.associatedFields, values).map {
        IdentifierComponent(name: $0, value: $1)
      }
      return box.notLoaded(identifiers, store: decoder.store) as! T
    case .childReference:
      guard T.self is any LazyReferenceBox.Type else {
        throw decoder.failure(name, "expected a LazyReference, got \(T.self)")
      }
      return try T(from: try superDecoder(forKey: key))
    case .list:
      guard let box = T.self as? any LazyListBox.Type,
        let prefetched = decoder.prefetched?.models[name],
        let key = try decoder.keyValues(decoder.mapping.primaryKeyColumns)
      else { throw decoder.failure(name, "a @hasMany field is only decoded when included") }
      return box.loaded(prefetched[key] ?? []) as! T
    }
  }

  /// The not-loaded reference (a `T`) of the `@belongsTo`/`@hasOne` field `name` (reference plan
  /// `position`) for the current row, or `nil` when the field is included or `T` is not a
  /// `LazyReference` (the caller then takes the general path). The caller has looked the plan up
  /// (one lookup per key: a second one compared names again).
  @inline(__always)
  private func notLoadedReference<T>(_ type: T.Type, position: Int, key: Key) throws
    -> AnyObject?
  {
    try withDecoder { decoder -> AnyObject? in
      if let prefetched = decoder.prefetched, prefetched.models[key.stringValue] != nil {
        return nil
      }
      return try decoder.notLoadedReference(position, as: T.self)
    }
  }

  /// Decodes column `index` (of the field `key`) as a `T`.
  private func decodeColumn<T: Decodable>(_ type: T.Type, index: Int, key: Key) throws -> T {
    try withDecoder { decoder in try decodeColumn(T.self, index: index, key: key, decoder) }
  }

  private func decodeColumn<T: Decodable>(
    _ type: T.Type, index: Int, key: Key, _ decoder: RowDecoder
  ) throws -> T {
    if T.self == String.self {
      guard let value = decoder.text(index) else { throw missing(key) }
      return unsafeBitCast(value, to: T.self)
    }
    if T.self == Temporal.DateTime.self {
      // The common timestamp type, parsed from the column's bytes in place (no string is made).
      do {
        guard let value = try decoder.dateTime(index) else { throw missing(key) }
        return unsafeBitCast(value, to: T.self)
      } catch let error as TemporalError {
        throw decoder.failure(key.stringValue, "\(error)")
      }
    }
    if decoder.mapping.columns[index].storage == .json {
      guard let text = decoder.text(index) else { throw missing(key) }
      do {
        return try decoder.jsonDecoder.decode(T.self, from: Data(text.utf8))
      } catch {
        throw decoder.failure(
          key.stringValue, "stored JSON does not decode as \(T.self): \(error)")
      }
    }
    if decoder.isNull(index) { throw missing(key) }
    do {
      return try T(from: ColumnDecoder(decoder: decoder, column: index))
    } catch let error as DataStoreError {
      throw error
    } catch {
      throw decoder.failure(key.stringValue, "\(error)")
    }
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    let plan = withDecoder { $0.plan(forKey: key) }
    if case .column(let index)? = plan {
      // One plan lookup for a stored field (the common case).
      if T.self == Temporal.DateTime.self {
        // `NULL` reads as `nil` from the column's bytes: no separate type check. Read by a
        // helper that is not generic over `T` (a closure returning `T?` cost a reabstraction).
        guard let value = try dateTime(index, key) else { return nil }
        return unsafeBitCast(value, to: T.self)
      }
      return withDecoder({ $0.isNull(index) }) ? nil : try decodeColumn(T.self, index: index, key: key)
    }
    // A not-loaded reference (`decodeLazyReference` asks for one this way): as `decode`.
    if case .reference(let position)? = plan,
      let notLoaded = try notLoadedReference(T.self, position: position, key: key)
    {
      return unsafeBitCast(notLoaded, to: T.self)
    }
    guard contains(key), try !decodeNil(forKey: key) else { return nil }
    return try decode(T.self, forKey: key)
  }

  /// Column `index` (of the field `key`) as a `Temporal.DateTime` (`nil` for `NULL`).
  ///
  /// - Throws: ``DataStoreError/decodingFailed(model:field:reason:)`` when the text is not an
  ///   `AWSDateTime`.
  @inline(__always)
  private func dateTime(_ index: Int, _ key: Key) throws -> Temporal.DateTime? {
    try withDecoder { decoder in
      do {
        return try decoder.dateTime(index)
      } catch {
        throw decoder.failure(key.stringValue, "\(error)")
      }
    }
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    decoder.text(try column(key))
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    guard let value = try decoder.int64(try column(key)) else { return nil }
    guard let exact = Int(exactly: value) else {
      throw decoder.failure(key.stringValue, "the stored integer \(value) does not fit Int")
    }
    return exact
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    decoder.double(try column(key))
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try decoder.int64(try column(key)).map { try boolean($0, key) }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    throw decoder.failure(key.stringValue, "nested containers are not stored")
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw decoder.failure(key.stringValue, "nested containers are not stored")
  }

  func superDecoder() throws -> any Decoder {
    throw decoder.failure("super", "nested containers are not stored")
  }

  /// For an included `@hasOne(references:)` field: a decoder over the target's row (or a null value
  /// when there is none).
  func superDecoder(forKey key: Key) throws -> any Decoder {
    let name = key.stringValue
    guard case .childReference? = decoder.plan(forKey: key),
      let included = decoder.prefetched?.childRows[name],
      let parentKey = try decoder.keyValues(decoder.mapping.primaryKeyColumns)
    else {
      throw decoder.failure(name, "a @hasOne(references:) field is only decoded when included")
    }
    guard let row = included.rows[parentKey]?.first else { return NullDecoder() }
    return RowDecoder(
      mapping: included.mapping, store: decoder.store, row: .values(row),
      prefetched: included.nested)
  }
}

/// The single-value view of a whole row: present, and not a single value.
struct PresentValueContainer: SingleValueDecodingContainer {
  let decoder: RowDecoder
  var codingPath: [any CodingKey] { [] }
  func decodeNil() -> Bool { false }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    throw decoder.failure("", "a row is not a single value")
  }
}

/// A decoder of one `null` value.
struct NullDecoder: Decoder, SingleValueDecodingContainer {
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "null"))
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw DecodingError.valueNotFound([Any].self, .init(codingPath: [], debugDescription: "null"))
  }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
  func decodeNil() -> Bool { true }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "null"))
  }
}

/// A decoder over one column, for types that decode a single value (enums, `Temporal`).
struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
  let decoder: RowDecoder
  let column: Int
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { decoder.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw decoder.failure(decoder.mapping.columns[column].field, "a column holds a single value")
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw decoder.failure(decoder.mapping.columns[column].field, "a column holds a single value")
  }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  private func missing() -> DataStoreError {
    decoder.failure(decoder.mapping.columns[column].field, "the stored value is NULL")
  }

  func decodeNil() -> Bool { decoder.isNull(column) }
  func decode(_ type: Bool.Type) throws -> Bool {
    guard let value = try decoder.int64(column) else { throw missing() }
    guard value == 0 || value == 1 else {
      throw decoder.failure(
        decoder.mapping.columns[column].field, "the stored integer \(value) is not a Boolean (0 or 1)")
    }
    return value == 1
  }
  func decode(_ type: String.Type) throws -> String {
    guard let value = decoder.text(column) else { throw missing() }
    return value
  }
  func decode(_ type: Double.Type) throws -> Double {
    guard let value = decoder.double(column) else { throw missing() }
    return value
  }
  func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
  /// The stored integer as `T`, exactly: a value outside `T`'s range is `decodingFailed`, never
  /// wrapped.
  private func exact<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    let stored = try decode(Int64.self)
    guard let value = T(exactly: stored) else {
      throw decoder.failure(
        decoder.mapping.columns[column].field,
        "the stored integer \(stored) does not fit \(T.self) (\(T.min)...\(T.max))")
    }
    return value
  }
  func decode(_ type: Int.Type) throws -> Int { try exact(Int.self) }
  func decode(_ type: Int8.Type) throws -> Int8 { try exact(Int8.self) }
  func decode(_ type: Int16.Type) throws -> Int16 { try exact(Int16.self) }
  func decode(_ type: Int32.Type) throws -> Int32 { try exact(Int32.self) }
  func decode(_ type: Int64.Type) throws -> Int64 {
    guard let value = try decoder.int64(column) else { throw missing() }
    return value
  }
  func decode(_ type: UInt.Type) throws -> UInt { try exact(UInt.self) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try exact(UInt8.self) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try exact(UInt16.self) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try exact(UInt32.self) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try exact(UInt64.self) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}
