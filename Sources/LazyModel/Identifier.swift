/// One value of a primary-key component, typed as it is stored and sent.
///
/// `Temporal` values and enum cases travel as their string form (AWS scalar format, enum raw value);
/// the schema field type says which GraphQL type a component has.
///
/// Equality and hashing compare strings exactly: two ``string(_:)`` values are equal only when
/// they hold the same Unicode scalars (the same UTF-8 bytes). Swift's `String ==` is not used: it
/// finds canonically equivalent text equal (`"\u{E9}"`, "é" precomposed, and `"e\u{301}"`, "e"
/// and a combining accent; `"\u{212A}"`, the Kelvin sign, and `"K"`), but the stores see two keys
/// there: SQLite compares TEXT with the `BINARY` collation (`memcmp`) unless a column names another
/// (sqlite.org/datatype3.html, "Collating Sequences"), and DynamoDB (behind AppSync) compares
/// string keys by the bytes of their UTF-8 encoding (DynamoDB Developer Guide, "Supported data
/// types": String). The other cases compare as their Swift values (`.double(0.0) == .double(-0.0)`,
/// `.double(.nan)` equals nothing), and values of different cases are never equal
/// (`.int(1) != .double(1)`).
public enum KeyValue: Hashable, Sendable, Codable {
  /// `ID`, `String`, `AWS*` string scalars, `AWSDate`/`AWSTime`/`AWSDateTime` (ISO 8601 text) and enum raw values.
  case string(String)
  /// `Int` and `AWSTimestamp` (seconds since 1970).
  case int(Int)
  /// `Float`.
  case double(Double)
  /// `Boolean`.
  case bool(Bool)

  /// Whether both are the same case with equal payloads; strings by their Unicode scalars (see
  /// ``KeyValue``).
  public static func == (lhs: KeyValue, rhs: KeyValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let left), .string(let right)): return ExactString.equal(left, right)
    case (.int(let left), .int(let right)): return left == right
    case (.double(let left), .double(let right)): return left == right
    case (.bool(let left), .bool(let right)): return left == right
    case (.string, _), (.int, _), (.double, _), (.bool, _): return false
    }
  }

  /// Hashes the case and the payload; a string by its UTF-8 bytes (consistent with `==`).
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .string(let text):
      hasher.combine(0 as UInt8)
      ExactString.hash(text, into: &hasher)
    case .int(let number):
      hasher.combine(1 as UInt8)
      hasher.combine(number)
    case .double(let number):
      hasher.combine(2 as UInt8)
      hasher.combine(number)
    case .bool(let flag):
      hasher.combine(3 as UInt8)
      hasher.combine(flag)
    }
  }
}

/// A string compared and hashed by its Unicode scalars (its UTF-8 bytes), as the stores compare
/// keys (see ``KeyValue``), not by canonical equivalence as `String` is: a dictionary key for
/// identifier text (``InMemoryModelStore`` rows by canonical string).
struct ExactString: Hashable, Sendable {
  /// The text.
  let text: String

  init(_ text: String) { self.text = text }

  static func == (lhs: ExactString, rhs: ExactString) -> Bool { equal(lhs.text, rhs.text) }

  func hash(into hasher: inout Hasher) { Self.hash(text, into: &hasher) }

  /// Whether `lhs` and `rhs` have the same UTF-8 bytes (so the same Unicode scalars).
  static func equal(_ lhs: String, _ rhs: String) -> Bool {
    let (left, right) = (lhs.utf8, rhs.utf8)
    guard left.count == right.count else { return false }
    // Native strings: compare the stored bytes in place.
    let inPlace = left.withContiguousStorageIfAvailable { leftBytes in
      right.withContiguousStorageIfAvailable { rightBytes in leftBytes.elementsEqual(rightBytes) }
    }
    if let inPlace, let equal = inPlace { return equal }
    return left.elementsEqual(right)
  }

