#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that is only read and written while one `pthread_mutex_t` is held: the one lock behind
/// the mutable state of every runtime class (``LazyReference``, ``LazyList``, ``InMemoryModelStore``).
///
/// The value and the mutex share one heap allocation (a `ManagedBuffer` whose header is the value
/// and whose one element is the mutex), so a lock costs one allocation, not two: a query decodes one
/// `LazyReference` per row.
///
/// Why not `Synchronization.Mutex`: on Linux its contended path hands the lock over inside the
/// kernel (`FUTEX_LOCK_PI`/`FUTEX_UNLOCK_PI` in an uninstrumented library), which ThreadSanitizer
/// cannot see, so `swift test --sanitize=thread` reported races between accesses that the lock does
/// order. ThreadSanitizer intercepts `pthread_mutex_lock`/`unlock`, so with this lock its reports are
/// real ones.
///
/// Thread-safety: `Sendable` (checked by hand): the value is only reached inside ``withLock(_:)``.
struct Locked<Value: Sendable>: @unchecked Sendable {
  private let buffer: LockedBuffer<Value>

  /// A lock guarding `value`.
  init(_ value: Value) {
    let buffer = unsafeDowncast(
      LockedBuffer<Value>.create(minimumCapacity: 1) { _ in value }, to: LockedBuffer<Value>.self)
    buffer.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
    self.buffer = buffer
  }

  /// Runs `body` with exclusive access to the value and returns its result. Not reentrant: `body`
  /// must not call `withLock` on the same lock.
  @inline(__always)
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try buffer.withUnsafeMutablePointers { value, mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }
}

/// The storage of ``Locked``: the value as the header, the mutex as the one element.
private final class LockedBuffer<Value>: ManagedBuffer<Value, pthread_mutex_t> {
  deinit {
    // The header (the value) is destroyed by `ManagedBuffer`; the element is a plain C struct.
    _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
  }
}
