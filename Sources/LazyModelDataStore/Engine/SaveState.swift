import LazyModel

/// What the saves of one model type in one write transaction reuse from one save to the next: the
/// row encoder (it learns the key order and the reference type once), the prepared statements, and
/// the decoder that builds one-model saves' returned models (it learns the key order and makes the
/// reference factory once; issue 11's saves row: a decoder, a factory and a statement lookup made
/// per save were a fifth of a save's instructions).
///
/// Thread-safety: not thread-safe; owned by one ``WriteTransaction`` on the writer's queue.
final class SaveState {
  let mapping: TableMapping
  let encoder: RowEncoder
  private var insert: Statement?
  private var upsert: Statement?
  private var remoteUpsert: Statement?
  private var decoder: RowDecoder?

  init(mapping: TableMapping, store: DataStore) {
    self.mapping = mapping
    encoder = RowEncoder(mapping: mapping, store: store)
  }

  /// The columns whose given values are bound after the row (see
  /// ``TableMapping/keptWhenNilColumns``): the remote ones for the sync engine's writes of remote
  /// records (`clock.keepsGivenTimestamps`).
  func keptWhenNil(_ clock: SaveClock) -> [Int] {
    clock.keepsGivenTimestamps ? mapping.remoteKeptWhenNilColumns : mapping.keptWhenNilColumns
  }

  /// ``TableMapping/insertIfAbsent``, prepared once per transaction.
  func insertStatement(_ connection: Connection) throws -> Statement {
    if let insert { return insert }
    let statement = try connection.prepare(mapping.insertIfAbsent, owner: mapping, kind: 13)
    insert = statement
    return statement
  }

  /// ``TableMapping/upsert`` (``TableMapping/remoteUpsert`` for remote records), prepared once per
  /// transaction.
  func upsertStatement(_ clock: SaveClock, _ connection: Connection) throws -> Statement {
    if clock.keepsGivenTimestamps {
      if let remoteUpsert { return remoteUpsert }
      let statement = try connection.prepare(mapping.remoteUpsert, owner: mapping, kind: 12)
      remoteUpsert = statement
      return statement
    }
    if let upsert { return upsert }
    let statement = try connection.prepare(mapping.upsert, owner: mapping, kind: 0)
    upsert = statement
    return statement
  }

  /// The decoder of one-model saves' returned models: its references are not siblings (each
  /// save's model is on its own, as it was with a decoder per save).
  func singleDecoder(store: DataStore) -> RowDecoder {
    if let decoder { return decoder }
    let made = RowDecoder(
      mapping: mapping, store: store, row: .values([]), prefetched: nil, batchesReferences: false)
    decoder = made
    return made
  }

  /// The column values of `model` as the save stores them: encoded and checked
  /// (``RowEncoder/encodeRow(_:)``), with `clock`'s next instant in the implicit `updatedAt` and
  /// in every other timestamp the model leaves nil; the given values of ``keptWhenNil(_:)`` are
  /// appended to `given` first.
  ///
  /// - Throws: What ``RowEncoder/encodeRow(_:)`` throws;
  ///   ``DataStoreError/missingRequiredField(model:field:)`` for a nil required column.
  func row(of model: some Model, clock: SaveClock, given: inout [SQLValue]) throws -> [SQLValue] {
    var row = try encoder.encodeRow(model)
    for index in keptWhenNil(clock) { given.append(row[index]) }
    var now: String?  // this save's instant, read when a timestamp column takes it
    for (index, column) in mapping.columns.enumerated() {
      if let timestamp = column.timestamp,
        (timestamp == .updatedAt && !clock.keepsGivenTimestamps) || row[index] == .null
      {
        // The implicit `updatedAt` takes every save's instant; the other timestamps (the
        // implicit `createdAt`, declared ones) only when the save gives none.
        let instant = now ?? clock.next()
        now = instant
        row[index] = .text(instant)
      }
      if column.isNotNull, row[index] == .null {
        throw DataStoreError.missingRequiredField(model: mapping.schema.name, field: column.field)
      }
    }
    return row
  }
}
