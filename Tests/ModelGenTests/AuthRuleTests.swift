import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// `@auth` as the Amplify GraphQL Transformer v2 treats it: field-level rules and implicit owner
/// fields in the IR, `authRules:` on Swift field metadata, and the AppSync auth directives of the
/// emitted API schema.
@Suite("@auth: IR, Swift metadata, API schema directives")
struct AuthRuleTests {
  /// The model of the issue: every strategy with default providers, plus a field-level rule.
  static let issueSchema = """
    type Memo @model @auth(rules: [
      {allow: public, provider: apiKey}, {allow: private, provider: iam}, {allow: owner},
      {allow: groups, groups: ["Admin"]}, {allow: groups, groupsField: "editors"}, {allow: custom}
    ]) {
      id: ID!
      title: String! @index(name: "byTitle", queryField: "memosByTitle")
      editors: [String]
      secret: String @auth(rules: [{allow: owner}])
      attachment: Attachment
    }
    type Attachment { name: String! }
    """

  func emitted(_ source: String) throws -> String {
    let graph = try #require(analyzeClean(source))
    return APISchemaEmitter.render(graph, sourceFileName: "test.graphql")
  }

  /// The line of `text` that starts (after indentation) with `prefix`.
  func line(_ text: String, _ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    let found = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .first { $0.hasPrefix(prefix) }
    #expect(found != nil, "no line starts with \(prefix)", sourceLocation: sourceLocation)
    return found
  }

  /// The body lines of the block `header` (`input CreateMemoInput`).
  func block(_ text: String, _ header: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(where: { $0.hasPrefix(header + " ") }) else { return [] }
    return Array(lines[(start + 1)...].prefix { $0 != "}" }).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
  }

  // MARK: IR

  @Test func fieldLevelRulesAreRecordedAndOwnerFieldIsAdded() throws {
    let graph = try #require(analyzeClean(Self.issueSchema))
    let memo = try graph.requireModel("Memo")
    #expect(memo.field(named: "secret")?.authRules.map(\.allow) == [.owner])
    #expect(memo.field(named: "title")?.authRules == [])
    #expect(memo.authRules.count == 6)
    let owner = try #require(memo.field(named: "owner"))
    #expect(owner.type == .scalar(.string))
    #expect(!owner.isRequired && owner.isReadOnly && owner.origin == .implicitOwner)
    #expect(memo.fieldNames == ["id", "title", "editors", "secret", "attachment", "owner", "createdAt", "updatedAt"])
  }

