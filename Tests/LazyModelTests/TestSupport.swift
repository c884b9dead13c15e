import Foundation
import LazyModel

/// The error test providers throw when told to fail.
struct InjectedFailure: Error, Equatable {
  let call: Int
}

/// A provider that answers from a fixed set of models, counts its calls, pauses in each call so
/// concurrent callers overlap, and fails the first `failures` calls.
final class CountingProvider<M: Model>: ModelProvider {
  private struct Counters {
    var loads = 0
    var batches: [[[IdentifierComponent]]] = []
    var batchesEntered = 0
    var loadsEntered = 0
    var failuresLeft: Int
  }

  private let counters: LockedCounters<Counters>
  private let models: [M]
  private let delay: Duration
  private let dropOneBatchResult: Bool

  init(
    _ models: [M], delay: Duration = .milliseconds(20), failures: Int = 0,
    dropOneBatchResult: Bool = false
  ) {
    self.models = models
    self.delay = delay
    self.counters = LockedCounters(Counters(failuresLeft: failures))
    self.dropOneBatchResult = dropOneBatchResult
  }

  var loads: Int { counters.withLock { $0.loads } }
  var batches: [[[IdentifierComponent]]] { counters.withLock { $0.batches } }
  /// Single loads that have started (counted before the pause).
  var loadsEntered: Int { counters.withLock { $0.loadsEntered } }
  /// Batch calls that have started (counted before the pause).
  var batchesEntered: Int { counters.withLock { $0.batchesEntered } }

  private func find(_ identifiers: [IdentifierComponent]) -> M? {
    models.first { $0.identifier.components == identifiers }
  }

  private func countCall(_ update: (inout Counters) -> Void) throws {
    try counters.withLock { counters in
      update(&counters)
      if counters.failuresLeft > 0 {
        counters.failuresLeft -= 1
        throw InjectedFailure(call: counters.loads + counters.batches.count)
      }
    }
  }

  func load(identifiers: [IdentifierComponent]) async throws -> M? {
    counters.withLock { $0.loadsEntered += 1 }
    try await Task.sleep(for: delay)
    try countCall { $0.loads += 1 }
    return find(identifiers)
  }

  func load(batch: [[IdentifierComponent]]) async throws -> [M?] {
    counters.withLock { $0.batchesEntered += 1 }
    try await Task.sleep(for: delay)
    try countCall { $0.batches.append(batch) }
    let results = batch.map(find)
    return dropOneBatchResult ? Array(results.dropLast()) : results
  }
}

/// A list provider over fixed pages (cursor = index of the next page), counting calls.
final class PagedProvider<M: Model>: ModelListProvider {
  private struct Counters {
    var calls: [String?] = []
    var failuresLeft: Int
  }

  private let pages: [[M]]
  private let delay: Duration
  private let counters: LockedCounters<Counters>

  init(pages: [[M]], delay: Duration = .milliseconds(20), failures: Int = 0) {
    self.pages = pages
    self.delay = delay
    self.counters = LockedCounters(Counters(failuresLeft: failures))
  }

  var calls: [String?] { counters.withLock { $0.calls } }

  func loadPage(after cursor: String?, limit: Int?) async throws -> ModelPage<M> {
    try await Task.sleep(for: delay)
    try counters.withLock { counters in
      counters.calls.append(cursor)
      if counters.failuresLeft > 0 {
        counters.failuresLeft -= 1
        throw InjectedFailure(call: counters.calls.count)
      }
    }
    let index = cursor.flatMap(Int.init) ?? 0
    return ModelPage(
      elements: pages[index], nextCursor: index + 1 < pages.count ? String(index + 1) : nil)
  }
}

/// JSON text of `value` with sorted keys.
func jsonText(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Decodes `text` as `type` with no decoding context.
func decodePlain<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try JSONDecoder().decode(T.self, from: Data(text.utf8))
}

extension Post {
  /// The component list of a default `id` key.
  static func key(_ id: String) -> [IdentifierComponent] {
    [IdentifierComponent(name: "id", value: .string(id))]
  }
}

/// Test-side counters behind an `NSLock` (which ThreadSanitizer sees through `pthread_mutex_*`).
final class LockedCounters<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
