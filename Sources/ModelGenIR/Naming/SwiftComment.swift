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
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiCommentText(text) }
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

  /// ``commentText(_:)`` of ASCII text, byte by byte (the same escapes: among ASCII scalars the
  /// invisible ones are exactly the controls U+0000–U+001F and U+007F), without a Unicode
  /// property lookup per scalar.
  private static func asciiCommentText(_ text: String) -> String {
    let bytes = text.utf8
    let plain = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }
    if plain && !text.utf8.contains(UInt8(ascii: "*")) { return text }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + 8)
    var previous: UInt8 = 0
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\\"): result += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "\n"): result += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case UInt8(ascii: "\r"): result += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case UInt8(ascii: "\t"): result += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case UInt8(ascii: "/") where previous == UInt8(ascii: "*"): result += [UInt8(ascii: "\\"), byte]
      case UInt8(ascii: "*") where previous == UInt8(ascii: "/"): result += [UInt8(ascii: "\\"), byte]
      case 0..<0x20, 0x7F: result += Array("\\u{\(String(byte, radix: 16, uppercase: true))}".utf8)
      default: result.append(byte)
      }
      previous = byte
    }
    return String(decoding: result, as: UTF8.self)
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
    let split =
      description.utf8.allSatisfy({ $0 < 0x80 })
      ? asciiLines(description)
      : description.split(
        omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    var lines = split.map { line in
      var line = Substring(line)
      while let last = line.last, last == " " || last == "\t" { line = line.dropLast() }
      return line
    }
    while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
    while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
    return lines.map { $0.isEmpty ? "///" : "/// " + commentText(String($0)) }
  }

  /// The lines of ASCII `text` split at line feed, carriage return and CR LF (one break), as the
  /// `Character`-wise split of ``docCommentLines(_:)`` makes them, found byte by byte.
  private static func asciiLines(_ text: String) -> [Substring] {
    var lines: [Substring] = []
    let utf8 = text.utf8
    var lineStart = utf8.startIndex
    var index = lineStart
    while index != utf8.endIndex {
      let byte = utf8[index]
      guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
        index = utf8.index(after: index)
        continue
      }
      lines.append(text[lineStart..<index])
      var next = utf8.index(after: index)
      if byte == UInt8(ascii: "\r"), next != utf8.endIndex, utf8[next] == UInt8(ascii: "\n") {
        next = utf8.index(after: next)
      }
      lineStart = next
      index = next
    }
    lines.append(text[lineStart..<utf8.endIndex])
    return lines
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
