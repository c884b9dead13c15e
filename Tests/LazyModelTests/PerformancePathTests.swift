import Foundation
import LazyModel
import Testing

/// The fast paths added for decoding many rows give the same results as the general ones.
@Suite struct PerformancePathTests {
  let posts = (1...4).map { Post(id: "p\($0)", title: "T\($0)") }

  @Test func sharedProviderReferencesFormOneBatchWithPlainOnes() async throws {
    let provider = CountingProvider(posts)
    let shared = SharedModelProvider<Post>(provider)
    let references = [
      LazyReference(identifiers: Post.key("p1"), sharedProvider: shared),
      LazyReference(identifiers: Post.key("p2"), sharedProvider: shared),
      LazyReference(identifiers: Post.key("p1"), sharedProvider: shared),
      LazyReference(identifiers: Post.key("p3"), provider: provider),
    ]
    let models = try await LazyReference.loadAll(references)
    #expect(models.map { $0?.title } == ["T1", "T2", "T1", "T3"])
    #expect(provider.batches == [[Post.key("p1"), Post.key("p2"), Post.key("p3")]])
    #expect(references.allSatisfy { $0.isLoaded })
  }

  @Test func concurrentGetsOfASharedProviderReferenceShareOneLoad() async throws {
    let provider = CountingProvider(posts)
    let reference = LazyReference(
      identifiers: Post.key("p2"), sharedProvider: SharedModelProvider<Post>(provider))
    let titles = try await withThrowingTaskGroup(of: String?.self) { group in
      for _ in 0..<20 { group.addTask { try await reference.get()?.title } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(titles == Array(repeating: "T2", count: 20))
    #expect(provider.loads == 1)
    #expect(reference.identifiers == Post.key("p2"))
  }

  @Test(
    arguments: [
      ("2024-02-29T23:59:59.999Z", 2024, 2, 29, 23, 59, 59, 999_000_000),
      ("1970-01-01T00:00:00.000Z", 1970, 1, 1, 0, 0, 0, 0),
      ("0000-12-31T12:30:05.010Z", 0, 12, 31, 12, 30, 5, 10_000_000),
    ] as [(String, Int, Int, Int, Int, Int, Int, Int)])
  func commonDateTimeForm(
    text: String, year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
    nanosecond: Int
  ) throws {
    let value = try Temporal.DateTime(iso8601String: text)
    #expect(value.iso8601String == text)
    #expect(value.date.iso8601String == String(text.prefix(10)))
    #expect(value.date.year == year && value.date.month == month && value.date.day == day)
    #expect(value.hour == hour && value.minute == minute && value.second == second)
    #expect(value.nanosecond == nanosecond && value.utcOffset == 0)
    #expect(try Temporal.DateTime(value.foundationDate) == value)
  }

  @Test(arguments: [
    "2023-02-29T00:00:00.000Z", "2024-13-01T00:00:00.000Z", "2024-01-00T00:00:00.000Z",
    "2024-01-01T24:00:00.000Z", "2024-01-01T00:60:00.000Z", "2024-01-01T00:00:60.000Z",
    "2024-01-01T00:00:00.00aZ", "2024-01-01t00:00:00.000Z", "2024-01-01T00:00:00.000z",
    "2024-01-01T00:00:00,000Z", "2024-01-01T00:00:00.000+",
  ])
  func invalidTextOfTheCommonLengthIsRejected(text: String) {
    #expect(throws: TemporalError(scalar: "AWSDateTime", text: text)) {
      try Temporal.DateTime(iso8601String: text)
    }
  }

  @Test func otherDateTimeFormsStillParse() throws {
    let value = try Temporal.DateTime(iso8601String: "-0044-03-15T12:00:00.5+05:30")
    #expect(value.date.iso8601String == "-0044-03-15")
    #expect(value.date.year == -44 && value.nanosecond == 500_000_000)
    #expect(value.utcOffset == 19_800)
  }
}
