import GraphQLSDL

/// The mutable state of one analysis run: the type table, the models being built and the
/// diagnostics collected so far. Owned by one ``SemanticAnalyzer`` call; never shared between threads.
final class AnalysisContext {
  /// The schema file name diagnostics carry.
  let fileName: String
  /// Every diagnostic reported so far, in report order (sorted at the end).
  private(set) var diagnostics: [Diagnostic] = []
  /// Every named type of the document by name, definitions merged with their extensions.
  var types: [String: TypeEntry] = [:]
  /// Type names in document order.
  var typeOrder: [String] = []
  /// Models by name, being built by the rules.
  var models: [String: WorkingModel] = [:]
  /// Model names in document order (join models appended by ``ManyToManyRule``).
  var modelOrder: [String] = []
  /// Names declared with `directive @name` in the document.
  var declaredDirectives: Set<String> = []
  /// Names declared with `directive @name repeatable` in the document.
  var repeatableDirectives: Set<String> = []
  /// The config's Swift type names that apply to this document and passed their checks.
  var swiftNames: [String: String] = [:]
  /// The conflict-resolution strategy of the run (`--conflict-resolution`, config
  /// `conflictResolution`), or `nil`: with one, every model gets a `sync<PluralName>` query and the
  /// `_version`/`_deleted`/`_lastChangedAt` fields the transformer adds.
  var conflictResolution: ConflictResolution?

  /// What is left of the schema's diagnostics budget (shared with the lexer and parser).
  private(set) var budget: DiagnosticBudget

  init(fileName: String, budget: DiagnosticBudget = DiagnosticBudget()) {
    self.fileName = fileName
    self.budget = budget
  }

  /// Records `error` at `range` while the budget lasts; the first error beyond it is recorded as
  /// `SDL099` (too many errors) and later ones are dropped.
  func report(_ error: SemanticError, at range: SourceRange, notes: [DiagnosticNote] = []) {
    switch budget.admit() {
    case .report: diagnostics.append(error.diagnostic(fileName: fileName, range: range, notes: notes))
    case .reportTooManyErrors: diagnostics.append(budget.tooManyErrors(fileName: fileName, range: range))
    case .drop: break
    }
  }

  /// Records an already-built diagnostic (parse errors), within the same budget.
  func append(_ diagnostic: Diagnostic) {
    switch budget.admit() {
    case .report: diagnostics.append(diagnostic)
    case .reportTooManyErrors: diagnostics.append(budget.tooManyErrors(fileName: fileName, range: diagnostic.range))
    case .drop: break
    }
  }

  /// `true` when an error was reported.
  var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The models in document order.
  var orderedModels: [WorkingModel] { modelOrder.compactMap { models[$0] } }
}

/// What kind of named type a name denotes.
enum TypeKind: Equatable {
  case model
  case nonModel
  case enumeration
  case scalar(ScalarType)
  /// Interfaces, unions, input objects, custom scalars and root operation types; the string names the kind.
  case unsupported(String)
}

/// A named type of the document, with its extensions merged in.
struct TypeEntry {
  var name: String
  var kind: TypeKind
  var nameRange: SourceRange
  var description: String?
  /// `false` when ``description`` was written quoted (`"…"`).
  var descriptionIsBlockString = true
  var directives: [Directive]
  var fields: [GraphQLSDL.FieldDefinition]
  var enumValues: [GraphQLSDL.EnumValueDefinition]
  /// Directives on input values: fields of input types and arguments of fields (definition and
  /// extensions), one list per input value. No Amplify directive is allowed there; ``DirectiveRule`` checks them.
  var inputValueDirectives: [[Directive]] = []
  /// The fields of an `input` type (definition, then extensions), for ``CustomRootRule``.
  var inputFields: [GraphQLSDL.InputValueDefinition] = []
  /// The description of an `input` type as written, for ``CustomRootRule``.
  var inputDescription: StringValue?
  /// The interfaces an object type or interface implements (definition, then extensions), as
  /// written; for ``AbstractTypeRule``.
  var interfaces: [Name] = []
  /// The member types of a union (definition, then extensions), as written.
  var memberTypes: [Name] = []
  /// The description of an interface or union as written (block or quoted), for printing.
  var writtenDescription: StringValue?
}

