import Foundation
import GraphQLSDL
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR

/// Issue 20: a user type that takes a name the API schema generates (`input
/// ModelOrderPrimaryCompositeKeyInput`) replaced the generated one silently. Every type name the
/// emitter prints is claimed (`NameCollisionRule`, from `APINames`, the emitter's name source), so
/// such a type is MG032 at the user's type, with a hint naming what generates it.
@Suite struct GeneratedNameClaimTests {
  /// The type names a rendered API schema defines (`type X`, `input X`, `enum X`, … at the start
  /// of a line), root types left out.
  static func definedTypeNames(_ text: String) -> [String] {
    let kinds = ["type ", "input ", "enum ", "interface ", "union ", "scalar "]
    return text.split(separator: "\n").compactMap { line -> String? in
      guard let kind = kinds.first(where: { line.hasPrefix($0) }) else { return nil }
      let name = line.dropFirst(kind.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      return ["Query", "Mutation", "Subscription"].contains(String(name)) ? nil : String(name)
    }
  }

  /// For every schema of `Schemas/` (regressions and sync included): each type name the emitter
  /// prints that the schema does not declare, declared once more by the user as an `input`, is
  /// MG032 at that input.
  @Test(arguments: GoldenFileTests.cases)
  func everyTypeNameTheEmitterPrintsIsClaimed(_ golden: GoldenCase) throws {
    let url = GoldenFileTests.root.appendingPathComponent(golden.schema)
    let source = try String(contentsOf: url, encoding: .utf8)
    let analysis = SemanticAnalyzer.analyze(
      source: source, fileName: "s.graphql", conflictResolution: golden.conflictResolution)
    let graph = try #require(analysis.graph, "\(analysis.diagnostics)")
    let text = APISchemaEmitter.render(graph, sourceFileName: "s.graphql")
    let parsed = SDLParser.parse(source, fileName: "s.graphql")
    let declared = Set(
      parsed.document.definitions.compactMap { definition -> String? in
        switch definition {
        case .objectType(let node): node.name.value
        case .inputObjectType(let node): node.name.value
        case .enumType(let node): node.name.value
        case .scalarType(let node): node.name.value
        case .interfaceType(let node): node.name.value
        case .unionType(let node): node.name.value
        default: nil
        }
      })
    let generated = Self.definedTypeNames(text).filter { !declared.contains($0) }
    #expect(generated.count >= 10, "\(generated)")
    let line = source.split(separator: "\n", omittingEmptySubsequences: false).count + 1
    let joinModels = Set(
      graph.models.filter { if case .manyToManyJoin = $0.origin { true } else { false } }.map(\.name))
    for name in generated {
      if joinModels.contains(name) {
        // A type named like a join model is refused at the `@manyToMany` that needs the name.
        let result = SemanticAnalyzer.analyze(
          source: source + "\ninput \(name) { x: Int }\n", fileName: "s.graphql",
          conflictResolution: golden.conflictResolution)
        #expect(result.diagnostics.contains { $0.code == ModelGenDiagnosticCode.invalidManyToMany }, "\(name)")
        continue
      }
      let result = SemanticAnalyzer.analyze(
        source: source + "\ninput \(name) { x: Int }\n", fileName: "s.graphql",
        conflictResolution: golden.conflictResolution)
      let clash = result.diagnostics.first { $0.code == ModelGenDiagnosticCode.typeNameCollision }
      #expect(
        clash.map { SchemaLocation($0.range.start) } == SchemaLocation(line: line, column: 7),
        "\(golden.schema): input \(name): \(result.diagnostics.map(\.description))")
    }
  }

  @Test func aUserInputTakingACompositeKeyInputIsMG032AtTheInput() throws {
    let (result, schema) = analyzeMarked(
      """
      input 1️⃣ModelOrderPrimaryCompositeKeyInput { day: String }
      type 2️⃣Order @model {
        customer: ID! @primaryKey(sortKeyFields: ["day", "seq"])
          @index(name: "byTotal", sortKeyFields: ["day", "total"])
        day: String!
        seq: Int!
        total: Int!
      }
      input 3️⃣ModelOrderByTotalCompositeKeyConditionInput { eq: String }
      input 4️⃣ModelBooleanKeyConditionInput { eq: Boolean }
      """)
    let clashes = result.diagnostics.filter { $0.code == ModelGenDiagnosticCode.typeNameCollision }
    #expect(clashes.map { SchemaLocation($0.range.start) } == ["1️⃣", "3️⃣", "4️⃣"].map(schema.location))
    let first = try #require(clashes.first)
    #expect(first.notes.map { SchemaLocation($0.range.start) } == [schema.location("2️⃣")])
    #expect(
      first.hint
        == "rename `ModelOrderPrimaryCompositeKeyInput`; the Amplify transformer generates `ModelOrderPrimaryCompositeKeyInput` for `Order` and would replace yours"
    )
    #expect(clashes[1].hint?.contains("generates `ModelOrderByTotalCompositeKeyConditionInput` for `Order`") == true)
    #expect(clashes[2].hint?.contains("adds `ModelBooleanKeyConditionInput` to every API schema") == true)
  }

  @Test func aUserTypeAfterTheModelIsReportedAtTheUsersTypeToo() {
    expectDiagnostics(
      """
      type Order @model { id: ID! status: Status }
      enum Status { OPEN }
      input 1️⃣ModelStatusInput { eq: Status }
      type 2️⃣ModelOrderConnection { n: Int }
      input 3️⃣ModelSortDirection { x: Int }
      """,
      [
        (ModelGenDiagnosticCode.typeNameCollision, "1️⃣"), (ModelGenDiagnosticCode.typeNameCollision, "2️⃣"),
        (ModelGenDiagnosticCode.typeNameCollision, "3️⃣"),
      ])
  }
}
