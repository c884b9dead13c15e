// DataStore benchmark: 1,000 posts / 100,000 comments in a WAL SQLite file.
//
//   swift run -c release DataStoreBenchmark
//
// Measures the DataStore (rows decoded into generated-shape models) against a plain C-API SQLite
// loop in the same process reading the same file into Swift structs (the physical limit), and
// prints a table. Each figure is the best of several runs, wall-clock and process CPU time (N+1: one
// run; it is slow by design).
import CSQLite
import Foundation
import LazyModel
import LazyModelDataStore
import SeedPostCommentModels

let postCount = 1_000
/// `DATASTORE_BENCHMARK_PROFILE` (`none`, `query-all`, `batched`, `load-all` (less `query-all`),
/// `n-plus-one`, `n-plus-one-preferring`,
/// `saves`: 10,000 `tx.save` in one `write`; `one-reader` and `two-readers`: the two-reader row's
/// loops, 40 queries each; and their plain C counterparts `plain-query-all`,
/// `plain-n-plus-one`, `plain-saves`) runs only that
/// loop and exits: the workload for `perf record` / `valgrind --tool=callgrind` (untimed; 20,000
/// comments, so that the set-up stays short under valgrind; `DATASTORE_BENCHMARK_COMMENTS=<n>`
/// sets another count for a profile run, e.g. 2,000 to keep callgrind's set-up short on a loaded
/// machine: `saves` still saves 10,000 new comments, the other modes' per-row and per-lookup counts
/// divide by the comments queried).
let profile = ProcessInfo.processInfo.environment["DATASTORE_BENCHMARK_PROFILE"]
let commentCount =
  profile == nil
  ? 100_000
  : ProcessInfo.processInfo.environment["DATASTORE_BENCHMARK_COMMENTS"].flatMap { Int($0) }
    .map { max(postCount, $0) } ?? 20_000

// MARK: Timing

/// CPU seconds used by this process so far (all threads): unlike wall time, it does not count the
/// time other processes on a shared machine hold the cores.
func processCPUSeconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Best (minimum) wall-clock and CPU seconds of `runs` runs of `body`: on a shared machine the least
/// disturbed run is the closest to what the code costs.
struct Timing {
  var wall: Double
  var cpu: Double
}

func measure(runs: Int, _ body: () async throws -> Void) async rethrows -> Timing {
  var walls: [Double] = []
  var cpus: [Double] = []
  for _ in 0..<runs {
    let cpuStart = processCPUSeconds()
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    cpus.append(processCPUSeconds() - cpuStart)
    walls.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
  return Timing(wall: walls.min() ?? 0, cpu: cpus.min() ?? 0)
}

/// Minor page faults of this process so far (all threads, `getrusage`): a fresh page the allocator
/// maps costs one, and faults of two threads of one process contend on the kernel's memory-map
/// locks.
func minorFaults() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage.ru_minflt
}

/// Peak resident set size of this process (`VmHWM`), in MB.
func peakMemoryMB() -> Double {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
    return kilobytes / 1024
  }
  return 0
}

/// Hands the heap that freed objects left behind back to the kernel (`malloc_trim`), so that the
/// next phase's peak counts what that phase holds, not pages an earlier phase freed but the
/// allocator kept mapped.
/// (glibc's `malloc_trim` is not in the `Glibc` module, so it is looked up by name; elsewhere this
/// does nothing.)
func releaseFreedMemory() {
  typealias MallocTrim = @convention(c) (Int) -> Int32
  guard let symbol = dlsym(nil, "malloc_trim") else { return }
  _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
}

/// Resets the peak resident set size to the current one (Linux `clear_refs` value 5), so that each
/// phase's peak can be read on its own. Returns `false` when the kernel does not allow it.
@discardableResult
func resetPeakMemory() -> Bool {
  guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
  defer { try? handle.close() }
  return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}

// MARK: Data

let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
  "DataStoreBenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let fileURL = directory.appendingPathComponent("bench.sqlite")

let store = try DataStore(
  fileURL: fileURL, registry: Models.registry)
