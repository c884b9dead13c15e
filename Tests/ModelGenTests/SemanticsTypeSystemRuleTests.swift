import Foundation
import GraphQLSDL
import ModelGen
import Testing

@testable import ModelGenIR

/// The GraphQL type-system rules (October 2021 spec §3) on what the user declares beside the
/// Amplify directives (`TypeSystemRule`): a fresh user's schema with `a(x: Int, x: String)`, a
/// repeated input field (the second was dropped silently), `@aws_api_key @aws_api_key`, an
/// argument default `"s"` for an `Int`, `input I { i: I! }`, an empty `input I` and an argument
/// `__x` passed `validate` and produced a `schema.api.graphql` that AppSync refuses.
@Suite struct SemanticsTypeSystemRuleTests {
  typealias Code = ModelGenDiagnosticCode

  @Test func repeatedArgumentsInputFieldsAndDirectiveDefinitions() {
    expectDiagnostics(
      """
      type Order @model { id: ID! }
      type Query { search(text: String, 1️⃣text: Int, limit: Int, 2️⃣limit: Int): [Order] }
      input OrderInput { total: Int 3️⃣total: String note: String }
      extend input OrderInput { 4️⃣note: String }
      directive @cached(ttl: Int, 5️⃣ttl: Int) on FIELD_DEFINITION
      directive @6️⃣cached on OBJECT
      interface Named { name(locale: String, 7️⃣locale: String): String }
      enum Color { RED 8️⃣RED }
      """,
      [
        (Code.duplicateArgument, "1️⃣"), (Code.duplicateArgument, "2️⃣"), (Code.duplicateField, "3️⃣"),
        (Code.duplicateField, "4️⃣"), (Code.duplicateArgument, "5️⃣"), (Code.duplicateDirective, "6️⃣"),
        (Code.duplicateArgument, "7️⃣"), (Code.duplicateField, "8️⃣"),
      ])
  }

