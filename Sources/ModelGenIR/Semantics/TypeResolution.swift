import GraphQLSDL

/// Collects the named types of a document and resolves field types.
///
/// - Object types with `@model` are models; other object types are non-model (embedded) types,
///   except the root operation types (`Query`, `Mutation`, `Subscription`, or those a `schema { }`
///   names), whose fields `CustomRootRule` keeps for the API schema (no Swift is generated for them).
/// - `extend type` / `extend enum` merge their fields, values and directives into the definition
///   (GraphQL spec §3.6.3, §3.9.1); an extension of an undefined type is an unknown type (MG001).
/// - A second `schema { … }` definition is MG048 (an `extend schema` is fine).
/// - A name defined twice is MG004; a field or enum value defined twice in one type is MG005; a
///   definition or (non-scalar) extension named like a built-in or AWS scalar (`enum Int`,
///   `extend type ID`) is MG034.
///   `scalar AWSDateTime` (and the other AppSync scalars) may be restated, as AppSync schemas do.
/// - Field types resolve to built-in/AWS scalars, enums, non-model types or models; unknown names are
///   MG001 with a "did you mean" hint, lists of lists MG020, interfaces/unions/inputs/custom
///   scalars MG021.
enum TypeResolution {
  /// Fills `context.types`, `context.typeOrder` and `context.declaredDirectives`.
  static func collectTypes(of document: Document, into context: AnalysisContext) {
    let rootTypeNames = rootTypeNames(of: document, declaringDirectivesIn: context)
    for definition in document.definitions where !definition.isExtension {
      declare(definition, rootTypeNames: rootTypeNames, in: context)
    }
    for definition in document.definitions where definition.isExtension {
      applyExtension(definition, in: context)
    }
    for name in context.typeOrder {
      guard let entry = context.types[name] else { continue }
      reportDuplicates(entry.fields.map(\.name), owner: name, in: context)
      reportDuplicates(entry.enumValues.map(\.name), owner: name, in: context)
      // MG036 (GraphQL spec §4.1: `__` names are the introspection system's).
      if name.hasPrefix("__") { context.report(.reservedName(name: name, kind: "type"), at: entry.nameRange) }
      for field in entry.fields.map(\.name) + entry.enumValues.map(\.name) where field.value.hasPrefix("__") {
        let kind = entry.enumValues.contains { $0.name == field } ? "enum value" : "field"
        context.report(.reservedName(name: field.value, kind: kind), at: field.range)
      }
    }
  }

  /// `Query`, `Mutation`, `Subscription` and the root types a `schema` names; records the
  /// directives the document declares.
  private static func rootTypeNames(
    of document: Document, declaringDirectivesIn context: AnalysisContext
  ) -> Set<String> {
    var rootTypeNames: Set<String> = ["Query", "Mutation", "Subscription"]
    var firstSchema: SourceRange?
    var operations: [String: SourceRange] = [:]
    for definition in document.definitions {
      switch definition {
      case .schema(let schema):
        // GraphQL spec §3.3: "A GraphQL schema … must only have one schema definition" (the
        // transformer keeps the first and drops the others in silence).
        if let firstSchema {
          context.report(
            .duplicateSchemaDefinition, at: schema.range,
            notes: [DiagnosticNote(message: "first defined here", range: firstSchema)])
        } else {
          firstSchema = schema.range
          reportRepeatedOperations(schema.operationTypes, seen: &operations, in: context)
        }
        rootTypeNames.formUnion(schema.operationTypes.map(\.type.value))
        reportRenamedRoots(schema.operationTypes, in: context)
      case .schemaExtension(let schema):
        reportRepeatedOperations(schema.operationTypes, seen: &operations, in: context)
        rootTypeNames.formUnion(schema.operationTypes.map(\.type.value))
        reportRenamedRoots(schema.operationTypes, in: context)
      case .directive(let directive):
        context.declaredDirectives.insert(directive.name.value)
        if directive.isRepeatable { context.repeatableDirectives.insert(directive.name.value) }
      default:
        break
      }
    }
    return rootTypeNames
  }

  /// MG071 at each operation (`query`, `mutation`, `subscription`) the schema definition or an
  /// `extend schema` names after it is named once already (GraphQL spec §3.3: "each operation
  /// must be provided at most once"; §3.3.2: an extension "must not" add an operation the schema
  /// already defines). graphql-core refuses such a schema ("There can be only one query type").
  private static func reportRepeatedOperations(
    _ operationTypes: [RootOperationTypeDefinition], seen: inout [String: SourceRange], in context: AnalysisContext
  ) {
    for operationType in operationTypes {
      let operation = operationType.operation.rawValue
      if let first = seen[operation] {
        context.report(
          .repeatedRootOperation(operation: operation, typeName: operationType.type.value),
          at: operationType.range, notes: [DiagnosticNote(message: "first named here", range: first)])
      } else {
        seen[operation] = operationType.range
      }
    }
  }

