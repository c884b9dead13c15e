import ModelGenIR
import ModelGenTemplating
import ModelVocabulary

/// The view models the default templates render. Every decision about the Swift that is written
/// (names, modifiers, types, default values, which statements exist) is made while building these
/// values (see ``ViewModelBuilder``); templates only place them. Multi-line code is held as
/// ``SwiftCode`` (callee, arguments, elements), never as laid-out lines: the renderer breaks it for
/// the line the template puts it on, so a template may indent it as it likes.
///
/// Each view model lists its template keys explicitly in `templateValue`; those keys are the
/// documented interface for user templates passed with `--templates`.

/// The access level of generated declarations (`--access public|package|internal`).
public enum AccessLevel: String, Sendable, CaseIterable {
  /// `public` declarations: the generated module is used from other modules.
  case `public`
  /// `internal` declarations: the generated files live in the module that uses them.
  case `internal`
  /// `package` declarations (SE-0386): visible to the other modules of the same Swift package only.
  case `package`

  /// The modifier of a read-only stored property: settable inside the module only.
  package var readOnlyModifier: String {
    switch self {
    case .public: return "public internal(set)"
    case .package: return "package internal(set)"
    case .internal: return "internal"
    }
  }
}

/// One line of a declaration list: a stored property.
public struct PropertyViewModel: Sendable, Equatable, TemplateRepresentable {
  /// The modifiers and introducer (`public var`, `public let`, `internal var`).
  public var modifiers: String
  /// The property name (escaped).
  public var name: String
  /// The Swift type (`String?`, `LazyReference<Post4V2>`).
  public var type: String
  /// The whole declaration (`public var content: String`).
  public var declaration: String { "\(modifiers) \(name): \(type)" }
  /// The field's GraphQL description as `///` lines (`SwiftNames.docCommentLines`), or empty.
  public var docLines: [String] = []
  /// The template keys, in the order of `templateValue`'s values.
  static let templateKeys = TemplateKeys(["declaration", "modifiers", "name", "type", "docLines"])
  /// Template keys: `declaration`, `modifiers`, `name`, `type`, `docLines`.
  public var templateValue: TemplateValue {
    .record(
      TemplateRecord(
        keys: Self.templateKeys,
        values: [
          .string(declaration),
          .string(modifiers),
          .string(name),
          .string(type),
          docLines.templateValue,
        ]))
  }
}

/// One parameter of a generated initializer.
public struct ParameterViewModel: Sendable, Equatable, TemplateRepresentable {
  /// `name: Type = default`.
  public var declaration: String
  /// `,` for every parameter but the last, else empty.
  public var separator: String
  /// The template keys, in the order of `templateValue`'s values.
  static let templateKeys = TemplateKeys(["declaration", "separator"])
  /// Template keys: `declaration`, `separator`.
  public var templateValue: TemplateValue {
    .record(
      TemplateRecord(
        keys: Self.templateKeys,
        values: [
          .string(declaration),
          .string(separator),
        ]))
  }
}

/// The public async accessor of a `@belongsTo`/`@hasOne` field, backed by a `LazyReference`.
public struct LazyAccessorViewModel: Sendable, Equatable, TemplateRepresentable {
  /// The property name (escaped).
  public var name: String
  /// `Post4V2?`, or `Post4V2` for a required reference.
  public var type: String
  /// The stored reference (`_post`).
  public var storageName: String
  /// `get`, or `require` for a required reference.
  public var loadMethod: String
  /// The public read-only accessor of the stored reference (`postReference`), so users can read its
  /// state and identifiers without loading and batch-load many with `LazyReference.loadAll`.
  public var referenceName: String
  /// The referenced model type (`Post4V2`).
  public var relatedType: String
  /// The field's GraphQL description as `///` lines (`SwiftNames.docCommentLines`), or empty.
  public var docLines: [String] = []
  /// The template keys, in the order of `templateValue`'s values.
  static let templateKeys = TemplateKeys([
    "name",
    "type",
    "storageName",
    "loadMethod",
    "referenceName",
    "relatedType",
    "docLines",
  ])
  /// Template keys: `name`, `type`, `storageName`, `loadMethod`, `referenceName`, `relatedType`,
  /// `docLines`.
  public var templateValue: TemplateValue {
    .record(
      TemplateRecord(
        keys: Self.templateKeys,
        values: [
          .string(name),
          .string(type),
          .string(storageName),
          .string(loadMethod),
          .string(referenceName),
          .string(relatedType),
          docLines.templateValue,
        ]))
  }
}

