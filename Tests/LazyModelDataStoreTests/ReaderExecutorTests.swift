import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The threads the trace hook saw statements start on, with their SQL.
final class ThreadLog: Sendable {
  private let entries = TestLock<[(thread: UInt, sql: String)]>([])
  var hook: @Sendable (String) -> Void {
    { [self] sql in entries.withLock { $0.append((UInt(bitPattern: Int(pthread_self())), sql)) } }
  }
  func clear() { entries.withLock { $0.removeAll() } }
  var all: [(thread: UInt, sql: String)] { entries.withLock { $0 } }
}

/// The calling thread's identity.
func currentThread() -> UInt { UInt(bitPattern: Int(pthread_self())) }

@Suite("A task that prefers a reader's executor")
struct ReaderExecutorTests {
  @Test("N+1 lazy loads run their SQL on the task's own (reader) thread, with the right results")
  func lazyLoadsOnTheReaderThread() async throws {
    let log = ThreadLog()
    let store = try DataStore(fileURL: try temporaryFileURL(), registry: seedRegistry, traceSQL: log.hook)
    let posts = (0..<20).map { Post4V2(id: "p\($0)", title: "title \($0)") }
    try await store.save(posts)
    try await store.save((0..<200).map { Comment4V2(id: "c\($0)", content: "\($0)", post: posts[$0 % 20]) })
    // One lookup per reference (the sibling batch reads on the same thread too: SiblingBatchTests).
    store.batchesSiblingReferences = false
    let comments = try await store.query(Comment4V2.self)
    log.clear()
    let (titles, threads) = try await withTaskExecutorPreference(store.readerExecutor) {
      var titles: [String] = []
      var threads: Set<UInt> = []
      for comment in comments {
        threads.insert(currentThread())
        titles.append(try #require(try await comment.post).title)
        threads.insert(currentThread())
      }
      // A query and a read transaction take the same path.
      #expect(try await store.count(Comment4V2.self) == 200)
      #expect(try await store.read { tx in try tx.count(Post4V2.self) } == 20)
      threads.insert(currentThread())
      return (titles, threads)
    }
    let expected = comments.map { comment in
      "title \(Int(comment.content)! % 20)"
    }
    #expect(titles == expected)
    // The task stayed on one thread, and every statement of its loads started on that thread.
    #expect(threads.count == 1)
    let lookups = log.all.filter { $0.sql.contains(#"FROM "Post4V2" WHERE"#) && !$0.sql.contains("count(") }
    #expect(lookups.count == 200)
    #expect(Set(log.all.map(\.thread)) == threads)
  }

  @Test(
    "writes from a preferring task still work; calling the store inside its own closure stays misuse",
    arguments: StoreLocation.allCases)
  func writesAndMisuse(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: seedRegistry)
    try await withTaskExecutorPreference(store.readerExecutor) {
      try await store.save(Post4V2(id: "a", title: "A"))
      #expect(try await store.query(Post4V2.self, byIdentifier: .init(id: "a"))?.title == "A")
      _ = try await store.write { tx in try tx.save(Post4V2(id: "b", title: "B")) }
      #expect(try await store.count(Post4V2.self) == 2)
      // Inside a read closure (a job on the same reader queue the task runs on), a store call is
      // refused, not run or deadlocked.
      let fromRead = ErrorBox()
      _ = try await store.read { tx in
        Task.immediate {
          do { _ = try await store.count(Post4V2.self) } catch { fromRead.set(error) }
        }
        return try tx.count(Post4V2.self)
      }
      #expect(
        fromRead.value
          == .transactionMisuse(
            operation: "count",
            reason: "called from inside one of this store's own write or read closures"))
    }
  }

  @Test(
    "a lazy load on the reader's thread (no task) loads once, caches found and missing targets, and a failed one retries",
    arguments: StoreLocation.allCases)
  func loadsWithoutSuspending(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: seedRegistry)
    let post = try await store.save(Post4V2(id: "p", title: "the post"))
    try await store.save(Comment4V2(id: "c", content: "x", post: post))
    let comment = try #require(try await store.query(Comment4V2.self, byIdentifier: .init(id: "c")))
    let provider = DataStoreReferenceProvider<Post4V2>(store: store)
    let missing = LazyReference<Post4V2>(
      identifiers: Post4V2.Identifier(id: "nobody").components, provider: provider)
    let broken = LazyReference<Post4V2>(
      identifiers: [IdentifierComponent(name: "noSuchColumn", value: .string("p"))], provider: provider)
    log.clear()
    try await withTaskExecutorPreference(store.readerExecutor) {
      // Off the reader's thread the provider cannot answer synchronously…
      #expect(
        try await Task.detached {
          try provider.loadWithoutSuspending(identifiers: [IdentifierComponent(name: "id", value: .string("p"))])
        }.value == nil)
      // …on it, it does: the stored post, or `.some(nil)` for a key no row has.
      #expect(try provider.loadWithoutSuspending(identifiers: post.identifier.components)??.title == "the post")
      #expect(try provider.loadWithoutSuspending(identifiers: missing.identifiers ?? []).map { $0 == nil } == true)
      let loaded = try await comment.post
      #expect(loaded?.id == "p" && loaded?.title == "the post")
      #expect(comment.postReference.isLoaded)
      #expect(try await missing.get() == nil)
      #expect(missing.isLoaded)
      let lookups = log.queries.count
      // Loaded references answer from memory: no statement.
      #expect(try await comment.post?.title == "the post")
      #expect(try await missing.get() == nil)
      #expect(log.queries.count == lookups)
      // A failing load throws the store's typed error and leaves the reference not loaded.
      await #expect(throws: DataStoreError.unknownField(model: "Post4V2", field: "noSuchColumn")) {
        _ = try await broken.get()
      }
      #expect(!broken.isLoaded)
      // Inside a read closure (a job on this reader) a lazy load is refused, not run synchronously.
      let fromRead = ErrorBox()
      let inClosure = LazyReference<Post4V2>(identifiers: post.identifier.components, provider: provider)
      let attempt = try await store.read { tx in
        let attempt = Task.immediate {
          do { _ = try await inClosure.get() } catch { fromRead.set(error) }
        }
        _ = try tx.count(Post4V2.self)
        return attempt
      }
      await attempt.value
      #expect(
        fromRead.value
          == .transactionMisuse(
            operation: "load",
            reason: "called from inside one of this store's own write or read closures"))
      #expect(!inClosure.isLoaded)
    }
  }

  @Test("a cancelled preferring task's read throws CancellationError")
  func cancellation() async throws {
    let (store, _) = try makeStore(.file, registry: seedRegistry)
    try await store.save((0..<100).map { Post4V2(id: "p\($0)", title: "t") })
    let task = Task {
      try await withTaskExecutorPreference(store.readerExecutor) {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await store.count(Post4V2.self)
      }
    }
    await #expect(throws: CancellationError.self) { _ = try await task.value }
  }
}
