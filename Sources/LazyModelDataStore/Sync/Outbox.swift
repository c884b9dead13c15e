import Foundation
import LazyModel
import LazyModelAPI

/// The outbox and the sync metadata: two tables beside the model tables, written only on the
/// writer connection, inside the write transaction whose row changes they record.
///
/// - `_lazymodel_sync_outbox(seq, model, identifier, kind, in_flight, sent_input, sent_version)`:
///   pending mutations in send order; at most one not-in-flight entry per identifier (later changes
///   merge into it: create+update → create, create+delete → nothing, update+update → update,
///   update+delete → delete, delete+save → update). A create or update carries no values: it sends
///   the row as it is when sent. `sent_input` (the input object as JSON) and `sent_version` (the
///   `_version` it carried, `NULL` for a create) record what the last attempt sent, written in the
///   transaction that took the entry, before the request leaves: an entry that still has them when
///   it is taken again was sent without its answer arriving (``SentMutation``).
/// - `_lazymodel_sync_metadata(model, identifier, version, last_changed_at, deleted)`: the
///   server's `_version`, `_lastChangedAt` and `_deleted` of each record the store has synced.
/// - `_lazymodel_sync_parked(model, identifier, version, record)`: remote records held back
///   because the outbox held a mutation of their identifier, the newest `_version` per identifier,
///   `record` the record as received (JSON). Written by the transaction that decides to hold the
///   record, deleted by the one that applies it (``SyncEngine/replayParked(_:_:)``), so a held
///   record survives a stop, a crash or a kill of the process. A live event that arrives while
///   its identifier's mutation is out waits in memory instead (`SyncEngine.Sending`), and is
///   written here by the transaction that finishes the mutation only when newer than its answer.
/// - `_lazymodel_sync_unheld(model, identifier, fields, unconfirmed)`: the protected fields of each
///   stored record that came back redacted, never held (`fields`) or kept from the row
///   (`unconfirmed`) (``RedactedFields``).
///
/// Not thread-safe by itself: every function runs on the connection's queue, inside a transaction.
enum Outbox {
  /// The prefix of the sync engine's tables, which migration leaves alone.
  static let tablePrefix = "_lazymodel_sync_"
  static let outboxTable = tablePrefix + "outbox"
  static let metadataTable = tablePrefix + "metadata"
  /// `_lazymodel_sync_models(model, last_sync)`: each model's `lastSync` for its next delta sync.
  static let modelsTable = tablePrefix + "models"
  /// Remote records held for a pending mutation of their identifier (see the type's comment).
  static let parkedTable = tablePrefix + "parked"

  // The statements run per record (a base sync runs them for every record) or per drained
  // mutation, built once.
  private static let latestEntrySQL =
    "SELECT seq, kind, in_flight FROM \(quote(outboxTable)) WHERE model = ? AND identifier = ? ORDER BY seq DESC LIMIT 1"
  private static let metadataSQL =
    "SELECT version, last_changed_at, deleted FROM \(quote(metadataTable)) WHERE model = ? AND identifier = ?"
  private static let setMetadataSQL =
    "INSERT INTO \(quote(metadataTable)) (model, identifier, version, last_changed_at, deleted) VALUES (?, ?, ?, ?, ?)"
    + " ON CONFLICT (model, identifier) DO UPDATE SET version = excluded.version,"
    + " last_changed_at = excluded.last_changed_at, deleted = excluded.deleted"
  private static let parkSQL =
    "INSERT INTO \(quote(parkedTable)) (model, identifier, version, record) VALUES (?, ?, ?, ?)"
    + " ON CONFLICT (model, identifier) DO UPDATE SET version = excluded.version, record = excluded.record"
    + " WHERE excluded.version > \(quote(parkedTable)).version"
  private static let parkedRecordSQL =
    "SELECT record FROM \(quote(parkedTable)) WHERE model = ? AND identifier = ?"
  private static let parkedVersionSQL =
    "SELECT version FROM \(quote(parkedTable)) WHERE model = ? AND identifier = ?"
  private static let unparkSQL = "DELETE FROM \(quote(parkedTable)) WHERE model = ? AND identifier = ?"
  private static let insertSQL = "INSERT INTO \(quote(outboxTable)) (model, identifier, kind) VALUES (?, ?, ?)"
  private static let markSQL = "UPDATE \(quote(outboxTable)) SET in_flight = 1 WHERE seq = ?"
  private static let releaseSQL = "UPDATE \(quote(outboxTable)) SET in_flight = 0 WHERE seq = ?"
  private static let setSentSQL = "UPDATE \(quote(outboxTable)) SET sent_input = ?, sent_version = ? WHERE seq = ?"
  private static let setKindSQL = "UPDATE \(quote(outboxTable)) SET kind = ? WHERE seq = ?"
  private static let removeSQL = "DELETE FROM \(quote(outboxTable)) WHERE seq = ?"
  private static let hasEntriesSQL = "SELECT EXISTS (SELECT 1 FROM \(quote(outboxTable)) WHERE model = ?)"

