import GraphQLSDL

/// `@belongsTo(fields:)` / `@belongsTo(references:)` / bare `@belongsTo` (Amplify GraphQL Transformer
/// v2, "Belongs to relationship"). The parent relation is found by ``RelationPairing``.
///
/// - `fields:` / `references:` name this model's fields that hold the parent's primary key, in key
///   order (count MG010, types MG011, existence MG009). They are the target names.
/// - Bare, paired with a `@hasMany`: the hasMany's child foreign keys (`<parent><HasManyField><KeyField>`
///   when it is bare, the index fields when it names one).
/// - Bare, paired with a `@hasOne`: `<child><Field><KeyField>` camel-cased fields added to this model
///   (`teamProjectProjectId`), non-null when the belongsTo field is.
///
/// `associatedFields` are the parent's primary-key fields, in the same order as the target names.
enum BelongsToRule {
  static func apply(_ pairing: RelationPairing, hasManyForeignKeys: [String: [String]], _ context: AnalysisContext) {
    for use in pairing.uses(.belongsTo) {
      guard let parent = context.models[use.relatedModel] else { continue }
      let child = use.model
      let keyFields = parent.primaryKey.fields
      guard let pairedParent = pairing.parentOf[use.key] else {
        // No counterpart (MG006, or MG012 when ambiguous): the written `fields:` / `references:`
        // are still checked, so a field that does not exist is reported at its name too.
        if let written = use.references ?? use.fields {
          _ = RelationKeys.check(
            written, argument: use.references != nil ? "references" : "fields", of: use, owner: child,
            matching: .init(model: parent, fields: keyFields), context: context)
        }
        continue
      }
      let targetNames: [String]
      let style: RelationStyle

      if let written = use.references ?? use.fields {
        let argument = use.references != nil ? "references" : "fields"
        guard
          RelationKeys.check(
            written, argument: argument, of: use, owner: child, matching: .init(model: parent, fields: keyFields),
            context: context)
        else { continue }
        targetNames = written
        style = use.references != nil ? .references : .fields
      } else if pairedParent.references != nil {
        continue  // MG028 reported by the parent's rule.
      } else if pairedParent.kind == .hasMany {
        guard let foreignKey = hasManyForeignKeys[pairedParent.key] else { continue }
        targetNames = foreignKey
        style = pairedParent.isImplicit ? .implicit : .fields
      } else {
        targetNames = RelationKeys.implicitForeignKeys(
          of: use, on: child, holding: keyFields, of: parent, context: context)
        style = .implicit
      }
      RelationKeys.setAssociation(
        .belongsTo(
          BelongsToAssociation(
            relatedModel: parent.name, targetNames: targetNames,
            associatedFields: Array(keyFields.prefix(targetNames.count)),
            style: style, pairedField: pairedParent.fieldName,
            pairedKind: pairedParent.kind == .hasMany ? .hasMany : .hasOne)),
        on: use)
    }
  }
}