let posts = (0..<postCount).map { Post4V2(id: UUID().uuidString, title: "Post number \($0)") }
try await store.save(posts)
var pending: [Comment4V2] = []
for index in 0..<commentCount {
  pending.append(
    Comment4V2(
      id: UUID().uuidString, content: "Comment number \(index) of the benchmark",
      post: posts[index % postCount]))
  if pending.count == 10_000 || index == commentCount - 1 {
    try await store.save(pending)
    pending.removeAll(keepingCapacity: true)
  }
}

// MARK: DataStore

pending = []
let afterSetupMB = peakMemoryMB()
releaseFreedMemory()
let peakResettable = resetPeakMemory()

var comments: [Comment4V2] = []
if let profile {
  comments = try await store.query(Comment4V2.self)
  switch profile {
  case "none":  // the set-up alone, to subtract
    break
  case "query-all":
    for _ in 0..<10 { comments = try await store.query(Comment4V2.self) }
  case "one-reader":  // the two-reader row's one reader: four queries in turn, ten times
    comments = []
    for _ in 0..<40 { _ = try await store.query(Comment4V2.self).count }
  case "two-readers":  // the two-reader row's two readers, two queries each, ten times
    comments = []
    for _ in 0..<10 {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<2 {
          group.addTask {
            var rows = 0
            for _ in 0..<2 { rows += try await store.query(Comment4V2.self).count }
            return rows
          }
        }
        var rows = 0
        for try await count in group { rows += count }
        precondition(rows == 4 * commentCount)
      }
    }
  case "batched":  // the batched row's loop, ten times: one loadReferences over every comment
    for _ in 0..<10 {
      let loaded = try await store.loadReferences(Comment4V2.keys.post, of: comments, as: Post4V2.self)
      precondition(loaded.count == comments.count)
    }
  case "load-all":  // query all, then LazyReference.loadAll over fresh references, ten times
    // (subtract `query-all`, which runs the same ten queries)
    for _ in 0..<10 {
      comments = try await store.query(Comment4V2.self)
      let loaded = try await LazyReference.loadAll(comments.map(\.postReference))
      precondition(loaded.count == comments.count)
    }
  case "n-plus-one":
    _ = try await loadEachPost(of: comments)
  case "n-plus-one-preferring":
    _ = try await withTaskExecutorPreference(store.readerExecutor) {
      try await loadEachPost(of: comments)
    }
  case "plain-query-all":  // the plain C loop of query all, ten times, for the instruction ratio
    var handle: OpaquePointer?
    precondition(
      sqlite3_open_v2(fileURL.path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        == SQLITE_OK)
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
      handle, #"SELECT "id", "content", "postID", "createdAt", "updatedAt" FROM "Comment4V2""#, -1,
      &statement, nil)
    func column(_ index: Int32) -> String? {
      guard let bytes = sqlite3_column_text(statement, index) else { return nil }
      return String(
        decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))),
        as: UTF8.self)
    }
    var plain: [PlainComment] = []
    for _ in 0..<10 {
      var rows: [PlainComment] = []
      while sqlite3_step(statement) == SQLITE_ROW {
        rows.append(
          PlainComment(
            id: column(0)!, content: column(1)!, postID: column(2), createdAt: column(3),
            updatedAt: column(4)))
      }
      sqlite3_reset(statement)
      plain = rows
    }
    precondition(plain.count == comments.count)
    sqlite3_finalize(statement)
    sqlite3_close_v2(handle)
  case "saves":
    let batch = newComments(0)
    try await store.write { tx in
      for comment in batch { try tx.save(comment) }
    }
  case "plain-saves":  // the plain C loop of `saves`: one prepared INSERT in one transaction
    let batch = newComments(0)
    var handle: OpaquePointer?
    precondition(
      sqlite3_open_v2(fileURL.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        == SQLITE_OK)
    let transientText = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    let stamp = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
      handle,
      #"INSERT INTO "Comment4V2" ("id", "content", "postID", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?)"#,
      -1, &statement, nil)
    precondition(sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
    for (index, comment) in batch.enumerated() {
      let postID = posts[index % postCount].id
      sqlite3_bind_text(statement, 1, comment.id, Int32(comment.id.utf8.count), transientText)
      sqlite3_bind_text(
        statement, 2, comment.content, Int32(comment.content.utf8.count), transientText)
      sqlite3_bind_text(statement, 3, postID, Int32(postID.utf8.count), transientText)
      sqlite3_bind_text(statement, 4, stamp, Int32(stamp.utf8.count), transientText)
      sqlite3_bind_text(statement, 5, stamp, Int32(stamp.utf8.count), transientText)
      precondition(sqlite3_step(statement) == SQLITE_DONE)
      sqlite3_reset(statement)
    }
    precondition(sqlite3_exec(handle, "COMMIT", nil, nil, nil) == SQLITE_OK)
    sqlite3_finalize(statement)
    sqlite3_close_v2(handle)
  case "plain-n-plus-one":  // the plain C loop's lookups, for the instruction ratio
    var handle: OpaquePointer?
    precondition(
      sqlite3_open_v2(fileURL.path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        == SQLITE_OK)
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
      handle, #"SELECT "id", "title", "createdAt", "updatedAt" FROM "Post4V2" WHERE "id" = ?"#, -1,
      &statement, nil)
    let transientText = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    func column(_ index: Int32) -> String? {
      guard let bytes = sqlite3_column_text(statement, index) else { return nil }
      return String(
        decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))),
        as: UTF8.self)
    }
    var found = 0
    for comment in comments {
      guard let postID = comment.postReference.identifier?.id else { continue }
      sqlite3_bind_text(statement, 1, postID, Int32(postID.utf8.count), transientText)
      if sqlite3_step(statement) == SQLITE_ROW {
        let post = (column(0)!, column(1)!, column(2), column(3))
        if !post.0.isEmpty { found += 1 }
      }
      sqlite3_reset(statement)
    }
    precondition(found == comments.count)
    sqlite3_finalize(statement)
    sqlite3_close_v2(handle)
  default:
    fatalError("unknown DATASTORE_BENCHMARK_PROFILE \(profile)")
  }
  exit(0)
}
let storeQueryAllFaultsBefore = minorFaults()
let storeQueryAll = try await measure(runs: 9) {
  comments = []
  comments = try await store.query(Comment4V2.self)
}
let storeQueryAllFaults = (minorFaults() - storeQueryAllFaultsBefore) / 9
precondition(comments.count == commentCount)

