import GraphQLSDL

/// `@model(queries:, mutations:, subscriptions:, timestamps:)`: builds the working models, the
/// non-model types and the enums (Amplify GraphQL Transformer v2, "@model" reference):
///
/// - declared fields keep their order; a model with neither `@primaryKey` nor an `id` field gets
///   `id: ID!` inserted first;
/// - `createdAt`/`updatedAt: AWSDateTime` read-only fields are appended unless `timestamps: null`;
///   `timestamps: {createdAt: "createdOn", updatedAt: null}` renames or removes one (an omitted entry
///   keeps its default); a declared field of that name is kept as written, marked read-only, and must
///   be `AWSDateTime` (MG025);
/// - a field of model type needs a relational directive (MG019);
/// - non-model types may hold scalars, enums, other non-model types and models (and lists of them): a
///   model there is an embedded value, stored in full inside the non-model value (no lazy reference,
///   no foreign key), as the Amplify codegen emits a custom resolver's result type.
enum ModelRule {
  /// The relational directives.
  static let relationDirectives: Set<String> = ["hasMany", "hasOne", "belongsTo", "manyToMany"]

  /// Creates a ``WorkingModel`` per `@model` type, with declared fields resolved and the implicit `id`.
  static func buildModels(_ context: AnalysisContext) {
    for name in context.typeOrder {
      guard let entry = context.types[name], entry.kind == .model else { continue }
      // Sized once (the implicit `id` may be inserted): an array grown by appending holds up to
      // twice its fields, and every model's arrays are alive at the analysis's memory peak.
      var declared: [DeclaredField] = []
      declared.reserveCapacity(entry.fields.count)
      var fields: [FieldDefinition] = []
      fields.reserveCapacity(entry.fields.count + 1)
      var seen: Set<String> = []
      for astField in entry.fields where seen.insert(astField.name.value).inserted {
        let resolved = TypeResolution.resolve(astField.type, owner: name, field: astField.name.value, in: context)
        declared.append(DeclaredField(ast: astField, type: resolved?.type))
        guard let resolved else { continue }
        // A v1 `@connection` is MG002 with its v2 replacement as the hint; MG019 beside it is noise.
        let hasRelation = astField.directives.contains {
          relationDirectives.contains($0.name.value) || $0.name.value == "connection"
        }
        if case .model(let related) = resolved.type.elementType, !hasRelation {
          context.report(
            .modelFieldWithoutRelation(model: name, field: astField.name.value, relatedModel: related),
            at: astField.name.range)
        }
        fields.append(declaredField(astField, resolved))
      }
      let model = WorkingModel(entry: entry, declared: declared)
      let hasPrimaryKey = entry.fields.contains { field in field.directives.contains { $0.name.value == "primaryKey" } }
      if !hasPrimaryKey, !fields.contains(where: { $0.name == "id" }) {
        fields.insert(
          FieldDefinition(
            name: "id", type: .scalar(.id), isRequired: true, origin: .implicitIdentifier,
            location: entry.nameRange.schemaLocation), at: 0)
      }
      model.fields = fields
      if let directive = entry.directives.first(where: { $0.name.value == "model" }) {
        readArguments(of: directive, into: model, context: context)
      }
      addTimestamps(to: model, context: context)
      context.models[name] = model
      context.modelOrder.append(name)
    }
  }

  private static func readArguments(of directive: Directive, into model: WorkingModel, context: AnalysisContext) {
    model.operations = ModelOperations(
      queries: directive.argument(named: "queries").map { WrittenValue($0.value) },
      mutations: directive.argument(named: "mutations").map { WrittenValue($0.value) },
      subscriptions: directive.argument(named: "subscriptions").map { WrittenValue($0.value) })
    checkSubscriptionLevel(of: directive, context: context)
    guard let timestamps = directive.argument(named: "timestamps")?.value else { return }
    if timestamps.isNull {
      model.timestamps = .disabled
      return
    }
    guard let entries = timestamps.objectFields else { return }
    var configuration = TimestampsConfiguration.default
    for entry in entries {
      let newName: String?
      if entry.value.isNull {
        newName = nil
      } else if let string = entry.value.stringValue {
        newName = string
      } else {
        context.report(
          .invalidArgumentValue(
            directive: "model", argument: "timestamps.\(entry.name.value)", expected: "a string or null",
            fix:
              "write the field name in double quotes, or null to leave the timestamp out (`timestamps: {\(entry.name.value): \"\(entry.name.value)On\"}`)"
          ),
          at: entry.value.range)
        continue
      }
      switch entry.name.value {
      case "createdAt":
        configuration.createdAt = newName
        model.timestampNameRanges["createdAt"] = entry.value.range
      case "updatedAt":
        configuration.updatedAt = newName
        model.timestampNameRanges["updatedAt"] = entry.value.range
      default:
        let suggestion = Naming.suggestion(for: entry.name.value, among: ["createdAt", "updatedAt"])
        context.report(
          .unknownArgument(
            directive: "model", argument: "timestamps.\(entry.name.value)", suggestion: suggestion,
            arguments: ["timestamps.createdAt", "timestamps.updatedAt"]),
          at: entry.name.range)
      }
    }
    model.timestamps = configuration
  }

