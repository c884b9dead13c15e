import Foundation

/// Encodes an `Encodable` (a model, for a mutation's input) straight into a ``GraphQLValue``: the
/// value `JSONEncoder` (default strategies, no `userInfo`) followed by ``GraphQLValue/init(json:)``
/// gives, without writing and parsing the JSON text — the largest part of preparing an outbox
/// mutation when it went through text.
///
/// Integral numbers become ``GraphQLValue/int(_:)`` and others ``GraphQLValue/double(_:)``, as
/// they come back from JSON text; a `Float` keeps the digits `JSONEncoder` writes (`0.1`, not
/// `0.10000000149011612`). Whatever this encoder does not reproduce returns `nil` and the caller
/// takes the text path: `Data`, `Date`, `URL` and `Decimal` (which `JSONEncoder` treats
/// specially), non-finite numbers (which it refuses with its own error), integers beyond `Int`,
/// and a value that encodes nothing.
///
/// Thread-safety: stateless; each call builds its own encoder.
enum GraphQLValueEncoder {
  static func encode<T: Encodable>(_ value: T) -> GraphQLValue? {
    do {
      return try box(value, codingPath: []).resolved()
    } catch {
      return nil
    }
  }

  /// The node `value` encodes as at `codingPath`.
  fileprivate static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> Node {
    if let scalar = try scalar(value) { return Node(scalar) }
    return try composite(value, codingPath: codingPath)
  }

  /// The node of `value`, not a scalar (``scalar(_:)`` gave `nil`), at `codingPath`.
  fileprivate static func composite<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> Node {
    // By the static type (`T` is concrete: the generic encode methods receive it unboxed), as
    // ``scalar(_:)`` does. An optional of these reaches here again through `Optional`'s own
    // `encode(to:)`, with its wrapped type.
    if T.self == Data.self || T.self == Date.self || T.self == URL.self || T.self == Decimal.self {
      throw Unsupported()
    }
    let node = Node()
    try value.encode(to: ValueEncoder(node: node, codingPath: codingPath))
    return node
  }

  /// `value` when it is a JSON scalar `JSONEncoder` writes as such; `nil` for anything else.
  ///
  /// Told apart by comparing `T` with each scalar type, not by `as?` casts: a cast that fails (a
  /// list, a temporal value, an optional, a nested model: every non-scalar field) costs thousands
  /// of instructions in the runtime's dynamic-cast machinery, and a model has several. An
  /// `Optional` of a scalar is no scalar here; its `encode(to:)` encodes the wrapped value (or
  /// `null`) through a single-value container, which comes back here with the wrapped type.
  fileprivate static func scalar<T>(_ value: T) throws -> GraphQLValue? {
    if T.self == String.self { return .string(value as! String) }
    if T.self == Int.self { return .int(value as! Int) }
    if T.self == Bool.self { return .bool(value as! Bool) }
    if T.self == Double.self { return try real(value as! Double) }
    if T.self == Float.self {
      // `JSONEncoder` writes a Float's shortest digits, which JSON parses as that Double.
      let number = value as! Float
      guard number.isFinite, let digits = Double(number.description) else { throw Unsupported() }
      return try real(digits)
    }
    if T.self == Int8.self { return .int(Int(value as! Int8)) }
    if T.self == Int16.self { return .int(Int(value as! Int16)) }
    if T.self == Int32.self { return .int(Int(value as! Int32)) }
    if T.self == Int64.self { return .int(Int(value as! Int64)) }
    if T.self == UInt8.self { return .int(Int(value as! UInt8)) }
    if T.self == UInt16.self { return .int(Int(value as! UInt16)) }
    if T.self == UInt32.self { return .int(Int(value as! UInt32)) }
    if T.self == UInt.self {
      guard let fitting = Int(exactly: value as! UInt) else { throw Unsupported() }
      return .int(fitting)
    }
    if T.self == UInt64.self {
      guard let fitting = Int(exactly: value as! UInt64) else { throw Unsupported() }
      return .int(fitting)
    }
    return nil
  }

