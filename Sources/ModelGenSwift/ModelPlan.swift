import ModelGenIR

/// The Swift names one model's generated members use, resolved before any field is planned: the
/// property, setter, reference-accessor and storage names, the `init(from:)` locals and the typed
/// identifier's members.
struct ModelMembers {
  /// The fields the struct renders: stored properties and associations, in field order.
  let fields: [FieldDefinition]
  /// Property names and coding keys.
  let members: SwiftMemberNames
  /// GraphQL field name → `setPost`.
  let setterNames: [String: String]
  /// GraphQL field name → `postReference`.
  let referenceNames: [String: String]
  /// Reference field name → the by-identifier initializer's label (`postIdentifier`, unless a
  /// property of the model already has that name: then `postIdentifier2`), so the label never
  /// collides with a field's.
  let identifierParameterNames: [String: String]
  /// The local holding the parent's key components while decoding (`parentKey`).
  let parentKey: String
  /// The locals `init(from:)` and `encode(to:)` declare.
  let locals: Set<String>
  /// Key field name → the identifier's member name (unescaped).
  let identifierNames: [String: String]
  /// Reference field name → its `LazyReference` storage (`_post`, unless a field of the model is
  /// itself named `_post`).
  let storageNames: [String: String]

  /// The members of `model`, from `resolved` (the analysis's, ``ModelGraph/memberNames``) when
  /// they were resolved from this model, else resolved here.
  init(model: ModelDefinition, resolved: ResolvedMemberNames?) {
    let fields = model.swiftMemberFields
    let names = resolved.flatMap { $0.resolves(model) ? $0 : nil } ?? ResolvedMemberNames(model: model)
    let members = names.members
    self.fields = fields
    self.members = members
    let properties = members.propertyNames
    // Lazy lists and `@hasOne(references:)` need the parent's key components while decoding; they
    // are computed once into a local whose name no property uses.
    parentKey = SwiftNames.uniqued(["parentKey"], taken: properties)[0]
    locals = ["values", "decoder", "container", "encoder", parentKey]
    // The derived members (setters, accessors, storage, labels, identifier members) are resolved
    // in the IR, where `SwiftNameRule` reports each renamed one as MGW002.
    let derived =
      names.derived
      ?? SwiftModelMemberNames(fields: fields, members: members, primaryKey: model.primaryKey.fields)
    setterNames = derived.setterNames
    referenceNames = derived.referenceNames
    storageNames = derived.storageNames
    identifierParameterNames = derived.identifierParameterNames
    identifierNames = derived.identifierNames
  }

  /// How `init(from:)`/`encode(to:)` refer to a field's property: through `self.` when a local
  /// has its name.
  func codingReference(_ field: String) -> String {
    let escaped = members.escapedProperty(field)
    return locals.contains(members.propertyName(field)) ? "self.\(escaped)" : escaped
  }

  /// The `LazyReference` storage of reference field `field` (`_post`).
  func storageName(_ field: String) -> String {
    storageNames[field] ?? "_" + members.propertyName(field)
  }

  /// The identifier's member for key field `field` (escaped).
  func identifierName(_ field: String) -> String {
    SwiftNames.escaped(identifierNames[field] ?? field)
  }

  /// The identifier's argument label for key field `field`.
  func identifierLabel(_ field: String) -> String {
    SwiftNames.argumentLabel(identifierNames[field] ?? field)
  }

  /// `true` when decoding needs the parent's key components: a lazy list, or a `@hasOne` that
  /// finds its child through the child's `references:` fields.
  var needsParentKey: Bool {
    fields.contains { field in
      switch field.association {
      case .hasMany?: return true
      case .hasOne(let association)?: return association.targetNames.isEmpty
      default: return false
      }
    }
  }
}

/// What one rendered field of a model becomes: the per-field plan.
enum FieldPlan {
  /// A scalar or enum (or list of them) stored property.
  case stored
  /// A non-model type (or list of them) stored inside the model.
  case embedded
  /// A `@belongsTo` or `@hasOne` field behind a `LazyReference`.
  case reference(relatedModel: String)
  /// A `@hasMany` field: a `LazyList`.
  case list(HasManyAssociation)

  init(_ field: FieldDefinition) {
    switch field.association {
    case nil:
      if case .embedded = field.type.elementType { self = .embedded } else { self = .stored }
    case .belongsTo(let association)?: self = .reference(relatedModel: association.relatedModel)
    case .hasOne(let association)?: self = .reference(relatedModel: association.relatedModel)
    case .hasMany(let association)?: self = .list(association)
    }
  }
}

/// The parts one field contributes to a model's view model, each in field order.
struct FieldParts {
  /// Stored properties (the `_post` storage for a reference).
  var properties: [PropertyViewModel] = []
  /// The async accessor of a reference.
  var accessor: LazyAccessorViewModel?
  /// The memberwise initializer's parameter, `nil` for a read-only field.
  var parameter: String?
  /// The memberwise initializer's assignment.
  var assignment: SwiftCode?
  /// A reference's parameter in the by-identifier initializer (`postIdentifier:
  /// Post.Identifier?`); `nil` for every other field (which keeps ``parameter``).
  var identifierParameter: String?
  /// The by-identifier initializer's assignment of a reference (`LazyReference(identifier:)`).
  var identifierAssignment: SwiftCode?
  /// A reference's setter.
  var setter: SetterViewModel?
  /// The `init(from:)` expression that decodes the field (`try values.decode(…)`), assigned to a
  /// local and then to ``decodeTarget``; data fields decode before associations.
  var decode: SwiftCode?
  /// The property ``decode`` sets (unescaped; `_post` for a reference's storage).
  var decodeTarget = ""
  /// `true` when ``decode`` is an association's (decoded after every data field).
  var decodesAssociation = false
  /// The `encode(to:)` statement.
  var encode: SwiftCode?
  /// The `ModelSchema.fields` entry.
  var schemaField: SwiftCode?
  /// The `Value` of the field's typed key (`ModelFieldKey<Post, String>`): its property's type,
  /// the related model (`Post?`) for a reference.
  var keyValueType = ""
  /// The related model's Swift type when the field's typed key is a `ModelAssociationKey` (an
  /// association whose key fields are on the other model: `@hasMany`, a `@hasOne` found through
  /// the child's `references:`); `nil` for a `ModelFieldKey`.
  var associationKeyRelated: String?
}