  /// The values of the transformer's `enum ModelSubscriptionLevel` (`@model(subscriptions: {level:})`).
  static let subscriptionLevels = ["off", "public", "on"]

  /// `@model(subscriptions: {level:})` must be a `ModelSubscriptionLevel` value (MG014, with the
  /// closest value as a "did you mean" hint).
  private static func checkSubscriptionLevel(of directive: Directive, context: AnalysisContext) {
    guard let entries = directive.argument(named: "subscriptions")?.value.objectFields,
      let level = entries.first(where: { $0.name.value == "level" })?.value
    else { return }
    let written = level.enumValueName ?? level.stringValue
    if let written, subscriptionLevels.contains(written) { return }
    context.report(
      .invalidArgumentValue(
        directive: "model", argument: "subscriptions.level",
        expected: "one of \(subscriptionLevels.joined(separator: ", "))",
        suggestion: written.flatMap { Naming.suggestion(for: $0, among: subscriptionLevels) },
        fix:
          "write one of \(subscriptionLevels.joined(separator: ", ")) without quotes (`subscriptions: {level: public}`)"
      ),
      at: level.range)
  }

  /// Appends the timestamp fields, or marks declared ones. A name that the other timestamp or the
  /// implicit `id` has is MG074 at the `timestamps:` value (the transformer would define the field
  /// twice); foreign keys and owner fields are checked where those are added
  /// (`RelationKeys.ensureImplicitField`, `AuthRule`).
  private static func addTimestamps(to model: WorkingModel, context: AnalysisContext) {
    if let name = model.timestamps.createdAt, name == model.timestamps.updatedAt {
      context.report(
        .timestampNameConflict(
          model: model.name, timestamp: "updatedAt", name: name, other: "the name of the `createdAt` timestamp",
          kind: .otherTimestamp),
        at: model.timestampNameRanges["updatedAt"] ?? model.nameRange)
    }
    for name in [model.timestamps.createdAt, model.timestamps.updatedAt].compactMap({ $0 }) {
      if let index = model.fields.firstIndex(where: { $0.name == name }) {
        var field = model.fields[index]
        if field.origin == .implicitIdentifier, let timestamp = model.timestamp(named: name) {
          context.report(
            .timestampNameConflict(
              model: model.name, timestamp: timestamp.timestamp, name: name,
              other: "the implicit primary key (`id: ID!`)", kind: .primaryKey),
            at: timestamp.range)
          continue
        }
        field.isFilledByService = true
        model.fields[index] = field
        if field.type != .scalar(.awsDateTime) {
          let range = model.declaredField(named: name)?.ast.type.range ?? model.nameRange
          context.report(
            .implicitFieldConflict(
              model: model.name, field: name, reason: "is a timestamp field and must have type `AWSDateTime`"),
            at: range)
        }
      } else if !model.timestampFields.contains(where: { $0.name == name }) {
        model.timestampFields.append(
          FieldDefinition(
            name: name, type: .scalar(.awsDateTime), isRequired: false, isReadOnly: true, origin: .timestamp,
            location: model.nameRange.schemaLocation))
      }
    }
  }

  /// Builds the non-model (embedded) types.
  static func buildNonModels(_ context: AnalysisContext) -> [NonModelDefinition] {
    context.typeOrder.compactMap { name -> NonModelDefinition? in
      guard let entry = context.types[name], entry.kind == .nonModel else { return nil }
      var fields: [FieldDefinition] = []
      var seen: Set<String> = []
      for astField in entry.fields where seen.insert(astField.name.value).inserted {
        guard let resolved = TypeResolution.resolve(astField.type, owner: name, field: astField.name.value, in: context)
        else { continue }
        // A model here is an embedded value (a custom resolver's result, `OrderLine.product`): no
        // relation, no foreign key; the Amplify codegen emits it the same way.
        // `@default` here is MG016 (``DirectiveRule``): the transformer takes it on model fields only.
        fields.append(declaredField(astField, resolved))
      }
      var nonModel = NonModelDefinition(
        name: name, fields: fields, description: entry.description, location: entry.nameRange.schemaLocation)
      nonModel.descriptionIsBlockString = entry.descriptionIsBlockString
      nonModel.appSyncDirectives = appSyncDirectives(entry.directives)
      nonModel.interfaces = entry.interfaces.map(\.value)
      return nonModel
    }
  }

