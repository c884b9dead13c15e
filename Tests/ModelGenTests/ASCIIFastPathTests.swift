import Testing

@testable import ModelGenIR

/// The ASCII fast paths of the naming functions (issue 16's speed work) give what the general,
/// scalar-by-scalar paths give: every string of up to four characters from an alphabet of the
/// characters the escapes treat specially is compared with the same string behind a non-ASCII
/// character, which takes the general path.
@Suite struct ASCIIFastPathTests {
  /// Letters, blanks, line breaks, the comment delimiters' characters, `\`, and three controls.
  static let alphabet = ["a", " ", "\t", "\n", "\r", "*", "/", "\\", "\u{0}", "\u{1F}", "\u{7F}"]

  static func strings(upTo length: Int) -> [String] {
    var all = [""]
    var last = [""]
    for _ in 0..<length {
      last = last.flatMap { prefix in alphabet.map { prefix + $0 } }
      all += last
    }
    return all
  }

  @Test func commentTextOfASCIIMatchesTheScalarPath() {
    var compared = 0
    for text in Self.strings(upTo: 4) {
      // `é` is no escape and neither `/` nor `*`, so it changes nothing around it.
      let general = SwiftNames.commentText("é" + text)
      #expect(general == "é" + SwiftNames.commentText(text), "\(Array(text.unicodeScalars))")
      compared += 1
    }
    #expect(compared == 16_105)
    #expect(SwiftNames.commentText("a*/b/*c\\d\u{7F}") == "a*\\/b/\\*c\\\\d\\u{7F}")
  }

  @Test func docCommentLinesOfASCIIMatchTheCharacterPath() {
    for text in Self.strings(upTo: 4) {
      // A first and a last line that are not blank keep the trimming of the lines between alike.
      let general = SwiftNames.docCommentLines("é\n" + text + "\nz")
      let ascii = SwiftNames.docCommentLines("e\n" + text + "\nz")
      #expect(general == ["/// é"] + ascii.dropFirst(), "\(Array(text.unicodeScalars))")
    }
    #expect(SwiftNames.docCommentLines("A\r\n\n\rB \t") == ["/// A", "///", "///", "/// B"])
  }

  @Test func distinctNamesSkipTheSuffixPassAndCollidingOnesStillGetSuffixes() {
    #expect(SwiftNames.propertyNames(["title", "Body", "self"]) == ["title", "body", "selfValue"])
    #expect(SwiftNames.propertyNames(["name", "Name"]) == ["name", "name2"])
    #expect(SwiftNames.propertyNames(["name"], taken: ["name"]) == ["name2"])
    #expect(SwiftNames.caseNames(["IN_PROGRESS", "inProgress", "OPEN"]) == ["inProgress2", "inProgress", "open"])
  }
}
