/// A stable diagnostic code of the semantic analyzer (`MG001` ...). Codes never change meaning;
/// retired codes are not reused.
public struct DiagnosticCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// `MG0xx`.
  public let rawValue: String

  /// Wraps a code.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The code.
  public var description: String { rawValue }

  /// A field or argument names a type that is not defined.
  public static let unknownType = DiagnosticCode(rawValue: "MG001")
  /// A directive that is neither an Amplify directive nor declared in the document.
  public static let unknownDirective = DiagnosticCode(rawValue: "MG002")
  /// An argument the directive does not take.
  public static let unknownArgument = DiagnosticCode(rawValue: "MG003")
  /// Two type definitions with the same name.
  public static let duplicateType = DiagnosticCode(rawValue: "MG004")
  /// Two fields (or enum values) with the same name in one type.
  public static let duplicateField = DiagnosticCode(rawValue: "MG005")
  /// `@belongsTo` whose parent has no `@hasMany`/`@hasOne` pointing back.
  public static let belongsToWithoutCounterpart = DiagnosticCode(rawValue: "MG006")
  /// A primary-key or index key field that is nullable.
  public static let nullableKeyField = DiagnosticCode(rawValue: "MG007")
  /// A key field that is not a scalar or enum (list, object, model).
  public static let invalidKeyFieldType = DiagnosticCode(rawValue: "MG008")
  /// `sortKeyFields:`, `fields:`, `references:`, `ownerField:` ... naming a field the model does not have.
  public static let missingField = DiagnosticCode(rawValue: "MG009")
  /// `fields:`/`references:` with a different number of fields than the related key.
  public static let keyCountMismatch = DiagnosticCode(rawValue: "MG010")
  /// `fields:`/`references:` whose types differ from the related key's.
  public static let keyTypeMismatch = DiagnosticCode(rawValue: "MG011")
  /// Relations between two models that cannot be paired unambiguously.
  public static let ambiguousRelation = DiagnosticCode(rawValue: "MG012")
  /// `@default(value:)` that does not parse as the field's type, or on a field that cannot have one.
  public static let invalidDefault = DiagnosticCode(rawValue: "MG013")
  /// An argument value of the wrong shape (`sortKeyFields: "a"`), or an unknown enum value in it.
  public static let invalidArgumentValue = DiagnosticCode(rawValue: "MG014")
  /// A required argument is missing.
  public static let missingArgument = DiagnosticCode(rawValue: "MG015")
  /// A directive where it has no meaning (`@primaryKey` on a non-model type, `@model` on a field).
  public static let misplacedDirective = DiagnosticCode(rawValue: "MG016")
  /// A non-repeatable directive used twice on one element.
  public static let repeatedDirective = DiagnosticCode(rawValue: "MG017")
  /// A relational directive on a field of the wrong shape (`@hasMany` on a non-list, on a scalar).
  public static let relationFieldType = DiagnosticCode(rawValue: "MG018")
  /// A model-typed field without `@hasMany`/`@hasOne`/`@belongsTo`/`@manyToMany`.
  public static let modelFieldWithoutRelation = DiagnosticCode(rawValue: "MG019")
  /// A list of lists.
  public static let nestedList = DiagnosticCode(rawValue: "MG020")
  /// A field whose type is an interface, union, input or custom scalar.
  public static let unsupportedFieldType = DiagnosticCode(rawValue: "MG021")
  /// `@hasMany(indexName:)` naming an index the child does not have.
  public static let indexNotFound = DiagnosticCode(rawValue: "MG022")
  /// Two indexes with the same name on one model.
  public static let duplicateIndexName = DiagnosticCode(rawValue: "MG023")
  /// An `@auth` rule that is incomplete or contradictory.
  public static let invalidAuthRule = DiagnosticCode(rawValue: "MG024")
  /// A declared timestamp field whose type is not `AWSDateTime`, or a field colliding with an implicit one.
  public static let implicitFieldConflict = DiagnosticCode(rawValue: "MG025")
  /// `@manyToMany` sides that do not match (one side missing, more than two, a join model name taken).
  public static let invalidManyToMany = DiagnosticCode(rawValue: "MG026")
  /// A second `@primaryKey` in one model.
  public static let duplicatePrimaryKey = DiagnosticCode(rawValue: "MG027")
}

