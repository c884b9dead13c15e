// The abstract syntax tree of a GraphQL type-system document (GraphQL spec October 2021, §3).
//
// Every node is an immutable-by-convention value type (`Sendable`, `Hashable`) that carries the
// `SourceRange` of the text it was parsed from. Equality compares ranges too; to compare structure
// only, compare `withSourceRangesErased()` copies. Extensions (`extend type …`) have their own node
// types, so they are never mistaken for definitions.

/// A GraphQL *Name* (§2.1.9) with its source range, for example a type, field or argument name.
///
/// A name is ASCII and never spans lines, so it stores its start and byte length (32 bytes instead
/// of 40; names are the most common node). ``range`` reads and writes like a stored property; a
/// range whose end is on another line than its start is stored as ending on the start line.
public struct Name: Sendable, Hashable, CustomStringConvertible {
  /// The name text: `[_A-Za-z][_0-9A-Za-z]*`.
  public var value: String
  private var start: SourceLocation
  private var byteCount: UInt32

  /// Creates a name.
  public init(_ value: String, range: SourceRange) {
    self.value = value
    self.start = range.start
    self.byteCount = UInt32(clamping: range.byteCount)
  }

  /// Where the name is written. The end is on the start line; its column is the start column plus
  /// the name's Unicode scalars when the range covers exactly the name's text (as parsed names do,
  /// including non-ASCII names kept after an error), else plus the range's byte length.
  public var range: SourceRange {
    get {
      let bytes = Int(byteCount)
      var columns = bytes
      if value.utf8.count == bytes, value.utf8.contains(where: { $0 >= 0x80 }) {
        columns = value.unicodeScalars.count
      }
      return SourceRange(
        start: start,
        end: SourceLocation(offset: start.offset + bytes, line: start.line, column: start.column + columns))
    }
    set {
      start = newValue.start
      byteCount = UInt32(clamping: newValue.byteCount)
    }
  }

  /// The name text.
  public var description: String { value }
}

/// A string literal (§2.9.4): a quoted string `"…"` or a block string `"""…"""`, used for values
/// and descriptions.
public struct StringValue: Sendable, Hashable {
  /// The string's value after escapes are resolved (quoted) or the block-string indentation is
  /// removed (§2.9.4 *BlockStringValue*).
  public var value: String
  /// `true` when written as a block string `"""…"""`.
  public var isBlockString: Bool
  /// Where the literal is written, quotes included.
  public var range: SourceRange

  /// Creates a string value.
  public init(_ value: String, isBlockString: Bool, range: SourceRange) {
    self.value = value
    self.isBlockString = isBlockString
    self.range = range
  }
}

/// Heap storage for an optional description, so that nodes which rarely have one (fields, input
/// values, enum values) carry one pointer instead of a whole ``StringValue``.
indirect enum BoxedDescription: Sendable, Hashable {
  case boxed(StringValue)

  init(_ value: StringValue) { self = .boxed(value) }

  var value: StringValue {
    switch self {
    case .boxed(let value): value
    }
  }
}

/// A type reference (§3.4.1 *Type*): a named type, a list type `[T]`, or a non-null type `T!`.
public enum TypeReference: Sendable, Hashable, CustomStringConvertible {
  /// A named type, for example `String`.
  case named(Name)
  /// A list type `[element]`; the range covers the brackets.
  indirect case list(TypeReference, range: SourceRange)
  /// A non-null type `wrapped!`; the range covers the wrapped type and the `!`.
  indirect case nonNull(TypeReference, range: SourceRange)

  /// Where the whole type reference is written.
  public var range: SourceRange {
    switch self {
    case .named(let name): name.range
    case .list(_, let range), .nonNull(_, let range): range
    }
  }

  /// The innermost named type, for example `Comment` in `[Comment!]!`.
  public var namedType: Name {
    switch self {
    case .named(let name): name
    case .list(let inner, _), .nonNull(let inner, _): inner.namedType
    }
  }

  /// `true` for `T!`.
  public var isNonNull: Bool {
    if case .nonNull = self { return true }
    return false
  }

