// Lazy-loading 1,000 belongsTo references over loopback against the local GraphQL server
// (Tests/GraphQLServer), sequentially and concurrently, next to a plain URLSession POST of the
// same documents in the same run; then listAll over 10,000 comments in pages of 100 against the
// same pages by plain POSTs. Run: swift run -c release APIBenchmark [references] [width]
//
// Profile mode, for instruction counts under callgrind (the server runs outside valgrind):
// APIBenchmark --profile lazy|plain ROUNDS seeds 100 comments, then runs ROUNDS rounds of one
// `list` of them and 100 sequential lazy loads (or 100 plain POSTs of the same bodies) and exits.
// Two runs with different ROUNDS give the instructions of one round (the seed and warm-up cancel
// out); lazy minus plain, divided by 100, is the client's own instructions per request
// (APIBENCHMARK_PROFILE_WIDTH=8 runs the requests 8 in flight, as the concurrent mode does):
//   APIBENCHMARK_ENDPOINT=http://127.0.0.1:PORT/graphql valgrind --tool=callgrind \
//     .build/release/APIBenchmark --profile lazy 2   (then 6; the same for plain; a fresh
//   server per run: `.venv/bin/python Tests/GraphQLServer/server.py --schema
//   Generated/seed-post-comment/schema.api.graphql --port 0 --db NEW.sqlite`)
import BenchmarkSupport
import Foundation
import LazyModel
import LazyModelAPI
import SeedPostCommentModels

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `lazy` or `plain` in profile mode (`--profile MODE ROUNDS`), else `nil`.
let profileMode: (lazy: Bool, rounds: Int)? = {
  let words = Array(CommandLine.arguments.dropFirst())
  guard let at = words.firstIndex(of: "--profile"), words.count > at + 2,
    let rounds = Int(words[at + 2]), ["lazy", "plain"].contains(words[at + 1])
  else { return nil }
  return (words[at + 1] == "lazy", rounds)
}()
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let referenceCount = profileMode == nil ? arguments.first ?? 1_000 : 100
let width = profileMode == nil ? arguments.dropFirst().first ?? 8 : 8
let rounds = 3

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// Starts the server on the seed's API schema; returns the process and its endpoint.
func startServer(database: URL) throws -> (Process, URL) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: try localServerPython(root: root))
  process.arguments = [
    root.appendingPathComponent("Tests/GraphQLServer/server.py").path,
    "--schema", root.appendingPathComponent("Generated/seed-post-comment/schema.api.graphql").path,
    "--port", "0", "--db", database.path,
  ]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  var line: [UInt8] = []
  while let byte = output.fileHandleForReading.readData(ofLength: 1).first,
    byte != UInt8(ascii: "\n")
  {
    line.append(byte)
  }
  let text = String(decoding: line, as: UTF8.self)
  guard text.hasPrefix("LISTENING "), let port = Int(text.dropFirst(10)) else {
    fatalError("the GraphQL server did not start: \(text)")
  }
  return (process, URL(string: "http://127.0.0.1:\(port)/graphql")!)
}

