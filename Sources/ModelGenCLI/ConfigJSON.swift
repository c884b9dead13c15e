import GraphQLSDL
import ModelGen

/// The strict JSON reader of `modelgen-config.json`: RFC 8259 JSON text, every value with the
/// line and column where it starts, and every error at its line and column (JSONSerialization
/// gives no position, accepts what it likes and keeps the last of two equal keys silently).
///
/// What it refuses, each as a ``ConfigFileError`` with a code of `ConfigDiagnosticCode`:
/// - `MGC003`: anything RFC 8259 does not allow: invalid UTF-8, a comment (`//`, `/* */`), a
///   trailing comma, a single-quoted string, an unquoted key, a control character in a string, a
///   bad escape or number, text after the value, nesting deeper than ``maximumDepth``. Comments and
///   trailing commas are reported and skipped, so one run lists all of them; any other syntax
///   error ends the reading.
/// - `MGC004`: a key written twice in one object (the first one is kept; the later values are in
///   ``Member/repeats``, for their own checks).
///
/// A UTF-8 byte-order mark at the start is skipped (RFC 8259 §8.1 lets a parser ignore it).
/// Lines are 1-based and split at line feeds; columns are 1-based and count Unicode scalars (a tab
/// is one column), as schema diagnostics do. Pure; `Sendable`.
struct ConfigJSON: Sendable {
  /// Arrays and objects nest at most this deep (a config needs 2).
  static let maximumDepth = 64

  /// A 1-based line and column.
  typealias Position = ConfigPosition

  /// One JSON value and where it starts.
  struct Node: Sendable {
    /// The value.
    var value: Value
    /// Where its first character is.
    var position: Position
  }

  /// One member of an object: the key (decoded), where the key's opening quote is, and the value.
  struct Member: Sendable {
    var key: String
    var keyPosition: Position
    var value: Node
    /// The values of later members with this key (each `MGC004`), in file order: not kept, but
    /// still checked, so that an error in a repeated value is reported too.
    var repeats: [Node] = []
  }

  /// A JSON value; numbers keep their text.
  indirect enum Value: Sendable {
    case object([Member])
    case array([Node])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// What the value is, in words, for messages: `an object`, `a string`, `the number 3`.
    var kind: String {
      switch self {
      case .object: "an object"
      case .array: "an array"
      case .string: "a string"
      case .number(let text): "the number \(text)"
      case .bool(let value): "\(value)"
      case .null: "null"
      }
    }
  }

  /// Reads `bytes` as one JSON text.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - capacity: The most errors to collect (what is left of the error budget, at least 1);
  ///     reading stops at the error that reaches it.
  /// - Returns: The value, or `nil` when a syntax error (or the capacity) ended the reading, and
  ///   every error found, in the order found.
  static func parse(_ bytes: [UInt8], capacity: Int) -> (node: Node?, errors: [ConfigFileError.Draft]) {
    var reader = Reader(bytes: bytes, capacity: max(1, capacity))
    if let problem = reader.invalidUTF8() { return (nil, [problem]) }
    let node = reader.document()
    return (node, reader.drafts)
  }

  /// A syntax error that ends the reading.
  private struct Stop: Error {}

  private struct Reader {
    let bytes: [UInt8]
    let capacity: Int
    var drafts: [ConfigFileError.Draft] = []
    var index = 0
    var line = 1
    var column = 1
    var depth = 0

    init(bytes: [UInt8], capacity: Int) {
      self.bytes = bytes
      self.capacity = capacity
    }

    var position: Position { Position(line: line, column: column) }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }
    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    mutating func advance() {
      guard let byte = current else { return }
      index += 1
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }

