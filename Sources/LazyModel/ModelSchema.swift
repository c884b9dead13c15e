/// Schema metadata of one model, as generated into `Name+Schema.swift`.
///
/// Everything a provider needs: GraphQL type name, plural name, fields in declaration order,
/// associations, primary key, secondary indexes and `@auth` rules. Values only; no behaviour
/// depends on global state.
public struct ModelSchema: Sendable, Hashable {
  /// The GraphQL type name (`Comment4V2`).
  public let name: String
  /// The plural name the Amplify transformer derives (`Comment4V2s`), used for `list<Plural>`.
  public let pluralName: String
  /// The fields in declaration order, including implicit `id`, implicit foreign-key fields and
  /// timestamps, and the association fields.
  public let fields: [ModelField]
  /// The primary-key field names: partition key first, then the sort key fields as written.
  public let primaryKey: [String]
  /// Secondary indexes from `@index` (and the ones `@hasMany`/`@manyToMany` imply).
  public let indexes: [ModelIndex]
  /// The model-level `@auth` rules as written.
  public let authRules: [AuthRule]
  /// The GraphQL root field names of the model's operations as the API schema declares them
  /// (after `@model(queries:, mutations:, subscriptions:)`); `nil` for a disabled operation.
  /// Providers use these names and never derive their own.
  public let operations: ModelOperationNames
  /// The model's timestamp fields (after `@model(timestamps:)`); the DataStore sets them on save.
  public let timestamps: ModelTimestampFields
  /// `true` when the schema writes no `@primaryKey` and the key field `id` is not of type `ID`
  /// (`id: Int!`): the Amplify transformer then types `get<Model>(id:)` and `Delete<Model>Input.id`
  /// as `ID!` (model transformer `getInputs`/`makeDeleteInputField`; only the primary key
  /// transformer uses a key field's own type), so documents declare `$id: ID!`. Generated schemas
  /// set it exactly then; `false` types each key variable after its field.
  public let implicitKeyTypedAsID: Bool
  /// The plural name of the model's sync query (`Posts` for `syncPosts`) when the API schema is a
  /// versioned data source (`modelgen generate --conflict-resolution`); `nil` without sync. As
  /// Amplify's `ModelSchema.syncPluralName`.
  public let syncPluralName: String?
  /// `@model(subscriptions: {level:})` (`SubscriptionLevel`): with `.on` (the default) AppSync
  /// returns every field of ``protectedFields`` as `null` in every create and update response;
  /// with `.public` or `.off` mutation responses carry every field.
  public let subscriptionLevel: SubscriptionLevel
  /// The protected fields: those some read role of the model may not read (its field-level
  /// `@auth` rules; `AuthRule.protectedFields(modelRules:fields:)`, the auth transformer's
  /// `needsFieldResolver` rule). Generated schemas list them; a hand-written schema that passes
  /// `nil` gets them computed from its rules over its data fields that are not read-only, less an
  /// `id` primary key without field rules (which the transformer inserts when the type declares
  /// none, outside its matrix). Empty without field-level rules.
  public let protectedFields: Set<String>

  /// The sync query field (`sync<PluralName>`, `syncPosts`), or `nil` without sync.
  public var syncQueryName: String? { syncPluralName.map { "sync" + $0 } }

