import GraphQLSDL

/// Interfaces, unions and `implements` clauses, kept for the API schema as the Amplify GraphQL
/// Transformer v2 keeps them, and checked as GraphQL requires of what the API schema prints.
///
/// What the transformer does (amplify-graphql-transformer-core): `TransformerOutput` carries every
/// `interface` and `union` of the input document in its place, folds `extend interface` (fields,
/// directives) and `extend union` (members, directives) into it, keeps every object type's
/// `implements` list (`addObjectExtension` merges an extension's interfaces; the model
/// transformer's `ObjectDefinitionWrapper` rewrites a model's fields and directives, never its
/// interfaces), and `buildSchema` strips every directive but AppSync's from the printed document.
/// Its own validation (`validateModelSchema`) builds the schema with `assumeValid`, so it does not
/// check implementations: AppSync and graphql-core do, and refuse what this rule reports.
///
/// A model may implement an interface: the transformer keeps the clause, and the implementation
/// is checked against the fields the API schema gives the model (the implicit `id`, timestamps,
/// foreign keys and owner fields included; a `@hasMany` field as `Model<X>Connection`; a
/// `@hasOne`/`@belongsTo` field as the related model). No Swift type or protocol is generated for
/// an interface or a union.
///
/// Checks, at the offending name:
/// - MG001: an interface in `implements`, a union member or an interface field's result type that
///   is not defined (with a did-you-mean hint).
/// - MG021: an interface field whose result is an input type or a custom scalar (§3.6.1).
/// - MG069: an object type (model, non-model, root type) or interface that does not implement an
///   interface it names (§3.6 "IsValidImplementation", §3.7): the name is not an interface, is
///   named twice or is the interface itself, an interface of the interface is not named too, an
///   interface field is missing, its type is not a subtype of the interface field's, an interface
///   argument is missing or of another type, or an argument the interface lacks is required.
/// - MG070: a union member that is not an object type, or is named twice (§3.8).
enum AbstractTypeRule {
  /// Checks every `implements` clause and union, and returns the interfaces and unions to print,
  /// in document order.
  static func apply(_ context: AnalysisContext) -> [AbstractTypeDefinition] {
    var definitions: [AbstractTypeDefinition] = []
    for name in context.typeOrder {
      guard let entry = context.types[name] else { continue }
      if !entry.interfaces.isEmpty { checkImplements(entry, in: context) }
      switch entry.kind {
      case .unsupported("interface"):
        checkInterfaceFields(entry, in: context)
        definitions.append(printed(interface: entry))
      case .unsupported("union"):
        checkMembers(of: entry, in: context)
        definitions.append(printed(union: entry))
      default:
        break
      }
    }
    return definitions
  }

  // MARK: - Printing

  private static func kept(_ directives: [Directive]) -> [Directive] {
    directives.filter { CustomRootRule.printedDirectives.contains($0.name.value) }
  }

  private static func printed(interface entry: TypeEntry) -> AbstractTypeDefinition {
    var seen: Set<String> = []
    let fields = entry.fields.filter { seen.insert($0.name.value).inserted }.map { field in
      var field = field
      field.directives = kept(field.directives)
      field.arguments = field.arguments.map { argument in
        var argument = argument
        argument.directives = kept(argument.directives)
        return argument
      }
      return field
    }
    let node = InterfaceTypeDefinition(
      description: entry.writtenDescription, name: Name(entry.name, range: entry.nameRange),
      interfaces: entry.interfaces, directives: kept(entry.directives), fields: fields, range: entry.nameRange)
    return AbstractTypeDefinition(
      kind: .interface, name: entry.name, location: entry.nameRange.schemaLocation,
      members: entry.interfaces.map(\.value), text: text(of: .interfaceType(node)))
  }

  private static func printed(union entry: TypeEntry) -> AbstractTypeDefinition {
    let node = UnionTypeDefinition(
      description: entry.writtenDescription, name: Name(entry.name, range: entry.nameRange),
      directives: kept(entry.directives), memberTypes: entry.memberTypes, range: entry.nameRange)
    return AbstractTypeDefinition(
      kind: .union, name: entry.name, location: entry.nameRange.schemaLocation,
      members: entry.memberTypes.map(\.value), text: text(of: .unionType(node)))
  }

  private static func text(of definition: Definition) -> String {
    let text = SDLPrinter.print(definition)
    return String(text.hasSuffix("\n") ? text.dropLast() : Substring(text))
  }

  // MARK: - Unions

