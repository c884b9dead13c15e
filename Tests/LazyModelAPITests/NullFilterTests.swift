import Foundation
import LazyModel
import LazyModelAPI
import SwiftKeywordsModels
import Testing

/// The filters on a field that is null in some rows, over HTTP. The DataStore's
/// `QueryTests.nullFieldsLikeTheAPI` asserts the same rows for the same predicates: a predicate
/// selects the same models from either provider.
@Suite("Filters on a null field, over HTTP")
struct NullFilterTests {
  static let expected: [(String, QueryPredicate<SelfType>, [String])] = {
    let value = SelfType.keys.identifierValue
    return [
      ("ne", value.ne("abc"), ["e", "n"]),
      ("!eq", !value.eq("abc"), ["e", "n"]),
      ("notContains", value.notContains("z"), ["a", "e", "n"]),
      ("!beginsWith", !value.beginsWith("a"), ["e", "n"]),
      ("beginsWith empty", value.beginsWith(""), ["a", "e"]),
      ("contains", value.contains("b"), ["a"]),
      ("empty or", .or([]), []),
      ("not empty or", !.or([]), ["a", "e", "n"]),
      ("empty and", .and([]), ["a", "e", "n"]),
      ("value or empty or", value.eq("abc") || .or([]), ["a"]),
    ]
  }()

  @Test("ne, !eq, notContains, !beginsWith match the null row; beginsWith(\"\") the empty one")
  func nullFieldFilters() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/swift-keywords/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server, log: RequestLog())
    for (key, value) in [("n", nil), ("a", "abc"), ("e", "")] as [(String, String?)] {
      try await client.create(SelfType(default: key, for: "x", identifierValue: value))
    }
    for (name, predicate, ids) in Self.expected {
      let page = try await client.send(try ModelQueries.list(SelfType.self, where: predicate))
      #expect(page.items.map(\.default).sorted() == ids, "\(name)")
    }
  }
}