  /// `true` for `[T]` and `[T]!`.
  public var isList: Bool {
    switch self {
    case .list: true
    case .nonNull(let inner, _): inner.isList
    case .named: false
    }
  }

  /// The type without its outermost `!`, or `self` when nullable.
  public var nullable: TypeReference {
    if case .nonNull(let inner, _) = self { return inner }
    return self
  }

  /// The element type of a list (`T` for `[T]` and `[T]!`), `nil` for a named type.
  public var listElement: TypeReference? {
    switch self {
    case .list(let inner, _): inner
    case .nonNull(let inner, _): inner.listElement
    case .named: nil
    }
  }

  /// The type in SDL form, for example `[Comment!]!`.
  public var description: String {
    switch self {
    case .named(let name): name.value
    case .list(let inner, _): "[\(inner.description)]"
    case .nonNull(let inner, _): "\(inner.description)!"
    }
  }
}

/// A constant value (§2.9 *Value[Const]*): a value without variables, as written in default
/// values and directive arguments of a type-system document.
public enum ConstValue: Sendable, Hashable {
  /// An integer literal, kept as written (for example `"-12"`) so no precision is lost (§2.9.1).
  case int(String, range: SourceRange)
  /// A float literal, kept as written (for example `"1.5e3"`) (§2.9.2).
  case float(String, range: SourceRange)
  /// A quoted or block string (§2.9.4).
  case string(StringValue)
  /// `true` or `false` (§2.9.3).
  case boolean(Bool, range: SourceRange)
  /// `null` (§2.9.5).
  case null(range: SourceRange)
  /// An enum value: a name other than `true`, `false` or `null` (§2.9.6).
  case enumValue(Name)
  /// A list `[v1, v2]` (§2.9.7); the range covers the brackets.
  case list([ConstValue], range: SourceRange)
  /// An input object `{a: 1}` (§2.9.8); the range covers the braces.
  case object([ConstObjectField], range: SourceRange)

  /// Where the value is written.
  public var range: SourceRange {
    switch self {
    case .int(_, let range), .float(_, let range), .boolean(_, let range), .null(let range),
      .list(_, let range), .object(_, let range):
      range
    case .string(let string): string.range
    case .enumValue(let name): name.range
    }
  }

  /// The string for `.string`, else `nil`.
  public var stringValue: String? {
    if case .string(let string) = self { return string.value }
    return nil
  }

  /// The value of an `.int` literal when it fits in `Int`, else `nil`.
  public var intValue: Int? {
    if case .int(let text, _) = self { return Int(text) }
    return nil
  }

  /// The value of an `.int` or `.float` literal as `Double`, else `nil`.
  public var doubleValue: Double? {
    switch self {
    case .int(let text, _), .float(let text, _): Double(text)
    default: nil
    }
  }

  /// The value of a `.boolean`, else `nil`.
  public var booleanValue: Bool? {
    if case .boolean(let value, _) = self { return value }
    return nil
  }

  /// The name of an `.enumValue`, else `nil`.
  public var enumValueName: String? {
    if case .enumValue(let name) = self { return name.value }
    return nil
  }

  /// The elements of a `.list`, else `nil`.
  public var listValues: [ConstValue]? {
    if case .list(let values, _) = self { return values }
    return nil
  }

  /// The fields of an `.object`, in source order, else `nil`.
  public var objectFields: [ConstObjectField]? {
    if case .object(let fields, _) = self { return fields }
    return nil
  }

  /// The value of the first field named `name` of an `.object`, else `nil`.
  public func field(named name: String) -> ConstValue? {
    objectFields?.first { $0.name.value == name }?.value
  }

  /// `true` for `.null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

/// One `name: value` field of an input object value (§2.9.8 *ObjectField[Const]*).
public struct ConstObjectField: Sendable, Hashable {
  /// The field name.
  public var name: Name
  /// The field value.
  public var value: ConstValue
  /// From the name to the end of the value.
  public var range: SourceRange

  /// Creates an object field.
  public init(name: Name, value: ConstValue, range: SourceRange) {
    self.name = name
    self.value = value
    self.range = range
  }
}

/// One `name: value` argument of a directive (§2.6 *Argument[Const]*).
public struct Argument: Sendable, Hashable {
  /// The argument name.
  public var name: Name
  /// The argument value.
  public var value: ConstValue
  /// From the name to the end of the value.
  public var range: SourceRange

