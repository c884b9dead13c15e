/// Builds the view models of one ``ModelGraph``: the rendering stage's only decision maker.
///
/// Pure: the same graph and options always give the same view models. Names pass through
/// ``SwiftNames``; long statements are laid out by ``SwiftLayout`` for the indentation at which the
/// default templates place them (declarations at 2, statements at 4, schema entries at 6 columns).
public struct ViewModelBuilder: Sendable {
  /// The graph to render.
  public let graph: ModelGraph
  /// The access level of every generated declaration.
  public let access: AccessLevel

  private let swiftTypeNames: [String: String]

  /// Creates a builder for `graph`.
  public init(graph: ModelGraph, access: AccessLevel = .public) {
    self.graph = graph
    self.access = access
    var names: [String: String] = [:]
    let graphQLNames =
      graph.models.map(\.name) + graph.enums.map(\.name) + graph.nonModels.map(\.name)
    let swiftNames = SwiftNames.uniqued(
      graphQLNames.map(SwiftNames.typeName), taken: [Self.registryName])
    for (graphQLName, swiftName) in zip(graphQLNames, swiftNames) { names[graphQLName] = swiftName }
    swiftTypeNames = names
  }

  /// The registry enum's name in every generated module (`Models.registry`); a GraphQL type named
  /// `Models` gets a numeric suffix instead (`Models2`).
  public static let registryName = "Models"

  /// Every view model of the graph.
  public func build() -> SchemaViewModel {
    let models = graph.models.map(modelViewModel)
    let registry: RegistryViewModel? =
      graph.models.isEmpty
      ? nil
      : RegistryViewModel(
        sourceFileName: SwiftNames.commentText(graph.sourceFileName), access: access.rawValue, typeName: Self.registryName,
        models: graph.models.map(\.name).sorted().map {
          SwiftNames.escaped(swiftTypeName($0)) + ".self"
        }
        .enumerated().map { $0.element + (graph.models.count > 1 ? "," : "") })
    return SchemaViewModel(
      models: models, enums: graph.enums.map(enumViewModel),
      embedded: graph.nonModels.map(embeddedViewModel),
      registry: registry)
  }

  // MARK: Types

  /// The unescaped Swift name of the GraphQL type `name`.
  func swiftTypeName(_ name: String) -> String {
    swiftTypeNames[name] ?? SwiftNames.typeName(name)
  }

  /// The Swift type of a field without its outer optionality (`[Label?]`, `Temporal.DateTime`).
  func swiftType(_ type: FieldType) -> String {
    switch type {
    case .scalar(let scalar): return Self.swiftScalar(scalar)
    case .enumeration(let name), .embedded(let name), .model(let name):
      return SwiftNames.escaped(swiftTypeName(name))
    case .list(let element, let elementRequired):
      return "[" + swiftType(element) + (elementRequired ? "" : "?") + "]"
    }
  }

  /// The Swift type of a field, optional when the field is nullable or read-only.
  func swiftType(of field: FieldDefinition) -> String {
    swiftType(field.type) + (field.isRequired && !field.isReadOnly ? "" : "?")
  }

  /// SPEC §3 scalar mapping.
  static func swiftScalar(_ scalar: ScalarType) -> String {
    switch scalar {
    case .id, .string, .awsEmail, .awsJSON, .awsURL, .awsPhone, .awsIPAddress: return "String"
    case .int, .awsTimestamp: return "Int"
    case .float: return "Double"
    case .boolean: return "Bool"
    case .awsDate: return "Temporal.Date"
    case .awsTime: return "Temporal.Time"
    case .awsDateTime: return "Temporal.DateTime"
    }
  }

  /// The `ModelFieldType` DSL expression of a type.
  func fieldTypeExpression(_ type: FieldType) -> String {
    switch type {
    case .scalar(.id): return ".id"
    case .scalar(.string): return ".string"
    case .scalar(.int): return ".int"
    case .scalar(.float): return ".double"
    case .scalar(.boolean): return ".bool"
    case .scalar(let scalar): return ".scalar(.\(Self.scalarCase(scalar)))"
    case .enumeration(let name): return ".enumeration(\(SwiftNames.stringLiteral(name)))"
    case .embedded(let name): return ".embedded(\(SwiftNames.escaped(swiftTypeName(name))).self)"
    case .model(let name): return ".model(\(SwiftNames.escaped(swiftTypeName(name))).self)"
    case .list(let element, let required):
      return ".list(\(fieldTypeExpression(element)), elementRequired: \(required))"
    }
  }

