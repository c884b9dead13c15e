/// The lexer: turns UTF-8 bytes into tokens (GraphQL spec October 2021, §2), skipping ignored
/// tokens (§2.1.7: BOM, white space, line terminators, comments, commas). Lexical errors become
/// diagnostics and the lexer continues with a best-effort token, so the parser sees as few
/// follow-on errors as possible.
///
/// Works on a borrowed buffer: create it inside `withUnsafeBufferPointer` and do not let it escape.
struct Lexer {
  private let base: UnsafePointer<UInt8>
  private let count: Int
  private let fileName: String
  /// The byte offset of the next byte to read.
  private(set) var position: Int = 0
  private var line: Int = 1
  private var lineStart: Int = 0
  /// UTF-8 continuation bytes (and extra BOM bytes) seen on the current line before `position`,
  /// subtracted from the byte column to count Unicode scalars.
  private var lineExtraBytes: Int = 0
  /// The decoded value of the latest `.string` or `.blockString` token returned by ``next()``.
  private(set) var stringValue: String = ""
  /// Lexical diagnostics, in the order found.
  var diagnostics: [Diagnostic] = []

  /// - Parameters:
  ///   - base: the first byte; valid for `count` bytes (and for one byte when `count` is 0).
  ///   - count: the number of bytes to read.
  ///   - diagnosticLimit: after this many diagnostics the lexer reports the end of the file.
  init(base: UnsafePointer<UInt8>, count: Int, fileName: String, diagnosticLimit: Int) {
    self.base = base
    self.count = count
    self.fileName = fileName
    self.diagnosticLimit = diagnosticLimit
  }

  private let diagnosticLimit: Int
  /// ``ByteClass`` bits of every byte value, read once per lexer (see ``ByteClass/table``).
  private let classes: UnsafePointer<UInt8> = ByteClass.table

  /// `true` when byte value `byte` has one of the ``ByteClass`` bits in `mask`: one table load and
  /// one comparison, where a chain of range tests costs several (each of them also a comparison
  /// hook under the fuzzer's `trace-cmp` instrumentation).
  @inline(__always) private func byte(_ byte: UInt8, isIn mask: UInt8) -> Bool {
    classes[Int(byte)] & mask != 0
  }

  // MARK: Locations

  /// The location of `position`.
  var location: SourceLocation {
    SourceLocation(offset: position, line: line, column: position - lineStart - lineExtraBytes + 1)
  }

  @inline(__always) private func byte(_ index: Int) -> UInt8 {
    index < count ? base[index] : 0
  }

  /// Marks a line terminator that ends at `next` (exclusive).
  @inline(__always) private mutating func newLine(at next: Int) {
    line += 1
    lineStart = next
    lineExtraBytes = 0
  }

  private mutating func report(_ message: SDLDiagnosticMessage, _ range: SourceRange) {
    diagnostics.append(message.diagnostic(fileName: fileName, range: range))
  }

  /// The text of bytes `start..<end` (ASCII names and numbers).
  func text(_ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
  }

  /// `true` when bytes `start..<end` spell `keyword`.
  func bytes(_ start: Int, _ end: Int, equal keyword: StaticString) -> Bool {
    let length = keyword.utf8CodeUnitCount
    guard end - start == length else { return false }
    let other = keyword.utf8Start
    for index in 0..<length where base[start + index] != other[index] { return false }
    return true
  }

  // MARK: Tokens

  /// Reads the next significant token; `.endOfFile` forever at the end, and also once
  /// `diagnosticLimit` lexical diagnostics have been reported (so junk input ends quickly).
  mutating func next() -> Token {
    while true {
      if let token = lexToken() { return token }
      if diagnostics.count >= diagnosticLimit {
        return Token(kind: .endOfFile, start: location, end: location)
      }
    }
  }

