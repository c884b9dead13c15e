// Versions of one model (schema name "Note") in the generated shape, for migration tests.
//
// Hand-written on purpose: the migration tests need several incompatible versions of one schema
// (added, required, retyped, re-keyed and dropped fields, all named "Note") side by side in one
// module. modelgen generates one model per GraphQL type per schema, so it must never produce two
// definitions of one schema name; every other model these tests use comes from Generated/.
import Foundation
import LazyModel

public struct NoteV1: Model {
  public let id: String
  public var title: String
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, title: String) {
    self.id = id
    self.title = title
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension NoteV1 {
  public enum CodingKeys: String, ModelKey { case id, title, createdAt, updatedAt }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<NoteV1, String>("id")
    public static let title = ModelFieldKey<NoteV1, String>("title")
    public static let createdAt = ModelFieldKey<NoteV1, Temporal.DateTime?>("createdAt")
    public static let updatedAt = ModelFieldKey<NoteV1, Temporal.DateTime?>("updatedAt")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Note", pluralName: "Notes", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.title, .required, .string),
      .field(CodingKeys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(CodingKeys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct NoteAddedField: Model {
  public let id: String
  public var title: String
  public var body: String?
  public var rank: Int?
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, title: String, body: String? = nil, rank: Int? = nil) {
    self.id = id
    self.title = title
    self.body = body
    self.rank = rank
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    body = try values.decodeIfPresent(String.self, forKey: .body)
    rank = try values.decodeIfPresent(Int.self, forKey: .rank)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(body, forKey: .body)
    try container.encodeIfPresent(rank, forKey: .rank)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension NoteAddedField {
  public enum CodingKeys: String, ModelKey { case id, title, body, rank, createdAt, updatedAt }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<NoteAddedField, String>("id")
    public static let title = ModelFieldKey<NoteAddedField, String>("title")
    public static let body = ModelFieldKey<NoteAddedField, String?>("body")
    public static let rank = ModelFieldKey<NoteAddedField, Int?>("rank")
    public static let createdAt = ModelFieldKey<NoteAddedField, Temporal.DateTime?>("createdAt")
    public static let updatedAt = ModelFieldKey<NoteAddedField, Temporal.DateTime?>("updatedAt")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Note", pluralName: "Notes", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.title, .required, .string),
      .field(CodingKeys.body, .optional, .string),
      .field(CodingKeys.rank, .optional, .int),
      .field(CodingKeys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(CodingKeys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    indexes: [.index("byRank", fields: ["rank"])],
    authRules: [AuthRule(allow: .public)])
}

public struct NoteRequiredField: Model {
  public let id: String
  public var title: String
  public var body: String
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, title: String, body: String) {
    self.id = id
    self.title = title
    self.body = body
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    body = try values.decode(String.self, forKey: .body)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encode(body, forKey: .body)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension NoteRequiredField {
  public enum CodingKeys: String, ModelKey { case id, title, body, createdAt, updatedAt }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<NoteRequiredField, String>("id")
    public static let title = ModelFieldKey<NoteRequiredField, String>("title")
    public static let body = ModelFieldKey<NoteRequiredField, String>("body")
    public static let createdAt = ModelFieldKey<NoteRequiredField, Temporal.DateTime?>("createdAt")
    public static let updatedAt = ModelFieldKey<NoteRequiredField, Temporal.DateTime?>("updatedAt")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Note", pluralName: "Notes", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.title, .required, .string),
      .field(CodingKeys.body, .required, .string),
      .field(CodingKeys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(CodingKeys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct NoteRetyped: Model {
  public let id: String
  public var title: Int
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString, title: Int) {
    self.id = id
    self.title = title
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(Int.self, forKey: .title)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension NoteRetyped {
  public enum CodingKeys: String, ModelKey { case id, title, createdAt, updatedAt }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<NoteRetyped, String>("id")
    public static let title = ModelFieldKey<NoteRetyped, Int>("title")
    public static let createdAt = ModelFieldKey<NoteRetyped, Temporal.DateTime?>("createdAt")
    public static let updatedAt = ModelFieldKey<NoteRetyped, Temporal.DateTime?>("updatedAt")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Note", pluralName: "Notes", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.title, .required, .int),
      .field(CodingKeys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(CodingKeys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct NoteRekeyed: Model {
  public let id: String
  public let title: String
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String, title: String) {
    self.id = id
    self.title = title
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    title = try values.decode(String.self, forKey: .title)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension NoteRekeyed {
  public enum CodingKeys: String, ModelKey { case id, title, createdAt, updatedAt }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<NoteRekeyed, String>("id")
    public static let title = ModelFieldKey<NoteRekeyed, String>("title")
    public static let createdAt = ModelFieldKey<NoteRekeyed, Temporal.DateTime?>("createdAt")
    public static let updatedAt = ModelFieldKey<NoteRekeyed, Temporal.DateTime?>("updatedAt")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public let title: String
    public init(id: String, title: String) {
      self.id = id
      self.title = title
    }
    public var components: [IdentifierComponent] {
      [
        IdentifierComponent(name: "id", value: id.keyValue),
        IdentifierComponent(name: "title", value: title.keyValue),
      ]
    }
  }
  public var identifier: Identifier { Identifier(id: id, title: title) }
  public static let schema = ModelSchema(
    name: "Note", pluralName: "Notes", primaryKey: [CodingKeys.id, CodingKeys.title],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.title, .required, .string),
      .field(CodingKeys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(CodingKeys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}

public struct NoteDropped: Model {
  public let id: String
  public internal(set) var createdAt: Temporal.DateTime?
  public internal(set) var updatedAt: Temporal.DateTime?

  public init(id: String = UUID().uuidString) {
    self.id = id
  }

  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    id = try values.decode(String.self, forKey: .id)
    createdAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .createdAt)
    updatedAt = try values.decodeIfPresent(Temporal.DateTime.self, forKey: .updatedAt)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeIfPresent(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
  }
}

extension NoteDropped {
  public enum CodingKeys: String, ModelKey { case id, createdAt, updatedAt }
  /// The typed keys of predicates and sorts, as generated models have them.
  public enum Keys {
    public static let id = ModelFieldKey<NoteDropped, String>("id")
    public static let createdAt = ModelFieldKey<NoteDropped, Temporal.DateTime?>("createdAt")
    public static let updatedAt = ModelFieldKey<NoteDropped, Temporal.DateTime?>("updatedAt")
  }
  public static let keys = Keys.self
  public struct Identifier: ModelIdentifierProtocol {
    public let id: String
    public init(id: String) {
      self.id = id
    }
    public var components: [IdentifierComponent] {
      [IdentifierComponent(name: "id", value: id.keyValue)]
    }
  }
  public var identifier: Identifier { Identifier(id: id) }
  public static let schema = ModelSchema(
    name: "Note", pluralName: "Notes", primaryKey: [CodingKeys.id],
    fields: [
      .field(CodingKeys.id, .required, .id),
      .field(CodingKeys.createdAt, .optional, .scalar(.awsDateTime), readOnly: true),
      .field(CodingKeys.updatedAt, .optional, .scalar(.awsDateTime), readOnly: true),
    ],
    authRules: [AuthRule(allow: .public)])
}
