import Foundation
import LazyModel
import LazyModelAPI

/// Remote records whose protected fields came back redacted, and, per stored record, each field
/// that came back redacted: unheld (never held) or unconfirmed (kept from the row).
///
/// With subscriptions on, AppSync returns every protected field of a model (one that some read
/// role of the model may not read, ``LazyModel/ModelSchema/fieldsRedactedInMutationResponses``)
/// as `null` in every create or update response and so in every subscription event, for every
/// caller (the auth transformer's field response template; Amplify's "Set up authorization
/// rules", "Per-Field with Subscriptions"); its `sync` and `get` queries return the stored value
/// to a caller allowed to read it, and a caller refused one field gets that field `null` with an
/// `Unauthorized` error at its path (the transformer's field resolver). So a record arrives with a
/// set of *redacted* fields: every protected field for a mutation's answer or an event (or a held
/// record replayed, which may be one), the refused fields for a query's record, none otherwise. A
/// redacted field that is `null` there says nothing: the stored row keeps its value and the field
/// is recorded *unconfirmed* (the server may hold a newer value); one the row holds as `null` (or
/// a record not stored yet) is recorded *unheld*. Every other field of the record is a real value:
/// it is stored and no longer recorded. A query's record (a sync page, a `get`, a conflict's item)
/// at the stored `_version` is applied while the record has a recorded field that this record does
/// not redact. An update the outbox sends leaves out each unheld field still `null` in the row,
/// so a value the store never held is never sent back as `null`, and each unconfirmed field that
/// still holds the value it kept: that value is the store's, not the caller's, and the server may
/// hold a newer one (another device's), which a full-row update would overwrite. An unconfirmed
/// field the caller changed since is sent.
///
/// `_lazymodel_sync_unheld(model, identifier, fields, unconfirmed, kept)`: `fields` and
/// `unconfirmed` each a set of field names joined by `,` (GraphQL names hold none), `''` for none;
/// `kept` the value each unconfirmed field held when it was recorded, a JSON object of
/// `GraphQLValue`s (`''` for none); no row for a record with nothing recorded (the table is empty
/// unless a model has protected fields). A file written before `unconfirmed` or `kept` existed
/// gains them (`''`: its records had no such fields, or none whose value is known, which are then
/// sent as before). Written on the writer connection, inside the transaction that stores the
/// record.
///
/// Not thread-safe by itself: every function runs on the connection's queue, inside a transaction.
enum RedactedFields {
  static let table = Outbox.tablePrefix + "unheld"

  /// The recorded fields of one stored record.
  struct State: Equatable, Sendable {
    /// Fields that came back redacted while the row held `null` (or no row): never held.
    var unheld: Set<String> = []
    /// Fields that came back redacted while the row held a value, which it kept.
    var unconfirmed: Set<String> = []
    /// The value each unconfirmed field held when it was recorded (as an update's input holds it).
    var kept: [String: GraphQLValue] = [:]

    var isEmpty: Bool { unheld.isEmpty && unconfirmed.isEmpty }
    /// Every recorded field.
    var all: Set<String> { unheld.union(unconfirmed) }
  }

  private static let selectSQL =
    "SELECT fields, unconfirmed, kept FROM \(quote(table)) WHERE model = ? AND identifier = ?"
  private static let upsertSQL =
    "INSERT INTO \(quote(table)) (model, identifier, fields, unconfirmed, kept) VALUES (?, ?, ?, ?, ?)"
    + " ON CONFLICT (model, identifier) DO UPDATE SET fields = excluded.fields, unconfirmed = excluded.unconfirmed,"
    + " kept = excluded.kept"
  private static let deleteSQL = "DELETE FROM \(quote(table)) WHERE model = ? AND identifier = ?"
  private static let hasEntriesSQL = "SELECT EXISTS (SELECT 1 FROM \(quote(table)) WHERE model = ?)"

  /// Creates the table when missing, and adds `unconfirmed` to a table written before it existed.
  static func createTable(_ connection: Connection) throws {
    try connection.execute(
      "CREATE TABLE IF NOT EXISTS \(quote(table)) (model TEXT NOT NULL, identifier TEXT NOT NULL,"
        + " fields TEXT NOT NULL, unconfirmed TEXT NOT NULL DEFAULT '', kept TEXT NOT NULL DEFAULT '',"
        + " PRIMARY KEY (model, identifier))"
        + " WITHOUT ROWID, STRICT")
    let columns = try connection.prepare("SELECT name FROM pragma_table_info(?)")
    try columns.bind([.text(table)])
    var existing: Set<String> = []
    while try columns.step() { existing.insert(columns.text(0)) }
    columns.reset()
    if !existing.contains("unconfirmed") {
      try connection.execute("ALTER TABLE \(quote(table)) ADD COLUMN unconfirmed TEXT NOT NULL DEFAULT ''")
    }
    if !existing.contains("kept") {
      try connection.execute("ALTER TABLE \(quote(table)) ADD COLUMN kept TEXT NOT NULL DEFAULT ''")
    }
  }

  /// Deletes every row (``DataStore/clear()``).
  static func clear(_ connection: Connection) throws {
    try connection.execute("DELETE FROM \(quote(table))")
  }

