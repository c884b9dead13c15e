import GraphQLSDL

/// The stable codes of the semantic diagnostics (`MG001` ...), in the style of GraphQLSDL's
/// `SDLDiagnosticCode`. Codes never change meaning; retired codes are not reused. Tests and users
/// match on codes, never on wording.
public enum ModelGenDiagnosticCode {
  /// A field or argument names a type that is not defined.
  public static let unknownType: DiagnosticCode = "MG001"
  /// A directive that is neither an Amplify directive nor declared in the document.
  public static let unknownDirective: DiagnosticCode = "MG002"
  /// An argument the directive does not take.
  public static let unknownArgument: DiagnosticCode = "MG003"
  /// Two type definitions with the same name.
  public static let duplicateType: DiagnosticCode = "MG004"
  /// Two fields (or enum values, or input fields) with the same name in one type.
  public static let duplicateField: DiagnosticCode = "MG005"
  /// `@belongsTo` whose parent has no `@hasMany`/`@hasOne` pointing back.
  public static let belongsToWithoutCounterpart: DiagnosticCode = "MG006"
  /// A primary-key or index key field that is nullable.
  public static let nullableKeyField: DiagnosticCode = "MG007"
  /// A key field that is not a scalar or enum (list, object, model).
  public static let invalidKeyFieldType: DiagnosticCode = "MG008"
  /// `sortKeyFields:`, `fields:`, `references:`, `ownerField:` ... naming a field the model does not have.
  public static let missingField: DiagnosticCode = "MG009"
  /// `fields:`/`references:` with a different number of fields than the related key.
  public static let keyCountMismatch: DiagnosticCode = "MG010"
  /// `fields:`/`references:` whose types differ from the related key's.
  public static let keyTypeMismatch: DiagnosticCode = "MG011"
  /// Relations between two models that cannot be paired unambiguously.
  public static let ambiguousRelation: DiagnosticCode = "MG012"
  /// `@default(value:)` that does not parse as the field's type, or on a field that cannot have one.
  public static let invalidDefault: DiagnosticCode = "MG013"
  /// An argument value of the wrong shape (`sortKeyFields: "a"`), an unknown enum value in it, or a
  /// string that becomes a name (`relationName`, `ownerField`, `queryField`, …) but is not a GraphQL
  /// name.
  public static let invalidArgumentValue: DiagnosticCode = "MG014"
  /// A required argument is missing.
  public static let missingArgument: DiagnosticCode = "MG015"
  /// A directive where it has no meaning (`@primaryKey` on a non-model type, `@model` on a field).
  public static let misplacedDirective: DiagnosticCode = "MG016"
  /// A non-repeatable directive used twice on one element.
  public static let repeatedDirective: DiagnosticCode = "MG017"
  /// A relational directive on a field of the wrong shape (`@hasMany` on a non-list, on a scalar).
  public static let relationFieldType: DiagnosticCode = "MG018"
  /// A model-typed field without `@hasMany`/`@hasOne`/`@belongsTo`/`@manyToMany`.
  public static let modelFieldWithoutRelation: DiagnosticCode = "MG019"
  /// A list of lists.
  public static let nestedList: DiagnosticCode = "MG020"
  /// A field whose type is an interface, union, input or custom scalar.
  public static let unsupportedFieldType: DiagnosticCode = "MG021"
  /// `@hasMany(indexName:)` naming an index the child does not have.
  public static let indexNotFound: DiagnosticCode = "MG022"
  /// Two indexes with the same name on one model.
  public static let duplicateIndexName: DiagnosticCode = "MG023"
  /// An `@auth` rule that is incomplete or contradictory.
  public static let invalidAuthRule: DiagnosticCode = "MG024"
  /// A declared timestamp field whose type is not `AWSDateTime`, or a field colliding with an implicit one.
  public static let implicitFieldConflict: DiagnosticCode = "MG025"
  /// `@manyToMany` sides that do not match (one side missing, more than two, a join model name taken).
  public static let invalidManyToMany: DiagnosticCode = "MG026"
  /// A second `@primaryKey` in one model.
  public static let duplicatePrimaryKey: DiagnosticCode = "MG027"
  /// The two sides of a relation name their key differently (`references:` on one side only).
  public static let relationStyleMismatch: DiagnosticCode = "MG028"
  /// `@hasMany(fields:)` naming fields that are not the parent's primary key (in key order).
  public static let fieldsNotPrimaryKey: DiagnosticCode = "MG029"
  /// Two root query fields with one name (`queryField:` of two indexes, or one equal to `get<Model>`/`list<Models>`).
  public static let duplicateQueryField: DiagnosticCode = "MG030"
  /// Non-model (embedded) types that contain themselves through fields that are not lists: a Swift
  /// value type cannot store itself.
  public static let recursiveEmbeddedType: DiagnosticCode = "MG031"
  /// Two type names, or names the API derives from them (`Create<X>Input`, `Model<X>Connection`, join
  /// models), that are equal ignoring letter case: SQLite table names and the API schema would clash.
  public static let typeNameCollision: DiagnosticCode = "MG032"
  /// Two field names of one type that are equal ignoring letter case: SQLite column names clash.
  public static let fieldNameCollision: DiagnosticCode = "MG033"
  /// A definition that redefines a built-in GraphQL scalar or an AWS AppSync scalar (`enum Int`).
  public static let builtInTypeRedefined: DiagnosticCode = "MG034"
  /// Two generated file names (Swift type names, `Models.swift`) that differ only in letter case
  /// or Unicode normalization (`SwiftNames.fileSystemKey(_:)`): they collide on case-insensitive,
  /// normalization-insensitive file systems (APFS and HFS+ on macOS; Windows).
  public static let caseCollidingFileNames: DiagnosticCode = "MG035"
  /// A type, field, enum value, argument, input field, directive or directive argument whose name
  /// starts with `__`, which GraphQL reserves for its introspection system (spec §4.1): the API
  /// schema would not validate.
  public static let reservedName: DiagnosticCode = "MG036"
  /// With a conflict-resolution strategy, a model that declares `_version`, `_deleted` or
  /// `_lastChangedAt`, which the transformer adds itself (and refuses to add twice).
  public static let declaredSyncField: DiagnosticCode = "MG037"
  /// `@aws_subscribe(mutations:)` that is not a list of the names of `Mutation` fields.
  public static let invalidSubscribeMutations: DiagnosticCode = "MG038"
  /// A `schema { … }` definition (or extension) naming a root operation type other than `Query`,
  /// `Mutation` or `Subscription`.
  public static let renamedRootType: DiagnosticCode = "MG039"
  /// A type whose Swift name is longer than `SwiftNames.maximumTypeNameLength` (238) UTF-8 bytes:
  /// the longest file SwiftPM writes for `<SwiftName>+Schema.swift`, `<SwiftName>+Schema.swiftdeps`
  /// (17 bytes over the name; `+Schema.swift.o` is 15), would exceed the 255-byte file name limit
  /// of APFS and ext4, so the app could not build it.
  public static let fileNameTooLong: DiagnosticCode = "MG040"
  /// An API schema without a single `Query` field: every model leaves its queries out
  /// (`@model(queries: null)`, no index query) and the schema declares no `Query` field of its
  /// own. The transformer then emits no `Query` type, and a GraphQL schema must have one (GraphQL
  /// spec §3.3).
  public static let missingQueryRoot: DiagnosticCode = "MG043"
  /// A `Subscription` field whose result type (named type and full list shape, nullability aside:
  /// `[[Post]]` is not `[Post]`) is not that of a mutation its `@aws_subscribe(mutations:)` names:
  /// AppSync requires them to match.
  public static let subscriptionTypeMismatch: DiagnosticCode = "MG044"
  /// A directive of an Amplify feature modelgen does not generate (`@searchable`: OpenSearch
  /// resolvers and the `search<Plural>` query).
  public static let unsupportedDirective: DiagnosticCode = "MG045"
  /// A directive argument whose value does not coerce to the argument's type in the directive's
  /// definition (`@deprecated(reason: 1)`; GraphQL spec §5.6.1 "Values of Correct Type").
  public static let invalidDirectiveArgument: DiagnosticCode = "MG046"
  /// `@deprecated` on a required argument or input field (non-null without a default): GraphQL
  /// spec §3.13.3 allows deprecating only optional ones.
  public static let deprecatedRequiredInput: DiagnosticCode = "MG047"
  /// A second `schema { … }` definition (GraphQL spec §3.3: a schema has at most one; extend it
  /// with `extend schema`).
  public static let duplicateSchemaDefinition: DiagnosticCode = "MG048"
  /// Two arguments with one name on a field or a directive definition (GraphQL spec §3.6, §3.13).
  public static let duplicateArgument: DiagnosticCode = "MG050"
  /// Two `directive @name` definitions with one name (GraphQL spec §3.13).
  public static let duplicateDirective: DiagnosticCode = "MG051"
  /// A default value of an argument or input field that its type's input coercion rules refuse
  /// (GraphQL spec §3.10, §3.11, §3.12, §3.5; `Int` is 32-bit, enum values by name, no `null` for
  /// a non-null type, input objects with their required fields and no unknown ones).
  public static let invalidDefaultValue: DiagnosticCode = "MG052"
  /// An object type that is not a model, an interface or an `input` type with no fields (GraphQL
  /// spec §3.6, §3.7, §3.10).
  public static let typeWithoutFields: DiagnosticCode = "MG053"
  /// `input` types that contain themselves through non-null fields that are not lists
  /// (`input I { i: I! }`): no finite value exists (GraphQL spec §3.10 "Circular References").
  public static let inputTypeCycle: DiagnosticCode = "MG054"
  /// An `@auth` rule on a `Query`, `Mutation` or `Subscription` field that names `operations:`,
  /// which the auth transformer refuses there (`validateFieldRules`: the field is one operation).
  public static let operationsOnRootFieldAuthRule: DiagnosticCode = "MG065"
  /// `@auth(rules: [])`: an `@auth` without a rule, which the auth transformer refuses on a type
  /// or a field (`validateRules`, `validateFieldRules`: "does not have any auth rules").
  public static let emptyAuthRules: DiagnosticCode = "MG066"
  /// An owner rule (`allow: owner`) or a dynamic group rule (`groupsField:`) on a `Query`,
  /// `Mutation` or `Subscription` field: the auth transformer keeps only the static rules of a
  /// field outside a model (`authNonModelConfig`), since such a field has no record to check.
  public static let recordRuleOnRootField: DiagnosticCode = "MG067"
  /// An `@auth` rule whose `operations:` or `groups:` is an empty list (`operations: []`,
  /// `groups: []`): the rule then grants no operation, or no caller is in a group it names, so
  /// it grants nothing while the schema reads as if it granted access (a mistake, not a policy).
  /// Reported at the empty list; the hint says what to write instead.
  public static let emptyAuthRuleList: DiagnosticCode = "MG068"
  /// An object type (model, non-model or root type) or an interface that does not implement an
  /// interface it names as GraphQL requires (spec §3.6 "IsValidImplementation", §3.7): the name
  /// is not an interface, is named twice or is the type itself, an interface field is missing, a
  /// field's type is not a subtype of the interface field's, an interface argument is missing or
  /// typed differently, an extra argument is required, or an interface the interface implements
  /// is not named too. Models are checked against the fields the API schema gives them (implicit
  /// `id` and timestamps included, relation fields as `Model<X>Connection`). The transformer does
  /// not check this (`validateModelSchema` builds the schema with `assumeValid`); AppSync and
  /// graphql-core refuse the schema.
  public static let invalidImplementation: DiagnosticCode = "MG069"
  /// A union member that is not an object type (an interface, union, enum, input or scalar), or
  /// a member named twice (GraphQL spec §3.8: "The member types of a Union type must all be Object
  /// base types", each once).
  public static let invalidUnionMember: DiagnosticCode = "MG070"
  /// An operation (`query`, `mutation`, `subscription`) named twice by the schema definition and
  /// its `extend schema`s (GraphQL spec §3.3, §3.3.2).
  public static let repeatedRootOperation: DiagnosticCode = "MG071"
  /// An `@auth` rule's `operations:` naming a granular read operation (`get`, `list`, `sync`,
  /// `listen`, `search`) where the auth transformer refuses it (`getAuthDirectiveRules`): in a
  /// field-level rule of a model field ("'get' operation is not allowed at the field level."), or
  /// beside `read`, which covers every read operation ("'get' operations are specified in addition
  /// to 'read'"). Reported once per rule, at its first such operation.
  public static let refusedReadOperations: DiagnosticCode = "MG072"
  /// A Boolean field as the only sort key field of a `@primaryKey` or `@index`: the transformer
  /// has no key condition input for it (its scalar key conditions are `String`, `ID`, `Int` and
  /// `Float`; `addKeyConditionInputs` throws "Sort Key Condition could not be constructed for
  /// field"), so the schema does not deploy. A Boolean inside a composite sort key is fine (the
  /// composite input holds it). Reported at the sort key field's name in `sortKeyFields:`.
  public static let booleanSortKey: DiagnosticCode = "MG073"
  /// A `@model(timestamps:)` name that another field of the model needs: the other timestamp
  /// (`{createdAt: "changed", updatedAt: "changed"}`), the implicit `id: ID!`, an implicit foreign
  /// key a relation adds (`postCommentsId`) or the owner field of an `{allow: owner}` rule. The
  /// transformer would define the field twice (or type the owner `AWSDateTime`), and the Swift model
  /// would not compile. A declared `AWSDateTime` field of that name stays a timestamp (MG025 for
  /// another type). Reported at the timestamp's name in `timestamps:`.
  public static let timestampNameConflict: DiagnosticCode = "MG074"

