/// Writes an AST back as canonical SDL text.
///
/// Canonical form: definitions separated by one blank line; two-space indentation; one field,
/// input field, enum value or root operation type per line; arguments on one line unless one has a
/// description; descriptions on their own line before what they describe, block strings kept as
/// block strings; values as `[a, b]` and `{a: 1}`; LF line endings and one final newline.
///
/// Parsing the printed text gives a document equal to the original once source ranges are erased
/// (``Document/withSourceRangesErased()``). Pure functions, safe to call from any thread.
public enum SDLPrinter {
  /// The canonical SDL text of `document`; `""` for a document without definitions.
  public static func print(_ document: Document) -> String {
    var out = ""
    for (index, definition) in document.definitions.enumerated() {
      if index > 0 { out += "\n" }
      print(definition, into: &out)
    }
    return out
  }

  /// The canonical SDL text of one definition, ending in a newline.
  public static func print(_ definition: Definition) -> String {
    var out = ""
    print(definition, into: &out)
    return out
  }

  /// A value in SDL form, for example `{allow: public, operations: [read]}`.
  public static func print(_ value: ConstValue) -> String {
    var out = ""
    write(value, into: &out)
    return out
  }

  /// A directive in SDL form, for example `@index(name: "byPost", sortKeyFields: ["content"])`.
  public static func print(_ directive: Directive) -> String {
    var out = ""
    write([directive], into: &out)
    return String(out.dropFirst())
  }

  // MARK: Definitions

  private static func print(_ definition: Definition, into out: inout String) {
    switch definition {
    case .schema(let node):
      writeDescription(node.description, indent: "", into: &out)
      out += "schema"
      write(node.directives, into: &out)
      write(node.operationTypes, into: &out)
    case .scalarType(let node):
      writeDescription(node.description, indent: "", into: &out)
      out += "scalar \(node.name.value)"
      write(node.directives, into: &out)
    case .objectType(let node):
      writeDescription(node.description, indent: "", into: &out)
      out += "type \(node.name.value)"
      writeImplements(node.interfaces, into: &out)
      write(node.directives, into: &out)
      write(node.fields, into: &out)
    case .interfaceType(let node):
      writeDescription(node.description, indent: "", into: &out)
      out += "interface \(node.name.value)"
      writeImplements(node.interfaces, into: &out)
      write(node.directives, into: &out)
      write(node.fields, into: &out)
    case .unionType(let node):
      writeDescription(node.description, indent: "", into: &out)
      out += "union \(node.name.value)"
      write(node.directives, into: &out)
      writeMembers(node.memberTypes, into: &out)
    case .enumType(let node):
      writeDescription(node.description, indent: "", into: &out)
      out += "enum \(node.name.value)"
      write(node.directives, into: &out)
      write(node.values, into: &out)
    case .inputObjectType(let node):
      writeDescription(node.description, indent: "", into: &out)
      out += "input \(node.name.value)"
      write(node.directives, into: &out)
      writeInputFields(node.fields, into: &out)
    case .directive(let node):
      writeDescription(node.description, indent: "", into: &out)
      out += "directive @\(node.name.value)"
      writeArgumentDefinitions(node.arguments, indent: "", into: &out)
      if node.isRepeatable { out += " repeatable" }
      out += " on " + node.locations.map(\.location.rawValue).joined(separator: " | ")
    case .schemaExtension, .scalarTypeExtension, .objectTypeExtension, .interfaceTypeExtension, .unionTypeExtension,
      .enumTypeExtension, .inputObjectTypeExtension:
      printExtension(definition, into: &out)
    }
    out += "\n"
  }

  /// An `extend …` definition, without the line break after it.
  private static func printExtension(_ definition: Definition, into out: inout String) {
    switch definition {
    case .schemaExtension(let node):
      out += "extend schema"
      write(node.directives, into: &out)
      write(node.operationTypes, into: &out)
    case .scalarTypeExtension(let node):
      out += "extend scalar \(node.name.value)"
      write(node.directives, into: &out)
    case .objectTypeExtension(let node):
      out += "extend type \(node.name.value)"
      writeImplements(node.interfaces, into: &out)
      write(node.directives, into: &out)
      write(node.fields, into: &out)
    case .interfaceTypeExtension(let node):
      out += "extend interface \(node.name.value)"
      writeImplements(node.interfaces, into: &out)
      write(node.directives, into: &out)
      write(node.fields, into: &out)
    case .unionTypeExtension(let node):
      out += "extend union \(node.name.value)"
      write(node.directives, into: &out)
      writeMembers(node.memberTypes, into: &out)
    case .enumTypeExtension(let node):
      out += "extend enum \(node.name.value)"
      write(node.directives, into: &out)
      write(node.values, into: &out)
    case .inputObjectTypeExtension(let node):
      out += "extend input \(node.name.value)"
      write(node.directives, into: &out)
      writeInputFields(node.fields, into: &out)
    default:
      // Not an extension: `print(_:into:)` writes the definitions.
      break
    }
  }

  private static func writeImplements(_ interfaces: [Name], into out: inout String) {
    guard !interfaces.isEmpty else { return }
    out += " implements " + interfaces.map(\.value).joined(separator: " & ")
  }

  private static func writeMembers(_ members: [Name], into out: inout String) {
    guard !members.isEmpty else { return }
    out += " = " + members.map(\.value).joined(separator: " | ")
  }