  /// Feeds the UTF-8 bytes of `text` to `hasher`, then `0xFF` (a byte UTF-8 never uses) so that
  /// the strings of a composite key cannot run into each other (`["ab", "c"]`, `["a", "bc"]`).
  static func hash(_ text: String, into hasher: inout Hasher) {
    let hashedInPlace: Void? = text.utf8.withContiguousStorageIfAvailable {
      hasher.combine(bytes: UnsafeRawBufferPointer($0))
    }
    if hashedInPlace == nil {
      var contiguous = text
      contiguous.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
    hasher.combine(0xFF as UInt8)
  }
}

/// A Swift value that can be a primary-key component.
public protocol KeyValueConvertible: Sendable {
  /// This value as a ``KeyValue``.
  var keyValue: KeyValue { get }
  /// Recreates a value from `keyValue`, or `nil` when its case or text does not fit this type.
  init?(keyValue: KeyValue)
}

extension String: KeyValueConvertible {
  /// This value as ``KeyValue/string(_:)``.
  public var keyValue: KeyValue { .string(self) }
  /// The value of a ``KeyValue/string(_:)``, or `nil` for any other case.
  public init?(keyValue: KeyValue) {
    guard case .string(let value) = keyValue else { return nil }
    self = value
  }
}

extension Int: KeyValueConvertible {
  /// This value as ``KeyValue/int(_:)``.
  public var keyValue: KeyValue { .int(self) }
  /// The value of a ``KeyValue/int(_:)``, or `nil` for any other case.
  public init?(keyValue: KeyValue) {
    guard case .int(let value) = keyValue else { return nil }
    self = value
  }
}

extension Double: KeyValueConvertible {
  /// This value as ``KeyValue/double(_:)``.
  public var keyValue: KeyValue { .double(self) }
  /// The value of a ``KeyValue/double(_:)`` (or of a ``KeyValue/int(_:)``, converted), or `nil` for any other case.
  public init?(keyValue: KeyValue) {
    switch keyValue {
    case .double(let value): self = value
    case .int(let value): self = Double(value)
    default: return nil
    }
  }
}

extension Bool: KeyValueConvertible {
  /// This value as ``KeyValue/bool(_:)``.
  public var keyValue: KeyValue { .bool(self) }
  /// The value of a ``KeyValue/bool(_:)``, or `nil` for any other case.
  public init?(keyValue: KeyValue) {
    guard case .bool(let value) = keyValue else { return nil }
    self = value
  }
}

extension KeyValueConvertible where Self: RawRepresentable, RawValue == String {
  /// An enum case as its raw GraphQL value.
  public var keyValue: KeyValue { .string(rawValue) }
  /// The enum case whose raw value is the string in `keyValue`.
  public init?(keyValue: KeyValue) {
    guard case .string(let raw) = keyValue else { return nil }
    self.init(rawValue: raw)
  }
}

/// One named component of an identifier: a primary-key field name and its value.
///
/// Equal when the names have the same Unicode scalars and the values are equal (``KeyValue``
/// compares strings by their scalars, as the stores compare keys).
public struct IdentifierComponent: Hashable, Sendable, Codable {
  /// The GraphQL field name of the key field.
  public var name: String
  /// The value of that field.
  public var value: KeyValue

  /// Creates a component.
  public init(name: String, value: KeyValue) {
    self.name = name
    self.value = value
  }

  /// Whether the names have the same Unicode scalars and the values are equal.
  public static func == (lhs: IdentifierComponent, rhs: IdentifierComponent) -> Bool {
    ExactString.equal(lhs.name, rhs.name) && lhs.value == rhs.value
  }

  /// Hashes the name's UTF-8 bytes and the value (consistent with `==`).
  public func hash(into hasher: inout Hasher) {
    ExactString.hash(name, into: &hasher)
    hasher.combine(value)
  }
}

/// What every identifier offers: its ordered components.
///
/// Generated models declare a typed `Identifier` struct (`Post.Identifier(id:title:)`) conforming to it.
/// Unless a conformer writes its own, equality and hashing are those of ``components`` (exact:
/// strings by their Unicode scalars, see ``KeyValue``), not the memberwise ones Swift would
/// synthesize from `String` properties, which find canonically equivalent ids equal.
public protocol ModelIdentifierProtocol: Hashable, Sendable {
  /// The key components in key order: partition key first, then the sort key fields as written.
  var components: [IdentifierComponent] { get }