  /// Creates a schema. `primaryKey` must name fields of `fields`.
  ///
  /// - Parameters:
  ///   - name: The GraphQL type name (`Post4V2`).
  ///   - pluralName: The plural the transformer derives (`Post4V2s`), used in operation names.
  ///   - primaryKey: The primary key's field names: the partition key, then the sort key fields.
  ///   - fields: Every field, in schema order (implicit ones included).
  ///   - indexes: The `@index` secondary indexes.
  ///   - authRules: The model-level `@auth` rules, as written.
  ///   - implicitKeyTypedAsID: `true` when no `@primaryKey` is written and `id` is not of type
  ///     `ID` (see ``implicitKeyTypedAsID``); `false` by default.
  ///   - operations: The operation field names; `nil` (hand-written schemas) means the Amplify
  ///     transformer's defaults for `name` and `pluralName`
  ///     (``ModelOperationNames/defaults(modelName:pluralName:)``). Generated schemas always pass
  ///     the names the generator resolved.
  ///   - timestamps: The timestamp field names; the default is the transformer's
  ///     (`createdAt`, `updatedAt`).
  ///   - syncPluralName: The sync query's plural name (``syncPluralName``); `nil` without sync.
  ///   - subscriptionLevel: `@model(subscriptions: {level:})`; `.on` by default.
  ///   - protectedFields: The protected fields (``protectedFields``); `nil` computes them from
  ///     `authRules` and the fields' rules.
  public init(
    name: String,
    pluralName: String,
    primaryKey: [String],
    fields: [ModelField],
    indexes: [ModelIndex] = [],
    authRules: [AuthRule] = [],
    implicitKeyTypedAsID: Bool = false,
    operations: ModelOperationNames? = nil,
    timestamps: ModelTimestampFields = ModelTimestampFields(),
    syncPluralName: String? = nil,
    subscriptionLevel: SubscriptionLevel = .on,
    protectedFields: [String]? = nil
  ) {
    self.name = name
    self.pluralName = pluralName
    self.primaryKey = primaryKey
    self.fields = fields
    self.indexes = indexes
    self.authRules = authRules
    self.operations =
      operations ?? ModelOperationNames.defaults(modelName: name, pluralName: pluralName)
    self.timestamps = timestamps
    self.implicitKeyTypedAsID = implicitKeyTypedAsID
    self.syncPluralName = syncPluralName
    self.subscriptionLevel = subscriptionLevel
    self.protectedFields = Set(
      protectedFields
        ?? AuthRule.protectedFields(
          modelRules: authRules, fields: Self.matrixFields(fields, primaryKey: primaryKey)))
  }

  /// The fields a hand-written schema's protected fields are computed from: the auth
  /// transformer's access-control matrix, which covers the fields the GraphQL type declares
  /// (`collectFieldNames`, run before the model transformer inserts `id` and the timestamps and
  /// the auth transformer its owner field), less the associations (they get relational
  /// resolvers). A runtime schema does not say which fields were declared, so this leaves out
  /// the read-only fields (timestamps, an inserted owner) and an `id` that is the whole primary
  /// key without field rules of its own: the transformer inserts it when the type declares none,
  /// and a declared `id: ID!` could be protected only where that is moot (at level `on` the
  /// transformer refuses a required field some read role may not read; elsewhere redacting it
  /// would null the whole record). Other implicit fields (a hasMany's foreign keys on the child)
  /// stay: a field wrongly listed keeps a stored value, one wrongly left out could be cleared.
  private static func matrixFields(
    _ fields: [ModelField], primaryKey: [String]
  ) -> [(name: String, rules: [AuthRule])] {
    fields.filter { field in
      field.association == nil && !field.isReadOnly
        && !(primaryKey == ["id"] && field.name == "id" && field.authRules.isEmpty)
    }.map { ($0.name, $0.authRules) }
  }

  /// Creates a schema with the primary key given as coding keys.
  public init<Key: ModelKey>(
    name: String,
    pluralName: String,
    primaryKey: [Key],
    fields: [ModelField],
    indexes: [ModelIndex] = [],
    authRules: [AuthRule] = [],
    implicitKeyTypedAsID: Bool = false,
    operations: ModelOperationNames? = nil,
    timestamps: ModelTimestampFields = ModelTimestampFields(),
    syncPluralName: String? = nil,
    subscriptionLevel: SubscriptionLevel = .on,
    protectedFields: [String]? = nil
  ) {
    self.init(
      name: name, pluralName: pluralName, primaryKey: primaryKey.map(\.stringValue),
      fields: fields, indexes: indexes, authRules: authRules,
      implicitKeyTypedAsID: implicitKeyTypedAsID, operations: operations, timestamps: timestamps,
      syncPluralName: syncPluralName, subscriptionLevel: subscriptionLevel, protectedFields: protectedFields)
  }

  /// The model-level `@auth` rules with Amplify's defaults resolved (`AuthRule.resolved`), in
  /// the order written: what Amplify's generated metadata carries.
  public var resolvedAuthRules: [AuthRule] { authRules.map(\.resolved) }

  /// Whether some field has field-level `@auth` rules.
  public var hasFieldAuthRules: Bool { fields.contains { !$0.authRules.isEmpty } }

  /// The field named `name`, or `nil`.
  public func field(named name: String) -> ModelField? {
    fields.first { $0.name == name }
  }

  /// The primary-key fields in key order.
  public var primaryKeyFields: [ModelField] {
    primaryKey.compactMap { field(named: $0) }
  }

  /// The fields that hold data of this model itself: every field without an association.
  public var scalarFields: [ModelField] {
    fields.filter { $0.association == nil }
  }
}

