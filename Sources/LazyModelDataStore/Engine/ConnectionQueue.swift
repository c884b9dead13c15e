import CSQLite
import Dispatch
import Synchronization

/// Whether one job was cancelled: set by the task's cancellation handler (any thread), read by the
/// connection's progress handler and by the job (the connection's thread).
final class CancelFlag: Sendable {
  private let cancelled = Atomic<Bool>(false)
  func cancel() { cancelled.store(true, ordering: .releasing) }
  var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

/// The ``CancelFlag`` of the job a connection is running now (`nil` between jobs), which its
/// progress handler reads every 1,000 SQLite instructions.
final class CancellationSlot: Sendable {
  private let current = StoreLock<CancelFlag?>(nil)
  func set(_ flag: CancelFlag?) { current.withLock { $0 = flag } }
  var isCancelled: Bool { current.withLock { $0?.isCancelled ?? false } }
}

/// One SQLite connection and the serial dispatch queue that is its only user (GRDB's
/// `SerializedDatabase` idea): every job runs on that queue, one at a time, on a thread of
/// Dispatch's overcommitting pool — never on a thread of Swift's cooperative pool — while the
/// calling task is suspended on a continuation.
///
/// Thread-safety: `Sendable` by confinement: ``connection`` (not thread-safe, opened with
/// `SQLITE_OPEN_NOMUTEX`) is touched only by jobs on ``queue``, which is serial.
final class ConnectionQueue: @unchecked Sendable {
  fileprivate let connection: Connection
  let queue: DispatchQueue
  /// Runs the jobs of tasks that prefer this queue (``QueueTaskExecutor``).
  let executor: QueueTaskExecutor
  /// Whether a job (a store call's SQL, a `read`/`write` closure) runs now; only read and written on
  /// ``queue``. Between jobs, the queue may run the code of a task that prefers ``executor``.
  fileprivate(set) var inJob = false

  /// Marks each queue with its own identity (``isCurrent``, ``currentIdentity``).
  private static let identityKey = DispatchSpecificKey<ObjectIdentifier>()

  /// The identity (`ObjectIdentifier`) of the connection queue the calling code runs on, or `nil`
  /// off every connection queue: one lookup, whichever store the queue belongs to.
  static var currentIdentity: ObjectIdentifier? { DispatchQueue.getSpecific(key: identityKey) }

  /// Takes over `connection`; jobs run on a new serial queue marked with `token` under `key`, so
  /// that the store can tell when it is called from one of its own jobs.
  init(
    _ connection: Connection, label: String, key: DispatchSpecificKey<ObjectIdentifier>,
    token: ObjectIdentifier
  ) {
    self.connection = connection
    queue = DispatchQueue(label: label)
    executor = QueueTaskExecutor(queue)
    queue.setSpecific(key: key, value: token)
    queue.setSpecific(key: Self.identityKey, value: ObjectIdentifier(self))
  }

  /// Whether the calling code runs on ``queue``.
  var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.identityKey) == ObjectIdentifier(self) }

  /// Runs `body` right here, on ``queue``, between jobs: the calling task's code already runs on
  /// this queue (it prefers ``executor``), so no thread is switched and the task does not suspend.
  /// Falls back to ``run(_:)`` when not called on the queue. Cancellation as in ``run(_:)``.
  func runHere<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
    let flag = CancelFlag()
    return try await withTaskCancellationHandler {
      // No suspension since the caller checked ``isCurrent``; checked again, as the promise of
      // staying on this thread is the executor's, not this function's.
      guard isCurrent, !inJob else { return try await run(body) }
      try Task.checkCancellation()
      inJob = true
      connection.cancellation.set(flag)
      defer {
        connection.cancellation.set(nil)
        inJob = false
      }
      do {
        return try body(connection)
      } catch {
        throw flag.isCancelled ? CancellationError() : error
      }
    } onCancel: {
      flag.cancel()
    }
  }

  /// Runs `body` right here, synchronously, as a job of this queue: only on ``queue`` between jobs
  /// (the caller checked ``currentIdentity`` and ``inJob``), so nothing else uses the connection
  /// meanwhile and no thread of Swift's cooperative pool waits for it. Not cancellable (it is the
  /// caller's own thread; a task's cancellation reaches only jobs started by ``run(_:)`` or
  /// ``runHere(_:)``).
  func runSynchronously<T>(_ body: (Connection) throws -> T) rethrows -> T {
    inJob = true
    defer { inJob = false }
    return try body(connection)
  }

  /// Runs `body` on the queue and returns its value; the calling task suspends meanwhile.
  ///
  /// Cancelling the calling task interrupts the running statement (the progress handler returns
  /// non-zero, SQLite stops with `SQLITE_INTERRUPT`), or skips the job if it has not started; the
  /// call then throws `CancellationError`.
  func run<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
    let flag = CancelFlag()
    return try await withTaskCancellationHandler {
      // A checked continuation: ThreadSanitizer sees its resume happen before the task reads the
      // result (with an unsafe one it reported races on the result).
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let job = Job(body)
        queue.async {
          if flag.isCancelled {
            job.discard()
            continuation.resume(throwing: CancellationError())
            return
          }
          self.connection.cancellation.set(flag)
          self.inJob = true
          let result = Result { try job.run(self.connection) }
          self.inJob = false
          self.connection.cancellation.set(nil)
          // The body (and what it captured) is released before the caller resumes.
          switch result {
          case .success(let value): continuation.resume(returning: value)
          case .failure(let error):
            continuation.resume(throwing: flag.isCancelled ? CancellationError() : error)
          }
        }
      }
    } onCancel: {
      flag.cancel()
    }
  }
}

extension ConnectionQueue {
  /// Queues `body` on the queue without waiting for it (engine upkeep: the change log's
  /// registrations); it must handle its own errors.
  func enqueue(_ body: @escaping @Sendable (Connection) -> Void) {
    queue.async {
      self.inJob = true
      body(self.connection)
      self.inJob = false
    }
  }

  /// Runs `body` with the connection; only on the queue itself (a timer whose target is ``queue``).
  func onQueue(_ body: (Connection) -> Void) {
    dispatchPrecondition(condition: .onQueue(queue))
    inJob = true
    body(connection)
    inJob = false
  }
}

/// A `TaskExecutor` that runs a task's jobs on one connection's serial dispatch queue (never on
/// Swift's cooperative pool), between that connection's SQL jobs. A task that prefers it
/// (`withTaskExecutorPreference`) and then asks the store for a read runs the read's SQL on the
/// thread it is already on: no thread switch, no suspension (see ``DataStore/readerExecutor``).
///
/// Thread-safety: `Sendable`; `enqueue` may be called from any thread (Dispatch is thread-safe).
final class QueueTaskExecutor: TaskExecutor {
  private let queue: DispatchQueue

  init(_ queue: DispatchQueue) { self.queue = queue }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}

/// A job's body, released as soon as it has run (so that a store its closure captured is not kept
/// alive by the dispatch block after the caller resumed).
///
/// Thread-safety: `Sendable` by confinement: created by the caller, then used only on the queue.
private final class Job<T>: @unchecked Sendable {
  private var body: (@Sendable (Connection) throws -> T)?

  init(_ body: @escaping @Sendable (Connection) throws -> T) { self.body = body }

  func run(_ connection: Connection) throws -> T {
    guard let body else { throw CancellationError() }
    self.body = nil
    return try body(connection)
  }

  func discard() { body = nil }
}
