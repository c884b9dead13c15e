import CompositeKeyHasManyModels
import Foundation
import HasManyImplicitModels
import LazyModel
import LazyModelDataStore
import RegressionCompositeKeySortKeyNamedId
import RegressionHasManyExplicitFkIndex
import RegressionHasOneBelongsToCompositeKeys
import RegressionListNullabilityWithLazyBelongsTo
import RegressionReferencesHasOneHasMany
import SeedPostCommentModels
import SelfAndOneToOneModels
import Synchronization

/// The factor in `LAZYMODEL_TEST_DEADLINE_SCALE` (at least 1): how much slower than usual this run
/// may be (`.ci/run` sets 4 for the thread sanitizer's run). Every time bound of these tests (a
/// wait for an event, a line or another job) is multiplied by it.
let testDeadlineScale: Double = {
  let scale =
    ProcessInfo.processInfo.environment["LAZYMODEL_TEST_DEADLINE_SCALE"].flatMap(Double.init) ?? 1
  return max(1, scale)
}()

/// Collects the SQL text SQLite starts (through the store's `traceSQL` hook).
final class SQLLog: Sendable {
  private let statements = TestLock<[String]>([])

  /// A hook for `DataStore(traceSQL:)`.
  var hook: @Sendable (String) -> Void { { [self] sql in statements.withLock { $0.append(sql) } } }

  /// Every statement so far.
  var all: [String] { statements.withLock { $0 } }

  /// Forgets the statements so far.
  func clear() { statements.withLock { $0.removeAll() } }

  /// Data statements (no transaction control or pragmas) since the last `clear()`.
  var queries: [String] {
    all.filter { sql in
      !["BEGIN", "COMMIT", "ROLLBACK", "PRAGMA"].contains { sql.hasPrefix($0) }
    }
  }
}

/// Where a test store lives.
enum StoreLocation: String, CaseIterable, Sendable, CustomStringConvertible {
  case file, memory
  var description: String { rawValue }
}

/// A fresh temporary directory per call, removed by the caller with `cleanUp`.
func temporaryFileURL(_ name: String = "store.sqlite") throws -> URL {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("LazyModelDataStoreTests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory.appendingPathComponent(name)
}

/// Opens a fresh store (a new temp file, or in memory) and its SQL log.
func makeStore(_ location: StoreLocation, registry: ModelRegistry, listPageSize: Int = 100) throws
  -> (DataStore, SQLLog)
{
  let log = SQLLog()
  switch location {
  case .file:
    return (
      try DataStore(
        fileURL: try temporaryFileURL(), registry: registry, listPageSize: listPageSize,
        traceSQL: log.hook), log
    )
  case .memory:
    return (
      try DataStore.inMemory(registry: registry, listPageSize: listPageSize, traceSQL: log.hook),
      log
    )
  }
}

/// The seed schema's models (`Generated/seed-post-comment`).
let seedRegistry = SeedPostCommentModels.Models.registry

/// The generated `Task` (`Generated/regressions/composite-key-sort-key-named-id`, Swift name `TaskType`, MGW001), named so that it
/// does not hide Swift's `Task` in this module.
typealias TodoTask = RegressionCompositeKeySortKeyNamedId.TaskType

/// One model pair per relationship shape, all generated into `Generated/` (module per schema), in
/// one store: composite keys of every scalar kind with a hasMany/belongsTo child, a sort key named
/// id, hasOne/belongsTo with composite keys, references-style hasOne/hasMany, implicit and explicit
/// (indexed) hasMany foreign keys, a self reference, embedded types with every list nullability.
let shapesRegistry = ModelRegistry(models: [
  Blog.self, BlogPost.self, Board.self, Card.self, Cart.self, Category.self,
  RegressionHasManyExplicitFkIndex.Comment.self,
  Customer.self, Order.self, Post.self, Project.self, Reading.self, ReadingNote.self, Team.self,
  TodoTask.self,
])

/// A value behind a `pthread_mutex_t`, which ThreadSanitizer understands (on Linux,
/// `Synchronization.Mutex` hands contended locks over in the kernel, where it cannot see them).
final class TestLock<Value: Sendable>: @unchecked Sendable {
  private var value: Value
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init(_ value: Value) {
    self.value = value
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