  /// The `GraphQLScalar` case name of `scalar` in `LazyModel`.
  static func scalarCase(_ scalar: ScalarType) -> String {
    switch scalar {
    case .id: return "id"
    case .string: return "string"
    case .int: return "int"
    case .float: return "float"
    case .boolean: return "boolean"
    case .awsDate: return "awsDate"
    case .awsTime: return "awsTime"
    case .awsDateTime: return "awsDateTime"
    case .awsTimestamp: return "awsTimestamp"
    case .awsEmail: return "awsEmail"
    case .awsJSON: return "awsJSON"
    case .awsURL: return "awsURL"
    case .awsPhone: return "awsPhone"
    case .awsIPAddress: return "awsIPAddress"
    }
  }

  // MARK: Members

  /// The Swift members of one type's fields: property names (unescaped, unique) and coding-key case
  /// names, by GraphQL field name.
  struct Members {
    var property: [String: String] = [:]
    var codingKey: [String: String] = [:]
    private var escapedProperties: [String: String] = [:]
    private var escapedKeys: [String: String] = [:]
    private var labels: [String: String] = [:]

    init(fields: [FieldDefinition], reserved: Set<String>) {
      let names = SwiftNames.uniqued(
        fields.map { SwiftNames.propertyName($0.name) }, taken: reserved)
      for (field, name) in zip(fields, names) {
        let key = SwiftNames.codingKeyCase(forProperty: name)
        property[field.name] = name
        codingKey[field.name] = key
        escapedProperties[field.name] = SwiftNames.escaped(name)
        escapedKeys[field.name] = SwiftNames.escaped(key)
        labels[field.name] = SwiftNames.argumentLabel(name)
      }
    }

    func escapedProperty(_ field: String) -> String {
      escapedProperties[field] ?? SwiftNames.escaped(field)
    }
    func key(_ field: String) -> String { escapedKeys[field] ?? SwiftNames.escaped(field) }
    func label(_ field: String) -> String { labels[field] ?? SwiftNames.argumentLabel(field) }
  }

  /// `case id` or `` case `default` `` or `case selfValue = "self"`.
  static func codingKeyDeclaration(graphQLName: String, caseName: String) -> String {
    let declared = "case \(SwiftNames.escaped(caseName))"
    return caseName == graphQLName
      ? declared : declared + " = \(SwiftNames.stringLiteral(graphQLName))"
  }

  /// The default-argument clause of an initializer parameter.
  func defaultClause(for field: FieldDefinition, isKey: Bool) -> String {
    if let value = field.defaultValue {
      switch value {
      case .string(let text):
        switch field.type.scalar {
        case .awsDate?, .awsTime?, .awsDateTime?:
          return
            " = try! \(Self.swiftScalar(field.type.scalar ?? .string))(iso8601String: \(SwiftNames.stringLiteral(text)))"
        default:
          return " = \(SwiftNames.stringLiteral(text))"
        }
      case .int(let number):
        return field.type.scalar == .float ? " = \(Double(number))" : " = \(number)"
      case .float(let number): return " = \(number)"
      case .boolean(let flag): return " = \(flag)"
      case .enumValue(let name): return " = .\(SwiftNames.escaped(SwiftNames.caseName(name)))"
      }
    }
    if isKey, field.name == "id", field.type == .scalar(.id) || field.type == .scalar(.string),
      field.isRequired
    {
      return " = UUID().uuidString"
    }
    return field.isRequired && !field.isReadOnly ? "" : " = nil"
  }

  // MARK: Models