var loadedPosts: [Post4V2?] = []
let storeBatched = try await measure(runs: 9) {
  loadedPosts = []
  loadedPosts = try await store.loadReferences(Comment4V2.keys.post, of: comments, as: Post4V2.self)
}
precondition(loadedPosts.count == commentCount && loadedPosts.allSatisfy { $0 != nil })
loadedPosts = []

// The runtime's batch API over the references themselves (one load(batch:) for the whole store);
// each run uses fresh, not-loaded references.
var loadAllBest = Timing(wall: .infinity, cpu: .infinity)
for _ in 0..<3 {
  comments = []
  comments = try await store.query(Comment4V2.self)
  let timing = try await measure(runs: 1) {
    loadedPosts = try await LazyReference.loadAll(comments.map(\.postReference))
  }
  precondition(loadedPosts.count == commentCount && loadedPosts.allSatisfy { $0 != nil })
  loadAllBest = Timing(
    wall: min(loadAllBest.wall, timing.wall), cpu: min(loadAllBest.cpu, timing.cpu))
  loadedPosts = []
}
let storeLoadAll = loadAllBest
let afterStoreMB = peakMemoryMB()

comments = []
loadedPosts = []
releaseFreedMemory()
resetPeakMemory()

/// Loads each comment's post on its own (`try await comment.post`) and counts those found. Not
/// isolated to the main actor, so the loop runs where a background consumer's would: from the main
/// actor every `await` on the (nonisolated) getter adds two thread switches, which are the caller's
/// cost, not the store's.
nonisolated func loadEachPost(of comments: [Comment4V2]) async throws -> Int {
  var found = 0
  for comment in comments where try await comment.post != nil { found += 1 }
  return found
}

