import Foundation
import LazyModel

/// A JSON value as GraphQL variables, inputs and responses carry it (GraphQL spec §3.10 "Input
/// Values", serialised as JSON per the GraphQL-over-HTTP convention).
///
/// Integers and floating-point numbers are kept apart so that an `Int` key component travels as
/// `7`, never `7.0`. Objects are unordered; `jsonText` and request bodies sort their keys so
/// that the same value always gives the same bytes.
public enum GraphQLValue: Sendable, Hashable, Codable {
  /// JSON `null`.
  case null
  /// JSON `true` / `false`.
  case bool(Bool)
  /// A JSON number without fraction or exponent (GraphQL `Int`, `AWSTimestamp`).
  case int(Int)
  /// Any other JSON number (GraphQL `Float`).
  case double(Double)
  /// A JSON string (`ID`, `String`, enum values, AWS string scalars).
  case string(String)
  /// A JSON array.
  case list([GraphQLValue])
  /// A JSON object.
  case object([String: GraphQLValue])

  /// The value of one key component: strings stay strings, numbers keep their kind.
  public init(_ keyValue: KeyValue) {
    switch keyValue {
    case .string(let text): self = .string(text)
    case .int(let number): self = .int(number)
    case .double(let number): self = .double(number)
    case .bool(let flag): self = .bool(flag)
    }
  }

  /// Decodes any JSON value. Numbers that fit an `Int` become ``int(_:)``, others ``double(_:)``.
  ///
  /// The kinds are tried most common first (a response's leaves are mostly strings and integers):
  /// each failed attempt throws a `DecodingError` the decoder builds with its coding path, the
  /// largest part of decoding a mutation's answer when strings came fourth. JSON's kinds are
  /// disjoint for `JSONDecoder` (a string never decodes as a number or a `Bool`, nor `true` as an
  /// `Int`), so the order changes no result; an object is tried last, so an error inside one is
  /// the error thrown.
  public init(from decoder: any Decoder) throws {
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let text = try? single.decode(String.self) {
      self = .string(text)
    } else if let number = try? single.decode(Int.self) {
      self = .int(number)
    } else if let number = try? single.decode(Double.self) {
      self = .double(number)
    } else if let flag = try? single.decode(Bool.self) {
      self = .bool(flag)
    } else if let elements = try? single.decode([GraphQLValue].self) {
      self = .list(elements)
    } else {
      self = .object(try single.decode([String: GraphQLValue].self))
    }
  }

