import CSQLite
import Foundation

/// Turns SQLite's failures to open a store's file into ``DataStoreError/cannotOpen(file:code:reason:)``
/// with the reason the file system shows: SQLite reports most of them as one
/// `SQLITE_CANTOPEN` ("unable to open database file"), whatever the cause.
enum OpenFailure {
  /// The typed error for `code` (an extended result code) returned while opening `path`, or `nil`
  /// when `code` is not one that opening a file gives (the caller keeps SQLite's own error).
  ///
  /// `SQLITE_CANTOPEN` from `sqlite3_open_v2` is a directory at `path`, a missing directory, or
  /// one where the file cannot be created; from `PRAGMA journal_mode = WAL` (the first statement
  /// that reads the file), a directory where the `-wal`/`-shm` files cannot be created.
  /// `SQLITE_NOTADB` is a file that is not a database; `SQLITE_READONLY` a file that cannot be
  /// written.
  static func classify(path: String, code: Int32) -> DataStoreError? {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    switch code & 0xff {
    case SQLITE_NOTADB:
      return .cannotOpen(
        file: path, code: code,
        reason:
          "the file is not an SQLite database (its first 16 bytes are not \"SQLite format 3\\0\"); pass the URL of a database file, or of a file that does not exist yet"
      )
    case SQLITE_READONLY:
      return readOnlyFile(path: path, code: code)
    case SQLITE_CANTOPEN:
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      if exists, isDirectory.boolValue {
        return .cannotOpen(
          file: path, code: code,
          reason:
            "it is a directory; pass the URL of a file in it (a missing file is created)")
      }
      var parentIsDirectory: ObjCBool = false
      if !FileManager.default.fileExists(atPath: directory, isDirectory: &parentIsDirectory) {
        return .cannotOpen(
          file: path, code: code,
          reason:
            "the directory \(directory) does not exist; create it first (FileManager.createDirectory(at:withIntermediateDirectories:))"
        )
      }
      if !parentIsDirectory.boolValue {
        return .cannotOpen(
          file: path, code: code, reason: "\(directory) is a file, not a directory")
      }
      if exists {
        return .cannotOpen(
          file: path, code: code,
          reason:
            "the directory \(directory) is not writable, and the store keeps its -wal and -shm files next to the database (WAL mode); make the directory writable or move the file"
        )
      }
      return .cannotOpen(
        file: path, code: code,
        reason:
          "the file does not exist and cannot be created: the directory \(directory) is not writable; choose a writable directory"
      )
    default:
      return nil
    }
  }

  /// The error for a file SQLite can only read (`SQLITE_READONLY`, or `sqlite3_db_readonly` after
  /// opening it read-write).
  static func readOnlyFile(path: String, code: Int32 = SQLITE_READONLY) -> DataStoreError {
    .cannotOpen(
      file: path, code: code,
      reason:
        "the file is read-only, and a store writes to its file (WAL mode, migration, saves); make it writable")
  }
}