/// A model while the rules build it. Fields are appended and annotated in place.
final class WorkingModel {
  let name: String
  let nameRange: SourceRange
  let description: String?
  /// `false` when ``description`` was written quoted (`"…"`).
  let descriptionIsBlockString: Bool
  /// Type-level directives (definition and extensions).
  let directives: [Directive]
  /// The interfaces the type implements (definition and extensions), by name.
  let interfaces: [String]
  /// The declared fields as written, parallel to the declared prefix of ``fields``.
  var declared: [DeclaredField]
  /// The IR fields being built: declared (and implicit `id`), then implicit keys, then timestamps.
  var fields: [FieldDefinition] = []
  var primaryKey = PrimaryKey(partitionKey: "id", isImplicit: true)
  var indexes: [IndexDefinition] = []
  var authRules: [AuthRuleDefinition] = []
  var timestamps = TimestampsConfiguration.default
  var operations = ModelOperations()
  var origin = ModelDefinition.Origin.declared
  var pluralName: String
  /// Fields appended by relations (implicit foreign keys), kept apart so they land before the timestamps.
  var implicitFields: [FieldDefinition] = []
  /// Timestamp fields to append at the end.
  var timestampFields: [FieldDefinition] = []
  /// Where each `timestamps:` entry's value is written (`createdAt`/`updatedAt` → the string).
  var timestampNameRanges: [String: SourceRange] = [:]

  /// The timestamp (`createdAt` or `updatedAt`) named `name`, and where to report a conflict of
  /// it: the written `timestamps:` value, else the model's name.
  func timestamp(named name: String) -> (timestamp: String, range: SourceRange)? {
    for (timestamp, fieldName) in [("createdAt", timestamps.createdAt), ("updatedAt", timestamps.updatedAt)]
    where fieldName == name {
      return (timestamp, timestampNameRanges[timestamp] ?? nameRange)
    }
    return nil
  }

  init(entry: TypeEntry, declared: [DeclaredField]) {
    name = entry.name
    nameRange = entry.nameRange
    description = entry.description
    descriptionIsBlockString = entry.descriptionIsBlockString
    directives = entry.directives
    interfaces = entry.interfaces.map(\.value)
    self.declared = declared
    pluralName = Pluralization.plural(of: entry.name)
  }

  /// A generated model (join model).
  init(name: String, nameRange: SourceRange) {
    self.name = name
    self.nameRange = nameRange
    description = nil
    descriptionIsBlockString = true
    directives = []
    interfaces = []
    declared = []
    pluralName = Pluralization.plural(of: name)
  }

  /// The field named `name` among declared and implicit fields, or `nil`.
  func field(named name: String) -> FieldDefinition? {
    fields.first { $0.name == name } ?? implicitFields.first { $0.name == name }
      ?? timestampFields.first { $0.name == name }
  }

  /// Replaces the field named `field.name` wherever it is.
  func update(_ field: FieldDefinition) {
    if let index = fields.firstIndex(where: { $0.name == field.name }) {
      fields[index] = field
    } else if let index = implicitFields.firstIndex(where: { $0.name == field.name }) {
      implicitFields[index] = field
    }
  }

  /// `true` when `name` is a declared field whose type could not be resolved (already reported as
  /// MG001/MG020/MG021); rules skip it instead of reporting it missing.
  func isUnresolved(_ name: String) -> Bool {
    declared.contains { $0.ast.name.value == name && $0.type == nil }
  }

  /// The declared field named `name`, or `nil`.
  func declaredField(named name: String) -> DeclaredField? {
    declared.first { $0.ast.name.value == name }
  }

  /// Every field name, for "did you mean" hints.
  var allFieldNames: [String] {
    (fields + implicitFields + timestampFields).map(\.name)
  }

  /// The primary-key fields with their definitions, in key order (missing ones skipped).
  var primaryKeyFields: [FieldDefinition] {
    primaryKey.fields.compactMap { field(named: $0) }
  }
}

/// A declared field with its resolved type (`nil` when the type could not be resolved).
struct DeclaredField {
  let ast: GraphQLSDL.FieldDefinition
  var type: FieldType?

  /// The first directive named `name`, or `nil`.
  func directive(_ name: String) -> Directive? {
    ast.directives.first { $0.name.value == name }
  }
}

extension SourceRange {
  /// The start as an IR location.
  var schemaLocation: SchemaLocation { SchemaLocation(start) }
}