/// Runs `body` for indexes 0..<count with up to `width` in flight.
func forEach(_ count: Int, width: Int, _ body: @escaping @Sendable (Int) async throws -> Void)
  async throws
{
  try await withThrowingTaskGroup(of: Void.self) { group in
    var next = 0
    while next < min(width, count) {
      let index = next
      group.addTask { try await body(index) }
      next += 1
    }
    while try await group.next() != nil, next < count {
      let index = next
      group.addTask { try await body(index) }
      next += 1
    }
  }
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func time(_ body: () async throws -> Void) async rethrows -> Double {
  let start = ContinuousClock.now
  try await body()
  return seconds(ContinuousClock.now - start)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
  "apibenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
// `APIBENCHMARK_ENDPOINT` names a server started by hand (under valgrind `Process` cannot spawn
// one); it must be fresh, as the seed creates its records.
let givenEndpoint = ProcessInfo.processInfo.environment["APIBENCHMARK_ENDPOINT"].flatMap(URL.init)
let server: Process?
let endpoint: URL
if let givenEndpoint {
  (server, endpoint) = (nil, givenEndpoint)
} else {
  (server, endpoint) = try startServer(database: directory.appendingPathComponent("data.sqlite"))
}
defer {
  if let server { kill(server.processIdentifier, SIGKILL) }
  try? FileManager.default.removeItem(at: directory)
}

let client = APIClient(
  configuration: APIClient.Configuration(endpoint: endpoint, listPageSize: 1_000))
let sessionConfiguration = URLSessionConfiguration.ephemeral
sessionConfiguration.timeoutIntervalForRequest = client.configuration.timeout
sessionConfiguration.httpMaximumConnectionsPerHost = 16
let plainSession = URLSession(configuration: sessionConfiguration)

// Seed: one post per reference, one comment pointing at each post.
let postIDs = (0..<referenceCount).map { String(format: "post-%05d", $0) }
try await forEach(referenceCount, width: width) { index in
  let post = Post4V2(id: postIDs[index], title: "Post \(index)")
  try await client.create(post)
  try await client.create(
    Comment4V2(id: String(format: "comment-%05d", index), content: "c\(index)", post: post))
}

/// Comments freshly decoded from one `list` request: their `post` references are not loaded.
func freshComments() async throws -> [Comment4V2] {
  let page = try await client.send(ModelQueries.list(Comment4V2.self, limit: referenceCount))
  precondition(
    page.items.count == referenceCount,
    "expected \(referenceCount) comments, got \(page.items.count)")
  return page.items
}

/// The exact bodies the client sends for the lazy loads (same document, same variables).
let plainBodies = try postIDs.map { id in
  try client.httpBody(for: ModelQueries.get(Post4V2.self, byIdentifier: .init(id: id)))
}

@Sendable func plainPost(_ index: Int) async throws {
  var request = URLRequest(url: endpoint)
  request.httpMethod = "POST"
  request.timeoutInterval = client.configuration.timeout
  request.setValue("application/json", forHTTPHeaderField: "Content-Type")
  request.setValue("application/json", forHTTPHeaderField: "Accept")
  request.httpBody = plainBodies[index]
  let (data, response) = try await plainSession.data(for: request)
  precondition((response as? HTTPURLResponse)?.statusCode == 200 && !data.isEmpty)
}

// Warm up both paths (connections, server caches).
let warm = try await freshComments()
for index in 0..<min(50, referenceCount) {
  _ = try await warm[index].post
  try await plainPost(index)
}

if let profileMode {
  // APIBENCHMARK_PROFILE_WIDTH=8 runs each round's requests 8 in flight (the concurrent mode).
  let profileWidth = Int(ProcessInfo.processInfo.environment["APIBENCHMARK_PROFILE_WIDTH"] ?? "") ?? 1
  for _ in 0..<profileMode.rounds {
    let comments = try await freshComments()
    if profileWidth > 1 {
      try await forEach(comments.count, width: profileWidth) { index in
        if profileMode.lazy {
          guard try await comments[index].post != nil else { fatalError("a reference did not load") }
        } else {
          try await plainPost(index)
        }
      }
      continue
    }
    for (index, comment) in comments.enumerated() {
      if profileMode.lazy {
        guard try await comment.post != nil else { fatalError("a reference did not load") }
      } else {
        try await plainPost(index)
      }
    }
  }
  if let server { kill(server.processIdentifier, SIGKILL) }
  try? FileManager.default.removeItem(at: directory)
  exit(0)
}

struct Sample {
  var plain: Double
  var client: Double
  /// The benchmark process's CPU (user + sys) during each, in seconds.
  var plainCPU = 0.0
  var clientCPU = 0.0
}

/// `body`'s wall time and the process's CPU time during it, in seconds.
func timeAndCPU(_ body: () async throws -> Void) async rethrows -> (wall: Double, cpu: Double) {
  let cpuStart = processCPUSeconds()
  let wall = try await time(body)
  return (wall, processCPUSeconds() - cpuStart)
}

/// The 1-, 5- and 15-minute load averages (`getloadavg`), as printed by `uptime`.
func loadAverages() -> String {
  var loads = [Double](repeating: 0, count: 3)
  guard getloadavg(&loads, 3) == 3 else { return "unknown" }
  return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
}
let loadBefore = loadAverages()
var sequential: [Sample] = []
var concurrent: [Sample] = []
for _ in 0..<rounds {
  let plainSequential = try await timeAndCPU {
    for index in 0..<referenceCount { try await plainPost(index) }
  }
  var comments = try await freshComments()
  let clientSequential = try await timeAndCPU {
    for comment in comments {
      guard try await comment.post != nil else { fatalError("a reference did not load") }
    }
  }
  sequential.append(
    Sample(
      plain: plainSequential.wall, client: clientSequential.wall, plainCPU: plainSequential.cpu,
      clientCPU: clientSequential.cpu))

  let plainConcurrent = try await timeAndCPU {
    try await forEach(referenceCount, width: width) { try await plainPost($0) }
  }
  comments = try await freshComments()
  let loaded = comments
  let clientConcurrent = try await timeAndCPU {
    try await forEach(referenceCount, width: width) { index in
      guard try await loaded[index].post != nil else { fatalError("a reference did not load") }
    }
  }
  concurrent.append(
    Sample(
      plain: plainConcurrent.wall, client: clientConcurrent.wall, plainCPU: plainConcurrent.cpu,
      clientCPU: clientConcurrent.cpu))
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

// Client-side CPU alone: build the request, encode its body, decode a recorded response into a
// Post4V2 through the API decoding context; no network.
var responses: [Data] = []
for index in 0..<referenceCount {
  var request = URLRequest(url: endpoint)
  request.httpMethod = "POST"
  request.setValue("application/json", forHTTPHeaderField: "Content-Type")
  request.httpBody = plainBodies[index]
  responses.append(try await plainSession.data(for: request).0)
}
var cpu: [Double] = []
for _ in 0..<rounds {
  cpu.append(
    try await time {
      for index in 0..<referenceCount {
        let request = try ModelQueries.get(Post4V2.self, byIdentifier: .init(id: postIDs[index]))
        _ = try client.httpBody(for: request)
        guard try client.decodeResponse(responses[index], for: request).data??.id == postIDs[index]
        else {
          fatalError("a recorded response did not decode")
        }
      }
    })
}

var rows: [[String]] = []
for (name, samples) in [
  ("sequential", sequential), (String("concurrent (\(width) in flight)"), concurrent),
] {
  let plain = median(samples.map(\.plain))
  let lazy = median(samples.map(\.client))
  let n = Double(referenceCount)
  rows.append([
    name,
    String(format: "%.0f", n / plain),
    String(format: "%.0f", n / lazy),
    String(format: "%.1f µs", plain / n * 1e6),
    String(format: "%.1f µs", lazy / n * 1e6),
    String(format: "%+.1f µs", (lazy - plain) / n * 1e6),
    String(format: "%.2f×", lazy / plain),
    String(format: "%.1f µs", median(samples.map(\.plainCPU)) / n * 1e6),
    String(format: "%.1f µs", median(samples.map(\.clientCPU)) / n * 1e6),
  ])
}
print(
  "APIBenchmark: lazy-loading \(referenceCount) belongsTo references (comment.post → getPost4V2) over loopback"
)
print(
  "local GraphQL server (Tests/GraphQLServer, graphql-core + SQLite); median of \(rounds) rounds\n")
print(
  BenchmarkFormat.table(
    [
      "mode", "plain POST req/s", "lazy load req/s", "plain / request", "lazy / request",
      "client overhead / request", "lazy ÷ plain", "plain CPU / request", "lazy CPU / request",
    ],
    rows))
print(
  "\nclient-side CPU alone (build request, encode body, decode recorded response; no network): "
    + String(format: "%.1f µs per request", median(cpu) / Double(referenceCount) * 1e6))
print(
  "\nplain POST: URLSession.data(for:) with the same headers and pre-encoded body, response bytes read, not decoded."
)
print(
  "lazy load: LazyReference.get() → APIReferenceProvider → APIClient.send (document build, JSON encode, POST, decode Post4V2)."
)
print(
  "CPU: the benchmark process's user + sys time (CLOCK_PROCESS_CPUTIME_ID) during the timed requests; the server is another process."
)
print("load average (1, 5, 15 min) before the timed rounds: \(loadBefore); after: \(loadAverages())")
print("target: lazy ÷ plain ≤ 1.05×")

// MARK: listAll over `listItemCount` comments in pages of 100, against the same pages fetched by
// plain POSTs (the client's own list bodies; the baseline reads only `nextToken` from each page).
let listItemCount = 10_000
let listPageSize = 100
try await forEach(listItemCount - referenceCount, width: width) { index in
  try await client.create(
    Comment4V2(
      id: String(format: "extra-%05d", index), content: "e\(index)",
      post: Post4V2(id: postIDs[index % referenceCount], title: "")))
}

/// The process's CPU time (user + system), in seconds.
func processCPUSeconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

func plainPages() async throws -> Int {
  var token: String?
  var pages = 0
  repeat {
    var request = URLRequest(url: endpoint)
    request.httpMethod = "POST"
    request.timeoutInterval = client.configuration.timeout
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.httpBody = try client.httpBody(
      for: ModelQueries.list(Comment4V2.self, limit: listPageSize, nextToken: token))
    let (data, _) = try await plainSession.data(for: request)
    let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let connection = (json?["data"] as? [String: Any])?["listComment4V2s"] as? [String: Any]
    token = connection?["nextToken"] as? String
    pages += 1
  } while token != nil
  return pages
}

func listAllItems() async throws -> Int {
  var count = 0
  for try await _ in client.listAll(Comment4V2.self, pageSize: listPageSize) { count += 1 }
  return count
}

_ = try await plainPages()  // warm up
let listed = try await listAllItems()
precondition(listed == listItemCount, "listAll yielded \(listed) comments, not \(listItemCount)")
var listPlain: [(wall: Double, cpu: Double)] = []
var listClient: [(wall: Double, cpu: Double)] = []
for _ in 0..<rounds {
  var cpuStart = processCPUSeconds()
  let plainWall = try await time { _ = try await plainPages() }
  listPlain.append((plainWall, processCPUSeconds() - cpuStart))
  cpuStart = processCPUSeconds()
  let clientWall = try await time { _ = try await listAllItems() }
  listClient.append((clientWall, processCPUSeconds() - cpuStart))
}
let pages = Double(listItemCount / listPageSize)
let plainWall = median(listPlain.map(\.wall))
let clientWall = median(listClient.map(\.wall))
print(
  "\nlistAll over \(listItemCount) comments in pages of \(listPageSize) (\(Int(pages)) requests), median of \(rounds) rounds:\n"
)
print(
  BenchmarkFormat.table(
    ["mode", "wall", "wall / page", "client CPU (user+sys)", "listAll ÷ plain"],
    [
      [
        "plain POSTs (nextToken only)", String(format: "%.0f ms", plainWall * 1e3),
        String(format: "%.2f ms", plainWall / pages * 1e3),
        String(format: "%.0f ms", median(listPlain.map(\.cpu)) * 1e3), "1.00×",
      ],
      [
        "client.listAll (decoded models)", String(format: "%.0f ms", clientWall * 1e3),
        String(format: "%.2f ms", clientWall / pages * 1e3),
        String(format: "%.0f ms", median(listClient.map(\.cpu)) * 1e3),
        String(format: "%.2f×", clientWall / plainWall),
      ],
    ]))
print("load average (1, 5, 15 min) after listAll: \(loadAverages())")
print("target: listAll ÷ plain ≤ 1.1×")
