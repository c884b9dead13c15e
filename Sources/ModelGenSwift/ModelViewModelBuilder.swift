import ModelGenIR

/// A model's view model: resolve the members (``ModelMembers``), plan each field (``FieldPlan``),
/// collect each field's parts (``FieldParts``), then the identifier and the schema arguments.
extension ViewModelBuilder {
  /// The view model of one model of ``graph`` (what ``build()`` holds for it), for callers that
  /// render one model at a time instead of holding every view model at once.
  public func modelViewModel(_ model: ModelDefinition) -> ModelViewModel {
    let members = ModelMembers(model: model, resolved: graph.memberNames[model.name])
    let comma = Self.elementComma(count: members.fields.count)
    let parts = members.fields.map {
      Self.documented(fieldParts($0, of: model, members, comma: comma), $0)
    }
    let parameters = parts.compactMap(\.parameter)
    var viewModel = ModelViewModel(
      sourceFileName: SwiftNames.commentText(graph.sourceFileName), access: access.rawValue,
      typeName: types.typeName(model.name), fileStem: swiftTypeName(model.name),
      storedProperties: parts.flatMap(\.properties), lazyAccessors: parts.compactMap(\.accessor),
      initParameters: Self.parameters(parameters), initAssignments: parts.compactMap(\.assignment),
      setters: parts.compactMap(\.setter), decodeStatements: decodeStatements(parts, model, members),
      encodeStatements: parts.compactMap(\.encode),
      codingKeys: members.fields.map { members.members.codingKeyDeclaration($0.name) },
      identifier: identifierViewModel(model, members),
      nameLiteral: SwiftNames.stringLiteral(model.name),
      pluralNameLiteral: SwiftNames.stringLiteral(model.pluralName),
      primaryKey: .array(
        model.primaryKey.fields.map { .text("CodingKeys.\(members.members.key($0))") }),
      schemaFields: parts.compactMap(\.schemaField), indexes: indexEntries(model),
      authRules: model.authRules.map {
        authRuleExpression($0, trailing: Self.elementComma(count: model.authRules.count))
      },
      operations: operationNamesExpression(model), timestamps: timestampsExpression(model),
      implicitKeyTypedAsID: model.primaryKey.isImplicit && model.field(named: "id")?.type != .scalar(.id),
      syncPluralName: syncPluralNameArgument(model), tailArguments: tailArguments(model),
      typedKeys: zip(members.fields, parts).map { field, part in
        typedKeyDeclaration(field, part, of: model, members)
      },
      identifiableByID: identifiable(model, members) == .byID,
      identifiableByIdentifier: identifiable(model, members) == .byIdentifier)
    viewModel.pathMembers = members.fields.compactMap { field in
      let related: String
      switch FieldPlan(field) {
      case .reference(let relatedModel): related = relatedModel
      case .list(let association): related = association.relatedModel
      case .stored, .embedded: return nil
      }
      return PathMemberViewModel(
        name: SwiftNames.escaped(
          members.members.pathMember(field.name)
            ?? SwiftNames.pathMember(forProperty: members.members.propertyName(field.name))),
        relatedType: types.typeName(related),
        fieldLiteral: SwiftNames.stringLiteral(field.name))
    }
    if parts.contains(where: { $0.identifierParameter != nil }) {
      viewModel.identifierInitParameters = Self.parameters(
        parts.compactMap { $0.identifierParameter ?? $0.parameter })
      viewModel.identifierInitAssignments = parts.compactMap {
        $0.identifierAssignment ?? $0.assignment
      }
    }
    viewModel.typedIndexes = indexKeys(model, members)
    viewModel.docLines = SwiftNames.docCommentLines(model.description)
    return viewModel
  }

