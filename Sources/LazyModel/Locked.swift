#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that is only read and written while one `pthread_mutex_t` is held: the lock behind the
/// mutable state of the runtime classes (``LazyList``, ``InMemoryModelStore``; ``LazyReference``
/// uses ``StripedLocks``).
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

/// A fixed table of `pthread_mutex_t`s shared by objects that are made by the thousand and whose
/// state is touched rarely and briefly (``LazyReference``: a query decodes one per row, and only a
/// load changes it): an object's state is guarded by the mutex its address picks, so it needs no
/// lock of its own (no second allocation, no `pthread_mutex_init`/`destroy`). Two objects may share
/// a mutex, so a body must never take another object's stripe (it would deadlock); contention
/// between unrelated objects is only as long as the shortest state update.
///
/// Why pthread mutexes: ThreadSanitizer sees them (see ``Locked``).
///
/// Thread-safety: `Sendable`; the mutexes are initialised once, before the first use, and never
/// destroyed.
enum StripedLocks {
  /// A power of two.
  private static let count = 64

  nonisolated(unsafe) private static let mutexes: UnsafeMutablePointer<pthread_mutex_t> = {
    let mutexes = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: count)
    for index in 0..<count {
      (mutexes + index).initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutexes + index, nil)
    }
    return mutexes
  }()

  /// Runs `body` holding the stripe of `object`. Not reentrant.
  @inline(__always)
  static func withLock<Result>(for object: AnyObject, _ body: () throws -> Result) rethrows
    -> Result
  {
    let address = UInt(bitPattern: ObjectIdentifier(object))
    // Heap objects are 16-byte aligned; mixing in higher bits spreads neighbours of one size class.
    let mutex = mutexes + Int(truncatingIfNeeded: ((address >> 4) ^ (address >> 10)) & UInt(count - 1))
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
