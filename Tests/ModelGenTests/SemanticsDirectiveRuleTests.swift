import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// Directive names, arguments, placement; `@auth`; `@default`.
@Suite struct SemanticsDirectiveRuleTests {
  @Test func unknownDirectivesAndArguments() {
    expectDiagnostics(
      """
      type Post @model 1️⃣@modle {
        id: ID! @primaryKey(2️⃣sortKeys: ["title"])
        title: String! 3️⃣@indx
      }
      """,
      [
        (ModelGenDiagnosticCode.unknownDirective, "1️⃣"), (ModelGenDiagnosticCode.unknownArgument, "2️⃣"),
        (ModelGenDiagnosticCode.unknownDirective, "3️⃣"),
      ])
    let (result, _) = analyzeMarked("type Post @model { id: ID! title: String! @indx @primaryKey(sortKeyField: []) }")
    #expect(result.diagnostics.map(\.hint) == ["did you mean `index`?", "did you mean `sortKeyFields`?"])
  }

  @Test func declaredAndPassThroughDirectivesAreAccepted() throws {
    let graph = try #require(
      analyzeClean(
        """
        directive @cached(seconds: Int) on FIELD_DEFINITION
        type Post @model @aws_iam { id: ID! title: String @cached(seconds: 5) @deprecated(reason: "old") }
        type Query { echo(msg: String): String @function(name: "echo-${env}") }
        """))
    #expect(graph.models.map(\.name) == ["Post"])
  }

  @Test func misplacedRepeatedAndMalformedDirectives() {
    expectDiagnostics(
      """
      type Label 1️⃣@auth(rules: [{allow: public}]) { text: String 2️⃣@primaryKey }
      type Post @model {
        id: ID!
        title: String @default(value: 3️⃣42) 4️⃣@default(value: "x")
        body: String @index(sortKeyFields: 5️⃣"x" name: "a" 6️⃣name: "b")
        rank: 7️⃣Int 8️⃣@manyToMany
      }
      """,
      [
        (ModelGenDiagnosticCode.misplacedDirective, "1️⃣"), (ModelGenDiagnosticCode.misplacedDirective, "2️⃣"),
        (ModelGenDiagnosticCode.invalidArgumentValue, "3️⃣"), (ModelGenDiagnosticCode.repeatedDirective, "4️⃣"),
        (ModelGenDiagnosticCode.missingField, "5️⃣"), (ModelGenDiagnosticCode.repeatedDirective, "6️⃣"),
        (ModelGenDiagnosticCode.relationFieldType, "7️⃣"), (ModelGenDiagnosticCode.missingArgument, "8️⃣"),
      ])
  }

  @Test func authRulesAreKeptAsWritten() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        type Post @model @auth(rules: [
          {allow: public, provider: apiKey, operations: [read]},
          {allow: private, provider: iam},
          {allow: owner, ownerField: "author", identityClaim: "sub", operations: [create, update, delete, read]},
          {allow: groups, groups: ["Admin", "Editors"], groupClaim: "cognito:groups"},
          {allow: groups, groupsField: "editors", provider: oidc},
          {allow: custom, provider: function}
        ]) {
          id: ID!
          author: String
          editors: [String]
        }
        """#))
    let rules = try graph.requireModel("Post").authRules
    #expect(rules.map(\.allow) == [.public, .private, .owner, .groups, .groups, .custom])
    #expect(rules.map(\.provider) == [.apiKey, .iam, nil, nil, .oidc, .function])
    #expect(rules[0].operations == [.read])
    #expect(rules[2].ownerField == "author" && rules[2].identityClaim == "sub")
    #expect(rules[2].operations == [.create, .update, .delete, .read])
    #expect(rules[3].groups == ["Admin", "Editors"] && rules[3].groupClaim == "cognito:groups")
    #expect(rules[4].groupsField == "editors" && rules[4].groups == nil)
    #expect(rules[1].location == SchemaLocation(line: 3, column: 3))
  }

  @Test func authRuleErrors() {
    expectDiagnostics(
      """
      type Post @model @auth(rules: [
        {allow: 1️⃣everyone},
        2️⃣{allow: groups},
        3️⃣{allow: public, provider: userPools},
        {allow: owner, 4️⃣owner: "me"},
        5️⃣{allow: private, ownerField: "x"},
        6️⃣{provider: iam},
        {allow: private, operations: [read, 7️⃣fly]}
      ]) { id: ID! }
      """,
      [
        (ModelGenDiagnosticCode.invalidArgumentValue, "1️⃣"), (ModelGenDiagnosticCode.invalidAuthRule, "2️⃣"),
        (ModelGenDiagnosticCode.invalidAuthRule, "3️⃣"), (ModelGenDiagnosticCode.unknownArgument, "4️⃣"),
        (ModelGenDiagnosticCode.invalidAuthRule, "5️⃣"), (ModelGenDiagnosticCode.missingArgument, "6️⃣"),
        (ModelGenDiagnosticCode.invalidArgumentValue, "7️⃣"),
      ])
  }

  @Test func defaultsAreTypeChecked() throws {
    let graph = try #require(
      analyzeClean(
        #"""
        enum Status { DRAFT LIVE }
        type Post @model {
          id: ID!
          title: String @default(value: "Untitled")
          views: Int @default(value: "42")
          ratio: Float @default(value: "0.5")
          live: Boolean @default(value: "false")
          status: Status @default(value: "DRAFT")
          day: AWSDate @default(value: "2024-02-29")
          at: AWSTime @default(value: "12:30:00.123Z")
          when: AWSDateTime @default(value: "2024-02-29T12:30:00+01:00")
          stamp: AWSTimestamp @default(value: "1700000000")
          json: AWSJSON @default(value: "{\"a\": [1, 2]}")
          email: AWSEmail @default(value: "a@example.com")
          url: AWSURL @default(value: "https://example.com/x")
          phone: AWSPhone @default(value: "+1 555 0100")
          ip: AWSIPAddress @default(value: "10.0.0.1/8")
        }
        """#))
    let post = try graph.requireModel("Post")
    #expect(post.field(named: "title")?.defaultValue == .string("Untitled"))
    #expect(post.field(named: "views")?.defaultValue == .int(42))
    #expect(post.field(named: "ratio")?.defaultValue == .float(0.5))
    #expect(post.field(named: "live")?.defaultValue == .boolean(false))
    #expect(post.field(named: "status")?.defaultValue == .enumValue("DRAFT"))
    #expect(post.field(named: "day")?.defaultValue == .string("2024-02-29"))
    #expect(post.field(named: "stamp")?.defaultValue == .int(1_700_000_000))
    #expect(post.field(named: "ip")?.defaultValue == .string("10.0.0.1/8"))
  }

  @Test func invalidDefaults() {
    expectDiagnostics(
      #"""
      enum Status { DRAFT LIVE }
      type Label { text: String }
      type Post @model {
        id: ID!
        views: Int @default(value: 1️⃣"many")
        ratio: Float @default(value: 2️⃣"1/2")
        live: Boolean @default(value: 3️⃣"yes")
        status: Status @default(value: 4️⃣"DRAFTED")
        day: AWSDate @default(value: 5️⃣"2024-13-01")
        when: AWSDateTime @default(value: 6️⃣"2024-01-01T10:00:00")
        json: AWSJSON @default(value: 7️⃣"{oops")
        tags: [String] 8️⃣@default(value: "a")
        label: Label 9️⃣@default(value: "x")
      }
      """#,
      [
        (ModelGenDiagnosticCode.invalidDefault, "1️⃣"), (ModelGenDiagnosticCode.invalidDefault, "2️⃣"),
        (ModelGenDiagnosticCode.invalidDefault, "3️⃣"), (ModelGenDiagnosticCode.invalidDefault, "4️⃣"),
        (ModelGenDiagnosticCode.invalidDefault, "5️⃣"), (ModelGenDiagnosticCode.invalidDefault, "6️⃣"),
        (ModelGenDiagnosticCode.invalidDefault, "7️⃣"), (ModelGenDiagnosticCode.invalidDefault, "8️⃣"),
        (ModelGenDiagnosticCode.invalidDefault, "9️⃣"),
      ])
  }

  /// The default-value transformer refuses `@default` on a primary key field (`validateNotPrimaryKey`:
  /// a `@primaryKey` field or `id: ID!`; `validateNotCompositeKeyMember`: a sort key field); modelgen
  /// accepted it, and every create without the field wrote the same key. MG013 at the directive; an
  /// implicit key declared `id: String!` keeps its default, as the transformer's test lets it.
  @Test func defaultsOnPrimaryKeyFields() {
    expectDiagnostics(
      #"""
      type A @model { id: ID! 1️⃣@default(value: "a") x: Int @default(value: "1") }
      type B @model { code: String! @primaryKey 2️⃣@default(value: "b") }
      type C @model { id: ID! @primaryKey(sortKeyFields: ["k"]) k: String! 3️⃣@default(value: "c") n: Int @default(value: "2") }
      type D @model { id: String! @default(value: "d") }
      """#,
      [
        (ModelGenDiagnosticCode.invalidDefault, "1️⃣"), (ModelGenDiagnosticCode.invalidDefault, "2️⃣"),
        (ModelGenDiagnosticCode.invalidDefault, "3️⃣"),
      ])
    let result = SemanticAnalyzer.analyze(
      source: #"type B @model { code: String! @primaryKey @default(value: "b") }"#, fileName: "t.graphql")
    #expect(
      result.diagnostics.map(\.description).first?.hasPrefix(
        "t.graphql:1:43: error: `B.code` is part of the primary key of `B`; @default does not apply to primary key fields [MG013]"
      )
        == true)
    let valid = SemanticAnalyzer.analyze(
      source: #"type D @model { id: String! @default(value: "d") n: Int @default(value: "3") }"#, fileName: "t.graphql")
    let d = valid.graph?.models.first
    #expect(valid.diagnostics.isEmpty)
    #expect(d?.field(named: "id")?.defaultValue == .string("d"))
    #expect(d?.field(named: "n")?.defaultValue == .int(3))
  }

  @Test func diagnosticsPrintClickably() {
    let result = SemanticAnalyzer.analyze(source: "type Post @model { id: ID! x: Nope }", fileName: "Schemas/a.graphql")
    #expect(
      result.diagnostics.first?.description.hasPrefix("Schemas/a.graphql:1:31: error: unknown type `Nope` [MG001]")
        == true)
  }
}