  func modelViewModel(_ model: ModelDefinition) -> ModelViewModel {
    let access = access.rawValue
    let typeName = SwiftNames.escaped(swiftTypeName(model.name))
    let rendered = model.fields.filter { $0.association != nil || $0.isStoredProperty }
    let members = Members(fields: rendered, reserved: [])
    let keyFields = model.primaryKey.fields
    var stored: [PropertyViewModel] = []
    var accessors: [LazyAccessorViewModel] = []
    var parameters: [String] = []
    var assignments: [String] = []
    var setters: [SetterViewModel] = []
    var dataDecodes: [String] = []
    var associationDecodes: [String] = []
    var encodes: [String] = []
    var codingKeys: [String] = []
    var schemaFields: [String] = []
    let fieldComma = rendered.count > 1 ? "," : ""

    // Lazy lists and `@hasOne(references:)` need the parent's key components while decoding; they
    // are computed once into a local whose name no property uses.
    let parentKey = SwiftNames.uniqued(["parentKey"], taken: Set(members.property.values))[0]
    let needsParentKey = rendered.contains { field in
      switch field.association {
      case .hasMany?: return true
      case .hasOne(let association)?: return association.targetNames.isEmpty
      default: return false
      }
    }
    let parentComponents = parentKey
    // `init(from:)` and `encode(to:)` declare these locals; a property with one of their names is
    // referred to through `self.` there.
    let locals: Set<String> = ["values", "decoder", "container", "encoder", parentKey]
    func codingReference(_ field: String) -> String {
      let escaped = members.escapedProperty(field)
      return locals.contains(members.property[field] ?? field) ? "self.\(escaped)" : escaped
    }
    let setterNames = SwiftNames.uniqued(
      rendered.map { "set" + SwiftNames.upperFirst(members.property[$0.name] ?? $0.name) },
      taken: Set(members.property.values))
    // `postReference`: the public accessor of a reference's storage, unique among properties and
    // setters.
    let referenceNames = SwiftNames.uniqued(
      rendered.map { (members.property[$0.name] ?? $0.name) + "Reference" },
      taken: Set(members.property.values).union(setterNames))

    for (offset, field) in rendered.enumerated() {
      let property = members.escapedProperty(field.name)
      let reference = codingReference(field.name)
      let key = members.key(field.name)
      let presence = field.isRequired ? ".required" : ".optional"
      codingKeys.append(
        Self.codingKeyDeclaration(
          graphQLName: field.name, caseName: members.codingKey[field.name] ?? field.name))
      switch field.association {
      case nil:
        let type = swiftType(of: field)
        let isKey = keyFields.contains(field.name)
        let modifier =
          isKey
          ? "\(access) let"
          : field.isReadOnly ? "\(self.access.readOnlyModifier) var" : "\(access) var"
        stored.append(PropertyViewModel(declaration: "\(modifier) \(property): \(type)"))
        if !field.isReadOnly {
          parameters.append("\(property): \(type)\(defaultClause(for: field, isKey: isKey))")
          assignments.append("self.\(property) = \(property)")
        }
        let required = field.isRequired && !field.isReadOnly
        dataDecodes.append(
          SwiftLayout.call(
            "\(reference) = try values.\(required ? "decode" : "decodeIfPresent")(",
            ["\(swiftType(field.type)).self", "forKey: .\(key)"], indent: 4))
        encodes.append(
          SwiftLayout.call(
            "try container.\(required ? "encode" : "encodeIfPresent")(",
            [reference, "forKey: .\(key)"], indent: 4))
        var arguments = ["keys.\(key)", presence, fieldTypeExpression(field.type)]
        if field.isReadOnly { arguments.append("readOnly: true") }
        arguments += fieldAuthArguments(field)
        schemaFields.append(SwiftLayout.call(".field(", arguments, trailing: fieldComma, indent: 6))

      case .belongsTo(let association)?:
        let related = SwiftNames.escaped(swiftTypeName(association.relatedModel))
        appendReference(
          field: field, related: related, property: property, key: key, storage: offset,
          members: members, setterName: setterNames[offset],
          referenceName: referenceNames[offset], extraDecodeArguments: [],
          stored: &stored, accessors: &accessors, parameters: &parameters,
          assignments: &assignments,
          setters: &setters, decodes: &associationDecodes, encodes: &encodes)
        schemaFields.append(
          SwiftLayout.call(
            ".belongsTo(",
            [
              "keys.\(key)", presence, "\(related).self",
              "targetNames: \(SwiftLayout.stringArray(association.targetNames))",
              "associatedFields: \(SwiftLayout.stringArray(association.associatedFields))",
            ] + fieldAuthArguments(field), trailing: fieldComma, indent: 6))

      case .hasOne(let association)?:
        let related = SwiftNames.escaped(swiftTypeName(association.relatedModel))
        let extra =
          association.targetNames.isEmpty
          ? [
            "associatedFields: \(SwiftLayout.stringArray(association.relatedFields))",
            "parent: \(parentComponents)",
          ]
          : []
        appendReference(
          field: field, related: related, property: property, key: key, storage: offset,
          members: members, setterName: setterNames[offset],
          referenceName: referenceNames[offset], extraDecodeArguments: extra,
          stored: &stored, accessors: &accessors, parameters: &parameters,
          assignments: &assignments,
          setters: &setters, decodes: &associationDecodes, encodes: &encodes)
        schemaFields.append(
          SwiftLayout.call(
            ".hasOne(",
            [
              "keys.\(key)", presence, "\(related).self",
              // SPEC §1: associated fields are the fields on the other side the association points
              // at: the child's key fields the target names hold, or its `references:` fields.
              "associatedFields: \(SwiftLayout.stringArray(association.relatedFields))",
              "targetNames: \(SwiftLayout.stringArray(association.targetNames))",
            ] + fieldAuthArguments(field), trailing: fieldComma, indent: 6))

      case .hasMany(let association)?:
        let related = SwiftNames.escaped(swiftTypeName(association.relatedModel))
        let listType = "LazyList<\(related)>" + (field.isRequired ? "" : "?")
        stored.append(PropertyViewModel(declaration: "\(access) var \(property): \(listType)"))
        parameters.append("\(property): [\(related)] = []")
        assignments.append("self.\(property) = LazyList(\(property))")
        var listDecodeArguments = [
          "\(related).self", "forKey: .\(key)",
          "associatedFields: \(SwiftLayout.stringArray(association.foreignKeyFields))",
        ]
        if let indexName = association.indexName {
          // The provider orders the list by this index's sort key (as AppSync's index query does),
          // even when another index starts with the same fields.
          listDecodeArguments.append("indexName: \(SwiftNames.stringLiteral(indexName))")
        }
        associationDecodes.append(
          SwiftLayout.call(
            "\(reference) = try values.decodeLazyList(",
            listDecodeArguments + ["parent: \(parentComponents)", "decoder: decoder"], indent: 4))
        encodes.append(
          SwiftLayout.call(
            "try container.\(field.isRequired ? "encode" : "encodeIfPresent")(",
            [reference, "forKey: .\(key)"],
            indent: 4))
        var arguments = [
          "keys.\(key)", presence, "\(related).self",
          "associatedFields: \(SwiftLayout.stringArray(association.associatedFields))",
        ]
        if let indexName = association.indexName {
          arguments.append("indexName: \(SwiftNames.stringLiteral(indexName))")
        }
        arguments += fieldAuthArguments(field)
        schemaFields.append(
          SwiftLayout.call(".hasMany(", arguments, trailing: fieldComma, indent: 6))
      }
    }

    let keyDefinitions = keyFields.compactMap { name in rendered.first { $0.name == name } }
    // The identifier's own members: the key properties, renamed where they would collide with its
    // `components` property.
    let identifierNames = Dictionary(
      uniqueKeysWithValues: zip(
        keyFields,
        SwiftNames.uniqued(
          keyFields.map { members.property[$0] ?? $0 }.map {
            $0 == "components" ? "componentsValue" : $0
          },
          taken: ["components"])))
    func identifierName(_ field: String) -> String {
      SwiftNames.escaped(identifierNames[field] ?? field)
    }
    func identifierLabel(_ field: String) -> String {
      SwiftNames.argumentLabel(identifierNames[field] ?? field)
    }
    let identifierArguments = keyFields.map {
      "\(identifierLabel($0)): \(members.escapedProperty($0))"
    }
    if needsParentKey {
      associationDecodes.insert(
        SwiftLayout.call(
          "let \(parentKey) = Identifier(",
          keyFields.map { "\(identifierLabel($0)): \(codingReference($0))" },
          close: ").components", indent: 4),
        at: 0)
    }
    let identifier = IdentifierViewModel(
      properties: keyDefinitions.map {
        IdentifierViewModel.Property(name: identifierName($0.name), type: swiftType($0.type))
      },
      parameters: SwiftLayout.parameterList(
        keyDefinitions.map { "\(identifierName($0.name)): \(swiftType($0.type))" },
        head: "\(access) init(", tail: ") {", indent: 4),
      components: SwiftLayout.arrayLiteral(
        keyDefinitions.map {
          "IdentifierComponent(name: \(SwiftNames.stringLiteral($0.name)), value: \(identifierName($0.name)).keyValue)"
        }, indent: 6),
      expression: SwiftLayout.call("Identifier(", identifierArguments, indent: 4))

    return ModelViewModel(
      sourceFileName: SwiftNames.commentText(graph.sourceFileName), access: access, typeName: typeName,
      fileStem: swiftTypeName(model.name),
      storedProperties: stored, lazyAccessors: accessors,
      initParameters: parameters.enumerated().map {
        ParameterViewModel(
          declaration: $0.element, separator: $0.offset == parameters.count - 1 ? "" : ",")
      },
      initAssignments: assignments, setters: setters,
      decodeStatements: dataDecodes + associationDecodes,
      encodeStatements: encodes, codingKeys: codingKeys, identifier: identifier,
      nameLiteral: SwiftNames.stringLiteral(model.name),
      pluralNameLiteral: SwiftNames.stringLiteral(model.pluralName),
      primaryKey: SwiftLayout.arrayLiteral(
        keyFields.map { "keys.\(members.key($0))" }, prefix: "primaryKey: ,", indent: 4),
      schemaFields: schemaFields,
      indexes: model.indexes.map { index in
        var arguments = [
          SwiftNames.stringLiteral(index.name), "fields: \(SwiftLayout.stringArray(index.fields))",
        ]
        // The resolved query field, by the function the API schema emitter names it with.
        let queryField = APISchemaNames.indexQuery(index, of: model)
        arguments.append("queryField: \(SwiftNames.stringLiteral(queryField))")
        return SwiftLayout.call(
          ".index(", arguments, trailing: model.indexes.count > 1 ? "," : "", indent: 6)
      },
      authRules: model.authRules.map {
        authRuleExpression($0, comma: model.authRules.count > 1 ? "," : "")
      },
      operations: operationNamesExpression(model),
      timestamps: SwiftLayout.call(
        "timestamps: ModelTimestampFields(",
        [
          "createdAt: \(optionalStringLiteral(model.timestamps.createdAt))",
          "updatedAt: \(optionalStringLiteral(model.timestamps.updatedAt))",
        ], indent: 4))
  }

