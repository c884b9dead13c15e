import Testing

@testable import ModelGen
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// The renderer owns layout: code in view models is broken for the line a template places it on,
/// so a template that indents differently still gets well-formed continuation lines.
@Suite("Rendering: the renderer lays code out where the template puts it")
struct RendererLayoutTests {
  /// The default model template with the `init(from:)` body indented 8 columns instead of 4.
  func deeplyIndentedDecodes() throws -> Generator {
    var sources = TemplateLibrary.defaultSources
    let model = try #require(sources["model"])
    sources["model"] = model.replacingOccurrences(
      of: "{{#decodeStatements}}\n    {{.}}", with: "{{#decodeStatements}}\n        {{.}}")
    #expect(sources["model"] != model)
    return Generator(options: GeneratorOptions(templates: try TemplateSet(sources: sources)))
  }

  @Test func aStatementIndentedFurtherKeepsItsContinuationLinesTwoDeeperAndWithinTheLineLength() throws {
    let files = try deeplyIndentedDecodes().render(RenderingFixtures.seed)
    let post = try #require(files.first { $0.path == "Post4V2.swift" }).contents
    #expect(
      post.contains(
        """
                let comments = try values.decodeLazyList(
                  Comment4V2.self, forKey: .comments, associatedFields: ["postID"], indexName: "byPost4",
                  parent: parentKey, decoder: decoder)

        """))
    for line in post.split(separator: "\n") {
      #expect(line.count <= SwiftLayout.lineLength, "\(line)")
    }
  }

  @Test func aLayoutValueSeesItsLineIndentationColumnAndTrailingText() throws {
    struct Probe: TemplateLayout, Equatable {
      func laidOut(on line: TemplateLine) -> String {
        "\(line.indentation)/\(line.column)/\(line.trailingWidth)"
      }
    }
    let set = try TemplateSet(sources: [
      "main": "  a {{code}} tail\n{{#list}}\n    {{> part}}\n{{/list}}\n",
      "part": "  x({{code}}) {\n",
    ])
    let output = try set.render("main", ["code": .layout(Probe()), "list": [[:]]])
    #expect(output == "  a 2/4/5 tail\n      x(6/8/3) {\n")
  }

  @Test func swiftCodeBreaksAtTheLineItIsPlacedOn() {
    let call = SwiftCode.call(
      "f(", (1...30).map { .text("argument\($0)") }, trailing: ",")
    let atTwo = call.laidOut(on: TemplateLine(indentation: 2, column: 2))
    #expect(atTwo.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix("    a") })
    let atTen = call.laidOut(on: TemplateLine(indentation: 10, column: 10))
    #expect(atTen.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix("            a") })
    #expect(atTen.hasSuffix("argument30),"))
    #expect(SwiftCode.array(["a", "b"]).laidOut(on: TemplateLine(indentation: 0, column: 0)) == "[a, b]")
  }
}
