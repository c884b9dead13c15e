import Foundation
import LazyModel
import LazyModelAPI

/// Decodes a `Decodable` (a model) straight from a ``GraphQLValue`` the way `JSONDecoder` (default
/// strategies, no `userInfo`) decodes it from the value's JSON text, without writing and parsing
/// that text: the sync engine decodes every remote record (a sync page, a subscription event, a
/// mutation's answer), and the JSON round trip was most of that cost.
///
/// Rules (those of `JSONDecoder` on the same JSON): a `String` from a string; a `Bool` from a
/// boolean; an integer type from an `.int` in range, or from a `.double` that holds an integer
/// exactly; `Double`/`Float` from either number; `nil` for `null` or a missing member
/// (`decodeIfPresent`); `Date`, `Data`, `Decimal` and `URL` are decoded by `JSONDecoder` itself
/// from the value's JSON (their strategies are its own). Errors are `DecodingError`s with the
/// coding path.
///
/// Thread-safety: stateless; each call decodes on the calling thread.
enum GraphQLValueDecoder {
  static func decode<T: Decodable>(_ type: T.Type, from value: GraphQLValue) throws -> T {
    try ValueDecoder(value: value, codingPath: []).decodeValue(T.self)
  }
}

private struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}

private struct ValueDecoder: Decoder {
  let value: GraphQLValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else {
      throw mismatch([String: GraphQLValue].self, value, codingPath)
    }
    return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .list(let elements) = value else { throw mismatch([GraphQLValue].self, value, codingPath) }
    return Unkeyed(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    Single(value: value, codingPath: codingPath)
  }

  /// `T` from `value`: the scalar rules, `JSONDecoder` for the types it special-cases, else
  /// `T(from:)` with this decoder.
  func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    if let scalar = try scalar(T.self, value, codingPath) { return scalar }
    if T.self == Date.self || T.self == Data.self || T.self == Decimal.self || T.self == URL.self {
      return try viaJSON(T.self, value, codingPath)
    }
    return try T(from: self)
  }
}

/// The scalar `T` from `value` (`nil` when `T` is not a scalar type).
private func scalar<T>(_ type: T.Type, _ value: GraphQLValue, _ path: [any CodingKey]) throws -> T? {
  switch T.self {
  case is String.Type:
    guard case .string(let text) = value else { throw mismatch(T.self, value, path) }
    return text as? T
  case is Bool.Type:
    guard case .bool(let flag) = value else { throw mismatch(T.self, value, path) }
    return flag as? T
  case is Double.Type: return try double(value, path, T.self) as? T
  case is Float.Type:
    let number = try double(value, path, T.self)
    guard number.isNaN || number.isInfinite || abs(number) <= Double(Float.greatestFiniteMagnitude) else {
      throw corrupted("Number \(number) does not fit in Float.", path)
    }
    return Float(number) as? T
  case is Int.Type: return try integer(Int.self, value, path) as? T
  case is Int8.Type: return try integer(Int8.self, value, path) as? T
  case is Int16.Type: return try integer(Int16.self, value, path) as? T
  case is Int32.Type: return try integer(Int32.self, value, path) as? T
  case is Int64.Type: return try integer(Int64.self, value, path) as? T
  case is UInt.Type: return try integer(UInt.self, value, path) as? T
  case is UInt8.Type: return try integer(UInt8.self, value, path) as? T
  case is UInt16.Type: return try integer(UInt16.self, value, path) as? T
  case is UInt32.Type: return try integer(UInt32.self, value, path) as? T
  case is UInt64.Type: return try integer(UInt64.self, value, path) as? T
  default: return nil
  }
}

private func double<T>(_ value: GraphQLValue, _ path: [any CodingKey], _ type: T.Type) throws -> Double {
  switch value {
  case .int(let number): return Double(number)
  case .double(let number): return number
  default: throw mismatch(T.self, value, path)
  }
}

private func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: GraphQLValue, _ path: [any CodingKey]) throws
  -> I
{
  switch value {
  case .int(let number):
    guard let exact = I(exactly: number) else { throw corrupted("Number \(number) does not fit in \(I.self).", path) }
    return exact
  case .double(let number):
    guard let exact = I(exactly: number) else { throw corrupted("Number \(number) does not fit in \(I.self).", path) }
    return exact
  default: throw mismatch(I.self, value, path)
  }
}

/// `T` decoded by `JSONDecoder` from `value`'s JSON (a fragment).
private func viaJSON<T: Decodable>(_ type: T.Type, _ value: GraphQLValue, _ path: [any CodingKey]) throws -> T {
  let data = try JSONEncoder().encode(value)
  do {
    return try JSONDecoder().decode(T.self, from: data)
  } catch let error as DecodingError {
    switch error {
    case .dataCorrupted(let context): throw corrupted(context.debugDescription, path)
    default: throw mismatch(T.self, value, path)
    }
  }
}

