import Foundation
import GraphQLSDL
import Testing

/// A schema that uses every construct of the type-system grammar.
let kitchenSink = #"""
  # Comments are not part of the AST and are not printed.
  """
  The kitchen sink: every construct of the type-system grammar.
  """
  schema @link(url: "https://specs.example/v1", import: ["@key"]) {
    query: Query
    mutation: Mutation
  }

  extend schema @tag(name: "extended") {
    subscription: Subscription
  }

  "An ISO-8601 date-time."
  scalar DateTime @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")

  extend scalar DateTime @tag(name: "time")

  """
      Indented first line is kept.
    Second line.
      Third line, indented.
  """
  interface Node {
    id: ID!
  }

  interface Resource implements Node & Timestamped @tag(name: "r") {
    id: ID!
    url(
      "The format to render."
      format: UrlFormat = ABSOLUTE
      "Extra query items."
      query: [QueryItem!] = [{name: "a", value: "1"}, {name: "b", value: null}]
    ): String @deprecated(reason: "Use links.")
  }

  extend interface Resource @tag(name: "ext") {
    size: Int
  }

  type Post implements Node & Resource @model(queries: null, timestamps: {createdAt: "created", updatedAt: "updated"}) @auth(rules: [{allow: owner, operations: [create, read]}, {allow: groups, groups: ["Admin"]}, {allow: public, provider: apiKey}]) {
    id: ID! @primaryKey(sortKeyFields: ["title"])
    "The title, quoted: \"x\" \\ \/ \b\f\n\r\t \u00e9 \u{1F600} 日本 \u0001"
    title: String!
    """
    A block description with "quotes" and \""" triple quotes.
    """
    body: String
    """  leading spaces kept"""
    slug: String
    """ends with a quote"
    """
    quoted: String
    rating(scale: Float = -1.5e-3, round: Boolean = true, mode: RoundingMode, limit: Int = -42): Float
    matrix: [[Int!]!]
    comments: [Comment] @hasMany(indexName: "byPost", fields: ["id"])
    empty(list: [Int] = [], object: Filter = {}): Boolean
  }

  extend type Post implements Searchable @searchable {
    score: Float
  }

  extend type Post {
    extra: String
  }

  "A union with a leading pipe."
  union SearchResult @tag(name: "u") = | Post | Comment

  union Bare

  extend union SearchResult = Video | Photo

  enum RoundingMode @tag(name: "e") {
    "Round up."
    UP
    DOWN @deprecated
    HALF_EVEN
  }

  extend enum RoundingMode {
    CEILING
  }

  input Filter @oneOf {
    "Field name"
    field: String! = "id"
    and: [Filter!]
    nested: Filter = {field: "x", and: [{field: "y"}], ok: true, none: null, kind: EXACT, n: 1, f: 2.5}
  }

  extend input Filter {
    not: Filter
  }

  extend input Filter @tag(name: "i")

  """
  Marks a key.
  """
  directive @primaryKey(sortKeyFields: [String!] = [], "why" reason: String) repeatable on FIELD_DEFINITION | ARGUMENT_DEFINITION

  directive @everywhere on QUERY | MUTATION | SUBSCRIPTION | FIELD | FRAGMENT_DEFINITION | FRAGMENT_SPREAD | INLINE_FRAGMENT | VARIABLE_DEFINITION | SCHEMA | SCALAR | OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | INTERFACE | UNION | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION
  """#

@Suite struct RoundTripTests {
  @Test func kitchenSinkPrintsAndParsesBackToAnEqualDocument() {
    let original = parseClean(kitchenSink)
    #expect(original.definitions.count == 20)
    let printed = SDLPrinter.print(original)
    let reparsed = parseClean(printed)
    #expect(reparsed.withSourceRangesErased() == original.withSourceRangesErased())
    #expect(SDLPrinter.print(reparsed) == printed)
  }

  @Test func kitchenSinkStringsKeepTheirValues() {
    let document = parseClean(kitchenSink)
    guard case .objectType(let post) = document.definitions.first(where: { $0.name?.value == "Post" }) else {
      Issue.record("expected Post")
      return
    }
    let descriptions = post.fields.prefix(5).map { $0.description?.value }
    #expect(descriptions[0] == nil)
    #expect(descriptions[1] == "The title, quoted: \"x\" \\ / \u{8}\u{C}\n\r\t é 😀 日本 \u{1}")
    #expect(descriptions[2] == #"A block description with "quotes" and """ triple quotes."#)
    #expect(descriptions[3] == "  leading spaces kept")
    #expect(descriptions[4] == "ends with a quote\"")
    guard case .interfaceType(let node) = document.definitions[4] else {
      Issue.record("expected Node")
      return
    }
    #expect(node.description?.value == "  Indented first line is kept.\nSecond line.\n  Third line, indented.")
  }

  @Test func printerWritesCanonicalSDL() {
    let document = parseClean(
      """
      type   Post @model   @auth(rules:[{allow:public}]){id:ID! ,"t" title:String!
      tags(first:Int=10,after:String):[String!]!}
      enum E{A,B}
      union U=|A|B
      directive @d(a:Int=1)repeatable on OBJECT|FIELD_DEFINITION
      extend schema{query:Q}
      """)
    #expect(
      SDLPrinter.print(document) == """
        type Post @model @auth(rules: [{allow: public}]) {
          id: ID!
          "t"
          title: String!
          tags(first: Int = 10, after: String): [String!]!
        }

        enum E {
          A
          B
        }

        union U = A | B

        directive @d(a: Int = 1) repeatable on OBJECT | FIELD_DEFINITION

        extend schema {
          query: Q
        }

        """)
    #expect(SDLPrinter.print(document.objectTypes[0].directives[1]) == "@auth(rules: [{allow: public}])")
    #expect(
      SDLPrinter.print(ConstValue.list([.null(range: .zero), .boolean(false, range: .zero)], range: .zero))
        == "[null, false]")
  }

  @Test func everySchemaInTheRepositoryRoundTrips() throws {
    let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Schemas")
    let files =
      FileManager.default.enumerator(at: schemas, includingPropertiesForKeys: nil)?
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "graphql" } ?? []
    #expect(!files.isEmpty)
    for file in files {
      let result = try SDLParser.parse(contentsOf: file)
      guard !result.hasErrors else { continue }  // syntax-error fixtures belong to other tests
      let reparsed = SDLParser.parse(SDLPrinter.print(result.document))
      #expect(reparsed.diagnostics.isEmpty, "\(file.lastPathComponent)")
      #expect(
        reparsed.document.withSourceRangesErased() == result.document.withSourceRangesErased(),
        "\(file.lastPathComponent)")
    }
  }
}
