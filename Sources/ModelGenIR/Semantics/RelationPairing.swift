import GraphQLSDL

/// One relational directive on one model field.
struct RelationUse {
  enum Kind: String {
    case hasMany, hasOne, belongsTo, manyToMany
  }

  let kind: Kind
  let model: WorkingModel
  let declared: DeclaredField
  let directive: Directive
  /// The related model's name (the element type of a list).
  let relatedModel: String

  var fieldName: String { declared.ast.name.value }
  var key: String { "\(model.name).\(fieldName)" }
  var fields: [String]? { directive.strings("fields") }
  var references: [String]? { directive.strings("references") }
  var indexName: String? { directive.string("indexName") }
  /// `true` when the field's outer type is non-null.
  var isRequired: Bool { declared.ast.type.isNonNull }
  /// `true` when neither `fields:`, `references:` nor `indexName:` is written.
  var isImplicit: Bool { fields == nil && references == nil && indexName == nil }
}

/// Finds the relational directives, checks their field shapes, and pairs every `@belongsTo` with
/// the `@hasMany`/`@hasOne` of its parent that points back (Amplify GraphQL Transformer v2,
/// "Model relationships").
///
/// A `@belongsTo` on `C.b: P` pairs with the one field of `P` of type `C`/`[C]` carrying `@hasMany` or
/// `@hasOne`. When `P` has several, the key decides: the same `references:`, or a `@hasMany` whose
/// index (or `C`'s primary key) starts with `b`'s first `fields:` entry, or, for an implicit
/// `@belongsTo`, the one implicit parent relation. No candidate is MG006; several, or two
/// `@belongsTo` claiming one parent field, are MG012.
struct RelationPairing {
  /// Every relation use in document order.
  private(set) var uses: [RelationUse] = []
  /// belongsTo key → its parent relation.
  private(set) var parentOf: [String: RelationUse] = [:]
  /// hasMany/hasOne key → its paired belongsTo.
  private(set) var childOf: [String: RelationUse] = [:]

  init(_ context: AnalysisContext) {
    collect(context)
    pair(context)
  }

  private mutating func collect(_ context: AnalysisContext) {
    for model in context.orderedModels {
      for declared in model.declared {
        let directives = declared.ast.directives.filter { ModelRule.relationDirectives.contains($0.name.value) }
        guard let directive = directives.first, let kind = RelationUse.Kind(rawValue: directive.name.value) else {
          continue
        }
        for extra in directives.dropFirst() {
          context.report(
            .misplacedDirective(
              directive: extra.name.value, placement: "cannot be combined with @\(directive.name.value)"),
            at: extra.range)
        }
        guard let type = declared.type else { continue }
        let wantsList = kind == .hasMany || kind == .manyToMany
        guard case .model(let related) = type.elementType, type.isList == wantsList else {
          let expected = wantsList ? "a list of a @model type" : "a @model type (not a list)"
          context.report(
            .relationFieldType(
              directive: kind.rawValue, field: "\(model.name).\(declared.ast.name.value)", expected: expected),
            at: declared.ast.type.range)
          continue
        }
        if directive.argument(named: "fields") != nil, let references = directive.argument(named: "references") {
          context.report(
            .invalidArgumentValue(
              directive: kind.rawValue, argument: "references", expected: "omitted when `fields:` is given",
              fix: "keep `references:` (the transformer's current form) or `fields:`, not both"),
            at: references.name.range)
          continue
        }
        uses.append(
          RelationUse(kind: kind, model: model, declared: declared, directive: directive, relatedModel: related))
      }
    }
  }