  /// MG039 at each root operation type a schema definition names other than `Query`, `Mutation`,
  /// `Subscription`. The transformer adds its fields to the renamed type
  /// (`TransformerOutput.getQueryTypeName`), but modelgen's emitter, client documents and local
  /// server read the default names, so the renamed type's fields would be dropped.
  private static func reportRenamedRoots(_ operationTypes: [RootOperationTypeDefinition], in context: AnalysisContext) {
    for operationType in operationTypes {
      let operation = operationType.operation.rawValue
      guard operationType.type.value != Naming.uppercasingFirst(operation) else { continue }
      context.report(
        .renamedRootType(operation: operation, typeName: operationType.type.value), at: operationType.type.range)
    }
  }

  /// Registers one type definition: MG034 for a built-in scalar's name, MG004 for a repeat.
  private static func declare(
    _ definition: Definition, rootTypeNames: Set<String>, in context: AnalysisContext
  ) {
    guard let name = definition.name, case let entry? = entry(for: definition, rootTypeNames: rootTypeNames)
    else { return }
    if case .scalarType = definition, ScalarType(rawValue: name.value) != nil {
      return  // `scalar AWSDateTime` copied from an AppSync schema restates a built-in.
    }
    if ScalarType(rawValue: name.value) != nil {
      reportBuiltInRedefined(name, in: context)
      return
    }
    if let existing = context.types[name.value] {
      context.report(
        .duplicateType(name: name.value), at: name.range,
        notes: [DiagnosticNote(message: "first defined here", range: existing.nameRange)])
      return
    }
    if rootTypeNames.contains(name.value), let kind = rootClaimKind(of: entry) {
      context.report(.rootTypeNameClaimed(name: name.value, kind: kind), at: name.range)
    }
    context.types[name.value] = entry
    context.typeOrder.append(name.value)
  }

  /// What a definition named like a root operation type is, when it is not a plain object type
  /// (the user's root fields): the transformer would put the generated root fields into it (a
  /// model's own fields then become root fields), or the schema has no valid root (graphql-core:
  /// "Query root type must be Object type").
  private static func rootClaimKind(of entry: TypeEntry) -> String? {
    switch entry.kind {
    case .model: "a model"
    case .enumeration: "an enum"
    case .unsupported("root operation"), .nonModel: nil
    case .unsupported("input"): "an input type"
    case .unsupported("interface"): "an interface"
    case .unsupported("union"): "a union"
    case .unsupported("custom scalar"), .scalar: "a scalar"
    case .unsupported(let described): "a \(described)"
    }
  }

  private static func reportBuiltInRedefined(_ name: Name, in context: AnalysisContext) {
    let kind = name.value.hasPrefix("AWS") ? "AWS AppSync" : "GraphQL"
    context.report(.builtInTypeRedefined(name: name.value, kind: kind), at: name.range)
  }

  /// Merges one `extend …` into the type it extends (MG001 when there is none).
  private static func applyExtension(_ definition: Definition, in context: AnalysisContext) {
    guard let name = definition.name else { return }
    if ScalarType(rawValue: name.value) != nil {
      if case .scalarTypeExtension = definition { return }  // like restating `scalar AWSDateTime`
      reportBuiltInRedefined(name, in: context)
      return
    }
    guard var entry = context.types[name.value] else {
      let suggestion = Naming.suggestion(for: name.value, among: context.typeOrder)
      context.report(.unknownType(name: name.value, suggestion: suggestion), at: name.range)
      return
    }
    if entry.kind == .unsupported("root operation"), definition.directives.contains(where: { $0.name.value == "model" })
    {
      // `extend type Query @model`: the extension would make the root type a model.
      context.report(.rootTypeNameClaimed(name: name.value, kind: "a model"), at: name.range)
    }
    merge(definition, into: &entry)
    context.types[name.value] = entry
  }

  private static func merge(_ definition: Definition, into entry: inout TypeEntry) {
    switch definition {
    case .objectTypeExtension(let node):
      entry.directives += node.directives
      entry.interfaces += node.interfaces
      entry.fields += node.fields
      entry.inputValueDirectives += node.fields.flatMap { $0.arguments.map(\.directives) }
      if entry.kind == .nonModel, node.directives.contains(where: { $0.name.value == "model" }) {
        entry.kind = .model
      }
    case .enumTypeExtension(let node):
      entry.directives += node.directives
      entry.enumValues += node.values
    case .inputObjectTypeExtension(let node):
      entry.directives += node.directives
      entry.inputValueDirectives += node.fields.map(\.directives)
      entry.inputFields += node.fields
    case .interfaceTypeExtension(let node):
      // The transformer's `addInterfaceExtension` folds in an extension's fields and directives
      // only: `extend interface B implements A` adds no interface to `B` in the API schema.
      entry.directives += node.directives
      entry.fields += node.fields
      entry.inputValueDirectives += node.fields.flatMap { $0.arguments.map(\.directives) }
    case .unionTypeExtension(let node):
      entry.directives += node.directives
      entry.memberTypes += node.memberTypes
    default:
      entry.directives += definition.directives
    }
  }