  /// Creates an argument.
  public init(name: Name, value: ConstValue, range: SourceRange) {
    self.name = name
    self.value = value
    self.range = range
  }
}

/// A directive applied to a definition, `@name(arg: value, …)` (§2.12 *Directive[Const]*).
public struct Directive: Sendable, Hashable {
  /// The directive name, without `@`.
  public var name: Name
  /// The arguments in source order (empty when there are no parentheses).
  public var arguments: [Argument]
  /// From `@` to the closing `)` (or the end of the name).
  public var range: SourceRange

  /// Creates a directive.
  public init(name: Name, arguments: [Argument], range: SourceRange) {
    self.name = name
    self.arguments = arguments
    self.range = range
  }

  /// The first argument named `name`, or `nil`.
  public func argument(named name: String) -> Argument? {
    arguments.first { $0.name.value == name }
  }
}

extension Array where Element == Directive {
  /// The first directive named `name` (without `@`), or `nil`.
  public func first(named name: String) -> Directive? {
    first { $0.name.value == name }
  }

  /// Every directive named `name` (without `@`), in source order; several for repeatable directives.
  public func all(named name: String) -> [Directive] {
    filter { $0.name.value == name }
  }

  /// `true` when a directive named `name` (without `@`) is present.
  public func contains(named name: String) -> Bool {
    contains { $0.name.value == name }
  }
}

/// An input value definition (§3.6 *InputValueDefinition*): a field argument, a directive
/// argument, or an input object field, `"desc" name: Type = default @directives`.
public struct InputValueDefinition: Sendable, Hashable {
  /// The description written before the name, if any.
  /// Stored out of line: most of these nodes have no description, and the node stays small.
  public var description: StringValue? {
    get { boxedDescription?.value }
    set { boxedDescription = newValue.map(BoxedDescription.init) }
  }
  private var boxedDescription: BoxedDescription?
  /// The argument or input field name.
  public var name: Name
  /// The declared type.
  public var type: TypeReference
  /// The default value after `=`, if any.
  public var defaultValue: ConstValue?
  /// Directives applied to the input value.
  public var directives: [Directive]
  /// From the description (or name) to the end of the last part.
  public var range: SourceRange

  /// Creates an input value definition.
  public init(
    description: StringValue?, name: Name, type: TypeReference, defaultValue: ConstValue?,
    directives: [Directive], range: SourceRange
  ) {
    self.boxedDescription = description.map(BoxedDescription.init)
    self.name = name
    self.type = type
    self.defaultValue = defaultValue
    self.directives = directives
    self.range = range
  }
}

/// A field of an object or interface type (§3.6 *FieldDefinition*):
/// `"desc" name(args): Type @directives`.
public struct FieldDefinition: Sendable, Hashable {
  /// The description written before the name, if any.
  /// Stored out of line: most of these nodes have no description, and the node stays small.
  public var description: StringValue? {
    get { boxedDescription?.value }
    set { boxedDescription = newValue.map(BoxedDescription.init) }
  }
  private var boxedDescription: BoxedDescription?
  /// The field name.
  public var name: Name
  /// The arguments in parentheses, in source order (empty when none).
  public var arguments: [InputValueDefinition]
  /// The field type.
  public var type: TypeReference
  /// Directives applied to the field, in source order.
  public var directives: [Directive]
  /// From the description (or name) to the end of the last directive (or type).
  public var range: SourceRange

  /// Creates a field definition.
  public init(
    description: StringValue?, name: Name, arguments: [InputValueDefinition], type: TypeReference,
    directives: [Directive], range: SourceRange
  ) {
    self.boxedDescription = description.map(BoxedDescription.init)
    self.name = name
    self.arguments = arguments
    self.type = type
    self.directives = directives
    self.range = range
  }
}

/// One value of an enum type (§3.9 *EnumValueDefinition*): `"desc" NAME @directives`.
public struct EnumValueDefinition: Sendable, Hashable {
  /// The description written before the value, if any.
  /// Stored out of line: most of these nodes have no description, and the node stays small.
  public var description: StringValue? {
    get { boxedDescription?.value }
    set { boxedDescription = newValue.map(BoxedDescription.init) }
  }
  private var boxedDescription: BoxedDescription?
  /// The enum value name (never `true`, `false` or `null`).
  public var name: Name
  /// Directives applied to the value.
  public var directives: [Directive]
  /// From the description (or name) to the end of the last directive (or name).
  public var range: SourceRange