  /// Whether the outbox holds any entry of `model` (a sync page checks once, then skips the
  /// per-record lookup when it holds none).
  static func hasEntries(_ model: String, _ connection: Connection) throws -> Bool {
    let statement = try connection.prepare(hasEntriesSQL)
    defer { statement.reset() }
    try statement.bind([.text(model)])
    return try statement.step() && statement.int64(0) != 0
  }

  /// Why a remote record is not applied (``skipsRemote(_:_:version:checkOutbox:_:)``).
  enum RemoteSkip: Sendable, Equatable {
    /// The outbox holds a mutation for the identifier: its answer brings the server's version (the
    /// record is parked until the mutation is done, ``SyncEngine/replayParked(_:_:)``).
    case pendingMutation
    /// The stored `_version` is greater than or equal to the record's.
    case notNewer
  }

  /// Why a remote record of `model` at `version` (its `_version`) is skipped, not applied; `nil`:
  /// apply it. Skipped while the outbox holds a mutation for `identifier` (the outbound answer
  /// brings the server's version), or when the stored `_version` is greater or equal (README,
  /// "Sync": the inbound reconciliation rule; Amplify DataStore's reconciliation). `checkOutbox`
  /// `false` (the caller found no entry of `model` in this transaction) leaves out the outbox
  /// lookup. The one rule both the reader's pre-check of a live event and the writer's
  /// reconciliation apply.
  static func skipsRemote(
    _ model: String, _ identifier: String, version: Int, checkOutbox: Bool = true, _ connection: Connection
  ) throws -> RemoteSkip? {
    if checkOutbox, try latestEntry(model, identifier, connection) != nil { return .pendingMutation }
    guard let local = try metadata(model, identifier, connection) else { return nil }
    return local.version >= version ? .notNewer : nil
  }

  /// Creates the two tables when missing.
  static func createTables(_ connection: Connection) throws {
    try connection.execute(
      "CREATE TABLE IF NOT EXISTS \(quote(outboxTable)) (seq INTEGER PRIMARY KEY AUTOINCREMENT,"
        + " model TEXT NOT NULL, identifier TEXT NOT NULL, kind TEXT NOT NULL,"
        + " in_flight INTEGER NOT NULL DEFAULT 0) STRICT")
    // Files written before `sent_input`/`sent_version` existed gain them.
    let columns = try connection.prepare("SELECT name FROM pragma_table_info(?)")
    try columns.bind([.text(outboxTable)])
    var existing: Set<String> = []
    while try columns.step() { existing.insert(columns.text(0)) }
    columns.reset()
    if !existing.contains("sent_input") {
      try connection.execute("ALTER TABLE \(quote(outboxTable)) ADD COLUMN sent_input TEXT")
    }
    if !existing.contains("sent_version") {
      try connection.execute("ALTER TABLE \(quote(outboxTable)) ADD COLUMN sent_version INTEGER")
    }
    try connection.execute(
      "CREATE INDEX IF NOT EXISTS \(quote(outboxTable + "_by_identifier")) ON \(quote(outboxTable)) (model, identifier, seq)"
    )
    try connection.execute(
      "CREATE TABLE IF NOT EXISTS \(quote(metadataTable)) (model TEXT NOT NULL, identifier TEXT NOT NULL,"
        + " version INTEGER NOT NULL, last_changed_at INTEGER NOT NULL, deleted INTEGER NOT NULL,"
        + " PRIMARY KEY (model, identifier)) WITHOUT ROWID, STRICT")
    try connection.execute(
      "CREATE TABLE IF NOT EXISTS \(quote(modelsTable)) (model TEXT PRIMARY KEY NOT NULL,"
        + " last_sync INTEGER NOT NULL) WITHOUT ROWID, STRICT")
    try connection.execute(
      "CREATE TABLE IF NOT EXISTS \(quote(parkedTable)) (model TEXT NOT NULL, identifier TEXT NOT NULL,"
        + " version INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (model, identifier)) WITHOUT ROWID, STRICT")
    try RedactedFields.createTable(connection)
  }