private func mismatch<T>(_ type: T.Type, _ value: GraphQLValue, _ path: [any CodingKey]) -> DecodingError {
  if value == .null {
    return .valueNotFound(
      T.self, .init(codingPath: path, debugDescription: "Cannot get \(T.self) -- found null value instead"))
  }
  return .typeMismatch(
    T.self,
    .init(codingPath: path, debugDescription: "Expected to decode \(T.self) but found \(describe(value)) instead."))
}

private func corrupted(_ description: String, _ path: [any CodingKey]) -> DecodingError {
  .dataCorrupted(.init(codingPath: path, debugDescription: description))
}

private func describe(_ value: GraphQLValue) -> String {
  switch value {
  case .null: return "null"
  case .bool: return "bool"
  case .int, .double: return "number"
  case .string: return "a string"
  case .list: return "an array"
  case .object: return "a dictionary"
  }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [String: GraphQLValue]
  let codingPath: [any CodingKey]

  var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }
  func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

  private func member(_ key: Key) throws -> GraphQLValue {
    guard let value = members[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return value
  }

  private func decoder(_ key: Key) throws -> ValueDecoder {
    ValueDecoder(value: try member(key), codingPath: codingPath + [key])
  }

  func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(key).decodeValue(Bool.self) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(key).decodeValue(String.self) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(key).decodeValue(Double.self) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(key).decodeValue(Float.self) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(key).decodeValue(Int.self) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    if let member = members[key.stringValue], let value = try direct(T.self, member) { return value }
    return try decoder(key).decodeValue(T.self)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try decoder(key).container(keyedBy: NestedKey.self)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    ValueDecoder(
      value: members["super"] ?? .null, codingPath: codingPath + [AnyCodingKey(stringValue: "super")])
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
  }
}

/// The value of the common non-scalar fields of a model — a list of strings (`[String]`,
/// `[String?]`) and a temporal value (`Temporal.DateTime`, `Temporal.Date`, `Temporal.Time`) —
/// read from `value` without a nested decoder, a coding path or `Optional`'s and `Array`'s own
/// `init(from:)`; the same value, or the same `TemporalError`, as those give. `nil`: another
/// type, or a value of another shape (the generic path then decodes it or throws what it threw).
private func direct<T>(_ type: T.Type, _ value: GraphQLValue) throws -> T? {
  if T.self == [String?].self {
    guard case .list(let elements) = value else { return nil }
    var list: [String?] = []
    list.reserveCapacity(elements.count)
    for element in elements {
      switch element {
      case .string(let text): list.append(text)
      case .null: list.append(nil)
      default: return nil
      }
    }
    return unsafeBitCast(list, to: T.self)
  }
  if T.self == [String].self {
    guard case .list(let elements) = value else { return nil }
    var list: [String] = []
    list.reserveCapacity(elements.count)
    for element in elements {
      guard case .string(let text) = element else { return nil }
      list.append(text)
    }
    return unsafeBitCast(list, to: T.self)
  }
  guard case .string(let text) = value else { return nil }
  // `TemporalScalar.init(from:)` is `init(iso8601String:)` of the decoded string.
  if T.self == Temporal.DateTime.self { return unsafeBitCast(try Temporal.DateTime(iso8601String: text), to: T.self) }
  if T.self == Temporal.Date.self { return unsafeBitCast(try Temporal.Date(iso8601String: text), to: T.self) }
  if T.self == Temporal.Time.self { return unsafeBitCast(try Temporal.Time(iso8601String: text), to: T.self) }
  return nil
}

private struct Unkeyed: UnkeyedDecodingContainer {
  let elements: [GraphQLValue]
  let codingPath: [any CodingKey]
  var currentIndex = 0

  init(elements: [GraphQLValue], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private mutating func next<T>(_ type: T.Type) throws -> ValueDecoder {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        T.self,
        .init(
          codingPath: codingPath + [AnyCodingKey(intValue: currentIndex)],
          debugDescription: "Unkeyed container is at end."))
    }
    defer { currentIndex += 1 }
    return ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [AnyCodingKey(intValue: currentIndex)])
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any?.self,
        .init(
          codingPath: codingPath + [AnyCodingKey(intValue: currentIndex)],
          debugDescription: "Unkeyed container is at end."))
    }
    guard elements[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(T.self).decodeValue(T.self) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next([String: GraphQLValue].self).container(keyedBy: NestedKey.self)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next([GraphQLValue].self).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try next(GraphQLValue.self) }
}

private struct Single: SingleValueDecodingContainer {
  let value: GraphQLValue
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool { value == .null }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try ValueDecoder(value: value, codingPath: codingPath).decodeValue(T.self)
  }
}
