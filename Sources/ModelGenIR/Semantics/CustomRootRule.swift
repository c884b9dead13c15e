import GraphQLSDL

/// The root fields the schema declares itself (`type Query { echo(msg: String): String }`,
/// `extend type Mutation { … }`) and the `input` types it declares, kept for the API schema as the
/// Amplify GraphQL Transformer v2 keeps them (amplify-graphql-transformer-core
/// `TransformerOutput`): every declared type stays where it is declared, the generated root fields
/// are appended after the user's, and only AppSync's directives (`@aws_*`, `@deprecated`) are
/// printed.
///
/// Checks, at the offending name:
/// - MG001: a root field's argument or result type, or an input field's type, that is not
///   defined (with a `did you mean` hint).
/// - MG021: a root field whose result is an input type or custom scalar, or whose argument (or an
///   input field) is an object type, interface or union (GraphQL spec §3.6.1, §3.10: arguments
///   and input fields take input types). An interface or union result is kept (their checks are
///   ``AbstractTypeRule``'s).
/// - MG030: a user root field whose name equals a generated one (`getOrder` beside model `Order`);
///   the transformer refuses it (`Object type extension 'Query' cannot redeclare field getOrder`).
///   Reported by ``OperationNameRule``.
///
/// Only the root types named `Query`, `Mutation` and `Subscription` are read (the generated
/// fields always go into those); a `schema { query: MyQuery }` that renames one is MG039
/// (``TypeResolution``).
enum CustomRootRule {
  /// The directives the transformer prints (`stripDirectives` in `TransformerOutput.buildSchema`).
  static let printedDirectives: Set<String> = [
    "aws_subscribe", "aws_auth", "aws_api_key", "aws_iam", "aws_oidc", "aws_cognito_user_pools", "aws_lambda",
    "deprecated",
  ]

  /// The user's root types (in document order) and input types (in document order).
  static func build(_ context: AnalysisContext) -> (roots: [CustomRootType], inputs: [CustomInputType]) {
    var roots: [CustomRootType] = []
    var inputs: [CustomInputType] = []
    for name in context.typeOrder {
      guard let entry = context.types[name] else { continue }
      if entry.kind == .unsupported("root operation"), let operation = CustomRootType.Operation(rawValue: name) {
        var fields: [CustomRootField] = []
        var seen: Set<String> = []
        for field in entry.fields where seen.insert(field.name.value).inserted {
          check(field, of: name, in: context)
          let auth = authDirectives(of: field, root: name, in: context)
          fields.append(
            CustomRootField(
              name: field.name.value, lines: printed(field, of: name, adding: auth),
              location: field.name.range.schemaLocation, isAuthProtected: !auth.isEmpty))
        }
        var root = CustomRootType(operation: operation, location: entry.nameRange.schemaLocation, fields: fields)
        var directiveNames: Set<String> = []
        root.directives = entry.directives.filter {
          printedDirectives.contains($0.name.value) && directiveNames.insert($0.name.value).inserted
        }.map(SDLPrinter.print)
        root.interfaces = entry.interfaces.map(\.value)
        roots.append(root)
      } else if entry.kind == .unsupported("input") {
        var seen: Set<String> = []
        var fields: [InputValueDefinition] = []
        for field in entry.inputFields where seen.insert(field.name.value).inserted {
          checkInput(field.type, owner: name, field: field.name.value, in: context)
          var kept = field
          kept.directives = field.directives.filter { printedDirectives.contains($0.name.value) }
          fields.append(kept)
        }
        let definition = InputObjectTypeDefinition(
          description: entry.inputDescription, name: Name(name, range: entry.nameRange),
          directives: entry.directives.filter { printedDirectives.contains($0.name.value) }, fields: fields,
          range: entry.nameRange)
        let text = SDLPrinter.print(Definition.inputObjectType(definition))
        inputs.append(
          CustomInputType(
            name: name, location: entry.nameRange.schemaLocation,
            text: String(text.hasSuffix("\n") ? text.dropLast() : Substring(text))))
      }
    }
    return (roots, inputs)
  }

