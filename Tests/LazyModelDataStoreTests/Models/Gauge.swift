import Foundation
import LazyModel

// Integer fields narrower and wider than SQLite's INTEGER (which is 64-bit signed), which no generated
// model has (GraphQL's `Int` is Swift's `Int`): a stored value outside the Swift type must be a typed
// error, never wrapped.
public struct Gauge: Model, Equatable {
  public let id: String
  public var small: Int8
  public var medium: Int32?
  public var unsigned: UInt16
  public var huge: UInt64

  public init(id: String, small: Int8, medium: Int32?, unsigned: UInt16, huge: UInt64) {
    self.id = id
    self.small = small
    self.medium = medium
    self.unsigned = unsigned
    self.huge = huge
  }
}

extension Gauge {
  public enum CodingKeys: String, ModelKey { case id, small, medium, unsigned, huge }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<Gauge, String>("id")
    public static let small = ModelFieldKey<Gauge, Int8>("small")
    public static let medium = ModelFieldKey<Gauge, Int32?>("medium")
    public static let unsigned = ModelFieldKey<Gauge, UInt16>("unsigned")
    public static let huge = ModelFieldKey<Gauge, UInt64>("huge")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Gauge", pluralName: "Gauges", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.small, .required, .int),
      .field(CodingKeys.medium, .optional, .int),
      .field(CodingKeys.unsigned, .required, .int),
      .field(CodingKeys.huge, .required, .int),
    ],
    timestamps: ModelTimestampFields(createdAt: nil, updatedAt: nil))
}

/// A newer schema of `Gauge` (same model name and columns, every integer an `Int`), as another app
/// version would have it: it can store values `Gauge`'s fields cannot hold.
public struct WideGauge: Model, Equatable {
  public let id: String
  public var small: Int
  public var medium: Int?
  public var unsigned: Int
  public var huge: Int

  public init(id: String, small: Int, medium: Int? = nil, unsigned: Int = 0, huge: Int = 0) {
    self.id = id
    self.small = small
    self.medium = medium
    self.unsigned = unsigned
    self.huge = huge
  }
}

extension WideGauge {
  public enum CodingKeys: String, ModelKey { case id, small, medium, unsigned, huge }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<WideGauge, String>("id")
    public static let small = ModelFieldKey<WideGauge, Int>("small")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Gauge", pluralName: "Gauges", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.small, .required, .int),
      .field(CodingKeys.medium, .optional, .int),
      .field(CodingKeys.unsigned, .required, .int),
      .field(CodingKeys.huge, .required, .int),
    ],
    timestamps: ModelTimestampFields(createdAt: nil, updatedAt: nil))
}