  /// MG001 and MG070 for the members of a union.
  private static func checkMembers(of entry: TypeEntry, in context: AnalysisContext) {
    var seen: Set<String> = []
    for member in entry.memberTypes {
      guard seen.insert(member.value).inserted else {
        context.report(
          .invalidUnionMember(union: entry.name, member: member.value, reason: "it is listed twice"),
          at: member.range)
        continue
      }
      guard let kind = kindName(of: member, in: context) else { continue }
      if kind != "object type" {
        context.report(
          .invalidUnionMember(
            union: entry.name, member: member.value, reason: "it is \(article(kind)), not an object type"),
          at: member.range)
      }
    }
  }

  // MARK: - Interface fields

  /// MG001 and MG021 for the result types of an interface's fields (their arguments are
  /// ``TypeSystemRule``'s).
  private static func checkInterfaceFields(_ entry: TypeEntry, in context: AnalysisContext) {
    var seen: Set<String> = []
    for field in entry.fields where seen.insert(field.name.value).inserted {
      let result = field.type.namedType
      guard let kind = kindName(of: result, in: context) else { continue }
      if kind == "input type" || kind == "custom scalar" {
        context.report(
          .invalidCustomFieldType(
            owner: entry.name, field: field.name.value, argument: nil, typeName: result.value,
            kind: kind == "input type" ? "input" : kind, expectsInput: false),
          at: result.range)
      }
    }
  }

  // MARK: - Implementations

  /// One field as the API schema prints it: its type and arguments (`name` → type as written,
  /// required when non-null without a default), and where it is declared (`nil` when implicit).
  private struct PrintedField {
    var type: Shape
    var arguments: [(name: String, type: String, isRequired: Bool)]
    var range: SourceRange?
  }

  /// A GraphQL type reference, for the subtype rules.
  private indirect enum Shape: Equatable {
    case named(String)
    case list(Shape)
    case nonNull(Shape)

    init(_ reference: TypeReference) {
      switch reference {
      case .named(let name): self = .named(name.value)
      case .list(let element, _): self = .list(Shape(element))
      case .nonNull(let inner, _): self = .nonNull(Shape(inner))
      }
    }

    init(_ type: FieldType, required: Bool) {
      let shape: Shape
      switch type {
      case .list(let element, let elementRequired): shape = .list(Shape(element, required: elementRequired))
      default: shape = .named(type.namedTypeName)
      }
      self = required ? .nonNull(shape) : shape
    }

    var text: String {
      switch self {
      case .named(let name): name
      case .list(let element): "[\(element.text)]"
      case .nonNull(let inner): inner.text + "!"
      }
    }
  }

  /// The fields `entry` has in the API schema, by name (first declaration of a name).
  private static func printedFields(of entry: TypeEntry, in context: AnalysisContext) -> [String: PrintedField] {
    var result: [String: PrintedField] = [:]
    for field in entry.fields where result[field.name.value] == nil {
      result[field.name.value] = PrintedField(
        type: Shape(field.type),
        arguments: field.arguments.map {
          ($0.name.value, $0.type.description, $0.type.isNonNull && $0.defaultValue == nil)
        },
        range: field.name.range)
    }
    guard entry.kind == .model, let model = context.models[entry.name] else { return result }
    // A model as the API schema prints it: relation fields retyped, implicit fields added.
    for field in ModelRule.finish(model).fields {
      let declared = result[field.name]
      var printed = PrintedField(
        type: Shape(field.type, required: field.isRequired || field.origin == .timestamp),
        arguments: declared?.arguments ?? [], range: declared?.range)
      switch field.association {
      case .hasMany(let association)?:
        printed.type = .named(APINames.connection(association.relatedModel))
        printed.arguments = [
          ("filter", APINames.filterInput(association.relatedModel), false),
          ("sortDirection", "ModelSortDirection", false), ("limit", "Int", false), ("nextToken", "String", false),
        ]
      case .hasOne?, .belongsTo?:
        let related = field.association?.relatedModel ?? field.type.namedTypeName
        printed.type = field.isRequired ? .nonNull(.named(related)) : .named(related)
        printed.arguments = []
      case nil:
        break
      }
      result[field.name] = printed
    }
    return result
  }

