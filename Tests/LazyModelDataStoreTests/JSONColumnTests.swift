import Foundation
import Testing

@testable import LazyModelDataStore

/// A list-of-strings column is written byte for byte as `JSONEncoder` wrote it and read back as
/// `JSONDecoder` reads it, without either (`JSONColumn`); other types and shapes are left to them.
@Suite("JSON columns of string lists")
struct JSONColumnTests {
  /// Every control character, the escaped ones, `/`, non-ASCII and astral text.
  private static let strings: [String] =
    (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
    + ["", "a", "\"", "\\", "/", "a/b\\c\"d", "é", "漢字", "🎉", "\u{7F}", "\u{2028}", "mixed \t\n é/🎉 \u{1}"]

  @Test("text: JSONEncoder's bytes for [String] and [String?]")
  func textMatchesJSONEncoder() throws {
    let plain = Self.strings
    #expect(JSONColumn.text(ofStrings: plain) == String(decoding: try JSONEncoder().encode(plain), as: UTF8.self))
    let optional: [String?] = Self.strings.flatMap { [$0, nil] }
    #expect(JSONColumn.text(ofStrings: optional) == String(decoding: try JSONEncoder().encode(optional), as: UTF8.self))
    #expect(JSONColumn.text(ofStrings: [String]()) == "[]")
    #expect(JSONColumn.text(ofStrings: [String?]()) == "[]")
    // Other types are JSONEncoder's.
    #expect(JSONColumn.text(ofStrings: [1, 2]) == nil)
    #expect(JSONColumn.text(ofStrings: ["a": "b"]) == nil)
    #expect(JSONColumn.text(ofStrings: "a") == nil)
  }

  @Test("strings: JSONDecoder's value for its own text and for other writers' text")
  func readsAsJSONDecoder() throws {
    let optional: [String?] = Self.strings.flatMap { [$0, nil] }
    let texts = [
      String(decoding: try JSONEncoder().encode(optional), as: UTF8.self),
      String(
        decoding: try JSONSerialization.data(withJSONObject: optional.map { $0 ?? NSNull() as Any }), as: UTF8.self),
      #" [ "a" , null , "\u00e9\ud83c\udf89" ] "#,
    ]
    for text in texts {
      let expected = try JSONDecoder().decode([String?].self, from: Data(text.utf8))
      #expect(JSONColumn.strings([String?].self, text) == expected, "\(text)")
    }
    let plain = String(decoding: try JSONEncoder().encode(Self.strings), as: UTF8.self)
    #expect(JSONColumn.strings([String].self, plain) == Self.strings)
  }

  @Test("strings: nil (JSONDecoder decides) for another type or shape")
  func leavesOthersToJSONDecoder() {
    #expect(JSONColumn.strings([String].self, #"["a",null]"#) == nil)  // null in a [String]
    #expect(JSONColumn.strings([String?].self, #"["a",1]"#) == nil)
    #expect(JSONColumn.strings([String?].self, #"{"a":"b"}"#) == nil)
    #expect(JSONColumn.strings([String?].self, "not json") == nil)
    #expect(JSONColumn.strings([Int].self, "[1]") == nil)
    #expect(JSONColumn.strings(String.self, #""a""#) == nil)
  }
}
