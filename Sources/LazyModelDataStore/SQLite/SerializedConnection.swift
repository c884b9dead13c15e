import Synchronization

/// The one owner of a store's SQLite connection: every use goes through ``withConnection(_:)``,
/// one at a time.
///
/// Thread-safety: `Sendable`; a `Mutex` serialises access, so the `sqlite3*` handle and its
/// statement cache are never touched by two threads at once (GRDB's `SerializedDatabase` idea).
/// The body must not call back into the same store (the mutex is not recursive).
final class SerializedConnection: Sendable {
  private let connection: Mutex<Connection>

  init(_ connection: sending Connection) {
    self.connection = Mutex(connection)
  }

  /// Runs `body` with exclusive use of the connection.
  func withConnection<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
    try connection.withLock { connection in try body(connection) }
  }
}
