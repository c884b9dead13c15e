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

/// A committed state of a database file, as ``FileVersionProbe/current`` reads it: equal values
/// mean no commit happened in between. For a WAL file, the 48-byte WAL-index header (change
/// counter, frame count, page count, checksums, salts: every commit increments its change counter);
/// else `PRAGMA data_version`, or an in-memory store's commit count, in ``first``.
struct FileVersion: Equatable, Sendable {
  var first: UInt64
  var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.first == rhs.first && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
      && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
  }
}

/// The version of a store's database file, read before each sibling-batch answer
/// (``SiblingReferences``): a batch is valid only while the version it was read under is the
/// current one.
///
/// In WAL mode (every file store) it reads the WAL-index header in the `-shm` shared memory that
/// the store's writer connection has mapped
/// (SQLite's own mapping, `xShmMap`): the header every reader's transaction starts from, which the
/// committing connection — this store's writer, another store of this process, another process,
/// any SQLite program — rewrites at every commit (SQLite, "WAL-mode File Format", the wal-index
/// header). It reads the header's two copies as SQLite's readers do (copy one, a memory barrier,
/// copy two; a writer stores them in the other order) and takes it only when both agree: about
/// 90 instructions, no system call, no lock. When the header cannot be mapped (another VFS), it
/// opens a read-only connection of its own and asks it for `PRAGMA data_version` instead (a
/// short read transaction behind a try-lock, busy timeout 0). An in-memory store (one connection, no other process) counts its
/// writer's commits (``FileCommitCounter``, counted by the commit hook; its reads run on the
/// writer's queue, after any commit in flight).
///
/// The label is read before the batch's read transaction starts, so the batch sees at least the
/// labelled state; a commit between the two changes the version, and the batch is then never
/// answered from (a read that starts while a commit is in flight is never cached stale).
///
/// Thread-safety: `Sendable`; the header is only read (its mapping lives as long as the probe's
/// connection, which this object owns); the `PRAGMA` fallback's connection sits behind a
/// ``StoreLock`` taken only with `pthread_mutex_trylock`: when another thread is probing,
/// ``current`` is `nil` at once (the caller then looks its row up on its own). No caller ever waits.
final class FileVersionProbe: @unchecked Sendable {  // `walIndex` is read-only shared memory
  /// The probe connection and its prepared `PRAGMA data_version`.
  private struct Probe: @unchecked Sendable {  // confined: reached only inside the lock
    let connection: Connection
    let statement: Statement
  }
  private let probe: StoreLock<Probe>?
  /// The WAL index's first region as the probe connection mapped it, or `nil`.
  private let walIndex: UnsafeRawPointer?
  /// Whether ``current`` reads the mapped WAL-index header (else the fallback).
  var readsWALIndex: Bool { walIndex != nil }
  private let commits: FileCommitCounter

  /// A probe of the file at `path`, or of the in-memory store's commit count `commits` when `path`
  /// is `nil`. The WAL-index header is mapped through `writer`, the store's own writer connection
  /// (which lives as long as the store, so the mapping does too): no connection or descriptor of
  /// its own. Only when that fails (another VFS), or when `mapsWALIndex` is `false` (tests), the
  /// probe opens its own read-only connection (busy timeout 0, no trace) for the `PRAGMA
  /// data_version` fallback. Call it on the thread that owns `writer` before its queue starts.
  ///
  /// - Throws: ``DataStoreError/sqlite(code:message:sql:)`` when the fallback connection cannot be
  ///   opened.
  init(path: String?, commits: FileCommitCounter, writer: Connection?, mapsWALIndex: Bool = true) throws {
    self.commits = commits
    guard let path else {
      probe = nil
      walIndex = nil
      return
    }
    if mapsWALIndex, let writer, let region = try Self.readOnce(writer).walIndex {
      walIndex = region
      probe = nil
      return
    }
    let connection = try Connection(path: path, trace: nil, readOnly: true, busyTimeoutMilliseconds: 0)
    let (statement, region) = try Self.readOnce(connection)
    walIndex = mapsWALIndex ? region : nil
    probe = StoreLock(Probe(connection: connection, statement: statement))
  }

  /// Runs `PRAGMA data_version` once on `connection` — one read transaction, which opens the WAL
  /// and maps its index (the migration usually has already) — and returns the prepared statement
  /// (reset) with the WAL index's first region as `connection` has mapped it, or `nil`.
  private static func readOnce(_ connection: Connection) throws -> (
    statement: Statement, walIndex: UnsafeRawPointer?
  ) {
    let statement = try connection.prepare("PRAGMA data_version")
    _ = try statement.step()
    statement.reset()
    return (statement, modelgen_wal_index(connection.handle))
  }

  /// The file's version now, or `nil` when it cannot be read at once (a writer is storing the
  /// WAL-index header; or, without one, another thread is probing, or SQLite answered busy or
  /// failed): a `nil` version matches no batch.
  var current: FileVersion? {
    if let walIndex {
      var header: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
      let consistent = withUnsafeMutablePointer(to: &header) { pointer in
        pointer.withMemoryRebound(to: UInt64.self, capacity: 6) { modelgen_wal_index_header(walIndex, $0) }
      }
      guard consistent == 1 else { return nil }
      return FileVersion(first: header.0, words: (header.1, header.2, header.3, header.4, header.5))
    }
    guard let probe else { return FileVersion(first: UInt64(truncatingIfNeeded: commits.value)) }
    return probe.withLockIfAvailable { (probe: inout Probe) -> FileVersion? in
      let statement = probe.statement.handle
      defer { sqlite3_reset(statement) }  // ends the read transaction at once
      guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
      return FileVersion(first: UInt64(bitPattern: sqlite3_column_int64(statement, 0)))
    } ?? nil
  }
}