/// The GraphQL root field names of one model's operations, as its API schema declares them.
///
/// A `nil` name means the operation is disabled (`@model(queries: null)`, `{get: null}`,
/// `subscriptions: null`); a provider must not send it. The generator writes the names it resolved
/// with the same function that emits the API schema; the providers only read them. The sync query
/// of a versioned data source is ``ModelSchema/syncQueryName``.
///
/// Thread-safety: a `Sendable` value.
public struct ModelOperationNames: Sendable, Hashable {
  /// The `get` query field (`getPost`).
  public var get: String?
  /// The `list` query field (`listPosts`).
  public var list: String?
  /// The `create` mutation field (`createPost`).
  public var create: String?
  /// The `update` mutation field (`updatePost`).
  public var update: String?
  /// The `delete` mutation field (`deletePost`).
  public var delete: String?
  /// The `onCreate` subscription field (`onCreatePost`).
  public var onCreate: String?
  /// The `onUpdate` subscription field (`onUpdatePost`).
  public var onUpdate: String?
  /// The `onDelete` subscription field (`onDeletePost`).
  public var onDelete: String?

  /// Creates the names; each `nil` name is a disabled operation.
  public init(
    get: String?, list: String?, create: String?, update: String?, delete: String?,
    onCreate: String?, onUpdate: String?, onDelete: String?
  ) {
    self.get = get
    self.list = list
    self.create = create
    self.update = update
    self.delete = delete
    self.onCreate = onCreate
    self.onUpdate = onUpdate
    self.onDelete = onDelete
  }

  /// The Amplify GraphQL Transformer v2 defaults (`ModelResourceIDs` of
  /// `graphql-transformer-common`): `get<Name>`, `list<PluralName>`, `create<Name>`,
  /// `update<Name>`, `delete<Name>`, `onCreate<Name>`, `onUpdate<Name>`, `onDelete<Name>`, each
  /// with the model name's first letter upper-cased (`class` → `getClass`, `listClasses`).
  ///
  /// For hand-written schemas only; generated schemas carry the names the generator resolved.
  public static func defaults(modelName: String, pluralName: String) -> ModelOperationNames {
    let name = modelName.prefix(1).uppercased() + modelName.dropFirst()
    let plural = pluralName.prefix(1).uppercased() + pluralName.dropFirst()
    return ModelOperationNames(
      get: "get" + name, list: "list" + plural, create: "create" + name, update: "update" + name,
      delete: "delete" + name, onCreate: "onCreate" + name, onUpdate: "onUpdate" + name,
      onDelete: "onDelete" + name)
  }
}

/// The names of a model's timestamp fields (`@model(timestamps: {createdAt:, updatedAt:})`).
///
/// `nil` means the model has no such timestamp (`timestamps: null`, `{updatedAt: null}`). A
/// DataStore sets `createdAt` on the first save and `updatedAt` on every save, whatever their
/// names; a field named `createdAt` that is not listed here is ordinary data.
///
/// Thread-safety: a `Sendable` value.
public struct ModelTimestampFields: Sendable, Hashable {
  /// The field that holds the creation time, or `nil`.
  public var createdAt: String?
  /// The field that holds the last update time, or `nil`.
  public var updatedAt: String?