  // MARK: Held remote records

  /// Holds `record` (a remote record of `model` at `_version` `version`) until the outbox's
  /// mutation of `identifier` is done; keeps the held one when it is newer or equal.
  static func park(
    _ model: String, _ identifier: String, version: Int, _ record: GraphQLValue, _ connection: Connection
  ) throws {
    let statement = try connection.prepare(parkSQL)
    let json = try record.jsonText ?? String(decoding: JSONEncoder().encode(record), as: UTF8.self)
    try statement.bind([.text(model), .text(identifier), .integer(Int64(version)), .text(json)])
    try statement.run()
  }

  /// The `_version` of the record held for `identifier` of `model`, `nil` when none is held (one
  /// primary-key probe that reads no record: what every finished mutation checks first).
  static func parkedVersion(_ model: String, _ identifier: String, _ connection: Connection) throws -> Int? {
    let select = try connection.prepare(parkedVersionSQL)
    defer { select.reset() }
    try select.bind([.text(model), .text(identifier)])
    guard try select.step() else { return nil }
    return Int(select.int64(0))
  }

  /// Removes the record held for `identifier` of `model` without reading it (none held: nothing).
  static func discardParked(_ model: String, _ identifier: String, _ connection: Connection) throws {
    let delete = try connection.prepare(unparkSQL)
    try delete.bind([.text(model), .text(identifier)])
    try delete.run()
  }

  /// Removes and returns the record held for `identifier` of `model`, `nil` when none is held.
  /// A held record whose JSON no longer decodes is removed and reported as `nil`.
  static func unpark(_ model: String, _ identifier: String, _ connection: Connection) throws -> GraphQLValue? {
    let select = try connection.prepare(parkedRecordSQL)
    defer { select.reset() }
    try select.bind([.text(model), .text(identifier)])
    guard try select.step() else { return nil }
    let text = select.text(0)
    select.reset()
    let delete = try connection.prepare(unparkSQL)
    try delete.bind([.text(model), .text(identifier)])
    try delete.run()
    return GraphQLValue(json: Data(text.utf8))
  }

  /// The model and identifier of every held record, ordered by model and identifier.
  static func parkedKeys(_ connection: Connection) throws -> [ParkedKey] {
    let statement = try connection.prepare(
      "SELECT model, identifier FROM \(quote(parkedTable)) ORDER BY model, identifier")
    defer { statement.reset() }
    var keys: [ParkedKey] = []
    while try statement.step() { keys.append(ParkedKey(modelName: statement.text(0), identifier: statement.text(1))) }
    return keys
  }

  /// The `startedAt` (epoch ms, the server's clock) of the model's last finished sync query.
  static func lastSync(_ model: String, _ connection: Connection) throws -> Int? {
    let statement = try connection.prepare("SELECT last_sync FROM \(quote(modelsTable)) WHERE model = ?")
    defer { statement.reset() }
    try statement.bind([.text(model)])
    guard try statement.step() else { return nil }
    return Int(statement.int64(0))
  }

  static func setLastSync(_ model: String, _ startedAt: Int, _ connection: Connection) throws {
    let statement = try connection.prepare(
      "INSERT INTO \(quote(modelsTable)) (model, last_sync) VALUES (?, ?)"
        + " ON CONFLICT (model) DO UPDATE SET last_sync = excluded.last_sync")
    try statement.bind([.text(model), .integer(Int64(startedAt))])
    try statement.run()
  }

  /// The identifier (canonical string) of the row a hook reported, when its table is a synced model.
  static func identifier(of change: RowChange, store: DataStore) -> (model: String, identifier: String)? {
    guard let layout = store.storedLayouts[change.table], layout.mapping.schema.syncPluralName != nil
    else { return nil }
    let mapping = layout.mapping
    var components: [IdentifierComponent] = []
    for (position, column) in mapping.primaryKeyColumns.enumerated() {
      guard let stored = layout.mappingColumn.firstIndex(of: column), stored < change.values.count,
        let value = try? change.values[stored].keyValue(
          for: mapping.columns[column].fieldType, model: mapping.schema.name,
          field: mapping.columns[column].field)
      else { return nil }
      components.append(IdentifierComponent(name: mapping.schema.primaryKey[position], value: value))
    }
    let identifier = ModelIdentifier(modelName: mapping.schema.name, components: components)
    return (mapping.schema.name, identifier.canonicalString)
  }

