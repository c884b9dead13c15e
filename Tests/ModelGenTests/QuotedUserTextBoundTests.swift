import Foundation
import GraphQLSDL
import ModelGen
import Testing

@testable import ModelGenIR

/// Every message that quotes user text quotes it through `DiagnosticText.shortened`, once: the
/// long fuzz run (issue 18) found an MG013 line of 1,263 bytes for an enum field's
/// `@default(value:)` of 250 × U+007F, whose reason quoted the raw value and the message then
/// quoted the reason again with a limit of 400 scalars (escapes counted as one).
@Suite struct QuotedUserTextBoundTests {
  /// The fuzz target's property (`Fuzz/AnalysisFuzz/Require.swift`): under 1,000 UTF-8 bytes, no
  /// CR or LF.
  static func isOneBoundedLine(_ message: String) -> Bool {
    message.utf8.count < 1_000 && !message.utf8.contains(0x0A) && !message.utf8.contains(0x0D)
  }

  static func schema(status value: String) -> String {
    "enum Status { DRAFT LIVE }\ntype Post @model {\n  id: ID!\n  status: Status @default(value: \"\(value)\")\n}\n"
  }

  @Test func anEnumDefaultOfEscapedCharactersIsQuotedOnceAndBounded() {
    let result = SemanticAnalyzer.analyze(
      source: Self.schema(status: String(repeating: "\u{7F}", count: 250)), fileName: "s.graphql")
    let value = String(repeating: "\\u{7F}", count: 13) + "…"
    let inReason = String(repeating: "\\u{7F}", count: 6) + "…"
    #expect(
      result.diagnostics.map(\.message) == [
        "@default value \"\(value)\" of `status` is not a valid `Status`: `Status` has no value `\(inReason)`"
      ])
    #expect(result.diagnostics.allSatisfy { Self.isOneBoundedLine($0.message) })
  }

  @Test func aTenKilobyteEnumDefaultAndItsSuggestionAreBounded() {
    let result = SemanticAnalyzer.analyze(
      source: Self.schema(status: "DRAFT" + String(repeating: "x", count: 10_000)), fileName: "s.graphql")
    let value = "DRAFT" + String(repeating: "x", count: 74) + "…"
    let inReason = "DRAFT" + String(repeating: "x", count: 34) + "…"
    #expect(
      result.diagnostics.map(\.message) == [
        "@default value \"\(value)\" of `status` is not a valid `Status`: `Status` has no value `\(inReason)`"
      ])
  }

  /// The type-system rule's enum mismatch (argument defaults) quotes through the same function.
  @Test func anArgumentDefaultOfEscapedCharactersIsBounded() {
    let controls = String(repeating: "\u{7F}\u{1}\n", count: 400)
    let result = SemanticAnalyzer.analyze(
      source: """
        enum Status { DRAFT LIVE }
        type Post @model { id: ID! }
        type Query { posts(status: Status = "\(controls.replacingOccurrences(of: "\n", with: "\\n"))"): [Post] }
        """,
      fileName: "s.graphql")
    #expect(!result.diagnostics.isEmpty)
    #expect(result.diagnostics.allSatisfy { Self.isOneBoundedLine($0.message) }, "\(result.diagnostics)")
  }

  /// Every input saved under `Fuzz/Regressions/` (seeds of the fuzz runs too) keeps the property.
  @Test func theFuzzRegressionInputsPrintBoundedLines() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let directory = root.appendingPathComponent("Fuzz/Regressions")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(files.contains("enum-default-of-250-del.graphql"))
    for file in files {
      let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
      let (_, diagnostics) = Generator.analyze(bytes: bytes, fileName: file)
      #expect(!diagnostics.isEmpty, "\(file)")
      #expect(diagnostics.allSatisfy { Self.isOneBoundedLine($0.message) }, "\(file): \(diagnostics)")
    }
  }
}