  /// Reads one token, or returns `nil` after reporting and skipping characters that start none.
  private mutating func lexToken() -> Token? {
    skipIgnored()
    let start = location
    guard position < count else {
      return Token(kind: .endOfFile, start: start, end: start)
    }
    let first = base[position]
    switch first {
    case UInt8(ascii: "!"): return punctuator(.bang, start)
    case UInt8(ascii: "$"): return punctuator(.dollar, start)
    case UInt8(ascii: "&"): return punctuator(.ampersand, start)
    case UInt8(ascii: "("): return punctuator(.parenLeft, start)
    case UInt8(ascii: ")"): return punctuator(.parenRight, start)
    case UInt8(ascii: ":"): return punctuator(.colon, start)
    case UInt8(ascii: "="): return punctuator(.equals, start)
    case UInt8(ascii: "@"): return punctuator(.at, start)
    case UInt8(ascii: "["): return punctuator(.bracketLeft, start)
    case UInt8(ascii: "]"): return punctuator(.bracketRight, start)
    case UInt8(ascii: "{"): return punctuator(.braceLeft, start)
    case UInt8(ascii: "|"): return punctuator(.pipe, start)
    case UInt8(ascii: "}"): return punctuator(.braceRight, start)
    case UInt8(ascii: "."):
      if byte(position + 1) == UInt8(ascii: "."), byte(position + 2) == UInt8(ascii: ".") {
        position += 3
        return Token(kind: .spread, start: start, end: location)
      }
      var end = position + 1
      if byte(end) == UInt8(ascii: ".") { end += 1 }
      position = end
      report(.incompleteSpread(dots: text(start.offset, end)), SourceRange(start: start, end: location))
      return nil
    case UInt8(ascii: "\""):
      if byte(position + 1) == UInt8(ascii: "\""), byte(position + 2) == UInt8(ascii: "\"") {
        return blockString(start)
      }
      return quotedString(start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return number(start)
    default:
      if isNameStart(first) {
        var end = position + 1
        while end < count, byte(base[end], isIn: ByteClass.nameContinue) { end += 1 }
        position = end
        if end < count, base[end] >= 0x80 { continueNameWithNonASCIILetters() }
        return Token(kind: .name, start: start, end: location)
      }
      if first >= 0x80, let (scalar, _) = decodeScalar(at: position), scalar.properties.isAlphabetic {
        // A name written with a non-ASCII letter: report it, but keep the name as one token so the
        // parser does not report follow-on errors.
        continueNameWithNonASCIILetters()
        return Token(kind: .name, start: start, end: location)
      }
      unexpectedCharacters(start)
      return nil
    }
  }

  @inline(__always) private mutating func punctuator(_ kind: TokenKind, _ start: SourceLocation) -> Token {
    position += 1
    return Token(kind: kind, start: start, end: location)
  }

  /// Skips white space, line terminators, commas, comments and byte-order marks (§2.1.7 *Ignored*).
  private mutating func skipIgnored() {
    while position < count {
      let current = base[position]
      switch current {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","):
        position += 1
      case UInt8(ascii: "\n"):
        position += 1
        newLine(at: position)
      case UInt8(ascii: "\r"):
        position += byte(position + 1) == UInt8(ascii: "\n") ? 2 : 1
        newLine(at: position)
      case UInt8(ascii: "#"):
        skipComment()
      case 0xEF where byte(position + 1) == 0xBB && byte(position + 2) == 0xBF:
        // U+FEFF byte-order mark (§2.1.7 *UnicodeBOM*): ignored, zero columns (editors hide it).
        position += 3
        lineExtraBytes += 3
      default:
        return
      }
    }
  }

  /// Skips `#` up to the line terminator (§2.1.4 *Comment*), checking that the text is UTF-8.
  private mutating func skipComment() {
    position += 1
    while position < count {
      let current = base[position]
      if !byte(current, isIn: ByteClass.endsCommentRun) {
        position += 1
      } else if current >= 0x80 {
        _ = decodeNonASCII()
      } else {
        return
      }
    }
  }

  /// Decodes the non-ASCII scalar at `position`, advances past it and counts its extra bytes for
  /// columns. Invalid UTF-8 is reported (``SDLDiagnosticCode/invalidUTF8``) once per run of
  /// consecutive invalid bytes, the run is skipped and U+FFFD returned.
  private mutating func decodeNonASCII() -> Unicode.Scalar {
    var invalidRun = 0
    return decodeNonASCII(invalidRun: &invalidRun)
  }

  /// ``decodeNonASCII()``, telling in `invalidRun` how many invalid bytes were skipped and
  /// reported as one diagnostic (0 when a valid scalar was decoded).
  private mutating func decodeNonASCII(invalidRun: inout Int) -> Unicode.Scalar {
    if let scalar = advanceOverScalar() {
      invalidRun = 0
      return scalar
    }
    let start = location
    let first = base[position]
    advanceOverInvalidByte()
    var length = 1
    while position < count, base[position] >= 0x80, decodeScalar(at: position) == nil {
      advanceOverInvalidByte()
      length += 1
    }
    invalidRun = length
    report(.invalidUTF8(byte: first, count: length), SourceRange(start: start, end: location))
    return "\u{FFFD}"
  }

