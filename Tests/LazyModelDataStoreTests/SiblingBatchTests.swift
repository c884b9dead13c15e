import Foundation
import LazyModel
import LazyModelDataStore
import RegressionHasOneBelongsToCompositeKeys
import Testing

@testable import RegressionHasOneDanglingForeignKey
@testable import SeedPostCommentModels

/// Issue 11: the first lazy load of a `@belongsTo`/`@hasOne` reference of a query's result reads
/// the targets of all that result's references in one batch; the answers are those of the
/// unbatched path (one primary-key lookup per reference), on real SQLite files and in memory.
@Suite("Sibling batches for lazy references")
struct SiblingBatchTests {
  /// The titles of each comment's post, loaded one `get()` at a time.
  static func titles(_ comments: [Comment4V2]) async throws -> [String?] {
    var titles: [String?] = []
    for comment in comments { titles.append(try await comment.post?.title) }
    return titles
  }

  /// The same loads on a fresh query with batching off (the reference answer).
  static func unbatchedTitles(_ store: DataStore) async throws -> [String?] {
    store.batchesSiblingReferences = false
    defer { store.batchesSiblingReferences = true }
    return try await titles(try await store.query(Comment4V2.self))
  }

  @Test(
    "the first load reads every sibling's target in one IN query; the others run no SQL",
    arguments: StoreLocation.allCases)
  func oneBatch(_ location: StoreLocation) async throws {
    let (store, log) = try await BatchAndIncludeTests.seeded(location, posts: 10, perPost: 20)
    let comments = try await store.query(Comment4V2.self)
    log.clear()
    let batched = try await Self.titles(comments)
    #expect(log.queries.count == 1)
    #expect(
      log.queries.first?.contains(#"WHERE "id" IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ORDER BY "id""#)
        == true)
    #expect(batched == comments.map { "Post \(Int($0.id.dropFirst(2).prefix(4))!)" })

    log.clear()
    let unbatched = try await Self.unbatchedTitles(store)
    #expect(unbatched == batched)
    // One query for the comments, then one primary-key lookup per comment.
    #expect(log.queries.count == 1 + 200)
  }

  /// The children of one parent share one identifiers array, recorded as a sibling once (not once
  /// per row): they are still siblings of each other.
  @Test("children of one parent batch: one IN query of one key, the other loads run no SQL")
  func oneParent() async throws {
    let (store, log) = try await BatchAndIncludeTests.seeded(.file, posts: 1, perPost: 20)
    let comments = try await store.query(Comment4V2.self)
    #expect(comments.count == 20)
    log.clear()
    let titles = try await Self.titles(comments)
    #expect(titles == Array(repeating: "Post 0", count: 20))
    #expect(log.queries.count == 1)
    #expect(log.queries.first?.contains(#"WHERE "id" IN (?) ORDER BY "id""#) == true)
  }

  @Test("a batch is chunked at 500 keys per statement", arguments: StoreLocation.allCases)
  func chunked(_ location: StoreLocation) async throws {
    let (store, log) = try await BatchAndIncludeTests.seeded(location, posts: 1_201, perPost: 1)
    let comments = try await store.query(Comment4V2.self)
    log.clear()
    let batched = try await Self.titles(comments)
    #expect(log.queries.map { $0.components(separatedBy: "?").count - 1 } == [500, 500, 201])
    #expect(batched.compactMap { $0 }.count == 1_201)
    #expect(try await Self.unbatchedTitles(store) == batched)
  }