  /// Records `changes` (a committed-to-be transaction's row changes, in order) in the outbox,
  /// merging with what is pending. Returns the events to report after the commit.
  static func enqueue(_ changes: [RowChange], store: DataStore, _ connection: Connection) throws
    -> [SyncEvent]
  {
    var events: [SyncEvent] = []
    for change in changes {
      guard let (model, identifier) = Self.identifier(of: change, store: store) else { continue }
      let latest = try latestEntry(model, identifier, connection)
      let synced = try metadata(model, identifier, connection).map { !$0.deleted } ?? false
      var result: SyncMutationKind?
      if let latest, !latest.inFlight {
        switch (latest.kind, change.kind) {
        case (.create, .saved), (.update, .saved): result = latest.kind
        case (.delete, .saved):
          try setKind(latest.sequence, .update, connection)
          result = .update
        case (.create, .deleted):
          try remove(latest.sequence, connection)
          result = nil
        case (.update, .deleted):
          try setKind(latest.sequence, .delete, connection)
          result = .delete
        case (.delete, .deleted): result = .delete
        }
      } else {
        let serverHasIt = synced || (latest.map { $0.kind != .delete } ?? false)
        switch change.kind {
        case .saved: result = serverHasIt ? .update : .create
        case .deleted: result = serverHasIt ? .delete : nil
        }
        if let result { try insert(model, identifier, result, connection) }
      }
      events.append(.outboxMutationEnqueued(modelName: model, identifier: identifier, kind: result))
    }
    return events
  }

  static func latestEntry(_ model: String, _ identifier: String, _ connection: Connection) throws
    -> PendingMutation?
  {
    let statement = try connection.prepare(latestEntrySQL)
    defer { statement.reset() }
    try statement.bind([.text(model), .text(identifier)])
    guard try statement.step() else { return nil }
    return PendingMutation(
      sequence: statement.int64(0), modelName: model, identifier: identifier,
      kind: SyncMutationKind(rawValue: statement.text(1)) ?? .update, inFlight: statement.int64(2) != 0)
  }

  /// Every pending mutation, in send order.
  static func all(_ connection: Connection) throws -> [PendingMutation] {
    let statement = try connection.prepare(
      "SELECT seq, model, identifier, kind, in_flight FROM \(quote(outboxTable)) ORDER BY seq")
    defer { statement.reset() }
    var entries: [PendingMutation] = []
    while try statement.step() {
      entries.append(
        PendingMutation(
          sequence: statement.int64(0), modelName: statement.text(1), identifier: statement.text(2),
          kind: SyncMutationKind(rawValue: statement.text(3)) ?? .update, inFlight: statement.int64(4) != 0))
    }
    return entries
  }

  /// The first pending mutation, marked in flight, with what an earlier attempt sent for it
  /// without its answer arriving (``SentMutation``); `nil` when the outbox is empty.
  static func takeHead(_ connection: Connection) throws -> (PendingMutation, SentMutation?)? {
    try take(headSQL, [], skipping: nil, connection)
  }

  /// The pending mutation after `entry` (the one in flight), taken as ``takeHead(_:)`` takes the
  /// head, so that it is prepared while `entry`'s request is out; `nil` when there is none, or when
  /// it is of `entry`'s identifier (one mutation in flight per identifier: it waits for `entry`'s
  /// answer and is taken as the head).
  static func takeNext(after entry: PendingMutation, _ connection: Connection) throws
    -> (PendingMutation, SentMutation?)?
  {
    try take(nextSQL, [.integer(entry.sequence)], skipping: entry, connection)
  }

  /// Puts back `entry`, taken by ``takeNext(after:_:)`` but not sent (the mutation before it was
  /// not accepted): not in flight, with `previous` (what it had recorded as sent before it was
  /// taken) as its record of what was sent.
  static func release(_ entry: PendingMutation, previous: SentMutation?, _ connection: Connection) throws {
    try setSent(entry.sequence, previous, connection)
    let statement = try connection.prepare(releaseSQL)
    try statement.bind([.integer(entry.sequence)])
    try statement.run()
  }

  private static let headSQL =
    "SELECT seq, model, identifier, kind, sent_input, sent_version FROM \(quote(outboxTable)) ORDER BY seq LIMIT 1"
  private static let nextSQL =
    "SELECT seq, model, identifier, kind, sent_input, sent_version FROM \(quote(outboxTable))"
    + " WHERE seq > ? ORDER BY seq LIMIT 1"

