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
    case .schema(let node): .schema(node.erased)
    case .schemaExtension(let node): .schemaExtension(node.erased)
    case .scalarType(let node): .scalarType(node.erased)
    case .scalarTypeExtension(let node): .scalarTypeExtension(node.erased)
    case .objectType(let node): .objectType(node.erased)
    case .objectTypeExtension(let node): .objectTypeExtension(node.erased)
    case .interfaceType(let node): .interfaceType(node.erased)
    case .interfaceTypeExtension(let node): .interfaceTypeExtension(node.erased)
    case .unionType(let node): .unionType(node.erased)
    case .unionTypeExtension(let node): .unionTypeExtension(node.erased)
    case .enumType(let node): .enumType(node.erased)
    case .enumTypeExtension(let node): .enumTypeExtension(node.erased)
    case .inputObjectType(let node): .inputObjectType(node.erased)
    case .inputObjectTypeExtension(let node): .inputObjectTypeExtension(node.erased)
    case .directive(let node): .directive(node.erased)
    }
  }
}

extension SchemaDefinition {
  fileprivate var erased: SchemaDefinition {
    SchemaDefinition(
      description: description?.erased, directives: directives.map(\.erased),
      operationTypes: operationTypes.map(\.erased), range: .zero)
  }
}

extension SchemaExtension {
  fileprivate var erased: SchemaExtension {
    SchemaExtension(
      directives: directives.map(\.erased), operationTypes: operationTypes.map(\.erased), range: .zero)
  }
}

extension ScalarTypeDefinition {
  fileprivate var erased: ScalarTypeDefinition {
    ScalarTypeDefinition(
      description: description?.erased, name: name.erased, directives: directives.map(\.erased),
      range: .zero)
  }
}

extension ScalarTypeExtension {
  fileprivate var erased: ScalarTypeExtension {
    ScalarTypeExtension(name: name.erased, directives: directives.map(\.erased), range: .zero)
  }
}

extension ObjectTypeDefinition {
  fileprivate var erased: ObjectTypeDefinition {
    ObjectTypeDefinition(
      description: description?.erased, name: name.erased, interfaces: interfaces.map(\.erased),
      directives: directives.map(\.erased), fields: fields.map(\.erased), range: .zero)
  }
}

extension ObjectTypeExtension {
  fileprivate var erased: ObjectTypeExtension {
    ObjectTypeExtension(
      name: name.erased, interfaces: interfaces.map(\.erased), directives: directives.map(\.erased),
      fields: fields.map(\.erased), range: .zero)
  }
}

extension InterfaceTypeDefinition {
  fileprivate var erased: InterfaceTypeDefinition {
    InterfaceTypeDefinition(
      description: description?.erased, name: name.erased, interfaces: interfaces.map(\.erased),
      directives: directives.map(\.erased), fields: fields.map(\.erased), range: .zero)
  }
}

extension InterfaceTypeExtension {
  fileprivate var erased: InterfaceTypeExtension {
    InterfaceTypeExtension(
      name: name.erased, interfaces: interfaces.map(\.erased), directives: directives.map(\.erased),
      fields: fields.map(\.erased), range: .zero)
  }
}

extension UnionTypeDefinition {
  fileprivate var erased: UnionTypeDefinition {
    UnionTypeDefinition(
      description: description?.erased, name: name.erased, directives: directives.map(\.erased),
      memberTypes: memberTypes.map(\.erased), range: .zero)
  }
}

extension UnionTypeExtension {
  fileprivate var erased: UnionTypeExtension {
    UnionTypeExtension(
      name: name.erased, directives: directives.map(\.erased),
      memberTypes: memberTypes.map(\.erased),
      range: .zero)
  }
}

extension EnumTypeDefinition {
  fileprivate var erased: EnumTypeDefinition {
    EnumTypeDefinition(
      description: description?.erased, name: name.erased, directives: directives.map(\.erased),
      values: values.map(\.erased), range: .zero)
  }
}

extension EnumTypeExtension {
  fileprivate var erased: EnumTypeExtension {
    EnumTypeExtension(
      name: name.erased, directives: directives.map(\.erased), values: values.map(\.erased),
      range: .zero)
  }
}

extension InputObjectTypeDefinition {
  fileprivate var erased: InputObjectTypeDefinition {
    InputObjectTypeDefinition(
      description: description?.erased, name: name.erased, directives: directives.map(\.erased),
      fields: fields.map(\.erased), range: .zero)
  }
}

extension InputObjectTypeExtension {
  fileprivate var erased: InputObjectTypeExtension {
    InputObjectTypeExtension(
      name: name.erased, directives: directives.map(\.erased), fields: fields.map(\.erased),
      range: .zero)
  }
}

extension DirectiveDefinition {
  fileprivate var erased: DirectiveDefinition {
    DirectiveDefinition(
      description: description?.erased, name: name.erased, arguments: arguments.map(\.erased),
      isRepeatable: isRepeatable,
      locations: locations.map { DirectiveLocationName($0.location, range: .zero) }, range: .zero)
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
