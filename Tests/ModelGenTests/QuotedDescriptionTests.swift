import Foundation
import Testing

@testable import ModelGenAPISchema
@testable import ModelGenIR

/// Issue 20 (breaker pass F7): every description of `schema.api.graphql` was printed as a block
/// string; the transformer prints with graphql-js `print`, which keeps a quoted description quoted
/// (`StringValue`: `block ? printBlockString : JSON`), so a byte-for-byte comparison with a
/// transformer build failed. Each description is printed as it was written.
@Suite struct QuotedDescriptionTests {
  static let source = #"""
    "A level"
    enum Level { "the low one" LOW """the high one""" HIGH }
    "A post"
    type Post @model { id: ID! "the \"title\"" title: String """block kept""" level: Level meta: Meta }
    "Meta data"
    type Meta { "with arguments" size(unit: String, "the scale" scale: Int): Int }
    """#

  @Test func aQuotedDescriptionStaysQuoted() async throws {
    let analysis = SemanticAnalyzer.analyze(source: Self.source, fileName: "t.graphql")
    let graph = try #require(analysis.graph, "\(analysis.diagnostics)")
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(
      text.contains("\n\"A level\"\nenum Level {\n  \"the low one\"\n  LOW\n  \"\"\"the high one\"\"\"\n  HIGH\n}\n"))
    #expect(
      text.contains(
        "\n\"A post\"\ntype Post {\n  id: ID!\n  \"the \\\"title\\\"\"\n  title: String\n  \"\"\"block kept\"\"\"\n  level: Level\n"
      ))
    #expect(
      text.contains(
        "\n\"Meta data\"\ntype Meta {\n  \"with arguments\"\n  size(\n    unit: String\n    \"the scale\"\n    scale: Int\n  ): Int\n}\n"
      ))
    #expect(!text.contains("\"\"\"A post\"\"\"") && !text.contains("\"\"\"Meta data\"\"\""))

    // graphql-core reads every description back, with its block-ness as written.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quoted-description-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schema = directory.appendingPathComponent("schema.api.graphql")
    try text.write(to: schema, atomically: true, encoding: .utf8)
    let values = try await APISchemaServerCheckTests.runOffPool([
      "-c",
      "import graphql,sys; d=graphql.parse(open(sys.argv[1]).read()); "
        + "print(sorted(set((n.description.value, bool(n.description.block)) for n in [*d.definitions, "
        + "*(x for t in d.definitions for x in (getattr(t,'fields',None) or ()) + (getattr(t,'values',None) or ())), "
        + "*(a for t in d.definitions for f in (getattr(t,'fields',None) or ()) for a in (getattr(f,'arguments',None) or ()))] "
        + "if getattr(n,'description',None))))",
      schema.path,
    ])
    #expect(
      values
        == #"[('A level', False), ('A post', False), ('Meta data', False), ('block kept', True), ('the "title"', False), ('the high one', True), ('the low one', False), ('the scale', False), ('with arguments', False)]"#
        + "\n")
  }
}
