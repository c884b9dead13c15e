import Testing

@testable import GraphQLSDL

/// The lexer's byte-class table (issue 18, fuzzing speed) holds exactly the sets of the GraphQL
/// spec (October 2021, §2) for all 256 byte values, checked against definitions written here from
/// the spec's grammar, not from the table; and the lexer ends names, comments and strings where
/// those sets say.
@Suite struct ByteClassTests {
  private static let letters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
  private static let digits = Set("0123456789".utf8)
  /// §2.1.7 ignored text and §2.1.8 punctuators, plus the bytes that start a string, a number or
  /// a spread.
  private static let tokenStartsAndIgnored = Set(" \t,\n\r#!$&():=@[]{|}.\"-".utf8)

  private func has(_ value: Int, _ mask: UInt8) -> Bool { ByteClass.table[value] & mask != 0 }

  @Test func everyByteValueHasTheSpecClasses() {
    for value in 0..<256 {
      let byte = UInt8(value)
      let nameStart = Self.letters.contains(byte) || byte == UInt8(ascii: "_")
      let digit = Self.digits.contains(byte)
      #expect(has(value, ByteClass.nameStart) == nameStart, "NameStart of \(value)")
      #expect(has(value, ByteClass.digit) == digit, "Digit of \(value)")
      #expect(has(value, ByteClass.nameContinue) == (nameStart || digit), "NameContinue of \(value)")
      #expect(
        has(value, ByteClass.endsUnexpectedRun) == (nameStart || digit || Self.tokenStartsAndIgnored.contains(byte)),
        "ends a run of unexpected characters: \(value)")
      let lineTerminator = byte == 0x0A || byte == 0x0D
      #expect(has(value, ByteClass.endsCommentRun) == (lineTerminator || byte >= 0x80), "ends a comment run: \(value)")
      #expect(
        has(value, ByteClass.endsPlainString)
          == (lineTerminator || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")),
        "ends a plain string: \(value)")
    }
  }

  /// `aX` for every printable ASCII `X`: the lexer's first token is the name `aX` exactly when `X`
  /// is a *NameContinue*, otherwise the name `a` (bytes 0..<1).
  @Test func aNameEndsAtTheFirstByteThatIsNoNameContinue() {
    for value in 0x21..<0x7F {
      let bytes: [UInt8] = [UInt8(ascii: "a"), UInt8(value)]
      let token = bytes.withUnsafeBufferPointer { buffer in
        var lexer = Lexer(base: buffer.baseAddress!, count: buffer.count, fileName: "t", diagnosticLimit: 200)
        return lexer.next()
      }
      let continues = Self.letters.contains(UInt8(value)) || Self.digits.contains(UInt8(value)) || value == 0x5F
      #expect(token.kind == .name, "first token of `a` + \(value)")
      #expect(token.end.offset == (continues ? 2 : 1), "end of the name `a` + \(value)")
    }
  }

  /// A comment runs to the line terminator over any ASCII and valid UTF-8; a plain string keeps
  /// every printable ASCII byte but `"` and `\`.
  @Test func commentsAndStringsRunOverTheirBytes() {
    let printable = (0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) }
    let comment = String(printable) + " é 𝄞"
    let commented = parse("# \(comment)\nscalar A")
    #expect(commented.diagnostics.isEmpty)
    #expect(commented.document.definitions.count == 1)
    let plain = String(printable.filter { $0 != "\"" && $0 != "\\" })
    let quoted = parse("\"\(plain)\" scalar A")
    #expect(quoted.diagnostics.isEmpty)
    guard case .scalarType(let scalar)? = quoted.document.definitions.first else {
      Issue.record("no scalar definition")
      return
    }
    #expect(scalar.description?.value == plain)
  }
}