  @Test func ownerFieldIsAddedOnlyWhenMissing() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Declared @model @auth(rules: [{allow: owner, ownerField: "author"}]) { id: ID! author: String! }
        type Written @model @auth(rules: [{allow: owner, ownerField: "assignee"}, {allow: owner, ownerField: "assignee", operations: [read]}]) { id: ID! }
        type FieldOnly @model { id: ID! @auth(rules: [{allow: owner}]) note: String @auth(rules: [{allow: owner}]) }
        type Open @model @auth(rules: [{allow: public}]) { id: ID! }
        """))
    let declared = try graph.requireModel("Declared")
    #expect(declared.fieldNames == ["id", "author", "createdAt", "updatedAt"])
    #expect(declared.field(named: "author")?.isRequired == true)
    #expect(try graph.requireModel("Written").fieldNames == ["id", "assignee", "createdAt", "updatedAt"])
    #expect(try graph.requireModel("FieldOnly").fieldNames == ["id", "note", "owner", "createdAt", "updatedAt"])
    #expect(try graph.requireModel("Open").fieldNames == ["id", "createdAt", "updatedAt"])
  }

  @Test func effectiveProvidersAndOperations() throws {
    let rule = { (allow: AuthRuleDefinition.Strategy) in
      AuthRuleDefinition(allow: allow, location: SchemaLocation(line: 1, column: 1))
    }
    #expect(rule(.public).effectiveProvider == .apiKey)
    #expect(rule(.private).effectiveProvider == .userPools)
    #expect(rule(.owner).effectiveProvider == .userPools)
    #expect(rule(.groups).effectiveProvider == .userPools)
    #expect(rule(.custom).effectiveProvider == .function)
    var read = rule(.owner)
    read.operations = [.read, .create]
    #expect(read.grantedOperations == [.get, .list, .sync, .listen, .search, .create])
    #expect(rule(.owner).roleNames == ["userPools:owner:owner:username"])
    var groups = rule(.groups)
    groups.groups = ["Admin", "Staff"]
    #expect(
      groups.roleNames == ["userPools:staticGroup:Admin:cognito:groups", "userPools:staticGroup:Staff:cognito:groups"])
  }

  @Test func fieldRulesMustKeepRequiredFieldsReadable() {
    // A role only a field-level rule grants (here `oidc:private`, `userPools:owner:reviewer`) may
    // read that field, so it would read `null` from every required field it lacks.
    expectDiagnostics(
      """
      type Memo @model @auth(rules: [{allow: owner}]) {
        1️⃣id: ID!
        2️⃣title: String!
        body: String
        note: String @auth(rules: [{allow: private, provider: oidc}, {allow: owner, ownerField: "reviewer", operations: [read]}])
      }
      """,
      [(ModelGenDiagnosticCode.invalidAuthRule, "1️⃣"), (ModelGenDiagnosticCode.invalidAuthRule, "2️⃣")])
    let (result, _) = analyzeMarked(
      "type Memo @model @auth(rules: [{allow: owner}]) { id: ID! note: String @auth(rules: [{allow: private, provider: oidc}]) }"
    )
    #expect(
      result.diagnostics.first?.message
        == "invalid @auth rule on `Memo`: required field `id` is not readable by oidc:private; give it field-level rules with read access for them, or make it nullable"
    )
    // Narrowing the model's own roles, a `private` rule covering its provider's roles, or
    // subscriptions turned off are accepted.
    _ = analyzeClean(
      """
      type A @model @auth(rules: [{allow: owner}, {allow: groups, groups: ["Admin"]}]) {
        id: ID! title: String! note: String @auth(rules: [{allow: owner, operations: [read]}])
      }
      type B @model @auth(rules: [{allow: private}]) {
        id: ID! title: String! note: String @auth(rules: [{allow: private}, {allow: owner}])
      }
      type C @model(subscriptions: null) @auth(rules: [{allow: owner}]) {
        id: ID! note: String @auth(rules: [{allow: private, provider: iam}])
      }
      type D @model(subscriptions: {level: public}) @auth(rules: [{allow: owner}]) {
        id: ID! note: String @auth(rules: [{allow: private, provider: iam}])
      }
      type E @model(subscriptions: {level: off}) @auth(rules: [{allow: owner}]) {
        id: ID! note: String @auth(rules: [{allow: private, provider: iam}])
      }
      """)
  }

  // MARK: Swift

  @Test func swiftMetadataCarriesFieldRulesAndOwnerField() throws {
    let generator = Generator(options: GeneratorOptions(access: .public, templates: try TemplateLibrary.defaults()))
    let result = try generator.generate(source: Self.issueSchema, fileName: "snippet.graphql")
    let files = Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.contents) })
    let schema = try #require(files["Memo+Schema.swift"])
    #expect(schema.contains(".field(CodingKeys.secret, .optional, .string, authRules: [AuthRule(allow: .owner)]),\n"))
    #expect(schema.contains(".field(CodingKeys.owner, .optional, .string, readOnly: true),\n"))
    #expect(schema.contains("case owner\n"))
    let model = try #require(files["Memo.swift"])
    #expect(model.contains("public internal(set) var owner: String?\n"))
    #expect(model.contains("owner = try values.decodeIfPresent(String.self, forKey: .owner)\n"))
    #expect(!model.contains("owner: String? = nil"))
  }

  @Test func longFieldRuleListsBreakOneRulePerLine() throws {
    let generator = Generator(options: GeneratorOptions(access: .public, templates: try TemplateLibrary.defaults()))
    let result = try generator.generate(
      source: """
        type Memo @model @auth(rules: [{allow: owner}, {allow: groups, groups: ["Admin"]}]) {
          id: ID! reviewNote: String @auth(rules: [{allow: owner, operations: [read, update]}, {allow: groups, groups: ["Admin"]}])
        }
        """, fileName: "snippet.graphql")
    #expect(!result.hasErrors)
    let schema = try #require(result.files.first { $0.path == "Memo+Schema.swift" }?.contents)
    #expect(
      schema.contains(
        """
              .field(
                CodingKeys.reviewNote, .optional, .string,
                authRules: [
                  AuthRule(allow: .owner, operations: [.read, .update]),
                  AuthRule(allow: .groups, groups: ["Admin"]),
                ]),

