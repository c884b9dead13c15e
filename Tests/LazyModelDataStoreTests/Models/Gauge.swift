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
  public static let keys = CodingKeys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) { self.id = id }
    public var components: [IdentifierComponent] { [IdentifierComponent(name: "id", value: id.keyValue)] }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Gauge", pluralName: "Gauges", primaryKey: [keys.id],
    fields: [
      .field(keys.id, .required, .id),
      .field(keys.small, .required, .int),
      .field(keys.medium, .optional, .int),
      .field(keys.unsigned, .required, .int),
      .field(keys.huge, .required, .int),
    ],
    timestamps: ModelTimestampFields(createdAt: nil, updatedAt: nil))
}
