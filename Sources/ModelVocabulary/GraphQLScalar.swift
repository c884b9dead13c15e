/// A GraphQL built-in or AWS AppSync scalar (AppSync developer guide, "Scalar types"): the one
/// scalar vocabulary of the generator's IR (`ScalarType`) and the runtime's `ModelFieldType`. The
/// raw value is the GraphQL name. Thread-safety: a `Sendable` value.
public enum GraphQLScalar: String, Sendable, Hashable, CaseIterable {
  /// `ID`: a unique identifier, serialized as a string.
  case id = "ID"
  /// `String`.
  case string = "String"
  /// `Int`: a signed 32-bit integer in GraphQL (Swift `Int`).
  case int = "Int"
  /// `Float`: an IEEE 754 double.
  case float = "Float"
  /// `Boolean`.
  case boolean = "Boolean"
  /// `AWSDate`: `Temporal.Date`.
  case awsDate = "AWSDate"
  /// `AWSTime`: `Temporal.Time`.
  case awsTime = "AWSTime"
  /// `AWSDateTime`: `Temporal.DateTime`.
  case awsDateTime = "AWSDateTime"
  /// `AWSTimestamp`: seconds since 1970-01-01T00:00Z, an `Int`.
  case awsTimestamp = "AWSTimestamp"
  /// `AWSEmail`: an email address, a `String`.
  case awsEmail = "AWSEmail"
  /// `AWSJSON`: JSON text, a `String` (see `JSONValue`).
  case awsJSON = "AWSJSON"
  /// `AWSURL`: a URL, a `String`.
  case awsURL = "AWSURL"
  /// `AWSPhone`: a phone number, a `String`.
  case awsPhone = "AWSPhone"
  /// `AWSIPAddress`: an IPv4 or IPv6 address, a `String`.
  case awsIPAddress = "AWSIPAddress"
}
