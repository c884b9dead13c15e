import GraphQLSDL
import Testing

/// A contiguous run of characters that start no token is one diagnostic whose range covers the
/// run (issue 18: junk input got one diagnostic per byte); so is a run of invalid UTF-8 bytes
/// inside a string or a comment. One character keeps its own message.
@Suite struct UnexpectedCharacterRunTests {
  /// `code line:column-line:column` of each diagnostic.
  private func spans(_ result: ParseResult) -> [String] {
    result.diagnostics.map {
      "\($0.code) \($0.range.start.line):\($0.range.start.column)-\($0.range.end.line):\($0.range.end.column)"
    }
  }

  @Test func aRunOfASCIIPunctuationIsOneDiagnostic() {
    let result = parse("type A {\n  f: Int %%?~\n}")
    #expect(spans(result) == ["SDL001 2:10-2:14"])
    #expect(result.diagnostics.map(\.message) == ["4 unexpected characters `%%?~`"])
    #expect(result.diagnostics.first.map { [$0.range.start.offset, $0.range.end.offset] } == [18, 22])
    #expect(result.document.definitions.count == 1)
  }

  @Test func whiteSpaceCommasCommentsAndTokensEndARun() {
    let result = parse("scalar A %% %%,%%#%%\n%%b %%\"s\" %%é")
    let lexical = result.diagnostics.filter { $0.code == SDLDiagnosticCode.unexpectedCharacter }
    #expect(
      spans(ParseResult(document: result.document, diagnostics: lexical, source: result.source)) == [
        "SDL001 1:10-1:12", "SDL001 1:13-1:15", "SDL001 1:16-1:18", "SDL001 2:1-2:3", "SDL001 2:5-2:7",
        "SDL001 2:11-2:13", "SDL001 2:13-2:14",
      ])
    // `b` and `"s"` end their runs; `é` starts a (non-ASCII) name, reported on its own.
    #expect(lexical.last?.message.contains("in a name") == true)
  }

  @Test func aMixedRunIsSDL001QuotingTheRunEscaped() {
    let bytes = Array("scalar A ".utf8) + [0x25, 0x01, 0xC2, 0xA7, 0xFF, 0x3F] + Array(" scalar B".utf8)
    let result = SDLParser.parse(bytes: bytes, fileName: "mixed.graphql")
    #expect(spans(result) == ["SDL001 1:10-1:15"])
    #expect(result.diagnostics.map(\.message) == ["5 unexpected characters `%\\u{1}§\u{FFFD}?`"])
    #expect(result.document.definitions.compactMap { $0.name?.value } == ["A", "B"])
  }

  @Test func aRunOfInvalidBytesOutsideTokensIsOneSDL002() {
    // 0x80 is a continuation byte: zero columns, so three bytes span two columns.
    let bytes = Array("scalar A ".utf8) + [0xFF, 0xFE, 0x80] + Array("\nscalar B".utf8)
    let result = SDLParser.parse(bytes: bytes, fileName: "bytes.graphql")
    #expect(spans(result) == ["SDL002 1:10-1:12"])
    #expect(result.diagnostics.map(\.message) == ["3 invalid UTF-8 bytes starting with 0xFF"])
    #expect(result.diagnostics.first?.range.end.offset == 12)
  }

  @Test func aRunOfInvalidBytesInACommentOrAStringIsOneSDL002() {
    let bytes =
      Array("# c".utf8) + [0xFF, 0xC0, 0xAF] + Array("\nscalar A @d(a: \"x".utf8) + [0xF8, 0xF8]
      + Array("y\", b: \"\"\"p".utf8) + [0xFE, 0xFE, 0xFE] + Array("q\"\"\")".utf8)
    let result = SDLParser.parse(bytes: bytes, fileName: "bytes.graphql")
    #expect(spans(result) == ["SDL002 1:4-1:6", "SDL002 2:18-2:20", "SDL002 2:31-2:34"])
    #expect(
      result.diagnostics.map(\.message) == [
        "3 invalid UTF-8 bytes starting with 0xFF", "2 invalid UTF-8 bytes starting with 0xF8",
        "3 invalid UTF-8 bytes starting with 0xFE",
      ])
    // Each invalid byte still stands as one U+FFFD in the value.
    #expect(
      result.document.definitions.first?.directives.first?.arguments.map { $0.value.stringValue } == [
        "x\u{FFFD}\u{FFFD}y", "p\u{FFFD}\u{FFFD}\u{FFFD}q",
      ])
  }

  @Test func aValidCharacterEndsARunOfInvalidBytes() {
    let bytes = Array("# ".utf8) + [0xFF, 0xFF] + Array("é".utf8) + [0xFF]
    let result = SDLParser.parse(bytes: bytes, fileName: "bytes.graphql")
    #expect(spans(result) == ["SDL002 1:3-1:5", "SDL002 1:6-1:7"])
    #expect(
      result.diagnostics.map(\.message) == ["2 invalid UTF-8 bytes starting with 0xFF", "invalid UTF-8 byte 0xFF"])
  }

  @Test func aRunOfControlCharactersIsOneSDL003() {
    let result = parse("scalar A \u{1}\u{2}\u{7F}\nscalar B")
    #expect(spans(result) == ["SDL003 1:10-1:13"])
    #expect(result.diagnostics.map(\.message) == ["3 unexpected control characters starting with U+0001"])
  }

  @Test func oneCharacterKeepsItsOwnMessage() {
    #expect(parse("scalar A %").diagnostics.map(\.message) == ["unexpected character `%`"])
    #expect(parse("scalar A \u{1}").diagnostics.map(\.message) == ["unexpected control character U+0001"])
    #expect(
      parse("scalar A §").diagnostics.map(\.message) == [
        "unexpected character U+00A7 `§`; non-ASCII characters are allowed only in strings and comments"
      ])
  }

  @Test func aRunStartingWithASingleQuoteKeepsTheDoubleQuoteHint() {
    let result = parse("scalar A @d(a: ''x)")
    #expect(result.diagnostics.first?.message == "2 unexpected characters `''`")
    #expect(result.diagnostics.first?.hint == "strings are written in double quotes: \"…\"")
  }

  @Test func fourKilobytesOfJunkAreOneDiagnostic() {
    let junk = SDLParser.parse(bytes: Array(repeating: 0xFF, count: 4_096), fileName: "junk.graphql")
    #expect(spans(junk) == ["SDL002 1:1-1:4097"])
    let ascii = parse(String(repeating: "%^~?;", count: 800))
    #expect(spans(ascii) == ["SDL001 1:1-1:4001"])
    #expect(
      ascii.diagnostics.first?.message
        == "4000 unexpected characters `\(String(repeating: "%^~?;", count: 16).dropLast())…`")
  }

  /// Deterministic junk of characters that start no token and ignored text: the diagnostics cover
  /// exactly the junk, each run once, with locations that agree with the source.
  @Test(arguments: 0..<6)
  func junkRunsAreCoveredOnceWithExactLocations(seed: Int) {
    // No piece ends in a lead byte that a following piece could complete into a letter.
    let junk: [[UInt8]] = [[0x25], [0x3F], [0x3B], [0x01], [0x7F], [0xFF], [0x80], [0xC2, 0xA7], [0xE2, 0x82]]
    let ignored: [[UInt8]] = [[0x20], [0x2C], [0x0A], [0x0D], [0x0D, 0x0A], [0x09], [0xEF, 0xBB, 0xBF]]
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<40 {
      var bytes: [UInt8] = []
      var isJunk: [Bool] = []
      for _ in 0..<next(60) {
        let piece = next(3) == 0 ? ignored[next(ignored.count)] : junk[next(junk.count)]
        bytes += piece
        isJunk += Array(repeating: !ignored.contains(piece), count: piece.count)
      }
      let result = SDLParser.parse(bytes: bytes, fileName: "junk.graphql")
      var covered = Array(repeating: false, count: bytes.count)
      var previousEnd = -1
      for diagnostic in result.diagnostics {
        let range = diagnostic.range
        #expect(result.source.location(atOffset: range.start.offset) == range.start)
        #expect(result.source.location(atOffset: range.end.offset) == range.end)
        // Runs are maximal: ignored text lies between two of them.
        #expect(range.start.offset > previousEnd)
        previousEnd = range.end.offset
        for offset in range.start.offset..<range.end.offset { covered[offset] = true }
      }
      #expect(covered == isJunk, "\(bytes)")
    }
  }
}
