// PLACEHOLDER (issue 3 replaces the bodies): the public surface generated code relies on.

/// AWS AppSync temporal scalars (`AWSDate`, `AWSTime`, `AWSDateTime`).
public enum Temporal {
  /// `AWSDate`: `YYYY-MM-DD`, optionally with a zone offset.
  public struct Date: Hashable, Sendable, Codable, Comparable, KeyValueConvertible {
    /// The AWS scalar text.
    public let iso8601String: String
    /// Parses `text`. - Throws: ``TemporalError`` when `text` is not an `AWSDate`.
    public init(iso8601String text: String) throws { iso8601String = text }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.iso8601String < rhs.iso8601String }
    public var keyValue: KeyValue { .string(iso8601String) }
    public init?(keyValue: KeyValue) {
      guard case .string(let text) = keyValue, let value = try? Self(iso8601String: text) else { return nil }
      self = value
    }
    public init(from decoder: any Decoder) throws {
      try self.init(iso8601String: try decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(iso8601String)
    }
  }

  /// `AWSTime`: `hh:mm[:ss[.sss]]`, optionally with a zone offset.
  public struct Time: Hashable, Sendable, Codable, Comparable, KeyValueConvertible {
    /// The AWS scalar text.
    public let iso8601String: String
    /// Parses `text`. - Throws: ``TemporalError`` when `text` is not an `AWSTime`.
    public init(iso8601String text: String) throws { iso8601String = text }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.iso8601String < rhs.iso8601String }
    public var keyValue: KeyValue { .string(iso8601String) }
    public init?(keyValue: KeyValue) {
      guard case .string(let text) = keyValue, let value = try? Self(iso8601String: text) else { return nil }
      self = value
    }
    public init(from decoder: any Decoder) throws {
      try self.init(iso8601String: try decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(iso8601String)
    }
  }

  /// `AWSDateTime`: `YYYY-MM-DDThh:mm[:ss[.sss]]` with `Z` or `±hh:mm[:ss]`.
  public struct DateTime: Hashable, Sendable, Codable, Comparable, KeyValueConvertible {
    /// The AWS scalar text.
    public let iso8601String: String
    /// Parses `text`. - Throws: ``TemporalError`` when `text` is not an `AWSDateTime`.
    public init(iso8601String text: String) throws { iso8601String = text }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.iso8601String < rhs.iso8601String }
    public var keyValue: KeyValue { .string(iso8601String) }
    public init?(keyValue: KeyValue) {
      guard case .string(let text) = keyValue, let value = try? Self(iso8601String: text) else { return nil }
      self = value
    }
    public init(from decoder: any Decoder) throws {
      try self.init(iso8601String: try decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(iso8601String)
    }
  }
}

/// A string that is not a valid AWS temporal scalar.
public struct TemporalError: Error, Sendable, Equatable {
  /// The scalar that was expected (`AWSDate`, `AWSTime`, `AWSDateTime`).
  public let scalar: String
  /// The rejected text.
  public let text: String
}

/// An `AWSJSON` value.
public enum JSONValue: Hashable, Sendable, Codable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])
}
