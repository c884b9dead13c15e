import GraphQLSDL
import Testing

/// Deterministic mutations of the kitchen-sink schema: whatever the damage, the parser returns,
/// every location it reports agrees with the source text, and clean results round-trip.
@Suite struct MutationFuzzTests {
  /// A small deterministic generator (linear congruential), so failures reproduce.
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  static let fragments: [[UInt8]] =
    [
      "{", "}", "(", ")", "[", "]", "\"", "\"\"\"", "\\", "!", ":", "=", "@", "|", "&", "$x", "...", "#", "\n", "\r",
      "type ", "extend ", "0", "-", "1.", "é", "😀",
    ].map { Array($0.utf8) } + [[0x00], [0xFF], [0xC3], [0xEF, 0xBB, 0xBF]]

  @Test(arguments: 0..<8)
  func mutatedSchemasNeverBreakTheParser(seed: Int) {
    var generator = Generator(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
    let original = Array(kitchenSink.utf8)
    for _ in 0..<60 {
      var bytes = original
      for _ in 0...generator.next(4) {
        let position = generator.next(bytes.count)
        switch generator.next(3) {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(contentsOf: Self.fragments[generator.next(Self.fragments.count)], at: position)
        default: bytes.replaceSubrange(position..<min(bytes.count, position + 1 + generator.next(8)), with: [])
        }
      }
      let result = SDLParser.parse(bytes: bytes, fileName: "mutant.graphql")
      for diagnostic in result.diagnostics {
        #expect(diagnostic.range.start.offset <= bytes.count)
        #expect(diagnostic.range.start.offset <= diagnostic.range.end.offset)
        #expect(result.source.location(atOffset: diagnostic.range.start.offset) == diagnostic.range.start)
        #expect(!DiagnosticPrinter.render(diagnostic, source: result.source).isEmpty)
      }
      for definition in result.document.definitions {
        #expect(result.source.location(atOffset: definition.range.start.offset) == definition.range.start)
        #expect(result.source.location(atOffset: definition.range.end.offset) == definition.range.end)
        if let name = definition.name {
          #expect(result.source.location(atOffset: name.range.end.offset) == name.range.end)
        }
      }
      if result.diagnostics.isEmpty {
        let reparsed = SDLParser.parse(SDLPrinter.print(result.document))
        #expect(reparsed.diagnostics.isEmpty)
        #expect(reparsed.document.withSourceRangesErased() == result.document.withSourceRangesErased())
      }
    }
  }
}