// Each comment's reference is loaded on its own (`try await comment.post`). Comments are read in
// pages of 10,000 (keyset on id) so that the loaded posts do not pile up in memory; only the loads
// are timed. By default the first load of a page reads the posts of the whole page in one sibling
// batch (`IN`, 500 keys per statement) and the others answer from it; with
// `store.batchesSiblingReferences = false` each load is one primary-key lookup (the baseline row).
// `preferringReader`: the loop runs in a task that prefers a reader's executor
// (`store.readerExecutor`), so each lookup's SQL runs where the task is, with no thread switch.
func nPlusOne(preferringReader: Bool) async throws -> Timing {
  var wall = 0.0
  var cpu = 0.0
  var found = 0
  var lastID: String?
  while true {
    let page = try await store.query(
      Comment4V2.self, where: lastID.map { Comment4V2.keys.id.gt($0) } ?? .all,
      sort: [.ascending(Comment4V2.keys.id)],
      limit: 10_000)
    guard let last = page.last else { break }
    lastID = last.id
    let timing = try await measure(runs: 1) {
      if preferringReader {
        found += try await withTaskExecutorPreference(store.readerExecutor) {
          try await loadEachPost(of: page)
        }
      } else {
        found += try await loadEachPost(of: page)
      }
    }
    wall += timing.wall
    cpu += timing.cpu
  }
  precondition(found == commentCount)
  return Timing(wall: wall, cpu: cpu)
}

let storeNPlusOneLoads = try await nPlusOne(preferringReader: false)
let storeNPlusOnePreferring = try await nPlusOne(preferringReader: true)
store.batchesSiblingReferences = false
let storeNPlusOneUnbatched = try await nPlusOne(preferringReader: false)
let storeNPlusOneUnbatchedPreferring = try await nPlusOne(preferringReader: true)
store.batchesSiblingReferences = true

let nPlusOnePeakMB = peakMemoryMB()
releaseFreedMemory()
resetPeakMemory()

// MARK: Engine: one write of many saves, concurrent readers, live queries

/// 10,000 new comments (ids unique per run), spread over the posts.
func newComments(_ run: Int) -> [Comment4V2] {
  (0..<10_000).map { index in
    Comment4V2(
      id: "bulk-\(run)-\(index)", content: "Bulk comment \(index) of the benchmark",
      post: posts[index % postCount])
  }
}

// 10,000 saves in one `write` (each its own `tx.save`), removed again after each (untimed) run.
var bulkRun = 0
var storeBulkBest = Timing(wall: .infinity, cpu: .infinity)
for _ in 0..<5 {
  let batch = newComments(bulkRun)
  bulkRun += 1
  let timing = try await measure(runs: 1) {
    try await store.write { tx in
      for comment in batch { try tx.save(comment) }
    }
  }
  storeBulkBest = Timing(
    wall: min(storeBulkBest.wall, timing.wall), cpu: min(storeBulkBest.cpu, timing.cpu))
  try await store.delete(Comment4V2.self, where: Comment4V2.keys.id.beginsWith("bulk-"))
}
let storeBulkSaves = storeBulkBest

// Two readers at once against one: the same query-all, four times in total (page faults counted
// over the three runs of each).
var faultsBefore = minorFaults()
let oneReader = try await measure(runs: 3) {
  for _ in 0..<4 { _ = try await store.query(Comment4V2.self).count }
}
let oneReaderFaults = minorFaults() - faultsBefore
faultsBefore = minorFaults()
let twoReaders = try await measure(runs: 3) {
  try await withThrowingTaskGroup(of: Int.self) { group in
    for _ in 0..<2 {
      group.addTask {
        var rows = 0
        for _ in 0..<2 { rows += try await store.query(Comment4V2.self).count }
        return rows
      }
    }
    var rows = 0
    for try await count in group { rows += count }
    precondition(rows == 4 * commentCount)
  }
}
let twoReadersFaults = minorFaults() - faultsBefore