  /// The identifier whose ``components`` are `components` (any order, matched by name), or `nil`
  /// when a key field is missing or its value does not fit the field's type. Generated identifiers
  /// implement it; the default returns `nil` (an identifier type that cannot be rebuilt).
  init?(components: [IdentifierComponent])
}

extension ModelIdentifierProtocol {
  /// `nil`: this identifier type cannot be rebuilt from components.
  public init?(components: [IdentifierComponent]) { return nil }
}

extension Array where Element == IdentifierComponent {
  /// The value of the component named `name` as a `T` (generated identifiers'
  /// `init?(components:)` use it).
  ///
  /// - Throws: ``IdentifierComponentError`` when there is no such component or its value does not
  ///   fit `T`.
  public func required<T: KeyValueConvertible>(_ type: T.Type, named name: String) throws -> T {
    guard let value = first(where: { $0.name == name }).flatMap({ T(keyValue: $0.value) }) else {
      throw IdentifierComponentError(name: name)
    }
    return value
  }
}

/// An identifier's component is missing or its value does not fit the key field's type.
public struct IdentifierComponentError: Error, Sendable, Hashable {
  /// The key field name.
  public let name: String
}

extension ModelIdentifierProtocol {
  /// Whether both have equal ``components`` (strings compared by their Unicode scalars).
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.components == rhs.components }

  /// Hashes the ``components`` (consistent with `==`).
  public func hash(into hasher: inout Hasher) { hasher.combine(components) }
}

/// The untyped identifier of one model instance: its model name and ordered key components.
///
/// This is what a not-loaded ``LazyReference`` holds and what providers load by.
public struct ModelIdentifier: ModelIdentifierProtocol, Codable, CustomStringConvertible {
  /// The GraphQL type name of the model.
  public var modelName: String
  /// The key components in key order.
  public var components: [IdentifierComponent]

  /// Creates an identifier.
  public init(modelName: String, components: [IdentifierComponent]) {
    self.modelName = modelName
    self.components = components
  }

  /// The values in key order.
  public var values: [KeyValue] { components.map(\.value) }

  /// Whether the model names have the same Unicode scalars and the components are equal.
  public static func == (lhs: ModelIdentifier, rhs: ModelIdentifier) -> Bool {
    ExactString.equal(lhs.modelName, rhs.modelName) && lhs.components == rhs.components
  }

  /// Hashes the model name's UTF-8 bytes and the components (consistent with `==`).
  public func hash(into hasher: inout Hasher) {
    ExactString.hash(modelName, into: &hasher)
    hasher.combine(components)
  }

  /// A readable form for messages: `Post(id: "a", title: "b")`.
  public var description: String {
    let parts = components.map { component -> String in
      switch component.value {
      case .string(let text): return "\(component.name): \(String(reflecting: text))"
      case .int(let number): return "\(component.name): \(number)"
      case .double(let number): return "\(component.name): \(number)"
      case .bool(let flag): return "\(component.name): \(flag)"
      }
    }
    return "\(modelName)(\(parts.joined(separator: ", ")))"
  }
}

extension IdentifierComponent {
  /// Creates a component from a typed Swift value (`String`, `Int`, `Double`, `Bool`, a
  /// `String`-backed enum, a `Temporal` value): `IdentifierComponent(name: "id", "a")`.
  public init(name: String, _ value: some KeyValueConvertible) {
    self.init(name: name, value: value.keyValue)
  }

  /// The value as `type`, or `nil` when its case or text does not fit `type`.
  public func value<T: KeyValueConvertible>(as type: T.Type) -> T? {
    T(keyValue: value)
  }
}

