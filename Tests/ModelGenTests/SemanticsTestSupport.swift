import Foundation
import GraphQLSDL
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// A schema text with position markers (`1️⃣`, `2️⃣`, ...) removed, and where each marker was
/// (1-based line and column in Unicode scalars, as GraphQLSDL counts).
struct MarkedSchema {
  let text: String
  let markers: [String: SchemaLocation]

  static let markerNames = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

  init(_ marked: String) {
    var text = ""
    var markers: [String: SchemaLocation] = [:]
    var line = 1
    var column = 1
    var rest = Substring(marked)
    outer: while let character = rest.first {
      for name in Self.markerNames where rest.hasPrefix(name) {
        markers[name] = SchemaLocation(line: line, column: column)
        rest = rest.dropFirst(name.count)
        continue outer
      }
      text.append(character)
      if character == "\n" {
        line += 1
        column = 1
      } else {
        column += character.unicodeScalars.count
      }
      rest = rest.dropFirst()
    }
    self.text = text
    self.markers = markers
  }

  /// The location of `marker`; fails the test when the marker is not in the text.
  func location(_ marker: String) -> SchemaLocation {
    guard let location = markers[marker] else {
      Issue.record("marker \(marker) not in schema")
      return SchemaLocation(line: 0, column: 0)
    }
    return location
  }
}

/// Analyses marked schema text.
func analyzeMarked(_ marked: String, fileName: String = "test.graphql") -> (SemanticAnalysis, MarkedSchema) {
  let schema = MarkedSchema(marked)
  return (SemanticAnalyzer.analyze(source: schema.text, fileName: fileName), schema)
}

/// Analyses schema text that must be free of errors; returns its graph.
func analyzeClean(
  _ source: String, fileName: String = "test.graphql", sourceLocation: Testing.SourceLocation = #_sourceLocation
)
  -> ModelGraph?
{
  let result = SemanticAnalyzer.analyze(source: source, fileName: fileName)
  #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))", sourceLocation: sourceLocation)
  #expect(result.graph != nil, sourceLocation: sourceLocation)
  return result.graph
}

/// Expects exactly the given (code, marker) diagnostics, in source order.
func expectDiagnostics(
  _ marked: String, _ expected: [(DiagnosticCode, String)], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let (result, schema) = analyzeMarked(marked)
  let actual = result.diagnostics.map { "\($0.code.rawValue)@\($0.line):\($0.column)" }
  let wanted = expected.map { code, marker in
    let location = schema.location(marker)
    return "\(code.rawValue)@\(location.line):\(location.column)"
  }
  #expect(
    actual == wanted, "\(result.diagnostics.map(\.description).joined(separator: "\n"))",
    sourceLocation: sourceLocation)
  #expect(result.graph == nil, sourceLocation: sourceLocation)
  for diagnostic in result.diagnostics {
    #expect(diagnostic.fileName == "test.graphql", sourceLocation: sourceLocation)
  }
}

/// The shared schema directory (`/work/shared/schemas`), found from this file's path or the
/// `MODELGEN_SHARED_SCHEMAS` environment variable.
func sharedSchema(_ relativePath: String) throws -> String {
  let candidates = [
    ProcessInfo.processInfo.environment["MODELGEN_SHARED_SCHEMAS"],
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Schemas").path,
    "/work/shared/schemas",
  ].compactMap { $0 }
  for directory in candidates {
    let url = URL(fileURLWithPath: directory).appendingPathComponent(relativePath)
    if let text = try? String(contentsOf: url, encoding: .utf8) { return text }
  }
  throw CocoaError(.fileNoSuchFile)
}

extension ModelGraph {
  /// The model named `name`; records an issue when missing.
  func requireModel(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ModelDefinition
  {
    try #require(model(named: name), sourceLocation: sourceLocation)
  }
}

extension ModelDefinition {
  /// Field names in order.
  var fieldNames: [String] { fields.map(\.name) }

  /// The association of field `name`.
  func association(_ name: String) -> Association? { field(named: name)?.association }

  func hasMany(_ name: String) -> HasManyAssociation? {
    if case .hasMany(let association)? = association(name) { return association }
    return nil
  }

  func hasOne(_ name: String) -> HasOneAssociation? {
    if case .hasOne(let association)? = association(name) { return association }
    return nil
  }

  func belongsTo(_ name: String) -> BelongsToAssociation? {
    if case .belongsTo(let association)? = association(name) { return association }
    return nil
  }

  /// Names of the stored fields.
  var storedFieldNames: [String] { storedFields.map(\.name) }
}
