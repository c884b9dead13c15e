import GraphQLSDL
import Testing

/// A directive's name is user text like any other: every message that names a directive quotes it
/// through `DiagnosticText.shortened` (80 wide, an ellipsis included), never whole. (The arguments'
/// messages of a directive usage and of a directive definition quoted it whole: a 5,000-byte
/// name made 5 KB messages.)
@Suite struct LongDirectiveNameTests {
  static let name = "d" + String(repeating: "x", count: 5_000)

  @Test(arguments: [
    "type T { f: Int @\(name)() }",  // empty arguments (SDL: emptyList)
    "type T { f: Int @\(name)(1) }",  // an argument name expected
    "type T { f: Int @\(name)(a: 1 }",  // unclosed arguments
    "directive @\(name)() on FIELD_DEFINITION",  // empty argument definitions
    "directive @\(name)(a: Int on FIELD_DEFINITION",  // unclosed argument definitions
  ])
  func messagesQuoteTheNameShortened(_ schema: String) {
    let result = SDLParser.parse(schema, fileName: "long.graphql")
    let named = result.diagnostics.filter { $0.message.contains("@dxxx") }
    #expect(!named.isEmpty, "\(result.diagnostics.map(\.message))")
    for diagnostic in named {
      #expect(diagnostic.message.utf8.count < 300, "\(diagnostic.code): \(diagnostic.message.utf8.count) bytes")
      #expect(diagnostic.message.contains("@d" + String(repeating: "x", count: 78) + "…"))
    }
  }
}