  /// Warning: a type's Swift name is not its GraphQL name, because that would shadow a standard
  /// library, Foundation, Concurrency or LazyModel type (or the `Models` registry) in the app's
  /// module (`SwiftTypeNaming`). Warnings use `MGW` codes, numbered on their own.
  public static let renamedSwiftType: DiagnosticCode = "MGW001"
  /// Warning: a field's Swift property or an enum value's Swift case is not its plain
  /// camel-cased name: `self`, the members every model declares (`identifier`, ...) and those a
  /// protocol of every model requires (`description`, `debugDescription`, `hashValue`) get the
  /// suffix `Value`, and fields or enum cases that would be equal get a numeric suffix (`SwiftNames`);
  /// or a member a model derives from a field gets a numeric suffix because a field has its name (a
  /// reference's setter `setPost2`, accessor `postReference2`, storage `_post2`, by-identifier label
  /// `postIdentifier2`; a key field `components` is `Identifier.componentsValue`;
  /// `SwiftModelMemberNames`).
  public static let renamedSwiftMember: DiagnosticCode = "MGW002"
  /// Warning: an `@index`'s typed key (`Model.indexes.<name>`, the name lower-first) or its
  /// composite sort key struct (`Model.Indexes.<Name>SortKey`) takes a numeric suffix: two indexes
  /// whose names are equal lower-first (`ByOwner` → `byOwner2` beside `byOwner`), or a struct
  /// named like a type of the schema or another struct (`ByGradeSortKey2`; `SwiftIndexKeyNames`);
  /// reported at the index's `name:`. The index keeps its name on the wire.
  public static let renamedIndexKey: DiagnosticCode = "MGW003"
}