  /// MG001 and MG069 for the `implements` list of `entry`.
  private static func checkImplements(_ entry: TypeEntry, in context: AnalysisContext) {
    let named = Set(entry.interfaces.map(\.value))
    var seen: Set<String> = []
    let fields = printedFields(of: entry, in: context)
    for interface in entry.interfaces {
      func report(_ reason: String, at range: SourceRange? = nil) {
        context.report(
          .invalidImplementation(type: entry.name, interface: interface.value, reason: reason),
          at: range ?? interface.range)
      }
      guard seen.insert(interface.value).inserted else {
        report("it is named twice")
        continue
      }
      guard let kind = kindName(of: interface, in: context) else { continue }
      guard kind == "interface", let definition = context.types[interface.value] else {
        report("`\(interface.value)` is \(article(kind)), not an interface")
        continue
      }
      if interface.value == entry.name {
        report("an interface cannot implement itself")
        continue
      }
      // §3.7: a type implementing an interface names every interface that interface implements.
      for inherited in definition.interfaces.map(\.value) where !named.contains(inherited) && inherited != entry.name {
        report("`\(interface.value)` implements `\(inherited)`, so `\(entry.name)` must name `\(inherited)` too")
      }
      var interfaceFields: Set<String> = []
      for required in definition.fields where interfaceFields.insert(required.name.value).inserted {
        let fieldName = required.name.value
        guard let field = fields[fieldName] else {
          report("it has no field `\(fieldName)`, which `\(interface.value)` declares")
          continue
        }
        let wanted = Shape(required.type)
        if !isSubtype(field.type, of: wanted, in: context) {
          report(
            "`\(entry.name).\(fieldName)` is `\(field.type.text)` in the API schema, which is not `\(wanted.text)` or a subtype of it",
            at: field.range)
        }
        var given: Set<String> = []
        for argument in required.arguments {
          given.insert(argument.name.value)
          guard let own = field.arguments.first(where: { $0.name == argument.name.value }) else {
            report(
              "`\(entry.name).\(fieldName)` lacks the argument `\(argument.name.value)` of `\(interface.value).\(fieldName)`",
              at: field.range)
            continue
          }
          if own.type != argument.type.description {
            report(
              "the argument `\(fieldName)(\(argument.name.value):)` is `\(own.type)`, but `\(argument.type.description)` in `\(interface.value)`",
              at: field.range)
          }
        }
        for extra in field.arguments where !given.contains(extra.name) && extra.isRequired {
          report(
            "`\(entry.name).\(fieldName)` requires the argument `\(extra.name)`, which `\(interface.value).\(fieldName)` lacks",
            at: field.range)
        }
      }
    }
  }

  /// GraphQL spec §3.6 IsValidImplementationFieldType: `field` is `wanted`, a non-null of a
  /// subtype, a list of a subtype, an object type that implements the interface `wanted`, an
  /// interface that implements it, or an object type that is a member of the union `wanted`.
  private static func isSubtype(_ field: Shape, of wanted: Shape, in context: AnalysisContext) -> Bool {
    switch (field, wanted) {
    case (.nonNull(let inner), .nonNull(let wantedInner)): return isSubtype(inner, of: wantedInner, in: context)
    case (.nonNull(let inner), _): return isSubtype(inner, of: wanted, in: context)
    case (_, .nonNull): return false
    case (.list(let element), .list(let wantedElement)): return isSubtype(element, of: wantedElement, in: context)
    case (.list, _), (_, .list): return false
    case (.named(let name), .named(let wantedName)):
      if name == wantedName { return true }
      guard let target = context.types[wantedName] else { return false }
      switch target.kind {
      case .unsupported("interface"):
        return context.types[name]?.interfaces.contains { $0.value == wantedName } == true
      case .unsupported("union"):
        return target.memberTypes.contains { $0.value == name }
      default:
        return false
      }
    }
  }

  // MARK: - Kinds

  /// What `name` names (`object type`, `interface`, `union`, `enum`, `input type`, `scalar`,
  /// `custom scalar`), or `nil` after reporting MG001 for an undefined one.
  private static func kindName(of name: Name, in context: AnalysisContext) -> String? {
    if ScalarType(rawValue: name.value) != nil { return "scalar" }
    guard let entry = context.types[name.value] else {
      let suggestion = Naming.suggestion(for: name.value, among: context.typeOrder)
      context.report(.unknownType(name: name.value, suggestion: suggestion), at: name.range)
      return nil
    }
    switch entry.kind {
    case .model, .nonModel, .unsupported("root operation"): return "object type"
    case .enumeration: return "enum"
    case .scalar: return "scalar"
    case .unsupported("input"): return "input type"
    case .unsupported(let described): return described
    }
  }

  private static func article(_ kind: String) -> String {
    (kind.first.map { "aeiou".contains($0) } ?? false) ? "an \(kind)" : "a \(kind)"
  }
}
