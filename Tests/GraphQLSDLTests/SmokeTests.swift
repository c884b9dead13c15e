import GraphQLSDL
import Testing

@Test func smoke() throws {
  let text = """
    # comment
    \"\"\"
      Post doc
        indented
    \"\"\"
    type Post4V2 @model @auth(rules: [{allow: public}]) {
      id: ID!
      title: String!
      comments(limit: Int = 10): [Comment4V2] @hasMany(indexName: "byPost4", fields: ["id"])
    }
    type Bad {
      a String
      b: [Int
      c: Int!!
    }
    enum E { A B true }
    query { a }
    directive @d(a: Int) repeatable on FIELD_DEFINTION | OBJECT
    """
  let result = SDLParser.parse(text, fileName: "s.graphql")
  print(result.renderedDiagnostics)
  print(SDLPrinter.print(result.document))
  let again = SDLParser.parse(SDLPrinter.print(result.document))
  #expect(again.document.withSourceRangesErased() == result.document.withSourceRangesErased())
}