        """))
  }

  // MARK: API schema

  @Test func directivesOnTypesAndRootFieldsOfTheIssueModel() throws {
    let text = try emitted(Self.issueSchema)
    let all = "@aws_api_key @aws_iam @aws_cognito_user_pools @aws_lambda"
    // Deployable: AppSync declares its own directives, so the file declares none.
    #expect(!text.contains("directive @aws_"))
    #expect(line(text, "type Memo ") == "type Memo \(all) {")
    #expect(line(text, "type ModelMemoConnection") == "type ModelMemoConnection \(all) {")
    #expect(line(text, "type Attachment") == "type Attachment \(all) {")
    for field in [
      "getMemo(", "listMemos(", "memosByTitle(", "createMemo(", "updateMemo(", "onCreateMemo(", "onUpdateMemo(",
      "onDeleteMemo(",
    ] {
      #expect(line(text, field)?.hasSuffix(all) == true, "\(field)")
    }
    // `secret` keeps only the owner rule: only the owner may delete every field
    // (AccessControlMatrix.getRolesPerOperation('delete', true)).
    #expect(line(text, "deleteMemo(")?.hasSuffix("): Memo @aws_cognito_user_pools") == true)
    // The owner rule listens: subscriptions take the owner argument.
    #expect(
      line(text, "onCreateMemo(")?.hasPrefix(
        "onCreateMemo(filter: ModelSubscriptionMemoFilterInput, owner: String): Memo") == true)
  }

  @Test func ownerFieldInTypeAndInputs() throws {
    let text = try emitted(Self.issueSchema)
    #expect(block(text, "type Memo").last == "owner: String")
    #expect(block(text, "input ModelMemoFilterInput").last == "owner: ModelStringInput")
    #expect(block(text, "input ModelMemoConditionInput").last == "owner: ModelStringInput")
    #expect(!block(text, "input CreateMemoInput").contains { $0.hasPrefix("owner") })
    #expect(!block(text, "input UpdateMemoInput").contains { $0.hasPrefix("owner") })
    // Dynamic auth fields (owner, groupsField) are left out of the subscription filter.
    let subscriptionFilter = block(text, "input ModelSubscriptionMemoFilterInput")
    #expect(subscriptionFilter.contains("title: ModelSubscriptionStringInput"))
    #expect(!subscriptionFilter.contains { $0.hasPrefix("owner") || $0.hasPrefix("editors") })
  }

  @Test func operationsNarrowTheDirectives() throws {
    let text = try emitted(
      """
      type Post @model @auth(rules: [
        {allow: owner, provider: oidc, ownerField: "author", operations: [create, update, delete]},
        {allow: public, provider: iam, operations: [read]}
      ]) { id: ID! author: [String] }
      """)
    #expect(line(text, "type Post ")?.hasSuffix("@aws_iam @aws_oidc {") == true)
    #expect(line(text, "getPost(")?.hasSuffix("@aws_iam") == true)
    #expect(line(text, "type ModelPostConnection") == "type ModelPostConnection @aws_iam {")
    #expect(line(text, "createPost(")?.hasSuffix("): Post @aws_oidc") == true)
    #expect(line(text, "deletePost(")?.hasSuffix("): Post @aws_oidc") == true)
    // A list owner field adds no subscription argument.
    #expect(
      line(text, "onCreatePost(")?.hasPrefix("onCreatePost(filter: ModelSubscriptionPostFilterInput): Post") == true)
    #expect(!text.contains("\n  author: String\n"))
  }

  @Test func fieldRulesThatNarrowEveryRoleLeaveDeleteToTheDefaultMode() throws {
    let text = try emitted(
      """
      type Memo @model @auth(rules: [{allow: owner}, {allow: groups, groups: ["Admin"]}]) {
        id: ID!
        secret: String @auth(rules: [{allow: owner}])
        note: String @auth(rules: [{allow: owner, operations: [read, update]}, {allow: groups, groups: ["Admin"]}])
      }
      """)
    #expect(line(text, "deleteMemo(")?.hasSuffix("): Memo") == true)
    #expect(line(text, "updateMemo(")?.hasSuffix("): Memo @aws_cognito_user_pools") == true)
  }

  @Test func identityPoolAndFunctionMapToIAMAndLambda() throws {
    let text = try emitted(
      """
      type Log @model @auth(rules: [{allow: private, provider: identityPool}, {allow: custom, provider: function}]) { id: ID! }
      """)
    #expect(line(text, "type Log ")?.hasSuffix("@aws_iam @aws_lambda {") == true)
  }

  @Test func schemasWithoutAuthDeclareNoAuthDirectives() throws {
    let text = try emitted("type Note @model { id: ID! }")
    #expect(!text.contains("@aws_api_key"))
    #expect(!text.contains("@aws_cognito_user_pools"))
  }
}
