import Foundation
import LazyModel
import ScalarsEnumsEmbeddedModels
import SeedPostCommentModels
import SyncBlogModels
import Testing

@testable import LazyModelAPI

/// `GraphQLValueEncoder` (a mutation's input without JSON text) gives what `JSONEncoder` and
/// `GraphQLValue(json:)` give, or `nil` where it does not reproduce them.
@Suite("GraphQLValueEncoder: the value JSONEncoder's text parses as")
struct GraphQLValueEncoderTests {
  /// The text path `ModelMutations.input` took before.
  private func viaText<T: Encodable>(_ value: T) throws -> GraphQLValue {
    try JSONDecoder().decode(GraphQLValue.self, from: JSONEncoder().encode(value))
  }

  @Test("models with every scalar, enums, embedded values, lists, references and nil fields")
  func models() throws {
    let sample = Sample(
      id: "s1", text: "tab\tand \"quotes\" é", email: "a@example.com", json: #"{"k":[1,2]}"#,
      url: "https://example.com/x?y=1", phone: "+14155550100", ip: "127.0.0.1", count: -3,
      timestamp: 1_700_000_000, ratio: 0.25, flag: false,
      date: try Temporal.Date(iso8601String: "2026-01-31"),
      time: try Temporal.Time(iso8601String: "23:59:59.999"),
      dateTime: try Temporal.DateTime(iso8601String: "2026-01-31T23:59:59+01:00"),
      color: .darkGreen, colors: [.red, .darkGreen], address: Address(street: "Main 1", city: nil, tags: ["a"]),
      addresses: [Address(street: "Side 2"), nil])
    #expect(try GraphQLValueEncoder.encode(sample) == viaText(sample))
    let integral = Sample(id: "s2", ratio: 3.0, colors: [])
    #expect(try GraphQLValueEncoder.encode(integral) == viaText(integral))
    #expect(GraphQLValueEncoder.encode(integral)?["ratio"] == .int(3))
    let post = Post(id: "p", title: "t", rating: 3, tags: ["a", "b"])
    #expect(try GraphQLValueEncoder.encode(post) == viaText(post))
    let comment = Comment4V2(id: "c", content: "x", post: Post4V2(id: "p", title: "t"))
    #expect(try GraphQLValueEncoder.encode(comment) == viaText(comment))
    let orphan = Comment4V2(id: "c", content: "x", postIdentifier: .init(id: "p9"))
    #expect(try GraphQLValueEncoder.encode(orphan) == viaText(orphan))
  }

  private struct Numbers: Encodable {
    var small: Int8 = -8
    var unsigned: UInt32 = 7
    var float: Float = 0.1
    var wholeFloat: Float = 2
    var double: Double = 1e-7
    var list: [[Int?]] = [[1, nil], []]
    var flag = true
    var nested: [String: [String]] = ["k": ["v"]]
  }

  @Test("numbers keep the kind and digits the text gives; nested lists and dictionaries")
  func numbers() throws {
    let value = try #require(GraphQLValueEncoder.encode(Numbers()))
    #expect(value == (try viaText(Numbers())))
    #expect(value["float"] == .double(0.1) && value["wholeFloat"] == .int(2))
  }

  private struct Special<T: Encodable>: Encodable { let value: T }

  @Test("what JSONEncoder treats specially or refuses goes the text path (nil)")
  func unsupported() {
    #expect(GraphQLValueEncoder.encode(Special(value: Data([1, 2]))) == nil)
    #expect(GraphQLValueEncoder.encode(Special(value: Date(timeIntervalSince1970: 0))) == nil)
    #expect(GraphQLValueEncoder.encode(Special(value: URL(string: "https://example.com")!)) == nil)
    #expect(GraphQLValueEncoder.encode(Special(value: Decimal(1))) == nil)
    #expect(GraphQLValueEncoder.encode(Special(value: Double.nan)) == nil)
    #expect(GraphQLValueEncoder.encode(Special(value: UInt64.max)) == nil)
  }
}