  /// Creates an enum value definition.
  public init(description: StringValue?, name: Name, directives: [Directive], range: SourceRange) {
    self.boxedDescription = description.map(BoxedDescription.init)
    self.name = name
    self.directives = directives
    self.range = range
  }
}

/// The operation kinds a schema names root types for (§3.3.1 *OperationType*).
public enum OperationType: String, Sendable, Hashable, CaseIterable {
  /// `query`.
  case query
  /// `mutation`.
  case mutation
  /// `subscription`.
  case subscription
}

/// `query: TypeName` inside a schema definition or extension (§3.3 *RootOperationTypeDefinition*).
public struct RootOperationTypeDefinition: Sendable, Hashable {
  /// The operation kind.
  public var operation: OperationType
  /// The root type's name.
  public var type: Name
  /// From the operation keyword to the type name.
  public var range: SourceRange

  /// Creates a root operation type definition.
  public init(operation: OperationType, type: Name, range: SourceRange) {
    self.operation = operation
    self.type = type
    self.range = range
  }
}

/// `schema @directives { query: Q … }` (§3.3 *SchemaDefinition*).
public struct SchemaDefinition: Sendable, Hashable {
  /// The description written before `schema`, if any.
  public var description: StringValue?
  /// Directives applied to the schema.
  public var directives: [Directive]
  /// The root operation types, in source order.
  public var operationTypes: [RootOperationTypeDefinition]
  /// From the description (or `schema`) to the closing `}`.
  public var range: SourceRange

  /// Creates a schema definition.
  public init(
    description: StringValue?, directives: [Directive],
    operationTypes: [RootOperationTypeDefinition], range: SourceRange
  ) {
    self.description = description
    self.directives = directives
    self.operationTypes = operationTypes
    self.range = range
  }
}

/// `extend schema @directives { … }` (§3.3.2 *SchemaExtension*).
public struct SchemaExtension: Sendable, Hashable {
  /// Directives added to the schema.
  public var directives: [Directive]
  /// Root operation types added, in source order.
  public var operationTypes: [RootOperationTypeDefinition]
  /// From `extend` to the end.
  public var range: SourceRange

  /// Creates a schema extension.
  public init(directives: [Directive], operationTypes: [RootOperationTypeDefinition], range: SourceRange) {
    self.directives = directives
    self.operationTypes = operationTypes
    self.range = range
  }
}

/// `scalar Name @directives` (§3.5 *ScalarTypeDefinition*).
public struct ScalarTypeDefinition: Sendable, Hashable {
  /// The description, if any.
  public var description: StringValue?
  /// The scalar's name.
  public var name: Name
  /// Directives applied to the scalar.
  public var directives: [Directive]
  /// From the description (or `scalar`) to the end.
  public var range: SourceRange

  /// Creates a scalar type definition.
  public init(description: StringValue?, name: Name, directives: [Directive], range: SourceRange) {
    self.description = description
    self.name = name
    self.directives = directives
    self.range = range
  }
}

/// `extend scalar Name @directives` (§3.5.1 *ScalarTypeExtension*).
public struct ScalarTypeExtension: Sendable, Hashable {
  /// The extended scalar's name.
  public var name: Name
  /// Directives added.
  public var directives: [Directive]
  /// From `extend` to the end.
  public var range: SourceRange

  /// Creates a scalar type extension.
  public init(name: Name, directives: [Directive], range: SourceRange) {
    self.name = name
    self.directives = directives
    self.range = range
  }
}

/// `type Name implements A & B @directives { fields }` (§3.6 *ObjectTypeDefinition*).
public struct ObjectTypeDefinition: Sendable, Hashable {
  /// The description, if any.
  public var description: StringValue?
  /// The type's name.
  public var name: Name
  /// The implemented interfaces, in source order.
  public var interfaces: [Name]
  /// Directives applied to the type, for example `@model`.
  public var directives: [Directive]
  /// The fields, in source order (empty when the braces are omitted).
  public var fields: [FieldDefinition]
  /// From the description (or `type`) to the closing `}` (or the last part).
  public var range: SourceRange

