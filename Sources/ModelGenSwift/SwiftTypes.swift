import ModelGenIR

/// The Swift spelling of the IR's field types (SPEC §3 scalar mapping) and of `LazyModel`'s
/// `ModelFieldType` DSL, over the resolved type names of one graph.
struct SwiftTypes: Sendable {
  /// The resolved names of the graph.
  let names: SchemaNames

  /// The escaped Swift name of the GraphQL type `name`.
  func typeName(_ name: String) -> String { SwiftNames.escaped(names.swiftTypeName(name)) }

  /// The Swift type of a field without its outer optionality (`[Label?]`, `Temporal.DateTime`).
  func swiftType(_ type: FieldType) -> String {
    switch type {
    case .scalar(let scalar): return Self.swiftScalar(scalar)
    case .enumeration(let name), .embedded(let name), .model(let name): return typeName(name)
    case .list(let element, let elementRequired):
      return "[" + swiftType(element) + (elementRequired ? "" : "?") + "]"
    }
  }

  /// The Swift type of a field, optional when the field is nullable, read-only or filled by the
  /// service (a declared timestamp).
  func swiftType(of field: FieldDefinition) -> String {
    swiftType(field.type) + (isRequiredInSwift(field) ? "" : "?")
  }

  /// `true` when the Swift property is non-optional: the field is non-null and neither read-only
  /// nor filled by the service.
  func isRequiredInSwift(_ field: FieldDefinition) -> Bool {
    field.isRequired && !field.isReadOnly && !field.isFilledByService
  }

  /// SPEC §3 scalar mapping.
  static func swiftScalar(_ scalar: ScalarType) -> String {
    switch scalar {
    case .id, .string, .awsEmail, .awsJSON, .awsURL, .awsPhone, .awsIPAddress: return "String"
    case .int, .awsTimestamp: return "Int"
    case .float: return "Double"
    case .boolean: return "Bool"
    case .awsDate: return "Temporal.Date"
    case .awsTime: return "Temporal.Time"
    case .awsDateTime: return "Temporal.DateTime"
    }
  }

  /// The `ModelFieldType` DSL expression of a type.
  func fieldTypeExpression(_ type: FieldType) -> String {
    switch type {
    case .scalar(.id): return ".id"
    case .scalar(.string): return ".string"
    case .scalar(.int): return ".int"
    case .scalar(.float): return ".double"
    case .scalar(.boolean): return ".bool"
    case .scalar(let scalar): return ".scalar(.\(Self.scalarCase(scalar)))"
    case .enumeration(let name): return ".enumeration(\(SwiftNames.stringLiteral(name)))"
    case .embedded(let name): return ".embedded(\(typeName(name)).self)"
    case .model(let name): return ".model(\(typeName(name)).self)"
    case .list(let element, let required):
      return ".list(\(fieldTypeExpression(element)), elementRequired: \(required))"
    }
  }

  /// The `GraphQLScalar` case name of `scalar` in `LazyModel`.
  static func scalarCase(_ scalar: ScalarType) -> String {
    switch scalar {
    case .id: return "id"
    case .string: return "string"
    case .int: return "int"
    case .float: return "float"
    case .boolean: return "boolean"
    case .awsDate: return "awsDate"
    case .awsTime: return "awsTime"
    case .awsDateTime: return "awsDateTime"
    case .awsTimestamp: return "awsTimestamp"
    case .awsEmail: return "awsEmail"
    case .awsJSON: return "awsJSON"
    case .awsURL: return "awsURL"
    case .awsPhone: return "awsPhone"
    case .awsIPAddress: return "awsIPAddress"
    }
  }

  /// The default-argument clause of an initializer parameter (` = nil`, ` = UUID().uuidString`,
  /// ` = 3`, or empty).
  func defaultClause(for field: FieldDefinition, isKey: Bool) -> String {
    if let value = field.defaultValue { return " = " + defaultExpression(value, of: field) }
    if isKey, field.name == "id", field.type == .scalar(.id) || field.type == .scalar(.string),
      field.isRequired
    {
      return " = UUID().uuidString"
    }
    return isRequiredInSwift(field) ? "" : " = nil"
  }

  /// The Swift expression of a `@default` value for `field`'s type.
  func defaultExpression(_ value: DefaultValue, of field: FieldDefinition) -> String {
    switch value {
    case .string(let text):
      switch field.type.scalar {
      case .awsDate?, .awsTime?, .awsDateTime?:
        let type = Self.swiftScalar(field.type.scalar ?? .string)
        return "try! \(type)(iso8601String: \(SwiftNames.stringLiteral(text)))"
      default:
        return SwiftNames.stringLiteral(text)
      }
    case .int(let number): return field.type.scalar == .float ? "\(Double(number))" : "\(number)"
    case .float(let number): return "\(number)"
    case .boolean(let flag): return "\(flag)"
    case .enumValue(let name):
      guard case .enumeration(let enumName) = field.type else {
        return ".\(SwiftNames.escaped(SwiftNames.caseName(name)))"
      }
      return ".\(SwiftNames.escaped(names.caseName(name, ofEnum: enumName)))"
    }
  }
}
