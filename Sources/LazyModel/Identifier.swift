/// One value of a primary-key component, typed as it is stored and sent.
///
/// `Temporal` values and enum cases travel as their string form (AWS scalar format, enum raw value);
/// the schema field type says which GraphQL type a component has.
public enum KeyValue: Hashable, Sendable, Codable {
  /// `ID`, `String`, `AWS*` string scalars, `AWSDate`/`AWSTime`/`AWSDateTime` (ISO 8601 text) and enum raw values.
  case string(String)
  /// `Int` and `AWSTimestamp` (seconds since 1970).
  case int(Int)
  /// `Float`.
  case double(Double)
  /// `Boolean`.
  case bool(Bool)
}

/// A Swift value that can be a primary-key component.
public protocol KeyValueConvertible: Sendable {
  /// This value as a ``KeyValue``.
  var keyValue: KeyValue { get }
  /// Recreates a value from `keyValue`, or `nil` when its case or text does not fit this type.
  init?(keyValue: KeyValue)
}

extension String: KeyValueConvertible {
  public var keyValue: KeyValue { .string(self) }
  public init?(keyValue: KeyValue) {
    guard case .string(let value) = keyValue else { return nil }
    self = value
  }
}

extension Int: KeyValueConvertible {
  public var keyValue: KeyValue { .int(self) }
  public init?(keyValue: KeyValue) {
    guard case .int(let value) = keyValue else { return nil }
    self = value
  }
}

extension Double: KeyValueConvertible {
  public var keyValue: KeyValue { .double(self) }
  public init?(keyValue: KeyValue) {
    switch keyValue {
    case .double(let value): self = value
    case .int(let value): self = Double(value)
    default: return nil
    }
  }
}

extension Bool: KeyValueConvertible {
  public var keyValue: KeyValue { .bool(self) }
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
}

/// What every identifier offers: its ordered components.
///
/// Generated models declare a typed `Identifier` struct (`Post.Identifier(id:title:)`) conforming to it.
public protocol ModelIdentifierProtocol: Hashable, Sendable {
  /// The key components in key order: partition key first, then the sort key fields as written.
  var components: [IdentifierComponent] { get }
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
