import Foundation
import LazyModel
import RegressionEnumValuesSwiftKeywords
import Testing

@Suite("Generated regression: enum-values-swift-keywords")
struct RegressionEnumValuesSwiftKeywordsTests {
  @Test func keywordCasesKeepTheirRawGraphQLValues() {
    #expect(Visibility.allCases == [.public, .private, .default])
    #expect(Visibility.allCases.map(\.rawValue) == ["public", "private", "default"])
    #expect(Visibility.default.keyValue == .string("default"))
    #expect(Visibility(keyValue: .string("private")) == .private)
  }

  @Test func postsRoundTripEveryKeywordCase() throws {
    for visibility in Visibility.allCases {
      let post = Post(id: "p", title: "t", visibility: visibility)
      let json = try JSON.encode(post)
      #expect(json.contains(#""visibility":"\#(visibility.rawValue)""#))
      #expect(try JSON.decode(Post.self, json).visibility == visibility)
    }
    #expect(Post.schema.field(named: "visibility")?.type == .enumeration("Visibility"))
  }
}
