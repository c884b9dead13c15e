import GraphQLSDL

/// `@hasOne(fields:)` / `@hasOne(references:)` / bare `@hasOne` (Amplify GraphQL Transformer v2,
/// "Has one relationship"):
///
/// - `fields:` name this model's fields that hold the child's primary key (count MG010, types MG011,
///   existence MG009); they are the association's target names.
/// - `references:` name the child's fields that hold this model's primary key; no target names.
///   The counterpart `@belongsTo` must use `references:` too (MG028).
/// - Bare: this model gets `<parent><Field><KeyField>` camel-cased fields (`projectTeamId`; composite
///   child key: `projectTeamTeamId`, `projectTeamName`), non-null when the hasOne field is.
///
/// `associatedFields` is what Amplify codegen records: with `references:`, the child's foreign keys;
/// otherwise the child's `@belongsTo` field when paired, else the child's primary-key fields.
enum HasOneRule {
  static func apply(_ pairing: RelationPairing, _ context: AnalysisContext) {
    for use in pairing.uses(.hasOne) {
      guard let child = context.models[use.relatedModel] else { continue }
      let parent = use.model
      let paired = pairing.childOf[use.key]
      let childKey = child.primaryKey.fields
      let association: HasOneAssociation

      if let references = use.references {
        if let paired, paired.references == nil {
          HasManyRule.reportStyleMismatch(use, paired, context)
        }
        guard
          RelationKeys.check(
            references, argument: "references", of: use, owner: child,
            matching: .init(model: parent, fields: parent.primaryKey.fields), context: context)
        else { continue }
        association = HasOneAssociation(
          relatedModel: child.name, targetNames: [], associatedFields: references, relatedFields: references,
          style: .references, pairedField: paired?.fieldName)
      } else {
        if let paired, paired.references != nil {
          HasManyRule.reportStyleMismatch(use, paired, context)
          continue
        }
        let targetNames: [String]
        let style: RelationStyle
        if let fields = use.fields {
          guard
            RelationKeys.check(
              fields, argument: "fields", of: use, owner: parent, matching: .init(model: child, fields: childKey),
              context: context)
          else { continue }
          targetNames = fields
          style = .fields
        } else {
          targetNames = RelationKeys.implicitForeignKeys(
            of: use, on: parent, holding: childKey, of: child, context: context)
          style = .implicit
        }
        association = HasOneAssociation(
          relatedModel: child.name, targetNames: targetNames,
          associatedFields: paired.map { [$0.fieldName] } ?? childKey,
          relatedFields: childKey, style: style, pairedField: paired?.fieldName)
      }
      RelationKeys.setAssociation(.hasOne(association), on: use)
    }
  }
}
