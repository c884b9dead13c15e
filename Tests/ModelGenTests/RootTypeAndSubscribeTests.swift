import Foundation
import GraphQLSDL
import ModelGenAPISchema
import ModelGenIR
import Testing

/// Issue 20, the fresh-user pass: schemas `validate` accepted whose `schema.api.graphql` had no
/// valid root, took over a root type, or subscribed in a way AppSync refuses.
@Suite struct RootTypeAndSubscribeTests {
  typealias Code = ModelGenDiagnosticCode

  @Test func aRootTypeNameTakenByAnotherKindIsMG032() throws {
    expectDiagnostics(
      """
      type 1️⃣Query @model { id: ID! title: String }
      enum 2️⃣Mutation { A B }
      input 3️⃣Subscription { a: Int }
      type Note @model { id: ID! }
      """,
      [(Code.typeNameCollision, "1️⃣"), (Code.typeNameCollision, "2️⃣"), (Code.typeNameCollision, "3️⃣")])
    expectDiagnostics(
      """
      scalar 1️⃣Query
      union 2️⃣Mutation = Note
      interface 3️⃣Subscription { a: Int }
      type Note @model { id: ID! }
      """,
      [(Code.typeNameCollision, "1️⃣"), (Code.typeNameCollision, "2️⃣"), (Code.typeNameCollision, "3️⃣")])
    // `extend type Query @model` would make the user's root type a model (and `@model` is
    // misplaced on a root type).
    expectDiagnostics(
      """
      type Query { echo: String }
      extend type 1️⃣Query 2️⃣@model
      type Note @model { id: ID! }
      """,
      [(Code.typeNameCollision, "1️⃣"), (Code.misplacedDirective, "2️⃣")])
    // A type a `schema { }` names is a root too (and the renaming itself MG039).
    expectDiagnostics(
      """
      schema { query: 1️⃣Root }
      type 2️⃣Root @model { id: ID! }
      """,
      [(Code.renamedRootType, "1️⃣"), (Code.typeNameCollision, "2️⃣")])
    let (result, _) = analyzeMarked("type Query @model { id: ID! }")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(
      diagnostic.message
        == "`Query` is a root operation type of the API schema, which holds the generated and your own root fields; it cannot be a model"
    )
    #expect(
      diagnostic.hint
        == "rename the type; to declare root fields yourself write a plain object type, `type Query { … }` (no `@model`)"
    )
    // A plain `type Query { … }` stays the user's root fields.
    let graph = try #require(analyzeClean("type Query { echo: String }\ntype Note @model { id: ID! }"))
    #expect(graph.customRootTypes.map(\.operation) == [.query])
  }

  @Test func anAPISchemaWithoutAQueryFieldIsMG043() throws {
    expectDiagnostics(
      """
      type Note @model(queries: 1️⃣null) { id: ID! }
      type Tag @model(queries: null) { id: ID! }
      """,
      [(Code.missingQueryRoot, "1️⃣")])
    let (result, _) = analyzeMarked("type Note @model(queries: null) { id: ID! }")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.message.contains("the API schema would have no `Query` field"))
    #expect(diagnostic.hint?.contains("drop `queries: null` from `Note`") == true)
    // Only a user `Mutation`: reported at it.
    expectDiagnostics("type 1️⃣Mutation { ping: String }", [(Code.missingQueryRoot, "1️⃣")])
    expectDiagnostics("type 1️⃣Subscription { pinged: String }", [(Code.missingQueryRoot, "1️⃣")])
    // Any query field is enough: one model's, an index's, the user's own.
    #expect(analyzeClean("type Note @model(queries: null) { id: ID! }\ntype Tag @model { id: ID! }") != nil)
    #expect(
      analyzeClean(
        "type Note @model(queries: null) { id: ID! tag: String! @index(name: \"byTag\", queryField: \"notesByTag\") }")
        != nil)
    #expect(analyzeClean("type Note @model(queries: null) { id: ID! }\ntype Query { echo: String }") != nil)
    // No model and no root type: no API schema, nothing to refuse.
    #expect(analyzeClean("enum Color { RED }") != nil)
  }

  @Test func searchableIsRefusedWithMG045() throws {
    expectDiagnostics("type Post @model 1️⃣@searchable { id: ID! }", [(Code.unsupportedDirective, "1️⃣")])
    let (result, _) = analyzeMarked("type Post @model @searchable { id: ID! }")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.message.contains("modelgen does not support `@searchable`"))
    #expect(diagnostic.hint?.contains("remove `@searchable`") == true)
    // A user's own `directive @searchable` is theirs.
    #expect(
      analyzeClean("directive @searchable on OBJECT\ntype Post @model @searchable { id: ID! }") != nil)
  }

  @Test func awsSubscribeIsCheckedAgainstAppSyncsRules() throws {
    expectDiagnostics(
      """
      type Post @model(subscriptions: null) { id: ID! title: String }
      type Mutation { ping: String publish(n: Int): [Post] }
      type Query { a: String 1️⃣@aws_subscribe(mutations: ["createPost"]) }
      type Subscription {
        none: Post @aws_subscribe(mutations: 2️⃣[])
        wrong: Post @aws_subscribe(mutations: ["createPost", 3️⃣"ping"])
        list: Post @aws_subscribe(mutations: [4️⃣"publish"])
        fine: Post! @aws_subscribe(mutations: ["createPost", "updatePost"])
        lists: [Post] @aws_subscribe(mutations: ["publish"])
      }
      """,
      [
        (Code.misplacedDirective, "1️⃣"), (Code.invalidSubscribeMutations, "2️⃣"),
        (Code.subscriptionTypeMismatch, "3️⃣"), (Code.subscriptionTypeMismatch, "4️⃣"),
      ])
    let (result, _) = analyzeMarked(
      """
      type Post @model { id: ID! }
      type Mutation { ping: String }
      type Subscription { s: Post @aws_subscribe(mutations: ["ping"]) }
      """)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(
      diagnostic.message
        == "`Subscription.s` returns `Post`, but the mutation `ping` it subscribes to returns `String`; AppSync requires a subscription to return its mutations' type"
    )
    #expect(diagnostic.hint?.contains("return `String` from the subscription") == true)
    // The full list shape is compared (nullability aside), and printed.
    expectDiagnostics(
      """
      type Post @model(subscriptions: null) { id: ID! }
      type Mutation { m: [[Post]] n: [[Post!]!] one: [Post] }
      type Subscription {
        a: [Post] @aws_subscribe(mutations: [1️⃣"m"])
        b: [[Post]] @aws_subscribe(mutations: ["m", "n"])
        c: [[Post]] @aws_subscribe(mutations: [2️⃣"one"])
        d: [[[Post]]] @aws_subscribe(mutations: [3️⃣"m"])
      }
      """,
      [
        (Code.subscriptionTypeMismatch, "1️⃣"), (Code.subscriptionTypeMismatch, "2️⃣"),
        (Code.subscriptionTypeMismatch, "3️⃣"),
      ])
    let (nested, _) = analyzeMarked(
      """
      type Post @model { id: ID! }
      type Mutation { m: [[Post]]! }
      type Subscription { a: [Post] @aws_subscribe(mutations: ["m"]) }
      """)
    let mismatch = try #require(nested.diagnostics.first { $0.code == Code.subscriptionTypeMismatch })
    #expect(
      mismatch.message
        == "`Subscription.a` returns `[Post]`, but the mutation `m` it subscribes to returns `[[Post]]!`; AppSync requires a subscription to return its mutations' type"
    )
    let (empty, _) = analyzeMarked(
      "type Post @model { id: ID! }\ntype Subscription { s: Post @aws_subscribe(mutations: []) }")
    #expect(empty.diagnostics.first?.message.contains("must be a non-empty list of mutation names") == true)
  }

  @Test func directiveUsesAreCheckedAgainstTheirDefinitions() throws {
    expectDiagnostics(
      """
      directive @cached(seconds: Int!) on FIELD_DEFINITION
      type Meta 1️⃣@cached(seconds: 1) {
        a(x: Int 2️⃣@aws_iam): Int @aws_api_key(3️⃣x: 1)
        b: Int @deprecated(reason: 4️⃣1) 5️⃣@cached
        c(y: Int! 6️⃣@deprecated): Int @cached(seconds: 2, 7️⃣seconds: 3)
      }
      input Filter { n: Int! 8️⃣@deprecated m: Int = 1 @deprecated }
      enum Level { LOW 9️⃣@aws_iam HIGH @deprecated }
      type Note @model { id: ID! meta: Meta level: Level }
      type Query { q(f: Filter): Int }
      """,
      [
        (Code.misplacedDirective, "1️⃣"), (Code.misplacedDirective, "2️⃣"), (Code.unknownArgument, "3️⃣"),
        (Code.invalidDirectiveArgument, "4️⃣"), (Code.missingArgument, "5️⃣"), (Code.deprecatedRequiredInput, "6️⃣"),
        (Code.repeatedDirective, "7️⃣"), (Code.deprecatedRequiredInput, "8️⃣"), (Code.misplacedDirective, "9️⃣"),
      ])
    let (result, _) = analyzeMarked("type Query { a(x: Int @aws_iam): Int }")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(
      diagnostic.message
        == "`@aws_iam` is not allowed on the argument `Query.a(x:)` (ARGUMENT_DEFINITION); it is defined on OBJECT | FIELD_DEFINITION"
    )
    let (reason, _) = analyzeMarked("type Query { a: Int @deprecated(reason: 1) }")
    #expect(
      reason.diagnostics.first?.message
        == "the value of `@deprecated(reason:)` is not a `String`: expected a string, found the integer `1`")
    // Restating an AppSync directive does not change where AppSync takes it.
    expectDiagnostics(
      "directive @aws_iam on ARGUMENT_DEFINITION\ntype Query { a(x: Int 1️⃣@aws_iam): Int }",
      [(Code.misplacedDirective, "1️⃣")])
    let (required, _) = analyzeMarked("type Query { a(x: ID! @deprecated): Int }")
    #expect(required.diagnostics.first?.hint?.contains("make it optional") == true)
  }

  @Test func appSyncDirectivesOnUserTypesAndFieldsAreKept() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Meta @aws_iam @aws_api_key { version: Int @deprecated(reason: "use build") build: String @aws_iam }
        type Post @model @auth(rules: [{allow: public}, {allow: private, provider: iam}]) {
          id: ID!
          subtitle: String @deprecated
          meta: Meta
        }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    // The user's directives first, then the auth transformer's missing ones, each once.
    #expect(
      text.contains(
        "type Meta @aws_iam @aws_api_key {\n  version: Int @deprecated(reason: \"use build\")\n  build: String @aws_iam\n}"
      ), "\(text)")
    #expect(text.contains("  subtitle: String @deprecated\n"), "\(text)")
  }

  @Test func lowItemsOfTheFreshUserPass() throws {
    // Two `schema { }` definitions: MG048 at the second.
    expectDiagnostics(
      """
      schema { query: Query }
      1️⃣schema { mutation: Mutation }
      type Query { a: Int }
      type Mutation { b: Int }
      """,
      [(Code.duplicateSchemaDefinition, "1️⃣")])
    #expect(
      analyzeClean(
        "schema { query: Query }\nextend schema { mutation: Mutation }\ntype Query { a: Int }\ntype Mutation { b: Int }"
      ) != nil)
    // `@versioned` (transformer v1) names what replaces it.
    let (versioned, _) = analyzeMarked("type Post @model @versioned { id: ID! }")
    #expect(versioned.diagnostics.map(\.code) == [Code.unknownDirective])
    #expect(versioned.diagnostics.first?.hint?.contains("--conflict-resolution automerge") == true)
    // `extend type Query @aws_api_key` keeps its directive, each name once; a model keeps its description.
    let graph = try #require(
      analyzeClean(
        """
        type Query @aws_iam { health: String }
        extend type Query @aws_api_key
        "A note."
        type Note @model { id: ID! }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "t.graphql")
    #expect(text.contains("type Query @aws_iam @aws_api_key {\n  health: String\n"), "\(text)")
    #expect(text.contains("\"A note.\"\ntype Note {"), "\(text)")
  }
}