  private static func write(_ operations: [RootOperationTypeDefinition], into out: inout String) {
    guard !operations.isEmpty else { return }
    out += " {\n"
    for operation in operations { out += "  \(operation.operation.rawValue): \(operation.type.value)\n" }
    out += "}"
  }

  private static func write(_ fields: [FieldDefinition], into out: inout String) {
    guard !fields.isEmpty else { return }
    out += " {\n"
    for field in fields {
      writeDescription(field.description, indent: "  ", into: &out)
      out += "  \(field.name.value)"
      writeArgumentDefinitions(field.arguments, indent: "  ", into: &out)
      out += ": \(field.type.description)"
      write(field.directives, into: &out)
      out += "\n"
    }
    out += "}"
  }

  private static func writeInputFields(_ fields: [InputValueDefinition], into out: inout String) {
    guard !fields.isEmpty else { return }
    out += " {\n"
    for field in fields {
      writeDescription(field.description, indent: "  ", into: &out)
      out += "  "
      writeInputValue(field, into: &out)
      out += "\n"
    }
    out += "}"
  }

  private static func write(_ values: [EnumValueDefinition], into out: inout String) {
    guard !values.isEmpty else { return }
    out += " {\n"
    for value in values {
      writeDescription(value.description, indent: "  ", into: &out)
      out += "  \(value.name.value)"
      write(value.directives, into: &out)
      out += "\n"
    }
    out += "}"
  }

  private static func writeArgumentDefinitions(
    _ arguments: [InputValueDefinition], indent: String, into out: inout String
  ) {
    guard !arguments.isEmpty else { return }
    if arguments.contains(where: { $0.description != nil }) {
      out += "(\n"
      for argument in arguments {
        writeDescription(argument.description, indent: indent + "  ", into: &out)
        out += indent + "  "
        writeInputValue(argument, into: &out)
        out += "\n"
      }
      out += indent + ")"
    } else {
      out += "("
      for (index, argument) in arguments.enumerated() {
        if index > 0 { out += ", " }
        writeInputValue(argument, into: &out)
      }
      out += ")"
    }
  }

  private static func writeInputValue(_ value: InputValueDefinition, into out: inout String) {
    out += "\(value.name.value): \(value.type.description)"
    if let defaultValue = value.defaultValue {
      out += " = "
      write(defaultValue, into: &out)
    }
    write(value.directives, into: &out)
  }

  private static func write(_ directives: [Directive], into out: inout String) {
    for directive in directives {
      out += " @\(directive.name.value)"
      guard !directive.arguments.isEmpty else { continue }
      out += "("
      for (index, argument) in directive.arguments.enumerated() {
        if index > 0 { out += ", " }
        out += "\(argument.name.value): "
        write(argument.value, into: &out)
      }
      out += ")"
    }
  }

  private static func write(_ value: ConstValue, into out: inout String) {
    switch value {
    case .int(let text, _), .float(let text, _): out += text
    case .string(let string): writeString(string, indent: "", into: &out)
    case .boolean(let flag, _): out += flag ? "true" : "false"
    case .null: out += "null"
    case .enumValue(let name): out += name.value
    case .list(let values, _):
      out += "["
      for (index, element) in values.enumerated() {
        if index > 0 { out += ", " }
        write(element, into: &out)
      }
      out += "]"
    case .object(let fields, _):
      out += "{"
      for (index, field) in fields.enumerated() {
        if index > 0 { out += ", " }
        out += "\(field.name.value): "
        write(field.value, into: &out)
      }
      out += "}"
    }
  }

  // MARK: Strings

  private static func writeDescription(_ description: StringValue?, indent: String, into out: inout String) {
    guard let description else { return }
    out += indent
    writeString(description, indent: indent, into: &out)
    out += "\n"
  }

  /// Writes a string literal. Block strings stay block strings: a one-line value is written on one
  /// line (`"""text"""`); otherwise the value's lines go between `"""` lines at `indent`, which the
  /// block-string indentation removal (§2.9.4) takes away again when parsed.
  private static func writeString(_ string: StringValue, indent: String, into out: inout String) {
    guard string.isBlockString else {
      writeQuoted(string.value, into: &out)
      return
    }
    let escaped = string.value.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
    if !escaped.contains("\n") {
      out += "\"\"\"" + escaped
      // A value ending in `"` would merge with the closing quotes, and one ending in `\` would make
      // them the escaped triple quote `\"""`; close on the next line instead.
      out += escaped.hasSuffix("\"") || escaped.hasSuffix("\\") ? "\n\(indent)\"\"\"" : "\"\"\""
      return
    }
    out += "\"\"\"\n"
    for line in escaped.split(separator: "\n", omittingEmptySubsequences: false) {
      out += line.isEmpty ? "\n" : indent + line + "\n"
    }
    out += indent + "\"\"\""
  }

  /// Writes `"…"` with `"`, `\` and control characters escaped (§2.9.4 *EscapedCharacter*).
  private static func writeQuoted(_ value: String, into out: inout String) {
    out += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{8}": out += "\\b"
      case "\u{C}": out += "\\f"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u" + hex(scalar.value, width: 4)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

extension String {
  /// `self` with every occurrence of `target` replaced (Foundation-free).
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    guard contains(target) else { return self }
    var result = ""
    var rest = self[...]
    while let found = rest.firstRange(of: target) {
      result += rest[..<found.lowerBound]
      result += replacement
      rest = rest[found.upperBound...]
    }
    return result + rest
  }
}
