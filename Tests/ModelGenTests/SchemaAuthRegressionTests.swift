import Foundation
import ModelGen
import Testing

/// Issue 15 (s14): what the generator lost of a schema's authorization between `@model` and the
/// outputs. Each case is pinned beside its `Schemas/regressions/` file (and its golden).
@Suite struct SchemaAuthRegressionTests {
  static func emitted(_ source: String) throws -> String {
    let graph = try #require(analyzeClean(source))
    return APISchemaEmitter.render(graph, sourceFileName: "test.graphql")
  }

  /// The first line of the definition headed `header` (`type Album`): its directives.
  static func header(_ prefix: String, in schema: String) -> String? {
    schema.components(separatedBy: "\n").first { $0.hasPrefix(prefix + " ") || $0 == prefix }
  }

  /// `subscription-level-not-in-model-schema`: the level and the protected fields reach the
  /// generated Swift schema (before: neither was an argument, so the runtime took level `on`).
  @Test func subscriptionLevelAndProtectedFieldsReachTheSwiftSchema() throws {
    let source = try String(
      contentsOf: APISchemaEmitterTests.root.appendingPathComponent(
        "Schemas/regressions/subscription-level-not-in-model-schema.graphql"), encoding: .utf8)
    let graph = try #require(analyzeClean(source))
    #expect(graph.models.map(\.subscriptionLevel.rawValue) == ["on", "public", "off"])
    #expect(graph.models.map(\.protectedFields) == [["secret"], ["secret"], ["secret"]])
    let generator = Generator(options: GeneratorOptions(access: .public, templates: try TemplateLibrary.defaults()))
    let files = Dictionary(uniqueKeysWithValues: try generator.render(graph).map { ($0.path, $0.contents) })
    func tail(_ name: String) -> [String] {
      (files["\(name)+Schema.swift"] ?? "").components(separatedBy: "\n").filter {
        $0.contains("subscriptionLevel:") || $0.contains("protectedFields:")
      }.map { $0.trimmingCharacters(in: .whitespaces) }
    }
    #expect(tail("Journal") == ["protectedFields: [\"secret\"]"])
    #expect(tail("Diary") == ["subscriptionLevel: .public,", "protectedFields: [\"secret\"]"])
    #expect(tail("Ledger") == ["subscriptionLevel: .off,", "protectedFields: [\"secret\"]"])
  }

  /// Issue 15 (s15), `subscription-level-not-in-model-schema`: the auth transformer protects
  /// subscriptions at level `on` only (`protectSchemaOperations` adds the `listen` directives and
  /// `addSubscriptionArguments` inside `subscriptionLevel === SubscriptionLevel.on`), so `Diary`'s
  /// (level `public`) take `filter` alone and carry `@aws_subscribe` alone; `Ledger`'s (`null`)
  /// do not exist; `Journal` (level `on`) is the control. Before, `Diary`'s carried `owner: String`
  /// and `@aws_cognito_user_pools`. The manifest names the level of every model with rules.
  @Test func levelPublicSubscriptionsHaveNoAuthDirectivesNorOwnerArguments() throws {
    let source = try String(
      contentsOf: APISchemaEmitterTests.root.appendingPathComponent(
        "Schemas/regressions/subscription-level-not-in-model-schema.graphql"), encoding: .utf8)
    let schema = try Self.emitted(source)
    let subscriptions = schema.components(separatedBy: "\n").filter { $0.hasPrefix("  on") }
      .map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(
      subscriptions == [
        #"onCreateJournal(filter: ModelSubscriptionJournalFilterInput, owner: String): Journal @aws_subscribe(mutations: ["createJournal"]) @aws_cognito_user_pools"#,
        #"onUpdateJournal(filter: ModelSubscriptionJournalFilterInput, owner: String): Journal @aws_subscribe(mutations: ["updateJournal"]) @aws_cognito_user_pools"#,
        #"onDeleteJournal(filter: ModelSubscriptionJournalFilterInput, owner: String): Journal @aws_subscribe(mutations: ["deleteJournal"]) @aws_cognito_user_pools"#,
        #"onCreateDiary(filter: ModelSubscriptionDiaryFilterInput): Diary @aws_subscribe(mutations: ["createDiary"])"#,
        #"onUpdateDiary(filter: ModelSubscriptionDiaryFilterInput): Diary @aws_subscribe(mutations: ["updateDiary"])"#,
        #"onDeleteDiary(filter: ModelSubscriptionDiaryFilterInput): Diary @aws_subscribe(mutations: ["deleteDiary"])"#,
      ])
  }

  /// `child-without-queries-connection-unauthorized`: the connection of a child without queries
  /// carries its parent's providers (before: no directive at all).
  @Test func childConnectionCarriesItsParentsDirectives() throws {
    let schema = try Self.emitted(
      """
      type Album @model @auth(rules: [{allow: public, provider: apiKey}, {allow: private, provider: iam}]) {
        id: ID!
        tracks: [Track] @hasMany
      }
      type Track @model(queries: null) @auth(rules: [{allow: owner}]) {
        id: ID!
        name: String!
      }
      """)
    #expect(Self.header("type ModelTrackConnection", in: schema) == "type ModelTrackConnection @aws_api_key @aws_iam {")
    // A child with its own list query: the list's directives, then the parent's it lacks.
    let listed = try Self.emitted(
      """
      type Album @model @auth(rules: [{allow: public, provider: iam}]) {
        id: ID!
        tracks: [Track] @hasMany
      }
      type Track @model @auth(rules: [{allow: owner}]) {
        id: ID!
        name: String!
      }
      """)
    #expect(
      Self.header("type ModelTrackConnection", in: listed)
        == "type ModelTrackConnection @aws_cognito_user_pools @aws_iam {")
  }

  /// `appsync-directives-on-model-types-dropped`: directives written on a model type stay, the
  /// rules' follow each once (before: the written ones were dropped).
  @Test func appSyncDirectivesOnModelTypesAreKept() throws {
    let schema = try Self.emitted(
      """
      type Poll @model @aws_iam @aws_api_key {
        id: ID!
        question: String!
      }
      type Vote @model @aws_iam @auth(rules: [{allow: public, provider: apiKey}, {allow: private, provider: iam}]) {
        id: ID!
        choice: String!
      }
      """)
    #expect(Self.header("type Poll", in: schema) == "type Poll @aws_iam @aws_api_key {")
    #expect(Self.header("type Vote", in: schema) == "type Vote @aws_iam @aws_api_key {")
  }
}