extension ModelIdentifierProtocol {
  /// The unambiguous canonical string of these components' values, in key order (field names are
  /// not part of it; the schema supplies them when parsing it back with
  /// ``ModelIdentifier/init(canonicalString:schema:)``).
  ///
  /// Each value is written by type and the values are joined by `#`:
  /// - strings (IDs, enum raw values, temporal text) in double quotes, with `"` written `\"` and `\`
  ///   written `\\`; every other character, any Unicode scalar included, is written as is;
  /// - `Int` in decimal (`-12`); `Double` as Swift prints it, always with `.`, `e`, `inf` or `nan`
  ///   (`1.0`, `1e-07`), `-0.0` written `0.0`; `Bool` as `true`/`false`.
  ///
  /// `Post(id: "a#b", title: "c")` is `"a#b"#"c"` and `Post(id: "a", title: "b#c")` is
  /// `"a"#"b#c"`: because a `#` inside quotes is never a separator and a quote inside a string is
  /// always escaped, two different component lists never give the same string. (Amplify's
  /// `"a"#"b"` form without escaping does collide.)
  public var canonicalString: String {
    components.map { ModelIdentifier.canonicalText(of: $0.value) }.joined(separator: "#")
  }
}

extension ModelIdentifier {
  /// The identifier of `type` whose canonical string is `canonicalString`.
  ///
  /// - Throws: ``ModelIdentifierParseError`` as ``init(canonicalString:schema:)``.
  public init<M: Model>(_ type: M.Type, canonicalString: String) throws {
    try self.init(canonicalString: canonicalString, schema: M.schema)
  }

  /// Parses a string written by ``ModelIdentifierProtocol/canonicalString`` back into the
  /// identifier of a model of `schema`: one component per primary-key field, named and typed after it.
  ///
  /// `Int`/`AWSTimestamp` fields take an integer, `Float` fields any number, `Boolean` fields
  /// `true`/`false`, every other key type a quoted string; `AWSDate`/`AWSTime`/`AWSDateTime` text must
  /// be valid for its scalar.
  ///
  /// - Throws: ``ModelIdentifierParseError`` naming the model, the text, the Unicode scalar offset
  ///   and the reason: malformed text, a component count different from the primary key's, or a
  ///   value whose type does not fit its field.
  public init(canonicalString text: String, schema: ModelSchema) throws {
    let values = try ModelIdentifier.parseCanonicalValues(text, model: schema.name)
    guard values.count == schema.primaryKey.count else {
      throw ModelIdentifierParseError(
        model: schema.name, text: text, offset: 0,
        reason: .componentCount(expected: schema.primaryKey.count, found: values.count))
    }
    var components: [IdentifierComponent] = []
    for (name, parsed) in zip(schema.primaryKey, values) {
      let type = schema.keyFieldType(named: name) ?? .string
      guard let value = ModelIdentifier.coerce(parsed.value, to: type) else {
        throw ModelIdentifierParseError(
          model: schema.name, text: text, offset: parsed.offset,
          reason: .typeMismatch(field: name, expected: type.graphQLTypeName))
      }
      components.append(IdentifierComponent(name: name, value: value))
    }
    self.init(modelName: schema.name, components: components)
  }

  /// The value named `name` as `type`, or `nil` when there is no such component or it does not fit.
  public func value<T: KeyValueConvertible>(of name: String, as type: T.Type) -> T? {
    components.first { $0.name == name }?.value(as: type)
  }

  /// The canonical text of one value (see ``ModelIdentifierProtocol/canonicalString``).
  static func canonicalText(of value: KeyValue) -> String {
    switch value {
    case .string(let text):
      var escaped = "\""
      for scalar in text.unicodeScalars {
        if scalar == "\"" || scalar == "\\" { escaped.unicodeScalars.append("\\") }
        escaped.unicodeScalars.append(scalar)
      }
      escaped.unicodeScalars.append("\"")
      return escaped
    case .int(let number): return String(number)
    case .double(let number): return number == 0 ? "0.0" : String(number)
    case .bool(let flag): return flag ? "true" : "false"
    }
  }