  /// `parts` with the field's description on its public declaration: the async accessor of a
  /// reference, else the stored property.
  static func documented(_ parts: FieldParts, _ field: FieldDefinition) -> FieldParts {
    let lines = SwiftNames.docCommentLines(field.description)
    guard !lines.isEmpty else { return parts }
    var parts = parts
    if parts.accessor != nil {
      parts.accessor?.docLines = lines
    } else if !parts.properties.isEmpty {
      parts.properties[0].docLines = lines
    }
    return parts
  }

  /// How the model is `Identifiable`: by its `id` property when that is the whole key, by its
  /// typed `Identifier` when no property is named `id`, else not at all.
  private func identifiable(_ model: ModelDefinition, _ members: ModelMembers) -> Identifiability {
    let idField = members.fields.first { members.members.propertyName($0.name) == "id" }
    guard let idField else { return .byIdentifier }
    return model.primaryKey.fields == [idField.name] ? .byID : .none
  }

  private enum Identifiability { case byID, byIdentifier, none }

  /// `public static let title = ModelFieldKey<Post, String>("title")`: the typed key of `field`,
  /// carrying the Swift type of its property (the related model for a reference whose FK the
  /// model holds); `ModelAssociationKey<Post, Comment>("comments")` for an association whose key
  /// fields are on the other model.
  private func typedKeyDeclaration(
    _ field: FieldDefinition, _ part: FieldParts, of model: ModelDefinition, _ members: ModelMembers
  ) -> SwiftCode {
    let type =
      part.associationKeyRelated.map { "ModelAssociationKey<\(types.typeName(model.name)), \($0)>" }
      ?? "ModelFieldKey<\(types.typeName(model.name)), \(part.keyValueType)>"
    return .call(
      "\(access.rawValue) static let \(members.members.key(field.name)) = \(type)(",
      [.text(SwiftNames.stringLiteral(field.name))])
  }

  /// Data fields decode first, then (after the parent's key, when needed) the associations,
  /// each into a local (`let id = try values.decode(…)`); the properties are assigned from the
  /// locals at the end (`self.id = id`). Assigning each property as it decodes made the compiler
  /// copy the whole struct out of the initializer and destroy the original (one retain and one
  /// release of every reference-counted field per decoded model; issue 11's query-all row).
  private func decodeStatements(
    _ parts: [FieldParts], _ model: ModelDefinition, _ members: ModelMembers
  ) -> [SwiftCode] {
    let decoded = zip(members.fields, parts).compactMap { field, part in
      part.decode.map { (field: field.name, part: part, call: $0) }
    }
    // A local is named after its property, unless that name is one of the initializer's own
    // (`values`, `decoder`, the parent key) or would rebind `self`.
    let locals = SwiftNames.uniqued(
      decoded.map(\.part.decodeTarget), taken: ["values", "decoder", members.parentKey, "self", "Self"])
    let localOf = Dictionary(
      zip(decoded.map(\.field), locals.map(SwiftNames.escaped)), uniquingKeysWith: { first, _ in first })
    func statement(_ entry: (field: String, part: FieldParts, call: SwiftCode)) -> SwiftCode {
      entry.call.prefixed("let \(localOf[entry.field] ?? "") = ")
    }
    let data = decoded.filter { !$0.part.decodesAssociation }.map(statement)
    var associations = decoded.filter(\.part.decodesAssociation).map(statement)
    if members.needsParentKey {
      let arguments = model.primaryKey.fields.map {
        SwiftCode.text(
          "\(members.identifierLabel($0)): \(localOf[$0] ?? members.codingReference($0))")
      }
      associations.insert(
        .call(
          head: "let \(members.parentKey) = Identifier(", arguments: arguments,
          close: ").components"), at: 0)
    }
    let order = decoded.filter { !$0.part.decodesAssociation } + decoded.filter(\.part.decodesAssociation)
    let assignments = order.map { entry in
      SwiftCode.text(
        "self.\(SwiftNames.escaped(entry.part.decodeTarget)) = \(localOf[entry.field] ?? "")")
    }
    return data + associations + assignments
  }

