import Foundation
import GraphQLSDL
import Testing

@testable import ModelGenAPISchema
@testable import ModelGenIR

/// Issue 20: `--emit api-schema` dropped interfaces, unions, `implements` clauses and the
/// arguments of fields outside the root types. They are printed as the transformer's
/// `TransformerOutput` carries them, and what GraphQL requires of them is checked: MG069
/// (IsValidImplementation), MG070 (union members), MG071 (an operation named twice), MG001/MG021
/// for interface fields, MG032 for names the API schema prints.
@Suite struct InterfacesAndUnionsTests {
  typealias Code = ModelGenDiagnosticCode

  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func fixture() throws -> (ModelGraph, String) {
    let name = "interfaces-and-unions-dropped.graphql"
    let source = try String(
      contentsOf: repository.appendingPathComponent("Schemas/regressions/\(name)"), encoding: .utf8)
    let analysis = SemanticAnalyzer.analyze(source: source, fileName: name)
    let graph = try #require(analysis.graph, "\(analysis.diagnostics.map(\.description))")
    #expect(analysis.diagnostics.isEmpty, "\(analysis.diagnostics.map(\.description))")
    return (graph, APISchemaEmitter.render(graph, sourceFileName: name))
  }

  /// The definitions the fixture declares, printed where they are declared, exactly.
  @Test func theFixturesInterfacesUnionsAndImplementsAreEmittedExactly() throws {
    let (graph, text) = try Self.fixture()
    #expect(graph.abstractTypes.map(\.name) == ["Node", "Named", "SearchResult"])
    #expect(graph.abstractTypes.map(\.members) == [[], ["Node"], ["Post", "Note", "Tag"]])
    #expect(graph.model(named: "Post")?.interfaces == ["Node", "Named"])
    #expect(graph.nonModel(named: "Note")?.interfaces == ["Node"])
    #expect(graph.customRootTypes.first?.interfaces == ["Node"])
    for expected in Self.expectedDefinitions {
      #expect(text.contains("\n\n" + expected + "\n\n"), "missing:\n\(expected)\n--- in ---\n\(text)")
    }
    // Document order: the interfaces, the model, the non-model types, the union, then the
    // generated definitions.
    let order = [
      "interface Node", "interface Named", "type Post", "type Note", "type Tag", "union SearchResult",
      "input ModelStringInput",
    ]
    let positions = try order.map { try #require(text.range(of: "\n" + $0)?.lowerBound, "\($0)") }
    #expect(positions == positions.sorted())
    // Not printed: the non-AppSync directive, inputs for types no model reaches.
    #expect(!text.contains("@function") && !text.contains("input NoteInput") && !text.contains("input TagInput"))
    // The create input has the field, without its arguments.
    #expect(text.contains("input CreatePostInput {\n  name: String\n  body: String\n  id: ID\n}"))
  }

  static let expectedDefinitions = [
    "\"Anything with an identifier.\"\ninterface Node {\n  id: ID!\n}",
    "interface Named implements Node {\n  id: ID!\n  \"The display name.\"\n  name(locale: String = \"en\"): String @aws_api_key\n}",
    """
    type Post implements Node & Named {
      name(locale: String = "en"): String @aws_api_key
      body(
        "Characters to keep; all when absent."
        maxLength: Int @deprecated(reason: "use excerpt")
      ): String
      id: ID!
      createdAt: AWSDateTime!
      updatedAt: AWSDateTime!
    }
    """,
    "\"A note returned by search.\"\ntype Note implements Node {\n  id: ID!\n  text(maxLength: Int = 140): String\n}",
    "union SearchResult = Post | Note | Tag",
  ]

  /// `extend interface` adds fields (and directives) as the transformer's `addInterfaceExtension`
  /// folds them in, but no interface: it keeps the interfaces of the definition. `extend type`
  /// adds interfaces (`addObjectExtension`), `extend union` members. Non-AppSync directives are
  /// stripped from interface fields and their arguments.
  @Test func extensionsAreFoldedInAsTheTransformerFoldsThem() throws {
    let graph = try #require(
      analyzeClean(
        """
        directive @internal on FIELD_DEFINITION | ARGUMENT_DEFINITION
        interface Node { id: ID! }
        interface Named { name: String }
        extend interface Named implements Node { label(short: Boolean @internal): String @internal @deprecated }
        type Note { id: ID! name: String label(short: Boolean): String }
        extend type Note implements Named
        union Found = Note
        type Query { found: Found named: Named }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(text.contains("\n\ninterface Named {\n  name: String\n  label(short: Boolean): String @deprecated\n}\n\n"))
    #expect(text.contains("\n\ntype Note implements Named {\n"))
    #expect(text.contains("\n\nunion Found = Note\n\n"))
    #expect(graph.abstractTypes.first { $0.name == "Named" }?.members == [])
  }

  // MARK: - MG069

  static let interfaces = """
    interface Node { id: ID! }
    interface Named { name(locale: String): String }
    type Tag { label: String }

    """

  @Test func anImplementationMissingAFieldOrOfAnotherTypeIsMG069() {
    expectDiagnostics(Self.interfaces + "type A implements 1️⃣Node { x: Int }", [(Code.invalidImplementation, "1️⃣")])
    expectDiagnostics(Self.interfaces + "type B implements Node { 1️⃣id: String }", [(Code.invalidImplementation, "1️⃣")])
    // A nullable field does not implement a non-null one; a list does not implement a name.
    expectDiagnostics(Self.interfaces + "type B implements Node { 1️⃣id: ID }", [(Code.invalidImplementation, "1️⃣")])
    expectDiagnostics(Self.interfaces + "type B implements Node { 1️⃣id: [ID!]! }", [(Code.invalidImplementation, "1️⃣")])
    let (result, _) = analyzeMarked(Self.interfaces + "type B implements Node { id: String }")
    #expect(
      result.diagnostics.map(\.message) == [
        "`B` does not implement `Node`: `B.id` is `String` in the API schema, which is not `ID!` or a subtype of it"
      ])
    #expect(result.diagnostics.first?.hint?.contains("IsValidImplementation") == true)
  }

  @Test func anImplementationsArgumentsMustMatchTheInterfacesMG069() {
    expectDiagnostics(
      Self.interfaces + "type C implements Named { 1️⃣name: String }", [(Code.invalidImplementation, "1️⃣")])
    expectDiagnostics(
      Self.interfaces + "type D implements Named { 1️⃣name(locale: String, style: Int!): String }",
      [(Code.invalidImplementation, "1️⃣")])
    expectDiagnostics(
      Self.interfaces + "type E implements Named { 1️⃣name(locale: Int): String }", [(Code.invalidImplementation, "1️⃣")])
    // An extra optional argument, a default on a required one, and a non-null result are fine.
    #expect(
      analyzeClean(
        Self.interfaces
          + "type F implements Named { name(locale: String, style: Int, size: Int! = 3): String! }\ntype Query { f: F }"
      )
        != nil)
  }

  @Test func implementsNamingWhatIsNotAnInterfaceIsMG069OrMG001() {
    expectDiagnostics(Self.interfaces + "type F implements 1️⃣Tag { id: ID! }", [(Code.invalidImplementation, "1️⃣")])
    expectDiagnostics(
      Self.interfaces + "type G implements Node & 1️⃣Node { id: ID! }", [(Code.invalidImplementation, "1️⃣")])
    expectDiagnostics(Self.interfaces + "type I implements 1️⃣Nod { id: ID! }", [(Code.unknownType, "1️⃣")])
    // §3.7: an interface's own interfaces must be named too; an interface cannot implement itself.
    expectDiagnostics(
      Self.interfaces + "interface N2 implements Node { id: ID! n: Int }\ntype H implements 1️⃣N2 { id: ID! n: Int }",
      [(Code.invalidImplementation, "1️⃣")])
    expectDiagnostics(
      Self.interfaces + "interface Loop implements 1️⃣Loop { id: ID! }", [(Code.invalidImplementation, "1️⃣")])
    // `extend type` adds interfaces too.
    expectDiagnostics(
      Self.interfaces + "type J { x: Int }\nextend type J implements 1️⃣Node", [(Code.invalidImplementation, "1️⃣")])
  }

  @Test func subtypesImplementInterfaceFields() throws {
    let graph = try #require(
      analyzeClean(
        Self.interfaces + """
          type Note implements Node { id: ID! }
          union Found = Note | Tag
          interface Holder { item: Node  all: [Node]  found: Found }
          type K implements Holder { item: Note!  all: [Note!]!  found: Tag }
          type Query { k: K }
          """))
    #expect(graph.nonModel(named: "K")?.interfaces == ["Holder"])
  }

  /// The transformer keeps a model's `implements`; it is checked against the fields the API
  /// schema gives the model: the implicit `id` and timestamps count, a `@hasMany` field is a
  /// connection.
  @Test func aModelImplementsAnInterfaceWithTheFieldsTheAPISchemaGivesIt() throws {
    let graph = try #require(
      analyzeClean(
        """
        interface Node { id: ID! }
        interface Stamped { createdAt: AWSDateTime updatedAt: AWSDateTime! }
        type Post implements Node & Stamped @model { title: String }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(
      text.contains(
        "type Post implements Node & Stamped {\n  title: String\n  id: ID!\n  createdAt: AWSDateTime!\n  updatedAt: AWSDateTime!\n}"
      ))
    expectDiagnostics(
      """
      interface Linked { posts: [Post] }
      type Post @model { id: ID! }
      type Blog implements Linked @model { id: ID! 1️⃣posts: [Post] @hasMany }
      """,
      [(Code.invalidImplementation, "1️⃣")])
    expectDiagnostics(
      """
      interface Named { name: String! }
      type Post implements 1️⃣Named @model(timestamps: null) { id: ID! }
      """,
      [(Code.invalidImplementation, "1️⃣")])
  }

  // MARK: - MG070, MG071, interface fields

  @Test func unionMembersMustBeObjectTypesOnceMG070() {
    expectDiagnostics(
      Self.interfaces + "enum Color { RED }\nunion U = Tag | 1️⃣Node | 2️⃣Tag | 3️⃣Missing | 4️⃣Color | 5️⃣ID",
      [
        (Code.invalidUnionMember, "1️⃣"), (Code.invalidUnionMember, "2️⃣"), (Code.unknownType, "3️⃣"),
        (Code.invalidUnionMember, "4️⃣"), (Code.invalidUnionMember, "5️⃣"),
      ])
    expectDiagnostics(
      Self.interfaces + "union U = Tag\nextend union U = 1️⃣Named", [(Code.invalidUnionMember, "1️⃣")])
    let (result, _) = analyzeMarked(Self.interfaces + "union U = Node")
    #expect(
      result.diagnostics.map(\.message) == [
        "the union `U` cannot have the member `Node`: it is an interface, not an object type"
      ])
  }

  @Test func anOperationNamedTwiceIsMG071() {
    expectDiagnostics(
      "schema { query: Query 1️⃣query: Query }\ntype Query { a: Int }", [(Code.repeatedRootOperation, "1️⃣")])
    expectDiagnostics(
      "schema { query: Query }\nextend schema { 1️⃣query: Query mutation: Mutation }\ntype Query { a: Int }\ntype Mutation { b: Int }",
      [(Code.repeatedRootOperation, "1️⃣")])
  }

  @Test func interfaceFieldResultsAreOutputTypes() {
    expectDiagnostics(
      "input In { b: Int }\ninterface X { a: 1️⃣In  b: 2️⃣Nope }",
      [(Code.unsupportedFieldType, "1️⃣"), (Code.unknownType, "2️⃣")])
  }

  /// Root fields may return an interface or a union (no Swift is generated for them); a model or
  /// embedded type's field may not, since its Swift type would have none to hold (MG021, hint).
  @Test func onlyRootAndInterfaceFieldsReturnAbstractTypes() throws {
    #expect(
      analyzeClean(Self.interfaces + "union U = Tag\ntype Query { node: Node  found: [U!]!  named: Named }") != nil)
    expectDiagnostics(
      Self.interfaces + "type Post @model { id: ID! node: 1️⃣Node }\ntype Box { u: 2️⃣U }\nunion U = Tag",
      [(Code.unsupportedFieldType, "1️⃣"), (Code.unsupportedFieldType, "2️⃣")])
    let (result, _) = analyzeMarked(Self.interfaces + "type Post @model { id: ID! node: Node }")
    #expect(result.diagnostics.first?.hint?.contains("no Swift type for an interface") == true)
  }