  /// Splits canonical text into typed values with their scalar offsets, without a schema.
  static func parseCanonicalValues(_ text: String, model: String) throws -> [(
    value: KeyValue, offset: Int
  )] {
    let scalars = Array(text.unicodeScalars)
    var values: [(value: KeyValue, offset: Int)] = []
    var position = 0
    func fail(_ reason: ModelIdentifierParseError.Reason, at offset: Int)
      -> ModelIdentifierParseError
    {
      ModelIdentifierParseError(model: model, text: text, offset: offset, reason: reason)
    }
    while true {
      let start = position
      if position < scalars.count, scalars[position] == "\"" {
        var value = String.UnicodeScalarView()
        position += 1
        var closed = false
        while position < scalars.count {
          let scalar = scalars[position]
          if scalar == "\"" {
            closed = true
            position += 1
            break
          }
          if scalar == "\\" {
            guard position + 1 < scalars.count,
              scalars[position + 1] == "\"" || scalars[position + 1] == "\\"
            else {
              throw fail(.invalidEscape, at: position)
            }
            position += 1
          }
          value.append(scalars[position])
          position += 1
        }
        guard closed else { throw fail(.unterminatedString, at: start) }
        values.append((.string(String(value)), start))
      } else {
        while position < scalars.count, scalars[position] != "#" { position += 1 }
        let literal = String(String.UnicodeScalarView(scalars[start..<position]))
        guard let value = literalValue(literal) else {
          throw fail(.invalidLiteral(literal), at: start)
        }
        values.append((value, start))
      }
      if position == scalars.count { return values }
      guard scalars[position] == "#" else { throw fail(.expectedSeparator, at: position) }
      position += 1
    }
  }

  /// An unquoted literal: `true`, `false`, an integer, or a number with `.`, `e`, `inf` or `nan`.
  private static func literalValue(_ literal: String) -> KeyValue? {
    switch literal {
    case "true": return .bool(true)
    case "false": return .bool(false)
    case "": return nil
    default: break
    }
    if let number = Int(literal) { return .int(number) }
    let allowed = Set("0123456789+-.einfa")
    guard literal.allSatisfy(allowed.contains), let number = Double(literal) else { return nil }
    return .double(number)
  }

  /// `value` as the key type `type` wants it, or `nil` when it does not fit.
  private static func coerce(_ value: KeyValue, to type: ModelFieldType) -> KeyValue? {
    switch (type, value) {
    case (.scalar(.int), .int), (.scalar(.awsTimestamp), .int), (.scalar(.float), .double),
      (.scalar(.boolean), .bool):
      return value
    case (.scalar(.float), .int(let number)):
      return .double(Double(number))
    case (.scalar(.awsDate), .string(let text)):
      return (try? Temporal.Date(iso8601String: text)).map { _ in value }
    case (.scalar(.awsTime), .string(let text)):
      return (try? Temporal.Time(iso8601String: text)).map { _ in value }
    case (.scalar(.awsDateTime), .string(let text)):
      return (try? Temporal.DateTime(iso8601String: text)).map { _ in value }
    case (.scalar(.int), _), (.scalar(.awsTimestamp), _), (.scalar(.float), _),
      (.scalar(.boolean), _):
      return nil
    case (_, .string):
      return value
    default:
      return nil
    }
  }
}

/// Text that is not the canonical string of an identifier of a model
/// (``ModelIdentifier/init(canonicalString:schema:)``).
public struct ModelIdentifierParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Why the text was rejected.
  public enum Reason: Sendable, Equatable {
    /// A quoted string has no closing `"`.
    case unterminatedString
    /// A `\` inside a quoted string is followed by neither `"` nor `\`.
    case invalidEscape
    /// An unquoted value is none of `true`, `false`, an integer or a number.
    case invalidLiteral(String)
    /// A value is followed by something other than `#` or the end of the text.
    case expectedSeparator
    /// The text holds `found` values but the primary key has `expected` fields.
    case componentCount(expected: Int, found: Int)
    /// The value for key field `field` does not fit its GraphQL type `expected`.
    case typeMismatch(field: String, expected: String)
  }

  /// The GraphQL type name of the model.
  public let model: String
  /// The rejected text.
  public let text: String
  /// Where the problem starts, in Unicode scalars from the start of `text`.
  public let offset: Int
  /// Why it was rejected.
  public let reason: Reason

  /// Creates the error.
  public init(model: String, text: String, offset: Int, reason: Reason) {
    self.model = model
    self.text = text
    self.offset = offset
    self.reason = reason
  }

  /// A message naming the model, the text, the offset and the reason.
  public var description: String {
    "invalid \(model) identifier \(String(reflecting: text)) at offset \(offset): \(reason)"
  }
}