  @Test func duplicateMessagesNameTheOwnerAndPointAtTheFirst() {
    let (result, _) = analyzeMarked(
      """
      type Order @model { id: ID! }
      type Query { search(text: String, text: Int): [Order] }
      directive @cached on FIELD_DEFINITION
      directive @cached on OBJECT
      """)
    #expect(
      result.diagnostics.map(\.message) == [
        "`Query.search` defines the argument `text` more than once",
        "directive `@cached` is defined more than once",
      ])
    #expect(result.diagnostics.map(\.hint) == ["rename or remove one of them", "rename or remove one of them"])
    #expect(result.diagnostics.map { $0.notes.map(\.range.start.line) } == [[2], [3]])
    #expect(result.diagnostics.map { $0.notes.map(\.range.start.column) } == [[21], [12]])
  }

  @Test func nonRepeatableDirectivesOnRootFieldsArgumentsAndInputFields() {
    expectDiagnostics(
      """
      directive @tag(name: String) repeatable on FIELD_DEFINITION | ARGUMENT_DEFINITION
      directive @once on FIELD_DEFINITION | INPUT_FIELD_DEFINITION | ARGUMENT_DEFINITION
      type Order @model { id: ID! }
      type Query {
        a: Int @aws_api_key 1️⃣@aws_api_key @tag(name: "x") @tag(name: "y")
        b(x: Int @once 2️⃣@once @deprecated 3️⃣@deprecated): Int @once 4️⃣@once
      }
      type Subscription { c: Order @aws_subscribe(mutations: ["createOrder"]) 5️⃣@aws_subscribe(mutations: ["createOrder"]) }
      input I { f: Int @once 6️⃣@once g: Int @deprecated @once }
      """,
      [
        (Code.repeatedDirective, "1️⃣"), (Code.repeatedDirective, "2️⃣"), (Code.repeatedDirective, "3️⃣"),
        (Code.repeatedDirective, "4️⃣"), (Code.repeatedDirective, "5️⃣"), (Code.repeatedDirective, "6️⃣"),
      ])
  }

  @Test func defaultValuesFollowTheInputCoercionRules() {
    expectDiagnostics(
      """
      type Order @model { id: ID! }
      enum Color { RED GREEN }
      input Page { size: Int! token: String tags: [String!] = [] }
      type Query {
        a(i: Int = 1️⃣2147483648, j: Int = -2147483648, f: Float = 2️⃣1e400, g: Float = 3, s: String = 3️⃣4): Int
        b(c: Color = 4️⃣"RED", d: Color = 5️⃣BLUE, e: Color = GREEN, l: [Color!] = RED, m: [Int] = [1, null]): Int
        c(n: [Int!] = [1, 6️⃣null], p: Page = 7️⃣{token: "t"}, q: Page = {size: 1, 8️⃣sise: 2}, r: Int! = 9️⃣null): Int
      }
      """,
      [
        (Code.invalidDefaultValue, "1️⃣"), (Code.invalidDefaultValue, "2️⃣"), (Code.invalidDefaultValue, "3️⃣"),
        (Code.invalidDefaultValue, "4️⃣"), (Code.invalidDefaultValue, "5️⃣"), (Code.invalidDefaultValue, "6️⃣"),
        (Code.invalidDefaultValue, "7️⃣"), (Code.invalidDefaultValue, "8️⃣"), (Code.invalidDefaultValue, "9️⃣"),
      ])
  }

  @Test func defaultValuesOfInputFieldsDirectivesAndAppSyncScalars() {
    expectDiagnostics(
      """
      type Order @model { id: ID! }
      directive @cached(ttl: Int = 1️⃣"60", scope: [String!] = "all") on FIELD_DEFINITION
      input Filter {
        at: AWSDateTime = 2️⃣"2026-12-02"
        day: AWSDate = "2026-12-02"
        stamp: AWSTimestamp = 3️⃣"1"
        json: AWSJSON = 4️⃣"{nope"
        id: ID = 42
        ok: Boolean = 5️⃣"true"
        nested: Filter = {id: "x", nested: {ok: true, again: {ok: 6️⃣1}}}
        again: Filter
        twice: Filter = {id: "a", 7️⃣id: "b"}
      }
      """,
      [
        (Code.invalidDefaultValue, "1️⃣"), (Code.invalidDefaultValue, "2️⃣"), (Code.invalidDefaultValue, "3️⃣"),
        (Code.invalidDefaultValue, "4️⃣"), (Code.invalidDefaultValue, "5️⃣"), (Code.invalidDefaultValue, "6️⃣"),
        (Code.invalidDefaultValue, "7️⃣"),
      ])
  }

  @Test func defaultValueMessagesNameThePlaceTheTypeAndTheReason() {
    let (result, _) = analyzeMarked(
      """
      type Order @model { id: ID! }
      enum Color { RED GREEN }
      input Page { size: Int! colors: [Color!] = [RED, "GREEN"] }
      directive @cached(ttl: Int = 3000000000) on FIELD_DEFINITION
      type Query { a(p: Page = {}, c: Color = REDD, n: [Int!]! = null): Int }
      """)
    #expect(
      result.diagnostics.map(\.message) == [
        "the default value of `Page.colors` is not a valid `[Color!]`: an enum value is written as a name, without quotes: `GREEN`",
        "the default value of argument `ttl` of `@cached` is not a valid `Int`: `3000000000` is outside the range of `Int`, a signed 32-bit integer (-2147483648 to 2147483647)",
        "the default value of argument `p` of `Query.a` is not a valid `Page`: the required field `size` of `Page` is missing",
        "the default value of argument `c` of `Query.a` is not a valid `Color`: `Color` has no value `REDD`; did you mean `RED`?",
        "the default value of argument `n` of `Query.a` is not a valid `[Int!]!`: `null` is not a value of the non-null type `[Int!]!`",
      ])
    #expect(
      result.diagnostics.first?.hint
        == "write a literal of type `[Color!]` (GraphQL spec §3.10 input coercion: a single value stands for a list of one), or remove the default"
    )
  }

  @Test func validDefaultsPass() {
    _ = analyzeClean(
      """
      type Order @model { id: ID! }
      enum Color { RED GREEN }
      input Page { size: Int! = 20 token: String colors: [Color!] = RED next: Page }
      directive @cached(ttl: Int = 60, scope: [String!] = "all") repeatable on FIELD_DEFINITION
      type Query {
        a(i: Int = -2147483648, f: Float = 3, g: Float = 1.5e3, id: ID = 7, s: String = null,
          l: [Int] = 1, p: Page = {}, q: Page = {size: 1, colors: [GREEN, RED], next: {size: 2}},
          t: AWSTimestamp = 1764640800, d: AWSDate = "2026-12-02"): Int
          @cached(ttl: 1) @cached(scope: ["x"])
      }
      """)
  }

  @Test func inputTypesWithoutFieldsAndCircularNonNullReferences() {
    expectDiagnostics(
      """
      type Order @model { id: ID! }
      input 1️⃣Empty
      type 2️⃣Bare
      interface 3️⃣Shape
      input Loop { 4️⃣loop: Loop! }
      input A { b: B! }
      input B { 5️⃣a: A! c: C! }
      input C { b: [B!]! d: C n: Int }
      input D { e: E! }
      input E { f: F! }
      input F { 6️⃣d: D! e: E }
      extend input Loop { 7️⃣again: Loop! }
      """,
      [
        (Code.typeWithoutFields, "1️⃣"), (Code.typeWithoutFields, "2️⃣"), (Code.typeWithoutFields, "3️⃣"),
        (Code.inputTypeCycle, "4️⃣"), (Code.inputTypeCycle, "5️⃣"), (Code.inputTypeCycle, "6️⃣"),
        (Code.inputTypeCycle, "7️⃣"),
      ])
  }

  @Test func cycleMessagesNameThePathAndTheHintAFieldToBreak() {
    let (result, _) = analyzeMarked(
      """
      type Order @model { id: ID! }
      input A { b: B! }
      input B { a: A! }
      input Empty
      """)
    #expect(
      result.diagnostics.map(\.message) == [
        "`B.a` makes input `A` require itself (A.b -> B.a -> A), so no finite value of it exists",
        "the input type `Empty` has no fields; GraphQL requires at least one",
      ])
    #expect(
      result.diagnostics.map(\.hint) == [
        "make one field of the cycle nullable or a list (`A.b: B` or `[B!]!`), so a value can end (GraphQL spec §3.10)",
        "add a field (GraphQL spec §3.10), or remove the type and the arguments that use it",
      ])
  }

  @Test func aLongChainOfInputTypesIsWalkedWithoutRecursion() throws {
    let count = 20_000
    var schema = "type Order @model { id: ID! }\n"
    for index in 0..<count {
      schema += "input I\(index) { next: I\((index + 1) % count)! }\n"
    }
    let result = SemanticAnalyzer.analyze(source: schema, fileName: "chain.graphql")
    #expect(result.diagnostics.map(\.code) == [Code.inputTypeCycle])
    #expect(result.diagnostics.first?.line == count + 1)
    // The path is cut in the middle: a message stays a line long.
    let message = try #require(result.diagnostics.first?.message)
    #expect(
      message.hasPrefix(
        "`I19999.next` makes input `I0` require itself (I0.next -> I1.next -> I2.next -> … 19996 more … -> I19999.next -> I0)"
      ))
  }

  @Test func reservedNamesOnArgumentsInputFieldsAndDirectives() {
    expectDiagnostics(
      """
      type Order @model { id: ID! }
      type Query { a(1️⃣__x: Int, _y: Int): Int }
      input I { 2️⃣__f: Int _g: Int }
      directive @3️⃣__d(4️⃣__a: Int) on FIELD_DEFINITION
      type Note { body(5️⃣__lang: String): String }
      """,
      [
        (Code.reservedName, "1️⃣"), (Code.reservedName, "2️⃣"), (Code.reservedName, "3️⃣"), (Code.reservedName, "4️⃣"),
        (Code.reservedName, "5️⃣"),
      ])
    let (result, _) = analyzeMarked("type Order @model { id: ID! }\ninput I { __f: Int }")
    #expect(
      result.diagnostics.map(\.message) == [
        "the input field name `__f` starts with `__`, which GraphQL reserves for introspection"
      ])
  }

  @Test func argumentTypesOfNonRootFieldsAndDirectivesAreInputTypes() {
    expectDiagnostics(
      """
      type Order @model { id: ID! label(locale: 1️⃣Locale, as: 2️⃣Order): String }
      type Note { body(format: 3️⃣Note, raw: 6️⃣Opaque): String }
      interface Named { name(x: 4️⃣Named): String }
      directive @cached(scope: 5️⃣Scope) on FIELD_DEFINITION
      scalar Opaque
      """,
      [
        (Code.unknownType, "1️⃣"), (Code.unsupportedFieldType, "2️⃣"), (Code.unsupportedFieldType, "3️⃣"),
        (Code.unsupportedFieldType, "6️⃣"), (Code.unsupportedFieldType, "4️⃣"), (Code.unknownType, "5️⃣"),
      ])
  }
}

