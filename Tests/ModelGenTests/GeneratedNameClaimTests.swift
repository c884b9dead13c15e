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
      input ModelBooleanKeyConditionInput { eq: Boolean }
      """)
    // `ModelBooleanKeyConditionInput`: no key of `Order` has one Boolean sort key, so nothing
    // prints it and the user's input stays (KeyConditionInputClaimTests).
    let clashes = result.diagnostics.filter { $0.code == ModelGenDiagnosticCode.typeNameCollision }
    #expect(clashes.map { SchemaLocation($0.range.start) } == ["1️⃣", "3️⃣"].map(schema.location))
    let first = try #require(clashes.first)
    #expect(first.notes.map { SchemaLocation($0.range.start) } == [schema.location("2️⃣")])
    #expect(
      first.hint
        == "rename `ModelOrderPrimaryCompositeKeyInput`; the Amplify transformer generates `ModelOrderPrimaryCompositeKeyInput` for `Order` and would replace yours"
    )
    #expect(clashes[1].hint?.contains("generates `ModelOrderByTotalCompositeKeyConditionInput` for `Order`") == true)
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

  /// For every schema of `Schemas/`: each name ``APINames/generatedTypeNames(of:isHasManyTarget:)``
  /// claims for a model is one the emitter prints (issue 20: `Model<X>Connection` and
  /// `Model<X>FilterInput` were claimed for a model without `list`, `@index` or a `@hasMany`
  /// returning it, which prints neither), and so is each `<Type>Input` and `Model<Enum>Input`
  /// the analysis claims.
  @Test(arguments: GoldenFileTests.cases)
  func everyClaimedNameIsPrinted(_ golden: GoldenCase) throws {
    let url = GoldenFileTests.root.appendingPathComponent(golden.schema)
    let source = try String(contentsOf: url, encoding: .utf8)
    let analysis = SemanticAnalyzer.analyze(
      source: source, fileName: "s.graphql", conflictResolution: golden.conflictResolution)
    let graph = try #require(analysis.graph, "\(analysis.diagnostics)")
    let printed = Set(Self.definedTypeNames(APISchemaEmitter.render(graph, sourceFileName: "s.graphql")))
    var targets: Set<String> = []
    for model in graph.models {
      for field in model.fields {
        if case .hasMany(let association)? = field.association { targets.insert(association.relatedModel) }
      }
    }
    for model in graph.models {
      for name in APINames.generatedTypeNames(of: model, isHasManyTarget: targets.contains(model.name)) {
        #expect(printed.contains(name), "\(golden.schema): \(model.name) claims \(name)")
      }
    }
    // The non-model and enum claims: a user input under each claimed name is MG032 only when
    // the emitter prints that name.
    let line = source.split(separator: "\n", omittingEmptySubsequences: false).count + 1
    let derived =
      graph.nonModels.map { APINames.nonModelInput($0.name) }
      + graph.enums.flatMap { [APINames.enumFilterInput($0.name), APINames.enumListFilterInput($0.name)] }
    for name in derived {
      let result = SemanticAnalyzer.analyze(
        source: source + "\ninput \(name) { x: Int }\n", fileName: "s.graphql",
        conflictResolution: golden.conflictResolution)
      let clash = result.diagnostics.contains {
        $0.code == ModelGenDiagnosticCode.typeNameCollision && $0.line == line
      }
      #expect(clash == printed.contains(name), "\(golden.schema): input \(name)")
    }
  }

  /// A model with only some mutations (`mutations: { create: "addNote", update: null, delete: null }`;
  /// a key left out keeps its default name, as the transformer merges the defaults) or no
  /// subscriptions generates only their inputs (model transformer), so the user's `input UpdateNoteInput` and
  /// `input ModelSubscriptionNoteFilterInput` are the user's own and stay in the API schema; the
  /// enabled mutation's input is still MG032.
  @Test func inputsOfDisabledOperationsAreTheUsers() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Note @model(mutations: { create: "addNote", update: null, delete: null }, subscriptions: null) {
          id: ID!
          text: String
        }
        type Memo @model(mutations: null) { id: ID! text: String }
        input UpdateNoteInput { id: ID! text: String }
        input DeleteNoteInput { id: ID! }
        input ModelSubscriptionNoteFilterInput { text: String }
        input ModelMemoConditionInput { text: String }
        input CreateMemoInput { text: String }
        type Mutation { changeNote(input: UpdateNoteInput!): Note }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "s.graphql")
    let names = Self.definedTypeNames(text)
    for name in [
      "UpdateNoteInput", "DeleteNoteInput", "ModelSubscriptionNoteFilterInput", "ModelMemoConditionInput",
      "CreateMemoInput", "CreateNoteInput", "ModelNoteConditionInput",
    ] {
      #expect(names.filter { $0 == name }.count == 1, "\(name)")
    }
    #expect(text.contains("input UpdateNoteInput {\n  id: ID!\n  text: String\n}"))
    #expect(text.contains("addNote(input: CreateNoteInput!, condition: ModelNoteConditionInput): Note"))
    #expect(text.contains("changeNote(input: UpdateNoteInput!): Note"))
    #expect(!text.contains("updateNote") && !text.contains("onCreateNote"))
    expectDiagnostics(
      """
      type Note @model(mutations: { create: "addNote" }) { id: ID! text: String }
      input 1️⃣CreateNoteInput { text: String }
      input 2️⃣ModelSubscriptionNoteFilterInput { text: String }
      input 3️⃣ModelNoteConditionInput { text: String }
      """,
      [
        (ModelGenDiagnosticCode.typeNameCollision, "1️⃣"), (ModelGenDiagnosticCode.typeNameCollision, "2️⃣"),
        (ModelGenDiagnosticCode.typeNameCollision, "3️⃣"),
      ])
  }
}