  /// Creates an object type definition.
  public init(
    description: StringValue?, name: Name, interfaces: [Name], directives: [Directive],
    fields: [FieldDefinition], range: SourceRange
  ) {
    self.description = description
    self.name = name
    self.interfaces = interfaces
    self.directives = directives
    self.fields = fields
    self.range = range
  }
}

/// `extend type Name implements A @directives { fields }` (§3.6.3 *ObjectTypeExtension*).
public struct ObjectTypeExtension: Sendable, Hashable {
  /// The extended type's name.
  public var name: Name
  /// Interfaces added.
  public var interfaces: [Name]
  /// Directives added.
  public var directives: [Directive]
  /// Fields added.
  public var fields: [FieldDefinition]
  /// From `extend` to the end.
  public var range: SourceRange

  /// Creates an object type extension.
  public init(name: Name, interfaces: [Name], directives: [Directive], fields: [FieldDefinition], range: SourceRange) {
    self.name = name
    self.interfaces = interfaces
    self.directives = directives
    self.fields = fields
    self.range = range
  }
}

/// `interface Name implements A @directives { fields }` (§3.7 *InterfaceTypeDefinition*).
public struct InterfaceTypeDefinition: Sendable, Hashable {
  /// The description, if any.
  public var description: StringValue?
  /// The interface's name.
  public var name: Name
  /// The implemented interfaces, in source order.
  public var interfaces: [Name]
  /// Directives applied to the interface.
  public var directives: [Directive]
  /// The fields, in source order.
  public var fields: [FieldDefinition]
  /// From the description (or `interface`) to the end.
  public var range: SourceRange

  /// Creates an interface type definition.
  public init(
    description: StringValue?, name: Name, interfaces: [Name], directives: [Directive],
    fields: [FieldDefinition], range: SourceRange
  ) {
    self.description = description
    self.name = name
    self.interfaces = interfaces
    self.directives = directives
    self.fields = fields
    self.range = range
  }
}

/// `extend interface Name …` (§3.7.1 *InterfaceTypeExtension*).
public struct InterfaceTypeExtension: Sendable, Hashable {
  /// The extended interface's name.
  public var name: Name
  /// Interfaces added.
  public var interfaces: [Name]
  /// Directives added.
  public var directives: [Directive]
  /// Fields added.
  public var fields: [FieldDefinition]
  /// From `extend` to the end.
  public var range: SourceRange

  /// Creates an interface type extension.
  public init(name: Name, interfaces: [Name], directives: [Directive], fields: [FieldDefinition], range: SourceRange) {
    self.name = name
    self.interfaces = interfaces
    self.directives = directives
    self.fields = fields
    self.range = range
  }
}

/// `union Name @directives = A | B` (§3.8 *UnionTypeDefinition*).
public struct UnionTypeDefinition: Sendable, Hashable {
  /// The description, if any.
  public var description: StringValue?
  /// The union's name.
  public var name: Name
  /// Directives applied to the union.
  public var directives: [Directive]
  /// The member types, in source order.
  public var memberTypes: [Name]
  /// From the description (or `union`) to the last member.
  public var range: SourceRange

  /// Creates a union type definition.
  public init(description: StringValue?, name: Name, directives: [Directive], memberTypes: [Name], range: SourceRange) {
    self.description = description
    self.name = name
    self.directives = directives
    self.memberTypes = memberTypes
    self.range = range
  }
}

/// `extend union Name @directives = C` (§3.8.1 *UnionTypeExtension*).
public struct UnionTypeExtension: Sendable, Hashable {
  /// The extended union's name.
  public var name: Name
  /// Directives added.
  public var directives: [Directive]
  /// Member types added.
  public var memberTypes: [Name]
  /// From `extend` to the end.
  public var range: SourceRange

