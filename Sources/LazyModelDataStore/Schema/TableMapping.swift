import LazyModel

/// Quotes an SQLite identifier: `"name"`, with inner quotes doubled (SQLite, "SQLite Keywords":
/// a keyword or any name in double quotes is an identifier). Without Foundation's
/// `replacingOccurrences`, which cost about 16 k instructions a call: the outbox built the text of
/// each statement it ran per drained mutation with it.
func quote(_ name: String) -> String {
  guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
  return "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
}

/// How a column's value is stored and read back.
enum ColumnStorage: Sendable {
  case text, integer, real, boolean, json

  /// The SQLite column type (tables are `STRICT`, so SQLite enforces it).
  var sqlType: String {
    switch self {
    case .text, .json: return "TEXT"
    case .integer, .boolean: return "INTEGER"
    case .real: return "REAL"
    }
  }

  /// The storage of a data field of `type`.
  init(_ type: ModelFieldType) {
    switch type {
    case .scalar(.int), .scalar(.awsTimestamp): self = .integer
    case .scalar(.float): self = .real
    case .scalar(.boolean): self = .boolean
    case .scalar(.awsJSON), .embedded, .list, .model: self = .json
    case .scalar, .enumeration: self = .text
    }
  }
}

/// One column of a model's table.
struct Column: Sendable {
  /// Column name: the field name, or for FK columns the association's target name.
  let name: String
  let storage: ColumnStorage
  let isNotNull: Bool
  /// The GraphQL type of the value (for FK columns: the referenced field's type).
  let fieldType: ModelFieldType
  /// The model field this column belongs to (an association field for FK columns).
  let field: String
  /// The timestamp this column holds (``ModelSchema/timestamps``, whatever its name), which the
  /// store sets; `nil` for other columns.
  let timestamp: TimestampRole?
  /// Every role the column plays besides holding ``field`` (filled in once the whole table is
  /// resolved): a column is created once whatever number of roles it has.
  var roles = ColumnRoles()
}

/// The roles of one column in its table's layout (``TableMapping``): what table creation,
/// migration, row encoding and decoding and predicate SQL each look at.
struct ColumnRoles: Sendable, Equatable {
  /// Position in the primary key (0-based), or `nil`.
  var primaryKeyPosition: Int?
  /// The `@belongsTo`/`@hasOne` fields of this model whose foreign key includes the column (a key
  /// field that is also a target name has both roles: one column, written from the key field).
  var foreignKeyOf: [String] = []
  /// The index names (``TableMapping/indexes``) the column is part of.
  var indexedBy: [String] = []
}

/// Which of a model's timestamps (`@model(timestamps:)`, whatever their names) a column holds,
/// and whether the schema writes it.
///
/// An implicit timestamp (added by the transformer, `ModelField.isReadOnly`) belongs to the store:
/// the caller cannot set it. A timestamp field the model declares itself (`createdAt: AWSDateTime`,
/// writable) belongs to the caller, as in the transformer v2's resolvers, which fill it only when
/// the input leaves it out (`$util.defaultIfNull($ctx.args.input.createdAt, $util.time.nowISO8601())`
/// on create, the same for `updatedAt` on create and update).
enum TimestampRole: Sendable, Equatable {
  /// The implicit `createdAt`: set on insert when nil, never changed by an update.
  case createdAt
  /// The implicit `updatedAt`: set on every save (a remote record's own value is kept).
  case updatedAt
  /// A declared `createdAt`: set on insert when nil; an update that gives a value stores it, one
  /// that gives nil keeps the stored value.
  case declaredCreatedAt
  /// A declared `updatedAt`: set on every save that gives nil, a given value is stored as given.
  case declaredUpdatedAt

  /// The role of `field` of `schema`, `nil` when it is no timestamp (timestamps are the
  /// `AWSDateTime` fields that `ModelSchema.timestamps` names; `timestamps: null` names none).
  init?(_ field: ModelField, of schema: ModelSchema) {
    guard field.type == .scalar(.awsDateTime) else { return nil }
    if field.name == schema.timestamps.createdAt {
      self = field.isReadOnly ? .createdAt : .declaredCreatedAt
    } else if field.name == schema.timestamps.updatedAt {
      self = field.isReadOnly ? .updatedAt : .declaredUpdatedAt
    } else {
      return nil
    }
  }
}

