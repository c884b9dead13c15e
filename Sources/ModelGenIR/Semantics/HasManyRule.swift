import GraphQLSDL

/// `@hasMany(indexName:, fields:)` / `@hasMany(references:)` / bare `@hasMany` (Amplify GraphQL
/// Transformer v2, "Has many relationship", custom primary keys respected on connection fields):
///
/// - `references:` name the child's fields that hold this model's primary key (count MG010, types
///   MG011, existence MG009); the counterpart `@belongsTo` must use `references:` too (MG028).
/// - `fields:` name this model's primary-key fields in key order (MG029); they match the leading
///   fields of the child index `indexName:` (MG022 when the child has no such index) or, without
///   `indexName:`, of the child's primary key. Those leading index fields are the child's foreign keys.
/// - Bare: paired with a `@belongsTo(fields:)`, its fields are the keys; otherwise the child gets
///   `<parent><Field><KeyField>` camel-cased fields (`postCommentsId`, one per key component), typed
///   after the parent's key fields and non-null exactly when the hasMany field is (`[Comment]!`), as
///   the transformer's `ensureHasManyConnectionField` does, whether or not a `@belongsTo` pairs with it.
///
/// The association records `associatedFields` as Amplify codegen does: the child's `@belongsTo` field
/// when paired, else the child's foreign-key fields.
enum HasManyRule {
  /// Resolves every `@hasMany`. Returns the child foreign-key fields per hasMany key (`Model.field`).
  static func apply(_ pairing: RelationPairing, _ context: AnalysisContext) -> [String: [String]] {
    var foreignKeys: [String: [String]] = [:]
    for use in pairing.uses(.hasMany) {
      guard let child = context.models[use.relatedModel] else { continue }
      let paired = pairing.childOf[use.key]
      let resolution: Resolution?
      if let references = use.references {
        resolution = resolveReferences(references, use, child: child, paired: paired, context)
      } else if use.fields != nil || use.indexName != nil {
        resolution = resolveFields(use, child: child, paired: paired, context)
      } else {
        resolution = resolveImplicit(use, child: child, paired: paired, context)
      }
      guard let resolution else { continue }
      foreignKeys[use.key] = resolution.foreignKey
      RelationKeys.setAssociation(
        .hasMany(
          HasManyAssociation(
            relatedModel: child.name, associatedFields: paired.map { [$0.fieldName] } ?? resolution.foreignKey,
            foreignKeyFields: resolution.foreignKey, indexName: resolution.indexName, style: resolution.style,
            pairedField: paired?.fieldName)),
        on: use)
    }
    return foreignKeys
  }

  /// The child's foreign keys of one hasMany and how they were found.
  private struct Resolution {
    var foreignKey: [String]
    var style: RelationStyle
    var indexName: String? = nil
  }

  /// `references:`: the child's fields, checked against this model's primary key.
  private static func resolveReferences(
    _ references: [String], _ use: RelationUse, child: WorkingModel, paired: RelationUse?, _ context: AnalysisContext
  ) -> Resolution? {
    if let paired, paired.references == nil {
      reportStyleMismatch(use, paired, context)
    }
    let keyFields = use.model.primaryKey.fields
    guard
      RelationKeys.check(
        references, argument: "references", of: use, owner: child,
        matching: .init(model: use.model, fields: keyFields), context: context)
    else { return nil }
    return Resolution(foreignKey: references, style: .references)
  }

  /// `fields:` (this model's key, or a prefix of it) matched against the leading fields of the child
  /// index `indexName:` or of the child's primary key.
  private static func resolveFields(
    _ use: RelationUse, child: WorkingModel, paired: RelationUse?, _ context: AnalysisContext
  ) -> Resolution? {
    let parent = use.model
    if let paired, paired.references != nil {
      reportStyleMismatch(use, paired, context)
    }
    let keyFields = parent.primaryKey.fields
    let fields = use.fields ?? keyFields
    if fields.contains(where: parent.isUnresolved) { return nil }
    if let missing = fields.firstIndex(where: { parent.field(named: $0) == nil }) {
      let suggestion = Naming.suggestion(for: fields[missing], among: parent.allFieldNames)
      context.report(
        .missingField(model: parent.name, field: fields[missing], argument: "fields", suggestion: suggestion),
        at: use.directive.range(of: "fields", element: missing))
      return nil
    }
    guard fields.count <= keyFields.count, Array(keyFields.prefix(fields.count)) == fields else {
      context.report(
        .fieldsNotPrimaryKey(model: parent.name, field: use.fieldName, keyFields: keyFields),
        at: use.directive.range(of: "fields"))
      return nil
    }
    let childKey: [String]
    if let name = use.indexName {
      guard let index = child.indexes.first(where: { $0.name == name }) else {
        let suggestion = Naming.suggestion(for: name, among: child.indexes.map(\.name))
        context.report(
          .indexNotFound(
            model: parent.name, field: use.fieldName, indexName: name, relatedModel: child.name, suggestion: suggestion,
            indexes: child.indexes.map(\.name)),
          at: use.directive.range(of: "indexName"))
        return nil
      }
      childKey = index.fields
    } else {
      childKey = child.primaryKey.fields
    }
    guard fields.count <= childKey.count else {
      context.report(
        .keyCountMismatch(argument: "fields", given: fields.count, relatedModel: child.name, keyFields: childKey),
        at: use.directive.range(of: "fields"))
      return nil
    }
    let foreignKey = Array(childKey.prefix(fields.count))
    var typesMatch = true
    for (index, (parentField, childField)) in zip(fields, foreignKey).enumerated() {
      guard let parentType = parent.field(named: parentField)?.type,
        let childType = child.field(named: childField)?.type
      else { continue }
      if !RelationKeys.compatible(childType, parentType) {
        context.report(
          .keyTypeMismatch(
            argument: "fields", field: parentField, fieldType: parentType.namedTypeName,
            keyField: "\(child.name).\(childField)", keyType: childType.namedTypeName),
          at: use.directive.range(of: "fields", element: index))
        typesMatch = false
      }
    }
    guard typesMatch else { return nil }
    return Resolution(foreignKey: foreignKey, style: .fields, indexName: use.indexName)
  }

  /// Bare `@hasMany`: the paired `@belongsTo(fields:)`, or implicit `<parent><Field><KeyField>` fields.
  private static func resolveImplicit(
    _ use: RelationUse, child: WorkingModel, paired: RelationUse?, _ context: AnalysisContext
  ) -> Resolution? {
    if let paired, let targetNames = paired.fields {
      return Resolution(foreignKey: targetNames, style: .fields)
    }
    if let paired, paired.references != nil {
      reportStyleMismatch(use, paired, context)
      return nil
    }
    var foreignKey: [String] = []
    for keyField in use.model.primaryKeyFields {
      let name = Naming.camelCase([use.model.name, use.fieldName, keyField.name])
      RelationKeys.ensureImplicitField(
        name, holding: keyField, isRequired: use.isRequired, on: child, use: use, context: context)
      foreignKey.append(name)
    }
    return Resolution(foreignKey: foreignKey, style: .implicit)
  }

  /// MG028 on `use`, with a note at its counterpart.
  static func reportStyleMismatch(_ use: RelationUse, _ paired: RelationUse, _ context: AnalysisContext) {
    context.report(
      .relationStyleMismatch(
        model: use.model.name, field: use.fieldName, otherModel: paired.model.name, otherField: paired.fieldName),
      at: use.directive.range,
      notes: [DiagnosticNote(message: "counterpart declared here", range: paired.directive.range)])
  }
}
