// Real-time subscriptions over loopback against the local server's real-time endpoint
// (Tests/GraphQLServer/realtime.py): event latency after the mutation's HTTP response, a sustained
// event rate to one subscriber, and the memory of many subscriptions on one connection, each next
// to a plain baseline measured in the same run.
// Events of the sustained run are produced by batches of 10 aliased mutations per HTTP request.
// Run: swift run -c release SubscriptionBenchmark [latency samples] [events/s] [seconds] [subscriptions]
import BenchmarkSupport
import Foundation
import LazyModel
import LazyModelAPI
import SeedPostCommentModels
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let latencySamples = arguments.first ?? 300
let rate = arguments.dropFirst().first ?? 1_000
let durationSeconds = arguments.dropFirst(2).first ?? 10
let subscriptionCount = arguments.dropFirst(3).first ?? 1_000

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

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

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// Arrival times of models by id, filled by the consuming task.
final class Arrivals: Sendable {
  private let state = Mutex<
    (times: [String: ContinuousClock.Instant], count: [String: Int], connected: Int, events: Int)
  >(([:], [:], 0, 0))
  func record(_ id: String) {
    let now = ContinuousClock.now
    state.withLock {
      $0.times[id] = $0.times[id] ?? now
      $0.count[id, default: 0] += 1
      $0.events += 1
    }
  }
  var events: Int { state.withLock { $0.events } }
  func connected() { state.withLock { $0.connected += 1 } }
  var connectedCount: Int { state.withLock { $0.connected } }
  func time(of id: String) -> ContinuousClock.Instant? { state.withLock { $0.times[id] } }
  var distinct: Int { state.withLock { $0.times.count } }
  var duplicates: Int { state.withLock { $0.count.values.reduce(0) { $0 + max(0, $1 - 1) } } }
}

func consume(_ stream: AsyncThrowingStream<SubscriptionEvent<Post4V2>, any Error>, into arrivals: Arrivals) -> Task<
  Void, Never
> {
  Task {
    do {
      for try await event in stream {
        switch event {
        case .model(let post): arrivals.record(post.id)
        case .connected: arrivals.connected()
        case .reconnected: fatalError("the benchmark connection dropped")
        }
      }
    } catch {
      fatalError("subscription failed: \(error)")
    }
  }
}

func waitUntil(_ seconds: Double, _ condition: () -> Bool) async {
  let deadline = ContinuousClock.now + .seconds(seconds)
  while !condition(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
  "subscriptionbenchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let (server, endpoint) = try startServer(database: directory.appendingPathComponent("data.sqlite"))
defer {
  kill(server.processIdentifier, SIGKILL)
  try? FileManager.default.removeItem(at: directory)
}

let client = APIClient(configuration: APIClient.Configuration(endpoint: endpoint))
let sessionConfiguration = URLSessionConfiguration.ephemeral
sessionConfiguration.httpMaximumConnectionsPerHost = 32
let plainSession = URLSession(configuration: sessionConfiguration)

/// A plain URLSession POST of a pre-encoded createPost4V2 body (the producer of every event).
@Sendable func plainCreate(_ body: Data) async throws {
  var request = URLRequest(url: endpoint)
  request.httpMethod = "POST"
  request.setValue("application/json", forHTTPHeaderField: "Content-Type")
  request.httpBody = body
  let (data, response) = try await plainSession.data(for: request)
  precondition((response as? HTTPURLResponse)?.statusCode == 200 && !data.isEmpty)
}

func createBody(_ id: String) throws -> Data {
  try client.httpBody(for: ModelMutations.create(Post4V2(id: id, title: "t")))
}

/// One request holding `ids.count` aliased createPost4V2 mutations (one event each), so the
/// Python server's per-request cost does not cap the event rate.
func batchBody(_ ids: [String]) throws -> Data {
  let declarations = ids.indices.map { "$i\($0): CreatePost4V2Input!" }.joined(separator: ", ")
  let fields = ids.indices.map { "m\($0): createPost4V2(input: $i\($0)) { id }" }.joined(separator: " ")
  var variables: [String: Any] = [:]
  for (index, id) in ids.enumerated() { variables["i\(index)"] = ["id": id, "title": "t"] }
  return try JSONSerialization.data(withJSONObject: [
    "query": "mutation Batch(\(declarations)) { \(fields) }", "operationName": "Batch",
    "variables": variables,
  ])
}

// MARK: 1. Latency from the mutation's HTTP response to the .model event

let arrivals = Arrivals()
let consumer = consume(client.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)), into: arrivals)
await waitUntil(10) { arrivals.connectedCount == 1 }
precondition(arrivals.connectedCount == 1, "the subscription was not acknowledged")
for index in 0..<20 { try await plainCreate(try createBody("warm-\(index)")) }  // warm up
var latencies: [Double] = []
var endToEnd: [Double] = []
var roundTrips: [Double] = []
for index in 0..<latencySamples {
  let id = "latency-\(index)"
  let body = try createBody(id)
  let sent = ContinuousClock.now
  try await plainCreate(body)
  let answered = ContinuousClock.now
  await waitUntil(5) { arrivals.time(of: id) != nil }
  guard let arrived = arrivals.time(of: id) else { fatalError("event \(id) never arrived") }
  // Negative: the event arrived before the mutation's response did.
  latencies.append(seconds(arrived - answered))
  endToEnd.append(seconds(arrived - sent))
  roundTrips.append(seconds(answered - sent))
}

