import CSQLite
import Foundation
import Synchronization

/// One row change as SQLite's preupdate hook reported it: the table, and the row's values in the
/// table's column order — the new values of an insert or update, the last stored values of a
/// delete (cascaded deletes included).
struct RowChange: Sendable {
  enum Kind: Sendable { case saved, deleted }
  let table: String
  let kind: Kind
  let values: [SQLValue]
}

/// Whether any observer (``DataStore/observe(_:)``, ``DataStore/observeQuery(_:where:sort:)``) of
/// any store in this process is listening: while none is, the preupdate hook returns at once.
enum ObservationSwitch {
  static let listeners = Atomic<Int>(0)
  static var isOn: Bool { listeners.load(ordering: .relaxed) > 0 }
}

/// Collects the row changes of the writer's open transaction from SQLite's hooks (preupdate,
/// rollback), for the store to report after the transaction commits.
///
/// Not thread-safe: used only on the writer connection's queue (the hooks run there, inside
/// `sqlite3_step`).
final class ChangeCollector {
  /// The length in UTF-8 bytes of the sync engine's table prefix (`Outbox.tablePrefix`).
  private static let syncTablePrefixLength = Outbox.tablePrefix.utf8.count
  private var pending: [RowChange] = []
  /// Whether the open transaction writes its changes to the change log (``ChangeLogWriter``), so
  /// that values are copied even while nobody in this process listens.
  var logging = false
  /// Whether the open transaction's model rows enter the sync outbox (a local write of a store
  /// with sync, ``DataStore/runWrite(_:_:)``), so that they are collected while nobody listens.
  var feedsOutbox = false
  /// Called by the commit hook, on the writer's queue, just before a write transaction commits
  /// (before any other connection can see it): the file's `FileCommitCounter` counts the commit as
  /// this process's, whether or not it changed a model row.
  var willCommit: (() -> Void)?

  /// How many rows SQLite inserted and updated on this connection so far (every table, cascades
  /// and triggers included; wrapping): a save compares them around its `INSERT … ON CONFLICT DO
  /// UPDATE` to learn whether it inserted the row (then the stored row is the bound one) or updated
  /// it (then `createdAt` is the stored one, read back).
  private(set) var writeCounts = WriteCounts()

  /// Row inserts and updates the preupdate hook saw (see ``writeCounts``).
  struct WriteCounts: Equatable {
    var inserts: UInt = 0
    var updates: UInt = 0
  }

  /// The preupdate hook: counts the write (``writeCounts``) and copies the row's values when
  /// someone listens (in this process, or through the change log in another); the engine's own
  /// tables (``ChangeLog/tablePrefix``) and the sync engine's (`Outbox.tablePrefix`: outbox,
  /// metadata, models) are skipped — no observer, change log entry or outbox entry is ever made of
  /// them, and a base sync writes a metadata row per record.
  func record(db: OpaquePointer, operation: Int32, table: UnsafePointer<CChar>) {
    if operation == SQLITE_INSERT {
      writeCounts.inserts &+= 1
    } else if operation == SQLITE_UPDATE {
      writeCounts.updates &+= 1
    }
    guard logging || feedsOutbox || ObservationSwitch.isOn else { return }
    if strncmp(table, ChangeLog.tablePrefix, ChangeLog.tablePrefixLength) == 0 { return }
    if strncmp(table, Outbox.tablePrefix, Self.syncTablePrefixLength) == 0 { return }
    let count = sqlite3_preupdate_count(db)
    var values: [SQLValue] = []
    values.reserveCapacity(Int(count))
    let isDelete = operation == SQLITE_DELETE
    for column in 0..<count {
      var value: OpaquePointer?
      let code =
        isDelete
        ? sqlite3_preupdate_old(db, column, &value) : sqlite3_preupdate_new(db, column, &value)
      values.append(code == SQLITE_OK ? SQLValue(value) : .null)
    }
    pending.append(
      RowChange(table: String(cString: table), kind: isDelete ? .deleted : .saved, values: values))
  }

  /// The commit hook: a write transaction is about to commit.
  func committing() { willCommit?() }

  /// The rollback hook: the transaction's changes are gone.
  func rolledBack() { pending.removeAll() }

  /// The number of changes so far (a mark to go back to when one statement fails, since SQLite
  /// undoes that statement's changes but keeps the transaction).
  var mark: Int { pending.count }

  /// Forgets the changes after `mark`.
  func revert(to mark: Int) {
    if pending.count > mark { pending.removeSubrange(mark...) }
  }

  /// The open transaction's changes so far, in order (the change log and the sync outbox read
  /// them before `COMMIT`).
  var current: [RowChange] { pending }

  /// The committed transaction's changes, in order; the collector is empty afterwards.
  func take() -> [RowChange] {
    defer { pending = [] }
    return pending
  }
}

extension SQLValue {
  /// The value of an `sqlite3_value` (as the preupdate hook hands them out).
  init(_ value: OpaquePointer?) {
    guard let value else {
      self = .null
      return
    }
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
    case SQLITE_NULL: self = .null
    default:
      guard let text = sqlite3_value_text(value) else {
        self = .text("")
        return
      }
      let count = Int(sqlite3_value_bytes(value))
      self = .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    }
  }
}