  private mutating func pair(_ context: AnalysisContext) {
    var claims: [String: [RelationUse]] = [:]
    var parentsByModels: [ModelPair: [RelationUse]] = [:]
    for use in uses where use.kind == .hasMany || use.kind == .hasOne {
      parentsByModels[ModelPair(parent: use.model.name, child: use.relatedModel), default: []].append(use)
    }
    for child in uses where child.kind == .belongsTo {
      let candidates = parentsByModels[ModelPair(parent: child.relatedModel, child: child.model.name)] ?? []
      guard !candidates.isEmpty else {
        if hasUnresolvedParentRelation(in: context.models[child.relatedModel]) {
          continue  // The parent's relation field has an unknown type, already reported (MG001).
        }
        context.report(
          .belongsToWithoutCounterpart(model: child.model.name, field: child.fieldName, parent: child.relatedModel),
          at: child.directive.range)
        continue
      }
      var chosen = candidates
      if candidates.count > 1 {
        chosen = candidates.filter { matches(child: child, parent: $0, context: context) }
      }
      guard chosen.count == 1, let parent = chosen.first else {
        context.report(
          .ambiguousRelation(
            model: child.model.name, field: child.fieldName, relatedModel: child.relatedModel,
            candidates: candidates.map(\.fieldName)),
          at: child.directive.range,
          notes: candidates.map {
            DiagnosticNote(
              message: "candidate `\(DiagnosticText.shortened($0.key))`", range: $0.declared.ast.name.range)
          })
        continue
      }
      claims[parent.key, default: []].append(child)
      parentOf[child.key] = parent
    }
    for parent in uses where parent.kind == .hasMany || parent.kind == .hasOne {
      guard let children = claims[parent.key] else { continue }
      if children.count == 1 {
        childOf[parent.key] = children[0]
        continue
      }
      context.report(
        .ambiguousRelation(
          model: parent.model.name, field: parent.fieldName, relatedModel: parent.relatedModel,
          candidates: children.map(\.fieldName)),
        at: parent.directive.range,
        notes: children.map {
          DiagnosticNote(message: "claimed by `\(DiagnosticText.shortened($0.key))`", range: $0.declared.ast.name.range)
        })
      for child in children { parentOf[child.key] = nil }
    }
  }

  /// `true` when `model` has a `@hasMany`/`@hasOne` field whose type could not be resolved.
  private func hasUnresolvedParentRelation(in model: WorkingModel?) -> Bool {
    model?.declared.contains { declared in
      declared.type == nil && (declared.directive("hasMany") != nil || declared.directive("hasOne") != nil)
    } ?? false
  }

  /// Whether the key written on `child` selects `parent` among several candidates.
  private func matches(child: RelationUse, parent: RelationUse, context: AnalysisContext) -> Bool {
    if let references = child.references {
      return parent.references == references
    }
    if let fields = child.fields, let first = fields.first {
      guard parent.kind == .hasMany, parent.references == nil else { return false }
      if let indexName = parent.indexName {
        return child.model.indexes.first { $0.name == indexName }?.fields.first == first
      }
      return parent.fields != nil && child.model.primaryKey.partitionKey == first
    }
    return parent.isImplicit
  }

  /// A parent model and a child model, for looking up candidate relations.
  private struct ModelPair: Hashable {
    let parent: String
    let child: String
  }

  /// Uses of one kind, in document order.
  func uses(_ kind: RelationUse.Kind) -> [RelationUse] {
    uses.filter { $0.kind == kind }
  }
}

/// Helpers shared by the relation rules.
enum RelationKeys {
  /// The implicit foreign-key fields `use` adds to `holder` for `keyFields` of `keyOwner`
  /// (`<holder><Field><KeyField>`, camel-cased: `postCommentsId`, `projectTeamId`), created where
  /// missing; their names in key order.
  static func implicitForeignKeys(
    of use: RelationUse, on holder: WorkingModel, holding keyFields: [String], of keyOwner: WorkingModel,
    context: AnalysisContext
  ) -> [String] {
    keyFields.compactMap { keyFieldName in
      guard let keyField = keyOwner.field(named: keyFieldName) else { return nil }
      let name = Naming.camelCase([holder.name, use.fieldName, keyFieldName])
      ensureImplicitField(name, holding: keyField, isRequired: use.isRequired, on: holder, use: use, context: context)
      return name
    }
  }

