// Outbox drain: N offline saves sent by the DataStore's sync engine against the local GraphQL
// server (Tests/GraphQLServer, versioned schema Generated/sync/sync-blog), next to N sequential
// plain URLSession POSTs of the same create mutation in the same run. Wall time, this process's CPU
// time (user + sys: the server is another process) and the load average are printed.
// Then: base sync of P posts + C comments into an empty store against the same pages fetched with
// URLSession and inserted with the plain SQLite C API; delta sync of D changes against the same;
// remote change -> the other device's observeQuery snapshot latency (median of L).
// Run: swift run -c release SyncBenchmark [saves] [rounds] [posts] [comments] [changes] [latencies]
import BenchmarkSupport
import CSQLite
import Foundation
import LazyModel
import LazyModelAPI
import LazyModelDataStore
import SyncBlogModels

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let saveCount = arguments.first ?? 1_000
let rounds = arguments.dropFirst().first ?? 3
let postCount = arguments.dropFirst(2).first ?? 1_000
let commentCount = arguments.dropFirst(3).first ?? 10_000
let changeCount = arguments.dropFirst(4).first ?? 1_000
let latencyCount = arguments.dropFirst(5).first ?? 20

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("syncbenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

/// The local server: started here, or (`SYNC_BENCHMARK_PORT=<port>`) one already listening on
/// 127.0.0.1, started with the same `--schema` — valgrind cannot spawn a child process
/// (`Process.run()` fails with EBADF under it), so a profile run uses a server started beside it.
func startServer() throws -> (Process?, Int) {
  if let given = ProcessInfo.processInfo.environment["SYNC_BENCHMARK_PORT"].flatMap({ Int($0) }) {
    return (nil, given)
  }
  let server = Process()
  server.executableURL = URL(fileURLWithPath: try localServerPython(root: root))
  server.arguments = [
    root.appendingPathComponent("Tests/GraphQLServer/server.py").path,
    "--schema", root.appendingPathComponent("Generated/sync/sync-blog/schema.api.graphql").path,
    "--port", "0", "--db", directory.appendingPathComponent("server.sqlite").path,
  ]
  let serverOutput = Pipe()
  server.standardOutput = serverOutput
  try server.run()
  var line: [UInt8] = []
  while let byte = serverOutput.fileHandleForReading.readData(ofLength: 1).first, byte != UInt8(ascii: "\n") {
    line.append(byte)
  }
  let started = String(decoding: line, as: UTF8.self)
  guard started.hasPrefix("LISTENING "), let port = Int(started.dropFirst(10)) else {
    kill(server.processIdentifier, SIGKILL)
    fatalError("the GraphQL server did not start: \(started)")
  }
  return (server, port)
}
let (server, port) = try startServer()
defer { if let server { kill(server.processIdentifier, SIGKILL) } }
let endpoint = URL(string: "http://127.0.0.1:\(port)/graphql")!

func cpuSeconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func loadAverage() -> String {
  (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(
    separator: " ")
    ?? "?"
}

struct Measure {
  var wall: Double
  var cpu: Double
}

func measure(_ body: () async throws -> Void) async rethrows -> Measure {
  let clock = ContinuousClock.now
  let cpu = cpuSeconds()
  try await body()
  let elapsed = ContinuousClock.now - clock
  return Measure(
    wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
    cpu: cpuSeconds() - cpu)
}

// The plain baseline: the outbox's create document, posted with URLSession one after another.
// Generous deadlines: seeding 10,000 records per request and paging 100,000 comments take the
// Python server a long time on a loaded machine.
let session = URLSession(
  configuration: {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 900
    configuration.timeoutIntervalForResource = 900
    return configuration
  }())
let document =
  "mutation CreatePost($input: CreatePostInput!) { createPost(input: $input) { id title rating tags createdAt updatedAt __typename _version _deleted _lastChangedAt } }"
func plainPost(_ id: String) async throws {
  var request = URLRequest(url: endpoint)
  request.httpMethod = "POST"
  request.setValue("application/json", forHTTPHeaderField: "Content-Type")
  request.httpBody = try JSONSerialization.data(withJSONObject: [
    "query": document, "operationName": "CreatePost",
    "variables": ["input": ["id": id, "title": "post \(id)", "rating": 3, "tags": ["a", "b"]]],
  ])
  let (data, response) = try await session.data(for: request)
  precondition((response as? HTTPURLResponse)?.statusCode == 200 && !data.isEmpty)
}

/// N saves into a fresh store while offline (not started), then the drain, timed until the outbox
/// is empty (`start: false`: the saves alone, for a profile's baseline).
func drain(round: Int, start: Bool = true) async throws -> Measure {
  let client = APIClient(configuration: .init(endpoint: endpoint, timeout: 300))
  let store = try DataStore(
    fileURL: directory.appendingPathComponent("store-\(round).sqlite"), registry: Models.registry,
    sync: SyncConfiguration(client: client))
  for index in 0..<saveCount {
    try await store.save(Post(id: "sync-\(round)-\(index)", title: "post \(index)", rating: 3, tags: ["a", "b"]))
  }
  guard start else { return Measure(wall: 0, cpu: 0) }
  let events = store.syncEvents
  let result = try await measure {
    try await store.start()
    for await event in events {
      if case .outboxStatus(isEmpty: true) = event { break }
    }
  }
  await store.stop()
  let left = try await store.pendingMutations()
  precondition(left.isEmpty, "the outbox did not drain")
  return result
}

// Profiling: `SYNC_BENCHMARK_ONLY=<part>` runs one part once and exits, so that callgrind's
// instruction count of the whole process, minus that of the part it builds on, is the part's
// cost: `plain` (N plain POSTs), `saves` (N offline saves), `drain` (the saves, then the drain),
// `seed` (the inbound seeding), `base-plain` and `base-store` (the seeding, then one base sync).
let only = ProcessInfo.processInfo.environment["SYNC_BENCHMARK_ONLY"]
/// Ends a profile run (top-level `defer`s do not run on `exit`): the server and the files go.
func finishProfile() -> Never {
  if let server { kill(server.processIdentifier, SIGKILL) }
  try? FileManager.default.removeItem(at: directory)
  exit(0)
}
switch only {
case "plain":
  for index in 0..<saveCount { try await plainPost("plain-\(index)") }
  finishProfile()
case "saves", "drain":
  _ = try await drain(round: 0, start: only == "drain")
  finishProfile()
default: break
}

if only == nil {
  for index in 0..<50 { try await plainPost("warm-\(index)") }
  _ = try await drain(round: -1)
}

var plain: [Measure] = []
var outbox: [Measure] = []
for round in 0..<(only == nil ? rounds : 0) {
  plain.append(try await measure { for index in 0..<saveCount { try await plainPost("plain-\(round)-\(index)") } })
  // Reset after the plain POSTs: `start()` also runs a base sync of what the server holds, and the
  // drain measures sending the outbox as a first offline launch against an empty server would.
  try await postJSON("/test/reset", [:])
  outbox.append(try await drain(round: round))
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
if only == nil {
  let plainWall = median(plain.map(\.wall))
  let plainCPU = median(plain.map(\.cpu))
  let outboxWall = median(outbox.map(\.wall))
  let outboxCPU = median(outbox.map(\.cpu))
  print(
    "SyncBenchmark: \(saveCount) offline saves drained vs \(saveCount) sequential plain POSTs, median of \(rounds); load average \(loadAverage())"
  )
  print(
    BenchmarkFormat.table(
      ["measurement", "wall", "CPU (this process)", "per mutation (wall)"],
      [
        [
          "plain POSTs (URLSession)", BenchmarkFormat.milliseconds(plainWall), BenchmarkFormat.milliseconds(plainCPU),
          String(format: "%.3f ms", plainWall * 1000 / Double(saveCount)),
        ],
        [
          "outbox drain", BenchmarkFormat.milliseconds(outboxWall), BenchmarkFormat.milliseconds(outboxCPU),
          String(format: "%.3f ms", outboxWall * 1000 / Double(saveCount)),
        ],
        ["ratio", String(format: "%.2f×", outboxWall / plainWall), String(format: "%.2f×", outboxCPU / plainCPU), ""],
      ]))
  print(
    "rounds (plain / outbox wall, ms): "
      + zip(plain, outbox).map { String(format: "%.0f / %.0f", $0.wall * 1000, $1.wall * 1000) }.joined(separator: ", ")
  )
}

// MARK: Inbound: base sync, delta sync, remote change latency

func postJSON(_ path: String, _ body: Any) async throws {
  var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
  request.httpMethod = "POST"
  request.httpBody = try JSONSerialization.data(withJSONObject: body)
  let (_, response) = try await session.data(for: request)
  precondition((response as? HTTPURLResponse)?.statusCode == 200, "\(path) failed")
}

let inboundDirectory = directory.appendingPathComponent("inbound")
try FileManager.default.createDirectory(at: inboundDirectory, withIntermediateDirectories: true)
try await postJSON("/test/reset", [:])
try await postJSON(
  "/test/sync/seed",
  ["model": "Post", "items": (0..<postCount).map { ["id": "bp\($0)", "title": "post \($0)", "rating": 3] }])
for start in stride(from: 0, to: commentCount, by: 10_000) {
  let items = (start..<min(commentCount, start + 10_000)).map {
    ["id": "bc\($0)", "postID": "bp\($0 % max(1, postCount))", "content": "comment \($0)"]
  }
  try await postJSON("/test/sync/seed", ["model": "Comment", "items": items])
}

/// Starts `store` and waits for its first sync (`ready`).
func syncOnce(_ store: DataStore) async throws {
  let events = store.syncEvents
  try await store.start()
  for await event in events {
    if case .ready = event { break }
  }
}

let pageSize = 1_000
let selections = [
  "Posts": "id title rating tags createdAt updatedAt __typename _version _deleted _lastChangedAt",
  "Comments": "id content postID createdAt updatedAt __typename _version _deleted _lastChangedAt",
]

/// The plain baseline of a sync: the same `sync<Plural>` pages (URLSession, following nextToken),
/// each inserted in one transaction with prepared `INSERT OR REPLACE` statements of the C API.
func plainSync(_ file: URL, lastSync: [String: Int]) async throws -> [String: Int] {
  var db: OpaquePointer?
  precondition(sqlite3_open(file.path, &db) == SQLITE_OK)
  defer { sqlite3_close(db) }
  sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", nil, nil, nil)
  sqlite3_exec(
    db,
    "CREATE TABLE IF NOT EXISTS Post (id TEXT PRIMARY KEY, title TEXT, rating INTEGER, version INTEGER);"
      + " CREATE TABLE IF NOT EXISTS Comment (id TEXT PRIMARY KEY, content TEXT, postID TEXT, version INTEGER)",
    nil, nil, nil)
  let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
  var started: [String: Int] = [:]
  for (model, plural) in [("Post", "Posts"), ("Comment", "Comments")] {
    let sql =
      model == "Post"
      ? "INSERT OR REPLACE INTO Post (id, title, rating, version) VALUES (?, ?, ?, ?)"
      : "INSERT OR REPLACE INTO Comment (id, content, postID, version) VALUES (?, ?, ?, ?)"
    var statement: OpaquePointer?
    precondition(sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK)
    defer { sqlite3_finalize(statement) }
    var token: Any = NSNull()
    repeat {
      var request = URLRequest(url: endpoint)
      request.httpMethod = "POST"
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = try JSONSerialization.data(withJSONObject: [
        "query":
          "query S($l: Int, $t: String, $s: AWSTimestamp) { sync\(plural)(limit: $l, nextToken: $t, lastSync: $s) { items { \(selections[plural]!) } nextToken startedAt } }",
        "variables": ["l": pageSize, "t": token, "s": lastSync[model].map { $0 as Any } ?? NSNull()],
      ])
      let (data, _) = try await session.data(for: request)
      let page =
        ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["data"] as? [String: Any])?["sync\(plural)"]
        as? [String: Any] ?? [:]
      sqlite3_exec(db, "BEGIN", nil, nil, nil)
      for item in page["items"] as? [[String: Any]] ?? [] {
        sqlite3_bind_text(statement, 1, item["id"] as? String ?? "", -1, transient)
        if model == "Post" {
          sqlite3_bind_text(statement, 2, item["title"] as? String ?? "", -1, transient)
          sqlite3_bind_int64(statement, 3, Int64(item["rating"] as? Int ?? 0))
        } else {
          sqlite3_bind_text(statement, 2, item["content"] as? String ?? "", -1, transient)
          sqlite3_bind_text(statement, 3, item["postID"] as? String ?? "", -1, transient)
        }
        sqlite3_bind_int64(statement, 4, Int64(item["_version"] as? Int ?? 0))
        precondition(sqlite3_step(statement) == SQLITE_DONE)
        sqlite3_reset(statement)
      }
      sqlite3_exec(db, "COMMIT", nil, nil, nil)
      started[model] = page["startedAt"] as? Int
      token = page["nextToken"] ?? NSNull()
    } while !(token is NSNull)
  }
  return started
}

func syncStore(_ name: String) throws -> DataStore {
  var configuration = SyncConfiguration(client: APIClient(configuration: .init(endpoint: endpoint, timeout: 300)))
  configuration.syncPageSize = pageSize
  configuration.maxRecordsToSync = max(10_000, postCount + commentCount)
  return try DataStore(
    fileURL: inboundDirectory.appendingPathComponent("\(name).sqlite"), registry: Models.registry, sync: configuration)
}

switch only {
case "seed": finishProfile()
case "base-plain":
  _ = try await plainSync(inboundDirectory.appendingPathComponent("plain-profile.sqlite"), lastSync: [:])
  finishProfile()
case "base-store":
  try await syncOnce(try syncStore("base-profile"))
  finishProfile()
default: break
}

var serverVersions: [String: Int] = [:]  // each post's current _version on the server
var basePlain: [Measure] = []
var baseStore: [Measure] = []
var deltaPlain: [Measure] = []
var deltaStore: [Measure] = []
for round in 0..<rounds {
  var plainStarted: [String: Int] = [:]
  basePlain.append(
    try await measure {
      plainStarted = try await plainSync(
        inboundDirectory.appendingPathComponent("plain-\(round).sqlite"), lastSync: [:])
    })
  let store = try syncStore("base-\(round)")
  baseStore.append(try await measure { try await syncOnce(store) })
  let comments = try await store.count(Comment.self)
  precondition(comments == commentCount, "the base sync missed comments")
  await store.stop()
  // D changes on the server (update mutations), then both sides catch up with a delta sync.
  for index in 0..<changeCount {
    var request = URLRequest(url: endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let id = "bp\(index % max(1, postCount))"
    let version = serverVersions[id, default: 1]
    serverVersions[id] = version + 1
    request.httpBody = try JSONSerialization.data(withJSONObject: [
      "query": "mutation U($i: UpdatePostInput!) { updatePost(input: $i) { id } }",
      "variables": ["i": ["id": id, "title": "changed \(round) \(index)", "_version": version]],
    ])
    _ = try await session.data(for: request)
  }
  deltaPlain.append(
    try await measure {
      _ = try await plainSync(inboundDirectory.appendingPathComponent("plain-\(round).sqlite"), lastSync: plainStarted)
    })
  deltaStore.append(try await measure { try await syncOnce(store) })
  await store.stop()
}

// Remote change -> the other device's observeQuery snapshot: device A saves, device B's live
// query (already synced) yields the snapshot that holds it.
let deviceA = try syncStore("latency-a")
let deviceB = try syncStore("latency-b")
try await syncOnce(deviceA)
try await syncOnce(deviceB)
var latencies: [Double] = []
for index in 0..<latencyCount {
  let id = "latency-\(index)"
  let snapshots = deviceB.observeQuery(Post.self, where: Post.keys.id.eq(id))
  var iterator = snapshots.makeAsyncIterator()
  _ = try await iterator.next()  // the current (empty) result
  // A quiet period first, so the live query reads at once (its coalescing interval, 50 ms after
  // the previous snapshot, is not what this measures).
  try await Task.sleep(for: .milliseconds(100))
  let start = ContinuousClock.now
  try await deviceA.save(Post(id: id, title: "latency \(index)"))
  while let snapshot = try await iterator.next(), snapshot.items.isEmpty {}
  let elapsed = ContinuousClock.now - start
  latencies.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}
await deviceA.stop()
await deviceB.stop()

print("")
print(
  "SyncBenchmark inbound: \(postCount) posts + \(commentCount) comments, \(changeCount) changes, pages of \(pageSize), median of \(rounds); load average \(loadAverage())"
)
func row(_ name: String, _ values: [Measure]) -> [String] {
  [
    name, BenchmarkFormat.milliseconds(median(values.map(\.wall))),
    BenchmarkFormat.milliseconds(median(values.map(\.cpu))),
  ]
}
func ratio(_ store: [Measure], _ plain: [Measure]) -> [String] {
  [
    "ratio", String(format: "%.2f×", median(store.map(\.wall)) / median(plain.map(\.wall))),
    String(format: "%.2f×", median(store.map(\.cpu)) / median(plain.map(\.cpu))),
  ]
}
print(
  BenchmarkFormat.table(
    ["measurement", "wall", "CPU (this process)"],
    [
      row("base sync, plain (URLSession + C API)", basePlain), row("base sync, DataStore", baseStore),
      ratio(baseStore, basePlain),
      row("delta sync, plain (URLSession + C API)", deltaPlain), row("delta sync, DataStore", deltaStore),
      ratio(deltaStore, deltaPlain),
    ]))
print(
  String(
    format:
      "remote change -> other device's observeQuery snapshot: median %.1f ms, max %.1f ms over %d saves (loopback)",
    median(latencies) * 1000, (latencies.max() ?? 0) * 1000, latencyCount))
