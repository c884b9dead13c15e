import Foundation

/// An `AWSJSON` value: any JSON document, as a tree.
///
/// AppSync sends `AWSJSON` as a string that holds JSON text (AWS AppSync "Scalar types in GraphQL");
/// ``init(jsonString:)`` and ``jsonString()`` convert between that text and the tree. As a
/// `Codable` value it encodes and decodes as the bare JSON value (`{"a": [1, true, null]}`), so a
/// decode → encode round trip gives back an equal tree. Numbers are IEEE 754 doubles (integers
/// beyond ±2^53 lose precision, as in JavaScript); integral numbers encode without a fraction.
///
/// Thread-safety: an immutable value, `Sendable`.
public enum JSONValue: Hashable, Sendable, Codable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object; member order is not kept (JSON objects are unordered).
  case object([String: JSONValue])

  /// Decodes any JSON value.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the decoder holds no JSON value.
  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer() {
      if single.decodeNil() {
        self = .null
        return
      }
      if let value = try? single.decode(Bool.self) {
        self = .bool(value)
        return
      }
      if let value = try? single.decode(Double.self) {
        self = .number(value)
        return
      }
      if let value = try? single.decode(String.self) {
        self = .string(value)
        return
      }
    }
    if var array = try? decoder.unkeyedContainer() {
      var elements: [JSONValue] = []
      while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
      self = .array(elements)
      return
    }
    if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
      var members: [String: JSONValue] = [:]
      for key in container.allKeys {
        members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
      }
      self = .object(members)
      return
    }
    throw DecodingError.dataCorrupted(
      DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a JSON value"))
  }

  /// Encodes the bare JSON value; integral numbers within ±2^53 as integers (`1`, not `1.0`).
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite number (JSON has none).
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .bool(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .number(let value):
      var single = encoder.singleValueContainer()
      if value.rounded() == value, abs(value) <= 9_007_199_254_740_992 {
        try single.encode(Int64(value))
      } else {
        try single.encode(value)
      }
    case .string(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .array(let elements):
      var array = encoder.unkeyedContainer()
      for element in elements { try array.encode(element) }
    case .object(let members):
      var container = encoder.container(keyedBy: AnyCodingKey.self)
      for (key, value) in members { try container.encode(value, forKey: AnyCodingKey(key)) }
    }
  }

  /// Parses JSON text (an `AWSJSON` string as AppSync sends it).
  ///
  /// - Throws: `DecodingError` when `text` is not JSON.
  public init(jsonString text: String) throws {
    self = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  /// The compact JSON text of this value with object keys sorted (deterministic; what an `AWSJSON`
  /// field sends).
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite number.
  public func jsonString() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }

  /// The JSON form of any `Encodable` value (for example a model: its fields as an object).
  ///
  /// - Throws: What encoding `value` throws.
  public init(encoding value: some Encodable) throws {
    self = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
  }

  /// Decodes a `T` from this value, with `userInfo` given to the decoder (put a
  /// ``ModelDecodingContext`` under `CodingUserInfoKey.modelDecodingContext` to
  /// decode models with lazy fields).
  ///
  /// - Throws: What decoding `T` throws.
  public func decode<T: Decodable>(
    _ type: T.Type, userInfo: [CodingUserInfoKey: any Sendable] = [:]
  ) throws -> T {
    let decoder = JSONDecoder()
    decoder.userInfo = userInfo
    return try decoder.decode(T.self, from: try JSONEncoder().encode(self))
  }

  /// The member `key` of an object, or `nil` (also when this is not an object).
  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The element at `index` of an array, or `nil` when out of range or not an array.
  public subscript(index: Int) -> JSONValue? {
    if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
    return nil
  }

  /// The string, or `nil` when this is not a string.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number, or `nil` when this is not a number.
  public var numberValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The boolean, or `nil` when this is not a boolean.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// `true` for `null`.
  public var isNull: Bool { self == .null }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// `nil` is `.null`.
  public init(nilLiteral: ()) { self = .null }
  /// A boolean literal is `.bool`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer literal is `.number`.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  /// A float literal is `.number`.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A string literal is `.string`.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array literal is `.array`.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// A dictionary literal is `.object`; a repeated key keeps the last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