  /// The parts of one field, after its plan.
  func fieldParts(
    _ field: FieldDefinition, of model: ModelDefinition, _ members: ModelMembers, comma: String
  ) -> FieldParts {
    switch FieldPlan(field) {
    case .stored, .embedded:
      return storedParts(field, isKey: model.primaryKey.fields.contains(field.name), members, comma)
    case .reference(let relatedModel):
      var parts = referenceParts(field, related: types.typeName(relatedModel), members, comma)
      if let components = keyHeldComponents(field, of: model, members) {
        holdByKey(&parts, storage: members.storageName(field.name), components: components)
      }
      return parts
    case .list(let association):
      return listParts(field, association, members, comma)
    }
  }

  // MARK: Per-field parts

  /// A stored property: declaration, initializer parameter unless read-only, `decode(_:forKey:)`.
  func storedParts(
    _ field: FieldDefinition, isKey: Bool, _ members: ModelMembers, _ comma: String
  ) -> FieldParts {
    let property = members.members.escapedProperty(field.name)
    let reference = members.codingReference(field.name)
    let key = members.members.key(field.name)
    let type = types.swiftType(of: field)
    let modifiers =
      isKey
      ? "\(access.rawValue) let"
      : field.isReadOnly ? "\(access.readOnlyModifier) var" : "\(access.rawValue) var"
    var parts = FieldParts()
    parts.properties = [PropertyViewModel(modifiers: modifiers, name: property, type: type)]
    parts.keyValueType = type
    if !field.isReadOnly {
      parts.parameter = "\(property): \(type)\(types.defaultClause(for: field, isKey: isKey))"
      parts.assignment = .text("self.\(property) = \(property)")
    }
    let required = types.isRequiredInSwift(field)
    parts.decode = .call(
      "try values.\(required ? "decode" : "decodeIfPresent")(",
      [.text("\(types.swiftType(field.type)).self"), .text("forKey: .\(key)")])
    parts.decodeTarget = members.members.propertyName(field.name)
    parts.encode = encodeStatement(reference, key: key, required: required)
    var arguments: [SwiftCode] = [
      .text("CodingKeys.\(key)"), presence(field), .text(types.fieldTypeExpression(field.type)),
    ]
    if field.isReadOnly { arguments.append("readOnly: true") }
    parts.schemaField = .call(".field(", arguments + fieldAuthArguments(field), trailing: comma)
    return parts
  }

  /// A `@belongsTo`/`@hasOne` field: `_name` storage, async accessor, initializer parameter,
  /// setter, `decodeLazyReference`, and its `ModelSchema` entry.
  func referenceParts(
    _ field: FieldDefinition, related: String, _ members: ModelMembers, _ comma: String
  ) -> FieldParts {
    let property = members.members.escapedProperty(field.name)
    let storage = members.storageName(field.name)
    let type = related + (field.isRequired ? "" : "?")
    var parts = FieldParts()
    parts.keyValueType = type
    parts.properties = [
      PropertyViewModel(modifiers: "internal var", name: storage, type: "LazyReference<\(related)>")
    ]
    parts.accessor = LazyAccessorViewModel(
      name: property, type: type, storageName: storage,
      loadMethod: field.isRequired ? "require" : "get",
      referenceName: SwiftNames.escaped(members.referenceNames[field.name] ?? field.name),
      relatedType: related)
    parts.parameter = "\(property): \(type)" + (field.isRequired ? "" : " = nil")
    parts.assignment = .text("self.\(storage) = LazyReference(\(property))")
    parts.setter = SetterViewModel(
      name: members.setterNames[field.name] ?? field.name, parameter: property, type: type,
      storageName: storage)
    // The set-by-identifier setter and the by-identifier initializer take the references whose
    // FK this model holds (a `@hasOne` found through the child's `references:` fields has none to
    // store: an identifier set there would never be saved). The initializer's parameters have no
    // default value: a call naming none of them is the memberwise initializer's, never ambiguous.
    if field.isFoundThroughReferences { parts.associationKeyRelated = related }
    if !field.isFoundThroughReferences {
      parts.setter?.identifierType = "\(related).Identifier" + (field.isRequired ? "" : "?")
      let label = SwiftNames.escaped(
        members.identifierParameterNames[field.name] ?? property + "Identifier")
      parts.identifierParameter =
        "\(label): \(related).Identifier" + (field.isRequired ? "" : "?")
      parts.identifierAssignment = .text("self.\(storage) = LazyReference(identifier: \(label))")
    }
    parts.decode = .call(
      "try values.decodeLazyReference(",
      [.text("\(related).self"), .text("forKey: .\(members.members.key(field.name))")]
        + referenceDecodeArguments(field, members) + ["decoder: decoder"])
    parts.decodeTarget = storage
    parts.decodesAssociation = true
    parts.encode = .call(
      "try container.encode(", [.text(storage), .text("forKey: .\(members.members.key(field.name))")])
    parts.schemaField = referenceSchemaEntry(field, related: related, members, comma)
    return parts
  }