  /// The value of one JSON text, parsed by `JSONSerialization` in one pass: the same value
  /// ``init(from:)`` decodes from the same bytes through `JSONDecoder` (numbers that are exactly
  /// an `Int`, `1.0` and `1e2` included, become ``int(_:)``; other numbers ``double(_:)``;
  /// `true`/`false` ``bool(_:)``), at about a third of its cost on a page of records, where
  /// `init(from:)` throws a `DecodingError` for every kind it tries before the right one.
  ///
  /// - Parameter json: UTF-8 JSON text; any value at the top level (RFC 8259 §2).
  /// - Returns: `nil` when `json` is not valid JSON.
  /// - Thread-safety: a pure function of its argument.
  public init?(json: Data) {
    guard
      let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]),
      let value = GraphQLValue(foundationObject: object)
    else { return nil }
    self = value
  }

  /// The value of one object `JSONSerialization` made: `String`, `NSNumber` (booleans are
  /// `CFBoolean`s, whose `objCType` is `c`; JSON numbers never are), `NSNull`, `[Any]` and
  /// `[String: Any]`; `nil` for anything else.
  ///
  /// The kinds are told apart by the dynamic type first: a cast such as `as? String` of an `Any`
  /// holding a Swift dictionary or array bridges the whole container to Foundation before it
  /// fails (most of a sync page's cost when the casts came first).
  init?(foundationObject object: Any) {
    let type = ObjectIdentifier(Swift.type(of: object))
    if type == Self.stringType, let text = object as? String {
      self = .string(text)
    } else if type == Self.objectType, let members = object as? [String: Any] {
      guard let value = Self.object(members) else { return nil }
      self = value
    } else if type == Self.listType, let elements = object as? [Any] {
      guard let value = Self.list(elements) else { return nil }
      self = value
    } else if let number = object as? NSNumber {
      self = Self.number(number)
    } else if object is NSNull {
      self = .null
    } else if let text = object as? String {
      self = .string(text)
    } else if let members = object as? [String: Any] {
      guard let value = Self.object(members) else { return nil }
      self = value
    } else if let elements = object as? [Any] {
      guard let value = Self.list(elements) else { return nil }
      self = value
    } else {
      return nil
    }
  }

  private static let stringType = ObjectIdentifier(String.self)
  private static let objectType = ObjectIdentifier([String: Any].self)
  private static let listType = ObjectIdentifier([Any].self)

  private static func number(_ number: NSNumber) -> GraphQLValue {
    if number.objCType.pointee == CChar(truncatingIfNeeded: UInt8(ascii: "c")) {
      return .bool(number.boolValue)
    } else if let integer = Int(exactly: number) {
      return .int(integer)
    } else {
      return .double(number.doubleValue)
    }
  }

  private static func object(_ members: [String: Any]) -> GraphQLValue? {
    var values: [String: GraphQLValue] = [:]
    values.reserveCapacity(members.count)
    for (key, member) in members {
      guard let value = GraphQLValue(foundationObject: member) else { return nil }
      values[key] = value
    }
    return .object(values)
  }

  private static func list(_ elements: [Any]) -> GraphQLValue? {
    var values: [GraphQLValue] = []
    values.reserveCapacity(elements.count)
    for element in elements {
      guard let value = GraphQLValue(foundationObject: element) else { return nil }
      values.append(value)
    }
    return .list(values)
  }

  /// This value as JSON text: object keys sorted (ascending UTF-8), strings escaped as
  /// `JSONEncoder` escapes them except `/`, which stays as is; ``GraphQLValue/init(json:)`` of
  /// it is this value. Written directly, without an encoder.
  ///
  /// - Returns: The text, or `nil` when the value holds a ``double(_:)`` anywhere (the caller
  ///   then uses `JSONEncoder`, whose number format this writer does not reproduce).
  /// - Thread-safety: a pure function of the value.
  public var jsonText: String? { JSONBodyWriter.text(self) }

  /// Encodes as the plain JSON value.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite ``double(_:)`` (JSON has no NaN or infinity).
  public func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    switch self {
    case .null: try single.encodeNil()
    case .bool(let flag): try single.encode(flag)
    case .int(let number): try single.encode(number)
    case .double(let number): try single.encode(number)
    case .string(let text): try single.encode(text)
    case .list(let elements): try single.encode(elements)
    case .object(let members): try single.encode(members)
    }
  }

  /// The member named `key` of an object, or `nil` for a missing member or a non-object.
  public subscript(key: String) -> GraphQLValue? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }

  /// The key value this JSON scalar stands for when the field has GraphQL type `type`, or `nil`
  /// for `null`, lists, objects, and numbers given for string types (and the reverse).
  public func keyValue(as type: ModelFieldType) -> KeyValue? {
    switch (type, self) {
    case (.scalar(.int), .int(let number)), (.scalar(.awsTimestamp), .int(let number)):
      return .int(number)
    case (.scalar(.float), .double(let number)): return .double(number)
    case (.scalar(.float), .int(let number)): return .double(Double(number))
    case (.scalar(.boolean), .bool(let flag)): return .bool(flag)
    case (.scalar(.int), _), (.scalar(.awsTimestamp), _), (.scalar(.float), _),
      (.scalar(.boolean), _):
      return nil
    case (_, .string(let text)): return .string(text)
    default: return nil
    }
  }
}

extension GraphQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral,
  ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
  ExpressibleByNilLiteral
{
  /// `"text"` as ``string(_:)``.
  public init(stringLiteral value: String) { self = .string(value) }
  /// `7` as ``int(_:)``.
  public init(integerLiteral value: Int) { self = .int(value) }
  /// `true` as ``bool(_:)``.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// `1.5` as ``double(_:)``.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// `[a, b]` as ``list(_:)``.
  public init(arrayLiteral elements: GraphQLValue...) { self = .list(elements) }
  /// `["k": v]` as ``object(_:)``; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, GraphQLValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
  /// `nil` as ``null``.
  public init(nilLiteral: ()) { self = .null }
}