  /// `true` when a field of type `lhs` can hold a key field of type `rhs`: the same type, or `ID`
  /// and `String` (both DynamoDB strings).
  static func compatible(_ lhs: FieldType, _ rhs: FieldType) -> Bool {
    if lhs == rhs { return true }
    let strings: Set<ScalarType> = [.id, .string]
    if let a = lhs.scalar, let b = rhs.scalar { return strings.contains(a) && strings.contains(b) }
    return false
  }

  /// The key a relation's written fields must match: `fields` of `model`, in key order.
  struct Key {
    /// The model that owns the key.
    let model: WorkingModel
    /// The key's field names, in key order.
    let fields: [String]
  }

  /// Checks that `names` (written in `argument` of `use`) name fields of `owner` whose types match
  /// the fields of `key` one to one: existence (MG009), count (MG010), types (MG011).
  /// - Returns: `true` when everything matches.
  @discardableResult
  static func check(
    _ names: [String], argument: String, of use: RelationUse, owner: WorkingModel, matching key: Key,
    context: AnalysisContext
  ) -> Bool {
    let keyOwner = key.model
    let keyFields = key.fields
    var ok = true
    if names.count != keyFields.count {
      context.report(
        .keyCountMismatch(argument: argument, given: names.count, relatedModel: keyOwner.name, keyFields: keyFields),
        at: use.directive.range(of: argument))
      ok = false
    }
    for (index, name) in names.enumerated() {
      let range = use.directive.range(of: argument, element: index)
      guard let field = owner.field(named: name) else {
        if owner.isUnresolved(name) {
          ok = false
          continue
        }
        let suggestion = Naming.suggestion(for: name, among: owner.allFieldNames)
        context.report(
          .missingField(model: owner.name, field: name, argument: argument, suggestion: suggestion), at: range)
        ok = false
        continue
      }
      guard index < keyFields.count, let keyField = keyOwner.field(named: keyFields[index]) else { continue }
      if !compatible(field.type, keyField.type) {
        context.report(
          .keyTypeMismatch(
            argument: argument, field: name, fieldType: field.type.namedTypeName,
            keyField: "\(keyOwner.name).\(keyField.name)",
            keyType: keyField.type.namedTypeName),
          at: range)
        ok = false
      }
    }
    return ok
  }

  /// Adds an implicit foreign-key field to `model` unless a field of that name exists (the
  /// transformer then reuses it; a type that cannot hold the key is MG011).
  static func ensureImplicitField(
    _ name: String, holding keyField: FieldDefinition, isRequired: Bool, on model: WorkingModel, use: RelationUse,
    context: AnalysisContext
  ) {
    if let existing = model.field(named: name) {
      if existing.origin == .timestamp, let timestamp = model.timestamp(named: name) {
        // The transformer adds both fields: report the timestamp name, not the key type.
        context.report(
          .timestampNameConflict(
            model: model.name, timestamp: timestamp.timestamp, name: name,
            other: "the foreign key that `\(use.model.name).\(use.fieldName)` (@\(use.kind.rawValue)) adds",
            kind: .foreignKey),
          at: timestamp.range)
      } else if !compatible(existing.type, keyField.type) {
        context.report(
          .keyTypeMismatch(
            argument: "@\(use.kind.rawValue)", field: name, fieldType: existing.type.namedTypeName,
            keyField: keyField.name, keyType: keyField.type.namedTypeName),
          at: model.declaredField(named: name)?.ast.type.range ?? use.directive.range)
      }
      return
    }
    model.implicitFields.append(
      FieldDefinition(
        name: name, type: keyField.type, isRequired: isRequired, origin: .implicitForeignKey,
        location: use.directive.range.schemaLocation))
  }

  /// Sets the association of `use`'s field.
  static func setAssociation(_ association: Association, on use: RelationUse) {
    guard var field = use.model.field(named: use.fieldName) else { return }
    field.association = association
    use.model.update(field)
  }
}