/// The `mutating func setPost(_ post: Post4V2?)` of a reference.
public struct SetterViewModel: Sendable, Equatable, TemplateRepresentable {
  /// The function name (`setPost`).
  public var name: String
  /// The parameter name (escaped).
  public var parameter: String
  /// The parameter type.
  public var type: String
  /// The stored reference (`_post`).
  public var storageName: String
  /// The parameter type of the set-by-identifier form (`Post4V2.Identifier?`); empty when the
  /// model holds no foreign key for the reference (a `@hasOne` found through the child's
  /// `references:`), which then has no set-by-identifier form.
  public var identifierType: String = ""
  /// The template keys, in the order of `templateValue`'s values.
  static let templateKeys = TemplateKeys([
    "name", "parameter", "type", "storageName", "identifierType", "hasIdentifierForm",
  ])
  /// Template keys: `name`, `parameter`, `type`, `storageName`, `identifierType`,
  /// `hasIdentifierForm` (`identifierType` is not empty).
  public var templateValue: TemplateValue {
    .record(
      TemplateRecord(
        keys: Self.templateKeys,
        values: [
          .string(name),
          .string(parameter),
          .string(type),
          .string(storageName),
          .string(identifierType),
          .bool(!identifierType.isEmpty),
        ]))
  }
}

/// The typed identifier of a model.
public struct IdentifierViewModel: Sendable, Equatable, TemplateRepresentable {
  /// One key property.
  public struct Property: Sendable, Equatable, TemplateRepresentable {
    /// The property name (escaped).
    public var name: String
    /// The Swift type.
    public var type: String
    /// Template keys: `name`, `type`.
    public var templateValue: TemplateValue { ["name": .string(name), "type": .string(type)] }
  }
  /// The key properties in key order.
  public var properties: [Property]
  /// The initializer's parameter list (`id: String, title: String`).
  public var parameters: SwiftCode
  /// The `components` body: an array literal of `IdentifierComponent`s.
  public var components: SwiftCode
  /// The expression that builds a model's identifier (`Identifier(id: id)`).
  public var expression: SwiftCode
  /// The body of `init?(components:)`: `try self.init(id: components.required(String.self, named: "id"))`.
  public var fromComponents: SwiftCode = .text("")
  /// The template keys, in the order of `templateValue`'s values.
  static let templateKeys = TemplateKeys([
    "properties", "parameters", "components", "expression", "fromComponents",
  ])
  /// Template keys: `properties`, `parameters`, `components`, `expression`, `fromComponents`.
  public var templateValue: TemplateValue {
    .record(
      TemplateRecord(
        keys: Self.templateKeys,
        values: [
          properties.templateValue,
          parameters.templateValue,
          components.templateValue,
          expression.templateValue,
          fromComponents.templateValue,
        ]))
  }
}