/// The catalog of semantic diagnostics: every message and hint is defined here once.
public enum SemanticError: Sendable, Hashable {
  /// MG001: a field or argument names a type that is not defined.
  case unknownType(name: String, suggestion: String?)
  /// MG002: a directive that is neither an Amplify directive nor declared in the document.
  case unknownDirective(name: String, suggestion: String?)
  /// MG003: an argument the directive does not take.
  case unknownArgument(directive: String, argument: String, suggestion: String?, arguments: [String])
  /// MG004: two type definitions with the same name.
  case duplicateType(name: String)
  /// MG005: two fields (or enum values) with the same name in one type.
  case duplicateField(owner: String, field: String)
  /// MG006: `@belongsTo` whose parent has no `@hasMany`/`@hasOne` pointing back.
  case belongsToWithoutCounterpart(model: String, field: String, parent: String)
  /// MG007: a primary-key or index key field that is nullable.
  case nullableKeyField(model: String, field: String, role: String)
  /// MG008: a key field that is not a scalar or enum (list, object, model).
  case invalidKeyFieldType(model: String, field: String, typeName: String, role: String)
  /// MG073: `model.field`, a Boolean, is the only sort key field of `@directive`.
  case booleanSortKey(model: String, field: String, directive: String)
  /// MG009: `sortKeyFields:`, `fields:`, `references:`, `ownerField:` ... naming a field the model does not have.
  case missingField(model: String, field: String, argument: String, suggestion: String?)
  /// MG010: `fields:`/`references:` with a different number of fields than the related key.
  case keyCountMismatch(argument: String, given: Int, relatedModel: String, keyFields: [String])
  /// MG011: `fields:`/`references:` whose types differ from the related key's.
  case keyTypeMismatch(argument: String, field: String, fieldType: String, keyField: String, keyType: String)
  /// MG012: relations between two models that cannot be paired unambiguously.
  case ambiguousRelation(model: String, field: String, relatedModel: String, candidates: [String])
  /// MG013: `@default(value:)` that does not parse as the field's type, or on a field that cannot have one.
  case invalidDefault(field: String, value: String, typeName: String, reason: String)
  /// MG013: `@default` on a field whose type takes no default (lists, embedded types); `typeName` is
  /// the field's type as written (`[Int]`).
  case defaultNotAllowed(owner: String, field: String, typeName: String)
  /// MG013: `@default` on a primary key field (`@primaryKey`, a sort key field, or `id: ID!`), which the
  /// transformer refuses (`may not be applied to primaryKey fields` / `composite key member fields`).
  case defaultOnPrimaryKey(owner: String, field: String)
  /// MG014: an argument value of the wrong shape (`sortKeyFields: "a"`), or an unknown enum value in
  /// it; `suggestion` is the closest valid value for a misspelt enum value.
  case invalidArgumentValue(
    directive: String, argument: String, expected: String, suggestion: String? = nil, fix: String)
  /// MG015: a required argument is missing.
  case missingArgument(directive: String, argument: String)
  /// MG016: a directive where it has no meaning (`@primaryKey` on a non-model type, `@model` on a field).
  case misplacedDirective(directive: String, placement: String)
  /// MG017: a non-repeatable directive used twice on one element.
  case repeatedDirective(directive: String)
  /// MG018: a relational directive on a field of the wrong shape (`@hasMany` on a non-list, on a scalar).
  case relationFieldType(directive: String, field: String, expected: String)
  /// MG019: a model-typed field without `@hasMany`/`@hasOne`/`@belongsTo`/`@manyToMany`.
  case modelFieldWithoutRelation(model: String, field: String, relatedModel: String)
  /// MG020: a list of lists.
  case nestedList(owner: String, field: String)
  /// MG021: a field whose type is an interface, union, input or custom scalar.
  case unsupportedFieldType(owner: String, field: String, typeName: String, kind: String)
  /// MG022: `@hasMany(indexName:)` naming an index the child does not have.
  case indexNotFound(
    model: String, field: String, indexName: String, relatedModel: String, suggestion: String?, indexes: [String])
  /// MG023: two indexes with the same name on one model.
  case duplicateIndexName(model: String, indexName: String)
  /// MG024: an `@auth` rule that is incomplete or contradictory.
  case invalidAuthRule(model: String, reason: String)
  /// MG025: a declared timestamp field whose type is not `AWSDateTime`, or a field colliding with an implicit one.
  case implicitFieldConflict(model: String, field: String, reason: String)
  /// MG074: a `timestamps:` name (`timestamp` is `createdAt` or `updatedAt`) that `other` (a
  /// description: "the `updatedAt` timestamp", "the implicit primary key", …) needs too.
  case timestampNameConflict(model: String, timestamp: String, name: String, other: String, kind: TimestampConflict)
  /// MG026: `@manyToMany` sides that do not match (one side missing, more than two, a join model name taken).
  case invalidManyToMany(relationName: String, reason: String)
  /// MG027: a second `@primaryKey` in one model.
  case duplicatePrimaryKey(model: String)
  /// MG028: the two sides of a relation name their key differently.
  case relationStyleMismatch(model: String, field: String, otherModel: String, otherField: String)
  /// MG029: `@hasMany(fields:)` naming fields that are not the parent's primary key.
  case fieldsNotPrimaryKey(model: String, field: String, keyFields: [String])
  /// MG030: two root fields (queries, mutations or subscriptions) with one name.
  case duplicateQueryField(name: String)
  /// MG030: the user's root field `root.name` is also the `operation` the transformer generates for
  /// `model`; `disable` says how to leave that one out (`@model(queries: {get: null})`).
  case customRootFieldClash(root: String, name: String, model: String, operation: String, disable: String)
  /// MG021: a field of a user-declared root or input type whose type cannot be there: a result
  /// (`expectsInput` false) that is an input type, interface, union or custom scalar, or an
  /// argument or input field (`expectsInput`) that is an object type or model.
  case invalidCustomFieldType(
    owner: String, field: String, argument: String?, typeName: String, kind: String, expectsInput: Bool)
  /// MG031: embedded types that contain themselves through non-list fields; `cycle` is the path of
  /// `Type.field` steps ending with the type the cycle returns to (`["A1.b", "B1.a", "A1"]`).
  case recursiveEmbeddedType(owner: String, field: String, cycle: [String])
  /// MG032: a type whose name (`name`) or a name derived from it (`claim`) equals, ignoring letter
  /// case, `otherClaim` of the earlier type `otherName` (`nil`: a type every API schema defines).
  case typeNameCollision(name: String, claim: String, otherName: String?, otherClaim: String)
  /// MG032: `name`, a root operation type of the API schema (`Query`, `Mutation`, `Subscription`,
  /// or one a `schema { … }` names), is defined as a `kind` (`model`, `enum`, `input type`, ...)
  /// instead of a plain object type.
  case rootTypeNameClaimed(name: String, kind: String)
  /// MG033: two fields of `owner` whose names are equal ignoring letter case.
  case fieldNameCollision(owner: String, field: String, otherField: String, isImplicit: Bool)
  /// MG034: a type definition named like a built-in or AWS AppSync scalar.
  case builtInTypeRedefined(name: String, kind: String)
  /// MG035: the files of types `name` and `otherName` (`file`, `otherFile`) differ only in letter
  /// case or Unicode normalization.
  case caseCollidingFileNames(name: String, file: String, otherName: String, otherFile: String)
  /// MG040: type `name`'s Swift name `swiftName` is `bytes` UTF-8 bytes long, over
  /// `SwiftNames.maximumTypeNameLength`.
  case fileNameTooLong(name: String, swiftName: String, bytes: Int)
  /// MG036: `name` (a `kind`: type, field, enum value, argument, input field, directive,
  /// directive argument) starts with `__`.
  case reservedName(name: String, kind: String)
  /// MG037: `model` declares `field`, which a versioned data source (conflict resolution
  /// `strategy`) adds itself.
  case declaredSyncField(model: String, field: String, strategy: String)
  /// MG038: `@aws_subscribe(mutations:)` on `Subscription.field` is not a list of strings
  /// (`mutation` `nil`), or names `mutation`, which `Mutation` does not define (`suggestion`: the
  /// closest field it does define).
  case invalidSubscribeMutations(field: String, mutation: String?, suggestion: String?)
  /// MG039: the schema definition names `typeName` as its `operation` root type (`query`).
  case renamedRootType(operation: String, typeName: String)
  /// MG043: the API schema would have no `Query` field; `owner` is where the run noticed it (the
  /// first model whose queries are left out, or the user's `Mutation`/`Subscription` type).
  case missingQueryRoot(owner: String, isModel: Bool)
  /// MG044: `Subscription.field` (result `type` as written) subscribes to `mutation`, whose result
  /// is `mutationType`.
  case subscriptionTypeMismatch(field: String, type: String, mutation: String, mutationType: String)
  /// MG045: `@name`, of an Amplify feature modelgen does not generate; `feature` says what it
  /// would add, `instead` what to write.
  case unsupportedDirective(name: String, feature: String, instead: String)
  /// MG046: the value of `@directive(argument:)` does not coerce to `typeName`, for `reason`.
  case invalidDirectiveArgument(directive: String, argument: String, typeName: String, reason: String)
  /// MG047: `@deprecated` on the required `kind` (argument, input field) `owner`.
  case deprecatedRequiredInput(owner: String, kind: String)
  /// MG048: a second `schema { … }` definition.
  case duplicateSchemaDefinition
  /// MG050: `owner` (`Query.search`, or `@cached` for a directive definition) takes `argument`
  /// more than once.
  case duplicateArgument(owner: String, argument: String)
  /// MG051: `directive @name` is defined more than once.
  case duplicateDirective(name: String)
  /// MG052: the default value of `argument` of `owner.field` (of `owner`, `@name`, when `field` is
  /// nil), or of the input field `owner.field` when `argument` is nil, does not coerce to its
  /// type `typeName` as written (`[Int!]`), for `reason`.
  case invalidDefaultValue(owner: String, field: String?, argument: String?, typeName: String, reason: String)
  /// MG053: the `kind` (object type, interface, input type) `name` has no fields.
  case typeWithoutFields(name: String, kind: String)
  /// MG054: input type `owner`'s non-null field `field` closes a cycle of non-null, non-list input
  /// fields; `cycle` is the path of `Type.field` steps ending with the type it returns to.
  case inputTypeCycle(owner: String, field: String, cycle: [String])
  /// MG065: an `@auth` rule on the root field `field` (`Query.report`) names `operations:`.
  case operationsOnRootFieldAuthRule(field: String)
  /// MG066: the `@auth` of `owner` (`Post`, `Post.title`, `Query.report`) has no rules.
  case emptyAuthRules(owner: String)
  /// MG067: an `allow: owner` rule (`strategy` "owner") or a `groupsField:` rule (`strategy`
  /// "groupsField") on the root field `field`.
  case recordRuleOnRootField(field: String, strategy: String)
  /// MG068: the `option` (`operations` or `groups`) of an `@auth` rule of `owner` (`Post`,
  /// `Post.title`, `Query.report`) is an empty list.
  case emptyAuthRuleList(owner: String, option: String)
  /// MG069: `type` (an object type or interface) does not implement `interface` as GraphQL
  /// requires, for `reason`.
  case invalidImplementation(type: String, interface: String, reason: String)
  /// MG070: the union `union` lists `member`, for `reason` (not an object type, or repeated).
  case invalidUnionMember(union: String, member: String, reason: String)
  /// MG071: `operation` (`query`) is named again, as `typeName`.
  case repeatedRootOperation(operation: String, typeName: String)
  /// MG072: the `@auth` rule of `owner` (`Post`, `Post.title`) names the granular read
  /// `operations` (`["get", "list"]`) in a field-level rule (`besideRead` false) or beside `read`.
  case refusedReadOperations(owner: String, operations: [String], besideRead: Bool)
  /// MG002: an Amplify GraphQL Transformer v1 directive (`@key`, `@connection`), with the v2
  /// directive(s) that replace it as written here (`@index`).
  case v1Directive(name: String, replacement: String)
  /// MGW001 (warning): type `name` gets the Swift name `swiftName`, since `wanted` would shadow the
  /// type of that name from `source` (`Swift Concurrency`).
  case renamedSwiftType(name: String, wanted: String, swiftName: String, source: String)
  /// MGW002 (warning): member `member` of `owner` (a field or enum value) gets the Swift name
  /// `swiftName` instead of `wanted`, for `reason`.
  case renamedSwiftMember(owner: String, member: String, wanted: String, swiftName: String, reason: String)
  /// MGW003 (warning): the typed key of index `index` of `model` (or, `isSortKey`, its sort key
  /// struct) gets the Swift name `swiftName` (`Reading.indexes.byOwner2`,
  /// `Reading.Indexes.ByGradeSortKey2`), for `reason`.
  case renamedIndexKey(model: String, index: String, isSortKey: Bool, swiftName: String, reason: String)