/// The catalog of semantic diagnostics: every message and hint is defined here once.
public enum SemanticError: Sendable, Hashable {
  /// MG001: a field or argument names a type that is not defined.
  case unknownType(name: String, suggestion: String?)
  /// MG002: a directive that is neither an Amplify directive nor declared in the document.
  case unknownDirective(name: String, suggestion: String?)
  /// MG003: an argument the directive does not take.
  case unknownArgument(directive: String, argument: String, suggestion: String?)
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
  /// MG014: an argument value of the wrong shape (`sortKeyFields: "a"`), or an unknown enum value in it.
  case invalidArgumentValue(directive: String, argument: String, expected: String)
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
  case indexNotFound(model: String, field: String, indexName: String, relatedModel: String, suggestion: String?)
  /// MG023: two indexes with the same name on one model.
  case duplicateIndexName(model: String, indexName: String)
  /// MG024: an `@auth` rule that is incomplete or contradictory.
  case invalidAuthRule(model: String, reason: String)
  /// MG025: a declared timestamp field whose type is not `AWSDateTime`, or a field colliding with an implicit one.
  case implicitFieldConflict(model: String, field: String, reason: String)
  /// MG026: `@manyToMany` sides that do not match (one side missing, more than two, a join model name taken).
  case invalidManyToMany(relationName: String, reason: String)
  /// MG027: a second `@primaryKey` in one model.
  case duplicatePrimaryKey(model: String)

  /// The stable code.
  public var code: DiagnosticCode {
    switch self {
    case .unknownType: return .unknownType
    case .unknownDirective: return .unknownDirective
    case .unknownArgument: return .unknownArgument
    case .duplicateType: return .duplicateType
    case .duplicateField: return .duplicateField
    case .belongsToWithoutCounterpart: return .belongsToWithoutCounterpart
    case .nullableKeyField: return .nullableKeyField
    case .invalidKeyFieldType: return .invalidKeyFieldType
    case .missingField: return .missingField
    case .keyCountMismatch: return .keyCountMismatch
    case .keyTypeMismatch: return .keyTypeMismatch
    case .ambiguousRelation: return .ambiguousRelation
    case .invalidDefault: return .invalidDefault
    case .invalidArgumentValue: return .invalidArgumentValue
    case .missingArgument: return .missingArgument
    case .misplacedDirective: return .misplacedDirective
    case .repeatedDirective: return .repeatedDirective
    case .relationFieldType: return .relationFieldType
    case .modelFieldWithoutRelation: return .modelFieldWithoutRelation
    case .nestedList: return .nestedList
    case .unsupportedFieldType: return .unsupportedFieldType
    case .indexNotFound: return .indexNotFound
    case .duplicateIndexName: return .duplicateIndexName
    case .invalidAuthRule: return .invalidAuthRule
    case .implicitFieldConflict: return .implicitFieldConflict
    case .invalidManyToMany: return .invalidManyToMany
    case .duplicatePrimaryKey: return .duplicatePrimaryKey
    }
  }

  /// Every semantic diagnostic is an error today.
  public var severity: SchemaDiagnostic.Severity { .error }