/// `TypeSystemRule` agrees with graphql-core (`build_schema` and `assert_valid_schema`, the
/// local server's loader): each shape it refuses, graphql-core refuses too, and the edges it
/// accepts graphql-core accepts. (graphql-core 3.2 does not check default values; the emitted
/// regression schemas with valid defaults load in `APISchemaServerCheckTests`.)
@Suite struct TypeSystemRuleMatchesGraphQLCoreTests {
  /// Plain GraphQL (no Amplify directive, which graphql-core does not know) and the code
  /// modelgen reports for it; `nil`: both accept it.
  static let cases: [(sdl: String, code: DiagnosticCode?)] = [
    ("type Query { a(x: Int, x: String): Int }", ModelGenDiagnosticCode.duplicateArgument),
    ("input I { a: Int a: String } type Query { q(i: I): Int }", ModelGenDiagnosticCode.duplicateField),
    ("type Query { a: Int @deprecated @deprecated }", ModelGenDiagnosticCode.repeatedDirective),
    ("directive @once on FIELD_DEFINITION type Query { a: Int @once @once }", ModelGenDiagnosticCode.repeatedDirective),
    ("input I type Query { q(i: I): Int }", ModelGenDiagnosticCode.typeWithoutFields),
    ("type T type Query { t: T }", ModelGenDiagnosticCode.typeWithoutFields),
    ("input I { i: I! } type Query { q(i: I): Int }", ModelGenDiagnosticCode.inputTypeCycle),
    ("input A { b: B! } input B { a: A! } type Query { q(a: A): Int }", ModelGenDiagnosticCode.inputTypeCycle),
    ("type Query { a(__x: Int): Int }", ModelGenDiagnosticCode.reservedName),
    ("input I { __f: Int } type Query { q(i: I): Int }", ModelGenDiagnosticCode.reservedName),
    (
      "directive @d on FIELD_DEFINITION directive @d on OBJECT type Query { a: Int }",
      ModelGenDiagnosticCode.duplicateDirective
    ),
    ("directive @__d on FIELD_DEFINITION type Query { a: Int }", ModelGenDiagnosticCode.reservedName),
    ("type T { a: Int } input I { t: T } type Query { q(i: I): T }", ModelGenDiagnosticCode.unsupportedFieldType),
    ("input I { i: I } input J { j: [J!]! } type Query { q(i: I, j: J): Int }", nil),
    ("input A { b: B! } input B { a: A } type Query { q(a: A): Int }", nil),
    ("directive @r repeatable on FIELD_DEFINITION type Query { a: Int @r @r @deprecated }", nil),
    ("input I { n: Int! = 1 } type Query { q(i: I = {}, l: [Int] = 1, f: Float = 2): Int }", nil),
    // Issue 20: root type names, a schema without `Query`, directive uses.
    ("enum Query { A }", ModelGenDiagnosticCode.typeNameCollision),
    ("type Query { a: Int } scalar Mutation", ModelGenDiagnosticCode.typeNameCollision),
    ("type Mutation { a: Int }", ModelGenDiagnosticCode.missingQueryRoot),
    ("type Query { a(x: Int! @deprecated): Int }", ModelGenDiagnosticCode.deprecatedRequiredInput),
    ("input I { a: Int! @deprecated } type Query { q(i: I): Int }", ModelGenDiagnosticCode.deprecatedRequiredInput),
    ("type Query { a: Int @deprecated(why: \"x\") }", ModelGenDiagnosticCode.unknownArgument),
    ("type Query { a: Int @deprecated(reason: 1) }", ModelGenDiagnosticCode.invalidDirectiveArgument),
    ("type Query { a: Int @deprecated(reason: \"a\", reason: \"b\") }", ModelGenDiagnosticCode.repeatedDirective),
    ("directive @d(n: Int!) on FIELD_DEFINITION type Query { a: Int @d }", ModelGenDiagnosticCode.missingArgument),
    ("directive @d on OBJECT type Query { a: Int @d }", ModelGenDiagnosticCode.misplacedDirective),
    ("type Query { a(x: Int @deprecated, y: Int! = 1 @deprecated): Int @deprecated(reason: \"old\") }", nil),
    ("directive @d(n: Int!) on FIELD_DEFINITION | OBJECT type Query @d(n: 1) { a: Int @d(n: 2) }", nil),
    // Issue 20: interfaces, unions, `implements` (AbstractTypeRule) and operations named twice.
    (
      "interface N { id: ID! } type T implements N { x: Int } type Query { t: T }",
      ModelGenDiagnosticCode.invalidImplementation
    ),
    (
      "interface N { id: ID! } type T implements N { id: String } type Query { t: T }",
      ModelGenDiagnosticCode.invalidImplementation
    ),
    (
      "interface N { f(a: Int): Int } type T implements N { f: Int } type Query { t: T }",
      ModelGenDiagnosticCode.invalidImplementation
    ),
    (
      "interface N { f(a: Int): Int } type T implements N { f(a: ID): Int } type Query { t: T }",
      ModelGenDiagnosticCode.invalidImplementation
    ),
    (
      "interface N { f: Int } type T implements N { f(b: Int!): Int } type Query { t: T }",
      ModelGenDiagnosticCode.invalidImplementation
    ),
    (
      "interface A { id: ID! } interface B implements A { id: ID! } type T implements B { id: ID! } type Query { t: T }",
      ModelGenDiagnosticCode.invalidImplementation
    ),
    ("type T { a: Int } type Query implements T { t: T }", ModelGenDiagnosticCode.invalidImplementation),
    ("interface N { id: ID! } union U = N\ntype Query { u: U }", ModelGenDiagnosticCode.invalidUnionMember),
    ("type T { a: Int } union U = T | T\ntype Query { u: U }", ModelGenDiagnosticCode.invalidUnionMember),
    ("input I { a: Int } interface X { i: I } type Query { x: X }", ModelGenDiagnosticCode.unsupportedFieldType),
    ("schema { query: Query query: Query } type Query { a: Int }", ModelGenDiagnosticCode.repeatedRootOperation),
    (
      "interface N { id: ID! n(x: Int): [N] } type T implements N { id: ID! n(x: Int, y: Int): [T!]! } "
        + "union U = T\ntype Query implements N { id: ID! n(x: Int): [N] u: U t: T }",
      nil
    ),
  ]