  /// The stable code.
  public var code: DiagnosticCode {
    switch self {
    case .unknownType: return ModelGenDiagnosticCode.unknownType
    case .unknownDirective: return ModelGenDiagnosticCode.unknownDirective
    case .unknownArgument: return ModelGenDiagnosticCode.unknownArgument
    case .duplicateType: return ModelGenDiagnosticCode.duplicateType
    case .duplicateField: return ModelGenDiagnosticCode.duplicateField
    case .belongsToWithoutCounterpart: return ModelGenDiagnosticCode.belongsToWithoutCounterpart
    case .nullableKeyField: return ModelGenDiagnosticCode.nullableKeyField
    case .invalidKeyFieldType: return ModelGenDiagnosticCode.invalidKeyFieldType
    case .booleanSortKey: return ModelGenDiagnosticCode.booleanSortKey
    case .missingField: return ModelGenDiagnosticCode.missingField
    case .keyCountMismatch: return ModelGenDiagnosticCode.keyCountMismatch
    case .keyTypeMismatch: return ModelGenDiagnosticCode.keyTypeMismatch
    case .ambiguousRelation: return ModelGenDiagnosticCode.ambiguousRelation
    case .invalidDefault: return ModelGenDiagnosticCode.invalidDefault
    case .invalidArgumentValue: return ModelGenDiagnosticCode.invalidArgumentValue
    case .missingArgument: return ModelGenDiagnosticCode.missingArgument
    case .misplacedDirective: return ModelGenDiagnosticCode.misplacedDirective
    case .repeatedDirective: return ModelGenDiagnosticCode.repeatedDirective
    case .relationFieldType: return ModelGenDiagnosticCode.relationFieldType
    case .modelFieldWithoutRelation: return ModelGenDiagnosticCode.modelFieldWithoutRelation
    case .nestedList: return ModelGenDiagnosticCode.nestedList
    case .unsupportedFieldType: return ModelGenDiagnosticCode.unsupportedFieldType
    case .indexNotFound: return ModelGenDiagnosticCode.indexNotFound
    case .duplicateIndexName: return ModelGenDiagnosticCode.duplicateIndexName
    case .invalidAuthRule: return ModelGenDiagnosticCode.invalidAuthRule
    case .implicitFieldConflict: return ModelGenDiagnosticCode.implicitFieldConflict
    case .timestampNameConflict: return ModelGenDiagnosticCode.timestampNameConflict
    case .invalidManyToMany: return ModelGenDiagnosticCode.invalidManyToMany
    case .duplicatePrimaryKey: return ModelGenDiagnosticCode.duplicatePrimaryKey
    case .relationStyleMismatch: return ModelGenDiagnosticCode.relationStyleMismatch
    case .fieldsNotPrimaryKey: return ModelGenDiagnosticCode.fieldsNotPrimaryKey
    case .duplicateQueryField: return ModelGenDiagnosticCode.duplicateQueryField
    case .customRootFieldClash: return ModelGenDiagnosticCode.duplicateQueryField
    case .invalidCustomFieldType: return ModelGenDiagnosticCode.unsupportedFieldType
    case .defaultNotAllowed: return ModelGenDiagnosticCode.invalidDefault
    case .defaultOnPrimaryKey: return ModelGenDiagnosticCode.invalidDefault
    case .recursiveEmbeddedType: return ModelGenDiagnosticCode.recursiveEmbeddedType
    case .typeNameCollision: return ModelGenDiagnosticCode.typeNameCollision
    case .rootTypeNameClaimed: return ModelGenDiagnosticCode.typeNameCollision
    case .fieldNameCollision: return ModelGenDiagnosticCode.fieldNameCollision
    case .builtInTypeRedefined: return ModelGenDiagnosticCode.builtInTypeRedefined
    case .caseCollidingFileNames: return ModelGenDiagnosticCode.caseCollidingFileNames
    case .fileNameTooLong: return ModelGenDiagnosticCode.fileNameTooLong
    case .reservedName: return ModelGenDiagnosticCode.reservedName
    case .declaredSyncField: return ModelGenDiagnosticCode.declaredSyncField
    case .invalidSubscribeMutations: return ModelGenDiagnosticCode.invalidSubscribeMutations
    case .renamedRootType: return ModelGenDiagnosticCode.renamedRootType
    case .missingQueryRoot: return ModelGenDiagnosticCode.missingQueryRoot
    case .subscriptionTypeMismatch: return ModelGenDiagnosticCode.subscriptionTypeMismatch
    case .unsupportedDirective: return ModelGenDiagnosticCode.unsupportedDirective
    case .invalidDirectiveArgument: return ModelGenDiagnosticCode.invalidDirectiveArgument
    case .deprecatedRequiredInput: return ModelGenDiagnosticCode.deprecatedRequiredInput
    case .duplicateSchemaDefinition: return ModelGenDiagnosticCode.duplicateSchemaDefinition
    case .duplicateArgument: return ModelGenDiagnosticCode.duplicateArgument
    case .duplicateDirective: return ModelGenDiagnosticCode.duplicateDirective
    case .invalidDefaultValue: return ModelGenDiagnosticCode.invalidDefaultValue
    case .typeWithoutFields: return ModelGenDiagnosticCode.typeWithoutFields
    case .inputTypeCycle: return ModelGenDiagnosticCode.inputTypeCycle
    case .operationsOnRootFieldAuthRule: return ModelGenDiagnosticCode.operationsOnRootFieldAuthRule
    case .emptyAuthRules: return ModelGenDiagnosticCode.emptyAuthRules
    case .recordRuleOnRootField: return ModelGenDiagnosticCode.recordRuleOnRootField
    case .emptyAuthRuleList: return ModelGenDiagnosticCode.emptyAuthRuleList
    case .invalidImplementation: return ModelGenDiagnosticCode.invalidImplementation
    case .invalidUnionMember: return ModelGenDiagnosticCode.invalidUnionMember
    case .repeatedRootOperation: return ModelGenDiagnosticCode.repeatedRootOperation
    case .refusedReadOperations: return ModelGenDiagnosticCode.refusedReadOperations
    case .v1Directive: return ModelGenDiagnosticCode.unknownDirective
    case .renamedSwiftType: return ModelGenDiagnosticCode.renamedSwiftType
    case .renamedSwiftMember: return ModelGenDiagnosticCode.renamedSwiftMember
    case .renamedIndexKey: return ModelGenDiagnosticCode.renamedIndexKey
    }
  }

  /// `.warning` for the `MGW` codes (the schema is still generated), `.error` for every other.
  public var severity: DiagnosticSeverity {
    switch self {
    case .renamedSwiftType, .renamedSwiftMember, .renamedIndexKey: return .warning
    default: return .error
    }
  }

  /// The diagnostic value for this entry at `range` of `fileName`.
  public func diagnostic(fileName: String, range: SourceRange, notes: [DiagnosticNote] = []) -> Diagnostic {
    Diagnostic(
      severity: severity, code: code, message: message, fileName: fileName, range: range, notes: notes, hint: hint)
  }

  /// User text in a message: shortened and escaped by the one function every diagnostic uses
  /// (`DiagnosticText.shortened`), so a 10 MB name costs a few dozen bytes per message.
  private func q(_ text: String, limit: Int = DiagnosticText.maximumQuotedLength) -> String {
    DiagnosticText.shortened(text, limit: limit)
  }