  /// Creates a union type extension.
  public init(name: Name, directives: [Directive], memberTypes: [Name], range: SourceRange) {
    self.name = name
    self.directives = directives
    self.memberTypes = memberTypes
    self.range = range
  }
}

/// `enum Name @directives { VALUES }` (§3.9 *EnumTypeDefinition*).
public struct EnumTypeDefinition: Sendable, Hashable {
  /// The description, if any.
  public var description: StringValue?
  /// The enum's name.
  public var name: Name
  /// Directives applied to the enum.
  public var directives: [Directive]
  /// The values, in source order.
  public var values: [EnumValueDefinition]
  /// From the description (or `enum`) to the closing `}`.
  public var range: SourceRange

  /// Creates an enum type definition.
  public init(
    description: StringValue?, name: Name, directives: [Directive], values: [EnumValueDefinition], range: SourceRange
  ) {
    self.description = description
    self.name = name
    self.directives = directives
    self.values = values
    self.range = range
  }
}

/// `extend enum Name @directives { VALUES }` (§3.9.1 *EnumTypeExtension*).
public struct EnumTypeExtension: Sendable, Hashable {
  /// The extended enum's name.
  public var name: Name
  /// Directives added.
  public var directives: [Directive]
  /// Values added.
  public var values: [EnumValueDefinition]
  /// From `extend` to the end.
  public var range: SourceRange

  /// Creates an enum type extension.
  public init(name: Name, directives: [Directive], values: [EnumValueDefinition], range: SourceRange) {
    self.name = name
    self.directives = directives
    self.values = values
    self.range = range
  }
}

/// `input Name @directives { fields }` (§3.10 *InputObjectTypeDefinition*).
public struct InputObjectTypeDefinition: Sendable, Hashable {
  /// The description, if any.
  public var description: StringValue?
  /// The input type's name.
  public var name: Name
  /// Directives applied to the input type.
  public var directives: [Directive]
  /// The input fields, in source order.
  public var fields: [InputValueDefinition]
  /// From the description (or `input`) to the closing `}`.
  public var range: SourceRange

  /// Creates an input object type definition.
  public init(
    description: StringValue?, name: Name, directives: [Directive], fields: [InputValueDefinition], range: SourceRange
  ) {
    self.description = description
    self.name = name
    self.directives = directives
    self.fields = fields
    self.range = range
  }
}

/// `extend input Name @directives { fields }` (§3.10.1 *InputObjectTypeExtension*).
public struct InputObjectTypeExtension: Sendable, Hashable {
  /// The extended input type's name.
  public var name: Name
  /// Directives added.
  public var directives: [Directive]
  /// Input fields added.
  public var fields: [InputValueDefinition]
  /// From `extend` to the end.
  public var range: SourceRange

  /// Creates an input object type extension.
  public init(name: Name, directives: [Directive], fields: [InputValueDefinition], range: SourceRange) {
    self.name = name
    self.directives = directives
    self.fields = fields
    self.range = range
  }
}

/// The places a directive may be applied (§3.13 *DirectiveLocations*), spelled as in SDL.
public enum DirectiveLocation: String, Sendable, Hashable, CaseIterable {
  // Executable directive locations.
  /// `QUERY`.
  case query = "QUERY"
  /// `MUTATION`.
  case mutation = "MUTATION"
  /// `SUBSCRIPTION`.
  case subscription = "SUBSCRIPTION"
  /// `FIELD`.
  case field = "FIELD"
  /// `FRAGMENT_DEFINITION`.
  case fragmentDefinition = "FRAGMENT_DEFINITION"
  /// `FRAGMENT_SPREAD`.
  case fragmentSpread = "FRAGMENT_SPREAD"
  /// `INLINE_FRAGMENT`.
  case inlineFragment = "INLINE_FRAGMENT"
  /// `VARIABLE_DEFINITION`.
  case variableDefinition = "VARIABLE_DEFINITION"
  // Type-system directive locations.
  /// `SCHEMA`.
  case schema = "SCHEMA"
  /// `SCALAR`.
  case scalar = "SCALAR"
  /// `OBJECT`.
  case object = "OBJECT"
  /// `FIELD_DEFINITION`.
  case fieldDefinition = "FIELD_DEFINITION"
  /// `ARGUMENT_DEFINITION`.
  case argumentDefinition = "ARGUMENT_DEFINITION"
  /// `INTERFACE`.
  case interface = "INTERFACE"
  /// `UNION`.
  case union = "UNION"
  /// `ENUM`.
  case enumType = "ENUM"
  /// `ENUM_VALUE`.
  case enumValue = "ENUM_VALUE"
  /// `INPUT_OBJECT`.
  case inputObject = "INPUT_OBJECT"
  /// `INPUT_FIELD_DEFINITION`.
  case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
}

/// One location named in a directive definition, with where it is written.
public struct DirectiveLocationName: Sendable, Hashable {
  /// The location.
  public var location: DirectiveLocation
  /// Where the location name is written.
  public var range: SourceRange

