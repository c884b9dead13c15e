extension SwiftNames {
  /// User text (a schema file name, a description) as it may stand inside a comment of a
  /// generated file: a Swift `//` or `///` line comment, a `/* … */` block comment, or a GraphQL
  /// `#` comment. The context's other two escaping functions are ``stringLiteral(_:)`` (string
  /// literals) and ``escaped(_:)`` (identifiers); every user text the generator writes goes
  /// through one of the three.
  ///
  /// Nothing in the result can end the comment or start code: `\` becomes `\\`; line feed,
  /// carriage return and tab become `\n`, `\r`, `\t`; every other control, format (bidirectional
  /// overrides, zero-width characters, U+FEFF) or line/paragraph separator scalar (U+2028,
  /// U+2029, U+0085) becomes `\u{XXXX}`; `*/` becomes `*\/` and `/*` becomes `/\*`. Plain text
  /// (`seed-post-comment.graphql`) is unchanged. A Swift line comment ends only at a line break
  /// (The Swift Programming Language, "Lexical Structure › Whitespace and Comments"), a GraphQL
  /// comment at a *LineTerminator* (GraphQL spec October 2021, §2.1.4).
  ///
  /// - Parameter text: any text.
  /// - Returns: the text with the escapes above, on one line.
  public static func commentText(_ text: String) -> String {
    var result = ""
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "/" where previous == "*": result += "\\/"
      case "*" where previous == "/": result += "\\*"
      default:
        if isInvisible(scalar) {
          result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
      previous = scalar
    }
    return result
  }

  /// A GraphQL description (GraphQL spec October 2021, §3.2: a string or block string before a
  /// definition, already decoded and, for a block string, dedented by the parser) as the lines of
  /// a Swift `///` doc comment: one line per line of the description (split at line feed,
  /// carriage return and CR LF), each `/// ` followed by the line through ``commentText(_:)``, so
  /// nothing in it can end the comment or start code (a line break is the only way out of a line
  /// comment, and each one starts a new `///` line); blank lines inside stay as `///`, blank
  /// lines before and after are dropped.
  ///
  /// - Parameter description: the description, or `nil`.
  /// - Returns: the comment lines without indentation; empty for `nil` or a blank description.
  public static func docCommentLines(_ description: String?) -> [String] {
    guard let description else { return [] }
    var lines = description.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    ).map { line in
      var line = Substring(line)
      while let last = line.last, last == " " || last == "\t" { line = line.dropLast() }
      return line
    }
    while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
    while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
    return lines.map { $0.isEmpty ? "///" : "/// " + commentText(String($0)) }
  }

  /// `true` for scalars that print nothing visible or break a line: controls (C0, DEL, C1),
  /// format characters (`Cf`: bidirectional controls, zero-width joiners, U+FEFF), line and
  /// paragraph separators, surrogates, private-use and unassigned code points.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
      return true
    default:
      return false
    }
  }
}