  /// Prints one line per SDL of the JSON list in argv[1]: `OK`, or `ERR` and graphql-core's reason.
  static let script = """
    import json, sys
    from graphql import assert_valid_schema, build_schema
    for sdl in json.loads(sys.argv[1]):
        try:
            assert_valid_schema(build_schema(sdl))
            print("OK")
        except Exception as error:
            print("ERR " + " ".join(str(error).split()))
    """

  @Test func modelgenAndGraphQLCoreAgree() async throws {
    let sdls = Self.cases.map(\.sdl)
    let json = String(decoding: try JSONEncoder().encode(sdls), as: UTF8.self)
    let output = try await APISchemaServerCheckTests.runOffPool(["-c", Self.script, json])
    let verdicts = output.split(separator: "\n").map(String.init)
    try #require(verdicts.count == Self.cases.count, "\(output)")
    for (index, (sdl, code)) in Self.cases.enumerated() {
      let analysis = SemanticAnalyzer.analyze(source: sdl, fileName: "case.graphql")
      #expect(analysis.diagnostics.map(\.code) == (code.map { [$0] } ?? []), "\(sdl): \(analysis.diagnostics)")
      #expect(verdicts[index].hasPrefix(code == nil ? "OK" : "ERR "), "graphql-core on \(sdl): \(verdicts[index])")
    }
  }
}

