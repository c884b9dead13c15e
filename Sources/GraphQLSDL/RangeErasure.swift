// Structural comparison: copies of AST nodes with every source range set to `SourceRange.zero`.

extension Document {
  /// A copy with every source range set to ``SourceRange/zero``, so that two documents compare
  /// equal exactly when they have the same structure and values, wherever they were written.
  /// Used to check that ``SDLPrinter`` output parses back to the same document.
  public func withSourceRangesErased() -> Document {
    Document(definitions: definitions.map { $0.withSourceRangesErased() }, range: .zero)
  }
}

extension Definition {
  /// A copy with every source range set to ``SourceRange/zero`` (see ``Document/withSourceRangesErased()``).
  public func withSourceRangesErased() -> Definition {
    switch self {
    case .schema(let node):
      .schema(
        SchemaDefinition(
          description: node.description?.erased, directives: node.directives.map(\.erased),
          operationTypes: node.operationTypes.map(\.erased), range: .zero))
    case .schemaExtension(let node):
      .schemaExtension(
        SchemaExtension(
          directives: node.directives.map(\.erased), operationTypes: node.operationTypes.map(\.erased), range: .zero))
    case .scalarType(let node):
      .scalarType(
        ScalarTypeDefinition(
          description: node.description?.erased, name: node.name.erased, directives: node.directives.map(\.erased),
          range: .zero))
    case .scalarTypeExtension(let node):
      .scalarTypeExtension(
        ScalarTypeExtension(name: node.name.erased, directives: node.directives.map(\.erased), range: .zero))
    case .objectType(let node):
      .objectType(
        ObjectTypeDefinition(
          description: node.description?.erased, name: node.name.erased, interfaces: node.interfaces.map(\.erased),
          directives: node.directives.map(\.erased), fields: node.fields.map(\.erased), range: .zero))
    case .objectTypeExtension(let node):
      .objectTypeExtension(
        ObjectTypeExtension(
          name: node.name.erased, interfaces: node.interfaces.map(\.erased), directives: node.directives.map(\.erased),
          fields: node.fields.map(\.erased), range: .zero))
    case .interfaceType(let node):
      .interfaceType(
        InterfaceTypeDefinition(
          description: node.description?.erased, name: node.name.erased, interfaces: node.interfaces.map(\.erased),
          directives: node.directives.map(\.erased), fields: node.fields.map(\.erased), range: .zero))
    case .interfaceTypeExtension(let node):
      .interfaceTypeExtension(
        InterfaceTypeExtension(
          name: node.name.erased, interfaces: node.interfaces.map(\.erased), directives: node.directives.map(\.erased),
          fields: node.fields.map(\.erased), range: .zero))
    case .unionType(let node):
      .unionType(
        UnionTypeDefinition(
          description: node.description?.erased, name: node.name.erased, directives: node.directives.map(\.erased),
          memberTypes: node.memberTypes.map(\.erased), range: .zero))
    case .unionTypeExtension(let node):
      .unionTypeExtension(
        UnionTypeExtension(
          name: node.name.erased, directives: node.directives.map(\.erased),
          memberTypes: node.memberTypes.map(\.erased),
          range: .zero))
    case .enumType(let node):
      .enumType(
        EnumTypeDefinition(
          description: node.description?.erased, name: node.name.erased, directives: node.directives.map(\.erased),
          values: node.values.map(\.erased), range: .zero))
    case .enumTypeExtension(let node):
      .enumTypeExtension(
        EnumTypeExtension(
          name: node.name.erased, directives: node.directives.map(\.erased), values: node.values.map(\.erased),
          range: .zero))
    case .inputObjectType(let node):
      .inputObjectType(
        InputObjectTypeDefinition(
          description: node.description?.erased, name: node.name.erased, directives: node.directives.map(\.erased),
          fields: node.fields.map(\.erased), range: .zero))
    case .inputObjectTypeExtension(let node):
      .inputObjectTypeExtension(
        InputObjectTypeExtension(
          name: node.name.erased, directives: node.directives.map(\.erased), fields: node.fields.map(\.erased),
          range: .zero))
    case .directive(let node):
      .directive(
        DirectiveDefinition(
          description: node.description?.erased, name: node.name.erased, arguments: node.arguments.map(\.erased),
          isRepeatable: node.isRepeatable,
          locations: node.locations.map { DirectiveLocationName($0.location, range: .zero) }, range: .zero))
    }
  }
}

extension Name {
  fileprivate var erased: Name { Name(value, range: .zero) }
}

extension StringValue {
  fileprivate var erased: StringValue { StringValue(value, isBlockString: isBlockString, range: .zero) }
}

extension TypeReference {
  fileprivate var erased: TypeReference {
    switch self {
    case .named(let name): .named(name.erased)
    case .list(let inner, _): .list(inner.erased, range: .zero)
    case .nonNull(let inner, _): .nonNull(inner.erased, range: .zero)
    }
  }
}

extension ConstValue {
  fileprivate var erased: ConstValue {
    switch self {
    case .int(let text, _): .int(text, range: .zero)
    case .float(let text, _): .float(text, range: .zero)
    case .string(let string): .string(string.erased)
    case .boolean(let flag, _): .boolean(flag, range: .zero)
    case .null: .null(range: .zero)
    case .enumValue(let name): .enumValue(name.erased)
    case .list(let values, _): .list(values.map(\.erased), range: .zero)
    case .object(let fields, _):
      .object(fields.map { ConstObjectField(name: $0.name.erased, value: $0.value.erased, range: .zero) }, range: .zero)
    }
  }
}

extension Directive {
  fileprivate var erased: Directive {
    Directive(
      name: name.erased,
      arguments: arguments.map { Argument(name: $0.name.erased, value: $0.value.erased, range: .zero) }, range: .zero)
  }
}

extension InputValueDefinition {
  fileprivate var erased: InputValueDefinition {
    InputValueDefinition(
      description: description?.erased, name: name.erased, type: type.erased, defaultValue: defaultValue?.erased,
      directives: directives.map(\.erased), range: .zero)
  }
}

extension FieldDefinition {
  fileprivate var erased: FieldDefinition {
    FieldDefinition(
      description: description?.erased, name: name.erased, arguments: arguments.map(\.erased), type: type.erased,
      directives: directives.map(\.erased), range: .zero)
  }
}

extension EnumValueDefinition {
  fileprivate var erased: EnumValueDefinition {
    EnumValueDefinition(
      description: description?.erased, name: name.erased, directives: directives.map(\.erased), range: .zero)
  }
}

extension RootOperationTypeDefinition {
  fileprivate var erased: RootOperationTypeDefinition {
    RootOperationTypeDefinition(operation: operation, type: type.erased, range: .zero)
  }
}
