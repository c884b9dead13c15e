import Foundation
import LazyModel
import LazyModelAPI
import SyncBlogModels
import Testing

@testable import LazyModelDataStore

/// One commit, one `observeQuery` snapshot: a commit that changes no model row (the change log's
/// registration of another observer, the sync engine's own tables) gives none, and a remote change
/// gives exactly one on the other device. (A commit of this process that a reader took for another
/// process's made live queries read again; the wanted snapshot then waited out `minimumInterval`.)
@Suite("Sync: one remote change is one commit and one observeQuery snapshot", .serialized)
struct SnapshotCountTests {
  /// How long a test listens for a snapshot that must not come: well past `minimumInterval`
  /// (50 ms) and the change log's poll (50 ms).
  static let quiet: Duration = .milliseconds(Int(400 * syncDeadlineScale))
  /// The bound of a wait for a snapshot that must come (the whole suite in parallel on a loaded
  /// machine can hold a first snapshot back for over 20 s), scaled.
  static let bound: Double = 120

  @Test func aCommitOfAnotherStoreOnTheFileThatChangesNoModelRowGivesNoSnapshot() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("one.sqlite")
    let watched = try DataStore(fileURL: file, registry: Models.registry)
    let counts = Recorder<Int>()
    let watcher = Task {
      for try await snapshot in watched.observeQuery(Post.self) { counts.append(snapshot.items.count) }
    }
    defer { watcher.cancel() }
    #expect(try await eventuallyScaled(Self.bound) { counts.values == [0] })
    try await Task.sleep(for: Self.quiet)  // the change log's registration and first polls
    #expect(counts.values == [0])
    // Another store on the file starts observing: it registers in the change log (a commit of this
    // process that changes no model row).
    let other = try DataStore(fileURL: file, registry: Models.registry)
    let events = other.observe(Comment.self)
    try await Task.sleep(for: Self.quiet)
    #expect(counts.values == [0])
    try await other.save(Post(id: "p1", title: "one commit"))
    #expect(try await eventuallyScaled(Self.bound) { counts.values.count == 2 })
    try await Task.sleep(for: Self.quiet)
    #expect(counts.values == [0, 1])
    _ = events
  }

  @Test func eachRemoteChangeGivesTheOtherDevicesLiveQueryExactlyOneSnapshot() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let a = try device(server, directory, "a")
    let b = try device(server, directory, "b")
    try await startAndSync(a)
    try await startAndSync(b)
    let applied = Recorder<String>()
    let changes = Task {
      for await change in b.observeChanges(Post.self) {
        if case .saved(let post) = change.event { applied.append("\(post.id) \(change.source)") }
      }
    }
    defer { changes.cancel() }
    // As SyncBenchmark measures it: a new live query per change (so the change log registers and
    // leaves each round), then the other device's save.
    for index in 0..<5 {
      let id = "once-\(index)"
      let counts = Recorder<Int>()
      let watcher = Task {
        for try await snapshot in b.observeQuery(Post.self, where: Post.keys.id.eq(id)) {
          counts.append(snapshot.items.count)
        }
      }
      #expect(try await eventuallyScaled(Self.bound) { counts.values == [0] })
      try await Task.sleep(for: Self.quiet)
      #expect(counts.values == [0], "round \(index): a snapshot before any change")
      try await a.save(Post(id: id, title: "round \(index)"))
      #expect(try await eventuallyScaled(Self.bound) { counts.values.count == 2 })
      try await Task.sleep(for: Self.quiet)
      #expect(counts.values == [0, 1], "round \(index): one remote change, one snapshot")
      watcher.cancel()
      _ = await watcher.result
    }
    #expect(applied.values == (0..<5).map { "once-\($0) remote" })
  }
}