// MARK: 2. A sustained rate to one subscriber

let total = rate * durationSeconds
let batch = 10
let bodies = try stride(from: 0, to: total, by: batch).map { first in
  try batchBody((first..<min(total, first + batch)).map { "rate-\($0)" })
}
let rateStart = ContinuousClock.now
try await withThrowingTaskGroup(of: Void.self) { group in
  // A paced producer: request i (mutations i*batch ..< (i+1)*batch) is sent at
  // start + i * batch / rate, at most 64 in flight.
  var inFlight = 0
  for index in bodies.indices {
    let due = rateStart + .seconds(Double(index * batch) / Double(rate))
    if due > .now { try await Task.sleep(until: due) }
    if inFlight >= 64 {
      try await group.next()
      inFlight -= 1
    }
    let body = bodies[index]
    group.addTask { try await plainCreate(body) }
    inFlight += 1
  }
  try await group.waitForAll()
}
let produced = seconds(ContinuousClock.now - rateStart)
let expected = latencySamples + 20 + total
await waitUntil(30) { arrivals.distinct >= expected }
let delivered = seconds(ContinuousClock.now - rateStart)
let received = arrivals.distinct - latencySamples - 20
let lost = total - received
let duplicated = arrivals.duplicates
consumer.cancel()

// MARK: 3. Memory of many subscriptions on one connection

let manyClient = APIClient(configuration: APIClient.Configuration(endpoint: endpoint))
let manyArrivals = Arrivals()
let before = PeakMemory.currentResidentBytes() ?? PeakMemory.peakResidentBytes()
let startStart = ContinuousClock.now
var consumers: [Task<Void, Never>] = []
for _ in 0..<subscriptionCount {
  consumers.append(
    consume(manyClient.subscribe(to: try ModelSubscriptions.onCreate(Post4V2.self)), into: manyArrivals))
}
await waitUntil(60) { manyArrivals.connectedCount == subscriptionCount }
let startedIn = seconds(ContinuousClock.now - startStart)
precondition(manyArrivals.connectedCount == subscriptionCount, "not every subscription was acknowledged")
let after = PeakMemory.currentResidentBytes() ?? PeakMemory.peakResidentBytes()
let fanOutStart = ContinuousClock.now
try await plainCreate(try createBody("fan-out"))
await waitUntil(30) { manyArrivals.events == subscriptionCount }
precondition(manyArrivals.events == subscriptionCount, "the event did not reach every subscription")
let fanOut = seconds(ContinuousClock.now - fanOutStart)
for consumer in consumers { consumer.cancel() }

print("SubscriptionBenchmark: onCreatePost4V2 over loopback (local server, AppSync real-time protocol)\n")
print(
  BenchmarkFormat.table(
    ["measure", "value", "plain baseline (same run)", "ratio"],
    [
      [
        "event after mutation response, median (\(latencySamples) samples)",
        String(format: "%.2f ms", percentile(latencies, 0.5) * 1e3),
        String(format: "%.2f ms mutation round trip", percentile(roundTrips, 0.5) * 1e3),
        String(format: "%.2f×", percentile(latencies, 0.5) / percentile(roundTrips, 0.5)),
      ],
      [
        "event after mutation response, p95",
        String(format: "%.2f ms", percentile(latencies, 0.95) * 1e3),
        String(format: "%.2f ms", percentile(roundTrips, 0.95) * 1e3),
        String(format: "%.2f×", percentile(latencies, 0.95) / percentile(roundTrips, 0.95)),
      ],
      [
        "event after mutation request sent, median",
        String(format: "%.2f ms", percentile(endToEnd, 0.5) * 1e3),
        String(format: "%.2f ms mutation round trip", percentile(roundTrips, 0.5) * 1e3),
        String(format: "%.2f×", percentile(endToEnd, 0.5) / percentile(roundTrips, 0.5)),
      ],
      [
        "sustained: \(total) events at \(rate)/s to one subscriber",
        String(
          format: "%.0f events/s delivered, %d lost, %d duplicated", Double(received) / delivered, lost, duplicated),
        String(format: "%.0f mutations/s produced", Double(total) / produced),
        String(format: "%.2f×", (Double(received) / delivered) / (Double(total) / produced)),
      ],
      [
        "\(subscriptionCount) subscriptions on one connection: memory",
        String(
          format: "%.1f MB (%.1f KB each)", Double(after - before) / 1e6,
          Double(after - before) / Double(subscriptionCount) / 1e3),
        String(format: "%.1f MB process before", Double(before) / 1e6),
        String(format: "%.2f×", Double(after) / Double(before)),
      ],
      [
        "\(subscriptionCount) subscriptions: all acknowledged / one event to all",
        String(format: "%.0f ms / %.0f ms", startedIn * 1e3, fanOut * 1e3),
        "", "",
      ],
    ]))
print(
  "\nlatency: ContinuousClock from the createPost4V2 HTTP response to the .model event (negative: the event came first)."
)
print("targets: median ≤ 5 ms; \(rate) events/s for \(durationSeconds) s with 0 lost or duplicated.")