  /// Advances past the well-formed non-ASCII scalar at `position` and returns it, counting its
  /// extra bytes for columns; `nil` (and no move) when the bytes there are not UTF-8.
  @inline(__always) private mutating func advanceOverScalar() -> Unicode.Scalar? {
    guard let (scalar, length) = decodeScalar(at: position) else { return nil }
    position += length
    // A byte-order mark counts zero columns wherever it is, as in `SourceFile.location(atOffset:)`.
    lineExtraBytes += scalar == "\u{FEFF}" ? length : length - 1
    return scalar
  }

  /// Advances past one byte that is not UTF-8; a continuation byte (`10xxxxxx`) counts zero
  /// columns, as in `SourceFile.location(atOffset:)`.
  @inline(__always) private mutating func advanceOverInvalidByte() {
    if base[position] & 0xC0 == 0x80 { lineExtraBytes += 1 }
    position += 1
  }

  /// Decodes one well-formed UTF-8 scalar of two to four bytes starting at `index` (rejecting
  /// overlong forms, surrogates and values above U+10FFFF), or `nil`.
  private func decodeScalar(at index: Int) -> (Unicode.Scalar, Int)? {
    let lead = UInt32(base[index])
    func continuation(_ offset: Int) -> UInt32? {
      let value = byte(index + offset)
      return index + offset < count && value & 0xC0 == 0x80 ? UInt32(value & 0x3F) : nil
    }
    var value: UInt32
    var length: Int
    switch lead {
    case 0xC2...0xDF:
      guard let b1 = continuation(1) else { return nil }
      value = (lead & 0x1F) << 6 | b1
      length = 2
    case 0xE0...0xEF:
      guard let b1 = continuation(1), let b2 = continuation(2) else { return nil }
      value = (lead & 0x0F) << 12 | b1 << 6 | b2
      guard value >= 0x800 else { return nil }
      length = 3
    case 0xF0...0xF4:
      guard let b1 = continuation(1), let b2 = continuation(2), let b3 = continuation(3) else { return nil }
      value = (lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3
      guard value >= 0x10000 else { return nil }
      length = 4
    default:
      return nil
    }
    guard let scalar = Unicode.Scalar(value) else { return nil }
    return (scalar, length)
  }

  /// Continues a name over non-ASCII letters and ASCII name characters, reporting each non-ASCII
  /// letter as ``SDLDiagnosticCode/unexpectedCharacter`` (names are ASCII, §2.1.9).
  private mutating func continueNameWithNonASCIILetters() {
    while position < count {
      let current = base[position]
      if byte(current, isIn: ByteClass.nameContinue) {
        position += 1
      } else if current >= 0x80, let (scalar, _) = decodeScalar(at: position), scalar.properties.isAlphabetic {
        let start = location
        _ = decodeNonASCII()
        report(.nonASCIILetterInName(scalar), SourceRange(start: start, end: location))
      } else {
        return
      }
    }
  }

  /// Reports the run of characters at `position` that start no token as one diagnostic, and
  /// skips it. The run ends at ignored text (white space, a line terminator, a comma, a comment, a
  /// byte-order mark), at a character that starts a token, or at the end of the input; so `%%%`
  /// or a stretch of binary junk is one diagnostic whose range covers it, not one per character
  /// (issue 18). One character keeps its own code and message (``SDLDiagnosticCode/unexpectedCharacter``,
  /// ``SDLDiagnosticCode/unexpectedControlCharacter`` or ``SDLDiagnosticCode/invalidUTF8``); a
  /// longer run of invalid UTF-8 bytes only is `SDL002`, of control characters only `SDL003`,
  /// and any other run `SDL001`.
  private mutating func unexpectedCharacters(_ start: SourceLocation) {
    var characters = 0
    var invalidBytes = 0
    var controls = 0
    var firstScalar: Unicode.Scalar?
    let firstByte = base[position]
    while position < count {
      let current = base[position]
      if current < 0x80 {
        guard characters == 0 || !byte(current, isIn: ByteClass.endsUnexpectedRun) else { break }
        if current < 0x20 || current == 0x7F { controls += 1 }
        position += 1
      } else if let (scalar, _) = decodeScalar(at: position) {
        guard characters == 0 || !(scalar.properties.isAlphabetic || scalar == "\u{FEFF}") else { break }
        if characters == 0 { firstScalar = scalar }
        _ = advanceOverScalar()
      } else {
        advanceOverInvalidByte()
        invalidBytes += 1
      }
      characters += 1
    }
    let range = SourceRange(start: start, end: location)
    if invalidBytes == characters {
      report(.invalidUTF8(byte: firstByte, count: invalidBytes), range)
    } else if characters == 1, let firstScalar {
      report(.nonASCIICharacter(firstScalar), range)
    } else if controls == characters {
      report(.controlCharacters(first: firstByte, count: controls), range)
    } else if characters == 1 {
      report(.unexpectedCharacter(firstByte), range)
    } else {
      report(
        .unexpectedCharacters(text: text(start.offset, position), count: characters, first: firstByte), range)
    }
  }

  // MARK: Numbers (§2.9.1, §2.9.2)

  private mutating func number(_ start: SourceLocation) -> Token {
    var index = position
    var isFloat = false
    if byte(index) == UInt8(ascii: "-") { index += 1 }
    if byte(index) == UInt8(ascii: "0") && index < count {
      index += 1
      if isDigit(byte(index)) && index < count {
        while index < count, isDigit(base[index]) { index += 1 }
        report(
          .leadingZero(number: text(start.offset, index)),
          SourceRange(start: start, end: locationAfterASCII(start, index)))
      }
    } else if !readDigits(&index, start, what: "after `-`") {
      return finishNumber(start, index, isFloat: false)
    }
    if byte(index) == UInt8(ascii: ".") && index < count {
      isFloat = true
      index += 1
      guard readDigits(&index, start, what: "after `.`") else { return finishNumber(start, index, isFloat: true) }
    }
    let exponent = byte(index)
    if (exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E")) && index < count {
      isFloat = true
      index += 1
      let sign = byte(index)
      if (sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")) && index < count { index += 1 }
      guard readDigits(&index, start, what: "in the exponent") else { return finishNumber(start, index, isFloat: true) }
    }
    // Lookahead restriction: no `.`, digit or NameStart directly after a number.
    let following = byte(index)
    if index < count && (following == UInt8(ascii: ".") || isNameStart(following)) {
      var end = index
      while end < count, isNameContinue(base[end]) || base[end] == UInt8(ascii: ".") { end += 1 }
      report(
        .invalidNumberSuffix(number: text(start.offset, end), following: following),
        SourceRange(start: locationAfterASCII(start, index), end: locationAfterASCII(start, end)))
      let token = Token(
        kind: isFloat ? .float : .int, start: start, end: locationAfterASCII(start, index))
      position = end
      return token
    }
    return finishNumber(start, index, isFloat: isFloat)
  }

  private mutating func finishNumber(_ start: SourceLocation, _ end: Int, isFloat: Bool) -> Token {
    position = end
    return Token(kind: isFloat ? .float : .int, start: start, end: location)
  }

  /// Reads one or more digits at `index`; reports ``SDLDiagnosticCode/expectedDigit`` when there
  /// is none.
  private mutating func readDigits(_ index: inout Int, _ start: SourceLocation, what: String) -> Bool {
    guard index < count, isDigit(base[index]) else {
      let found =
        index >= count
        ? "end of file"
        : base[index] >= 0x80
          ? "a non-ASCII character"
          : "`\(DiagnosticText.shortened(String(Unicode.Scalar(base[index]))))`"
      let here = locationAfterASCII(start, index)
      report(.expectedDigit(after: what, found: found), SourceRange(start: here, end: here))
      return false
    }
    while index < count, isDigit(base[index]) { index += 1 }
    return true
  }

  /// The location of byte `offset` on the same line as `start`, with only ASCII in between.
  private func locationAfterASCII(_ start: SourceLocation, _ offset: Int) -> SourceLocation {
    SourceLocation(offset: offset, line: start.line, column: start.column + offset - start.offset)
  }

  // MARK: Strings (§2.9.4)

  private mutating func quotedString(_ start: SourceLocation) -> Token {
    position += 1
    // Fast path: plain ASCII up to the closing quote.
    var index = position
    while index < count {
      let current = base[index]
      if byte(current, isIn: ByteClass.endsPlainString) {
        guard current == UInt8(ascii: "\"") else { break }
        let value = text(position, index)
        position = index + 1
        stringValue = value
        return Token(kind: .string, start: start, end: location)
      }
      index += 1
    }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: text(position, index).unicodeScalars)
    position = index
    while position < count {
      let current = base[position]
      switch current {
      case UInt8(ascii: "\""):
        position += 1
        stringValue = String(scalars)
        return Token(kind: .string, start: start, end: location)
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        report(.stringEndsAtLineEnd, SourceRange(start: start, end: location))
        stringValue = String(scalars)
        return Token(kind: .string, start: start, end: location)
      case UInt8(ascii: "\\"):
        escape(into: &scalars)
      case 0x80...:
        var invalidRun = 0
        let scalar = decodeNonASCII(invalidRun: &invalidRun)
        // Each invalid byte of a run stands as one U+FFFD in the value.
        for _ in 0..<max(1, invalidRun) { scalars.append(scalar) }
      default:
        scalars.append(Unicode.Scalar(current))
        position += 1
      }
    }
    report(.stringEndsAtFileEnd, SourceRange(start: start, end: location))
    stringValue = String(scalars)
    return Token(kind: .string, start: start, end: location)
  }

  /// Reads the escape sequence at `position` (which holds `\`) into `scalars` (§2.9.4
  /// *EscapedCharacter*, *EscapedUnicode*, surrogate pairs of two fixed-width escapes).
  private mutating func escape(into scalars: inout String.UnicodeScalarView) {
    let start = location
    let kind = byte(position + 1)
    let simple: Unicode.Scalar? =
      switch kind {
      case UInt8(ascii: "\""): "\""
      case UInt8(ascii: "\\"): "\\"
      case UInt8(ascii: "/"): "/"
      case UInt8(ascii: "b"): "\u{8}"
      case UInt8(ascii: "f"): "\u{C}"
      case UInt8(ascii: "n"): "\n"
      case UInt8(ascii: "r"): "\r"
      case UInt8(ascii: "t"): "\t"
      default: nil
      }
    if let simple, position + 1 < count {
      scalars.append(simple)
      position += 2
      return
    }
    guard kind == UInt8(ascii: "u"), position + 1 < count else {
      reportInvalidEscape(at: start, kind)
      return
    }
    if byte(position + 2) == UInt8(ascii: "{") {
      bracedUnicodeEscape(at: start, into: &scalars)
    } else {
      fixedUnicodeEscape(at: start, into: &scalars)
    }
  }

  /// A backslash at `start` before `kind`, which starts no escape: only the backslash is skipped,
  /// the next character is read as ordinary string content.
  private mutating func reportInvalidEscape(at start: SourceLocation, _ kind: UInt8) {
    position += 1
    // The range covers the backslash and the character after it when that is printable ASCII
    // (as `shown` does); otherwise (end of file, a line break, a multi-byte or invalid byte)
    // only the backslash, so it never ends past the input or inside a character.
    let printable = position < count && kind >= 0x20 && kind < 0x7F
    let shown = printable ? "\\\(Character(Unicode.Scalar(kind)))" : "\\"
    let width = printable ? 1 : 0
    report(
      .invalidEscapeSequence(shown: shown),
      SourceRange(
        start: start,
        end: SourceLocation(offset: position + width, line: start.line, column: start.column + 1 + width)))
  }

  /// Variable-width `\u{X…}` at `start` (`position`).
  private mutating func bracedUnicodeEscape(at start: SourceLocation, into scalars: inout String.UnicodeScalarView) {
    var index = position + 3
    var value: UInt32 = 0
    var digits = 0
    while index < count, let digit = hexValue(base[index]) {
      if value <= 0x10FFFF { value = value << 4 | digit }
      digits += 1
      index += 1
    }
    let closed = byte(index) == UInt8(ascii: "}") && index < count
    if closed { index += 1 }
    let end = SourceLocation(offset: index, line: start.line, column: start.column + index - start.offset)
    position = index
    if closed, digits > 0, let scalar = Unicode.Scalar(value) {
      scalars.append(scalar)
    } else {
      let escape = text(start.offset, index)
      report(
        closed && digits > 0
          ? .unicodeEscapeNotAScalar(escape: escape) : .malformedBracedUnicodeEscape(escape: escape),
        SourceRange(start: start, end: end))
      scalars.append("\u{FFFD}")
    }
  }

  /// Fixed-width `\uXXXX` at `start` (`position`), possibly a surrogate pair `\uD83D\uDE00`.
  private mutating func fixedUnicodeEscape(at start: SourceLocation, into scalars: inout String.UnicodeScalarView) {
    guard let leading = fixedHex(at: position + 2) else {
      var index = position + 2
      while index < count, index < position + 6, hexValue(base[index]) != nil { index += 1 }
      position = index
      report(
        .malformedUnicodeEscape(escape: text(start.offset, index)),
        SourceRange(
          start: start,
          end: SourceLocation(offset: index, line: start.line, column: start.column + index - start.offset)))
      scalars.append("\u{FFFD}")
      return
    }
    position += 6
    if (0xD800...0xDBFF).contains(leading), byte(position) == UInt8(ascii: "\\"),
      byte(position + 1) == UInt8(ascii: "u"),
      let trailing = fixedHex(at: position + 2), (0xDC00...0xDFFF).contains(trailing)
    {
      position += 6
      let combined = 0x10000 + ((leading - 0xD800) << 10) + (trailing - 0xDC00)
      scalars.append(Unicode.Scalar(combined)!)
      return
    }
    if let scalar = Unicode.Scalar(leading) {
      scalars.append(scalar)
      return
    }
    report(
      .loneSurrogate(escape: text(start.offset, position)),
      SourceRange(start: start, end: SourceLocation(offset: position, line: start.line, column: start.column + 6)))
    scalars.append("\u{FFFD}")
  }

  private func fixedHex(at index: Int) -> UInt32? {
    guard index + 4 <= count else { return nil }
    var value: UInt32 = 0
    for offset in 0..<4 {
      guard let digit = hexValue(base[index + offset]) else { return nil }
      value = value << 4 | digit
    }
    return value
  }

  private mutating func blockString(_ start: SourceLocation) -> Token {
    position += 3
    // Raw bytes with `\"""` replaced by `"""` (§2.9.4 *BlockStringCharacter*).
    var raw: [UInt8] = []
    var chunkStart = position
    while position < count {
      let current = base[position]
      if current == UInt8(ascii: "\"") && byte(position + 1) == UInt8(ascii: "\"")
        && byte(position + 2) == UInt8(ascii: "\"") && position + 2 < count
      {
        raw.append(contentsOf: UnsafeBufferPointer(start: base + chunkStart, count: position - chunkStart))
        position += 3
        stringValue = blockStringValue(raw)
        return Token(kind: .blockString, start: start, end: location)
      }
      if current == UInt8(ascii: "\\") && byte(position + 1) == UInt8(ascii: "\"")
        && byte(position + 2) == UInt8(ascii: "\"") && byte(position + 3) == UInt8(ascii: "\"") && position + 3 < count
      {
        raw.append(contentsOf: UnsafeBufferPointer(start: base + chunkStart, count: position - chunkStart))
        raw.append(contentsOf: [0x22, 0x22, 0x22])
        position += 4
        chunkStart = position
        continue
      }
      switch current {
      case UInt8(ascii: "\n"):
        position += 1
        newLine(at: position)
      case UInt8(ascii: "\r"):
        position += byte(position + 1) == UInt8(ascii: "\n") ? 2 : 1
        newLine(at: position)
      case 0x80...:
        let before = position
        var invalidRun = 0
        _ = decodeNonASCII(invalidRun: &invalidRun)
        if invalidRun > 0 {
          // Invalid bytes: keep one U+FFFD in the place of each.
          raw.append(contentsOf: UnsafeBufferPointer(start: base + chunkStart, count: before - chunkStart))
          for _ in 0..<invalidRun { raw.append(contentsOf: [0xEF, 0xBF, 0xBD]) }
          chunkStart = position
        }
      default:
        position += 1
      }
    }
    report(
      .unterminatedBlockString,
      SourceRange(
        start: start, end: SourceLocation(offset: start.offset + 3, line: start.line, column: start.column + 3)))
    raw.append(contentsOf: UnsafeBufferPointer(start: base + chunkStart, count: position - chunkStart))
    stringValue = blockStringValue(raw)
    return Token(kind: .blockString, start: start, end: location)
  }
}

// MARK: Character classes and helpers

/// Classes of byte values for the lexer's loops, as bits of one 256-entry table: a loop over names,
/// comments or plain strings tests a byte with one load and one comparison instead of a chain of
/// range tests. The sets follow the GraphQL spec (October 2021, §2): *NameStart* and
/// *NameContinue* (§2.1.9), *SourceCharacter* runs of comments (§2.1.4) and strings (§2.9.4).
enum ByteClass {
  /// *NameStart*: `A`–`Z`, `a`–`z`, `_`.
  static let nameStart: UInt8 = 1 << 0
  /// *Digit*: `0`–`9`.
  static let digit: UInt8 = 1 << 1
  /// *NameContinue*: a *NameStart* or a *Digit*.
  static let nameContinue: UInt8 = nameStart | digit
  /// Ends a run of characters that start no token: ASCII that starts a token or is ignored text
  /// (white space, line terminators, `,`, `#`, punctuators, `"`, `-`, digits, *NameStart*).
  static let endsUnexpectedRun: UInt8 = 1 << 2
  /// Ends the plain ASCII part of a comment: a line terminator or a non-ASCII byte (decoded and
  /// checked as UTF-8).
  static let endsCommentRun: UInt8 = 1 << 3
  /// Ends the fast path of a quoted string: `"`, `\`, a line terminator or a non-ASCII byte.
  static let endsPlainString: UInt8 = 1 << 4

