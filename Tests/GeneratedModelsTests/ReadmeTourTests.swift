import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Synchronization
import Testing

/// The README tour (`Examples/Tour/main.swift`, run by `TourRunTests`) step by step, with the
/// values and the query counts its comments promise asserted through `traceSQL`.
@Suite struct ReadmeTourTests {
  @Test func tourOnASQLiteFile() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ReadmeTour-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("tour.sqlite")
    let log = StatementLog()

    let store = try DataStore(fileURL: url, registry: Models.registry, traceSQL: log.hook)
    let post = Post4V2(title: "Hello")
    try await store.save(post)
    try await store.save(Comment4V2(content: "First!", post: post))

    let comments = try await store.query(Comment4V2.self, where: Comment4V2.keys.content.beginsWith("F"))
    let comment = try #require(comments.first)
    #expect(comments.count == 1)
    guard case .notLoaded(let identifiers) = comment.postReference.state else {
      Issue.record("a queried comment's post must start not loaded")
      return
    }
    #expect(identifiers == [IdentifierComponent(name: "id", value: .string(post.id))])

    log.clear()
    let loaded = try await comment.post
    #expect(loaded?.id == post.id)
    #expect(loaded?.title == "Hello")
    #expect(log.queries.count == 1)
    #expect(log.queries.first?.contains("WHERE") == true)
    _ = try await comment.post
    #expect(log.queries.count == 1, "a loaded reference is not loaded again")

    let list = try #require(loaded?.comments)
    #expect(throws: LazyModelError.self) { try list.elements }
    let first = try await list.fetch()
    #expect(first.map(\.content) == ["First!"])
    #expect(list.hasNextPage == false)

    let second = Comment4V2(content: "Second", post: post)
    try await store.save(second)
    let all = try await store.query(Comment4V2.self)
    log.clear()
    let posts = try await store.loadReferences(Comment4V2.keys.post, of: all, as: Post4V2.self)
    #expect(posts.map { $0?.id } == [post.id, post.id])
    #expect(log.queries.count == 1, "two comments of one post cost one query")

    let fresh = try await store.query(Comment4V2.self)
    log.clear()
    let same = try await LazyReference.loadAll(fresh.map(\.postReference))
    #expect(same.map { $0?.id } == [post.id, post.id])
    #expect(log.queries.count == 1, "loadAll batches the references of one store into one query")
  }
}

/// The SQL statements a store sends (through `DataStore(traceSQL:)`), without transaction control.
private final class StatementLog: Sendable {
  private let statements = Mutex<[String]>([])

  var hook: @Sendable (String) -> Void { { [self] sql in statements.withLock { $0.append(sql) } } }

  func clear() { statements.withLock { $0.removeAll() } }

  var queries: [String] {
    statements.withLock { $0 }.filter { sql in
      !["BEGIN", "COMMIT", "ROLLBACK", "PRAGMA", "SAVEPOINT", "RELEASE"].contains { sql.hasPrefix($0) }
    }
  }
}
