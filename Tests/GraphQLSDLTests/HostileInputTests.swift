import GraphQLSDL
import Testing

/// Input meant to break a parser ends in diagnostics or a result, never a crash or a hang.
@Suite struct HostileInputTests {
  private func codes(_ result: ParseResult) -> [String] {
    result.diagnostics.map { "\($0.code) \($0.line):\($0.column)" }
  }

  @Test func deeplyNestedListValuesStopAtTheDepthLimit() {
    let depth = 100_000
    let text =
      "scalar S @d(a: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + ")\nscalar T"
    let result = parse(text)
    #expect(codes(result) == ["SDL028 1:80"])  // the 65th `[`, one past the default limit of 64
    #expect(result.document.definitions.compactMap { $0.name?.value } == ["T"])
  }

  @Test func deeplyNestedObjectValuesStopAtTheDepthLimit() {
    let depth = 50_000
    let text =
      "scalar S @d(a: " + String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth) + ")"
    let result = parse(text)
    #expect(result.diagnostics.map(\.code) == [SDLDiagnosticCode.nestingTooDeep])
  }

  @Test func deeplyNestedListTypesStopAtTheDepthLimit() {
    let depth = 100_000
    let text =
      "type A {\n  a: " + String(repeating: "[", count: depth) + "Int" + String(repeating: "]", count: depth)
      + "\n  b: Int\n}"
    let result = parse(text)
    #expect(result.diagnostics.map(\.code) == [SDLDiagnosticCode.nestingTooDeep])
    #expect(result.document.objectTypes.first?.fields.map(\.name.value) == ["b"])
  }

  @Test func nestingLimitIsConfigurable() {
    let options = ParseOptions(maximumNestingDepth: 3)
    #expect(SDLParser.parse("scalar S @d(a: [[[1]]])", options: options).diagnostics.isEmpty)
    let tooDeep = SDLParser.parse("scalar S @d(a: [[[[1]]]])", options: options)
    #expect(tooDeep.diagnostics.map { "\($0.code) \($0.column)" } == ["SDL028 19"])
    #expect(SDLParser.parse("type A { a: [[[Int]]] }", options: options).diagnostics.isEmpty)
    #expect(!SDLParser.parse("type A { a: [[[[Int]]]] }", options: options).diagnostics.isEmpty)
  }

  @Test(
    arguments: [
      ("invalid lead byte outside tokens", [0xFF] + Array(" scalar A".utf8), "SDL002 1:1"),
      ("invalid byte in a string", Array("scalar A @d(a: \"x".utf8) + [0xC3] + Array("\")".utf8), "SDL002 1:18"),
      ("invalid byte in a comment", Array("# c".utf8) + [0x80, 0x80] + Array("\nscalar A".utf8), "SDL002 1:4"),
      ("overlong encoding", Array("scalar A @d(a: \"".utf8) + [0xC0, 0x80] + Array("\")".utf8), "SDL002 1:17"),
      ("encoded surrogate", Array("scalar A @d(a: \"".utf8) + [0xED, 0xA0, 0x80] + Array("\")".utf8), "SDL002 1:17"),
      (
        "above U+10FFFF", Array("scalar A @d(a: \"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\")".utf8), "SDL002 1:17"
      ),
      ("truncated sequence at end of file", Array("scalar A # ".utf8) + [0xE2, 0x82], "SDL002 1:12"),
    ] as [(String, [UInt8], String)])
  func invalidUTF8IsReportedWhereItIs(name: String, bytes: [UInt8], expected: String) {
    let result = SDLParser.parse(bytes: bytes, fileName: "bad.graphql")
    #expect(codes(result).first == expected, "\(name)")
    #expect(result.diagnostics.allSatisfy { $0.code == SDLDiagnosticCode.invalidUTF8 }, "\(name)")
    #expect(result.document.definitions.count == 1, "\(name)")
  }

  @Test func invalidUTF8InAStringBecomesReplacementCharacters() {
    let bytes =
      Array("scalar A @d(a: \"a".utf8) + [0xFF] + Array("b\", b: \"\"\"c".utf8) + [0xFE] + Array("d\"\"\")".utf8)
    let result = SDLParser.parse(bytes: bytes, fileName: "bad.graphql")
    guard case .scalarType(let scalar)? = result.document.definitions.first else {
      Issue.record("expected a scalar")
      return
    }
    #expect(scalar.directives[0].arguments.map { $0.value.stringValue } == ["a\u{FFFD}b", "c\u{FFFD}d"])
    #expect(result.diagnostics.count == 2)
  }

  @Test func nulBytesOutsideStringsAreErrorsAndInsideStringsAreCharacters() {
    let outside = parse("scalar A\u{0}\nscalar B")
    #expect(codes(outside) == ["SDL003 1:9"])
    #expect(outside.document.definitions.count == 2)
    let inside = parse("scalar A @d(a: \"x\u{0}y\") # comment \u{0}")
    #expect(inside.diagnostics.isEmpty)
    #expect(
      inside.document.definitions.first.flatMap { $0.directives.first?.arguments.first?.value.stringValue } == "x\u{0}y"
    )
    let many = parse(String(repeating: "\u{0} ", count: 10_000))
    #expect(many.diagnostics.count == 201)
    #expect(many.diagnostics.last?.code == SDLDiagnosticCode.tooManyErrors)
    // A run of them without white space between is one diagnostic covering the run.
    let run = parse(String(repeating: "\u{0}", count: 10_000))
    #expect(codes(run) == ["SDL003 1:1"])
    #expect(run.diagnostics.first?.range.end.offset == 10_000)
  }

  @Test func unterminatedStringsAtTheEndOfTheFile() {
    #expect(codes(parse("\"")) == ["SDL004 1:1", "SDL033 1:1"])
    #expect(codes(parse("\"\"\"")) == ["SDL005 1:1", "SDL033 1:1"])
    #expect(codes(parse("scalar A @d(a: \"\"\"never closed\n\n")) == ["SDL005 1:16", "SDL026 3:1"])
    #expect(codes(parse("scalar A @d(a: \"\\")) == ["SDL004 1:16", "SDL006 1:17", "SDL026 1:18"])
  }

  @Test func emptyAndIgnoredOnlyInputs() {
    #expect(parse("").diagnostics.isEmpty)
    #expect(parse(",,,  \t\r\n\n# nothing\r").diagnostics.isEmpty)
    #expect(SDLParser.parse(bytes: [0xEF, 0xBB, 0xBF], fileName: "bom.graphql").diagnostics.isEmpty)
    #expect(SDLParser.parse(bytes: [], fileName: "empty.graphql").document.definitions.isEmpty)
  }

  @Test func fiftyMegabyteSchemaParses() {
    // 40 MB of comments and 10 MB of block-string descriptions around small types.
    var text = ""
    let commentLine = "# " + String(repeating: "padding ", count: 12) + "\n"  // 99 bytes
    let description = "\"\"\"\n" + String(repeating: "  Described at length.\n", count: 4_000) + "\"\"\"\n"
    let types = 100
    text.reserveCapacity(52_000_000)
    for index in 0..<types {
      for _ in 0..<4_200 { text += commentLine }
      text += description
      text += "type T\(index) @model {\n  id: ID!\n  name: String\n}\n"
    }
    #expect(text.utf8.count > 50_000_000)
    let result = parse(text)
    #expect(result.diagnostics.isEmpty)
    #expect(result.document.objectTypes.count == types)
    #expect(
      result.document.objectTypes.last.map { $0.range.end.line + 1 }
        == result.source.location(atOffset: text.utf8.count).line)
  }

  @Test func fiftyMegabytesOfJunkEndInCappedDiagnostics() {
    var bytes = [UInt8](repeating: 0, count: 50_000_000)
    var state: UInt32 = 12_345
    for index in bytes.indices {
      state = state &* 1_103_515_245 &+ 12_345
      bytes[index] = UInt8(truncatingIfNeeded: state >> 16)
    }
    let result = SDLParser.parse(bytes: bytes, fileName: "junk.bin")
    #expect(result.diagnostics.count == 201)
    #expect(result.diagnostics.last?.code == SDLDiagnosticCode.tooManyErrors)
  }
}

/// Found by `Fuzz/ParserFuzz` (issue 18): an invalid escape at the end of the input reported a
/// range one byte past the end; after a multi-byte character, a range ending inside it.
@Suite struct InvalidEscapeRangeTests {
  @Test(arguments: [
    (Array("scalar S @d(a: \"\\".utf8), 16, 17),
    (Array("scalar S @d(a: \"\\é\")".utf8), 16, 17),
    (Array("scalar S @d(a: \"\\".utf8) + [0xFF], 16, 17),
    (Array("scalar S @d(a: \"\\q\")".utf8), 16, 18),
  ])
  func anInvalidEscapeRangeStaysInsideTheInput(bytes: [UInt8], start: Int, end: Int) {
    let result = SDLParser.parse(bytes: bytes, fileName: "e.graphql")
    let escape = result.diagnostics.first { $0.code == SDLDiagnosticCode.invalidEscapeSequence }
    #expect(escape?.range.start.offset == start)
    #expect(escape?.range.end.offset == end)
    #expect(escape?.range.end.column == end + 1)
    for diagnostic in result.diagnostics { #expect(diagnostic.range.end.offset <= bytes.count) }
  }
}