  /// The class bits of each byte value (index = byte). Built once and never freed, like the
  /// table of a C lexer; immutable after it is built, so any thread may read it.
  nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for value in 0..<256 {
      let byte = UInt8(value)
      var bits: UInt8 = 0
      if (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_") { bits |= nameStart }
      if byte &- UInt8(ascii: "0") < 10 { bits |= digit }
      if bits != 0 || Array(" \t,\n\r#!$&():=@[]{|}.\"-".utf8).contains(byte) { bits |= endsUnexpectedRun }
      if byte >= 0x80 || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
        bits |= endsCommentRun | endsPlainString
      }
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bits |= endsPlainString }
      table[value] = bits
    }
    return UnsafePointer(table)
  }()
}

@inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

@inline(__always) func isNameStart(_ byte: UInt8) -> Bool {
  (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_")
}

@inline(__always) func isNameContinue(_ byte: UInt8) -> Bool { isNameStart(byte) || isDigit(byte) }

func hexValue(_ byte: UInt8) -> UInt32? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
  case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
  default: nil
  }
}

func hex(_ value: UInt32, width: Int) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// The block string value of `raw` (GraphQL spec October 2021, §2.9.4 *BlockStringValue*):
/// split into lines at line terminators, remove the common indentation of every line but the
/// first (counting spaces and tabs, ignoring lines of only white space), drop leading and
/// trailing lines of only white space, and join with `\n`.
func blockStringValue(_ raw: [UInt8]) -> String {
  var lines: [Range<Int>] = []
  var lineStart = 0
  var index = 0
  while index < raw.count {
    let current = raw[index]
    if current == UInt8(ascii: "\n") || current == UInt8(ascii: "\r") {
      lines.append(lineStart..<index)
      index += current == UInt8(ascii: "\r") && index + 1 < raw.count && raw[index + 1] == UInt8(ascii: "\n") ? 2 : 1
      lineStart = index
    } else {
      index += 1
    }
  }
  lines.append(lineStart..<raw.count)

  func indentation(_ line: Range<Int>) -> Int {
    var width = 0
    while line.lowerBound + width < line.upperBound,
      raw[line.lowerBound + width] == UInt8(ascii: " ") || raw[line.lowerBound + width] == UInt8(ascii: "\t")
    {
      width += 1
    }
    return width
  }
  var commonIndent: Int?
  for line in lines.dropFirst() {
    let indent = indentation(line)
    if indent < line.count, indent < (commonIndent ?? Int.max) { commonIndent = indent }
  }
  if let commonIndent {
    for lineIndex in lines.indices.dropFirst() {
      let line = lines[lineIndex]
      lines[lineIndex] = (line.lowerBound + min(commonIndent, line.count))..<line.upperBound
    }
  }
  var first = 0
  var last = lines.count - 1
  while first <= last, indentation(lines[first]) == lines[first].count { first += 1 }
  while last >= first, indentation(lines[last]) == lines[last].count { last -= 1 }
  guard first <= last else { return "" }
  var bytes: [UInt8] = []
  bytes.reserveCapacity(raw.count)
  for lineIndex in first...last {
    if lineIndex > first { bytes.append(UInt8(ascii: "\n")) }
    bytes.append(contentsOf: raw[lines[lineIndex]])
  }
  return String(decoding: bytes, as: UTF8.self)
}