  /// The identifier components of a `@belongsTo`/`@hasOne` whose target names are all
  /// primary-key fields (`postID: ID! @primaryKey(…)` with `post: Post @belongsTo(fields:
  /// ["postID"])`), made from the key properties; `nil` for any other reference.
  private func keyHeldComponents(
    _ field: FieldDefinition, of model: ModelDefinition, _ members: ModelMembers
  ) -> [SwiftCode]? {
    let targetNames: [String]
    let associatedFields: [String]
    switch field.association {
    case .belongsTo(let association)?:
      (targetNames, associatedFields) = (association.targetNames, association.associatedFields)
    case .hasOne(let association)?:
      (targetNames, associatedFields) = (association.targetNames, association.relatedFields)
    default:
      return nil
    }
    guard !targetNames.isEmpty, targetNames.count == associatedFields.count,
      targetNames.allSatisfy(model.primaryKey.fields.contains)
    else { return nil }
    return zip(targetNames, associatedFields).map { target, associated in
      .text(
        "IdentifierComponent(name: \(SwiftNames.stringLiteral(associated)), "
          + "value: \(members.members.escapedProperty(target)).keyValue)")
    }
  }

  /// A reference held by the key: the key properties are the model's only copy of the FK, so
  /// `init` makes the reference from them, and it has no initializer parameter or setter (the
  /// key is immutable).
  private func holdByKey(_ parts: inout FieldParts, storage: String, components: [SwiftCode]) {
    parts.parameter = nil
    parts.setter = nil
    parts.identifierParameter = nil
    parts.identifierAssignment = nil
    parts.assignment = .call(
      "self.\(storage) = LazyReference(", [.labeledArray(label: "identifiers: ", elements: components)])
  }

  /// A `@hasOne` that finds its child by the child's `references:` fields also decodes the
  /// parent's key components; other references name their target names, whose values (the FK
  /// fields beside the nested object) keep a reference whose target came back `null` not loaded.
  private func referenceDecodeArguments(_ field: FieldDefinition, _ members: ModelMembers)
    -> [SwiftCode]
  {
    switch field.association {
    case .belongsTo(let association)? where !association.targetNames.isEmpty:
      return [SwiftLayout.stringArray(label: "targetNames: ", association.targetNames)]
    case .hasOne(let association)? where !association.targetNames.isEmpty:
      return [SwiftLayout.stringArray(label: "targetNames: ", association.targetNames)]
    default:
      break
    }
    guard case .hasOne(let association)? = field.association, association.targetNames.isEmpty
    else { return [] }
    return [
      SwiftLayout.stringArray(label: "associatedFields: ", association.relatedFields),
      .text("parent: \(members.parentKey)"),
    ]
  }