  /// Creates the names; the defaults are the Amplify transformer's (`createdAt`, `updatedAt`).
  public init(createdAt: String? = "createdAt", updatedAt: String? = "updatedAt") {
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}

/// The type of a field.
public indirect enum ModelFieldType: Sendable, Hashable {
  /// A scalar.
  case scalar(GraphQLScalar)
  /// A GraphQL enum, by type name; its Swift type is a `String`-backed enum.
  case enumeration(String)
  /// A non-model object type stored inside the model.
  case embedded(any Embeddable.Type)
  /// Another model (an association field).
  case model(any Model.Type)
  /// A list; `elementRequired` is `true` for `[T!]`.
  case list(ModelFieldType, elementRequired: Bool)

  /// `ID`.
  public static let id = ModelFieldType.scalar(.id)
  /// `String`.
  public static let string = ModelFieldType.scalar(.string)
  /// `Int`.
  public static let int = ModelFieldType.scalar(.int)
  /// `Float`.
  public static let double = ModelFieldType.scalar(.float)
  /// `Boolean`.
  public static let bool = ModelFieldType.scalar(.boolean)

  /// The GraphQL type name of the innermost named type (`Post`, `String`, `Priority`).
  public var graphQLTypeName: String {
    switch self {
    case .scalar(let scalar): return scalar.rawValue
    case .enumeration(let name): return name
    case .embedded(let type): return type.schema.name
    case .model(let type): return type.modelName
    case .list(let element, _): return element.graphQLTypeName
    }
  }

  /// Whether both types are the same case with the same payload (model and embedded types compare
  /// by metatype identity).
  public static func == (lhs: ModelFieldType, rhs: ModelFieldType) -> Bool {
    switch (lhs, rhs) {
    case (.scalar(let a), .scalar(let b)): return a == b
    case (.enumeration(let a), .enumeration(let b)): return a == b
    case (.embedded(let a), .embedded(let b)): return ObjectIdentifier(a) == ObjectIdentifier(b)
    case (.model(let a), .model(let b)): return ObjectIdentifier(a) == ObjectIdentifier(b)
    case (.list(let a, let x), .list(let b, let y)): return a == b && x == y
    default: return false
    }
  }

  /// Hashes the case and its payload, consistently with ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .scalar(let scalar):
      hasher.combine(0)
      hasher.combine(scalar)
    case .enumeration(let name):
      hasher.combine(1)
      hasher.combine(name)
    case .embedded(let type):
      hasher.combine(2)
      hasher.combine(ObjectIdentifier(type))
    case .model(let type):
      hasher.combine(3)
      hasher.combine(ObjectIdentifier(type))
    case .list(let element, let required):
      hasher.combine(4)
      hasher.combine(element)
      hasher.combine(required)
    }
  }
}

/// One field of a model or embedded type.
public struct ModelField: Sendable, Hashable {
  /// The GraphQL field name (also the coding key).
  public let name: String
  /// The field's type; lists carry their element nullability.
  public let type: ModelFieldType
  /// `true` when the field's outer type is non-null (`T!`, `[T]!`).
  public let isRequired: Bool
  /// `true` for fields the service sets (`createdAt`, `updatedAt`); clients never send them.
  public let isReadOnly: Bool
  /// The association this field stands for, or `nil` for data fields.
  public let association: ModelAssociation?
  /// The field-level `@auth` rules as written; empty when the field has none (the model-level
  /// rules then apply). When present they replace the model-level rules for this field (Amplify
  /// docs, "Field-level authorization rules").
  public let authRules: [AuthRule]

  /// Creates a field.
  public init(
    name: String, type: ModelFieldType, isRequired: Bool, isReadOnly: Bool = false,
    association: ModelAssociation? = nil, authRules: [AuthRule] = []
  ) {
    self.name = name
    self.type = type
    self.isRequired = isRequired
    self.isReadOnly = isReadOnly
    self.association = association
    self.authRules = authRules
  }

  /// Whether the outer type is non-null, as the DSL spells it.
  public enum Presence: Sendable {
    /// Non-null (`T!`).
    case required
    /// Nullable (`T`).
    case optional
  }

  /// A data field (scalar, enum, embedded or list of those); `authRules` are its field-level
  /// `@auth` rules.
  public static func field(
    _ key: some CodingKey, _ presence: Presence, _ type: ModelFieldType, readOnly: Bool = false,
    authRules: [AuthRule] = []
  ) -> ModelField {
    ModelField(
      name: key.stringValue, type: type, isRequired: presence == .required, isReadOnly: readOnly,
      authRules: authRules)
  }

  /// A `@hasMany` field: a list of `model` whose `associatedFields` point back at this model;
  /// `authRules` are its field-level `@auth` rules.
  public static func hasMany(
    _ key: some CodingKey, _ presence: Presence, _ model: any Model.Type,
    associatedFields: [String], indexName: String? = nil, authRules: [AuthRule] = []
  ) -> ModelField {
    ModelField(
      name: key.stringValue, type: .list(.model(model), elementRequired: false),
      isRequired: presence == .required,
      association: .hasMany(associatedFields: associatedFields, indexName: indexName),
      authRules: authRules)
  }

  /// A `@hasOne` field. `targetNames` are this model's FK fields (`fields:` or implicit); empty
  /// when the FK lives on the other model (`references:`), named by `associatedFields`.
  public static func hasOne(
    _ key: some CodingKey, _ presence: Presence, _ model: any Model.Type,
    associatedFields: [String], targetNames: [String], authRules: [AuthRule] = []
  ) -> ModelField {
    ModelField(
      name: key.stringValue, type: .model(model), isRequired: presence == .required,
      association: .hasOne(associatedFields: associatedFields, targetNames: targetNames),
      authRules: authRules)
  }