  @Test("composite keys batch as row values", arguments: StoreLocation.allCases)
  func compositeKeys(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: shapesRegistry)
    let projects = (0..<5).map { Project(projectId: "p", name: "n\($0)") }
    try await store.save(projects)
    try await store.save(
      (0..<20).map { Team(teamId: "t\($0)", name: "team", project: projects[$0 % 5]) })
    let teams = try await store.query(Team.self, sort: [.ascending(Team.keys.teamId)])
    log.clear()
    var names: [String?] = []
    for team in teams { names.append(try await team.project?.name) }
    #expect(
      log.queries == [
        #"SELECT "projectId", "name", "projectTeamTeamId", "projectTeamName", "createdAt", "updatedAt" FROM "Project" WHERE ("projectId", "name") IN (VALUES (?, ?), (?, ?), (?, ?), (?, ?), (?, ?)) ORDER BY "projectId", "name""#
      ])
    store.batchesSiblingReferences = false
    var unbatched: [String?] = []
    for team in try await store.query(Team.self, sort: [.ascending(Team.keys.teamId)]) {
      unbatched.append(try await team.project?.name)
    }
    #expect(names == unbatched)
    #expect(names == teams.map { "n\(Int($0.teamId.dropFirst())! % 5)" })
  }

  @Test(
    "nil foreign keys and missing targets answer as one lookup does",
    arguments: StoreLocation.allCases)
  func nilAndMissing(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(
      location, registry: RegressionHasOneDanglingForeignKey.Models.registry)
    // Calls 0, 3, 6, 9 have no transcript; 1, 4, 7 one that is saved; 2, 5, 8 one that is not.
    for index in 0..<10 {
      let transcript =
        index % 3 == 0 ? nil : Transcript(id: "t-\(index)", text: "text \(index)")
      try await store.save(PhoneCall(id: "call-\(index)", caller: "c", transcript: transcript))
      if index % 3 == 1, let transcript { try await store.save(transcript) }
    }
    func texts() async throws -> [String?] {
      var texts: [String?] = []
      for call in try await store.query(PhoneCall.self, sort: [.ascending(PhoneCall.keys.id)]) {
        texts.append(try await call.transcript?.text)
      }
      return texts
    }
    log.clear()
    let batched = try await texts()
    // The comments' query, one batch of the six keys, one lookup for each of the three missing.
    #expect(log.queries.count == 1 + 1 + 3)
    store.batchesSiblingReferences = false
    #expect(try await texts() == batched)
    #expect(batched == (0..<10).map { $0 % 3 == 1 ? "text \($0)" : nil })
  }

  @Test(
    "a commit between loads is seen: by this store, and by another store on the same file",
    arguments: [false, true])
  func writeInvalidates(_ otherStore: Bool) async throws {
    let url = try temporaryFileURL()
    let log = SQLLog()
    let store = try DataStore(fileURL: url, registry: seedRegistry, traceSQL: log.hook)
    let posts = (0..<10).map { Post4V2(id: "p\($0)", title: "before \($0)") }
    try await store.save(posts)
    try await store.save(
      (0..<100).map {
        Comment4V2(id: String(format: "c%03d", $0), content: "x", post: posts[$0 % 10])
      })
    let comments = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    #expect(try await comments[0].post?.title == "before 0")

    let writer = try otherStore ? DataStore(fileURL: url, registry: seedRegistry) : store
    var renamed = try #require(try await writer.query(Post4V2.self, byIdentifier: .init(id: "p1")))
    renamed.title = "after 1"
    try await writer.save(renamed)
    _ = try await writer.delete(Post4V2.self, byIdentifier: .init(id: "p2"))

    log.clear()
    #expect(try await comments[1].post?.title == "after 1")
    #expect(try await comments[2].post == nil)
    #expect(try await comments[3].post?.title == "before 3")
    // After the commit, loads are single lookups until as many answered as the batch had keys.
    #expect(log.queries.count == 3)
    #expect(log.queries.allSatisfy { $0.contains(#"WHERE "id" = ?"#) })

    // A fresh query batches again and sees the commit.
    let again = try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])
    let titles = try await Self.titles(again)
    store.batchesSiblingReferences = false
    #expect(
      try await Self.titles(try await store.query(Comment4V2.self, sort: [.ascending(Comment4V2.keys.id)])) == titles)
    #expect(titles.count == 90)
    #expect(titles[0] == "before 0")
    #expect(titles[1] == "after 1")
  }

  @Test("loads after a commit batch again once enough were answered one by one")
  func rebatchAfterCommits() async throws {
    let (store, log) = try await BatchAndIncludeTests.seeded(.file, posts: 4, perPost: 10)
    let comments = try await store.query(Comment4V2.self)
    _ = try await comments[0].post
    try await store.save(Post4V2(id: "p0003", title: "renamed"))
    log.clear()
    // 1 answered by the batch; then 3 single lookups; the 4th load since the batch re-reads it.
    for comment in comments[1..<5] { _ = try await comment.post }
    #expect(log.queries.filter { $0.contains(" IN (") }.count == 1)
    #expect(log.queries.filter { $0.contains(#""id" = ?"#) }.count == 3)
    #expect(
      try await Self.titles(Array(comments[5...]))
        == comments[5...].map {
          $0.id.hasPrefix("cp0003") ? "renamed" : "Post \(Int($0.id.dropFirst(2).prefix(4))!)"
        })
  }

  @Test("a cancelled load does not spoil the batch for the others", arguments: StoreLocation.allCases)
  func cancellation(_ location: StoreLocation) async throws {
    let (store, _) = try await BatchAndIncludeTests.seeded(location, posts: 10, perPost: 20)
    let comments = try await store.query(Comment4V2.self)
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await comments[0].post?.title
    }
    // Cancelled before it started: it loads (the load runs in its own task) or throws
    // CancellationError, never a wrong value.
    if let title = try? await cancelled.value { #expect(title == "Post 0") }
    #expect(try await Self.titles(comments) == (try await Self.unbatchedTitles(store)))
  }

  @Test("concurrent loads from many tasks answer as the unbatched path", arguments: StoreLocation.allCases)
  func concurrentLoads(_ location: StoreLocation) async throws {
    let (store, log) = try await BatchAndIncludeTests.seeded(location, posts: 50, perPost: 8)
    let comments = try await store.query(Comment4V2.self)
    log.clear()
    let loaded = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
      for (index, comment) in comments.enumerated() {
        group.addTask { (index, try await comment.post?.title) }
      }
      var titles = [String?](repeating: nil, count: comments.count)
      for try await (index, title) in group { titles[index] = title }
      return titles
    }
    #expect(loaded == (try await Self.unbatchedTitles(store)))
    #expect(loaded.allSatisfy { $0 != nil })
  }

  @Test("a task preferring the reader's executor reads the batch on its own thread")
  func readerExecutor() async throws {
    let (store, log) = try await BatchAndIncludeTests.seeded(.file, posts: 10, perPost: 20)
    let comments = try await store.query(Comment4V2.self)
    log.clear()
    let titles = try await withTaskExecutorPreference(store.readerExecutor) {
      try await Self.titles(comments)
    }
    #expect(log.queries.count == 1)
    #expect(titles == (try await Self.unbatchedTitles(store)))
  }
}
