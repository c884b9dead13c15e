import GraphQLSDL
import Testing

/// `DiagnosticText.shortened` bounds the *written* width of quoted user text: an escape counts its
/// bytes, not one scalar. The long fuzz run (issue 18) found an MG013 line of 1,263 bytes for an
/// enum `@default` of 250 × U+007F: 80 "scalars" of `\u{7F}` had been 480 bytes, quoted twice.
@Suite struct DiagnosticTextWidthTests {
  let del = "\u{7F}"

  @Test func escapesCountTheirBytes() {
    // 13 escapes of 6 = 78; a 14th would be 84 > 80.
    let escaped = String(repeating: "\\u{7F}", count: 13) + "…"
    #expect(DiagnosticText.shortened(String(repeating: del, count: 250)) == escaped)
    #expect(DiagnosticText.shortened(String(repeating: del, count: 250)).utf8.count == 81)
    // With the reasons' limit of 40: 6 escapes (36), then `…`.
    #expect(
      DiagnosticText.shortened(String(repeating: del, count: 250), limit: 40)
        == String(repeating: "\\u{7F}", count: 6) + "…")
  }

  @Test func manyControlCharactersAndShortEscapes() {
    // 40 × `\n` is width 80: it fits whole; 41 do not, and 39 stay (78) before the `…`.
    #expect(DiagnosticText.shortened(String(repeating: "\n", count: 40)) == String(repeating: "\\n", count: 40))
    #expect(
      DiagnosticText.shortened(String(repeating: "\n", count: 41)) == String(repeating: "\\n", count: 39) + "…")
    // "a\n" is width 3: 26 pairs (78) and an `a` (79), then `…`.
    #expect(
      DiagnosticText.shortened(String(repeating: "a\n", count: 50)) == String(repeating: "a\\n", count: 26) + "a…")
    // Every C0 control, escaped: the result is one printable line of at most 80 scalars.
    let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
    let shortened = DiagnosticText.shortened(controls)
    #expect(
      shortened == #"\u{0}\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\t\n\u{B}\u{C}\r\u{E}\u{F}\u{10}"# + "…")
    #expect(shortened.unicodeScalars.count <= 80)
    #expect(!shortened.contains("\n") && !shortened.contains("\r"))
  }

  @Test func anEscapeIsNeverCutInHalf() {
    #expect(DiagnosticText.shortened(del + del, limit: 8) == "\\u{7F}…")
    #expect(DiagnosticText.shortened("\u{202E}", limit: 4) == "…")
    #expect(DiagnosticText.shortened("ab\u{202E}", limit: 9) == "ab…")
    #expect(DiagnosticText.shortened("ab\u{202E}", limit: 10) == "ab\\u{202E}")
  }

  @Test func tenKilobyteNamesAndCombiningCharacters() {
    let name = String(repeating: "n", count: 10_000)
    #expect(DiagnosticText.shortened(name) == String(repeating: "n", count: 79) + "…")
    // Combining marks are scalars of width 1 (printable); 79 scalars stay.
    let combining = String(repeating: "e\u{301}", count: 50)
    let expected = String(repeating: "e\u{301}", count: 39) + "e…"
    #expect(DiagnosticText.shortened(combining).unicodeScalars.elementsEqual(expected.unicodeScalars))
    // Four-byte scalars: width 1 each, so at most 4 bytes per unit of width.
    let emoji = String(repeating: "😀", count: 100)
    #expect(DiagnosticText.shortened(emoji) == String(repeating: "😀", count: 79) + "…")
  }

  @Test func shortenedTextPassesThroughUnchanged() {
    let texts = [
      String(repeating: del, count: 250), String(repeating: "a\n", count: 50), String(repeating: "x", count: 500),
    ]
    for text in texts {
      let once = DiagnosticText.shortened(text)
      #expect(DiagnosticText.shortened(once) == once)
      #expect(DiagnosticText.shortened(once, limit: 400) == once)
    }
  }
}