  /// Creates a directive location reference.
  public init(_ location: DirectiveLocation, range: SourceRange) {
    self.location = location
    self.range = range
  }
}

/// `directive @name(args) repeatable on A | B` (§3.13 *DirectiveDefinition*).
public struct DirectiveDefinition: Sendable, Hashable {
  /// The description, if any.
  public var description: StringValue?
  /// The directive's name, without `@`.
  public var name: Name
  /// The arguments, in source order.
  public var arguments: [InputValueDefinition]
  /// `true` when `repeatable` is written.
  public var isRepeatable: Bool
  /// The locations after `on`, in source order.
  public var locations: [DirectiveLocationName]
  /// From the description (or `directive`) to the last location.
  public var range: SourceRange

  /// Creates a directive definition.
  public init(
    description: StringValue?, name: Name, arguments: [InputValueDefinition], isRepeatable: Bool,
    locations: [DirectiveLocationName], range: SourceRange
  ) {
    self.description = description
    self.name = name
    self.arguments = arguments
    self.isRepeatable = isRepeatable
    self.locations = locations
    self.range = range
  }
}

/// One top-level definition or extension of a type-system document (§3 *TypeSystemDefinition*,
/// *TypeSystemExtension*). Extensions are separate cases; ``isExtension`` tells them apart.
public enum Definition: Sendable, Hashable {
  /// `schema { … }`.
  case schema(SchemaDefinition)
  /// `scalar Name`.
  case scalarType(ScalarTypeDefinition)
  /// `type Name { … }`.
  case objectType(ObjectTypeDefinition)
  /// `interface Name { … }`.
  case interfaceType(InterfaceTypeDefinition)
  /// `union Name = A | B`.
  case unionType(UnionTypeDefinition)
  /// `enum Name { … }`.
  case enumType(EnumTypeDefinition)
  /// `input Name { … }`.
  case inputObjectType(InputObjectTypeDefinition)
  /// `directive @name on …`.
  case directive(DirectiveDefinition)
  /// `extend schema …`.
  case schemaExtension(SchemaExtension)
  /// `extend scalar Name …`.
  case scalarTypeExtension(ScalarTypeExtension)
  /// `extend type Name …`.
  case objectTypeExtension(ObjectTypeExtension)
  /// `extend interface Name …`.
  case interfaceTypeExtension(InterfaceTypeExtension)
  /// `extend union Name …`.
  case unionTypeExtension(UnionTypeExtension)
  /// `extend enum Name …`.
  case enumTypeExtension(EnumTypeExtension)
  /// `extend input Name …`.
  case inputObjectTypeExtension(InputObjectTypeExtension)

  /// Where the definition is written, description included.
  public var range: SourceRange {
    switch self {
    case .schema(let node): node.range
    case .scalarType(let node): node.range
    case .objectType(let node): node.range
    case .interfaceType(let node): node.range
    case .unionType(let node): node.range
    case .enumType(let node): node.range
    case .inputObjectType(let node): node.range
    case .directive(let node): node.range
    case .schemaExtension(let node): node.range
    case .scalarTypeExtension(let node): node.range
    case .objectTypeExtension(let node): node.range
    case .interfaceTypeExtension(let node): node.range
    case .unionTypeExtension(let node): node.range
    case .enumTypeExtension(let node): node.range
    case .inputObjectTypeExtension(let node): node.range
    }
  }

