/// A GraphQL enum type.
public struct EnumDefinition: Sendable, Hashable {
  /// The type name (`Priority`).
  public var name: String
  /// The values in declaration order, raw GraphQL spelling (`LOW`, `public`).
  public var values: [EnumValueDefinition]
  /// The description, or `nil`.
  public var description: String?
  /// `false` when the description was written as a quoted string (`"…"`), which the API schema
  /// prints quoted as graphql-js `print` does (`StringValue`: a block string only when written as
  /// one); `true` for a block string (`"""…"""`) or no description.
  public var descriptionIsBlockString = true
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
  /// `false` when the description was written as a quoted string (`"…"`), which the API schema
  /// prints quoted as graphql-js `print` does (`StringValue`: a block string only when written as
  /// one); `true` for a block string (`"""…"""`) or no description.
  public var descriptionIsBlockString = true
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
  /// `false` when the description was written as a quoted string (`"…"`), which the API schema
  /// prints quoted as graphql-js `print` does (`StringValue`: a block string only when written as
  /// one); `true` for a block string (`"""…"""`) or no description.
  public var descriptionIsBlockString = true
  /// Position of the type name.
  public var location: SchemaLocation
  /// The AWS AppSync directives written on the type (`@aws_iam`, `@aws_api_key`), as printed SDL in
  /// document order: the transformer keeps them in the API schema, before those the auth
  /// transformer adds for the models that reach the type.
  public var appSyncDirectives: [String] = []
  /// The interfaces the type implements, definition then `extend type`s, in source order; the
  /// transformer keeps them (`TransformerOutput` carries the type as written), so the API schema
  /// prints them. No Swift protocol is generated for them.
  public var interfaces: [String] = []

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

/// An `interface` or `union` type the schema declares, printed as the API schema carries it: the
/// transformer's `TransformerOutput` keeps every interface and union of the input document in its
/// place, folds `extend interface`/`extend union` into it, and its `buildSchema` strips every
/// directive but AppSync's (`@aws_*`, `@deprecated`) from the type, its fields and their
/// arguments. No Swift type is generated for either.
public struct AbstractTypeDefinition: Sendable, Hashable {
  /// Which kind of abstract type.
  public enum Kind: String, Sendable, Hashable {
    /// `interface Name { … }`.
    case interface
    /// `union Name = A | B`.
    case union
  }

  /// Interface or union.
  public var kind: Kind
  /// The type name (`Node`, `SearchResult`).
  public var name: String
  /// Where its name is declared.
  public var location: SchemaLocation
  /// For an interface the interfaces it implements; for a union its member types; in source order
  /// (definition, then extensions).
  public var members: [String]
  /// The printed definition (`interface Node {\n  id: ID!\n}`), without a final newline.
  public var text: String

  /// Creates an abstract type definition.
  public init(kind: Kind, name: String, location: SchemaLocation, members: [String], text: String) {
    self.kind = kind
    self.name = name
    self.location = location
    self.members = members
    self.text = text
  }
}
