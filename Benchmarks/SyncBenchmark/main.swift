// Outbox drain: N offline saves sent by the DataStore's sync engine against the local GraphQL
// server (Tests/GraphQLServer, versioned schema Generated/sync/sync-blog), next to N sequential
// plain URLSession POSTs of the same create mutation in the same run. Wall time, this process's CPU
// time (user + sys: the server is another process) and the load average are printed.
// Run: swift run -c release SyncBenchmark [saves] [rounds]
import BenchmarkSupport
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

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()


let directory = FileManager.default.temporaryDirectory.appendingPathComponent("syncbenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

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
defer { kill(server.processIdentifier, SIGKILL) }
var line: [UInt8] = []
while let byte = serverOutput.fileHandleForReading.readData(ofLength: 1).first, byte != UInt8(ascii: "\n") {
  line.append(byte)
}
let started = String(decoding: line, as: UTF8.self)
guard started.hasPrefix("LISTENING "), let port = Int(started.dropFirst(10)) else {
  fatalError("the GraphQL server did not start: \(started)")
}
let endpoint = URL(string: "http://127.0.0.1:\(port)/graphql")!

func cpuSeconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func loadAverage() -> String {
  (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ")
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
let session = URLSession(configuration: .ephemeral)
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

/// N saves into a fresh store while offline (not started), then the drain, timed until the outbox is empty.
func drain(round: Int) async throws -> Measure {
  let client = APIClient(configuration: .init(endpoint: endpoint))
  let store = try DataStore(
    fileURL: directory.appendingPathComponent("store-\(round).sqlite"), registry: Models.registry,
    sync: SyncConfiguration(client: client))
  for index in 0..<saveCount {
    try await store.save(Post(id: "sync-\(round)-\(index)", title: "post \(index)", rating: 3, tags: ["a", "b"]))
  }
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

for index in 0..<50 { try await plainPost("warm-\(index)") }
_ = try await drain(round: -1)

var plain: [Measure] = []
var outbox: [Measure] = []
for round in 0..<rounds {
  plain.append(try await measure { for index in 0..<saveCount { try await plainPost("plain-\(round)-\(index)") } })
  outbox.append(try await drain(round: round))
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let plainWall = median(plain.map(\.wall))
let plainCPU = median(plain.map(\.cpu))
let outboxWall = median(outbox.map(\.wall))
let outboxCPU = median(outbox.map(\.cpu))
print("SyncBenchmark: \(saveCount) offline saves drained vs \(saveCount) sequential plain POSTs, median of \(rounds); load average \(loadAverage())")
print(
  BenchmarkFormat.table(
    ["measurement", "wall", "CPU (this process)", "per mutation (wall)"],
    [
      ["plain POSTs (URLSession)", BenchmarkFormat.milliseconds(plainWall), BenchmarkFormat.milliseconds(plainCPU),
       String(format: "%.3f ms", plainWall * 1000 / Double(saveCount))],
      ["outbox drain", BenchmarkFormat.milliseconds(outboxWall), BenchmarkFormat.milliseconds(outboxCPU),
       String(format: "%.3f ms", outboxWall * 1000 / Double(saveCount))],
      ["ratio", String(format: "%.2f×", outboxWall / plainWall), String(format: "%.2f×", outboxCPU / plainCPU), ""],
    ]))
print("rounds (plain / outbox wall, ms): " + zip(plain, outbox).map { String(format: "%.0f / %.0f", $0.wall * 1000, $1.wall * 1000) }.joined(separator: ", "))
