#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value only read and written while one `pthread_mutex_t` is held: the lock behind the store's
/// shared tables (observers, the stores of a file, reader load, the running job's cancel flag, the file
/// version probe).
///
/// Why not `Synchronization.Mutex`: on Linux its contended path hands the lock over inside the kernel
/// (`FUTEX_LOCK_PI`), which ThreadSanitizer cannot see, so it reports races between accesses the lock
/// does order (as `LazyModel`'s `Locked` explains); ThreadSanitizer intercepts `pthread_mutex_*`.
///
/// Thread-safety: `Sendable` (checked by hand): the value is reached only inside ``withLock(_:)``.
final class StoreLock<Value: Sendable>: @unchecked Sendable {
  private var value: Value
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init(_ value: Value) {
    self.value = value
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. Not reentrant.
  @inline(__always)
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }

  /// Runs `body` with exclusive access to the value when the lock is free right now
  /// (`pthread_mutex_trylock`), else returns `nil` at once without waiting. Not reentrant.
  @inline(__always)
  func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
    guard pthread_mutex_trylock(mutex) == 0 else { return nil }
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