    /// The first invalid UTF-8 sequence, as an error at its position; `nil` when the text is valid.
    mutating func invalidUTF8() -> ConfigFileError.Draft? {
      var iterator = bytes.makeIterator()
      var decoder = UTF8()
      var offset = 0
      while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
          offset += UTF8.width(scalar)
        case .emptyInput:
          return nil
        case .error:
          // Position of the first byte that does not decode: count lines and scalars up to it.
          var probe = Reader(bytes: Array(bytes[..<min(offset, bytes.count)]), capacity: 1)
          while probe.current != nil { probe.advance() }
          return syntax(
            "the config file is not valid UTF-8", at: probe.position,
            hint: "save the file as UTF-8 (JSON text is UTF-8, RFC 8259 §8.1)")
        }
      }
    }

    func syntax(_ message: String, at position: Position, hint: String) -> ConfigFileError.Draft {
      ConfigFileError.Draft(
        code: ConfigDiagnosticCode.invalidJSON, message: message, position: position, hint: hint)
    }

    /// Reports a syntax error that ends the reading.
    mutating func fail(_ message: String, at position: Position? = nil, hint: String? = nil) -> Stop {
      let fallback = "a config file is strict JSON (RFC 8259): one object of \"key\": value members separated by ','"
      drafts.append(syntax(message, at: position ?? self.position, hint: hint ?? fallback))
      return Stop()
    }

    /// Records an error reading goes on after; throws when the capacity is reached.
    mutating func recoverable(_ draft: ConfigFileError.Draft) throws(Stop) {
      drafts.append(draft)
      if drafts.count >= capacity { throw Stop() }
    }

    mutating func document() -> Node? {
      do {
        if current == 0xEF, peek(1) == 0xBB, peek(2) == 0xBF {
          index += 3  // U+FEFF: zero columns.
        }
        try skipWhitespace()
        guard current != nil else {
          throw fail("the config file is empty", hint: "write one JSON object, such as {\"access\": \"internal\"}")
        }
        let node = try value()
        try skipWhitespace()
        if current != nil {
          throw fail(
            "unexpected \(describeCurrent()) after the JSON value",
            hint: "the file must hold exactly one JSON object; remove what follows its closing brace")
        }
        return node
      } catch {
        return nil
      }
    }

    func describeCurrent() -> String {
      guard let byte = current else { return "end of file" }
      if byte < 0x20 { return "control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(4))" }
      if byte >= 0x80 {
        var iterator = bytes[index...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return "'\(scalar.escaped(asASCII: false))'" }
      }
      return "'\(Character(Unicode.Scalar(byte)))'"
    }

    /// Skips whitespace; a comment is reported (an error RFC 8259 has no room for) and skipped.
    mutating func skipWhitespace() throws(Stop) {
      while let byte = current {
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          advance()
        } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") || peek(1) == UInt8(ascii: "*") {
          let start = position
          let block = peek(1) == UInt8(ascii: "*")
          advance()
          advance()
          if block {
            while current != nil, !(current == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) { advance() }
            guard current != nil else {
              throw fail("unterminated comment", at: start, hint: "JSON has no comments; remove it")
            }
            advance()
            advance()
          } else {
            while let byte = current, byte != 0x0A { advance() }
          }
          try recoverable(
            syntax(
              "comments are not JSON", at: start,
              hint: "remove the comment (RFC 8259 has no comments; JSONSerialization would refuse it too)"))
        } else {
          return
        }
      }
    }

    mutating func value() throws(Stop) -> Node {
      let start = position
      guard let byte = current else {
        throw fail("the JSON text ends where a value is expected", hint: "complete the value and close every { and [")
      }
      switch byte {
      case UInt8(ascii: "{"): return Node(value: try object(), position: start)
      case UInt8(ascii: "["): return Node(value: try array(), position: start)
      case UInt8(ascii: "\""): return Node(value: .string(try string()), position: start)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return Node(value: try number(), position: start)
      case UInt8(ascii: "t"):
        try literal("true")
        return Node(value: .bool(true), position: start)
      case UInt8(ascii: "f"):
        try literal("false")
        return Node(value: .bool(false), position: start)
      case UInt8(ascii: "n"):
        try literal("null")
        return Node(value: .null, position: start)
      case UInt8(ascii: "'"):
        throw fail("strings must be in double quotes", hint: "write \"…\" instead of '…'")
      default:
        throw fail("unexpected \(describeCurrent()) where a value is expected")
      }
    }

    mutating func literal(_ word: String) throws(Stop) {
      let start = position
      let hint = "JSON's literals are true, false and null, in lower case; a string needs double quotes"
      for expected in word.utf8 {
        guard current == expected else { throw fail("invalid literal; expected \(word)", at: start, hint: hint) }
        advance()
      }
      if let byte = current, isWordByte(byte) { throw fail("invalid literal; expected \(word)", at: start, hint: hint) }
    }

    func isWordByte(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte >= 0x80
    }

    mutating func enter() throws(Stop) {
      depth += 1
      if depth > ConfigJSON.maximumDepth {
        throw fail(
          "arrays and objects nest deeper than \(ConfigJSON.maximumDepth)",
          hint: "a config file is one object whose values nest at most one level")
      }
    }

    mutating func object() throws(Stop) -> Value {
      try enter()
      defer { depth -= 1 }
      advance()  // {
      var members: [Member] = []
      var firstIndices: [String: Int] = [:]
      try skipWhitespace()
      if current == UInt8(ascii: "}") {
        advance()
        return .object([])
      }
      while true {
        try skipWhitespace()
        try add(try member(), to: &members, firstIndices: &firstIndices)
        if try closes(UInt8(ascii: "}"), inside: "an object", after: "a member") { return .object(members) }
      }
    }

    /// One member, `"key": value`, from its key's opening quote.
    mutating func member() throws(Stop) -> Member {
      let keyPosition = position
      guard current == UInt8(ascii: "\"") else {
        if current == UInt8(ascii: "}") {
          throw fail("expected a key after ','", hint: "JSON allows no trailing comma")
        }
        throw fail(
          current == nil
            ? "the JSON text ends inside an object" : "expected a key in double quotes, found \(describeCurrent())",
          hint: current == nil ? "close every { and [" : "write the key as \"key\"")
      }
      let key = try string()
      try skipWhitespace()
      guard current == UInt8(ascii: ":") else {
        throw fail(
          "expected ':' after the key \"\(DiagnosticText.shortened(key))\", found \(describeCurrent())",
          hint: "write a ':' between the key and its value")
      }
      advance()
      try skipWhitespace()
      return Member(key: key, keyPosition: keyPosition, value: try value())
    }

    /// Appends `member`, or keeps its value as a repeat of the first member with its key
    /// (`MGC004`, recoverable: the reading goes on).
    mutating func add(_ member: Member, to members: inout [Member], firstIndices: inout [String: Int]) throws(Stop) {
      if let firstIndex = firstIndices[member.key] {
        let first = members[firstIndex].keyPosition
        members[firstIndex].repeats.append(member.value)
        try recoverable(
          ConfigFileError.Draft(
            code: ConfigDiagnosticCode.duplicateKey,
            message:
              "duplicate key \"\(SwiftNames.commentText(DiagnosticText.shortened(member.key)))\" (first written at \(first.line):\(first.column))",
            position: member.keyPosition, hint: "keep one of the two; a JSON object's keys must be unique"))
      } else {
        firstIndices[member.key] = members.count
        members.append(member)
      }
    }

    mutating func array() throws(Stop) -> Value {
      try enter()
      defer { depth -= 1 }
      advance()  // [
      var elements: [Node] = []
      try skipWhitespace()
      if current == UInt8(ascii: "]") {
        advance()
        return .array([])
      }
      while true {
        try skipWhitespace()
        if current == UInt8(ascii: "]") || current == UInt8(ascii: ",") {
          throw fail("expected a value, found \(describeCurrent())")
        }
        elements.append(try value())
        if try closes(UInt8(ascii: "]"), inside: "an array", after: "an element") { return .array(elements) }
      }
    }

    /// After a member or an element (`item`) of an object or array (`container`): `true` when the
    /// bracket `close` follows (read), `false` after a `,` that another item follows. A `,` right
    /// before `close` is a recoverable error and closes too.
    mutating func closes(_ close: UInt8, inside container: String, after item: String) throws(Stop) -> Bool {
      let bracket = Character(Unicode.Scalar(close))
      try skipWhitespace()
      if current == UInt8(ascii: ",") {
        let comma = position
        advance()
        try skipWhitespace()
        guard current == close else { return false }
        try recoverable(
          syntax(
            "trailing comma before '\(bracket)'", at: comma, hint: "remove the comma (JSON allows no trailing comma)"))
        advance()
        return true
      }
      if current == close {
        advance()
        return true
      }
      if current == nil { throw fail("the JSON text ends inside \(container)", hint: "close every { and [") }
      throw fail("expected ',' or '\(bracket)' after \(item), found \(describeCurrent())")
    }

    /// At `"`: the decoded string; after its closing quote.
    mutating func string() throws(Stop) -> String {
      let start = position
      advance()  // "
      var scalars = String.UnicodeScalarView()
      var raw: [UInt8] = []
      func flush() {
        scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
        raw.removeAll(keepingCapacity: true)
      }
      while true {
        guard let byte = current else {
          throw fail("unterminated string", at: start, hint: "close the string with \"")
        }
        if byte == UInt8(ascii: "\"") {
          advance()
          break
        }
        if byte < 0x20 {
          throw fail(
            "a control character (U+\(String(byte, radix: 16, uppercase: true).leftPadded(4))) in a string",
            hint: byte == 0x0A
              ? "close the string before the line ends, or write \\n" : "write it as an escape (\\u00XX)")
        }
        guard byte == UInt8(ascii: "\\") else {
          raw.append(byte)
          advance()
          continue
        }
        flush()
        scalars.append(try escapedScalar(inStringAt: start))
      }
      flush()
      return String(scalars)
    }

    /// The character an escape stands for, from its backslash: `\"`, `\n`, …, `\uXXXX` (a UTF-16
    /// surrogate pair as two escapes). `start` is the string's opening quote.
    mutating func escapedScalar(inStringAt start: Position) throws(Stop) -> Unicode.Scalar {
      let escapeStart = position
      advance()
      guard let escaped = current else {
        throw fail("unterminated string", at: start, hint: "close the string with \"")
      }
      advance()
      switch escaped {
      case UInt8(ascii: "\""): return "\""
      case UInt8(ascii: "\\"): return "\\"
      case UInt8(ascii: "/"): return "/"
      case UInt8(ascii: "b"): return "\u{8}"
      case UInt8(ascii: "f"): return "\u{C}"
      case UInt8(ascii: "n"): return "\n"
      case UInt8(ascii: "r"): return "\r"
      case UInt8(ascii: "t"): return "\t"
      case UInt8(ascii: "u"): return try unicodeEscape(at: escapeStart)
      default:
        throw fail(
          "an invalid escape in a string", at: escapeStart,
          hint: "JSON's escapes are \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX")
      }
    }

    /// `\uXXXX` after its `u`, and the low half's `\uXXXX` after a high surrogate.
    mutating func unicodeEscape(at escapeStart: Position) throws(Stop) -> Unicode.Scalar {
      var value = try hex4(escapeStart)
      if (0xD800...0xDBFF).contains(value) {
        guard current == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
          throw fail("a lone UTF-16 surrogate \\u\(String(value, radix: 16, uppercase: true))", at: escapeStart)
        }
        advance()
        advance()
        let low = try hex4(escapeStart)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw fail("a lone UTF-16 surrogate \\u\(String(value, radix: 16, uppercase: true))", at: escapeStart)
        }
        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(value) {
        throw fail("a lone UTF-16 surrogate \\u\(String(value, radix: 16, uppercase: true))", at: escapeStart)
      }
      guard let scalar = Unicode.Scalar(value) else { throw fail("an invalid \\u escape", at: escapeStart) }
      return scalar
    }

    mutating func hex4(_ escapeStart: Position) throws(Stop) -> UInt32 {
      var value: UInt32 = 0
      for _ in 0..<4 {
        guard let byte = current, let digit = hexDigit(byte) else {
          throw fail("a \\u escape needs four hexadecimal digits", at: escapeStart)
        }
        value = value * 16 + digit
        advance()
      }
      return value
    }

    func hexDigit(_ byte: UInt8) -> UInt32? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
      default: nil
      }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` (RFC 8259 §6).
    mutating func number() throws(Stop) -> Value {
      let start = position
      let first = index
      func isDigit(_ byte: UInt8?) -> Bool {
        byte.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
      }
      let invalid = "an invalid number"
      if current == UInt8(ascii: "-") { advance() }
      if current == UInt8(ascii: "0") {
        advance()
        if isDigit(current) { throw fail(invalid, at: start, hint: "a JSON number has no leading zeros") }
      } else if isDigit(current) {
        while isDigit(current) { advance() }
      } else {
        throw fail(invalid, at: start)
      }
      if current == UInt8(ascii: ".") {
        advance()
        guard isDigit(current) else { throw fail(invalid, at: start, hint: "write a digit after the '.'") }
        while isDigit(current) { advance() }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        advance()
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
        guard isDigit(current) else { throw fail(invalid, at: start) }
        while isDigit(current) { advance() }
      }
      if let byte = current, isWordByte(byte) || byte == UInt8(ascii: ".") { throw fail(invalid, at: start) }
      return .number(String(decoding: bytes[first..<index], as: UTF8.self))
    }
  }
}

extension String {
  /// The string with `0`s in front up to `width` characters.
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