/// The order in which the transformers after the model transformer add their types to the API
/// schema (amplify-category-api's transformer chain: model, primary key, index, hasMany, hasOne,
/// manyToMany, belongsTo, default value, auth). The index transformer's `transformSchema` adds,
/// per `@index` in document order, the filter input and connection of a model without a list query
/// and then `addKeyConditionInputs`; the hasMany transformer's `extendTypeWithConnection` then
/// adds, per `@hasMany` in document order, the child's connection and filter input when no query
/// made them; hasOne, belongsTo, manyToMany (whose join models always have list queries) and auth
/// add fields and directives to types already placed, no type of their own.
@Suite struct TransformerTypeOrderTests {
  @Test func indexTypesComeBeforeRelationTypesEachInDirectiveOrder() throws {
    let graph = try #require(
      analyzeClean(
        """
        type Blog @model {
          id: ID!
          posts: [Post] @hasMany
          notes: [Note] @hasMany(indexName: "byBlog", fields: ["id"])
        }
        type Shelf @model { id: ID! drafts: [Draft] @hasMany }
        type Draft @model(queries: null) { id: ID! body: String }
        type Post @model(queries: null) { id: ID! title: String! }
        type Note @model(queries: null) {
          id: ID!
          blogID: ID! @index(name: "byBlog", sortKeyFields: ["day"])
          day: String!
        }
        """))
    let text = APISchemaEmitter.render(graph, sourceFileName: "order.graphql")
    let names = text.split(separator: "\n").compactMap { line -> String? in
      let parts = line.split(separator: " ")
      guard parts.count >= 2, ["type", "input", "enum"].contains(parts[0]) else { return nil }
      return String(parts[1])
    }
    let tail = Array(names.drop { $0 != "ModelSubscriptionNoteFilterInput" })
    #expect(
      tail == [
        "ModelSubscriptionNoteFilterInput",
        // Index transformer (`Note.blogID @index`, with the default query field).
        "ModelNoteFilterInput", "ModelNoteConnection", "ModelStringKeyConditionInput",
        // hasMany transformer: `Blog.posts`, `Blog.notes` (placed already), `Shelf.drafts`.
        "ModelPostConnection", "ModelPostFilterInput", "ModelDraftConnection", "ModelDraftFilterInput",
      ])
  }
}
