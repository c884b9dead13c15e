import Foundation
import LazyModel
import LazyModelAPI

@testable import SeedPostCommentModels

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A value behind a pthread mutex (`NSLock`), for the tests' shared state. The thread sanitizer
/// sees the ordering a pthread mutex gives; it misreads `Synchronization.Mutex` on Linux and then
/// reports races that are not there. Thread-safe; `withLock`'s closure must not suspend or re-enter.
final class TestLock<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// The records an ``APIClient`` observer saw, in send order.
final class RequestLog: Sendable {
  private let records = TestLock<[GraphQLRequestRecord]>([])

  func append(_ record: GraphQLRequestRecord) { records.withLock { $0.append(record) } }
  var all: [GraphQLRequestRecord] { records.withLock { $0 } }
  var last: GraphQLRequestRecord? { records.withLock { $0.last } }
  func clear() { records.withLock { $0.removeAll() } }
}

/// The seed's API schema as `modelgen generate --emit api-schema` writes it.
let seedSchemaPath = "Generated/seed-post-comment/schema.api.graphql"

/// The request deadline of the tests' clients, in seconds: 10, times the factor in the environment
/// variable `LAZYMODEL_TEST_DEADLINE_SCALE` when set (`.ci/run` sets 4 for its thread-sanitizer run,
/// whose slowdown pushed two exchanges past 10 s). Tests of the deadline itself pass their own.
let testRequestDeadline: Double = 10 * testDeadlineScale

/// Waits `seconds` and ignores cancellation, as a provider that hangs does, without using a
/// processor meanwhile: a timer on a Dispatch queue resumes it. (A loop of `try? await
/// Task.sleep` ignores cancellation too, but once the task is cancelled each sleep throws at once,
/// so the loop spins on a thread of the cooperative pool — one of two on 2 cores — and Swift Testing
/// records a backtrace for every throw; the rest of the suite then starved for tens of seconds.)
func sleepIgnoringCancellation(seconds: Double) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
  }
}

/// The factor in `LAZYMODEL_TEST_DEADLINE_SCALE` (at least 1): how much slower than usual this run
/// may be (the thread sanitizer's). Bounds on how long a deadline takes to answer scale with it.
let testDeadlineScale: Double = {
  let scale = ProcessInfo.processInfo.environment["LAZYMODEL_TEST_DEADLINE_SCALE"].flatMap(Double.init) ?? 1
  return max(1, scale)
}()

/// A client of `server` that logs into `log`.
func makeClient(
  _ server: GraphQLServerProcess, log: RequestLog? = nil, timeout: Double = testRequestDeadline,
  pageSize: Int? = nil,
  authorization: APIClient.Authorization = .none, headers: [String: String] = [:]
) -> APIClient {
  APIClient(
    configuration: APIClient.Configuration(
      endpoint: server.endpoint, authorization: authorization, timeout: timeout,
      listPageSize: pageSize,
      additionalHeaders: headers),
    observer: log.map { log -> @Sendable (GraphQLRequestRecord) -> Void in
      { record in log.append(record) }
    })
}

/// Runs `body` for every element with up to `width` in flight.
func concurrently<T: Sendable>(
  _ elements: [T], width: Int = 8, _ body: @escaping @Sendable (T) async throws -> Void
) async throws {
  try await withThrowingTaskGroup(of: Void.self) { group in
    var iterator = elements.makeIterator()
    for _ in 0..<width {
      guard let element = iterator.next() else { break }
      group.addTask { try await body(element) }
    }
    while try await group.next() != nil {
      if let element = iterator.next() { group.addTask { try await body(element) } }
    }
  }
}

extension LazyReference {
  /// The identifiers of a not-loaded reference, or `nil` when loaded.
  var notLoadedIdentifiers: [IdentifierComponent]? {
    if case .notLoaded(let identifiers) = state { return identifiers }
    return nil
  }

  /// Whether the reference is loaded.
  var isLoaded: Bool {
    if case .loaded = state { return true }
    return false
  }
}

extension LazyList {
  /// Whether the list is loaded.
  var isLoaded: Bool {
    if case .loaded = state { return true }
    return false
  }
}
