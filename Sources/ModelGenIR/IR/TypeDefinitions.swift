/// A GraphQL enum type.
public struct EnumDefinition: Sendable, Hashable {
  /// The type name (`Priority`).
  public var name: String
  /// The values in declaration order, raw GraphQL spelling (`LOW`, `public`).
  public var values: [EnumValueDefinition]
  /// The description, or `nil`.
  public var description: String?
  /// Position of the type name.
  public var location: SchemaLocation

  /// Creates an enum definition.
  public init(name: String, values: [EnumValueDefinition], description: String? = nil, location: SchemaLocation) {
    self.name = name
    self.values = values
    self.description = description
    self.location = location
  }
}

/// One value of an enum type.
public struct EnumValueDefinition: Sendable, Hashable {
  /// The GraphQL value name as written (the Swift raw value).
  public var name: String
  /// The description, or `nil`.
  public var description: String?
  /// Position of the value.
  public var location: SchemaLocation

  /// Creates an enum value.
  public init(name: String, description: String? = nil, location: SchemaLocation) {
    self.name = name
    self.description = description
    self.location = location
  }
}

/// A non-model object type (an embedded type: JSON column in SQLite, nested object in GraphQL).
public struct NonModelDefinition: Sendable, Hashable {
  /// The type name (`Label`).
  public var name: String
  /// The fields in declaration order (scalars, enums, other non-model types; no associations).
  public var fields: [FieldDefinition]
  /// The description, or `nil`.
  public var description: String?
  /// Position of the type name.
  public var location: SchemaLocation
  /// The AWS AppSync directives written on the type (`@aws_iam`, `@aws_api_key`), as printed SDL in
  /// document order: the transformer keeps them in the API schema, before those the auth
  /// transformer adds for the models that reach the type.
  public var appSyncDirectives: [String] = []

  /// Creates a non-model definition.
  public init(name: String, fields: [FieldDefinition], description: String? = nil, location: SchemaLocation) {
    self.name = name
    self.fields = fields
    self.description = description
    self.location = location
  }

  /// The field named `name`, or `nil`.
  public func field(named name: String) -> FieldDefinition? {
    fields.first { $0.name == name }
  }
}
