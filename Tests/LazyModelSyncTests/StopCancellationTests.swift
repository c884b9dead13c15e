import Foundation
import LazyModel
import Testing

@testable import LazyModelDataStore

/// `stop()` cancels the engine's tasks; a store job or request they were waiting on then throws
/// `CancellationError` (or `APIError.cancelled`). That is no failure: the engine's error events
/// (``SyncEvent/inboundError(_:)``, ``SyncEvent/error(_:)``) leave it out, on the cancelled task
/// only. Before, `applyLive` reported it as an `inboundError` (seen in FieldRefusalSyncTests).
@Suite("Sync: stop()'s cancellation is no error event")
struct StopCancellationTests {
  @Test func aCancelledTasksCancellationIsNoErrorButARealErrorIs() async throws {
    let server = try await SyncServer()
    defer { server.stop() }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try syncStore(directory, endpoint: server.endpoint)
    let engine = try #require(store.sync)
    var events = engine.events().makeAsyncIterator()
    func inbound(_ identifier: String, _ error: any Error) -> SyncEvent {
      .inboundError(SyncInboundError(modelName: "Post", identifier: identifier, underlying: error))
    }
    // On a cancelled task (as the engine's after `stop()`): its cancellation is dropped.
    let stopped = Task {
      while !Task.isCancelled { await Task.yield() }
      engine.emit(inbound("\"cancelled\"", CancellationError()))
      let wrapped = SyncInboundError(modelName: "Post", identifier: nil, underlying: CancellationError())
      engine.emit(inbound("\"wrapped\"", wrapped))
      engine.emit(inbound("\"real\"", DataStoreError.unknownModel("Gone")))
    }
    stopped.cancel()
    await stopped.value
    // On a task nobody cancelled, a `CancellationError` is a real failure.
    engine.emit(inbound("\"uncancelled\"", CancellationError()))
    var seen: [String] = []
    for _ in 0..<2 {
      guard case .inboundError(let error)? = await events.next() else { break }
      seen.append(error.identifier ?? "-")
    }
    #expect(seen == ["\"real\"", "\"uncancelled\""])
  }
}