  /// `.belongsTo(…)` or `.hasOne(…)`.
  private func referenceSchemaEntry(
    _ field: FieldDefinition, related: String, _ members: ModelMembers, _ comma: String
  ) -> SwiftCode? {
    let head: [SwiftCode] = [
      .text("CodingKeys.\(members.members.key(field.name))"), presence(field),
      .text("\(related).self"),
    ]
    switch field.association {
    case .belongsTo(let association)?:
      let arguments = [
        SwiftLayout.stringArray(label: "targetNames: ", association.targetNames),
        SwiftLayout.stringArray(label: "associatedFields: ", association.associatedFields),
      ]
      return .call(".belongsTo(", head + arguments + fieldAuthArguments(field), trailing: comma)
    case .hasOne(let association)?:
      // SPEC §1: associated fields are the fields on the other side the association points at:
      // the child's key fields the target names hold, or its `references:` fields.
      let arguments = [
        SwiftLayout.stringArray(label: "associatedFields: ", association.relatedFields),
        SwiftLayout.stringArray(label: "targetNames: ", association.targetNames),
      ]
      return .call(".hasOne(", head + arguments + fieldAuthArguments(field), trailing: comma)
    default:
      return nil
    }
  }

  /// A `@hasMany` field: a `LazyList` property, `[Child]` parameter, `decodeLazyList`.
  func listParts(
    _ field: FieldDefinition, _ association: HasManyAssociation, _ members: ModelMembers,
    _ comma: String
  ) -> FieldParts {
    let property = members.members.escapedProperty(field.name)
    let reference = members.codingReference(field.name)
    let key = members.members.key(field.name)
    let related = types.typeName(association.relatedModel)
    var parts = FieldParts()
    parts.keyValueType = "LazyList<\(related)>" + (field.isRequired ? "" : "?")
    parts.associationKeyRelated = related
    parts.properties = [
      PropertyViewModel(
        modifiers: "\(access.rawValue) var", name: property, type: parts.keyValueType)
    ]
    parts.parameter = "\(property): [\(related)] = []"
    parts.assignment = .text("self.\(property) = LazyList(\(property))")
    // The provider orders the list by the index's sort key (as AppSync's index query does), even
    // when another index starts with the same fields.
    let index: [SwiftCode] =
      association.indexName.map {
        [.text("indexName: \(SwiftNames.stringLiteral($0))")]
      } ?? []
    let decodeArguments: [SwiftCode] = [
      .text("\(related).self"), .text("forKey: .\(key)"),
      SwiftLayout.stringArray(label: "associatedFields: ", association.foreignKeyFields),
    ]
    parts.decode = .call(
      "try values.decodeLazyList(",
      decodeArguments + index + [.text("parent: \(members.parentKey)"), "decoder: decoder"])
    parts.decodeTarget = members.members.propertyName(field.name)
    parts.decodesAssociation = true
    parts.encode = encodeStatement(reference, key: key, required: field.isRequired)
    let schemaArguments: [SwiftCode] = [
      .text("CodingKeys.\(key)"), presence(field), .text("\(related).self"),
      SwiftLayout.stringArray(label: "associatedFields: ", association.associatedFields),
    ]
    parts.schemaField = .call(
      ".hasMany(", schemaArguments + index + fieldAuthArguments(field), trailing: comma)
    return parts
  }

  /// `try container.encode(x, forKey: .x)` or `encodeIfPresent`.
  private func encodeStatement(_ reference: String, key: String, required: Bool) -> SwiftCode {
    .call(
      "try container.\(required ? "encode" : "encodeIfPresent")(",
      [.text(reference), .text("forKey: .\(key)")])
  }

  /// `.required` or `.optional`.
  private func presence(_ field: FieldDefinition) -> SwiftCode {
    .text(field.isRequired && !field.isFilledByService ? ".required" : ".optional")
  }
}

extension FieldDefinition {
  /// `true` for a `@hasOne` found through the child's `references:` fields (the child holds the
  /// FK; this model has no target names).
  fileprivate var isFoundThroughReferences: Bool {
    if case .hasOne(let association)? = association { return association.targetNames.isEmpty }
    return false
  }
}