// observeQuery over one post's 100 comments: from the save call to the snapshot showing it.
let watched = posts[0]
var latencies: [Double] = []
do {
  let live = store.observeQuery(
    Comment4V2.self, where: Comment4V2.keys.post.eq(watched), minimumInterval: .zero)
  var iterator = live.makeAsyncIterator()
  let first = try await iterator.next()
  precondition(first?.items.count == commentCount / postCount)
  let target = try await store.query(Comment4V2.self, where: Comment4V2.keys.post.eq(watched))[0]
  for round in 0..<200 {
    var changed = target
    changed.content = "changed \(round)"
    let start = ContinuousClock.now
    try await store.save(changed)
    while let snapshot = try await iterator.next() {
      if snapshot.items.contains(where: { $0.content == changed.content }) { break }
    }
    let elapsed = ContinuousClock.now - start
    latencies.append(
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
}
latencies.sort()
let latencyMedian = latencies[latencies.count / 2]
let latencyP99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]

// A burst of 1,000 saves (one commit each) under the default coalescing.
var burstSnapshots = 0
var burstDuration = 0.0
do {
  let expected = commentCount / postCount + 1_000
  let live = store.observeQuery(Comment4V2.self, where: Comment4V2.keys.post.eq(watched))
  let consumer = Task {
    var count = 0
    for try await snapshot in live {
      count += 1
      if snapshot.items.count == expected { break }
    }
    return count
  }
  let start = ContinuousClock.now
  for index in 0..<1_000 {
    try await store.save(
      Comment4V2(id: "burst-\(index)", content: "burst \(index)", post: watched))
  }
  burstSnapshots = try await consumer.value - 1  // without the initial snapshot
  let elapsed = ContinuousClock.now - start
  burstDuration = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  try await store.delete(Comment4V2.self, where: Comment4V2.keys.id.beginsWith("burst-"))
}
releaseFreedMemory()

// MARK: Plain C-API loop

struct PlainComment {
  var id: String
  var content: String
  var postID: String?
  var createdAt: String?
  var updatedAt: String?
}

struct PlainPost {
  var id: String
  var title: String
  var createdAt: String?
  var updatedAt: String?
}

var db: OpaquePointer?
guard
  sqlite3_open_v2(fileURL.path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
  let db
else {
  fatalError("cannot open \(fileURL.path)")
}
defer { sqlite3_close_v2(db) }

func prepare(_ sql: String) -> OpaquePointer {
  var statement: OpaquePointer?
  guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
    fatalError(String(cString: sqlite3_errmsg(db)))
  }
  return statement
}

@inline(__always) func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
  guard let bytes = sqlite3_column_text(statement, column) else { return nil }
  return String(
    decoding: UnsafeBufferPointer(
      start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
}

let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

var plainComments: [PlainComment] = []
let plainQueryAllFaultsBefore = minorFaults()
let plainQueryAll = await measure(runs: 9) {
  let statement = prepare(
    #"SELECT "id", "content", "postID", "createdAt", "updatedAt" FROM "Comment4V2""#)
  defer { sqlite3_finalize(statement) }
  var rows: [PlainComment] = []
  while sqlite3_step(statement) == SQLITE_ROW {
    rows.append(
      PlainComment(
        id: text(statement, 0)!, content: text(statement, 1)!, postID: text(statement, 2),
        createdAt: text(statement, 3), updatedAt: text(statement, 4)))
  }
  plainComments = rows
}
let plainQueryAllFaults = (minorFaults() - plainQueryAllFaultsBefore) / 9
precondition(plainComments.count == commentCount)
let plainQueryPeakMB = peakMemoryMB()

func readPost(_ statement: OpaquePointer) -> PlainPost {
  PlainPost(
    id: text(statement, 0)!, title: text(statement, 1)!, createdAt: text(statement, 2),
    updatedAt: text(statement, 3))
}

let plainNPlusOne = await measure(runs: 3) {
  let statement = prepare(
    #"SELECT "id", "title", "createdAt", "updatedAt" FROM "Post4V2" WHERE "id" = ?"#)
  defer { sqlite3_finalize(statement) }
  var found = 0
  for comment in plainComments {
    guard let postID = comment.postID else { continue }
    sqlite3_bind_text(statement, 1, postID, Int32(postID.utf8.count), transient)
    if sqlite3_step(statement) == SQLITE_ROW {
      _ = readPost(statement)
      found += 1
    }
    sqlite3_reset(statement)
  }
  precondition(found == commentCount)
}

let plainBatched = await measure(runs: 9) {
  var seen: Set<String> = []
  var keys: [String] = []
  for comment in plainComments {
    if let postID = comment.postID, seen.insert(postID).inserted { keys.append(postID) }
  }
  var byID: [String: PlainPost] = [:]
  var start = 0
  while start < keys.count {
    let chunk = keys[start..<min(start + 500, keys.count)]
    start += chunk.count
    let statement = prepare(
      #"SELECT "id", "title", "createdAt", "updatedAt" FROM "Post4V2" WHERE "id" IN ("#
        + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")")
    for (offset, key) in chunk.enumerated() {
      sqlite3_bind_text(statement, Int32(offset + 1), key, Int32(key.utf8.count), transient)
    }
    while sqlite3_step(statement) == SQLITE_ROW {
      let post = readPost(statement)
      byID[post.id] = post
    }
    sqlite3_finalize(statement)
  }
  let resolved = plainComments.map { $0.postID.flatMap { byID[$0] } }
  precondition(resolved.count == commentCount)
}

var writable: OpaquePointer?
guard
  sqlite3_open_v2(fileURL.path, &writable, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
    == SQLITE_OK,
  let writable
else {
  fatalError("cannot open \(fileURL.path)")
}
defer { sqlite3_close_v2(writable) }
sqlite3_busy_timeout(writable, 5_000)

// The same 10,000 rows through the C API: one prepared INSERT, one transaction.
var plainBulkBest = Timing(wall: .infinity, cpu: .infinity)
for _ in 0..<5 {
  let batch = newComments(bulkRun)
  bulkRun += 1
  let stamp = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  let timing = await measure(runs: 1) {
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
      writable,
      #"INSERT INTO "Comment4V2" ("id", "content", "postID", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?)"#,
      -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    sqlite3_exec(writable, "BEGIN IMMEDIATE", nil, nil, nil)
    for (index, comment) in batch.enumerated() {
      let postID = posts[index % postCount].id
      sqlite3_bind_text(statement, 1, comment.id, Int32(comment.id.utf8.count), transient)
      sqlite3_bind_text(statement, 2, comment.content, Int32(comment.content.utf8.count), transient)
      sqlite3_bind_text(statement, 3, postID, Int32(postID.utf8.count), transient)
      sqlite3_bind_text(statement, 4, stamp, Int32(stamp.utf8.count), transient)
      sqlite3_bind_text(statement, 5, stamp, Int32(stamp.utf8.count), transient)
      precondition(sqlite3_step(statement) == SQLITE_DONE)
      sqlite3_reset(statement)
    }
    precondition(sqlite3_exec(writable, "COMMIT", nil, nil, nil) == SQLITE_OK)
  }
  plainBulkBest = Timing(
    wall: min(plainBulkBest.wall, timing.wall), cpu: min(plainBulkBest.cpu, timing.cpu))
  sqlite3_exec(writable, #"DELETE FROM "Comment4V2" WHERE "id" LIKE 'bulk-%'"#, nil, nil, nil)
}
let plainBulkInserts = plainBulkBest

// MARK: Report

func row(_ name: String, _ store: Timing, _ plain: Timing, target: String) -> String {
  let ratio = plain.wall > 0 ? store.wall / plain.wall : 0
  let cpuRatio = plain.cpu > 0 ? store.cpu / plain.cpu : 0
  return "| \(name.padding(toLength: 38, withPad: " ", startingAt: 0)) | "
    + String(
      format: "%9.1f ms | %9.1f ms | %9.1f ms | %9.1f ms | %5.2fx | %5.2fx | %-6@ |",
      store.wall * 1000, store.cpu * 1000, plain.wall * 1000, plain.cpu * 1000, ratio, cpuRatio,
      target as NSString)
}

print(
  "DataStoreBenchmark: \(postCount) posts, \(commentCount) comments, SQLite \(String(cString: sqlite3_libversion())), WAL file, release build, best of 9 runs (N+1: one run)"
)
print(
  "| measurement                            | DataStore wall | DataStore CPU | plain wall  | plain CPU   | ratio  | CPU ratio | target |"
)
print(
  "|----------------------------------------|--------------|--------------|-------------|-------------|--------|--------|--------|"
)
print(row("query all comments into models", storeQueryAll, plainQueryAll, target: "<= 1.5x"))
print(row("N+1 lazy load of each comment's post", storeNPlusOneLoads, plainNPlusOne, target: "<= 1.8x"))
print(
  row("  same, task prefers store.readerExecutor", storeNPlusOnePreferring, plainNPlusOne, target: "<= 1.8x"))
print(
  row("  unbatched (one lookup per reference)", storeNPlusOneUnbatched, plainNPlusOne, target: "-"))
print(
  row(
    "  unbatched, prefers store.readerExecutor", storeNPlusOneUnbatchedPreferring, plainNPlusOne,
    target: "-"))
print(row("batched load of all posts (IN, 500)", storeBatched, plainBatched, target: "<= 3x"))
print(row("  same via LazyReference.loadAll", storeLoadAll, plainBatched, target: "<= 3x"))
print(row("10,000 saves in one write", storeBulkSaves, plainBulkInserts, target: "<= 2x"))
print(
  String(
    format:
      "two concurrent readers of query all (4 queries): one reader %.1f ms (CPU %.1f ms), two readers %.1f ms (CPU %.1f ms), throughput %.2fx (target >= 1.6x); CPU per query two vs one reader %.2fx; minor page faults per query one reader %d, two readers %d; load average %@",
    oneReader.wall * 1000, oneReader.cpu * 1000, twoReaders.wall * 1000, twoReaders.cpu * 1000,
    oneReader.wall / twoReaders.wall, twoReaders.cpu / oneReader.cpu, oneReaderFaults / 12,
    twoReadersFaults / 12,
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
      .split(separator: " ").prefix(3).joined(separator: " ") ?? "?") as NSString))
print(
  String(
    format:
      "observeQuery (100-row result): save call to new snapshot median %.2f ms, p99 %.2f ms (200 commits); a burst of 1,000 saves (%.0f ms) yielded %d snapshots",
    latencyMedian * 1000, latencyP99 * 1000, burstDuration * 1000, burstSnapshots))
print(
  String(
    format:
      "query all: DataStore %.0f rows/s, plain C API %.0f rows/s (wall); minor page faults per query DataStore %d, plain C API %d",
    Double(commentCount) / storeQueryAll.wall, Double(commentCount) / plainQueryAll.wall,
    storeQueryAllFaults, plainQueryAllFaults))
print(
  String(
    format:
      "N+1: DataStore %.2f us per reference (preferring the reader's executor %.2f us; unbatched %.2f us, preferring %.2f us), plain C API %.2f us per lookup (wall)",
    storeNPlusOneLoads.wall / Double(commentCount) * 1e6,
    storeNPlusOnePreferring.wall / Double(commentCount) * 1e6,
    storeNPlusOneUnbatched.wall / Double(commentCount) * 1e6,
    storeNPlusOneUnbatchedPreferring.wall / Double(commentCount) * 1e6,
    plainNPlusOne.wall / Double(commentCount) * 1e6))
let plainPeakMB = peakMemoryMB()
print(
  String(
    format:
      "peak memory (VmHWM of the whole process in each phase, target < 300 MB): loading the data %.0f MB; DataStore query all + batched + loadAll %.0f MB; DataStore N+1 %.0f MB; plain C API %.0f MB (query all alone %.0f MB); process peak %.0f MB%@",
    afterSetupMB, afterStoreMB, nPlusOnePeakMB, plainPeakMB, plainQueryPeakMB,
    max(afterSetupMB, afterStoreMB, nPlusOnePeakMB, plainPeakMB),
    (peakResettable
      ? " (freed heap is trimmed and the peak reset between phases)"
      : "; peaks not resettable here, so cumulative") as NSString))
