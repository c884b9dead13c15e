import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection's busy handler (`sqlite3_busy_handler`): while another connection holds the lock a
/// statement needs, SQLite calls ``retry(attempt:)``, which sleeps one step and asks SQLite to try
/// again, until the busy timeout has passed since the first call of this wait or the job running on
/// the connection was cancelled; then SQLite returns `SQLITE_BUSY` (the store's
/// ``DataStoreError/busy(file:timeoutMilliseconds:)``, or `CancellationError` for a cancelled job).
///
/// `sqlite3_busy_timeout` would sleep the same way but cannot see the job's cancellation, so a
/// cancelled task waited the whole timeout. A step is ``stepMilliseconds``: how late a cancellation
/// is noticed at most (plus the scheduler's delay), and how often the lock is tried again.
///
/// Thread-safety: not thread-safe; called only by SQLite on the connection's thread, inside the job
/// that waits (``ConnectionQueue``). Its one sleep (`usleep`) blocks that connection's own dispatch
/// queue thread, never a thread of Swift's cooperative pool.
final class BusyWait {
  /// The length of one sleep, in milliseconds.
  static let stepMilliseconds: UInt64 = 25

  /// The busy timeout, in nanoseconds.
  private let timeoutNanoseconds: UInt64
  private let cancellation: CancellationSlot
  /// When the current wait began (`CLOCK_MONOTONIC`, nanoseconds): set at its first call.
  private var startNanoseconds: UInt64 = 0

  init(timeoutMilliseconds: Int32, cancellation: CancellationSlot) {
    timeoutNanoseconds = UInt64(max(0, timeoutMilliseconds)) * 1_000_000
    self.cancellation = cancellation
  }

  /// Whether SQLite should try the lock again: `attempt` is how many times SQLite called the
  /// handler before for this same lock (0 at the first), as `sqlite3_busy_handler` passes it.
  /// Sleeps at most one step (less when the timeout comes sooner) before answering `true`.
  func retry(attempt: Int32) -> Bool {
    let now = Self.monotonicNanoseconds()
    if attempt == 0 { startNanoseconds = now }
    if cancellation.isCancelled { return false }
    let elapsed = now &- startNanoseconds
    guard elapsed < timeoutNanoseconds else { return false }
    let sleep = min(Self.stepMilliseconds * 1_000_000, timeoutNanoseconds - elapsed)
    usleep(useconds_t(sleep / 1_000))
    return !cancellation.isCancelled
  }

  private static func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}
