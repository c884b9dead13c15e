import GraphQLSDL
import Testing

/// The shortcuts taken for speed (fuzzing, issue 18) give the same diagnostics as the general
/// code: the invalid-UTF-8 messages come from a table, printable-ASCII text is quoted without
/// decoding it, and a file with only lexical or only syntax diagnostics keeps its list as parsed.
@Suite struct DiagnosticFastPathTests {
  private func summary(_ result: ParseResult) -> [String] {
    result.diagnostics.map { "\($0.code) \($0.line):\($0.column)" }
  }

  @Test(arguments: [(UInt8(0x80), "0x80"), (0xC0, "0xC0"), (0xF8, "0xF8"), (0xFF, "0xFF")])
  func invalidUTF8MessageNamesTheByte(byte: UInt8, hex: String) {
    let result = SDLParser.parse(bytes: Array("scalar S ".utf8) + [byte], fileName: "bytes.graphql")
    #expect(result.diagnostics.map(\.message) == ["invalid UTF-8 byte \(hex)"])
    #expect(summary(result) == ["SDL002 1:10"])
  }

  @Test func printableASCIIIsQuotedAsItIs() {
    #expect(DiagnosticText.shortened("Post") == "Post")
    #expect(DiagnosticText.shortened("") == "")
    #expect(DiagnosticText.shortened("a b~") == "a b~")
    let eighty = String(repeating: "x", count: 80)
    #expect(DiagnosticText.shortened(eighty) == eighty)
    #expect(DiagnosticText.shortened(eighty + "y") == String(repeating: "x", count: 79) + "…")
    #expect(DiagnosticText.shortened("abcdef", limit: 4) == "abc…")
    #expect(DiagnosticText.shortened("abcd", limit: 4) == "abcd")
  }

  @Test func controlAndNonASCIITextIsStillEscapedOrDecoded() {
    #expect(DiagnosticText.shortened("a\tb") == "a\\tb")
    #expect(DiagnosticText.shortened("a\nb") == "a\\nb")
    #expect(DiagnosticText.shortened("a\u{7F}") == "a\\u{7F}")
    #expect(DiagnosticText.shortened("a\u{1F}") == "a\\u{1F}")
    #expect(DiagnosticText.shortened("é\u{202E}") == "é\\u{202E}")
    #expect(DiagnosticText.shortened(String(repeating: "é", count: 81)) == String(repeating: "é", count: 79) + "…")
  }

  @Test func onlyLexicalDiagnosticsKeepTheirOrder() {
    let result = SDLParser.parse("% %\n %", fileName: "junk.graphql")
    #expect(summary(result) == ["SDL001 1:1", "SDL001 1:3", "SDL001 2:2"])
    #expect(result.budget.spent == 3)
  }

  @Test func onlySyntaxDiagnosticsKeepTheirOrder() {
    let result = SDLParser.parse("type A { a }\ntype B { b }", fileName: "fields.graphql")
    #expect(result.diagnostics.allSatisfy { $0.code == SDLDiagnosticCode.expectedToken })
    #expect(result.diagnostics.map(\.line) == [1, 2])
  }

  @Test func syntaxDiagnosticsBeyondTheBudgetEndInOneTooManyErrors() {
    let text = String(repeating: "type A { a }\n", count: 250)
    let result = SDLParser.parse(text, fileName: "many.graphql")
    #expect(result.diagnostics.count == DiagnosticBudget.defaultLimit + 1)
    #expect(result.diagnostics.dropLast().allSatisfy { $0.code == SDLDiagnosticCode.expectedToken })
    #expect(result.diagnostics.dropLast().map(\.line) == Array(1...DiagnosticBudget.defaultLimit))
    #expect(result.diagnostics.last?.code == SDLDiagnosticCode.tooManyErrors)
    #expect(result.budget.isExhausted)
  }

  @Test func lexicalDiagnosticsBeyondTheBudgetEndInOneTooManyErrors() {
    let result = SDLParser.parse(String(repeating: "%\t", count: 300), fileName: "junk.graphql")
    #expect(result.diagnostics.count == DiagnosticBudget.defaultLimit + 1)
    #expect(result.diagnostics.dropLast().map(\.column) == (1...DiagnosticBudget.defaultLimit).map { 2 * $0 - 1 })
    #expect(result.diagnostics.last?.code == SDLDiagnosticCode.tooManyErrors)
  }
}