  /// MG005 for every field or enum value of `owner` whose name repeats an earlier one.
  private static func reportDuplicates(_ names: [Name], owner: String, in context: AnalysisContext) {
    var seen: [String: SourceRange] = [:]
    for name in names {
      if let first = seen[name.value] {
        context.report(
          .duplicateField(owner: owner, field: name.value), at: name.range,
          notes: [DiagnosticNote(message: "first defined here", range: first)])
      } else {
        seen[name.value] = name.range
      }
    }
  }

  private static func entry(for definition: Definition, rootTypeNames: Set<String>) -> TypeEntry? {
    guard var entry = bareEntry(for: definition, rootTypeNames: rootTypeNames) else { return nil }
    switch definition {
    case .inputObjectType(let node):
      entry.inputValueDirectives = node.fields.map(\.directives)
      entry.inputFields = node.fields
      entry.inputDescription = node.description
    default:
      entry.inputValueDirectives = entry.fields.flatMap { $0.arguments.map(\.directives) }
    }
    return entry
  }

  private static func bareEntry(for definition: Definition, rootTypeNames: Set<String>) -> TypeEntry? {
    switch definition {
    case .objectType(let node):
      let isModel = node.directives.contains { $0.name.value == "model" }
      let kind: TypeKind =
        isModel ? .model : rootTypeNames.contains(node.name.value) ? .unsupported("root operation") : .nonModel
      var entry = TypeEntry(
        name: node.name.value, kind: kind, nameRange: node.name.range, description: node.description?.value,
        directives: node.directives, fields: node.fields, enumValues: [])
      entry.interfaces = node.interfaces
      entry.descriptionIsBlockString = node.description?.isBlockString ?? true
      return entry
    case .enumType(let node):
      var entry = TypeEntry(
        name: node.name.value, kind: .enumeration, nameRange: node.name.range, description: node.description?.value,
        directives: node.directives, fields: [], enumValues: node.values)
      entry.descriptionIsBlockString = node.description?.isBlockString ?? true
      return entry
    case .interfaceType(let node):
      var entry = TypeEntry(
        name: node.name.value, kind: .unsupported("interface"), nameRange: node.name.range,
        description: node.description?.value, directives: node.directives, fields: node.fields, enumValues: [])
      entry.interfaces = node.interfaces
      entry.writtenDescription = node.description
      return entry
    case .unionType(let node):
      var entry = TypeEntry(
        name: node.name.value, kind: .unsupported("union"), nameRange: node.name.range,
        description: node.description?.value, directives: node.directives, fields: [], enumValues: [])
      entry.memberTypes = node.memberTypes
      entry.writtenDescription = node.description
      return entry
    case .inputObjectType(let node):
      return TypeEntry(
        name: node.name.value, kind: .unsupported("input"), nameRange: node.name.range, description: nil,
        directives: node.directives, fields: [], enumValues: [])
    case .scalarType(let node):
      return TypeEntry(
        name: node.name.value, kind: .unsupported("custom scalar"), nameRange: node.name.range, description: nil,
        directives: node.directives, fields: [], enumValues: [])
    default:
      return nil
    }
  }

  /// Resolves a field's type reference. Returns `nil` (after reporting) when it cannot be resolved.
  /// - Returns: the IR type and whether the outer type is non-null.
  static func resolve(
    _ reference: TypeReference, owner: String, field: String, in context: AnalysisContext
  ) -> (type: FieldType, isRequired: Bool)? {
    let isRequired = reference.isNonNull
    let outer = reference.nullable
    if case .list(let element, _) = outer {
      let elementRequired = element.isNonNull
      if element.nullable.isList {
        context.report(.nestedList(owner: owner, field: field), at: reference.range)
        return nil
      }
      guard let named = resolveNamed(element.namedType, owner: owner, field: field, in: context) else { return nil }
      return (.list(named, elementRequired: elementRequired), isRequired)
    }
    guard let named = resolveNamed(outer.namedType, owner: owner, field: field, in: context) else { return nil }
    return (named, isRequired)
  }

  private static func resolveNamed(_ name: Name, owner: String, field: String, in context: AnalysisContext)
    -> FieldType?
  {
    if let scalar = ScalarType(rawValue: name.value) { return .scalar(scalar) }
    guard let entry = context.types[name.value] else {
      let candidates =
        context.typeOrder.filter { context.types[$0]?.kind.isFieldType == true }
        + ScalarType.allCases.map(\.rawValue)
      let suggestion = Naming.suggestion(for: name.value, among: candidates)
      context.report(.unknownType(name: name.value, suggestion: suggestion), at: name.range)
      return nil
    }
    switch entry.kind {
    case .model: return .model(name.value)
    case .nonModel: return .embedded(name.value)
    case .enumeration: return .enumeration(name.value)
    case .scalar(let scalar): return .scalar(scalar)
    case .unsupported(let kind):
      context.report(
        .unsupportedFieldType(owner: owner, field: field, typeName: name.value, kind: kind), at: name.range)
      return nil
    }
  }
}

extension TypeKind {
  /// `true` for kinds a field may have.
  var isFieldType: Bool {
    switch self {
    case .model, .nonModel, .enumeration, .scalar: return true
    case .unsupported: return false
    }
  }
}