/// Everything `model.mustache` and `schema.mustache` place for one model.
public struct ModelViewModel: Sendable, Equatable, TemplateRepresentable {
  /// The schema file name for the header, escaped for a comment (`SwiftNames.commentText`).
  public var sourceFileName: String
  /// `public` or `internal`.
  public var access: String
  /// The Swift type name (escaped).
  public var typeName: String
  /// The output file stem (`Comment4V2`).
  public var fileStem: String
  /// Stored properties in field order.
  public var storedProperties: [PropertyViewModel]
  /// Async accessors of references.
  public var lazyAccessors: [LazyAccessorViewModel]
  /// The memberwise initializer's parameters.
  public var initParameters: [ParameterViewModel]
  /// The memberwise initializer's statements.
  public var initAssignments: [SwiftCode]
  /// Reference setters.
  public var setters: [SetterViewModel]
  /// `init(from:)` statements.
  public var decodeStatements: [SwiftCode]
  /// `encode(to:)` statements.
  public var encodeStatements: [SwiftCode]
  /// `CodingKeys` case declarations.
  public var codingKeys: [String]
  /// The typed identifier.
  public var identifier: IdentifierViewModel
  /// The GraphQL type name as a string literal.
  public var nameLiteral: String
  /// The plural name as a string literal.
  public var pluralNameLiteral: String
  /// `[keys.id]`.
  public var primaryKey: SwiftCode
  /// `ModelSchema.fields` entries, each ending with `,` when there are several (swift-format's
  /// trailing-comma rule for multi-line collections).
  public var schemaFields: [SwiftCode]
  /// `ModelSchema.indexes` entries, each ending with `,` when there are several.
  public var indexes: [SwiftCode]
  /// `ModelSchema.authRules` entries, each ending with `,` when there are several.
  public var authRules: [SwiftCode]
  /// The `operations: ModelOperationNames(…),` argument: the resolved root field names.
  public var operations: SwiftCode
  /// The `timestamps: ModelTimestampFields(…)` argument: the resolved timestamp field names
  /// (followed by `,` when ``syncPluralName`` follows).
  public var timestamps: SwiftCode
  /// `true` when no `@primaryKey` is written and `id` is not `ID` (`implicitKeyTypedAsID: true`:
  /// the API types the key arguments `ID!`).
  public var implicitKeyTypedAsID: Bool = false
  /// The `syncPluralName: "Posts"` argument with a conflict-resolution strategy, else `nil`
  /// (template key `hasSync` tells which).
  public var syncPluralName: String? = nil
  /// The `ModelSchema` arguments after `timestamps:` (`syncPluralName:`, `subscriptionLevel:`,
  /// `protectedFields:`), each but the last followed by `,`.
  public var tailArguments: [String] = []
  /// The type's GraphQL description as `///` lines (`SwiftNames.docCommentLines`), or empty.
  public var docLines: [String] = []
  /// The typed key declarations of the `Keys` enum, one per coding key
  /// (`public static let title = ModelFieldKey<Post, String>("title")`).
  public var typedKeys: [SwiftCode] = []
  /// `true` when the primary key is the single field `id`: `extension Post: Identifiable {}`
  /// (`id` is the property).
  public var identifiableByID = false
  /// `true` when no property is named `id`: `Identifiable.id` is the typed `Identifier`. Both are
  /// `false` when a property `id` is only part of the key (it would not identify the model).
  public var identifiableByIdentifier = false

  /// One typed include path member per association (`ModelPath where Target == <Model>`).
  public var pathMembers: [PathMemberViewModel] = []
  /// The typed index keys of the `Indexes` enum, one per `@index` with a query field whose name is
  /// a Swift identifier (template key `hasTypedIndexes` tells whether there are any).
  public var typedIndexes: [IndexKeyViewModel] = []
  /// The by-identifier initializer's parameters: ``initParameters`` with each settable
  /// `@belongsTo`/`@hasOne` given by its parent's identifier (`postIdentifier: Post.Identifier?`,
  /// no default value); empty when the model has no such reference (template key
  /// `hasIdentifierInit` tells which).
  public var identifierInitParameters: [ParameterViewModel] = []
  /// The by-identifier initializer's statements (`LazyReference(identifier:)` for each reference).
  public var identifierInitAssignments: [SwiftCode] = []

  /// The template keys, in the order of `templateValue`'s values.
  static let templateKeys = TemplateKeys([
    "sourceFileName",
    "access",
    "typeName",
    "storedProperties",
    "lazyAccessors",
    "initParameters",
    "initAssignments",
    "setters",
    "decodeStatements",
    "encodeStatements",
    "codingKeys",
    "identifier",
    "nameLiteral",
    "pluralNameLiteral",
    "primaryKey",
    "schemaFields",
    "indexes",
    "authRules",
    "hasIndexes",
    "hasAuthRules",
    "operations",
    "timestamps",
    "implicitKeyTypedAsID",
    "hasSync",
    "syncPluralName",
    "tailArguments",
    "docLines",
    "typedKeys",
    "identifiableByID",
    "identifiableByIdentifier",
    "pathMembers",
    "hasPathMembers",
    "identifierInitParameters",
    "identifierInitAssignments",
    "hasIdentifierInit",
    "typedIndexes",
    "hasTypedIndexes",
  ])
  /// Template keys: every property by its name, plus `hasIndexes`, `hasAuthRules`, `hasSync`,
  /// `hasPathMembers`, `hasIdentifierInit` and `hasTypedIndexes`.
  public var templateValue: TemplateValue {
    .record(
      TemplateRecord(
        keys: Self.templateKeys,
        values: [
          .string(sourceFileName),
          .string(access),
          .string(typeName),
          storedProperties.templateValue,
          lazyAccessors.templateValue,
          initParameters.templateValue,
          initAssignments.templateValue,
          setters.templateValue,
          decodeStatements.templateValue,
          encodeStatements.templateValue,
          codingKeys.templateValue,
          identifier.templateValue,
          .string(nameLiteral),
          .string(pluralNameLiteral),
          primaryKey.templateValue,
          schemaFields.templateValue,
          indexes.templateValue,
          authRules.templateValue,
          .bool(!indexes.isEmpty),
          .bool(!authRules.isEmpty),
          operations.templateValue,
          timestamps.templateValue,
          .bool(implicitKeyTypedAsID),
          .bool(syncPluralName != nil),
          .string(syncPluralName ?? ""),
          tailArguments.templateValue,
          docLines.templateValue,
          typedKeys.templateValue,
          .bool(identifiableByID),
          .bool(identifiableByIdentifier),
          pathMembers.templateValue,
          .bool(!pathMembers.isEmpty),
          identifierInitParameters.templateValue,
          identifierInitAssignments.templateValue,
          .bool(!identifierInitParameters.isEmpty),
          typedIndexes.templateValue,
          .bool(!typedIndexes.isEmpty),
        ]))
  }
}