  /// A `@belongsTo` field. `targetNames` are this model's FK fields, one per key component of
  /// `model`; `associatedFields` are the fields of `model` they hold (its primary key, or the
  /// `references:` counterpart), same order. Both are spelled out so that no schema reads another
  /// schema while it is being initialised (a self-referencing model would otherwise recurse).
  public static func belongsTo(
    _ key: some CodingKey, _ presence: Presence, _ model: any Model.Type,
    targetNames: [String], associatedFields: [String], authRules: [AuthRule] = []
  ) -> ModelField {
    ModelField(
      name: key.stringValue, type: .model(model), isRequired: presence == .required,
      association: .belongsTo(associatedFields: associatedFields, targetNames: targetNames),
      authRules: authRules)
  }
}

/// How a field relates to another model (Amplify GraphQL Transformer v2 relational directives).
public enum ModelAssociation: Sendable, Hashable {
  /// `@hasMany`: `associatedFields` name the child model's fields that point back at this model:
  /// either its one `@belongsTo` field, or its FK fields in this model's key order (implicit
  /// `<parent><Field><KeyField>` fields or `references:`). `indexName` is the child index that
  /// serves the association, when one does.
  case hasMany(associatedFields: [String], indexName: String?)
  /// `@hasOne`: `targetNames` are FK fields on this model (`fields:` or implicit
  /// `<parent><Field><KeyField>`); with `references:` they are empty and `associatedFields` name the
  /// child's FK fields.
  case hasOne(associatedFields: [String], targetNames: [String])
  /// `@belongsTo`: `targetNames` are FK fields on this model, one per key component of the parent;
  /// `associatedFields` are the parent's fields they hold.
  case belongsTo(associatedFields: [String], targetNames: [String])
}

/// A secondary index (`@index`), or the one a relation implies.
public struct ModelIndex: Sendable, Hashable {
  /// The index name (`byPost4`).
  public let name: String
  /// Partition key field first, then sort key fields.
  public let fields: [String]
  /// The GraphQL query field that reads through the index. Generated schemas always carry the
  /// resolved name: `queryField:` as written, else the transformer's default
  /// (`<plural name, first letter lower-cased>By<Field>And<SortKeyField>…`). `nil` only in
  /// hand-written schemas, where providers fall back to that default, and when
  /// ``hasQueryField`` is `false`.
  public let queryField: String?
  /// `false` for an index declared `@index(queryField: null)`: the index exists (a
  /// `@hasMany(indexName:)` reads through it) but the API schema has no query field for it, so
  /// API providers refuse to build an index query over it (index transformer
  /// `getOrGenerateDefaultQueryField`: "Any explicit null will take effect"). Default `true`.
  public let hasQueryField: Bool

  /// Creates an index. `queryField` is ignored when `hasQueryField` is `false`.
  public init(name: String, fields: [String], queryField: String? = nil, hasQueryField: Bool = true) {
    self.name = name
    self.fields = fields
    self.queryField = hasQueryField ? queryField : nil
    self.hasQueryField = hasQueryField
  }

  /// DSL spelling: `.index("byPost4", fields: ["postID", "content"])`, and
  /// `.index("byOwner", fields: ["owner"], hasQueryField: false)` for `queryField: null`.
  public static func index(
    _ name: String, fields: [String], queryField: String? = nil, hasQueryField: Bool = true
  ) -> ModelIndex {
    ModelIndex(name: name, fields: fields, queryField: queryField, hasQueryField: hasQueryField)
  }
}

/// A non-model object type stored inside a model (JSON column in SQLite, nested object in GraphQL).
///
/// It may hold models (a custom resolver's result type, `OrderLine.product: Product`): such a
/// field has type ``ModelFieldType/model(_:)`` and no association. The model is an embedded value,
/// stored in full inside this value (its own lazy references keep only their identifiers); the API
/// selects its data fields one level deep and writes it in its `Create<Model>Input` shape.
public protocol Embeddable: Codable, Sendable, Hashable {
  /// Its fields (no primary key, no associations; a model-typed field is an embedded model value).
  static var schema: EmbeddedSchema { get }
}

/// Schema metadata of a non-model type.
public struct EmbeddedSchema: Sendable, Hashable {
  /// The GraphQL type name.
  public let name: String
  /// The fields in declaration order.
  public let fields: [ModelField]

  /// Creates a schema.
  public init(name: String, fields: [ModelField]) {
    self.name = name
    self.fields = fields
  }
}
