import ModelGenIR

/// The typed index keys of a model (`Book.indexes.byIsbn`): one `ModelIndexKey<Model,
/// PartitionKey, SortKey>` per `@index` that has a query field (the API's index queries read
/// through it), typed by the Swift types of its key fields, so an index query type-checks its
/// partition key value and sort key condition.
///
/// `SortKey` is `ModelNoSortKey` without sort key fields, the field's Swift type for one, and a
/// generated `ModelCompositeSortKey` struct (`<IndexName>SortKey`, fields in index order, the
/// first required, the others optional) for several, as the transformer's
/// `Model<Name><Index>CompositeKeyInput` takes a leading run of them. The member and struct names
/// come from the safe-name pass (`SwiftIndexKeyNames`, resolved and reported as MGW003 by the
/// analysis), so any index name gets a typed key (`by-post` → `indexes.byPost`); an index whose
/// key fields the model does not declare gets none (the API's `uncheckedIndex:` queries still
/// reach it).
extension ViewModelBuilder {
  func indexKeys(_ model: ModelDefinition, _ members: ModelMembers) -> [IndexKeyViewModel] {
    let indexes = SwiftIndexKeyNames.typedIndexes(of: model)
    // The analysis's names when resolved from these indexes, else resolved here the same way.
    let names =
      graph.memberNames[model.name]?.indexKeys.flatMap {
        Set($0.memberNames.keys) == Set(indexes.map(\.name)) ? $0 : nil
      } ?? SwiftIndexKeyNames(indexes: indexes, typeNames: Set(types.names.swiftTypeNames.values))
    return indexes.map { index in
      let fieldTypes = index.fields.compactMap { model.field(named: $0) }.map { types.swiftType($0.type) }
      let sortKeyFields = Array(index.fields.dropFirst())
      var composite: CompositeSortKeyViewModel?
      let sortKeyType: String
      switch sortKeyFields.count {
      case 0: sortKeyType = "ModelNoSortKey"
      case 1: sortKeyType = fieldTypes[1]
      default:
        let structName = names.sortKeyTypeNames[index.name] ?? SwiftNames.upperFirst(index.name) + "SortKey"
        sortKeyType = structName
        composite = compositeSortKey(
          index, named: structName, types: Array(fieldTypes.dropFirst()), members)
      }
      let member = names.memberNames[index.name] ?? SwiftNames.indexKeyName(index.name)
      let declaration = SwiftCode.call(
        "\(access.rawValue) static let \(SwiftNames.escaped(member)) = "
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