  /// A cycle's `Type.field` steps joined by ` -> `; a path longer than eight steps keeps its
  /// first three and last two (`A.b -> … 12 more … -> Z.a -> A`), so a message stays one line.
  private func path(_ steps: [String]) -> String {
    let shown = steps.count > 8 ? steps.prefix(3) + ["… \(steps.count - 5) more …"] + steps.suffix(2) : steps[...]
    return shown.map { q($0) }.joined(separator: " -> ")
  }

  /// The one-line message; every piece of user text in it is quoted through
  /// `DiagnosticText.shortened` (at most 80 wide, an escape counted by its bytes, `…` when cut);
  /// a `reason` quotes its user text through the same function already (at most 40 wide), and
  /// its `limit: 400` here leaves that text as it is.
  public var message: String {
    switch self {
    case .unknownType(let name, _):
      return "unknown type `\(q(name))`"
    case .unknownDirective(let name, _):
      return "unknown directive `@\(q(name))`"
    case .unknownArgument(let directive, let argument, _, _):
      return "`@\(q(directive))` has no argument `\(q(argument))`"
    case .duplicateType(let name):
      return "type `\(q(name))` is defined more than once"
    case .duplicateField(let owner, let field):
      return "`\(q(owner))` defines `\(q(field))` more than once"
    case .belongsToWithoutCounterpart(let model, let field, let parent):
      return
        "`\(q(model)).\(q(field))` is a @belongsTo, but `\(q(parent))` has no @hasMany or @hasOne field of type `\(q(model))`"
    case .nullableKeyField(let model, let field, let role):
      return "\(q(role, limit: 400)) field `\(q(model)).\(q(field))` must be non-null"
    case .invalidKeyFieldType(let model, let field, let typeName, let role):
      return
        "\(q(role, limit: 400)) field `\(q(model)).\(q(field))` has type `\(q(typeName))`; key fields must be scalars or enums"
    case .booleanSortKey(let model, let field, let directive):
      return
        "the Boolean `\(q(model)).\(q(field))` cannot be the only sort key field of @\(q(directive)): the transformer has no key condition input for a Boolean (only String, ID, Int and Float) and refuses the schema"
    case .missingField(let model, let field, let argument, _):
      return "`\(q(argument))` names `\(q(field))`, which is not a field of `\(q(model))`"
    case .keyCountMismatch(let argument, let given, let relatedModel, let keyFields):
      let list = keyFields.map { "`\(q($0))`" }.joined(separator: ", ")
      return
        "`\(q(argument))` has \(given) field\(given == 1 ? "" : "s"), but the key of `\(q(relatedModel))` has \(keyFields.count) (\(list))"
    case .keyTypeMismatch(let argument, let field, let fieldType, let keyField, let keyType):
      return
        "`\(q(argument))` field `\(q(field))` has type `\(q(fieldType))`, but the key field `\(q(keyField))` it holds has type `\(q(keyType))`"
    case .ambiguousRelation(let model, let field, let relatedModel, let candidates):
      let list = candidates.map { "`\(q($0))`" }.joined(separator: ", ")
      return "`\(q(model)).\(q(field))` cannot be paired unambiguously: `\(q(relatedModel))` has \(list)"
    case .invalidDefault(let field, let value, let typeName, let reason):
      return "@default value \"\(q(value))\" of `\(q(field))` is not a valid `\(q(typeName))`: \(q(reason, limit: 400))"
    case .invalidArgumentValue(let directive, let argument, let expected, _, _):
      return "`@\(q(directive))(\(q(argument)):)` must be \(q(expected, limit: 400))"
    case .missingArgument(let directive, let argument):
      return "`@\(q(directive))` requires the argument `\(q(argument))`"
    case .misplacedDirective(let directive, let placement):
      return "`@\(q(directive))` \(q(placement, limit: 400))"
    case .repeatedDirective(let directive):
      return "`@\(q(directive))` may appear only once here"
    case .relationFieldType(let directive, let field, let expected):
      return "`@\(q(directive))` field `\(q(field))` must be \(q(expected, limit: 400))"
    case .modelFieldWithoutRelation(let model, let field, let relatedModel):
      return
        "`\(q(model)).\(q(field))` has model type `\(q(relatedModel))` but no @hasMany, @hasOne, @belongsTo or @manyToMany"
    case .nestedList(let owner, let field):
      return "`\(q(owner)).\(q(field))` is a list of lists, which models cannot store"
    case .unsupportedFieldType(let owner, let field, let typeName, let kind):
      return
        "`\(q(owner)).\(q(field))` has \(q(kind, limit: 400)) type `\(q(typeName))`, which a model or embedded type cannot hold"
    case .indexNotFound(let model, let field, let indexName, let relatedModel, _, _):
      return "`\(q(model)).\(q(field))` uses index `\(q(indexName))`, which `\(q(relatedModel))` does not define"
    case .duplicateIndexName(let model, let indexName):
      return "`\(q(model))` defines index `\(q(indexName))` more than once"
    case .invalidAuthRule(let model, let reason):
      return "invalid @auth rule on `\(q(model))`: \(q(reason, limit: 400))"
    case .implicitFieldConflict(let model, let field, let reason):
      return "`\(q(model)).\(q(field))` \(q(reason, limit: 400))"
    case .timestampNameConflict(let model, let timestamp, let name, let other, _):
      return
        "the `\(q(timestamp))` timestamp of `\(q(model))` is named `\(q(name))`, which is also \(q(other, limit: 400)); the model would define `\(q(name))` twice"
    case .invalidManyToMany(let relationName, let reason):
      return "@manyToMany relation `\(q(relationName))` \(q(reason, limit: 400))"
    case .duplicatePrimaryKey(let model):
      return "`\(q(model))` has more than one @primaryKey"
    case .relationStyleMismatch(let model, let field, let otherModel, let otherField):
      return
        "`\(q(model)).\(q(field))` uses `references:` but its counterpart `\(q(otherModel)).\(q(otherField))` does not (or the reverse)"
    case .duplicateQueryField(let name):
      return "root field `\(q(name))` is defined more than once in the API schema"
    case .customRootFieldClash(let root, let name, let model, let operation, _):
      return
        "`\(q(root)).\(q(name))` is also the \(q(operation)) the Amplify transformer generates for `\(q(model))`; the API schema would define it twice"
    case .invalidCustomFieldType(let owner, let field, let argument, let typeName, let kind, let expectsInput):
      if !expectsInput {
        return
          "`\(q(owner)).\(q(field))` returns \(q(kind)) type `\(q(typeName))`; a field returns a scalar, enum, object type, model, interface or union"
      }
      if let argument {
        let holder = field.isEmpty ? q(owner) : "\(q(owner)).\(q(field))"
        return
          "argument `\(q(argument))` of `\(holder)` has \(q(kind)) type `\(q(typeName))`; an argument takes a scalar, enum or input type"
      }
      return
        "`\(q(owner)).\(q(field))` has \(q(kind)) type `\(q(typeName))`; an input field takes a scalar, enum or input type"
    case .fieldsNotPrimaryKey(let model, let field, let keyFields):
      let list = keyFields.map { "`\(q($0))`" }.joined(separator: ", ")
      return
        "`\(q(model)).\(q(field))` lists `fields:` that are not the primary key of `\(q(model))` (\(list)) in key order"
    case .defaultOnPrimaryKey(let owner, let field):
      return
        "`\(q(owner)).\(q(field))` is part of the primary key of `\(q(owner))`; @default does not apply to primary key fields"
    case .defaultNotAllowed(let owner, let field, let typeName):
      return
        "`\(q(owner)).\(q(field))` has type `\(q(typeName))`; @default only applies to scalar and enum fields, not to lists or embedded types"
    case .recursiveEmbeddedType(let owner, let field, let cycle):
      return
        "`\(q(owner)).\(q(field))` makes `\(q(cycle.last ?? owner))` contain itself (\(cycle.map { q($0) }.joined(separator: " -> "))), which a Swift value type cannot store"
    case .typeNameCollision(let name, let claim, let otherName, let otherClaim):
      let this = claim == name ? "type `\(q(name))`" : "`\(q(claim))` (derived from type `\(q(name))`)"
      let other =
        switch otherName {
        case nil where APINames.isScalarKeyConditionInput(otherClaim):
          "`\(q(otherClaim))`, which the API schema defines for a key with one sort key field compared as `\(q(APINames.keyConditionScalarName(otherClaim)))`"
        case nil: "`\(q(otherClaim))`, which every API schema defines"
        case otherClaim?: "type `\(q(otherClaim))`"
        case let otherName?: "`\(q(otherClaim))` (derived from type `\(q(otherName))`)"
        }
      let reason =
        claim == otherClaim
        ? "the API schema would define `\(q(claim))` twice"
        : "SQLite table names and API schema type names ignore letter case"
      return "\(this) collides with \(other); \(q(reason, limit: 400))"
    case .rootTypeNameClaimed(let name, let kind):
      return
        "`\(q(name))` is a root operation type of the API schema, which holds the generated and your own root fields; it cannot be \(q(kind, limit: 400))"
    case .fieldNameCollision(let owner, let field, let otherField, let isImplicit):
      let other = isImplicit ? "the implicit field `\(q(otherField))`" : "`\(q(otherField))`"
      return "`\(q(owner)).\(q(field))` collides with \(other); SQLite column names ignore letter case"
    case .builtInTypeRedefined(let name, let kind):
      return "`\(q(name))` is a built-in \(q(kind, limit: 400)) scalar and cannot be redefined"
    case .reservedName(let name, let kind):
      return "the \(q(kind)) name `\(q(name))` starts with `__`, which GraphQL reserves for introspection"
    case .duplicateArgument(let owner, let argument):
      return "`\(q(owner))` defines the argument `\(q(argument))` more than once"
    case .duplicateDirective(let name):
      return "directive `@\(q(name))` is defined more than once"
    case .invalidDefaultValue(let owner, let field, let argument, let typeName, let reason):
      let place =
        switch (field, argument) {
        case (let field?, let argument?): "argument `\(q(argument))` of `\(q(owner)).\(q(field))`"
        case (nil, let argument?): "argument `\(q(argument))` of `\(q(owner))`"
        case (let field, nil): "`\(q(owner)).\(q(field ?? ""))`"
        }
      return "the default value of \(place) is not a valid `\(q(typeName))`: \(q(reason, limit: 400))"
    case .typeWithoutFields(let name, let kind):
      return "the \(q(kind)) `\(q(name))` has no fields; GraphQL requires at least one"
    case .operationsOnRootFieldAuthRule(let field):
      return "an @auth rule on `\(q(field))` cannot name `operations:`: a root field is one operation already"
    case .emptyAuthRules(let owner):
      return "@auth on `\(q(owner))` has no rules"
    case .refusedReadOperations(let owner, let operations, let besideRead):
      let named = operations.map { "`\(q($0))`" }.joined(separator: ", ")
      return besideRead
        ? "an @auth rule on `\(q(owner))` names \(named) beside `read`, which covers every read operation"
        : "a field-level @auth rule on `\(q(owner))` names \(named); a field-level rule can grant only `read` of the read operations"
    case .emptyAuthRuleList(let owner, let option):
      let grants = option == "operations" ? "no operation" : "no caller (no group is named)"
      return "an @auth rule on `\(q(owner))` has `\(q(option)): []`, so it grants \(grants)"
    case .recordRuleOnRootField(let field, let strategy):
      let rule = strategy == "owner" ? "an owner rule (`allow: owner`)" : "a dynamic group rule (`groupsField:`)"
      return
        "\(rule) on `\(q(field))` has no record to check: the auth transformer drops owner and `groupsField` rules on fields outside a model"
    case .inputTypeCycle(let owner, let field, let cycle):
      return
        "`\(q(owner)).\(q(field))` makes input `\(q(cycle.last ?? owner))` require itself (\(path(cycle))), so no finite value of it exists"
    case .caseCollidingFileNames(let name, let file, let otherName, let otherFile):
      return
        "the file `\(q(file))` of type `\(q(name))` and the file `\(q(otherFile))` of \(otherName == SwiftTypeNaming.registryName ? "the registry" : "type `\(q(otherName))`") differ only in letter case or Unicode normalization; they collide on case-insensitive file systems (macOS)"
    case .fileNameTooLong(let name, let swiftName, let bytes):
      return
        "the Swift name \(swiftName == name ? "" : "`\(q(swiftName))` ")of type `\(q(name))` is \(bytes) bytes long in UTF-8; the longest is \(SwiftNames.maximumTypeNameLength), so that the build's file `<name>+Schema.swiftdeps` (SwiftPM's longest for `<name>+Schema.swift`) fits the 255-byte file name limit (APFS, ext4)"
    case .declaredSyncField(let model, let field, let strategy):
      return
        "`\(q(model)).\(q(field))` is a field the Amplify transformer adds to every model of a versioned data source (conflict resolution `\(q(strategy))`)"
    case .invalidSubscribeMutations(let field, let mutation?, _):
      return
        "`@aws_subscribe` on `Subscription.\(q(field))` names the mutation `\(q(mutation))`, which `Mutation` does not define"
    case .invalidSubscribeMutations(let field, nil, _):
      return "`@aws_subscribe(mutations:)` on `Subscription.\(q(field))` must be a non-empty list of mutation names"
    case .renamedRootType(let operation, let typeName):
      return
        "the schema definition names `\(q(typeName))` as its \(q(operation)) type; modelgen puts the generated \(q(operation)) fields into `\(Naming.uppercasingFirst(operation))` and would drop the fields of `\(q(typeName))`"
    case .subscriptionTypeMismatch(let field, let type, let mutation, let mutationType):
      return
        "`Subscription.\(q(field))` returns `\(q(type))`, but the mutation `\(q(mutation))` it subscribes to returns `\(q(mutationType))`; AppSync requires a subscription to return its mutations' type"
    case .unsupportedDirective(let name, let feature, _):
      return "modelgen does not support `@\(q(name))`: it generates no \(q(feature, limit: 400))"
    case .invalidDirectiveArgument(let directive, let argument, let typeName, let reason):
      return
        "the value of `@\(q(directive))(\(q(argument)):)` is not \(Self.aOrAn(typeName)) `\(q(typeName))`: \(q(reason, limit: 400))"
    case .deprecatedRequiredInput(let owner, let kind):
      return
        "the required \(q(kind)) `\(q(owner))` cannot be deprecated: a client must still send it (GraphQL spec §3.13.3)"
    case .duplicateSchemaDefinition:
      return "the schema is defined more than once; a GraphQL schema has one `schema { … }` definition"
    case .invalidImplementation(let type, let interface, let reason):
      return "`\(q(type))` does not implement `\(q(interface))`: \(q(reason, limit: 400))"
    case .invalidUnionMember(let union, let member, let reason):
      return "the union `\(q(union))` cannot have the member `\(q(member))`: \(q(reason, limit: 400))"
    case .repeatedRootOperation(let operation, let typeName):
      return
        "the schema names a \(q(operation)) type again (`\(q(typeName))`); each operation has one root type"
    case .missingQueryRoot:
      return
        "the API schema would have no `Query` field, and a GraphQL schema needs a `Query` type (the Amplify transformer emits none and AppSync refuses the schema)"
    case .v1Directive(let name, _):
      return
        "`@\(q(name))` is a directive of the Amplify GraphQL Transformer v1, which modelgen (transformer v2) does not read"
    case .renamedSwiftType(let name, let wanted, let swiftName, let source):
      return
        "type `\(q(name))` is generated as `\(q(swiftName))`: `\(q(wanted))` would shadow `\(q(wanted))` of \(q(source, limit: 400)) in the app's module"
    case .renamedSwiftMember(let owner, let member, let wanted, let swiftName, let reason):
      return "`\(q(owner)).\(q(member))` is generated as `\(q(swiftName))`: `\(q(wanted))` \(q(reason, limit: 400))"
    case .renamedIndexKey(let model, let index, let isSortKey, let swiftName, let reason):
      return
        "the \(isSortKey ? "sort key struct" : "typed key") of index `\(q(index))` of `\(q(model))` is generated as `\(q(swiftName))`: \(q(reason, limit: 400))"
    }
  }

