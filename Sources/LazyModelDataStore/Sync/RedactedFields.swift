import Foundation
import LazyModel
import LazyModelAPI

/// Remote records whose protected fields came back redacted, and the fields of each stored record
/// that this store does not hold.
///
/// With subscriptions on, AppSync returns every protected field of a model (one that some read
/// role of the model may not read, ``LazyModel/ModelSchema/fieldsRedactedInMutationResponses``)
/// as `null` in every create or update response and so in every subscription event, for every
/// caller (the auth transformer's field response template; Amplify's "Set up authorization
/// rules", "Per-Field with Subscriptions"); its `sync` and `get` queries return the stored value
/// to a caller allowed to read it. So, applying a mutation's answer or a subscription event (or a
/// held record replayed, which may be one), a protected field that is `null` there says nothing:
/// the stored row keeps its value; a record not stored yet is stored with the field `null` and
/// the field is recorded *unheld* for it. A record read by a query (a sync page, a `get`, a
/// conflict's item) holds real values: its unheld fields are forgotten, and a sync page's record
/// at the stored `_version` is applied while the record has some. An update the outbox sends
/// leaves out each unheld field still `null` in the row, so a value the store never held is never
/// sent back as `null`.
///
/// `_lazymodel_sync_unheld(model, identifier, fields)`: `fields` the unheld field names joined by
/// `,` (GraphQL names hold none); no row for a record that holds all of its fields (the table is
/// empty unless a model has protected fields). Written on the writer connection, inside the
/// transaction that stores the record.
///
/// Not thread-safe by itself: every function runs on the connection's queue, inside a transaction.
enum RedactedFields {
  static let table = Outbox.tablePrefix + "unheld"

  private static let selectSQL = "SELECT fields FROM \(quote(table)) WHERE model = ? AND identifier = ?"
  private static let upsertSQL =
    "INSERT INTO \(quote(table)) (model, identifier, fields) VALUES (?, ?, ?)"
    + " ON CONFLICT (model, identifier) DO UPDATE SET fields = excluded.fields"
  private static let deleteSQL = "DELETE FROM \(quote(table)) WHERE model = ? AND identifier = ?"
  private static let hasEntriesSQL = "SELECT EXISTS (SELECT 1 FROM \(quote(table)) WHERE model = ?)"

  /// Creates the table when missing.
  static func createTable(_ connection: Connection) throws {
    try connection.execute(
      "CREATE TABLE IF NOT EXISTS \(quote(table)) (model TEXT NOT NULL, identifier TEXT NOT NULL,"
        + " fields TEXT NOT NULL, PRIMARY KEY (model, identifier)) WITHOUT ROWID, STRICT")
  }

  /// Deletes every row (``DataStore/clear()``).
  static func clear(_ connection: Connection) throws {
    try connection.execute("DELETE FROM \(quote(table))")
  }

  /// Whether some record of `model` has unheld fields (a sync page checks once per page).
  static func hasEntries(_ model: String, _ connection: Connection) throws -> Bool {
    let statement = try connection.prepare(hasEntriesSQL)
    defer { statement.reset() }
    try statement.bind([.text(model)])
    return try statement.step() && statement.int64(0) != 0
  }

  /// The unheld fields of `identifier` of `model` (empty when it holds all of them).
  static func unheld(_ model: String, _ identifier: String, _ connection: Connection) throws -> Set<String> {
    let statement = try connection.prepare(selectSQL)
    defer { statement.reset() }
    try statement.bind([.text(model), .text(identifier)])
    guard try statement.step() else { return [] }
    return Set(statement.text(0).split(separator: ",").map(String.init))
  }

  /// Records `fields` as the unheld fields of `identifier` of `model` (none: removes its row).
  static func setUnheld(_ model: String, _ identifier: String, _ fields: Set<String>, _ connection: Connection)
    throws
  {
    if fields.isEmpty {
      let statement = try connection.prepare(deleteSQL)
      try statement.bind([.text(model), .text(identifier)])
      try statement.run()
    } else {
      let statement = try connection.prepare(upsertSQL)
      try statement.bind([.text(model), .text(identifier), .text(fields.sorted().joined(separator: ","))])
      try statement.run()
    }
  }

  /// `record` (a remote record of `M` with the identifier `identifier`, about to be stored inside
  /// `tx`) as it is stored, with the unheld fields recorded; `nil` when it is stored as it is (no
  /// copy, no comparison: what a sync page's records of a model without field rules cost). `redacted`: the record is a mutation's
  /// answer or a subscription event (or may be one), whose protected fields that are `null` (or
  /// absent) take the stored row's value, or stay `null` and unheld when no row is stored; a field
  /// the row holds as `null` that was unheld stays unheld. Otherwise (a query's record) the
  /// record's unheld fields are forgotten; `mayHaveUnheld` `false` (the transaction found no row of
  /// `M` in the table) leaves out that delete.
  ///
  /// - Throws: What reading the row, encoding it (``LazyModelAPI/ModelMutations/input(_:of:)``) or
  ///   writing the table throws.
  static func merge<M: Model>(
    _ type: M.Type, _ record: GraphQLValue, identifier: String, redacted: Bool, mayHaveUnheld: Bool = true,
    _ tx: WriteTransaction
  ) throws -> GraphQLValue? {
    guard M.schema.hasFieldAuthRules else { return nil }
    let protected = redacted ? M.schema.fieldsRedactedInMutationResponses : []
    guard !protected.isEmpty, case .object(var members) = record else {
      if mayHaveUnheld { try setUnheld(M.modelName, identifier, [], tx.connection) }
      return nil
    }
    let nulls = protected.filter { (members[$0] ?? .null) == .null }
    guard !nulls.isEmpty else {
      try setUnheld(M.modelName, identifier, [], tx.connection)
      return nil
    }
    let components = try ModelIdentifier(M.self, canonicalString: identifier).components
    guard let local = try tx.store.loadOne(M.self, identifiers: components, tx.connection) else {
      try setUnheld(M.modelName, identifier, nulls, tx.connection)
      return nil
    }
    let held = try ModelMutations.input(.update, of: local)
    for name in nulls { members[name] = held[name] ?? .null }
    let stillNull = nulls.filter { (members[$0] ?? .null) == .null }
    let unheld = try unheld(M.modelName, identifier, tx.connection).intersection(stillNull)
    try setUnheld(M.modelName, identifier, unheld, tx.connection)
    return .object(members)
  }

  /// `input` (an outbox mutation's input for `identifier` of `model`) without each unheld field
  /// that is `null` there: the store never held its value.
  static func withoutUnheld(
    _ input: [String: GraphQLValue], _ model: String, _ identifier: String, _ connection: Connection
  ) throws -> [String: GraphQLValue] {
    let unheld = try unheld(model, identifier, connection)
    guard !unheld.isEmpty else { return input }
    return input.filter { name, value in !(value == .null && unheld.contains(name)) }
  }
}