  /// `operations: ModelOperationNames(get: "getPost", …),`: the root field names the API schema
  /// emitter declares for `model` (``APIOperations``, the one place they are resolved), `nil` for
  /// a disabled operation.
  private func operationNamesExpression(_ model: ModelDefinition) -> String {
    let operations = APIOperations(model: model)
    let names: [(String, String?)] = [
      ("get", operations.get), ("list", operations.list), ("create", operations.create),
      ("update", operations.update), ("delete", operations.delete),
      ("onCreate", operations.onCreate), ("onUpdate", operations.onUpdate),
      ("onDelete", operations.onDelete),
    ]
    return SwiftLayout.call(
      "operations: ModelOperationNames(",
      names.map { "\($0.0): \(optionalStringLiteral($0.1))" }, trailing: ",", indent: 4)
  }

  /// A string literal, or `nil`.
  private func optionalStringLiteral(_ value: String?) -> String {
    value.map(SwiftNames.stringLiteral) ?? "nil"
  }

  /// Adds the parts of a `@belongsTo`/`@hasOne` field: `_name` storage, async accessor, init
  /// parameter, setter, decode and encode statements.
  private func appendReference(
    field: FieldDefinition, related: String, property: String, key: String, storage offset: Int,
    members: Members, setterName: String, referenceName: String, extraDecodeArguments: [String],
    stored: inout [PropertyViewModel], accessors: inout [LazyAccessorViewModel],
    parameters: inout [String],
    assignments: inout [String], setters: inout [SetterViewModel], decodes: inout [String],
    encodes: inout [String]
  ) {
    // `_post`, unless a field of the model is itself named `_post`.
    let storageName = SwiftNames.uniqued(
      ["_" + (members.property[field.name] ?? field.name)], taken: Set(members.property.values))[0]
    let type = related + (field.isRequired ? "" : "?")
    stored.append(
      PropertyViewModel(declaration: "internal var \(storageName): LazyReference<\(related)>"))
    accessors.append(
      LazyAccessorViewModel(
        name: property, type: type, storageName: storageName,
        loadMethod: field.isRequired ? "require" : "get",
        referenceName: SwiftNames.escaped(referenceName), relatedType: related))
    parameters.append("\(property): \(type)" + (field.isRequired ? "" : " = nil"))
    assignments.append("self.\(storageName) = LazyReference(\(property))")
    setters.append(
      SetterViewModel(name: setterName, parameter: property, type: type, storageName: storageName))
    decodes.append(
      SwiftLayout.call(
        "\(storageName) = try values.decodeLazyReference(",
        ["\(related).self", "forKey: .\(key)"] + extraDecodeArguments + ["decoder: decoder"],
        indent: 4))
    encodes.append(
      SwiftLayout.call("try container.encode(", [storageName, "forKey: .\(key)"], indent: 4))
  }

