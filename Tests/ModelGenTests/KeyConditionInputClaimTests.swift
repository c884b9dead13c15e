import Foundation
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR

/// Issue 20 (breaker pass F8): `Model<Scalar>KeyConditionInput` was claimed for every schema (MG032)
/// although the API schema prints one only for a key with exactly one sort key field compared as
/// that scalar (`addKeyConditionInputs` of the primary key and index transformers). It is a shared
/// claim made only when printed: two models with an `Int` sort key share it.
@Suite struct KeyConditionInputClaimTests {
  static let keyConditionNames = [
    "ModelIDKeyConditionInput", "ModelStringKeyConditionInput",
    "ModelIntKeyConditionInput", "ModelFloatKeyConditionInput", "ModelBooleanKeyConditionInput",
  ]

  @Test func aUsersKeyConditionInputNothingPrintsIsTheUsers() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Post @model { x: Int }
        input ModelIntKeyConditionInput { y: Int }
        type Query { q(i: ModelIntKeyConditionInput): Int }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(
      APISchemaEmitterTests.block("input ModelIntKeyConditionInput {", in: text)
        == "input ModelIntKeyConditionInput {\n  y: Int\n}")
    #expect(text.components(separatedBy: "input ModelIntKeyConditionInput {").count == 2)
  }

  @Test func aPrintedKeyConditionInputIsClaimedAndSharedByTheModels() throws {
    let (result, schema) = analyzeMarked(
      """
      type Reading @model { sensor: ID! @primaryKey(sortKeyFields: ["seq"]) seq: Int! }
      type Event @model { id: ID! day: String @index(sortKeyFields: ["count"]) count: Int }
      input 1️⃣ModelIntKeyConditionInput { y: Int }
      input ModelFloatKeyConditionInput { y: Float }
      """)
    #expect(result.diagnostics.map(\.code) == [ModelGenDiagnosticCode.typeNameCollision])
    let clash = try #require(result.diagnostics.first)
    #expect(SchemaLocation(clash.range.start) == schema.location("1️⃣"))
    #expect(
      clash.message
        == "type `ModelIntKeyConditionInput` collides with `ModelIntKeyConditionInput`, which the API schema defines for a key with one sort key field compared as `Int`; the API schema would define `ModelIntKeyConditionInput` twice"
    )
    #expect(
      clash.hint
        == "rename `ModelIntKeyConditionInput`; the Amplify primary key and index transformers add `ModelIntKeyConditionInput` for a key with one sort key field compared as `Int`"
    )
    // Without the user's input: both models' keys share the one printed input.
    let graph = try #require(
      analyzeClean(
        """
        type Reading @model { sensor: ID! @primaryKey(sortKeyFields: ["seq"]) seq: Int! }
        type Event @model { id: ID! day: String @index(sortKeyFields: ["count"]) count: Int }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(text.components(separatedBy: "input ModelIntKeyConditionInput {").count == 2)
    #expect(!text.contains("ModelFloatKeyConditionInput"))
  }

  /// For every schema of `Schemas/`: a user input named like a scalar key condition input is MG032
  /// exactly when the emitter prints that input.
  @Test(arguments: GoldenFileTests.cases)
  func keyConditionInputsAreClaimedOnlyWhenPrinted(_ golden: GoldenCase) throws {
    let url = GoldenFileTests.root.appendingPathComponent(golden.schema)
    let source = try String(contentsOf: url, encoding: .utf8)
    let analysis = SemanticAnalyzer.analyze(
      source: source, fileName: "s.graphql", conflictResolution: golden.conflictResolution)
    let graph = try #require(analysis.graph, "\(analysis.diagnostics)")
    let printed = Set(
      GeneratedNameClaimTests.definedTypeNames(APISchemaEmitter.render(graph, sourceFileName: "s.graphql")))
    let line = source.split(separator: "\n", omittingEmptySubsequences: false).count + 1
    for name in Self.keyConditionNames {
      let result = SemanticAnalyzer.analyze(
        source: source + "\ninput \(name) { x: Int }\n", fileName: "s.graphql",
        conflictResolution: golden.conflictResolution)
      let clash = result.diagnostics.contains {
        $0.code == ModelGenDiagnosticCode.typeNameCollision && $0.line == line
      }
      #expect(clash == printed.contains(name), "\(golden.schema): input \(name)")
    }
  }
}