  /// What to do about it: every error and warning has a hint (did you mean, the allowed values
  /// or the valid form). `ModelGenTests`' `EveryDiagnosticHasAHintTests` checks the emitted ones.
  public var hint: String {
    switch self {
    case .unknownType(_, let suggestion?), .unknownDirective(_, let suggestion?),
      .invalidSubscribeMutations(_, _?, let suggestion?),
      .unknownArgument(_, _, let suggestion?, _), .missingField(_, _, _, let suggestion?),
      .indexNotFound(_, _, _, _, let suggestion?, _), .invalidArgumentValue(_, _, _, let suggestion?, _):
      return "did you mean `\(q(suggestion))`?"
    case .unknownDirective(let name, nil):
      return "declare it with `directive @\(q(name)) on ...` or remove it"
    case .belongsToWithoutCounterpart(let model, _, let parent):
      return "add a field of type `\(q(model))` or `[\(q(model))]` with @hasOne or @hasMany to `\(q(parent))`"
    case .nullableKeyField:
      return "add `!` to the field's type"
    case .keyCountMismatch(_, _, _, let keyFields):
      return "list one field per key field: \(keyFields.map { "`\(q($0))`" }.joined(separator: ", "))"
    case .keyTypeMismatch(_, _, _, _, let keyType):
      return "declare the field as `\(q(keyType))`"
    case .ambiguousRelation:
      return "name the key with `fields:`/`indexName:` or `references:` on both sides"
    case .repeatedDirective:
      return "remove the repeated directive"
    case .modelFieldWithoutRelation:
      // The Amplify transformer accepts the field and leaves it without a resolver (it is always
      // null over the API); modelgen cannot store or load it, so it asks for the relation.
      return
        "the Amplify transformer accepts this field but gives it no resolver (it is always null); add @hasOne, @belongsTo or (for lists) @hasMany"
    case .duplicateType, .duplicateField, .duplicateArgument, .duplicateDirective:
      return "rename or remove one of them"
    case .invalidDefault(_, _, "AWSDate", _):
      return "write the date as `YYYY-MM-DD` (`2024-02-29`); the default-value transformer refuses other forms"
    case .invalidDefault(_, _, "AWSTime", _):
      return "write the time as `hh:mm:ss` with a zone (`12:00:00Z`, `12:00:00.5+02:00`)"
    case .invalidDefault(_, _, "AWSDateTime", _):
      return "write the date and time as `YYYY-MM-DDThh:mm:ss` with a zone (`2024-02-29T12:00:00Z`)"
    case .invalidDefaultValue(_, _, _, let typeName, _):
      return
        "write a literal of type `\(q(typeName))` (GraphQL spec §3.10 input coercion: a single value stands for a list of one), or remove the default"
    case .typeWithoutFields(_, let kind):
      return kind == "input type"
        ? "add a field (GraphQL spec §3.10), or remove the type and the arguments that use it"
        : "add a field (GraphQL spec §3.6), or remove the type"
    case .operationsOnRootFieldAuthRule:
      return
        "remove `operations:`; the rule applies to the whole field (the auth transformer refuses `operations` on Query, Mutation and Subscription fields)"
    case .refusedReadOperations(_, let operations, let besideRead):
      let named = operations.joined(separator: ", ")
      return besideRead
        ? "keep `read` to grant every read operation, or remove it to grant only \(named) (the auth transformer refuses both together)"
        : "write `read` instead of \(named) (the auth transformer refuses get, list, sync, listen and search in a field's rules: a field is read by every read operation), or move the rule to the model"
    case .emptyAuthRules:
      return
        "write at least one rule (`@auth(rules: [{allow: private}])`), or remove @auth (the auth transformer refuses an empty `rules` list)"
    case .emptyAuthRuleList(_, let option):
      return option == "operations"
        ? "list the operations the rule grants (`operations: [read]`) or remove `operations:` to grant every operation, or remove the rule"
        : "name the groups the rule grants (`groups: [\"Admin\"]`) or use `groupsField:`, or remove the rule"
    case .recordRuleOnRootField:
      return
        "use `allow: private` or `allow: groups` with `groups: [...]` on the field, or check the caller in its resolver (the transformer would leave the field to its other rules, or refuse every caller)"
    case .inputTypeCycle(_, _, let cycle):
      let step = cycle.first ?? ""
      let type = cycle.dropFirst().first?.split(separator: ".").first.map(String.init) ?? ""
      return
        "make one field of the cycle nullable or a list (`\(q(step)): \(q(type))` or `[\(q(type))!]!`), so a value can end (GraphQL spec §3.10)"
    case .duplicatePrimaryKey:
      return "use one @primaryKey(sortKeyFields: [...]) on the partition key field"
    case .relationStyleMismatch:
      return "write `references:` with the same fields on both sides"
    case .recursiveEmbeddedType(_, _, let cycle):
      let type = cycle.last ?? ""
      return
        "the Amplify transformer accepts it (a JSON value nests any depth); make the field a list (`[\(q(type))]`, Swift arrays are indirect) or make `\(q(type))` a @model with a relation"
    case .typeNameCollision(let name, _, nil, let otherClaim) where APINames.isScalarKeyConditionInput(otherClaim):
      return
        "rename `\(q(name))`; the Amplify primary key and index transformers add `\(q(otherClaim))` for a key with one sort key field compared as `\(q(APINames.keyConditionScalarName(otherClaim)))`"
    case .typeNameCollision(let name, _, nil, let otherClaim):
      return
        "rename `\(q(name))`; the Amplify transformer adds `\(q(otherClaim))` to every API schema"
    case .typeNameCollision(let name, let claim, let otherName?, let otherClaim)
    where claim == name && otherClaim != otherName && claim == otherClaim:
      return
        "rename `\(q(name))`; the Amplify transformer generates `\(q(otherClaim))` for `\(q(otherName))` and would replace yours"
    case .rootTypeNameClaimed(let name, _):
      return
        "rename the type; to declare root fields yourself write a plain object type, `type \(q(name)) { … }` (no `@model`)"
    case .typeNameCollision, .fieldNameCollision:
      return "rename one of them"
    case .builtInTypeRedefined(let name, _):
      return "rename the type; `\(q(name))` is always defined"
    case .reservedName:
      return "rename it to start with a letter or a single `_`"
    case .fileNameTooLong(let name, _, _):
      return
        "shorten the type's name, or choose a shorter Swift name in modelgen-config.json: `\"swiftNames\": {\"\(q(name))\": \"…\"}`"
    case .caseCollidingFileNames(let name, _, _, _):
      return
        "rename one of the types, or choose its Swift name in modelgen-config.json: `\"swiftNames\": {\"\(q(name))\": \"…\"}`"
    case .v1Directive(_, let replacement):
      return "use \(q(replacement, limit: 400)) (transformer v2)"
    case .renamedSwiftMember:
      return
        "the GraphQL name stays on the wire (coding key raw value, API documents); rename the field or value to choose the Swift name"
    case .booleanSortKey:
      return
        "use an enum or String field as the sort key, or add a sort key field after it (a composite sort key may hold a Boolean)"
    case .renamedIndexKey:
      return
        "the index keeps its name on the wire (`ModelIndexKey.name`, `ModelSchema.indexes`); rename the index to choose the Swift name"
    case .renamedSwiftType(let name, _, _, _):
      return
        "to choose the Swift name, add `\"swiftNames\": {\"\(q(name))\": \"…\"}` to modelgen-config.json (--config)"
    case .defaultNotAllowed:
      return "remove @default; set the value when you create the model"
    case .defaultOnPrimaryKey:
      return
        "remove @default (the transformer refuses it on primary key fields: every create without the field would write the same key); give the key when you create the model (an `id: ID!` left out of the create input is generated by the service)"
    case .declaredSyncField:
      // Model transformer `addModelSyncFields`: `type X has already a field with name _version`.
      return
        "remove the field: the transformer adds `_version: Int!`, `_deleted: Boolean` and `_lastChangedAt: AWSTimestamp!` itself and fails on a model that declares one (`has already a field with name`)"
    case .invalidSubscribeMutations(_, _?, nil):
      return "name a field of `Mutation` (yours or a generated `create…`/`update…`/`delete…`)"
    case .invalidSubscribeMutations(_, nil, _):
      return "write `@aws_subscribe(mutations: [\"createPost\"])` (AppSync's argument is `[String!]!`)"
    case .subscriptionTypeMismatch(_, _, let mutation, let mutationType):
      return
        "return `\(q(mutationType))` from the subscription, or subscribe to mutations that return its type instead of `\(q(mutation))`"
    case .unsupportedDirective(_, _, let instead):
      return q(instead, limit: 400)
    case .invalidDirectiveArgument(let directive, _, let typeName, _):
      return "give `@\(q(directive))` \(Self.aOrAn(typeName)) `\(q(typeName))` value, as its definition declares"
    case .duplicateSchemaDefinition:
      return "merge the two into one, or write the second as `extend schema { … }`"
    case .unsupportedFieldType(_, _, _, let kind) where kind == "interface" || kind == "union":
      return
        "modelgen generates Swift for models and embedded types but no Swift type for an \(q(kind)); return it from a root field (`type Query { … }`) or an interface field, or hold one of the object types that implement it or are its members"
    case .invalidImplementation(_, let interface, _):
      return
        "give the type every field of `\(q(interface))` with the same arguments and the same type or a subtype (a non-null or an implementing type), or drop `\(q(interface))` from `implements` (GraphQL spec §3.6 IsValidImplementation)"
    case .invalidUnionMember:
      return "list each object type once; for an interface, list the object types that implement it (GraphQL spec §3.8)"
    case .repeatedRootOperation(let operation, _):
      return "name the \(q(operation)) root type once, in `schema { … }` or in one `extend schema { … }`"
    case .deprecatedRequiredInput:
      return "make it optional (drop `!`, or give it a default value) before deprecating it, or remove `@deprecated`"
    case .missingQueryRoot(let owner, true):
      return
        "keep the queries of one model (drop `queries: null` from `\(q(owner))`), give an `@index` a `queryField:`, or declare `type Query { … }` with a field of your own"
    case .missingQueryRoot(_, false):
      return "declare `type Query { … }` with a field of your own, or a `@model` type (its `get`/`list` queries)"
    case .renamedRootType(let operation, _):
      let name = Naming.uppercasingFirst(operation)
      return
        "name the type `\(q(name))` and drop `\(q(operation)):` from the schema definition (the transformer adds its fields to a renamed root type, but modelgen's client documents and the local server read `\(q(name))`)"
    case .implicitFieldConflict(_, _, let reason) where reason.contains("timestamp field"):
      // Model transformer `addAutoGeneratableFields`: another type only warns and is not auto-filled.
      return
        "the Amplify transformer accepts another type but does not fill the field; declare it `AWSDateTime`, or keep your type and turn the timestamp off with `timestamps: {createdAt: null}` / `{updatedAt: null}`"
    case .fieldsNotPrimaryKey(_, _, let keyFields):
      return "use `fields: [\(keyFields.map { "\"\(q($0))\"" }.joined(separator: ", "))]`"
    case .customRootFieldClash(_, _, _, _, let disable):
      return "rename your field, or \(q(disable, limit: 400))"
    case .invalidCustomFieldType(_, _, _, _, _, let expectsInput):
      return expectsInput
        ? "declare an `input` type with the fields to pass (GraphQL spec §3.10)"
        : "return an object type, a @model, an interface or a union (GraphQL spec §3.6)"
    case .unknownType(let name, nil):
      return
        "define `\(q(name))` in the schema (`type \(q(name)) @model { … }`, an `enum`, a `type` without @model, …), or name a type it defines (names are case-sensitive)"
    case .unknownArgument(let directive, _, nil, let arguments):
      return arguments.isEmpty
        ? "remove it; `@\(q(directive))` takes no arguments"
        : "remove it, or use an argument of `@\(q(directive))`: \(names(arguments))"
    case .missingField(let model, _, let argument, nil):
      return "name a field `\(q(model))` declares in `\(q(argument))`, or add the field to `\(q(model))`"
    case .indexNotFound(_, _, let indexName, let relatedModel, nil, let indexes):
      let add =
        "add `@index(name: \"\(q(indexName))\")` to the field of `\(q(relatedModel))` that holds the parent's key"
      return indexes.isEmpty
        ? "\(add) (`\(q(relatedModel))` has no index), or leave out `indexName:`"
        : "\(add), or name one of its indexes: \(names(indexes))"
    case .invalidArgumentValue(_, _, _, nil, let fix):
      return q(fix, limit: 400)
    case .invalidKeyFieldType:
      return
        "key on a scalar or enum field (`ID`, `String`, `Int`, `Float`, an AWS scalar or an enum); for a relation, key on the field that holds the related model's identifier (`postID: ID!`)"
    case .missingArgument(let directive, let argument):
      return argument == "rules.allow"
        ? "start the rule with `allow:` (`{allow: owner}`, `{allow: public}`, `{allow: private}`, `{allow: groups, groups: [\"Admin\"]}`, `{allow: custom}`)"
        : "add `\(q(argument)): …` to `@\(q(directive))`"
    case .misplacedDirective(let directive, _):
      return "move `@\(q(directive))` to where the message says it belongs, or remove it"
    case .relationFieldType(let directive, _, let expected):
      return
        "declare the field as \(q(expected, limit: 400)), or use the directive of the field's shape (@hasMany or @manyToMany for a list, @hasOne or @belongsTo for one model) instead of `@\(q(directive))`"
    case .nestedList:
      return
        "store one level of list (`[T]`), or put the inner list in an embedded type (`type Row { cells: [T] }`) and store `[Row]`"
    case .unsupportedFieldType(_, _, _, let kind) where kind.contains("input"):
      return
        "an `input` type is for arguments only; declare the field's type as a `type` without @model (an embedded value) or a @model with a relation"
    case .unsupportedFieldType:
      return
        "declare the field with a scalar, an enum, a `type` without @model (an embedded value) or a @model with a relation; `AWSJSON` holds any JSON value"
    case .invalidDefault(_, _, let typeName, _):
      return
        "write the default as a string holding \(Self.aOrAn(typeName)) `\(q(typeName))` value, as the default-value transformer reads it: \(Self.defaultExample(typeName))"
    case .duplicateIndexName(_, let indexName):
      return "give each @index of the model its own `name:` (the note shows the first `\(q(indexName))`), or remove one"
    case .invalidAuthRule(_, let reason) where reason.contains("is not readable by"):
      return "give the field `@auth` rules that let those callers read it, or make the field nullable (drop `!`)"
    case .invalidAuthRule:
      return
        "write the rule in one of the auth transformer's forms: `{allow: owner, ownerField: \"owner\"}`, `{allow: groups, groups: [\"Admin\"]}` or `{allow: groups, groupsField: \"groups\"}`, `{allow: private, provider: iam}`, `{allow: public, provider: apiKey}`, `{allow: custom}`"
    case .timestampNameConflict(_, let timestamp, let name, _, let kind):
      let example = timestamp == "createdAt" ? "createdOn" : "updatedOn"
      let rename =
        "give the `\(q(timestamp))` timestamp another name (`timestamps: {\(q(timestamp)): \"\(example)\"}`) or leave it out (`\(q(timestamp)): null`)"
      switch kind {
      case .otherTimestamp: return "\(rename); the two timestamps need two fields"
      case .primaryKey: return "\(rename); `\(q(name))` holds the model's identifier"
      case .foreignKey: return "\(rename), or name the relation's key yourself (`fields:` / `references:`)"
      case .ownerField:
        return
          "\(rename), or give the rule another owner field (`{allow: owner, ownerField: \"…\"}`); an owner field holds a `String`"
      }
    case .implicitFieldConflict:
      return "rename the field, or turn the implicit field off (`@model(timestamps: {createdAt: null})`)"
    case .invalidManyToMany(let relationName, let reason) where reason.contains("join model"):
      return
        "choose another `relationName:` than `\(q(relationName))` on both sides (the join model is named after it), or rename the type"
    case .invalidManyToMany(let relationName, _):
      return
        "put `@manyToMany(relationName: \"\(q(relationName))\")` on exactly one list field of each of two different models, each of the other's type (`posts: [Post]` and `tags: [Tag]`)"
    case .duplicateQueryField(let name):
      return "give each `queryField:` its own name (`\(q(name))` is taken), or remove one"
    }
  }

  /// A `@default(value:)` of `typeName` as the default-value transformer reads it (always a string).
  private static func defaultExample(_ typeName: String) -> String {
    switch typeName {
    case "Int": return "`@default(value: \"42\")`"
    case "Float": return "`@default(value: \"1.5\")`"
    case "Boolean": return "`@default(value: \"true\")`"
    case "AWSEmail": return "`@default(value: \"someone@example.com\")`"
    case "AWSURL": return "`@default(value: \"https://example.com\")`"
    case "AWSJSON": return "`@default(value: \"{\\\"key\\\": 1}\")`"
    case "AWSPhone": return "`@default(value: \"+1 206 555 0100\")`"
    case "AWSIPAddress": return "`@default(value: \"192.0.2.1\")`"
    case "AWSTimestamp": return "`@default(value: \"1700000000\")` (seconds since 1970)"
    case "String", "ID": return "`@default(value: \"text\")`"
    default: return "`@default(value: \"…\")` (for an enum, one of its values)"
    }
  }

  /// The indefinite article before a type name read aloud: "an" before a vowel (`Int`, `ID`,
  /// `AWSDateTime`, `Enum`), "a" otherwise and before a "U" said "you" (`User`, `Unit`, `URL`).
  static func aOrAn(_ typeName: String) -> String {
    let scalars = Array(typeName.unicodeScalars.prefix(3))
    guard let first = scalars.first.map({ Character($0).lowercased() }), "aeiou".contains(first) else { return "a" }
    if first == "u" {
      // `URL`, `UUID`: letters spelled out ("you"); `Use…`, `Uni…`, `Usu…`, `Uti…`: "you" too.
      let rest = String(String.UnicodeScalarView(scalars.dropFirst())).lowercased()
      if scalars.count > 1, Character(scalars[1]).isUppercase { return "a" }
      if ["se", "si", "su", "ni", "ti", "ri", "ra", "re", "sa"].contains(where: rest.hasPrefix) { return "a" }
    }
    return "an"
  }

  /// `` `a`, `b`, `c` `` (at most 12, then how many more), for hints that list what is allowed.
  private func names(_ list: [String]) -> String {
    let shown = list.prefix(12).map { "`\(q($0))`" }.joined(separator: ", ")
    return list.count > 12 ? "\(shown) and \(list.count - 12) more" : shown
  }
}

/// What a `timestamps:` name collides with (``SemanticError/timestampNameConflict(model:timestamp:name:other:kind:)``).
public enum TimestampConflict: Sendable, Hashable {
  /// The other timestamp has the same name.
  case otherTimestamp
  /// The implicit `id: ID!`.
  case primaryKey
  /// An implicit foreign key of a relation.
  case foreignKey
  /// The owner field of an `{allow: owner}` rule.
  case ownerField
}
