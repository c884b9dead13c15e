import GraphQLSDL
import Testing

/// Schema text with position markers `1️⃣` … `9️⃣` (keycap emoji) removed, and where each marker
/// stood: so tests state expected positions inside the text instead of counting columns.
struct MarkedSource {
  /// The text without markers.
  let text: String
  /// Marker name (`"1️⃣"`) → the 1-based line, 1-based Unicode-scalar column and byte offset of the
  /// character that followed the marker.
  let positions: [String: (line: Int, column: Int, offset: Int)]

  init(_ marked: String) {
    var text = String.UnicodeScalarView()
    var positions: [String: (line: Int, column: Int, offset: Int)] = [:]
    let scalars = Array(marked.unicodeScalars)
    var line = 1
    var column = 1
    var offset = 0
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if index + 2 < scalars.count, ("0"..."9").contains(scalar), scalars[index + 1] == "\u{FE0F}",
        scalars[index + 2] == "\u{20E3}"
      {
        positions[String(String.UnicodeScalarView([scalar, "\u{FE0F}", "\u{20E3}"]))] = (line, column, offset)
        index += 3
        continue
      }
      text.append(scalar)
      offset += String(scalar).utf8.count
      if scalar == "\n" || (scalar == "\r" && (index + 1 == scalars.count || scalars[index + 1] != "\n")) {
        line += 1
        column = 1
      } else if scalar != "\r" && scalar != "\u{FEFF}" {
        column += 1
      }
      index += 1
    }
    self.text = String(text)
    self.positions = positions
  }

  /// `line:column` of marker `name`.
  func position(_ name: String) -> String {
    guard let position = positions[name] else { return "no marker \(name)" }
    return "\(position.line):\(position.column)"
  }
}

/// Parses `text` as `test.graphql`.
func parse(_ text: String) -> ParseResult {
  SDLParser.parse(text, fileName: "test.graphql")
}

/// Parses marked text and expects exactly the diagnostics `expected` — each a code at a marker —
/// in source order. Compares codes and `line:column`, never wording.
func expectDiagnostics(
  _ marked: String, _ expected: [(code: DiagnosticCode, at: String)],
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let source = MarkedSource(marked)
  let result = parse(source.text)
  let actual = result.diagnostics.map { "\($0.code) at \($0.line):\($0.column)" }
  let wanted = expected.map { "\($0.code) at \(source.position($0.at))" }
  #expect(actual == wanted, "\(result.renderedDiagnostics)", sourceLocation: sourceLocation)
}

/// Parses text that must have no diagnostics and returns its document.
func parseClean(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Document {
  let result = parse(text)
  #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics)", sourceLocation: sourceLocation)
  return result.document
}

/// The default value of the single argument of directive `@v` on `scalar S @v(value: …)`: a way to
/// lex one value through the public API.
func lexValue(_ valueText: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ConstValue? {
  let document = parseClean("scalar S @v(value: \(valueText))", sourceLocation: sourceLocation)
  guard case .scalarType(let scalar)? = document.definitions.first else { return nil }
  return scalar.directives.first?.argument(named: "value")?.value
}
