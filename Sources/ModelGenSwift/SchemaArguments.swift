import ModelGenIR

/// The parts of a model's `+Schema.swift` beyond its fields: the typed identifier, the indexes,
/// the auth rules, the resolved operation and timestamp names.
extension ViewModelBuilder {
  func identifierViewModel(_ model: ModelDefinition, _ members: ModelMembers)
    -> IdentifierViewModel
  {
    let keyFields = model.primaryKey.fields
    let keyDefinitions = keyFields.compactMap { name in members.fields.first { $0.name == name } }
    let components = keyDefinitions.map {
      SwiftCode.text(
        "IdentifierComponent(name: \(SwiftNames.stringLiteral($0.name)), value: \(members.identifierName($0.name)).keyValue)"
      )
    }
    let arguments = keyFields.map {
      SwiftCode.text(
        "\(members.identifierLabel($0)): \(members.members.escapedProperty($0))")
    }
    let fromComponents = keyDefinitions.map {
      SwiftCode.text(
        "\(members.identifierLabel($0.name)): components.required("
          + "\(types.swiftType($0.type)).self, named: \(SwiftNames.stringLiteral($0.name)))")
    }
    var identifier = IdentifierViewModel(
      properties: keyDefinitions.map {
        IdentifierViewModel.Property(
          name: members.identifierName($0.name), type: types.swiftType($0.type))
      },
      parameters: .parameters(
        keyDefinitions.map { "\(members.identifierName($0.name)): \(types.swiftType($0.type))" }),
      components: .array(components),
      expression: .call("Identifier(", arguments))
    identifier.fromComponents = .call("try self.init(", fromComponents)
    return identifier
  }

  /// `.index("byPost", fields: ["postID"], queryField: "commentsByPostID")`, the query field as
  /// the naming stage resolved it for the API schema too; `hasQueryField: false` for an index
  /// declared with `queryField: null`.
  func indexEntries(_ model: ModelDefinition) -> [SwiftCode] {
    let names = names.names(of: model)
    let comma = Self.elementComma(count: model.indexes.count)
    return model.indexes.map { index in
      .call(
        ".index(",
        [
          .text(SwiftNames.stringLiteral(index.name)),
          SwiftLayout.stringArray(label: "fields: ", index.fields),
          .text(
            names.queryField(of: index).map { "queryField: \(SwiftNames.stringLiteral($0))" }
              ?? "hasQueryField: false"),
        ], trailing: comma)
    }
  }

  /// The `authRules: [...]` argument of a `ModelSchema.fields` entry for the field's field-level
  /// `@auth` rules (as written), or nothing when it has none.
  func fieldAuthArguments(_ field: FieldDefinition) -> [SwiftCode] {
    guard !field.authRules.isEmpty else { return [] }
    return [
      .labeledArray(
        label: "authRules: ", elements: field.authRules.map { authRuleExpression($0) })
    ]
  }

  /// `AuthRule(allow: .owner, ownerField: "owner", operations: [.create, .read])` with the
  /// options that were written, in `AuthRule.init` order, followed by `trailing`.
  func authRuleExpression(_ rule: AuthRuleDefinition, trailing: String = "") -> SwiftCode {
    var arguments = ["allow: .\(rule.allow.rawValue)"]
    if let provider = rule.provider { arguments.append("provider: .\(provider.rawValue)") }
    let strings: [(String, String?)] = [
      ("ownerField", rule.ownerField), ("identityClaim", rule.identityClaim),
      ("groupClaim", rule.groupClaim),
    ]
    arguments += strings.compactMap { label, value in
      value.map { "\(label): \(SwiftNames.stringLiteral($0))" }
    }
    if let groups = rule.groups { arguments.append("groups: \(SwiftLayout.stringArray(groups))") }
    if let field = rule.groupsField {
      arguments.append("groupsField: \(SwiftNames.stringLiteral(field))")
    }
    if let operations = rule.operations {
      arguments.append(
        "operations: [" + operations.map { ".\($0.rawValue)" }.joined(separator: ", ") + "]")
    }
    return .call("AuthRule(", arguments.map(SwiftCode.text), trailing: trailing)
  }

  /// `operations: ModelOperationNames(get: "getPost", …),`: the root field names the naming stage
  /// resolved for `model` (the API schema declares the same), `nil` for a disabled operation.
  func operationNamesExpression(_ model: ModelDefinition) -> SwiftCode {
    let operations = names.names(of: model).operations
    let names: [(String, String?)] = [
      ("get", operations.get), ("list", operations.list), ("create", operations.create),
      ("update", operations.update), ("delete", operations.delete),
      ("onCreate", operations.onCreate), ("onUpdate", operations.onUpdate),
      ("onDelete", operations.onDelete),
    ]
    return .call(
      "operations: ModelOperationNames(",
      names.map { .text("\($0.0): \(Self.optionalStringLiteral($0.1))") }, trailing: ",")
  }

  /// `timestamps: ModelTimestampFields(createdAt: "createdAt", updatedAt: "updatedAt")`.
  func timestampsExpression(_ model: ModelDefinition) -> SwiftCode {
    .call(
      "timestamps: ModelTimestampFields(",
      [
        .text("createdAt: \(Self.optionalStringLiteral(model.timestamps.createdAt))"),
        .text("updatedAt: \(Self.optionalStringLiteral(model.timestamps.updatedAt))"),
      ], trailing: tailArguments(model).isEmpty ? "" : ",")
  }

  /// The `ModelSchema` arguments after `timestamps:`, each but the last followed by `,`:
  /// `syncPluralName: "Posts"` with a conflict-resolution strategy, `subscriptionLevel: .public`
  /// for a level other than `on`, and `protectedFields: ["secret"]` for a model with field-level
  /// `@auth` rules (`[]` when none of its fields is protected), so the runtime follows the schema
  /// rather than recomputing the transformer's rule.
  func tailArguments(_ model: ModelDefinition) -> [String] {
    var arguments: [String] = []
    if let sync = syncPluralNameArgument(model) { arguments.append(sync) }
    if model.subscriptionLevel != .on { arguments.append("subscriptionLevel: .\(model.subscriptionLevel.rawValue)") }
    if model.fields.contains(where: { !$0.authRules.isEmpty }) {
      arguments.append("protectedFields: \(SwiftLayout.stringArray(model.protectedFields))")
    }
    return arguments.enumerated().map { $0.offset == arguments.count - 1 ? $0.element : $0.element + "," }
  }

  /// `syncPluralName: "Posts"` when the graph has a conflict-resolution strategy (the API schema
  /// then has `sync<PluralName>`), else `nil`.
  func syncPluralNameArgument(_ model: ModelDefinition) -> String? {
    guard graph.conflictResolution != nil else { return nil }
    return "syncPluralName: \(SwiftNames.stringLiteral(String(APINames.syncQuery(model).dropFirst("sync".count))))"
  }

  /// A string literal, or `nil`.
  static func optionalStringLiteral(_ value: String?) -> String {
    value.map(SwiftNames.stringLiteral) ?? "nil"
  }
}