  private static func take(
    _ sql: String, _ bindings: [SQLValue], skipping: PendingMutation?, _ connection: Connection
  ) throws -> (PendingMutation, SentMutation?)? {
    let statement = try connection.prepare(sql)
    defer { statement.reset() }
    try statement.bind(bindings)
    guard try statement.step() else { return nil }
    let head = PendingMutation(
      sequence: statement.int64(0), modelName: statement.text(1), identifier: statement.text(2),
      kind: SyncMutationKind(rawValue: statement.text(3)) ?? .update, inFlight: true)
    if let skipping, head.modelName == skipping.modelName, head.identifier == skipping.identifier { return nil }
    var sent: SentMutation?
    if !statement.isNull(4),
      case .object(let input)? = GraphQLValue(json: Data(statement.text(4).utf8))
    {
      sent = SentMutation(input: input, version: statement.isNull(5) ? nil : Int(statement.int64(5)))
    }
    statement.reset()
    let mark = try connection.prepare(markSQL)
    try mark.bind([.integer(head.sequence)])
    try mark.run()
    return (head, sent)
  }

  /// Records what is about to be sent for the entry `sequence` (`nil`: nothing).
  static func setSent(_ sequence: Int64, _ sent: SentMutation?, _ connection: Connection) throws {
    let statement = try connection.prepare(setSentSQL)
    var input = SQLValue.null
    if let sent {
      let value = GraphQLValue.object(sent.input)
      // Written directly (``GraphQLValue/jsonText``): a `JSONEncoder` here was the largest single
      // cost left in preparing a drained mutation.
      input = .text(try value.jsonText ?? String(decoding: JSONEncoder().encode(value), as: UTF8.self))
    }
    try statement.bind([input, sent?.version.map { .integer(Int64($0)) } ?? .null, .integer(sequence)])
    try statement.run()
  }

  /// Marks every entry not in flight (after a restart or `stop()`: what was sent is resent, and
  /// the `_version` condition rejects a duplicate).
  static func resetInFlight(_ connection: Connection) throws {
    try connection.execute("UPDATE \(quote(outboxTable)) SET in_flight = 0 WHERE in_flight != 0")
  }

  static func insert(_ model: String, _ identifier: String, _ kind: SyncMutationKind, _ connection: Connection)
    throws
  {
    let statement = try connection.prepare(insertSQL)
    try statement.bind([.text(model), .text(identifier), .text(kind.rawValue)])
    try statement.run()
  }

  static func setKind(_ sequence: Int64, _ kind: SyncMutationKind, _ connection: Connection) throws {
    let statement = try connection.prepare(setKindSQL)
    try statement.bind([.text(kind.rawValue), .integer(sequence)])
    try statement.run()
  }

  static func remove(_ sequence: Int64, _ connection: Connection) throws {
    let statement = try connection.prepare(removeSQL)
    try statement.bind([.integer(sequence)])
    try statement.run()
  }

  static func metadata(_ model: String, _ identifier: String, _ connection: Connection) throws -> SyncMetadata? {
    let statement = try connection.prepare(metadataSQL)
    defer { statement.reset() }
    try statement.bind([.text(model), .text(identifier)])
    guard try statement.step() else { return nil }
    return SyncMetadata(
      version: Int(statement.int64(0)), lastChangedAt: Int(statement.int64(1)), deleted: statement.int64(2) != 0)
  }

  static func setMetadata(_ model: String, _ identifier: String, _ metadata: SyncMetadata, _ connection: Connection)
    throws
  {
    let statement = try connection.prepare(setMetadataSQL)
    try statement.bind([
      .text(model), .text(identifier), .integer(Int64(metadata.version)), .integer(Int64(metadata.lastChangedAt)),
      .integer(metadata.deleted ? 1 : 0),
    ])
    try statement.run()
  }

  /// Deletes every outbox entry, all metadata, every held record and every record's unheld fields
  /// (``DataStore/clear()``).
  static func clear(_ connection: Connection) throws {
    try connection.execute("DELETE FROM \(quote(outboxTable))")
    try connection.execute("DELETE FROM \(quote(metadataTable))")
    try connection.execute("DELETE FROM \(quote(modelsTable))")
    try connection.execute("DELETE FROM \(quote(parkedTable))")
    try RedactedFields.clear(connection)
  }
}

/// What one attempt sent for an outbox entry (kept in its row until the entry is done): the
/// mutation's input and the `_version` it carried (`nil` for a create). An entry taken with one
/// was sent without its answer arriving — the process stopped or was killed, or the request timed
/// out — so the service may have applied it; the engine reads the server's record before sending
/// again (``SyncEngine/wasApplied(_:_:server:)``).
struct SentMutation: Sendable, Hashable {
  var input: [String: GraphQLValue]
  var version: Int?
}
