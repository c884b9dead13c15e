import Foundation
import LazyModel
import Synchronization

/// A change to the stored models of one type, as ``DataStore/observe(_:)`` reports it.
public enum DataStoreEvent<M: Model>: Sendable {
  /// `model` was inserted or updated (reported after the transaction committed).
  case saved(M)
  /// The row with `identifier` was deleted by `delete` (rows removed by `ON DELETE CASCADE` are not
  /// reported).
  case deleted(ModelIdentifier)
}

/// The observers of a store, by model name.
///
/// Thread-safety: `Sendable`; the observer table sits behind a `Mutex`, and events are yielded
/// outside it.
final class Observers: Sendable {
  typealias Sink = @Sendable (_ saved: (any Model)?, _ deleted: ModelIdentifier?) -> Void
  private let sinks = Mutex<[String: [UUID: Sink]]>([:])

  func add(_ model: String, _ sink: @escaping Sink) -> UUID {
    let id = UUID()
    sinks.withLock { $0[model, default: [:]][id] = sink }
    return id
  }

  func remove(_ model: String, _ id: UUID) {
    sinks.withLock { _ = $0[model]?.removeValue(forKey: id) }
  }

  func hasObservers(_ model: String) -> Bool {
    sinks.withLock { !($0[model]?.isEmpty ?? true) }
  }

  func saved(_ models: [any Model], name: String) {
    let current = sinks.withLock { Array(($0[name] ?? [:]).values) }
    for model in models { for sink in current { sink(model, nil) } }
  }

  func deleted(_ identifiers: [ModelIdentifier], name: String) {
    let current = sinks.withLock { Array(($0[name] ?? [:]).values) }
    for identifier in identifiers { for sink in current { sink(nil, identifier) } }
  }
}

extension DataStore {
  /// The saves and deletes of `M` from now on, as an `AsyncStream` (unbounded buffer). The stream
  /// ends when the consuming task is cancelled or the stream is dropped.
  ///
  /// Events are reported after their transaction commits, in commit order; a saved model is the value
  /// that was passed to `save` (its `createdAt`/`updatedAt` as the caller had them).
  public func observe<M: Model>(_ type: M.Type) -> AsyncStream<DataStoreEvent<M>> {
    let (stream, continuation) = AsyncStream<DataStoreEvent<M>>.makeStream()
    let name = M.modelName
    let id = observers.add(name) { saved, deleted in
      if let model = saved as? M { continuation.yield(.saved(model)) }
      if let deleted { continuation.yield(.deleted(deleted)) }
    }
    continuation.onTermination = { [observers] _ in observers.remove(name, id) }
    return stream
  }
}