/// One member of a model's `Indexes` enum: the typed key of an `@index`
/// (`public static let byIsbn = ModelIndexKey<Book, String, ModelNoSortKey>("byIsbn", fields: ["isbn"])`),
/// after the composite sort key value it names when the index has several sort key fields.
public struct IndexKeyViewModel: Sendable, Equatable, TemplateRepresentable {
  /// The `static let` declaration.
  public var declaration: SwiftCode
  /// The index's composite sort key value, or `nil` for none or one sort key field.
  public var compositeSortKey: CompositeSortKeyViewModel?
  /// Template keys: `declaration`, `compositeSortKey`.
  public var templateValue: TemplateValue {
    ["declaration": declaration.templateValue, "compositeSortKey": compositeSortKey.templateValue]
  }
}

/// The `ModelCompositeSortKey` struct of an index with several sort key fields: one property per
/// sort key field in index order, the first required, the rest optional (a leading run).
public struct CompositeSortKeyViewModel: Sendable, Equatable, TemplateRepresentable {
  /// The index name, escaped for a comment.
  public var indexName: String
  /// The struct name (`BooksByAuthorAndYearAndTitleSortKey`).
  public var name: String
  /// The properties (`var year: Int`, `var title: String?`).
  public var properties: [PropertyViewModel]
  /// The initializer's parameters (`year: Int, title: String? = nil`).
  public var parameters: SwiftCode
  /// The `sortKeyValues` array (`[year.keyValue, title?.keyValue]`).
  public var values: SwiftCode
  /// Template keys: `indexName`, `name`, `properties`, `parameters`, `values`.
  public var templateValue: TemplateValue {
    [
      "indexName": .string(indexName), "name": .string(name),
      "properties": properties.templateValue, "parameters": parameters.templateValue,
      "values": values.templateValue,
    ]
  }
}

/// A member of a model's typed include paths: `var post: ModelPath<Root, Post4V2>`.
public struct PathMemberViewModel: Sendable, Equatable, TemplateRepresentable {
  /// The member name (the association's property name, escaped).
  public var name: String
  /// The related model's Swift type.
  public var relatedType: String
  /// The GraphQL field name as a string literal.
  public var fieldLiteral: String
  /// Template keys: `name`, `relatedType`, `fieldLiteral`.
  public var templateValue: TemplateValue {
    [
      "name": .string(name), "relatedType": .string(relatedType),
      "fieldLiteral": .string(fieldLiteral),
    ]
  }
}

/// Everything `enum.mustache` places for one enum.
public struct EnumViewModel: Sendable, Equatable, TemplateRepresentable {
  /// One case.
  public struct Case: Sendable, Equatable, TemplateRepresentable {
    /// The case name (escaped).
    public var name: String
    /// The raw GraphQL value as a string literal.
    public var rawValue: String
    /// The value's GraphQL description as `///` lines (`SwiftNames.docCommentLines`), or empty.
    public var docLines: [String] = []
    /// The template keys, in the order of `templateValue`'s values.
    static let templateKeys = TemplateKeys(["name", "rawValue", "docLines"])
    /// Template keys: `name`, `rawValue`, `docLines`.
    public var templateValue: TemplateValue {
      .record(
        TemplateRecord(
          keys: Self.templateKeys, values: [.string(name), .string(rawValue), docLines.templateValue]))
    }
  }
  /// The schema file name for the header, escaped for a comment (`SwiftNames.commentText`).
  public var sourceFileName: String
  /// `public` or `internal`.
  public var access: String
  /// The Swift type name (escaped).
  public var typeName: String
  /// The output file stem.
  public var fileStem: String
  /// The cases in declaration order.
  public var cases: [Case]
  /// The type's GraphQL description as `///` lines (`SwiftNames.docCommentLines`), or empty.
  public var docLines: [String] = []
  /// The template keys, in the order of `templateValue`'s values.
  static let templateKeys = TemplateKeys(["sourceFileName", "access", "typeName", "cases", "docLines"])
  /// Template keys: `sourceFileName`, `access`, `typeName`, `cases`, `docLines`.
  public var templateValue: TemplateValue {
    .record(
      TemplateRecord(
        keys: Self.templateKeys,
        values: [
          .string(sourceFileName),
          .string(access),
          .string(typeName),
          cases.templateValue,
          docLines.templateValue,
        ]))
  }
}

