import GraphQLSDL
import Testing

/// The parser reports every error of a file and keeps every definition it can.
@Suite struct RecoveryTests {
  @Test func severalErrorsInOneFileAreAllReportedAndGoodDefinitionsKept() {
    let source = MarkedSource(
      """
      type Post @model {
        id: ID!
        title 1️⃣String!
        rating: Int!2️⃣!
        comments: [Comment] @hasMany(indexName: "byPost", fields: ["id"])
      }

      3️⃣typ Broken { a: Int }

      enum Status { ACTIVE 4️⃣false ARCHIVED }

      type Comment @model {
        id: ID!
        postID: ID! @index(name: 5️⃣$name)
        content: String!
      }

      6️⃣query Q { posts { id } }

      type Last { ok: Boolean }
      """)
    let result = parse(source.text)
    #expect(
      result.diagnostics.map { "\($0.code) \($0.line):\($0.column)" } == [
        "SDL023 \(source.position("1️⃣"))", "SDL043 \(source.position("2️⃣"))", "SDL020 \(source.position("3️⃣"))",
        "SDL034 \(source.position("4️⃣"))", "SDL027 \(source.position("5️⃣"))", "SDL021 \(source.position("6️⃣"))",
      ])
    #expect(result.document.definitions.compactMap { $0.name?.value } == ["Post", "Status", "Comment", "Last"])
    let post = result.document.objectTypes[0]
    #expect(post.fields.map(\.name.value) == ["id", "title", "rating", "comments"])
    #expect(post.fields[1].type.description == "String!")
    #expect(result.document.enumTypes[0].values.map(\.name.value) == ["ACTIVE", "ARCHIVED"])
    #expect(result.document.objectTypes[1].fields.map(\.name.value) == ["id", "content"])
    #expect(result.hasErrors)
  }

  @Test func missingClosingBraceKeepsTheFieldsAndTheNextType() {
    let source = MarkedSource("type A {\n  a: Int\n  b: String\n1️⃣type B {\n  c: Int\n}\n")
    let result = parse(source.text)
    #expect(result.diagnostics.map { "\($0.code) \($0.line):\($0.column)" } == ["SDL026 \(source.position("1️⃣"))"])
    #expect(result.document.objectTypes.map(\.name.value) == ["A", "B"])
    #expect(result.document.objectTypes[0].fields.map(\.name.value) == ["a", "b"])
  }

  @Test func fieldsNamedLikeKeywordsDoNotEndTheFieldList() {
    let result = parse("type A {\n  type: String\n  input: Int\n  enum: Status\n}")
    #expect(result.diagnostics.isEmpty)
    #expect(result.document.objectTypes[0].fields.count == 3)
  }

  @Test func errorInsideArgumentsRecoversAtTheNextField() {
    let result = parse("type A {\n  f(a: Int = [1, 2): Int\n  g: String\n}\ntype B { x: Int }")
    #expect(result.diagnostics.map(\.code) == [SDLDiagnosticCode.expectedValue])
    #expect(result.document.objectTypes.map(\.name.value) == ["A", "B"])
    #expect(result.document.objectTypes[0].fields.map(\.name.value) == ["g"])
  }

  @Test func executableDefinitionsAreSkippedWhole() {
    let result = parse(
      "query Q($id: ID!) { post(id: $id) { type input enum } }\nfragment F on Post { id }\nscalar After")
    #expect(
      result.diagnostics.map(\.code) == [
        SDLDiagnosticCode.executableDefinition, SDLDiagnosticCode.executableDefinition,
      ])
    #expect(result.document.definitions.compactMap { $0.name?.value } == ["After"])
  }

  @Test func diagnosticsStopAtTheConfiguredLimit() {
    let text = String(repeating: "% ", count: 1_000) + "\nscalar S"
    let result = SDLParser.parse(text, fileName: "many.graphql", options: ParseOptions(maximumDiagnosticCount: 20))
    #expect(result.diagnostics.count == 21)
    #expect(result.diagnostics.last?.code == SDLDiagnosticCode.tooManyErrors)
    #expect(result.diagnostics.dropLast().allSatisfy { $0.code == SDLDiagnosticCode.unexpectedCharacter })
  }

  @Test func diagnosticsAreInSourceOrder() {
    let result = parse("type A { a 1 }\nscalar B @d(x: \"\\q\")\ntype C { c: [Int }")
    let offsets = result.diagnostics.map(\.range.start.offset)
    #expect(offsets == offsets.sorted())
    #expect(result.diagnostics.count == 3)
  }
}

@Suite struct NonASCIINameTests {
  @Test func nameWithANonASCIILetterStaysOneNameWithAnExactRange() {
    let source = MarkedSource("type 1️⃣Caf2️⃣é3️⃣ { a: Int }")
    let result = parse(source.text)
    #expect(result.diagnostics.map { "\($0.code) \($0.line):\($0.column)" } == ["SDL001 \(source.position("2️⃣"))"])
    let name = result.document.definitions.first?.name
    #expect(name?.value == "Café")
    #expect(name.map { "\($0.range.start.line):\($0.range.start.column)" } == source.position("1️⃣"))
    #expect(name.map { "\($0.range.end.line):\($0.range.end.column)" } == source.position("3️⃣"))
    #expect(name.map { result.source.location(atOffset: $0.range.end.offset) == $0.range.end } == true)
  }
}