/// A `@belongsTo`, or a `@hasOne` whose FK lives on this model: FK columns on this table.
struct ReferencePlan: Sendable {
  let field: String
  let target: any Model.Type
  /// FK column names (target names), one per associated field.
  let targetNames: [String]
  /// The target model's fields the FK columns hold, same order.
  let associatedFields: [String]
  /// Positions of the FK columns in ``TableMapping/columns``.
  let columnIndexes: [Int]
  let isBelongsTo: Bool
  let isRequired: Bool
}

/// A `@hasOne(references:)`: the target model's `associatedFields` hold this model's key.
struct ChildReferencePlan: Sendable {
  let field: String
  let target: any Model.Type
  /// FK columns on the target, in this model's key order.
  let associatedFields: [String]
}

/// A `@hasMany`: the target's FK columns hold this model's key.
struct ListPlan: Sendable {
  let field: String
  let target: any Model.Type
  /// FK columns on the target, in this model's key order (belongsTo fields resolved to target names).
  let associatedColumns: [String]
  /// The target's `@index` the relationship goes through (`indexName:`), or `nil`.
  let indexName: String?
}

/// What a coding key of the model stands for.
/// Payloads are positions in ``TableMapping/columns``, ``TableMapping/references``,
/// ``TableMapping/childReferences`` and ``TableMapping/lists`` (cheap to copy in the decoder's hot path).
enum FieldPlan: Sendable {
  case column(Int)
  case reference(Int)
  case childReference(Int)
  case list(Int)
}

/// A model's table: columns, keys, indexes and the SQL the store reuses, derived once from its
/// ``ModelSchema``.
///
/// Rules (mirroring Amplify DataStore's SQLite storage, with native keys):
/// - one column per data field (scalars, enums, embedded types and lists as JSON text);
/// - a `@belongsTo`, and a `@hasOne` with `fields:`/implicit FKs, become FK columns named by the
///   association's target names, typed like the referenced key fields;
/// - the primary key is a native (composite) `PRIMARY KEY`;
/// - a `@belongsTo` whose associated fields are the target's primary key gets
///   `FOREIGN KEY … REFERENCES … ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED` (checked at
///   commit; a `@hasOne` FK has none: both sides of a two-way one-to-one would otherwise require
///   each other to exist first);
/// - every FK column set gets an index (FK columns, then primary-key columns, so a list page is read in
///   key order straight from the index), and every `@index` gets one (its fields, then the
///   primary-key columns, for the same reason). FK columns that serve another
///   model's `@hasMany` or `@hasOne(references:)` (implicit `blogPostsId`-style fields, `references:`
///   fields without a `@belongsTo`) are ordinary columns here; the registry names them
///   (``incomingForeignKeys(of:)``) and they get an index too, unless the primary key or another index
///   already starts with them.
final class TableMapping: Sendable {
  let schema: ModelSchema
  let type: any Model.Type
  let table: String
  let columns: [Column]
  let primaryKeyColumns: [Int]
  /// The primary-key column names, in key order.
  let primaryKeyNames: [String]
  /// Coding-key plans in schema field order, for the decoder's in-order fast path.
  let orderedPlans: [(name: String, plan: FieldPlan)]
  let plans: [String: FieldPlan]
  let references: [ReferencePlan]
  let childReferences: [ChildReferencePlan]
  let lists: [ListPlan]
  /// `(index name, column names)` of every index to create.
  let indexes: [(name: String, columns: [String])]
  let columnIndexByName: [String: Int]