  /// The one-line message.
  public var message: String {
    switch self {
    case .unknownType(let name, _):
      return "unknown type `\(name)`"
    case .unknownDirective(let name, _):
      return "unknown directive `@\(name)`"
    case .unknownArgument(let directive, let argument, _):
      return "`@\(directive)` has no argument `\(argument)`"
    case .duplicateType(let name):
      return "type `\(name)` is defined more than once"
    case .duplicateField(let owner, let field):
      return "`\(owner)` defines `\(field)` more than once"
    case .belongsToWithoutCounterpart(let model, let field, let parent):
      return "`\(model).\(field)` is a @belongsTo, but `\(parent)` has no @hasMany or @hasOne field of type `\(model)`"
    case .nullableKeyField(let model, let field, let role):
      return "\(role) field `\(model).\(field)` must be non-null"
    case .invalidKeyFieldType(let model, let field, let typeName, let role):
      return "\(role) field `\(model).\(field)` has type `\(typeName)`; key fields must be scalars or enums"
    case .missingField(let model, let field, let argument, _):
      return "`\(argument)` names `\(field)`, which is not a field of `\(model)`"
    case .keyCountMismatch(let argument, let given, let relatedModel, let keyFields):
      let list = keyFields.map { "`\($0)`" }.joined(separator: ", ")
      return "`\(argument)` has \(given) field\(given == 1 ? "" : "s"), but the key of `\(relatedModel)` has \(keyFields.count) (\(list))"
    case .keyTypeMismatch(let argument, let field, let fieldType, let keyField, let keyType):
      return "`\(argument)` field `\(field)` has type `\(fieldType)`, but the key field `\(keyField)` it holds has type `\(keyType)`"
    case .ambiguousRelation(let model, let field, let relatedModel, let candidates):
      let list = candidates.map { "`\($0)`" }.joined(separator: ", ")
      return "`\(model).\(field)` cannot be paired unambiguously: `\(relatedModel)` has \(list)"
    case .invalidDefault(let field, let value, let typeName, let reason):
      return "@default value \"\(value)\" of `\(field)` is not a valid `\(typeName)`: \(reason)"
    case .invalidArgumentValue(let directive, let argument, let expected):
      return "`@\(directive)(\(argument):)` must be \(expected)"
    case .missingArgument(let directive, let argument):
      return "`@\(directive)` requires the argument `\(argument)`"
    case .misplacedDirective(let directive, let placement):
      return "`@\(directive)` \(placement)"
    case .repeatedDirective(let directive):
      return "`@\(directive)` may appear only once here"
    case .relationFieldType(let directive, let field, let expected):
      return "`@\(directive)` field `\(field)` must be \(expected)"
    case .modelFieldWithoutRelation(let model, let field, let relatedModel):
      return "`\(model).\(field)` has model type `\(relatedModel)` but no @hasMany, @hasOne, @belongsTo or @manyToMany"
    case .nestedList(let owner, let field):
      return "`\(owner).\(field)` is a list of lists, which models cannot store"
    case .unsupportedFieldType(let owner, let field, let typeName, let kind):
      return "`\(owner).\(field)` has \(kind) type `\(typeName)`, which a model or embedded type cannot hold"
    case .indexNotFound(let model, let field, let indexName, let relatedModel, _):
      return "`\(model).\(field)` uses index `\(indexName)`, which `\(relatedModel)` does not define"
    case .duplicateIndexName(let model, let indexName):
      return "`\(model)` defines index `\(indexName)` more than once"
    case .invalidAuthRule(let model, let reason):
      return "invalid @auth rule on `\(model)`: \(reason)"
    case .implicitFieldConflict(let model, let field, let reason):
      return "`\(model).\(field)` \(reason)"
    case .invalidManyToMany(let relationName, let reason):
      return "@manyToMany relation `\(relationName)` \(reason)"
    case .duplicatePrimaryKey(let model):
      return "`\(model)` has more than one @primaryKey"
    }
  }

  /// A fix-it suggestion, or `nil`.
  public var hint: String? {
    switch self {
    case .unknownType(_, let suggestion?), .unknownDirective(_, let suggestion?),
      .unknownArgument(_, _, let suggestion?), .missingField(_, _, _, let suggestion?),
      .indexNotFound(_, _, _, _, let suggestion?):
      return "did you mean `\(suggestion)`?"
    case .unknownDirective(let name, nil):
      return "declare it with `directive @\(name) on ...` or remove it"
    case .belongsToWithoutCounterpart(let model, _, let parent):
      return "add a field of type `\(model)` or `[\(model)]` with @hasOne or @hasMany to `\(parent)`"
    case .nullableKeyField:
      return "add `!` to the field's type"
    case .keyCountMismatch(_, _, _, let keyFields):
      return "list one field per key field: \(keyFields.map { "`\($0)`" }.joined(separator: ", "))"
    case .keyTypeMismatch(_, _, _, _, let keyType):
      return "declare the field as `\(keyType)`"
    case .ambiguousRelation:
      return "name the key with `fields:`/`indexName:` or `references:` on both sides"
    case .repeatedDirective:
      return "remove the repeated directive"
    case .modelFieldWithoutRelation:
      return "add @hasOne, @belongsTo or (for lists) @hasMany"
    case .duplicateType, .duplicateField:
      return "rename or remove one of them"
    case .duplicatePrimaryKey:
      return "use one @primaryKey(sortKeyFields: [...]) on the partition key field"
    default:
      return nil
    }
  }
}
