import GraphQLSDL
import Testing

/// The printed forms of diagnostics.
@Suite struct DiagnosticPrinterTests {
  @Test func headlineIsTheClickableCompilerForm() {
    let result = SDLParser.parse("type A {\n  title String\n}", fileName: "Schemas/blog.graphql")
    #expect(result.diagnostics.count == 1)
    #expect(
      result.diagnostics[0].description
        == "Schemas/blog.graphql:2:9: error: expected `:` after field name `title`, found `String` [SDL023]")
    #expect(DiagnosticPrinter.headlines(result.diagnostics) == result.diagnostics[0].description + "\n")
  }

  @Test func renderedFormHasSnippetCaretHintFixItAndNotes() {
    let result = SDLParser.parse("type A {\n\tlist: [Int\n}\ntpye B", fileName: "s.graphql")
    #expect(
      result.renderedDiagnostics == """
        s.graphql:3:1: error: expected `]` to end the list type, found `}` [SDL026]
         3 | }
           | ^
          hint: add `]` to end the list type, as in `[Post]`; the note shows where it opens
          fix-it: insert `]`: replace 2:12-2:12 with "]"
        s.graphql:2:8: note: to match this `[`
         2 | \tlist: [Int
           | \t      ^
        s.graphql:4:1: error: expected a definition (`type`, `interface`, `enum`, `input`, `union`, `scalar`, `schema`, `directive` or `extend`), found `tpye` [SDL020]
         4 | tpye B
           | ^~~~
          hint: did you mean `type`?
          fix-it: replace with `type`: replace 4:1-4:5 with "type"

        """)
  }

  @Test func caretCountsUnicodeScalars() {
    let result = SDLParser.parse("scalar S @d(a: \"日本😀\", b: %)", fileName: "u.graphql")
    #expect(result.diagnostics.first.map { "\($0.line):\($0.column)" } == "1:26")
    #expect(
      DiagnosticPrinter.render(result.diagnostics[0], source: result.source).split(separator: "\n")[2]
        == "   |                          ^")
  }

  @Test func diagnosticValuesAreComparableData() {
    let range = SourceRange(
      start: GraphQLSDL.SourceLocation(offset: 4, line: 1, column: 5),
      end: GraphQLSDL.SourceLocation(offset: 7, line: 1, column: 8))
    let diagnostic = Diagnostic(
      severity: .warning, code: "MG001", message: "custom", fileName: "x.graphql", range: range,
      notes: [DiagnosticNote(message: "here", range: range)], hint: "try this")
    #expect(diagnostic.description == "x.graphql:1:5: warning: custom [MG001]")
    #expect(
      DiagnosticPrinter.render(diagnostic, source: nil)
        == "x.graphql:1:5: warning: custom [MG001]\n  hint: try this\nx.graphql:1:5: note: here\n")
    #expect(DiagnosticSeverity.note < .warning && DiagnosticSeverity.warning < .error)
    #expect(range.byteCount == 3 && range.byteOffsets == 4..<7)
    #expect(range.extended(to: SourceRange(at: .startOfFile)).start == .startOfFile)
    #expect(range.description == "1:5-1:8")
  }
}

@Suite struct SourceFileTests {
  @Test func lineTextByNumberAndByOffsetAgree() {
    let source = SourceFile(fileName: "f", text: "first\r\nsecond\rthird\n\u{FEFF}fourth")
    #expect(source.text(ofLine: 2) == "second")
    #expect(source.text(ofLineContaining: 9) == "second")
    #expect(source.text(ofLine: 3) == source.text(ofLineContaining: 15))
    #expect(source.text(ofLine: 4) == "fourth")
    #expect(source.text(ofLineContaining: 10_000) == "fourth")
    #expect(source.text(ofLine: 5) == nil)
    #expect(source.location(atOffset: 7) == GraphQLSDL.SourceLocation(offset: 7, line: 2, column: 1))
    #expect(source.location(atOffset: 23) == GraphQLSDL.SourceLocation(offset: 23, line: 4, column: 1))
    #expect(source.location(atOffset: 25) == GraphQLSDL.SourceLocation(offset: 25, line: 4, column: 3))
  }
}

/// Issue 18, item 5: printing costs a window per diagnostic, not the line's length. (Speed is
/// measured by `swift run -c release SDLParseBenchmark --diagnostics`; this pins the output.)
@Suite struct ManyDiagnosticsOnOneLineTests {
  @Test func tenThousandDiagnosticsOnOneLineEachShowTheirWindow() {
    // `%,` repeated: each `%` is its own diagnostic (a comma ends a run of unexpected characters).
    let count = 10_000
    let line = String(repeating: "%,", count: count)
    let scalars = Array(line.unicodeScalars)
    let result = SDLParser.parse(
      "type A { f: Int }\n" + line + "\n", fileName: "w.graphql", options: ParseOptions(maximumDiagnosticCount: 20_000))
    #expect(result.diagnostics.count == count)
    let lines = result.renderedDiagnostics.split(separator: "\n", omittingEmptySubsequences: false)
    // Four lines each: the headline, the window, the caret and the hint.
    #expect(lines.count == 4 * count + 1)
    for number in [1, 2, 31, 32, 2_500, 9_940, 9_941, 10_000] {
      let index = 4 * (number - 1)
      let column = 2 * number - 1
      #expect(lines[index] == "w.graphql:2:\(column): error: unexpected character `%` [SDL001]")
      let first = max(0, min(column - 1 - 60, scalars.count - 120))
      let window = String(String.UnicodeScalarView(scalars[first..<(first + 120)]))
      let shown = (first > 0 ? "…" : "") + window + (first + 120 < scalars.count ? "…" : "")
      #expect(lines[index + 1] == " 2 | \(shown)", "column \(column)")
      #expect(
        lines[index + 2] == "   | " + (first > 0 ? " " : "") + String(repeating: " ", count: column - 1 - first) + "^",
        "column \(column)")
      #expect(lines[index + 3].hasPrefix("  hint: remove it; outside strings and comments"), "column \(column)")
    }
  }

  @Test func multiByteAndInvalidBytesKeepTheCaretOnItsScalar() {
    let bytes =
      Array("type A { f: Int }\n".utf8) + Array(repeating: Array("é%".utf8), count: 300).flatMap { $0 }
      + [0xFF, 0x25, 0x0A]
    let result = SDLParser.parse(
      bytes: bytes, fileName: "u.graphql", options: ParseOptions(maximumDiagnosticCount: 2_000))
    let text = DiagnosticPrinter.render(result.diagnostics, source: result.source)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    // Diagnostic for the `%` at column 400 (scalar index 399): window starts at 339, caret 60 in.
    guard let at = lines.firstIndex(where: { $0.hasPrefix("u.graphql:2:400: ") }) else {
      Issue.record("no diagnostic at 2:400")
      return
    }
    #expect(lines[at + 1] == " 2 | …" + String(repeating: "%é", count: 60) + "…")
    #expect(lines[at + 2] == "   |  " + String(repeating: " ", count: 60) + "^")
    // The invalid byte at the end of the line: shown as U+FFFD, the window shifted left.
    let last = lines[lines.count - 4]
    #expect(last.hasSuffix("%é%�%"), "\(last)")
  }
}
