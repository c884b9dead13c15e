import Foundation
import LazyModel
import Testing

/// One in-flight load shared by many concurrent callers (SPEC §5).
@Suite struct ConcurrencyTests {
  static let callers = 1_000

  @Test func thousandConcurrentGetCallsLoadOnce() async throws {
    let provider = CountingProvider([Post(id: "p1", title: "Hello")], delay: .milliseconds(50))
    let reference = LazyReference(identifiers: Post.key("p1"), provider: provider)
    let titles = try await withThrowingTaskGroup(of: String?.self) { group in
      for _ in 0..<Self.callers { group.addTask { try await reference.get()?.title } }
      var titles: [String?] = []
      for try await title in group { titles.append(title) }
      return titles
    }
    #expect(titles.count == Self.callers)
    #expect(titles.allSatisfy { $0 == "Hello" })
    #expect(provider.loads == 1)
    #expect(reference.isLoaded)
  }

  @Test func thousandConcurrentFetchCallsLoadOnce() async throws {
    let comments = (0..<5).map { Comment(id: "c\($0)", content: "") }
    let provider = PagedProvider(pages: [comments], delay: .milliseconds(50))
    let list = LazyList(
      associatedIdentifiers: [.string("p1")], associatedFields: ["postID"], provider: provider)
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<Self.callers { group.addTask { try await list.fetch().count } }
      var counts: [Int] = []
      for try await count in group { counts.append(count) }
      return counts
    }
    #expect(counts.count == Self.callers)
    #expect(counts.allSatisfy { $0 == 5 })
    #expect(provider.calls == [nil])
  }

  @Test func concurrentCallersShareOneFailureAndAtMostOneRetry() async throws {
    let provider = CountingProvider(
      [Post(id: "p1", title: "Hello")], delay: .milliseconds(50), failures: 1)
    let reference = LazyReference(identifiers: Post.key("p1"), provider: provider)
    let outcomes = await withTaskGroup(of: String.self) { group in
      for _ in 0..<100 {
        group.addTask {
          do {
            return try await reference.get()?.title ?? "nil"
          } catch {
            return error is InjectedFailure ? "failure" : "other error"
          }
        }
      }
      var outcomes: [String: Int] = [:]
      for await outcome in group { outcomes[outcome, default: 0] += 1 }
      return outcomes
    }
    // Callers that joined the first load see its failure; a caller arriving after it failed starts
    // the one retry that everyone after it shares. Whatever the timing: one failed load, at most one
    // successful one, no other outcome.
    let failures = outcomes["failure", default: 0]
    let successes = outcomes["Hello", default: 0]
    #expect(failures >= 1)
    #expect(failures + successes == 100)
    #expect(provider.loads == (successes > 0 ? 2 : 1))
    #expect(try await reference.get()?.title == "Hello")
    #expect(provider.loads == 2)
  }

  @Test func stateReadsDuringLoadsAreSafe() async throws {
    let provider = CountingProvider([Post(id: "p1", title: "Hello")], delay: .milliseconds(10))
    let reference = LazyReference(identifiers: Post.key("p1"), provider: provider)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<200 {
        group.addTask {
          if index.isMultiple(of: 2) {
            _ = try await reference.get()
          } else {
            _ = reference.state
            _ = reference.identifiers
            _ = try JSONEncoder().encode(reference)
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(provider.loads == 1)
    #expect(try jsonText(reference) == #"{"id":"p1","title":"Hello"}"#)
  }
}
