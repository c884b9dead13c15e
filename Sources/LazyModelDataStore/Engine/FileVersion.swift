import CSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file a path names: its device and inode (`stat(2)`'s `st_dev` and `st_ino`, symbolic
/// links followed), so that every path to one file — a symbolic link, a hard link, a relative or
/// `..` path — gives the same identity. Read after the file is opened (created when missing).
///
/// An inode number may be reused by a new file once the old one is deleted and no longer open;
/// the stores of a deleted file are the only ones that could then share a new file's identity.
struct FileIdentity: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64

  /// The identity of the file at `path`, or `nil` when `stat(2)` fails (no such file).
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
  }
}

/// The version of a store's database file, read before each sibling-batch answer
/// (``SiblingReferences``): a batch is valid only while the version it was read under is the
/// current one.
///
/// A file store asks a dedicated read-only connection for `PRAGMA data_version`, which changes
/// whenever another connection — this store's writer, another store of this process, another
/// process, a plain `sqlite3` program — has committed to the file since the probe last looked
/// (SQLite, "PRAGMA data_version"). The probe never writes, so every commit to the file is
/// another connection's. The pragma starts and ends a read transaction: in WAL mode it reads the
/// WAL-index header from shared memory (and page 1 again after a change); about 3,000
/// instructions, with no busy wait (busy timeout 0). An in-memory store (one connection, no other
/// process) counts its writer's commits instead (``FileCommitCounter``, counted by the commit hook;
/// its reads run on the writer's queue, after any commit in flight).
///
/// The label is read before the batch's read transaction starts, so the batch sees at least the
/// labelled state; a commit between the two changes the version, and the batch is then never
/// answered from (a read that starts while a commit is in flight is never cached stale).
///
/// Thread-safety: `Sendable`; the probe connection sits behind a ``StoreLock`` taken only with
/// `pthread_mutex_trylock`: when another thread is probing, ``current`` is `nil` at once (the
/// caller then looks its row up on its own), so no thread ever waits for the probe.
final class FileVersionProbe: Sendable {
  /// The probe connection and its prepared `PRAGMA data_version`.
  private struct Probe: @unchecked Sendable {  // confined: reached only inside the lock
    let connection: Connection
    let statement: Statement
  }
  private let probe: StoreLock<Probe>?
  private let commits: FileCommitCounter

  /// A probe of the file at `path` (a read-only connection, busy timeout 0, no trace), or of the
  /// in-memory store's commit count `commits` when `path` is `nil`.
  ///
  /// - Throws: ``DataStoreError/sqlite(code:message:sql:)`` when the connection cannot be opened.
  init(path: String?, commits: FileCommitCounter) throws {
    self.commits = commits
    guard let path else {
      probe = nil
      return
    }
    let connection = try Connection(path: path, trace: nil, readOnly: true, busyTimeoutMilliseconds: 0)
    let statement = try connection.prepare("PRAGMA data_version")
    probe = StoreLock(Probe(connection: connection, statement: statement))
  }

  /// The file's version now, or `nil` when it cannot be read at once (another thread is probing,
  /// or SQLite answered busy or failed): a `nil` version matches no batch.
  var current: Int? {
    guard let probe else { return commits.value }
    return probe.withLockIfAvailable { (probe: inout Probe) -> Int? in
      let statement = probe.statement.handle
      defer { sqlite3_reset(statement) }  // ends the read transaction at once
      guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
      return Int(sqlite3_column_int64(statement, 0))
    } ?? nil
  }
}
