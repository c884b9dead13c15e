import GraphQLSDL
import ModelGenAPISchema
import ModelGenIR
import Testing

/// The auth transformer's checks of a rule's read operations (`getAuthDirectiveRules`): a model
/// field's rule may grant `read` but not a granular read operation (`get`, `list`, `sync`,
/// `listen`, `search`: "'get' operation is not allowed at the field level."), and no rule may
/// name one beside `read` ("'get' operations are specified in addition to 'read'"). Both were
/// accepted and emitted (`Schemas/regressions/field-rule-granular-read-operations-accepted.graphql`
/// keeps the valid neighbours generating). MG072, once per rule, at its first such operation.
@Suite struct FieldReadOperationsTests {
  @Test func granularReadOperationsInFieldRulesAreMG072() {
    expectDiagnostics(
      """
      type Post @model(subscriptions: null) @auth(rules: [{allow: public, operations: [get, list]}, {allow: owner, operations: [read]}]) {
        id: ID!
        title: String @auth(rules: [{allow: owner, operations: [2️⃣get, create]}, {allow: private, operations: [read]}])
        body: String @auth(rules: [{allow: groups, groups: ["Admin"], operations: [update, 3️⃣listen, search]}])
        note: String @auth(rules: [{allow: public, operations: [read, 4️⃣sync]}])
        tags: [String] @auth(rules: [{allow: private, operations: [5️⃣"list"]}])
      }
      type Draft @model @auth(rules: [{allow: private, operations: [read, 6️⃣get]}, {allow: public, operations: [get, sync]}]) {
        id: ID!
      }
      """,
      [
        (ModelGenDiagnosticCode.refusedReadOperations, "2️⃣"),
        (ModelGenDiagnosticCode.refusedReadOperations, "3️⃣"),
        (ModelGenDiagnosticCode.refusedReadOperations, "4️⃣"),
        (ModelGenDiagnosticCode.refusedReadOperations, "5️⃣"),
        (ModelGenDiagnosticCode.refusedReadOperations, "6️⃣"),
      ])
  }

  /// The message names the rule's place and every refused operation; the hint says what to write.
  @Test func messageAndHintNameTheOperations() {
    let (field, _) = analyzeMarked(
      "type Post @model(subscriptions: null) { id: ID! title: String @auth(rules: [{allow: owner, operations: [get, list, create]}]) }"
    )
    #expect(
      field.diagnostics.map(\.message) == [
        "a field-level @auth rule on `Post.title` names `get`, `list`; a field-level rule can grant only `read` of the read operations"
      ])
    #expect(field.diagnostics.first?.hint?.hasPrefix("write `read` instead of get, list") == true)
    let (model, _) = analyzeMarked(
      "type Post @model @auth(rules: [{allow: private, operations: [sync, read]}]) { id: ID! }")
    #expect(
      model.diagnostics.map(\.message) == [
        "an @auth rule on `Post` names `sync` beside `read`, which covers every read operation"
      ])
    #expect(model.diagnostics.first?.hint?.hasPrefix("keep `read` to grant every read operation") == true)
  }

  /// The local manifest tells the server when mutations return protected fields unredacted and
  /// when the rules protect no subscription: a model with `@auth` rules and a subscription level
  /// other than `on` says so (`A`, and since s15 `C`, which has model rules only: at level
  /// `public` its rules filter no event); level `on` (the default, also with renamed
  /// subscriptions) adds nothing, so those manifests are unchanged.
  @Test func manifestCarriesASubscriptionLevelOtherThanOn() throws {
    let graph = try #require(
      analyzeClean(
        """
        type A @model(subscriptions: {level: public}) @auth(rules: [{allow: owner}]) { id: ID! note: String @auth(rules: [{allow: owner, operations: [read]}]) }
        type B @model(subscriptions: {onCreate: ["bCreated"]}) @auth(rules: [{allow: owner}]) { id: ID! note: String @auth(rules: [{allow: owner}]) }
        type C @model(subscriptions: {level: public}) @auth(rules: [{allow: owner}]) { id: ID! note: String }
        """))
    let manifest = APILocalManifest.render(graph, sourceFileName: "x.graphql")
    #expect(manifest.components(separatedBy: "\"subscriptionLevel\": \"public\"").count == 3)
    #expect(graph.models.map(\.operations.subscriptionLevel) == ["public", "on", "public"])
  }

  /// Model-level granular operations without `read`, and `read` in field rules, stay valid; a root
  /// field's `operations:` stays MG065 alone (one report per mistake).
  @Test func validNeighboursAndRootFieldsAreUnchanged() {
    let (valid, _) = analyzeMarked(
      """
      type Post @model @auth(rules: [{allow: public, operations: [get, list, listen]}, {allow: owner}]) {
        id: ID!
        title: String @auth(rules: [{allow: owner, operations: [read, create, update]}, {allow: public, operations: [read]}])
      }
      """)
    #expect(valid.diagnostics.isEmpty, "\(valid.diagnostics.map(\.message))")
    let (root, _) = analyzeMarked(
      "type Query { a: String @auth(rules: [{allow: private, operations: [get]}]) }\ntype N @model { id: ID! }")
    #expect(root.diagnostics.map(\.code) == [ModelGenDiagnosticCode.operationsOnRootFieldAuthRule])
  }
}