  /// MG001/MG021 for the result and argument types of a root field.
  private static func check(_ field: GraphQLSDL.FieldDefinition, of root: String, in context: AnalysisContext) {
    let result = field.type.namedType
    if let kind = kind(of: result, in: context) {
      switch kind {
      case .model, .nonModel, .enumeration, .scalar: break
      // An interface or union result is an output type (§3.6.1); the transformer keeps it, and
      // no Swift is generated for a root field.
      case .other(let described) where described == "interface" || described == "union": break
      case .other(let described):
        context.report(
          .invalidCustomFieldType(
            owner: root, field: field.name.value, argument: nil, typeName: result.value, kind: described,
            expectsInput: false),
          at: result.range)
      }
    }
    for argument in field.arguments {
      checkInput(argument.type, owner: root, field: field.name.value, argument: argument.name.value, in: context)
    }
  }

  /// MG001/MG021 for an argument's or input field's type: a scalar, enum or input type.
  private static func checkInput(
    _ type: TypeReference, owner: String, field: String, argument: String? = nil, in context: AnalysisContext
  ) {
    let named = type.namedType
    guard let kind = kind(of: named, in: context) else { return }
    switch kind {
    case .scalar, .enumeration: return
    case .other(let described) where described == "input": return
    case .model: report("model", named)
    case .nonModel: report("object", named)
    case .other(let described): report(described, named)
    }
    func report(_ described: String, _ name: Name) {
      context.report(
        .invalidCustomFieldType(
          owner: owner, field: field, argument: argument, typeName: name.value, kind: described, expectsInput: true),
        at: name.range)
    }
  }

  private enum Kind {
    case model, nonModel, enumeration, scalar
    case other(String)
  }

  /// The kind of the type `name` names, or `nil` after reporting MG001 for an undefined one.
  private static func kind(of name: Name, in context: AnalysisContext) -> Kind? {
    if ScalarType(rawValue: name.value) != nil { return .scalar }
    guard let entry = context.types[name.value] else {
      let suggestion = Naming.suggestion(for: name.value, among: context.typeOrder)
      context.report(.unknownType(name: name.value, suggestion: suggestion), at: name.range)
      return nil
    }
    switch entry.kind {
    case .model: return .model
    case .nonModel: return .nonModel
    case .enumeration: return .enumeration
    case .scalar: return .scalar
    case .unsupported(let described): return .other(described)
    }
  }

  /// The `@aws_*` directives the auth transformer gives a root field with `@auth(rules:)` (its
  /// `authNonModelConfig`: `getServiceDirectives(getAuthProviders(roles), false)`): one per provider
  /// of its rules, in `AUTH_PROVIDER_DIRECTIVE_MAP` order. The rules are checked as a model's are
  /// (``AuthRule``: MG003, MG014, MG024, MG066), and as the transformer checks a root field's
  /// (MG065 `operations:`, MG067 owner and `groupsField:` rules). A static `groups:` rule gives a
  /// bare `@aws_cognito_user_pools` (or `@aws_oidc`), as the transformer's `makeDirective(name, [])`
  /// does: the groups are checked by the field's auth resolver, not by the directive.
  private static func authDirectives(
    of field: GraphQLSDL.FieldDefinition, root: String, in context: AnalysisContext
  ) -> [String] {
    guard let directive = field.directives.first(where: { $0.name.value == "auth" }) else { return [] }
    let rules = AuthRule.rootFieldRules(of: directive, field: "\(root).\(field.name.value)", context: context)
    return AuthRuleDefinition.appSyncDirectives(rules.map(\.effectiveProvider))
  }

  /// The field as the API schema prints it: only AppSync's directives, on the field and its
  /// arguments, then the `auth` directives it lacks (`extendFieldWithDirectives` adds only those).
  private static func printed(
    _ field: GraphQLSDL.FieldDefinition, of root: String, adding auth: [String] = []
  ) -> [String] {
    var kept = field
    kept.directives = field.directives.filter { printedDirectives.contains($0.name.value) }
    for name in auth where !kept.directives.contains(where: { $0.name.value == name }) {
      kept.directives.append(
        Directive(name: Name(name, range: field.name.range), arguments: [], range: field.name.range))
    }
    kept.arguments = field.arguments.map { argument in
      var argument = argument
      argument.directives = argument.directives.filter { printedDirectives.contains($0.name.value) }
      return argument
    }
    let holder = ObjectTypeDefinition(
      description: nil, name: Name(root, range: field.name.range), interfaces: [], directives: [],
      fields: [kept], range: field.range)
    let text = SDLPrinter.print(Definition.objectType(holder))
    // `type Query {`, the field's lines indented by two, `}`.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let open = lines.firstIndex(where: { $0.hasSuffix("{") }), let close = lines.lastIndex(of: "}"), open < close
    else { return [] }
    return lines[(open + 1)..<close].map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }
  }
}