  /// The IR field of a declared field whose type resolved to `resolved`: its name, type,
  /// description, AppSync directives and arguments as written.
  private static func declaredField(
    _ astField: GraphQLSDL.FieldDefinition, _ resolved: (type: FieldType, isRequired: Bool)
  ) -> FieldDefinition {
    var field = FieldDefinition(
      name: astField.name.value, type: resolved.type, isRequired: resolved.isRequired,
      description: astField.description?.value, location: astField.name.range.schemaLocation)
    field.descriptionIsBlockString = astField.description?.isBlockString ?? true
    field.appSyncDirectives = appSyncDirectives(astField.directives)
    field.arguments = arguments(of: astField)
    return field
  }

  /// The arguments of a declared field as the API schema prints them: type, default value and
  /// AppSync directives, the others stripped (`TransformerOutput.buildSchema`). Relation fields
  /// get none: the relational transformers replace the field with their own arguments.
  static func arguments(of field: GraphQLSDL.FieldDefinition) -> [FieldArgument] {
    guard !field.directives.contains(where: { relationDirectives.contains($0.name.value) }) else { return [] }
    return field.arguments.map { argument in
      var printed = argument.type.description
      if let defaultValue = argument.defaultValue { printed += " = " + SDLPrinter.print(defaultValue) }
      for directive in argument.directives where CustomRootRule.printedDirectives.contains(directive.name.value) {
        printed += " " + SDLPrinter.print(directive)
      }
      var result = FieldArgument(name: argument.name.value, printed: printed, description: argument.description?.value)
      result.descriptionIsBlockString = argument.description?.isBlockString ?? true
      return result
    }
  }

  /// The AWS AppSync directives of `directives` (``CustomRootRule/printedDirectives``), printed.
  static func appSyncDirectives(_ directives: [Directive]) -> [String] {
    directives.filter { CustomRootRule.printedDirectives.contains($0.name.value) }.map(SDLPrinter.print)
  }

  /// Builds the enums.
  static func buildEnums(_ context: AnalysisContext) -> [EnumDefinition] {
    context.typeOrder.compactMap { name -> EnumDefinition? in
      guard let entry = context.types[name], entry.kind == .enumeration else { return nil }
      var seen: Set<String> = []
      let values = entry.enumValues.filter { seen.insert($0.name.value).inserted }.map {
        var value = EnumValueDefinition(
          name: $0.name.value, description: $0.description?.value, location: $0.name.range.schemaLocation)
        value.descriptionIsBlockString = $0.description?.isBlockString ?? true
        return value
      }
      var enumeration = EnumDefinition(
        name: name, values: values, description: entry.description, location: entry.nameRange.schemaLocation)
      enumeration.descriptionIsBlockString = entry.descriptionIsBlockString
      return enumeration
    }
  }

  /// The finished model: declared fields, implicit keys, timestamps; stored-property flags set.
  static func finish(_ model: WorkingModel) -> ModelDefinition {
    // One exactly sized array (`+` grows the first operand, to up to twice the fields).
    var fields: [FieldDefinition] = []
    fields.reserveCapacity(model.fields.count + model.implicitFields.count + model.timestampFields.count)
    fields += model.fields
    fields += model.implicitFields
    fields += model.timestampFields
    var referenceTargets: Set<String> = []
    for field in fields {
      switch field.association {
      case .belongsTo(let association)?: referenceTargets.formUnion(association.targetNames)
      case .hasOne(let association)?: referenceTargets.formUnion(association.targetNames)
      default: break
      }
    }
    let keyFields = Set(model.primaryKey.fields)
    for index in fields.indices where referenceTargets.contains(fields[index].name) {
      fields[index].isStoredProperty = keyFields.contains(fields[index].name)
    }
    var definition = ModelDefinition(
      name: model.name, pluralName: model.pluralName, fields: fields, primaryKey: model.primaryKey,
      indexes: model.indexes, authRules: model.authRules, timestamps: model.timestamps,
      operations: model.operations, origin: model.origin, location: model.nameRange.schemaLocation)
    definition.description = model.description
    definition.descriptionIsBlockString = model.descriptionIsBlockString
    definition.interfaces = model.interfaces
    definition.appSyncDirectives = appSyncDirectives(model.directives)
    return definition
  }
}

extension WrittenValue {
  /// The value without source positions.
  init(_ value: ConstValue) {
    switch value {
    case .null: self = .null
    case .string(let string): self = .string(string.value)
    case .int(let text, _): self = .int(text)
    case .float(let text, _): self = .float(text)
    case .boolean(let bool, _): self = .boolean(bool)
    case .enumValue(let name): self = .enumValue(name.value)
    case .list(let values, _): self = .list(values.map(WrittenValue.init))
    case .object(let fields, _):
      self = .object(fields.map { ObjectField(name: $0.name.value, value: WrittenValue($0.value)) })
    }
  }
}