  fileprivate static func real(_ number: Double) throws -> GraphQLValue {
    guard number.isFinite else { throw Unsupported() }
    if let integer = Int(exactly: number) { return .int(integer) }
    return .double(number)
  }

  /// Something the text path must handle.
  fileprivate struct Unsupported: Error {}
}

/// One value being encoded: a scalar, an object or a list whose members may still be filled in
/// by nested containers, or nothing yet.
private final class Node {
  var value: GraphQLValue?
  var members: [String: Node]?
  var elements: [Node]?

  init() {}
  init(_ value: GraphQLValue) { self.value = value }

  func becomeObject() {
    if members == nil {
      value = nil
      elements = nil
      members = [:]
    }
  }

  func becomeList() {
    if elements == nil {
      value = nil
      members = nil
      elements = []
    }
  }

  func take(_ other: Node) {
    value = other.value
    members = other.members
    elements = other.elements
  }

  func resolved() throws -> GraphQLValue {
    if let value { return value }
    if let members { return .object(try members.mapValues { try $0.resolved() }) }
    if let elements { return .list(try elements.map { try $0.resolved() }) }
    throw GraphQLValueEncoder.Unsupported()  // encoded nothing
  }
}

private struct ValueEncoder: Encoder {
  let node: Node
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.becomeObject()
    return KeyedEncodingContainer(KeyedValueContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.becomeList()
    return UnkeyedValueContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(node: node, codingPath: codingPath)
  }
}

private struct KeyedValueContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: Node
  let codingPath: [any CodingKey]

  private func set(_ child: Node, _ key: Key) { node.members?[key.stringValue] = child }

  mutating func encodeNil(forKey key: Key) throws { set(Node(.null), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    // A scalar needs no coding path: it is built only for a value that encodes itself.
    if let scalar = try GraphQLValueEncoder.scalar(value) { return set(Node(scalar), key) }
    set(try GraphQLValueEncoder.composite(value, codingPath: codingPath + [key]), key)
  }

  // The scalars a model's fields hold, without the dynamic casts of the generic method.
  mutating func encode(_ value: String, forKey key: Key) throws { set(Node(.string(value)), key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(Node(.bool(value)), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(Node(.int(value)), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(Node(try GraphQLValueEncoder.real(value)), key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = Node()
    set(child, key)
    return ValueEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = Node()
    set(child, key)
    return ValueEncoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let child = Node()
    node.members?["super"] = child
    return ValueEncoder(node: child, codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let child = Node()
    set(child, key)
    return ValueEncoder(node: child, codingPath: codingPath + [key])
  }
}

private struct IndexKey: CodingKey {
  let intValue: Int?
  let stringValue: String
  init(_ index: Int) {
    intValue = index
    stringValue = "Index \(index)"
  }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.init(intValue) }
}

private struct UnkeyedValueContainer: UnkeyedEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]
  var count: Int { node.elements?.count ?? 0 }

  private func append(_ child: Node) { node.elements?.append(child) }

  mutating func encodeNil() throws { append(Node(.null)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    if let scalar = try GraphQLValueEncoder.scalar(value) { return append(Node(scalar)) }
    append(try GraphQLValueEncoder.composite(value, codingPath: codingPath + [IndexKey(count)]))
  }

  mutating func encode(_ value: String) throws { append(Node(.string(value))) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = Node()
    let path = codingPath + [IndexKey(count)]
    append(child)
    return ValueEncoder(node: child, codingPath: path).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = Node()
    let path = codingPath + [IndexKey(count)]
    append(child)
    return ValueEncoder(node: child, codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let child = Node()
    let path = codingPath + [IndexKey(count)]
    append(child)
    return ValueEncoder(node: child, codingPath: path)
  }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws { node.take(Node(.null)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    node.take(try GraphQLValueEncoder.box(value, codingPath: codingPath))
  }

  mutating func encode(_ value: String) throws { node.take(Node(.string(value))) }
}
