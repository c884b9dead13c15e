import GraphQLSDL
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenTemplating

/// Issue 20: schemas that gave an undeployable or wrong `schema.api.graphql` from a run that exited
/// 0. The conflict-resolution strategy is known to the analysis (a user `sync<Plural>` is MG030, a
/// declared `_version` MG037); `@aws_subscribe(mutations:)` names fields of the merged `Mutation`
/// (MG038); a root type renamed by `schema { … }` is MG039; `@auth` on a user root field becomes the
/// auth transformer's `@aws_*` directives; a schema with root fields and no model gets its API schema.
@Suite struct CustomRootChecksTests {
  static func analyzeVersioned(
    _ marked: String, conflictResolution: ConflictResolution?
  ) -> (SemanticAnalysis, MarkedSchema) {
    let schema = MarkedSchema(marked)
    return (
      SemanticAnalyzer.analyze(source: schema.text, fileName: "test.graphql", conflictResolution: conflictResolution),
      schema
    )
  }

  @Test func withConflictResolutionAUserSyncFieldIsMG030() throws {
    let marked = """
      type Order @model { id: ID! }
      type Note @model(queries: {list: null}) { id: ID! }
      type Query { 1️⃣syncOrders(lastSync: AWSTimestamp): String syncNotes: String }
      """
    let (result, schema) = Self.analyzeVersioned(marked, conflictResolution: .automerge)
    #expect(
      result.diagnostics.map { "\($0.code.rawValue)@\(SchemaLocation($0.range.start))" }
        == ["MG030@\(schema.location("1️⃣"))"])
    let clash = try #require(result.diagnostics.first)
    #expect(clash.message.contains("`Query.syncOrders` is also the `sync` query"))
    #expect(clash.hint?.contains("@model(queries: {list: null})") == true)
    // Without a strategy there is no sync query, so the name is the user's.
    #expect(Self.analyzeVersioned(marked, conflictResolution: nil).0.diagnostics.isEmpty)
  }

  @Test func withConflictResolutionDeclaredSyncFieldsAreMG037() throws {
    let marked = """
      type Order @model {
        id: ID!
        1️⃣_version: Int!
        2️⃣_deleted: Boolean
        3️⃣_lastChangedAt: AWSTimestamp!
        _versions: Int
      }
      """
    let (result, schema) = Self.analyzeVersioned(marked, conflictResolution: .optimistic)
    #expect(
      result.diagnostics.map { "\($0.code.rawValue)@\(SchemaLocation($0.range.start))" }
        == ["1️⃣", "2️⃣", "3️⃣"].map { "MG037@\(schema.location($0))" })
    let first = try #require(result.diagnostics.first)
    #expect(first.message.contains("`Order._version`") && first.message.contains("`optimistic`"))
    #expect(first.hint?.contains("`_version: Int!`") == true)
    #expect(Self.analyzeVersioned(marked, conflictResolution: nil).0.diagnostics.isEmpty)

    // Through the generator: the option reaches the analysis, and the graph carries it.
    let generator = Generator(
      options: GeneratorOptions(
        emit: [.apiSchema], templates: try TemplateLibrary.defaults(), conflictResolution: .automerge))
    let failed = try generator.generate(source: schema.text, fileName: "t.graphql")
    #expect(failed.files.isEmpty && failed.diagnostics.map(\.code.rawValue) == ["MG037", "MG037", "MG037"])
    let ok = try generator.generate(source: "type Order @model { id: ID! }", fileName: "t.graphql")
    let api = try #require(ok.files.first { $0.path == Generator.apiSchemaFileName }?.contents)
    #expect(api.components(separatedBy: "_version: Int!").count == 2)
    #expect(api.contains("syncOrders(filter: ModelOrderFilterInput"))
  }

  @Test func awsSubscribeMustNameMutationsOfTheMergedMutationType() throws {
    let (result, schema) = analyzeMarked(
      """
      type Order @model { id: ID! }
      type Mutation { ship(id: ID!): Order }
      type Subscription {
        a: Order @aws_subscribe(mutations: 1️⃣5)
        b: Order @aws_subscribe(mutations: ["ship", "createOrder", 2️⃣"shpi"])
        c: Order @aws_subscribe(mutations: "updateOrder")
        d: Order 3️⃣@aws_subscribe
        e: Order @aws_subscribe(mutations: 4️⃣["ship", null])
        f: Order @aws_subscribe(mutations: [5️⃣"deleteOrders"])
      }
      """)
    #expect(
      result.diagnostics.map { "\($0.code.rawValue)@\(SchemaLocation($0.range.start))" }
        == ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣"].map { "MG038@\(schema.location($0))" })
    #expect(result.diagnostics[0].hint?.contains("[String!]!") == true)
    #expect(result.diagnostics[1].message.contains("names the mutation `shpi`, which `Mutation` does not define"))
    #expect(result.diagnostics[1].hint == "did you mean `ship`?")
    #expect(result.diagnostics[4].hint == "did you mean `deleteOrder`?")
  }

  @Test func aRenamedRootTypeIsMG039() throws {
    let (result, schema) = analyzeMarked(
      """
      schema { query: 1️⃣MyQuery mutation: Mutation }
      extend schema { subscription: 2️⃣Events }
      type MyQuery { echo: String }
      type Mutation { ping: String }
      type Events { pinged: String }
      type Note @model { id: ID! }
      """)
    #expect(
      result.diagnostics.map { "\($0.code.rawValue)@\(SchemaLocation($0.range.start))" }
        == ["MG039@\(schema.location("1️⃣"))", "MG039@\(schema.location("2️⃣"))"])
    #expect(result.diagnostics[0].message.contains("names `MyQuery` as its query type"))
    #expect(result.diagnostics[0].hint?.contains("name the type `Query`") == true)
    #expect(result.diagnostics[1].hint?.contains("name the type `Subscription`") == true)
    // The default names written out are fine.
    #expect(
      analyzeClean("schema { query: Query mutation: Mutation }\ntype Query { echo: String }\ntype Mutation { p: Int }")
        != nil)
  }

  @Test func authOnAUserRootFieldBecomesTheAuthTransformersDirectives() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Query {
          a: String @auth(rules: [{allow: private}, {allow: public, provider: iam}])
          b: String
          c: Int @aws_api_key @auth(rules: [{allow: public}, {allow: groups, groups: ["Admin"]}])
        }
        type Note @model { id: ID! }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    let query = try #require(text.components(separatedBy: "type Query {\n").last?.components(separatedBy: "\n}").first)
    #expect(
      query.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        == [
          "b: String", "getNote(id: ID!): Note",
          "listNotes(filter: ModelNoteFilterInput, limit: Int, nextToken: String): ModelNoteConnection",
          "a: String @aws_iam @aws_cognito_user_pools", "c: Int @aws_api_key @aws_cognito_user_pools",
        ])
    #expect(!text.contains("@auth"))
  }

  @Test func authRulesOnAUserRootFieldAreChecked() {
    expectDiagnostics(
      """
      type Query {
        a: String @auth(rules: [1️⃣{allow: groups}])
        b: String @auth(rules: [2️⃣{allow: owner, provider: apiKey}])
      }
      """,
      [(ModelGenDiagnosticCode.invalidAuthRule, "1️⃣"), (ModelGenDiagnosticCode.invalidAuthRule, "2️⃣")])
  }

  /// The auth transformer's checks of a root field's rules (`validateFieldRules`,
  /// `authNonModelConfig`): `operations:` is refused (MG065, at the key); owner and `groupsField:`
  /// rules have no record on a root field and would be dropped (MG067, at the rule). Static group
  /// and private rules beside them stay valid.
  @Test func rootFieldRulesTheTransformerRefusesAreMG065AndMG067() {
    expectDiagnostics(
      """
      type Query {
        a: String @auth(rules: [{allow: private, 1️⃣operations: [read]}])
        b: String @auth(rules: [2️⃣{allow: owner}, {allow: private}])
        c: String @auth(rules: [3️⃣{allow: groups, groupsField: "editors"}, {allow: groups, groups: ["Admin"]}])
        d: String @auth(rules: [4️⃣{allow: owner, ownerField: "author", provider: oidc}])
      }
      type Mutation { e: Int @auth(rules: [{allow: groups, groups: ["Admin"], 5️⃣operations: [create]}]) }
      type Subscription { f: Int @aws_subscribe(mutations: ["e"]) @auth(rules: [{allow: public, 6️⃣operations: [listen]}]) }
      """,
      [
        (ModelGenDiagnosticCode.operationsOnRootFieldAuthRule, "1️⃣"),
        (ModelGenDiagnosticCode.recordRuleOnRootField, "2️⃣"),
        (ModelGenDiagnosticCode.recordRuleOnRootField, "3️⃣"),
        (ModelGenDiagnosticCode.recordRuleOnRootField, "4️⃣"),
        (ModelGenDiagnosticCode.operationsOnRootFieldAuthRule, "5️⃣"),
        (ModelGenDiagnosticCode.operationsOnRootFieldAuthRule, "6️⃣"),
      ])
    let (result, _) = analyzeMarked(
      "type Query { b: String @auth(rules: [{allow: owner}]) }\ntype N @model { id: ID! }")
    let diagnostic = result.diagnostics.first
    #expect(
      diagnostic?.message
        == "an owner rule (`allow: owner`) on `Query.b` has no record to check: the auth transformer drops owner and `groupsField` rules on fields outside a model"
    )
    #expect(diagnostic?.hint?.contains("`allow: groups` with `groups: [...]`") == true)
    let (operations, _) = analyzeMarked("type Query { b: String @auth(rules: [{allow: private, operations: [read]}]) }")
    #expect(
      operations.diagnostics.map(\.message) == [
        "an @auth rule on `Query.b` cannot name `operations:`: a root field is one operation already"
      ])
  }

  /// `@auth(rules: [])` is refused wherever it is written (the transformer's `validateRules` and
  /// `validateFieldRules`: "does not have any auth rules"), at the empty list; it was emitted as
  /// if the type or field had no `@auth`.
  @Test func emptyAuthRulesAreMG066Anywhere() {
    expectDiagnostics(
      """
      type Query { a: String @auth(rules: 1️⃣[]) }
      type Post @model @auth(rules: 2️⃣[]) {
        id: ID!
        title: String @auth(rules: 3️⃣[ ])
      }
      """,
      [
        (ModelGenDiagnosticCode.emptyAuthRules, "1️⃣"), (ModelGenDiagnosticCode.emptyAuthRules, "2️⃣"),
        (ModelGenDiagnosticCode.emptyAuthRules, "3️⃣"),
      ])
    let (result, _) = analyzeMarked("type Post @model @auth(rules: []) { id: ID! }")
    #expect(result.diagnostics.map(\.message) == ["@auth on `Post` has no rules"])
    #expect(result.diagnostics.first?.hint?.contains("remove @auth") == true)
  }

  /// `operations: []` and `groups: []` in an `@auth` rule (model, model field, root field) make a
  /// rule that grants nothing; they were accepted silently. MG068 at the empty list, with a hint;
  /// on a root field it replaces MG065 (one report per mistake). `operations: [read]` and
  /// `groups: ["Admin"]` stay valid.
  @Test func emptyOperationsAndGroupsListsAreMG068() throws {
    expectDiagnostics(
      """
      type Post @model @auth(rules: [{allow: private, operations: 1️⃣[]}, {allow: groups, groups: 2️⃣[ ]}]) {
        id: ID!
        title: String @auth(rules: [{allow: owner, operations: 3️⃣[]}])
      }
      type Query { report: String @auth(rules: [{allow: groups, groups: 4️⃣[]}, {allow: private, operations: 5️⃣[]}]) }
      """,
      [
        (ModelGenDiagnosticCode.emptyAuthRuleList, "1️⃣"), (ModelGenDiagnosticCode.emptyAuthRuleList, "2️⃣"),
        (ModelGenDiagnosticCode.emptyAuthRuleList, "3️⃣"), (ModelGenDiagnosticCode.emptyAuthRuleList, "4️⃣"),
        (ModelGenDiagnosticCode.emptyAuthRuleList, "5️⃣"),
      ])
    let (result, _) = analyzeMarked(
      "type Post @model @auth(rules: [{allow: private, operations: []}, {allow: groups, groups: []}]) { id: ID! }")
    #expect(
      result.diagnostics.map(\.message) == [
        "an @auth rule on `Post` has `operations: []`, so it grants no operation",
        "an @auth rule on `Post` has `groups: []`, so it grants no caller (no group is named)",
      ])
    #expect(result.diagnostics.first?.hint?.contains("remove `operations:` to grant every operation") == true)
    #expect(result.diagnostics.last?.hint?.contains("use `groupsField:`") == true)
    let graph = try #require(
      analyzeClean(
        """
        type Post @model @auth(rules: [{allow: private, operations: [read]}, {allow: groups, groups: ["Admin"]}]) {
          id: ID!
        }
        """))
    #expect(graph.models.first?.authRules.map(\.rule.operations) == [[.read], nil])
  }

  @Test func rootFieldsWithoutModelsGetAnAPISchema() throws {
    let generator = Generator(options: GeneratorOptions(emit: [.apiSchema], templates: try TemplateLibrary.defaults()))
    let result = try generator.generate(
      source: "type Query { echo(text: String!): String }\ninput Unused { a: Int }", fileName: "t.graphql")
    let api = try #require(result.files.first { $0.path == Generator.apiSchemaFileName }?.contents)
    #expect(api.contains("type Query {\n  echo(text: String!): String\n}"))
    #expect(api.contains("input Unused {") && api.contains("input ModelStringInput {"))
    #expect(result.files.contains { $0.path == Generator.localManifestFileName })
    // Without a `Query` field there is no schema to write (GraphQL spec §3.3.1): MG043.
    let none = try generator.generate(source: "type Mutation { ping: String }", fileName: "t.graphql")
    #expect(none.files.isEmpty && none.diagnostics.map(\.code) == [ModelGenDiagnosticCode.missingQueryRoot])
  }
}
