import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

@Suite("Rendering: safe names")
struct RenderingNamesTests {
  @Test func everyKeywordIsEscaped() {
    for keyword in SwiftNames.keywords {
      #expect(SwiftNames.escaped(keyword) == "`\(keyword)`")
    }
    #expect(SwiftNames.escaped("post") == "post")
  }

  @Test func argumentLabelsAreBareExceptInoutVarLet() {
    #expect(SwiftNames.argumentLabel("default") == "default")
    #expect(SwiftNames.argumentLabel("for") == "for")
    #expect(SwiftNames.argumentLabel("inout") == "`inout`")
    #expect(SwiftNames.argumentLabel("var") == "`var`")
    #expect(SwiftNames.argumentLabel("let") == "`let`")
  }

  @Test func enumCasesAreLowerCamelAndKeepAValidName() {
    #expect(SwiftNames.caseName("LOW") == "low")
    #expect(SwiftNames.caseName("IN_PROGRESS") == "inProgress")
    #expect(SwiftNames.caseName("HTTP2_ONLY") == "http2Only")
    #expect(SwiftNames.caseName("public") == "public")
    #expect(SwiftNames.caseName("Type") == "type")
    #expect(SwiftNames.caseName("Self") == "selfValue")
    #expect(SwiftNames.caseName("self") == "selfValue")
    #expect(SwiftNames.caseName("inProgress") == "inProgress")
  }

  @Test func propertiesAreLowerFirstAndAvoidUnusableAndGeneratedNames() {
    #expect(SwiftNames.propertyName("Break") == "break")
    #expect(SwiftNames.propertyName("self") == "selfValue")
    #expect(SwiftNames.propertyName("identifier") == "identifierValue")
    #expect(SwiftNames.propertyName("postID") == "postID")
    #expect(SwiftNames.codingKeyCase(forProperty: "Type") == "TypeValue")
    #expect(SwiftNames.codingKeyCase(forProperty: "type") == "type")
  }

  @Test func typesAreUpperFirstAndAvoidNamesTheGeneratedCodeUses() {
    #expect(SwiftNames.typeName("post") == "Post")
    #expect(SwiftNames.typeName("Model") == "ModelType")
    #expect(SwiftNames.typeName("String") == "StringType")
    #expect(SwiftNames.typeName("Identifier") == "IdentifierType")
    #expect(SwiftNames.typeName("Type") == "TypeType")
    #expect(SwiftNames.typeName("Break") == "Break")
  }

  @Test func collisionsGetTheSmallestFreeSuffix() {
    #expect(SwiftNames.uniqued(["a", "a", "b", "a"], taken: ["b"]) == ["a", "a2", "b2", "a3"])
  }

  @Test func stringLiteralsEscapeQuotesBackslashesAndControls() {
    #expect(SwiftNames.stringLiteral("a\"b\\c\nd\u{1}") == "\"a\\\"b\\\\c\\nd\\u{1}\"")
  }

  @Test func longCallsWrapLikeSwiftFormat() {
    let short = SwiftLayout.call("f(", ["a", "b"], indent: 4)
    #expect(short == "f(a, b)")
    let long = SwiftLayout.call(
      "comments = try values.decodeLazyList(",
      [
        "Comment4V2.self", "forKey: .comments", "associatedFields: [\"postID\"]",
        "parent: Identifier(id: id).components", "decoder: decoder",
      ],
      indent: 4)
    #expect(
      long == """
        comments = try values.decodeLazyList(
              Comment4V2.self, forKey: .comments, associatedFields: ["postID"],
              parent: Identifier(id: id).components, decoder: decoder)
        """)
  }
}