  /// The `authRules: [...]` argument of a `ModelSchema.fields` entry for the field's field-level
  /// `@auth` rules (as written), or nothing when it has none. The array breaks one rule per line
  /// when it does not fit after the field's other arguments.
  func fieldAuthArguments(_ field: FieldDefinition) -> [String] {
    guard !field.authRules.isEmpty else { return [] }
    let rules = field.authRules.map { authRuleExpression($0, comma: "", indent: 10) }
    return ["authRules: " + SwiftLayout.arrayLiteral(rules, prefix: "authRules: ", indent: 8)]
  }

  /// `AuthRule(allow: .owner, ownerField: "owner", operations: [.create, .read])` with the
  /// options that were written, in `AuthRule.init` order, followed by `comma`, for a line that
  /// starts at column `indent`.
  func authRuleExpression(_ rule: AuthRuleDefinition, comma: String, indent: Int = 6) -> String {
    var arguments = ["allow: .\(rule.allow.rawValue)"]
    if let provider = rule.provider { arguments.append("provider: .\(provider.rawValue)") }
    if let ownerField = rule.ownerField {
      arguments.append("ownerField: \(SwiftNames.stringLiteral(ownerField))")
    }
    if let claim = rule.identityClaim {
      arguments.append("identityClaim: \(SwiftNames.stringLiteral(claim))")
    }
    if let claim = rule.groupClaim {
      arguments.append("groupClaim: \(SwiftNames.stringLiteral(claim))")
    }
    if let groups = rule.groups { arguments.append("groups: \(SwiftLayout.stringArray(groups))") }
    if let field = rule.groupsField {
      arguments.append("groupsField: \(SwiftNames.stringLiteral(field))")
    }
    if let operations = rule.operations {
      arguments.append(
        "operations: [" + operations.map { ".\($0.rawValue)" }.joined(separator: ", ") + "]")
    }
    return SwiftLayout.call("AuthRule(", arguments, trailing: comma, indent: indent)
  }