  /// `"a", "b", …` in column order.
  let selectList: String
  /// `SELECT <all> FROM t WHERE pk1 = ? AND …`.
  let selectByPrimaryKey: String
  /// `pk1 = ? AND …`: the primary key's columns in key order (the sync engine's remote records).
  let primaryKeyCondition: String
  /// `SELECT 1 FROM t WHERE pk1 = ? AND …`.
  let existsByPrimaryKey: String
  /// `INSERT … ON CONFLICT (pk) DO UPDATE SET …` of every column: parameters 1…`columns.count`
  /// are the row, then one per ``keptWhenNilColumns`` entry, the value the save gives (`NULL`:
  /// keep the stored one).
  let upsert: String
  /// The columns (positions in ``columns``) of a declared `createdAt`
  /// (``TimestampRole/declaredCreatedAt``): an update stores the value a save gives and keeps the
  /// stored one when it gives nil.
  let keptWhenNilColumns: [Int]
  /// The sync engine's upsert of a remote record (a mutation answer, a sync page's item, a live
  /// event, a held record replayed): ``upsert``'s shape, but every `createdAt` (implicit or
  /// declared, ``remoteKeptWhenNilColumns``) takes the record's value, so the row holds the
  /// timestamps as the server has them; a record that holds none keeps the stored one.
  let remoteUpsert: String
  /// The columns of ``remoteUpsert`` bound after the row (the record's own values): the implicit
  /// and declared `createdAt`.
  let remoteKeptWhenNilColumns: [Int]
  /// `INSERT … ON CONFLICT (pk) DO NOTHING` of every column (parameters 1…`columns.count`, the
  /// row): a save runs it first and the upsert only when it inserted nothing (the key is stored).
  /// With foreign keys enforced, SQLite gives an `INSERT … DO UPDATE` a statement journal (its
  /// update branch may change the FK columns), which every insert then pays for: about 4,200
  /// instructions a row under callgrind, against none for this statement (issue 11's saves row).
  let insertIfAbsent: String
  /// Whether ``upsert`` updates anything (`DO UPDATE`); when it has no column to update it is
  /// ``insertIfAbsent`` itself, which then does all a save does.
  let upsertUpdates: Bool

