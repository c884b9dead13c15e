import Foundation
import LazyModel

/// One result of a live query (``DataStore/observeQuery(_:where:sort:minimumInterval:)``), as
/// Amplify's `observeQuery` delivers it.
public struct QuerySnapshot<M: Model>: Sendable {
  /// The models matching the query, in its sort order, as stored after the commit.
  public let items: [M]
  /// Whether the local store is in sync with the cloud: `true` for a store without sync; with
  /// sync, `true` once every synced model finished its first sync query since the last
  /// ``DataStore/start()``, `false` before and after ``DataStore/stop()`` (a snapshot follows each
  /// change of it).
  public let isSynced: Bool
}

extension DataStore {
  /// Whether ``QuerySnapshot/isSynced`` holds now.
  var isSynced: Bool { sync?.isSynced ?? true }

  /// A live query: the current result of `query(M.self, where: predicate, sort: sort)` first, then
  /// a new snapshot after each commit that changes the result (its own writes, cascades, other
  /// stores on the same file, other processes): after a commit to `M`'s table the query is read
  /// again, and a result equal to the last one (`items` by `==`, stored fields and reference
  /// identifiers, and the same ``QuerySnapshot/isSynced``) gives no snapshot.
  ///
  /// Coalesced: change signals that arrive while a snapshot is being read collapse into one, and
  /// snapshots follow each other at least `minimumInterval` apart (default 50 ms, at most 20 snapshots
  /// a second; the first change after a quiet period is read at once, so an isolated commit's
  /// snapshot comes without delay), so a burst of 1,000 saves yields a handful of snapshots.
  /// A consumer slower than the snapshots sees only the newest one (the buffer holds one), so memory
  /// stays bounded. Each snapshot is read on a reader connection.
  ///
  /// Cancelling the consuming task (or dropping the sequence) ends it and removes its observer.
  /// The sequence throws what ``query(_:where:sort:limit:offset:includes:)`` throws (and ends),
  /// except that a read after a change that fails with ``DataStoreError/decodingFailed(model:field:reason:)``
  /// (a committed row the Swift type cannot hold: another process or another schema version of the
  /// model stored it) gives no snapshot and ends nothing: the sequence keeps its last snapshot and
  /// reads again after the next change. That change is reported by ``observeFailures()`` as
  /// ``DataStoreError/undecodableChange(model:identifiers:operation:error:)`` (when it was made
  /// through a `DataStore`; a program writing the file without one reports no rows). The first
  /// read still throws such a failure.
  public func observeQuery<M: Model>(
    _ type: M.Type, where predicate: QueryPredicate<M> = .all, sort: [QuerySort<M>] = [],
    minimumInterval: Duration = .milliseconds(50)
  ) -> AsyncThrowingStream<QuerySnapshot<M>, any Error> {
    let (snapshots, output) = AsyncThrowingStream<QuerySnapshot<M>, any Error>.makeStream(
      bufferingPolicy: .bufferingNewest(1))
    let (changes, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let table = (try? mapping(for: M.self).table) ?? M.modelName
    let id = observers.addSignal(table) { signal.yield() }
    let driver = Task { [self] in
      do {
        var synced = isSynced  // read before the items: a `true` snapshot holds the synced rows
        var items = try await query(M.self, where: predicate, sort: sort)
        output.yield(QuerySnapshot(items: items, isSynced: synced))
        var last = ContinuousClock.now
        for await _ in changes {
          let wait = last + minimumInterval - ContinuousClock.now
          if wait > .zero { try await Task.sleep(for: wait) }
          last = ContinuousClock.now
          let nowSynced = isSynced
          let nowItems: [M]
          do {
            nowItems = try await query(M.self, where: predicate, sort: sort)
          } catch DataStoreError.decodingFailed {
            // A committed row the Swift type cannot hold (another process or schema version wrote
            // it): keep the last snapshot and read again after the next change. The change itself
            // is reported by `observeFailures()` (`deliver`).
            continue
          }
          // A commit that left the result as it was (another row of the table) gives no snapshot.
          guard nowItems != items || nowSynced != synced else { continue }
          (items, synced) = (nowItems, nowSynced)
          output.yield(QuerySnapshot(items: items, isSynced: synced))
        }
        output.finish()
      } catch is CancellationError {
        output.finish()
      } catch {
        output.finish(throwing: error)
      }
    }
    changeLogWatcher?.observerStarted(self)
    output.onTermination = { [observers, changeLogWatcher] _ in
      observers.remove(table, id)
      changeLogWatcher?.observerEnded()
      signal.finish()
      driver.cancel()
    }
    return snapshots
  }
}