  // MARK: - Names the API schema prints

  /// Each type reports one collision (``NameCollisionRule``), so the interface and the union
  /// are checked apart.
  @Test func interfaceAndUnionNamesCollideWithGeneratedNamesMG032() {
    expectDiagnostics(
      """
      interface 1️⃣ModelPostConnection { n: Int }
      type Post @model { id: ID! }
      """,
      [(Code.typeNameCollision, "1️⃣")])
    expectDiagnostics(
      """
      type Tag { t: String }
      type Post @model { id: ID! }
      union 1️⃣ModelPostFilterInput = Tag
      """,
      [(Code.typeNameCollision, "1️⃣")])
  }

  /// A generated name is claimed only when the API schema prints it: without `list`, `@index` or
  /// a `@hasMany` returning the model there is no `Model<X>Connection` or `Model<X>FilterInput`;
  /// a non-model type no model reaches has no `<Type>Input`; an enum no printed filter names has
  /// no `Model<Enum>Input`. The user's types of those names are kept.
  @Test func generatedNamesAreClaimedOnlyWhenPrinted() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Draft @model(queries: null) { id: ID! text: String }
        type ModelDraftConnection { count: Int }
        input ModelDraftFilterInput { text: String }
        type Label { text: String level: Level }
        enum Level { LOW HIGH }
        input LabelInput { text: String }
        input ModelLevelInput { eq: Level }
        type Query { drafts(filter: ModelDraftFilterInput, label: LabelInput, level: ModelLevelInput): ModelDraftConnection }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    for definition in [
      "type ModelDraftConnection {\n  count: Int\n}", "input ModelDraftFilterInput {\n  text: String\n}",
      "input LabelInput {\n  text: String\n}", "input ModelLevelInput {\n  eq: Level\n}",
    ] {
      #expect(text.components(separatedBy: definition).count == 2, "\(definition)")
    }
    // Once something prints them, they are claimed again.
    expectDiagnostics(
      """
      type Draft @model(queries: null) { id: ID! text: String! @index(name: "byText", queryField: "draftsByText") }
      type 1️⃣ModelDraftConnection { count: Int }
      """,
      [(Code.typeNameCollision, "1️⃣")])
    expectDiagnostics(
      """
      type Draft @model(queries: null) { id: ID! text: String }
      type Book @model { id: ID! drafts: [Draft] @hasMany }
      input 1️⃣ModelDraftFilterInput { text: String }
      """,
      [(Code.typeNameCollision, "1️⃣")])
    expectDiagnostics(
      """
      type Note @model { id: ID! label: Label level: Level }
      type Label { text: String }
      enum Level { LOW }
      input 1️⃣LabelInput { text: String }
      input 2️⃣ModelLevelInput { eq: Level }
      """,
      [(Code.typeNameCollision, "1️⃣"), (Code.typeNameCollision, "2️⃣")])
  }
}
