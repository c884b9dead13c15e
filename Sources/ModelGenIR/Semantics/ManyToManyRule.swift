import GraphQLSDL

/// `@manyToMany(relationName:)` (Amplify GraphQL Transformer v2, "Many-to-many relationship"):
/// exactly two fields, `A.f: [B]` and `B.g: [A]`, share a relation name (MG026 otherwise). The
/// transformer creates a join model named after the relation with its first letter upper-cased
/// (`relationName: "postTags"` gives `PostTags`; `getGraphqlRelationName` is
/// `graphqlName(toUpper(relationName))`, which also pairs `postTags` with `PostTags`) with
///
/// - `id: ID!`, then per side one required field per key component named
///   `<model, first letter lower-cased><KeyField>` for the partition key (`postId`, `tagId`) and
///   `<model, first letter lower-cased><sortKeyField>` as written for each sort key field
///   (`postId`, `posttitle`; relational transformer `${fieldName}${sortKeyField}`),
/// - two required `@belongsTo` fields named after the models (`post: Post!`, `tag: Tag!`),
/// - an index per side named `by<Model>` on that side's fields (`byPost`, `byTag`),
/// - the default timestamps and both models' `@auth` rules.
///
/// Each `@manyToMany` field becomes a `@hasMany` of the join model through its side's index.
enum ManyToManyRule {
  static func apply(_ pairing: RelationPairing, _ context: AnalysisContext) {
    var groups: [String: [RelationUse]] = [:]
    var written: [String: String] = [:]
    var order: [String] = []
    for use in pairing.uses(.manyToMany) {
      guard let name = use.directive.string("relationName") else { continue }
      let joinName = name.prefix(1).uppercased() + name.dropFirst()
      if groups[joinName] == nil { order.append(joinName) }
      written[joinName] = written[joinName] ?? name
      groups[joinName, default: []].append(use)
    }
    for joinName in order {
      guard let sides = groups[joinName] else { continue }
      // Diagnostics name the relation as first written; the join model takes the upper-cased name.
      let relationName = written[joinName] ?? joinName
      let range = sides[0].directive.range(of: "relationName")
      guard sides.count == 2 else {
        context.report(
          .invalidManyToMany(relationName: relationName, reason: "needs exactly two fields, found \(sides.count)"),
          at: range)
        continue
      }
      let (first, second) = (sides[0], sides[1])
      guard first.model.name != second.model.name else {
        context.report(
          .invalidManyToMany(relationName: relationName, reason: "relates a model to itself, which is not supported"),
          at: range)
        continue
      }
      guard first.relatedModel == second.model.name, second.relatedModel == first.model.name else {
        context.report(
          .invalidManyToMany(
            relationName: relationName,
            reason:
              "must join `\(DiagnosticText.shortened(first.model.name)).\(DiagnosticText.shortened(first.fieldName)): [\(DiagnosticText.shortened(second.model.name))]` and `\(DiagnosticText.shortened(second.model.name)).\(DiagnosticText.shortened(second.fieldName)): [\(DiagnosticText.shortened(first.model.name))]`"
          ),
          at: second.directive.range(of: "relationName"))
        continue
      }
      guard context.types[joinName] == nil, context.models[joinName] == nil else {
        context.report(
          .invalidManyToMany(
            relationName: relationName,
            reason: "names a join model `\(DiagnosticText.shortened(joinName))`, but a type of that name exists"),
          at: range)
        continue
      }
      buildJoinModel(joinName, first, second, context)
    }
  }

  private static func buildJoinModel(
    _ relationName: String, _ first: RelationUse, _ second: RelationUse, _ context: AnalysisContext
  ) {
    let location = first.directive.range
    let join = WorkingModel(name: relationName, nameRange: location)
    join.origin = .manyToManyJoin(relationName: relationName)
    join.fields = [
      FieldDefinition(
        name: "id", type: .scalar(.id), isRequired: true, origin: .implicitIdentifier, location: location.schemaLocation
      )
    ]
    var sideKeys: [[String]] = []
    for side in [first, second] {
      var names: [String] = []
      for (position, keyField) in side.model.primaryKeyFields.enumerated() {
        // The partition key as `<model><KeyField>` (`getManyToManyConnectionAttributeName`), each
        // sort key field appended as written (`${fieldName}${sortKeyField}`: `modelAsortId`).
        let suffix = position == 0 ? Naming.uppercasingFirst(keyField.name) : keyField.name
        let name = Naming.lowercasingFirst(side.model.name) + suffix
        join.fields.append(
          FieldDefinition(
            name: name, type: keyField.type, isRequired: true, origin: .manyToMany, location: location.schemaLocation))
        names.append(name)
      }
      sideKeys.append(names)
    }
    for (side, names) in zip([first, second], sideKeys) {
      let fieldName = Naming.lowercasingFirst(side.model.name)
      join.fields.append(
        FieldDefinition(
          name: fieldName, type: .model(side.model.name), isRequired: true, origin: .manyToMany,
          association: .belongsTo(
            BelongsToAssociation(
              relatedModel: side.model.name, targetNames: names, associatedFields: side.model.primaryKey.fields,
              style: .manyToMany(relationName: relationName), pairedField: side.fieldName, pairedKind: .hasMany)),
          location: location.schemaLocation))
      let indexName = "by" + side.model.name
      join.indexes.append(
        IndexDefinition(name: indexName, fields: names, origin: .manyToMany, location: location.schemaLocation))
      if var field = side.model.field(named: side.fieldName), case .list(_, let elementRequired) = field.type {
        field.type = .list(.model(relationName), elementRequired: elementRequired)
        field.association = .hasMany(
          HasManyAssociation(
            relatedModel: relationName, associatedFields: [fieldName], foreignKeyFields: names, indexName: indexName,
            style: .manyToMany(relationName: relationName), pairedField: fieldName))
        side.model.update(field)
      }
    }
    join.timestampFields = [
      FieldDefinition(
        name: "createdAt", type: .scalar(.awsDateTime), isRequired: false, isReadOnly: true, origin: .timestamp,
        location: location.schemaLocation),
      FieldDefinition(
        name: "updatedAt", type: .scalar(.awsDateTime), isRequired: false, isReadOnly: true, origin: .timestamp,
        location: location.schemaLocation),
    ]
    join.authRules = first.model.authRules
    for rule in second.model.authRules where !join.authRules.contains(where: { $0.sameRule(as: rule) }) {
      join.authRules.append(rule)
    }
    context.models[relationName] = join
    context.modelOrder.append(relationName)
  }
}

extension AuthRuleDefinition {
  /// Equality ignoring the source location.
  func sameRule(as other: AuthRuleDefinition) -> Bool {
    var copy = other
    copy.location = location
    return copy == self
  }
}