  /// Whether some record of `model` has recorded fields (a sync page checks once per page).
  static func hasEntries(_ model: String, _ connection: Connection) throws -> Bool {
    let statement = try connection.prepare(hasEntriesSQL)
    defer { statement.reset() }
    try statement.bind([.text(model)])
    return try statement.step() && statement.int64(0) != 0
  }

  /// The recorded fields of `identifier` of `model` (empty when none).
  static func state(_ model: String, _ identifier: String, _ connection: Connection) throws -> State {
    let statement = try connection.prepare(selectSQL)
    defer { statement.reset() }
    try statement.bind([.text(model), .text(identifier)])
    guard try statement.step() else { return State() }
    func names(_ column: Int32) -> Set<String> {
      Set(statement.text(column).split(separator: ",").map(String.init))
    }
    let kept = statement.text(2)
    return State(
      unheld: names(0), unconfirmed: names(1),
      kept: kept.isEmpty ? [:] : (try? JSONDecoder().decode([String: GraphQLValue].self, from: Data(kept.utf8))) ?? [:])
  }

  /// The unheld fields of `identifier` of `model` (empty when it holds all of them).
  static func unheld(_ model: String, _ identifier: String, _ connection: Connection) throws -> Set<String> {
    try state(model, identifier, connection).unheld
  }

  /// Records `state` for `identifier` of `model` (empty: removes its row).
  static func setState(_ model: String, _ identifier: String, _ state: State, _ connection: Connection) throws {
    if state.isEmpty {
      let statement = try connection.prepare(deleteSQL)
      try statement.bind([.text(model), .text(identifier)])
      try statement.run()
    } else {
      let statement = try connection.prepare(upsertSQL)
      let kept = state.kept.filter { state.unconfirmed.contains($0.key) }
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      try statement.bind([
        .text(model), .text(identifier), .text(state.unheld.sorted().joined(separator: ",")),
        .text(state.unconfirmed.sorted().joined(separator: ",")),
        .text(kept.isEmpty ? "" : String(decoding: try encoder.encode(kept), as: UTF8.self)),
      ])
      try statement.run()
    }
  }

  /// `record` (a remote record of `M` with the identifier `identifier`, about to be stored inside
  /// `tx`) as it is stored, with its redacted fields recorded; `nil` when it is stored as it is (no
  /// copy, no comparison: what a sync page's records of a model without field rules cost).
  /// `redacted`: the fields that came back redacted (every protected field for a mutation's answer
  /// (``LazyModel/ModelSchema/fieldsRedactedInMutationResponses``, empty with a subscription level
  /// other than `on`) or an event (``LazyModel/ModelSchema/fieldsRedactedInSubscriptionEvents``); the refused ones
  /// for a query's record; none otherwise). Each of them that is `null` (or absent) takes the
  /// stored row's value and is recorded unconfirmed, or stays `null` and is recorded unheld when
  /// the row holds `null` or no row is stored; every other field is a real value and is no longer
  /// recorded. `keepsRow` `false` (a revert: the row holds the refused local change) leaves each
  /// redacted `null` `null`, recorded unheld. `mayHaveUnheld` `false` (the transaction found no row
  /// of `M` in the table) leaves out the delete of a record with nothing redacted.
  ///
  /// - Throws: What reading the row, encoding it (``LazyModelAPI/ModelMutations/input(_:of:)``) or
  ///   writing the table throws.
  static func merge<M: Model>(
    _ type: M.Type, _ record: GraphQLValue, identifier: String, redacted: Set<String>, keepsRow: Bool = true,
    mayHaveUnheld: Bool = true, _ tx: WriteTransaction
  ) throws -> GraphQLValue? {
    guard M.schema.hasFieldAuthRules else { return nil }
    guard !redacted.isEmpty, case .object(var members) = record else {
      if mayHaveUnheld { try setState(M.modelName, identifier, State(), tx.connection) }
      return nil
    }
    let nulls = redacted.filter { (members[$0] ?? .null) == .null }
    guard !nulls.isEmpty else {
      try setState(M.modelName, identifier, State(), tx.connection)
      return nil
    }
    let components = try ModelIdentifier(M.self, canonicalString: identifier).components
    guard keepsRow, let local = try tx.store.loadOne(M.self, identifiers: components, tx.connection) else {
      try setState(M.modelName, identifier, State(unheld: nulls), tx.connection)
      return nil
    }
    let held = try ModelMutations.input(.update, of: local)
    var state = State()
    for name in nulls {
      let value = held[name] ?? .null
      members[name] = value
      if value == .null {
        state.unheld.insert(name)
      } else {
        state.unconfirmed.insert(name)
        state.kept[name] = value
      }
    }
    try setState(M.modelName, identifier, state, tx.connection)
    return .object(members)
  }

  /// `input` (an outbox mutation's input for `identifier` of `model`) without each unheld field
  /// that is `null` there (the store never held its value) and each unconfirmed field that holds
  /// the value it kept (the caller did not set it; the server may hold a newer one).
  static func withoutUnheld(
    _ input: [String: GraphQLValue], _ model: String, _ identifier: String, _ connection: Connection
  ) throws -> [String: GraphQLValue] {
    let state = try state(model, identifier, connection)
    guard !state.isEmpty else { return input }
    return input.filter { name, value in
      if value == .null && state.unheld.contains(name) { return false }
      if state.unconfirmed.contains(name), let kept = state.kept[name], kept == value { return false }
      return true
    }
  }
}