/// Everything `embedded.mustache` places for one non-model type.
public struct EmbeddedViewModel: Sendable, Equatable, TemplateRepresentable {
  /// The schema file name for the header, escaped for a comment (`SwiftNames.commentText`).
  public var sourceFileName: String
  /// `public` or `internal`.
  public var access: String
  /// The Swift type name (escaped).
  public var typeName: String
  /// The output file stem.
  public var fileStem: String
  /// Stored properties.
  public var storedProperties: [PropertyViewModel]
  /// The memberwise initializer's parameters.
  public var initParameters: [ParameterViewModel]
  /// The memberwise initializer's statements.
  public var initAssignments: [String]
  /// `CodingKeys` case declarations.
  public var codingKeys: [String]
  /// The GraphQL type name as a string literal.
  public var nameLiteral: String
  /// `EmbeddedSchema.fields` entries, each ending with `,` when there are several.
  public var schemaFields: [SwiftCode]
  /// The type's GraphQL description as `///` lines (`SwiftNames.docCommentLines`), or empty.
  public var docLines: [String] = []
  /// The template keys, in the order of `templateValue`'s values.
  static let templateKeys = TemplateKeys([
    "sourceFileName",
    "access",
    "typeName",
    "storedProperties",
    "initParameters",
    "initAssignments",
    "codingKeys",
    "nameLiteral",
    "schemaFields",
    "docLines",
  ])
  /// Template keys: every property by its name.
  public var templateValue: TemplateValue {
    .record(
      TemplateRecord(
        keys: Self.templateKeys,
        values: [
          .string(sourceFileName),
          .string(access),
          .string(typeName),
          storedProperties.templateValue,
          initParameters.templateValue,
          initAssignments.templateValue,
          codingKeys.templateValue,
          .string(nameLiteral),
          schemaFields.templateValue,
          docLines.templateValue,
        ]))
  }
}

/// Everything `registry.mustache` places.
public struct RegistryViewModel: Sendable, Equatable, TemplateRepresentable {
  /// The schema file name for the header, escaped for a comment (`SwiftNames.commentText`).
  public var sourceFileName: String
  /// `public` or `internal`.
  public var access: String
  /// The registry enum's name (`Models`).
  public var typeName: String
  /// The registry's array elements (`Post.self,`), sorted by GraphQL name; `,` only when there
  /// are several.
  public var models: [String]
  /// The runtime version the code is generated for, a `LazyModelRuntimeVersion` case name
  /// (`v2`, from `ModelGenRelease.runtimeVersion`).
  public var runtimeVersion: String = ModelGenRelease.runtimeVersion
  /// The template keys, in the order of `templateValue`'s values.
  static let templateKeys = TemplateKeys([
    "sourceFileName", "access", "typeName", "models", "runtimeVersion", "hasModels",
  ])
  /// Template keys: `sourceFileName`, `access`, `typeName`, `models`, `runtimeVersion`,
  /// `hasModels` (an empty registry is written `models: []`, as swift-format lays it out).
  public var templateValue: TemplateValue {
    .record(
      TemplateRecord(
        keys: Self.templateKeys,
        values: [
          .string(sourceFileName),
          .string(access),
          .string(typeName),
          models.templateValue,
          .string(runtimeVersion),
          .bool(!models.isEmpty),
        ]))
  }
}

/// The view models of one schema file.
public struct SchemaViewModel: Sendable, Equatable {
  /// One per model, in schema order.
  public var models: [ModelViewModel]
  /// One per enum.
  public var enums: [EnumViewModel]
  /// One per non-model type.
  public var embedded: [EmbeddedViewModel]
  /// The registry, or `nil` when the schema has no models.
  public var registry: RegistryViewModel?
}
