import Testing

@testable import ModelGen
@testable import ModelGenIR
@testable import ModelGenSwift

/// The Swift member names are resolved once, by the analysis, and carried to the Swift stage in
/// `ModelGraph.memberNames` (issue 16); a stage handed a type that changed since resolves it again.
@Suite("Naming: member names resolved once")
struct ResolvedMemberNamesTests {
  static let schema = """
    type Post @model {
      id: ID!
      title: String!
      setAuthor: String
      author: Author @belongsTo
      label: Label
    }
    type Author @model {
      id: ID!
      name: String!
      posts: [Post] @hasMany
    }
    type Label {
      text: String!
      self: String
    }
    """

  /// The graph of ``schema`` (its only diagnostics are the MGW002 warnings of `setAuthor2` and
  /// `Label.selfValue`).
  static func graph() throws -> ModelGraph {
    let result = SemanticAnalyzer.analyze(source: schema, fileName: "test.graphql")
    #expect(result.diagnostics.map(\.code.rawValue) == ["MGW002", "MGW002"])
    return try #require(result.graph)
  }

  static func render(_ graph: ModelGraph) throws -> [String: String] {
    let generator = Generator(options: GeneratorOptions(templates: try TemplateLibrary.defaults()))
    return Dictionary(uniqueKeysWithValues: try generator.render(graph).map { ($0.path, $0.contents) })
  }

  @Test func theGraphCarriesEveryModelsAndEmbeddedTypesNames() throws {
    let graph = try Self.graph()
    #expect(graph.memberNames.keys.sorted() == ["Author", "Label", "Post"])
    let post = try #require(graph.model(named: "Post"))
    let names = try #require(graph.memberNames["Post"])
    #expect(names.resolves(post))
    // The same names as resolved from the model alone, and the (here empty) typed index keys the
    // analysis adds once the type names are known.
    var resolved = ResolvedMemberNames(model: post)
    resolved.indexKeys = SwiftIndexKeyNames(indexes: SwiftIndexKeyNames.typedIndexes(of: post), typeNames: [])
    #expect(names == resolved)
    // The setter of `author` cannot be `setAuthor`, a field's property (reported as MGW002).
    #expect(names.derived?.setterNames["author"] == "setAuthor2")
    let label = try #require(graph.nonModels.first { $0.name == "Label" })
    let labelNames = try #require(graph.memberNames["Label"])
    #expect(labelNames.resolves(label))
    #expect(labelNames.derived == nil)
    #expect(labelNames.members.propertyName("self") == "selfValue")
  }

  @Test func theCarriedNamesRenderWhatResolvingAgainRenders() throws {
    let graph = try Self.graph()
    var byHand = graph
    byHand.memberNames = [:]
    let carried = try Self.render(graph)
    #expect(carried == (try Self.render(byHand)))
    #expect(carried["Post.swift"]?.contains("func setAuthor2(") == true)
  }

  @Test func aTypeChangedAfterTheAnalysisIsRenderedFromItsOwnFields() throws {
    var graph = try Self.graph()
    let post = try #require(graph.models.firstIndex { $0.name == "Post" })
    let title = try #require(graph.models[post].fields.firstIndex { $0.name == "title" })
    graph.models[post].fields[title].name = "self"
    let label = try #require(graph.nonModels.firstIndex { $0.name == "Label" })
    graph.nonModels[label].fields[1].name = "identifier"
    #expect(graph.memberNames["Post"]?.resolves(graph.models[post]) == false)
    #expect(graph.memberNames["Label"]?.resolves(graph.nonModels[label]) == false)
    let files = try Self.render(graph)
    #expect(files["Post.swift"]?.contains("public var selfValue: String") == true)
    #expect(files["Label.swift"]?.contains("public var identifierValue: String?") == true)
  }
}
