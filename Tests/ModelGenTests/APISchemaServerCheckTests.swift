import ChildProcessSupport
import Foundation
import ModelGen
import Testing

/// The emitted API schemas are standalone GraphQL documents that graphql-core accepts and that the
/// local GraphQL server (`Tests/GraphQLServer/server.py --check`) can serve: every `@modelgen*`
/// directive names existing models and fields. Runs the Python server, bootstrapping its venv
/// (`Tests/GraphQLServer/venv.sh`) when missing.
@Suite struct APISchemaServerCheckTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  struct CommandFailure: Error, CustomStringConvertible {
    let command: [String]
    let status: Int32
    let output: String
    var description: String { "\(command.joined(separator: " ")) exited \(status): \(output)" }
  }

  /// Runs `arguments` (first: the executable path) and returns standard output; throws on a non-zero exit.
  static func run(_ arguments: [String]) throws -> String {
    let run = try ChildProcess.run(
      executable: URL(fileURLWithPath: arguments[0]), arguments: Array(arguments.dropFirst()),
      currentDirectory: repository)
    guard run.status == 0 else {
      throw CommandFailure(command: arguments, status: run.status, output: run.output + run.errors)
    }
    return run.output
  }

  /// ``run(_:)`` (and the first use of ``python``) on a thread of its own: waiting for a child
  /// process never holds one of the cooperative pool's threads, which the other suites' async
  /// work and deadlines need.
  static func runOffPool(_ arguments: [String]) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(with: Result { try run([python.get()] + arguments) })
      }.start()
    }
  }

  /// The venv's python (created on first use).
  static let python: Result<String, any Error> = Result {
    try run(["/bin/bash", repository.appendingPathComponent("Tests/GraphQLServer/venv.sh").path])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Every schema under `Schemas/` (examples and regressions) and the emitter's feature tour.
  static let schemaFiles: [String] = {
    let schemas = repository.appendingPathComponent("Schemas")
    let found =
      FileManager.default.enumerator(atPath: schemas.path)?.compactMap { $0 as? String } ?? []
    return found.filter { $0.hasSuffix(".graphql") }.sorted().map {
      schemas.appendingPathComponent($0).path
    }
      + [
        repository.appendingPathComponent("Tests/GraphQLServer/fixtures/feature-tour.graphql").path
      ]
  }()

  @Test(arguments: schemaFiles)
  func emittedSchemaLoadsInTheServer(_ path: String) async throws {
    let fileName = URL(fileURLWithPath: path).lastPathComponent
    let analysis = SemanticAnalyzer.analyze(
      source: try String(contentsOfFile: path, encoding: .utf8), fileName: fileName)
    let graph = try #require(analysis.graph, "\(analysis.diagnostics)")
    if graph.models.isEmpty, !graph.customRootTypes.contains(where: { $0.operation == .query && !$0.fields.isEmpty }) {
      // No models and no `Query` field of the user's, no API (a GraphQL schema needs a `Query`
      // field): the pipeline emits none.
      let generator = Generator(
        options: GeneratorOptions(emit: [.apiSchema], templates: try TemplateLibrary.defaults()))
      #expect(try generator.render(graph).isEmpty)
      return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "apischema-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schema = directory.appendingPathComponent("schema.api.graphql")
    try APISchemaEmitter.render(graph, sourceFileName: fileName).write(
      to: schema, atomically: true, encoding: .utf8)
    // The manifest beside it: the server reads models, operations and relations from it and
    // checks that each names a type and field of the schema.
    try APILocalManifest.render(graph, sourceFileName: fileName).write(
      to: directory.appendingPathComponent(APILocalManifest.fileName), atomically: true, encoding: .utf8)

    let output = try await Self.runOffPool([
      "Tests/GraphQLServer/server.py", "--schema", schema.path, "--check",
    ])
    #expect(output == "OK \(schema.path)\n")
  }

  /// Issue 20: a `@hasMany` child with neither `list`, mutations, subscriptions nor an `@index`
  /// has the filter input the relational transformer builds for the connection field; it named
  /// `ModelLevelInput`/`ModelLevelListInput`, which nothing defined, so graphql-core refused the
  /// schema. They are defined once, before the filter input, and the server builds the schema.
  @Test func aHasManyChildWithoutOperationsDefinesItsEnumFilterInputs() async throws {
    let source = """
      enum Level { LOW HIGH }
      type Post @model { id: ID! comments: [Comment] @hasMany }
      type Comment @model(queries: null, mutations: null, subscriptions: null) {
        id: ID!
        level: Level
        tags: [Level]
      }
      """
    let analysis = SemanticAnalyzer.analyze(source: source, fileName: "t.graphql")
    let graph = try #require(analysis.graph, "\(analysis.diagnostics)")
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    let enumInput = try #require(text.range(of: "input ModelLevelInput {\n  eq: Level\n  ne: Level\n}"))
    let listInput = try #require(text.range(of: "input ModelLevelListInput {"))
    let filter = try #require(text.range(of: "input ModelCommentFilterInput {"))
    #expect(enumInput.lowerBound < listInput.lowerBound && listInput.lowerBound < filter.lowerBound)
    #expect(text.components(separatedBy: "input ModelLevelInput {").count == 2)
    #expect(text.contains("  level: ModelLevelInput\n  tags: ModelLevelListInput\n"))

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "apischema-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schema = directory.appendingPathComponent("schema.api.graphql")
    try text.write(to: schema, atomically: true, encoding: .utf8)
    try APILocalManifest.render(graph, sourceFileName: "t.graphql").write(
      to: directory.appendingPathComponent(APILocalManifest.fileName), atomically: true, encoding: .utf8)
    let output = try await Self.runOffPool([
      "Tests/GraphQLServer/server.py", "--schema", schema.path, "--check",
    ])
    #expect(output == "OK \(schema.path)\n")
  }

  /// A description whose value ends in a backslash was printed `"""… \"""`: the closing quotes
  /// read as the escaped triple quote `\"""`, the block string ran to the end of the file and
  /// graphql-core refused the schema. Both printers (the emitter's, for models, fields and enums,
  /// and the SDL printer, for interfaces and root field arguments) close such a value on a line
  /// of its own, and graphql-core reads the value back unchanged.
  @Test func aDescriptionEndingInABackslashStaysParseable() async throws {
    let source = #"""
      "ends with backslash \\"
      enum Level { "value \\" LOW HIGH }
      """
      block ends with backslash \
      """
      interface Node { id: ID! }
      """
      model \
      """
      type Post implements Node @model {
        id: ID!
        """
        field \
        """
        level: Level
      }
      type Query { find("arg \\" text: String): Post }
      """#
    let analysis = SemanticAnalyzer.analyze(source: source, fileName: "t.graphql")
    let graph = try #require(analysis.graph, "\(analysis.diagnostics)")
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    // Quoted as written (graphql-js `print`), the backslash escaped; block strings close on a
    // line of their own.
    #expect(text.contains("\"ends with backslash \\\\\"\nenum Level {\n"))
    #expect(text.contains("  \"value \\\\\"\n  LOW\n"))
    #expect(text.contains("\"\"\"block ends with backslash \\\n\"\"\"\ninterface Node {"))
    #expect(text.contains("\"\"\"\nmodel \\\n\"\"\"\ntype Post implements Node {"))
    #expect(text.contains("  \"\"\"\n  field \\\n  \"\"\"\n  level: Level\n"))
    #expect(!text.contains("\\\"\"\""))

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "apischema-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schema = directory.appendingPathComponent("schema.api.graphql")
    try text.write(to: schema, atomically: true, encoding: .utf8)
    try APILocalManifest.render(graph, sourceFileName: "t.graphql").write(
      to: directory.appendingPathComponent(APILocalManifest.fileName), atomically: true, encoding: .utf8)
    let output = try await Self.runOffPool([
      "Tests/GraphQLServer/server.py", "--schema", schema.path, "--check",
    ])
    #expect(output == "OK \(schema.path)\n")
    // graphql-core reads every description back as written.
    let values = try await Self.runOffPool([
      "-c",
      "import graphql,sys; d=graphql.parse(open(sys.argv[1]).read()); "
        + "print(sorted(set(n.description.value for n in [*d.definitions, "
        + "*(x for t in d.definitions for x in (getattr(t,'fields',None) or ()) + (getattr(t,'values',None) or ())), "
        + "*(a for t in d.definitions for f in (getattr(t,'fields',None) or ()) for a in (getattr(f,'arguments',None) or ()))] "
        + "if getattr(n,'description',None))))",
      schema.path,
    ])
    #expect(
      values
        == #"['arg \\', 'block ends with backslash \\', 'ends with backslash \\', 'field \\', 'model \\', 'value \\']"#
        + "\n")
  }

  @Test func theCheckRejectsAnInvalidSchema() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "apischema-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schema = directory.appendingPathComponent("schema.api.graphql")
    var text = APISchemaEmitter.render(
      APISchemaGraphs.seed, sourceFileName: "seed-post-comment.graphql")
    // A type the schema uses but no longer defines (the server declares only AppSync's built-ins).
    text = text.replacingOccurrences(of: "enum ModelSortDirection {", with: "enum SortDirectionRenamed {")
    try text.write(to: schema, atomically: true, encoding: .utf8)

    await #expect(throws: CommandFailure.self) {
      try await Self.runOffPool(["Tests/GraphQLServer/server.py", "--schema", schema.path, "--check"])
    }
  }
}
