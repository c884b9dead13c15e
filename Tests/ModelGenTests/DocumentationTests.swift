import Foundation
import Testing

/// Issue 19: documentation that must follow the code. The README tour's code blocks are the
/// regions of `Examples/Tour/main.swift`; the diagnostics catalogue (DocC) lists every code the
/// sources define; every library product has a DocC catalog whose landing page curates it.
@Suite("Documentation follows the code")
struct DocumentationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The regions `// tour: NAME` … `// tour: end` of the tour program, each without its common
  /// indentation and its trailing blank lines.
  static func tourRegions() throws -> [String: String] {
    var regions: [String: String] = [:]
    var current: (name: String, lines: [Substring])?
    for line in try text("Examples/Tour/main.swift").split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.drop { $0 == " " }
      if trimmed.hasPrefix("// tour: ") {
        let name = String(trimmed.dropFirst("// tour: ".count))
        if name == "end", let open = current {
          let indent = open.lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
          var lines = open.lines.map { String($0.dropFirst(min(indent, $0.count))) }
          while lines.last?.isEmpty == true { lines.removeLast() }  // swift-format's line after imports
          regions[open.name] = lines.joined(separator: "\n")
          current = nil
        } else {
          current = (name, [])
        }
      } else if current != nil {
        current!.lines.append(line)
      }
    }
    return regions
  }

  /// The README's code blocks marked `<!-- tour: NAME NAME… -->`: marker names and block text.
  static func readmeTourBlocks() throws -> [(names: [String], code: String)] {
    let lines = try text("README.md").split(separator: "\n", omittingEmptySubsequences: false)
    var blocks: [(names: [String], code: String)] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      if line.hasPrefix("<!-- tour: "), line.hasSuffix(" -->") {
        let names = line.dropFirst("<!-- tour: ".count).dropLast(" -->".count).split(separator: " ").map(String.init)
        var body: [Substring] = []
        index += 2  // the marker, then the ```swift fence
        while index < lines.count, lines[index] != "```" {
          body.append(lines[index])
          index += 1
        }
        blocks.append((names, body.joined(separator: "\n")))
      }
      index += 1
    }
    return blocks
  }

  @Test func readmeTourIsTheTourProgram() throws {
    let regions = try Self.tourRegions()
    #expect(Set(regions.keys) == ["imports", "datastore", "api"])
    let blocks = try Self.readmeTourBlocks()
    #expect(blocks.map(\.names) == [["imports", "datastore"], ["api"]])
    for block in blocks {
      let expected = block.names.map { regions[$0] ?? "<no region \($0)>" }.joined(separator: "\n\n")
      #expect(block.code == expected, "README block \(block.names) differs from Examples/Tour/main.swift")
    }
  }

  /// Every `public static let name: DiagnosticCode = "CODE"` of the three code catalogs has its row.
  @Test func diagnosticsCatalogueListsEveryCode() throws {
    let article = try Self.text("Sources/ModelGen/ModelGen.docc/DiagnosticsCatalogue.md")
    let pattern = #/public static let (\w+): DiagnosticCode = "(\w+)"/#
    var count = 0
    for (path, namespace) in [
      ("Sources/GraphQLSDL/SDLDiagnosticCode.swift", "SDLDiagnosticCode"),
      ("Sources/ModelGenIR/Diagnostics/SemanticError.swift", "ModelGenDiagnosticCode"),
      ("Sources/ModelGenIR/Diagnostics/ConfigDiagnosticCode.swift", "ConfigDiagnosticCode"),
    ] {
      for match in try Self.text(path).matches(of: pattern) {
        count += 1
        #expect(
          article.contains("| \(match.output.2) | `\(namespace).\(match.output.1)` |"),
          "DiagnosticsCatalogue.md lacks \(match.output.2) (\(namespace).\(match.output.1)): run python3 .ci/diagnostics-catalogue.py"
        )
      }
    }
    #expect(count == 129)
  }

  @Test(arguments: ["GraphQLSDL", "ModelGen", "LazyModel", "LazyModelDataStore", "LazyModelAPI"])
  func everyLibraryProductHasACatalog(module: String) throws {
    let landing = try Self.text("Sources/\(module)/\(module).docc/\(module).md")
    #expect(landing.hasPrefix("# ``\(module)``\n"))
    #expect(landing.contains("\n## Topics\n"))
    #expect(landing.contains("Getting started") || landing.contains("<doc:GettingStarted>"))
  }
}
