import Foundation
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// The rendering stage on its own: a hand-built model graph (no parser, no analyzer) rendered with
/// the default templates.
@Suite("Rendering: view models and templates")
struct RenderingTests {
  func render(_ graph: ModelGraph, access: AccessLevel = .public) throws -> [String: String] {
    let generator = Generator(
      options: GeneratorOptions(access: access, templates: try TemplateLibrary.defaults()))
    return Dictionary(
      uniqueKeysWithValues: try generator.render(graph).map { ($0.path, $0.contents) })
  }

  @Test func theHandBuiltSeedGraphRendersExactlyTheCheckedInSeedModels() throws {
    let files = try render(RenderingFixtures.seed)
    let directory = GoldenFileTests.root.appendingPathComponent("Generated/seed-post-comment")
    for name in [
      "Post4V2.swift", "Post4V2+Schema.swift", "Comment4V2.swift", "Comment4V2+Schema.swift",
    ] {
      let expected = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      let actual = try #require(files[name])
      #expect(
        actual == expected, "\(name):\n\(LineDiff.render(expected: expected, actual: actual))")
    }
  }

  @Test func filesArePerModelPerEnumPerNonModelPlusTheRegistry() throws {
    #expect(
      try render(RenderingFixtures.seed).keys.sorted() == [
        "Break.swift", "Comment4V2+Schema.swift", "Comment4V2.swift", "Models.swift",
        "Post4V2+Schema.swift",
        "Post4V2.swift", "Visibility.swift",
      ])
  }

  @Test func viewModelsCarryTheDecisions() throws {
    let views = ViewModelBuilder(graph: RenderingFixtures.seed).build()
    let comment = try #require(views.models.first { $0.typeName == "Comment4V2" })
    #expect(
      comment.storedProperties.map(\.declaration).contains(
        "internal var _post: LazyReference<Post4V2>"))
    #expect(comment.lazyAccessors.first?.loadMethod == "get")
    #expect(
      comment.initParameters.last
        == ParameterViewModel(declaration: "post: Post4V2? = nil", separator: ""))
    #expect(
      views.enums.first?.cases.map(\.name) == [
        "`public`", "`private`", "`default`", "lowPriority", "type",
      ])
    #expect(views.embedded.first?.codingKeys == ["case minutes", "case selfValue = \"self\""])
    #expect(views.registry?.models == ["Comment4V2.self,", "Post4V2.self,"])
  }

  @Test func internalAccessDropsPublicEverywhere() throws {
    for (name, text) in try render(RenderingFixtures.seed, access: .internal) {
      #expect(!text.contains("public "), "\(name)")
    }
  }
}
