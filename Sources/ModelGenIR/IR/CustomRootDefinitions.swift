/// A root operation type the schema declares itself (`type Query { … }`, with its `extend type
/// Query` fields after its own), kept for the API schema: the Amplify transformer keeps the user's
/// root types where they are declared and appends the fields it generates after the user's
/// (`TransformerOutput.addObjectExtension` in amplify-graphql-transformer-core).
public struct CustomRootType: Sendable, Hashable {
  /// Which root type.
  public enum Operation: String, Sendable, Hashable, CaseIterable {
    /// `Query`.
    case query = "Query"
    /// `Mutation`.
    case mutation = "Mutation"
    /// `Subscription`.
    case subscription = "Subscription"
  }

  /// Which root type (`Query`, `Mutation`, `Subscription`).
  public var operation: Operation
  /// Where its name is declared.
  public var location: SchemaLocation
  /// Its fields in declaration order.
  public var fields: [CustomRootField]
  /// The AWS AppSync directives written on the type and its `extend type`s (`@aws_api_key`), as
  /// printed SDL, each name once (`TransformerOutput.addObjectExtension` adds an extension's
  /// directive only when the type lacks one of that name).
  public var directives: [String] = []
  /// The interfaces the type implements (`type Query implements Node`), definition then
  /// `extend type`s, in source order; kept as the transformer keeps them.
  public var interfaces: [String] = []

  /// Creates a root type.
  public init(operation: Operation, location: SchemaLocation, fields: [CustomRootField]) {
    self.operation = operation
    self.location = location
    self.fields = fields
  }
}

/// One field of a user-declared root type, as the API schema prints it: its description,
/// arguments (with default values) and type as written, and of its directives only those AppSync
/// knows (`@aws_*`, `@deprecated`), as the transformer's `stripDirectives` keeps them.
public struct CustomRootField: Sendable, Hashable {
  /// The field name (`echo`).
  public var name: String
  /// The printed field: one line, or more when it has a description (without indentation
  /// beyond that of nested lines).
  public var lines: [String]
  /// Where its name is declared.
  public var location: SchemaLocation
  /// `true` when the field has `@auth` rules with at least one provider: the auth transformer then
  /// adds their `@aws_*` directives (already in ``lines``) and, doing so, moves the field after
  /// every generated field of its root type (`addDirectivesToField` re-appends it).
  public var isAuthProtected: Bool

  /// Creates a field.
  public init(name: String, lines: [String], location: SchemaLocation, isAuthProtected: Bool = false) {
    self.name = name
    self.lines = lines
    self.location = location
    self.isAuthProtected = isAuthProtected
  }
}

/// An `input` type the schema declares (used by the arguments of its own root fields), printed
/// as the API schema carries it: the transformer keeps every declared input, with only AppSync's
/// directives.
public struct CustomInputType: Sendable, Hashable {
  /// The type name.
  public var name: String
  /// Where its name is declared.
  public var location: SchemaLocation
  /// The printed definition (`input SearchInput {\n  term: String!\n}`), without a final newline.
  public var text: String

  /// Creates an input type.
  public init(name: String, location: SchemaLocation, text: String) {
    self.name = name
    self.location = location
    self.text = text
  }
}
