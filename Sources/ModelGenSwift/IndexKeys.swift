import ModelGenIR

/// The typed index keys of a model (`Book.indexes.byIsbn`): one `ModelIndexKey<Model,
/// PartitionKey, SortKey>` per `@index` that has a query field (the API's index queries read
/// through it), typed by the Swift types of its key fields, so an index query type-checks its
/// partition key value and sort key condition.
///
/// `SortKey` is `ModelNoSortKey` without sort key fields, the field's Swift type for one, and a
/// generated `ModelCompositeSortKey` struct (`<IndexName>SortKey`, fields in index order, the
/// first required, the others optional) for several, as the transformer's
/// `Model<Name><Index>CompositeKeyInput` takes a leading run of them. An index whose name is not
/// a Swift identifier, or whose key fields the model does not declare, gets no typed key (the
/// API's `uncheckedIndex:` queries still reach it).
extension ViewModelBuilder {
  func indexKeys(_ model: ModelDefinition, _ members: ModelMembers) -> [IndexKeyViewModel] {
    // Each typed index with the Swift types of its fields (partition key first).
    let typed: [(index: IndexDefinition, fieldTypes: [String])] = model.indexes.compactMap { index in
      guard index.hasQueryField, SwiftNames.isSwiftIdentifier(index.name) else { return nil }
      let fields = index.fields.compactMap { model.field(named: $0) }
      guard fields.count == index.fields.count else { return nil }
      return (index, fields.map { types.swiftType($0.type) })
    }
    let structNames = SwiftNames.uniqued(
      typed.map { SwiftNames.upperFirst($0.index.name) + "SortKey" })
    return zip(typed, structNames).map { entry, structName in
      let (index, fieldTypes) = entry
      let sortKeyFields = Array(index.fields.dropFirst())
      var composite: CompositeSortKeyViewModel?
      let sortKeyType: String
      switch sortKeyFields.count {
      case 0: sortKeyType = "ModelNoSortKey"
      case 1: sortKeyType = fieldTypes[1]
      default:
        sortKeyType = structName
        composite = compositeSortKey(
          index, named: structName, types: Array(fieldTypes.dropFirst()), members)
      }
      let declaration = SwiftCode.call(
        "\(access.rawValue) static let \(SwiftNames.escaped(index.name)) = "
          + "ModelIndexKey<\(types.typeName(model.name)), \(fieldTypes[0]), \(sortKeyType)>(",
        [
          .text(SwiftNames.stringLiteral(index.name)),
          SwiftLayout.stringArray(label: "fields: ", index.fields),
        ])
      return IndexKeyViewModel(declaration: declaration, compositeSortKey: composite)
    }
  }

  private func compositeSortKey(
    _ index: IndexDefinition, named name: String, types fieldTypes: [String], _ members: ModelMembers
  ) -> CompositeSortKeyViewModel {
    let fields = Array(index.fields.dropFirst())
    // The protocol's own member keeps its name: a sort key field named like it is renamed.
    let names = SwiftNames.uniqued(
      fields.map { members.members.propertyName($0) }, taken: ["sortKeyValues"])
    let properties = zip(names, fieldTypes).enumerated().map { position, pair in
      PropertyViewModel(
        modifiers: "\(access.rawValue) var", name: SwiftNames.escaped(pair.0),
        type: pair.1 + (position == 0 ? "" : "?"))
    }
    let parameters = properties.enumerated().map { position, property in
      "\(property.name): \(property.type)" + (position == 0 ? "" : " = nil")
    }
    let values = properties.enumerated().map { position, property in
      SwiftCode.text("\(property.name)\(position == 0 ? "" : "?").keyValue")
    }
    return CompositeSortKeyViewModel(
      indexName: SwiftNames.commentText(index.name), name: name, properties: properties,
      parameters: .parameters(parameters), values: .array(values))
  }
}