  /// The defined or extended type's (or directive's) name; `nil` for schema definitions and
  /// extensions.
  public var name: Name? {
    switch self {
    case .schema, .schemaExtension: nil
    case .scalarType(let node): node.name
    case .objectType(let node): node.name
    case .interfaceType(let node): node.name
    case .unionType(let node): node.name
    case .enumType(let node): node.name
    case .inputObjectType(let node): node.name
    case .directive(let node): node.name
    case .scalarTypeExtension(let node): node.name
    case .objectTypeExtension(let node): node.name
    case .interfaceTypeExtension(let node): node.name
    case .unionTypeExtension(let node): node.name
    case .enumTypeExtension(let node): node.name
    case .inputObjectTypeExtension(let node): node.name
    }
  }

  /// `true` for the `extend …` cases.
  public var isExtension: Bool {
    switch self {
    case .schemaExtension, .scalarTypeExtension, .objectTypeExtension, .interfaceTypeExtension,
      .unionTypeExtension, .enumTypeExtension, .inputObjectTypeExtension:
      true
    default: false
    }
  }

  /// The directives applied to the definition or added by the extension (empty for directive
  /// definitions, which cannot carry directives).
  public var directives: [Directive] {
    switch self {
    case .schema(let node): node.directives
    case .scalarType(let node): node.directives
    case .objectType(let node): node.directives
    case .interfaceType(let node): node.directives
    case .unionType(let node): node.directives
    case .enumType(let node): node.directives
    case .inputObjectType(let node): node.directives
    case .directive: []
    case .schemaExtension(let node): node.directives
    case .scalarTypeExtension(let node): node.directives
    case .objectTypeExtension(let node): node.directives
    case .interfaceTypeExtension(let node): node.directives
    case .unionTypeExtension(let node): node.directives
    case .enumTypeExtension(let node): node.directives
    case .inputObjectTypeExtension(let node): node.directives
    }
  }

  /// The description, for the definitions that can have one (extensions cannot).
  public var description: StringValue? {
    switch self {
    case .schema(let node): node.description
    case .scalarType(let node): node.description
    case .objectType(let node): node.description
    case .interfaceType(let node): node.description
    case .unionType(let node): node.description
    case .enumType(let node): node.description
    case .inputObjectType(let node): node.description
    case .directive(let node): node.description
    default: nil
    }
  }
}

/// A parsed GraphQL type-system document (§3 *TypeSystemExtensionDocument*): its definitions and
/// extensions in source order.
public struct Document: Sendable, Hashable {
  /// Every definition and extension, in source order. Definitions that failed to parse are left
  /// out (their errors are in ``ParseResult/diagnostics``).
  public var definitions: [Definition]
  /// The whole file.
  public var range: SourceRange

  /// Creates a document.
  public init(definitions: [Definition], range: SourceRange) {
    self.definitions = definitions
    self.range = range
  }

  /// The object type definitions (`type …`), in source order; extensions are not included.
  public var objectTypes: [ObjectTypeDefinition] {
    definitions.compactMap { if case .objectType(let node) = $0 { node } else { nil } }
  }

  /// The object type extensions (`extend type …`), in source order.
  public var objectTypeExtensions: [ObjectTypeExtension] {
    definitions.compactMap { if case .objectTypeExtension(let node) = $0 { node } else { nil } }
  }

  /// The enum type definitions, in source order; extensions are not included.
  public var enumTypes: [EnumTypeDefinition] {
    definitions.compactMap { if case .enumType(let node) = $0 { node } else { nil } }
  }

  /// The directive definitions, in source order.
  public var directiveDefinitions: [DirectiveDefinition] {
    definitions.compactMap { if case .directive(let node) = $0 { node } else { nil } }
  }

  /// The first definition (not extension) named `name`, or `nil`.
  public func definition(named name: String) -> Definition? {
    definitions.first { !$0.isExtension && $0.name?.value == name }
  }

  /// The definitions (not extensions) whose name is `name`, in source order.
  public func definitions(named name: String) -> [Definition] {
    definitions.filter { !$0.isExtension && $0.name?.value == name }
  }
}