  /// The mapping of `type`.
  ///
  /// - Parameters:
  ///   - incomingForeignKeys: The column sets of this table that other models' `@hasMany` and
  ///     `@hasOne(references:)` associations look rows up by (see ``incomingForeignKeys(of:)``); each
  ///     gets an index unless one already starts with it.
  /// - Throws: ``DataStoreError/unknownField(model:field:)`` when an index or an incoming FK names a
  ///   column the table lacks, ``DataStoreError/incompatibleSchema(model:reason:)`` for an association
  ///   whose target names and associated fields differ in count.
  init(_ type: any Model.Type, incomingForeignKeys: [[String]] = []) throws {
    let schema = type.schema
    self.type = type
    self.schema = schema
    table = schema.name
    var columns: [Column] = []
    var plans: [(String, FieldPlan)] = []
    var references: [ReferencePlan] = []
    var childReferences: [ChildReferencePlan] = []
    var lists: [ListPlan] = []
    // A target name that is also a data field of the model (a primary-key field that is the FK of a
    // `@belongsTo`, issue 11) is that field's column: the column is made once, for the data field,
    // and the reference points at it.
    let dataFields = Set(schema.fields.filter { $0.association == nil }.map(\.name))
    var sharedForeignKeys: [(reference: Int, offset: Int, name: String)] = []
    for field in schema.fields {
      var foreignKey: (associatedFields: [String], targetNames: [String], isBelongsTo: Bool)?
      switch field.association {
      case .belongsTo(let associatedFields, let targetNames)?:
        foreignKey = (associatedFields, targetNames, true)
      case .hasOne(let associatedFields, let targetNames)? where !targetNames.isEmpty:
        foreignKey = (associatedFields, targetNames, false)
      default: foreignKey = nil
      }
      if let (associatedFields, targetNames, isBelongsTo) = foreignKey {
        guard case .model(let target) = field.type, targetNames.count == associatedFields.count
        else {
          throw DataStoreError.incompatibleSchema(
            model: schema.name,
            reason: "\(field.name) must name one target name per associated field")
        }
        var indexes: [Int] = []
        for (offset, (name, associated)) in zip(targetNames, associatedFields).enumerated() {
          if dataFields.contains(name) {
            // Resolved below, once the data field's column exists.
            sharedForeignKeys.append((references.count, offset, name))
            indexes.append(-1)
            continue
          }
          let keyType = target.schema.field(named: associated)?.type ?? .id
          indexes.append(columns.count)
          columns.append(
            Column(
              name: name, storage: ColumnStorage(keyType), isNotNull: field.isRequired,
              fieldType: keyType,
              field: field.name, timestamp: nil))
        }
        let plan = ReferencePlan(
          field: field.name, target: target, targetNames: targetNames,
          associatedFields: associatedFields,
          columnIndexes: indexes, isBelongsTo: isBelongsTo, isRequired: field.isRequired)
        references.append(plan)
        plans.append((field.name, .reference(references.count - 1)))
        continue
      }
      switch field.association {
      case .belongsTo?:
        continue
      case nil:
        // The schema names the timestamps (renamed or disabled by `@model(timestamps:)`).
        let timestamp = TimestampRole(field, of: schema)
        plans.append((field.name, .column(columns.count)))
        columns.append(
          Column(
            name: field.name, storage: ColumnStorage(field.type), isNotNull: field.isRequired,
            fieldType: field.type, field: field.name, timestamp: timestamp))
      case .hasOne(let associatedFields, _):
        guard case .model(let target) = field.type else { continue }
        let plan = ChildReferencePlan(
          field: field.name, target: target, associatedFields: associatedFields)
        childReferences.append(plan)
        plans.append((field.name, .childReference(childReferences.count - 1)))
      case .hasMany(let associatedFields, let indexName):
        guard case .list(.model(let target), _) = field.type else { continue }
        let plan = ListPlan(
          field: field.name, target: target,
          associatedColumns: Self.resolveColumns(associatedFields, of: target.schema),
          indexName: indexName)
        lists.append(plan)
        plans.append((field.name, .list(lists.count - 1)))
      }
    }
    var resolvedReferences = references
    for shared in sharedForeignKeys {
      guard let index = columns.firstIndex(where: { $0.name == shared.name }) else {
        throw DataStoreError.unknownField(model: schema.name, field: shared.name)
      }
      let reference = resolvedReferences[shared.reference]
      var indexes = reference.columnIndexes
      indexes[shared.offset] = index
      resolvedReferences[shared.reference] = ReferencePlan(
        field: reference.field, target: reference.target, targetNames: reference.targetNames,
        associatedFields: reference.associatedFields, columnIndexes: indexes,
        isBelongsTo: reference.isBelongsTo, isRequired: reference.isRequired)
    }
    references = resolvedReferences
    for reference in references {
      for index in reference.columnIndexes { columns[index].roles.foreignKeyOf.append(reference.field) }
    }
    orderedPlans = plans
    self.plans = Dictionary(plans, uniquingKeysWith: { first, _ in first })
    self.references = references
    self.childReferences = childReferences
    self.lists = lists
    columnIndexByName = Dictionary(
      columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    primaryKeyColumns = try schema.primaryKey.map { name in
      guard let index = columns.firstIndex(where: { $0.name == name }) else {
        throw DataStoreError.unknownField(model: schema.name, field: name)
      }
      return index
    }

    var indexes: [(String, [String])] = []
    let keyNames = primaryKeyColumns.map { columns[$0].name }
    primaryKeyNames = keyNames
    for reference in references where !keyNames.starts(with: reference.targetNames) {
      // (A FK that the primary key starts with is served by the primary key's own index.)
      indexes.append(
        (
          table + "_" + reference.targetNames.joined(separator: "_") + "_fk",
          reference.targetNames + keyNames.filter { !reference.targetNames.contains($0) }
        ))
    }
    for index in schema.indexes {
      let resolved = Self.resolveColumns(index.fields, of: schema)
      for name in resolved where !columns.contains(where: { $0.name == name }) {
        throw DataStoreError.unknownField(model: schema.name, field: name)
      }
      // Primary-key columns last, as for FK indexes: a list through this index pages in sort key
      // order straight from it (no sort of a parent's children per page).
      indexes.append(
        (table + "_" + index.name, resolved + keyNames.filter { !resolved.contains($0) }))
    }
    for foreignKey in incomingForeignKeys where !foreignKey.isEmpty {
      for name in foreignKey where !columns.contains(where: { $0.name == name }) {
        throw DataStoreError.unknownField(model: schema.name, field: name)
      }
      let existing = [keyNames] + indexes.map(\.1)
      guard !existing.contains(where: { $0.starts(with: foreignKey) }) else { continue }
      indexes.append(
        (
          table + "_" + foreignKey.joined(separator: "_") + "_fk",
          foreignKey + keyNames.filter { !foreignKey.contains($0) }
        ))
    }
    self.indexes = indexes
    for (position, index) in primaryKeyColumns.enumerated() {
      columns[index].roles.primaryKeyPosition = position
    }
    for index in indexes {
      for name in index.1 {
        if let position = columns.firstIndex(where: { $0.name == name }) {
          columns[position].roles.indexedBy.append(index.0)
        }
      }
    }
    self.columns = columns

    selectList = columns.map { quote($0.name) }.joined(separator: ", ")
    selectByPrimaryKey =
      "SELECT \(selectList) FROM \(quote(table)) WHERE "
      + keyNames.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
    primaryKeyCondition = keyNames.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
    existsByPrimaryKey = "SELECT 1 FROM \(quote(table)) WHERE \(primaryKeyCondition)"
    // A local save never changes the implicit `createdAt` of a stored row (the store's own); a
    // declared `createdAt` the save leaves nil keeps the stored value on update, and the insert
    // stores the save's instant in its place. The value as given (before the store fills it) is
    // bound after the row's columns, one parameter per such column (`?N`, N > columns.count).
    let keptWhenNil = columns.indices.filter { columns[$0].timestamp == .declaredCreatedAt }
    keptWhenNilColumns = keptWhenNil
    upsert = Self.upsertSQL(
      table: table, columns: columns, keyNames: keyNames, keptWhenNil: keptWhenNil,
      skipped: { $0.timestamp == .createdAt })
    // A remote record's `createdAt` is the server's, implicit or declared: it replaces the stored
    // one (README, "Timestamps"), unless the record holds none.
    let remoteKeptWhenNil = columns.indices.filter {
      columns[$0].timestamp == .createdAt || columns[$0].timestamp == .declaredCreatedAt
    }
    remoteKeptWhenNilColumns = remoteKeptWhenNil
    remoteUpsert = Self.upsertSQL(
      table: table, columns: columns, keyNames: keyNames, keptWhenNil: remoteKeptWhenNil, skipped: { _ in false })
    insertIfAbsent = Self.upsertSQL(
      table: table, columns: columns, keyNames: keyNames, keptWhenNil: [], skipped: { _ in true })
    upsertUpdates = upsert != insertIfAbsent
  }

  /// `INSERT … ON CONFLICT (pk) DO UPDATE SET …` of `columns`: parameters 1…`columns.count` are the
  /// row, then one per `keptWhenNil` entry (positions in `columns`), the value the write gives
  /// (`NULL`: the update keeps the stored one); `skipped` columns (and the key) are never updated.
  private static func upsertSQL(
    table: String, columns: [Column], keyNames: [String], keptWhenNil: [Int], skipped: (Column) -> Bool
  ) -> String {
    let updatable = columns.filter { !keyNames.contains($0.name) && !skipped($0) }
    let conflict =
      updatable.isEmpty
      ? "DO NOTHING"
      : "DO UPDATE SET "
        + updatable.map { column in
          let name = quote(column.name)
          guard let position = keptWhenNil.firstIndex(where: { columns[$0].name == column.name }) else {
            return "\(name) = excluded.\(name)"
          }
          return "\(name) = COALESCE(?\(columns.count + position + 1), \(name))"
        }.joined(separator: ", ")
    return "INSERT INTO \(quote(table)) (\(columns.map { quote($0.name) }.joined(separator: ", "))) VALUES ("
      + Array(repeating: "?", count: columns.count).joined(separator: ", ")
      + ") ON CONFLICT (\(keyNames.map(quote).joined(separator: ", "))) \(conflict)"
  }

  /// For each model of `models` (by model name), the column sets of its table that `@hasMany` and
  /// `@hasOne(references:)` associations of `models` look its rows up by: the associations' associated
  /// fields resolved to the target's columns (``resolveColumns(_:of:)``), in the parent's key order.
  static func incomingForeignKeys(of models: [any Model.Type]) -> [String: [[String]]] {
    var foreignKeys: [String: [[String]]] = [:]
    for model in models {
      for field in model.schema.fields {
        let target: any Model.Type
        let associatedFields: [String]
        switch (field.association, field.type) {
        case (.hasMany(let fields, _)?, .list(.model(let type), _)):
          (target, associatedFields) = (type, fields)
        case (.hasOne(let fields, let targetNames)?, .model(let type)) where targetNames.isEmpty:
          (target, associatedFields) = (type, fields)
        default:
          continue
        }
        let columns = resolveColumns(associatedFields, of: target.schema)
        if foreignKeys[target.schema.name]?.contains(columns) != true {
          foreignKeys[target.schema.name, default: []].append(columns)
        }
      }
    }
    return foreignKeys
  }

  /// Column names for field names of `schema`: a `@belongsTo`/`@hasOne` field stands for its target
  /// names; any other name (a data field or a target name) is itself.
  static func resolveColumns(_ names: [String], of schema: ModelSchema) -> [String] {
    names.flatMap { name -> [String] in
      switch schema.field(named: name)?.association {
      case .belongsTo(_, let targetNames)?: return targetNames
      case .hasOne(_, let targetNames)? where !targetNames.isEmpty: return targetNames
      default: return [name]
      }
    }
  }

  /// The column named `name`, or `nil`.
  func column(named name: String) -> Int? { columnIndexByName[name] }

  /// `CREATE TABLE` for this model.
  var createTableSQL: String { createTableSQL(named: table) }

  /// `CREATE TABLE` for this model under the table name `name`.
  func createTableSQL(named name: String) -> String {
    var parts = columns.map { column in
      "\(quote(column.name)) \(column.storage.sqlType)\(column.isNotNull ? " NOT NULL" : "")"
    }
    parts.append(
      "PRIMARY KEY (\(primaryKeyColumns.map { quote(columns[$0].name) }.joined(separator: ", ")))")
    for reference in references where reference.isBelongsTo {
      guard let clause = foreignKeyClause(reference) else { continue }
      parts.append(clause)
    }
    return "CREATE TABLE \(quote(name)) (\n  " + parts.joined(separator: ",\n  ") + "\n) STRICT"
  }

  /// `FOREIGN KEY (…) REFERENCES target (…) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED`,
  /// when the associated fields are the target's primary key (SQLite requires a unique parent key).
  func foreignKeyClause(_ reference: ReferencePlan) -> String? {
    guard Set(reference.associatedFields) == Set(reference.target.schema.primaryKey),
      reference.associatedFields.count == reference.target.schema.primaryKey.count
    else { return nil }
    return "FOREIGN KEY (\(reference.targetNames.map(quote).joined(separator: ", "))) REFERENCES "
      + "\(quote(reference.target.schema.name)) (\(reference.associatedFields.map(quote).joined(separator: ", "))) "
      + Self.foreignKeyActions
  }

  /// What every `FOREIGN KEY` of the store's tables says after its columns: deleting a parent
  /// deletes its children, and the constraint is checked at `COMMIT`, not after each statement
  /// (SQLite's "Deferred Foreign Key Constraints", <https://www.sqlite.org/foreignkeys.html#fk_deferred>),
  /// so a child may be saved before its parent in one transaction. Declared in the table, the
  /// deferral needs no `PRAGMA defer_foreign_keys` per transaction — a flag pragma, which expires
  /// every prepared statement of the connection.
  static let foreignKeyActions = "ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"

  /// `CREATE INDEX IF NOT EXISTS` statements.
  var createIndexSQL: [String] {
    indexes.map { index in
      "CREATE INDEX IF NOT EXISTS \(quote(index.name)) ON \(quote(table)) (\(index.columns.map(quote).joined(separator: ", ")))"
    }
  }
}
