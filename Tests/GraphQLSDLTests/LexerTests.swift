import GraphQLSDL
import Testing

/// Lexical rules of GraphQL spec October 2021, §2, through the public parser.
@Suite struct LexerTests {
  @Test func commasWhiteSpaceAndCommentsAreIgnored() {
    let document = parseClean(
      """
      # leading comment
      type A {,, a: Int,\tb: String , # trailing comment
        c: [Int,],
      }# comment at the end without a newline
      """)
    guard case .objectType(let type)? = document.definitions.first else {
      Issue.record("expected an object type")
      return
    }
    #expect(type.fields.map(\.name.value) == ["a", "b", "c"])
    #expect(type.fields.map(\.type.description) == ["Int", "String", "[Int]"])
  }

  @Test func leadingByteOrderMarkIsIgnoredAndTakesNoColumn() {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("scalar A\nscalar %".utf8)
    let result = SDLParser.parse(bytes: bytes, fileName: "bom.graphql")
    guard case .scalarType(let scalar)? = result.document.definitions.first else {
      Issue.record("expected a scalar")
      return
    }
    #expect(scalar.range.start.offset == 3)
    #expect(scalar.range.start.column == 1)
    #expect(scalar.name.range.start.column == 8)
    #expect(result.diagnostics.map(\.code) == [SDLDiagnosticCode.unexpectedCharacter, SDLDiagnosticCode.expectedName])
    #expect(result.source.location(atOffset: 10) == scalar.name.range.start)
  }

  @Test func lineTerminatorsLFCRLFAndCRCountOneLineEach() {
    let result = parse("scalar A\r\nscalar B\rscalar C\nscalar D")
    #expect(result.diagnostics.isEmpty)
    #expect(result.document.definitions.map { $0.range.start.line } == [1, 2, 3, 4])
    #expect(result.document.definitions.map { $0.range.start.column } == [1, 1, 1, 1])
    #expect(result.source.location(atOffset: 10) == result.document.definitions[1].range.start)
    #expect(result.source.location(atOffset: 19) == result.document.definitions[2].range.start)
  }

  @Test func namesMayBeKeywordsAndUseUnderscoresAndDigits() {
    let document = parseClean("type _T9 { type: String input: Int enum: ID __typename2: Boolean on: Int }")
    guard case .objectType(let type)? = document.definitions.first else {
      Issue.record("expected an object type")
      return
    }
    #expect(type.name.value == "_T9")
    #expect(type.fields.map(\.name.value) == ["type", "input", "enum", "__typename2", "on"])
  }

  @Test(arguments: [
    ("0", "0"), ("-0", "-0"), ("123", "123"), ("-45", "-45"), ("9007199254740993", "9007199254740993"),
  ])
  func integerLiterals(text: String, expected: String) {
    guard case .int(let value, _)? = lexValue(text) else {
      Issue.record("expected an integer for \(text)")
      return
    }
    #expect(value == expected)
  }

  @Test(arguments: ["1.5", "-0.5e10", "1E-3", "2e+5", "0.0", "6.02e23"])
  func floatLiterals(text: String) {
    guard case .float(let value, _)? = lexValue(text) else {
      Issue.record("expected a float for \(text)")
      return
    }
    #expect(value == text)
  }

  @Test func integerValueHelpers() {
    #expect(lexValue("42")?.intValue == 42)
    #expect(lexValue("99999999999999999999")?.intValue == nil)
    #expect(lexValue("2.5")?.doubleValue == 2.5)
  }

  @Test func simpleEscapes() {
    #expect(lexValue(#""q\" b\\ s\/ \b\f\n\r\t""#)?.stringValue == "q\" b\\ s/ \u{8}\u{C}\n\r\t")
  }

  @Test func unicodeEscapes() {
    #expect(lexValue(#""\u00e9\u00E9""#)?.stringValue == "éé")
    #expect(lexValue(#""\u{1F600}\u{e9}\u{0000041}""#)?.stringValue == "😀éA")
    #expect(lexValue(#""\uD83D\uDE00""#)?.stringValue == "😀")
  }

  @Test func nonASCIICharactersInStringsAndComments() {
    let document = parseClean("# ünïcödé comment ✓\nscalar S @v(value: \"naïve 😀 日本\")")
    guard case .scalarType(let scalar)? = document.definitions.first else {
      Issue.record("expected a scalar")
      return
    }
    #expect(scalar.directives[0].arguments[0].value.stringValue == "naïve 😀 日本")
  }

  @Test func emptyStrings() {
    #expect(lexValue(#""""#)?.stringValue == "")
    guard case .string(let block)? = lexValue(#""""""""#) else {
      Issue.record("expected a block string")
      return
    }
    #expect(block.value == "" && block.isBlockString)
  }

  @Test func blockStringRemovesCommonIndentationAndBlankEdgeLines() {
    let value = lexValue("\"\"\"\n\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \n\"\"\"")
    #expect(value?.stringValue == "Hello,\n  World!\n\nYours,\n  GraphQL.")
  }

  @Test func blockStringKeepsFirstLineIndentationAndEscapedTripleQuotes() {
    #expect(lexValue("\"\"\"  first\n    second\n      third\"\"\"")?.stringValue == "  first\nsecond\n  third")
    #expect(lexValue(#""""a \""" b \n c""""#)?.stringValue == #"a """ b \n c"#)
    #expect(lexValue("\"\"\"tabs\n\t\tone\n\t\ttwo\"\"\"")?.stringValue == "tabs\none\ntwo")
  }

  @Test func blockStringNormalisesLineTerminators() {
    #expect(lexValue("\"\"\"\r\n  a\r\n  b\r  c\r\n\"\"\"")?.stringValue == "a\nb\nc")
  }

  @Test func blockStringsAdvanceLineNumbers() {
    let document = parseClean("\"\"\"\nline 2\nline 3\n\"\"\"\ntype A { a: Int }\nscalar B")
    #expect(document.definitions.map { $0.range.start.line } == [1, 6])
    #expect(document.definitions[0].range.end.line == 5)
  }

  @Test func columnsCountUnicodeScalarsAndTabsAsOne() {
    expectDiagnostics("scalar S @v(value: \"é😀\") 1️⃣%", [(SDLDiagnosticCode.unexpectedCharacter, "1️⃣")])
    expectDiagnostics(
      "\t\tscalar 1️⃣%2️⃣", [(SDLDiagnosticCode.unexpectedCharacter, "1️⃣"), (SDLDiagnosticCode.expectedName, "2️⃣")])
    let result = parse("# 日本語\n\"日本\" scalar X @x(a: 1.)")
    #expect(result.diagnostics.map { "\($0.code) \($0.line):\($0.column)" } == ["SDL010 2:23"])
  }

  @Test func spreadPunctuatorIsAToken() {
    expectDiagnostics("type A { 1️⃣... }", [(SDLDiagnosticCode.expectedName, "1️⃣")])
  }
}