  // MARK: Enums and non-model types

  func enumViewModel(_ definition: EnumDefinition) -> EnumViewModel {
    let names = SwiftNames.uniqued(definition.values.map { SwiftNames.caseName($0.name) })
    return EnumViewModel(
      sourceFileName: SwiftNames.commentText(graph.sourceFileName), access: access.rawValue,
      typeName: SwiftNames.escaped(swiftTypeName(definition.name)),
      fileStem: swiftTypeName(definition.name),
      cases: zip(definition.values, names).map {
        EnumViewModel.Case(
          name: SwiftNames.escaped($1), rawValue: SwiftNames.stringLiteral($0.name))
      })
  }

  func embeddedViewModel(_ definition: NonModelDefinition) -> EmbeddedViewModel {
    let access = access.rawValue
    let members = Members(fields: definition.fields, reserved: [])
    let parameters = definition.fields.map {
      "\(members.escapedProperty($0.name)): \(swiftType(of: $0))\(defaultClause(for: $0, isKey: false))"
    }
    return EmbeddedViewModel(
      sourceFileName: SwiftNames.commentText(graph.sourceFileName), access: access,
      typeName: SwiftNames.escaped(swiftTypeName(definition.name)),
      fileStem: swiftTypeName(definition.name),
      storedProperties: definition.fields.map {
        PropertyViewModel(
          declaration: "\(access) var \(members.escapedProperty($0.name)): \(swiftType(of: $0))")
      },
      initParameters: parameters.enumerated().map {
        ParameterViewModel(
          declaration: $0.element, separator: $0.offset == parameters.count - 1 ? "" : ",")
      },
      initAssignments: definition.fields.map {
        "self.\(members.escapedProperty($0.name)) = \(members.escapedProperty($0.name))"
      },
      codingKeys: definition.fields.map {
        Self.codingKeyDeclaration(
          graphQLName: $0.name, caseName: members.codingKey[$0.name] ?? $0.name)
      },
      nameLiteral: SwiftNames.stringLiteral(definition.name),
      schemaFields: definition.fields.map { field in
        SwiftLayout.call(
          ".field(",
          [
            "keys.\(members.key(field.name))", field.isRequired ? ".required" : ".optional",
            fieldTypeExpression(field.type),
          ],
          trailing: definition.fields.count > 1 ? "," : "", indent: 6)
      })
  }
}
