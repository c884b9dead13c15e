import Foundation
import ModelGenIR

/// One printed SDL definition (`type`, `input` or `enum`) of the API schema: a name, directives and
/// one line per field or value. Printing is the only thing it does; deciding what goes in is the
/// emitter's job.
struct SDLBlock {
  /// The definition keyword.
  enum Kind: String {
    case type, input, `enum`
  }

  var kind: Kind
  var name: String
  var description: String?
  /// `false` to print ``description`` quoted, as it was written (graphql-js `print`).
  var descriptionIsBlockString = true
  /// The interfaces an object type implements, printed as `implements A & B` after its name.
  var interfaces: [String] = []
  var directives: [String] = []
  /// Field or enum value lines without indentation (`title: String!`).
  var lines: [String]

  /// The definition text, two-space indented, without a trailing newline.
  var rendered: String {
    var text = ""
    if let description {
      text += SDLBlock.description(description, isBlockString: descriptionIsBlockString) + "\n"
    }
    text += "\(kind.rawValue) \(name)"
    if !interfaces.isEmpty {
      text += " implements " + interfaces.joined(separator: " & ")
    }
    for directive in directives {
      text += " " + directive
    }
    text += " {\n"
    for line in lines {
      text += "  " + line + "\n"
    }
    return text + "}"
  }

  /// A field line: `name(arg: Type, ...): Type @directive`.
  static func field(
    _ name: String, arguments: [(String, String)] = [], type: String, directives: [String] = []
  ) -> String {
    var line = name
    if !arguments.isEmpty {
      line += "(" + arguments.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + ")"
    }
    line += ": " + type
    for directive in directives {
      line += " " + directive
    }
    return line
  }

  /// A directive application: `@name(arg: value, ...)`; arguments with a `nil` value are left out.
  static func directive(_ name: String, _ arguments: [(String, String?)]) -> String {
    let written = arguments.compactMap { argument in argument.1.map { "\(argument.0): \($0)" } }
    return written.isEmpty ? "@\(name)" : "@\(name)(" + written.joined(separator: ", ") + ")"
  }

  /// A GraphQL string literal (GraphQL spec §2.9.4), escaping `"`, `\` and control characters.
  static func string(_ value: String) -> String {
    var escaped = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      default:
        if scalar.value < 0x20 {
          escaped += "\\u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        } else {
          escaped.unicodeScalars.append(scalar)
        }
      }
    }
    return escaped + "\""
  }

  /// A list of GraphQL string literals: `["a", "b"]`.
  static func stringList(_ values: [String]) -> String {
    "[" + values.map(string).joined(separator: ", ") + "]"
  }

  /// A description as it was written: a block string, or a quoted string for one written quoted
  /// (graphql-js `print` of a `StringValue`: `block ? printBlockString : JSON`), unindented.
  static func description(_ text: String, isBlockString: Bool) -> String {
    isBlockString ? blockString(text, indent: "") : string(text)
  }

  /// A block string (GraphQL spec §2.9.4) holding `text`, with `"""` escaped. A one-line value is
  /// written on one line unless it ends in `"` or `\`, which would merge with the closing `"""`
  /// (`\"""` is the escaped triple quote); such a value gets the closing quotes on a line of their own.
  static func blockString(_ text: String, indent: String) -> String {
    let escaped = text.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
    if !escaped.contains("\n") && !escaped.hasSuffix("\"") && !escaped.hasSuffix("\\") {
      return indent + "\"\"\"" + escaped + "\"\"\""
    }
    let body = escaped.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }
      .joined(separator: "\n")
    return indent + "\"\"\"\n" + body + "\n" + indent + "\"\"\""
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
