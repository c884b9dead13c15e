import GraphQLSDL

/// Checks every directive use against the Amplify GraphQL Transformer v2 directive definitions:
/// unknown directives (MG002, with a "did you mean" hint), unknown arguments (MG003), missing
/// required arguments (MG015), argument values of the wrong shape (MG014), directives in places
/// where they mean nothing (MG016: every Amplify directive outside the places the transformer
/// allows it, including interfaces, unions, inputs, custom scalars, input fields and arguments) and
/// non-repeatable directives used twice at one location (MG017: the Amplify directives, the
/// declared ones without `repeatable`, AppSync's `@aws_*`, `@deprecated` and `@specifiedBy`).
///
/// Directives declared in the document (`directive @name ...`) and the AppSync/Amplify directives
/// this generator does not interpret (`@searchable`, `@function`, `@http`, `@aws_*`, ...) are
/// accepted without argument checks.
enum DirectiveRule {
  /// Where a directive is written.
  enum Placement: Equatable {
    case modelType
    case nonModelType
    case modelField
    case nonModelField
    case enumType
    case enumValue
    /// `Query`, `Mutation`, `Subscription` (or the types a `schema { }` names).
    case rootType
    /// A field of a root operation type (a custom query, mutation or subscription).
    case rootField
    /// Interfaces, unions, inputs, custom scalars, their fields, input fields and field arguments.
    case other
  }

  /// The expected shape of an argument value (GraphQL input coercion: a single value is accepted
  /// where a list is expected, §3.11 "List" input coercion).
  enum Shape {
    case string
    /// A string, or `null` (`@index(queryField: null)`: no query field).
    case stringOrNull
    case stringList
    case int
    case objectOrNull
    case objectList
  }

  struct Spec {
    let arguments: [String: Shape]
    let required: Set<String>
    let placements: Set<Placement>
    let placementDescription: String
    let isRepeatable: Bool
  }

  /// The directives whose meaning ModelGen implements.
  static let specs: [String: Spec] = [
    "model": Spec(
      arguments: [
        "queries": .objectOrNull, "mutations": .objectOrNull, "subscriptions": .objectOrNull,
        "timestamps": .objectOrNull,
      ], required: [], placements: [.modelType], placementDescription: "is only allowed on object types",
      isRepeatable: false),
    "primaryKey": Spec(
      arguments: ["sortKeyFields": .stringList], required: [], placements: [.modelField],
      placementDescription: "is only allowed on fields of @model types", isRepeatable: false),
    "index": Spec(
      arguments: ["name": .string, "sortKeyFields": .stringList, "queryField": .stringOrNull], required: [],
      placements: [.modelField], placementDescription: "is only allowed on fields of @model types", isRepeatable: true),
    "hasMany": Spec(
      arguments: ["indexName": .string, "fields": .stringList, "references": .stringList, "limit": .int],
      required: [], placements: [.modelField], placementDescription: "is only allowed on fields of @model types",
      isRepeatable: false),
    "hasOne": Spec(
      arguments: ["fields": .stringList, "references": .stringList], required: [], placements: [.modelField],
      placementDescription: "is only allowed on fields of @model types", isRepeatable: false),
    "belongsTo": Spec(
      arguments: ["fields": .stringList, "references": .stringList], required: [], placements: [.modelField],
      placementDescription: "is only allowed on fields of @model types", isRepeatable: false),
    "manyToMany": Spec(
      arguments: ["relationName": .string, "limit": .int], required: ["relationName"], placements: [.modelField],
      placementDescription: "is only allowed on fields of @model types", isRepeatable: false),
    "auth": Spec(
      arguments: ["rules": .objectList], required: ["rules"], placements: [.modelType, .modelField, .rootField],
      placementDescription:
        "is only allowed on @model types, their fields and fields of Query, Mutation and Subscription",
      isRepeatable: false),
    "default": Spec(
      // The transformer: "The @default directive may only be added to object definitions annotated with @model."
      arguments: ["value": .string], required: ["value"], placements: [.modelField],
      placementDescription: "is only allowed on fields of @model types", isRepeatable: false),
  ]

  /// AppSync and Amplify directives that are valid in a schema but do not affect generated models.
  static let passThroughDirectives: Set<String> = [
    "function", "http", "predictions", "aws_subscribe", "aws_auth", "aws_api_key", "aws_iam",
    "aws_oidc", "aws_cognito_user_pools", "aws_lambda", "deprecated", "mapsTo", "refersTo", "sql", "specifiedBy",
    "generation", "conversation", "validate",
  ]

  /// Validates every directive of every type in `context.types`.
  static func check(_ context: AnalysisContext) {
    for name in context.typeOrder {
      guard let entry = context.types[name] else { continue }
      let (typePlacement, fieldPlacement): (Placement, Placement) =
        switch entry.kind {
        case .model: (.modelType, .modelField)
        case .nonModel: (.nonModelType, .nonModelField)
        case .enumeration: (.enumType, .other)
        case .unsupported("root operation"): (.rootType, .rootField)
        default: (.other, .other)
        }
      checkAll(entry.directives, placement: typePlacement, context: context)
      for field in entry.fields {
        checkAll(field.directives, placement: fieldPlacement, context: context)
      }
      for directives in entry.inputValueDirectives {
        checkAll(directives, placement: .other, context: context)
      }
      for value in entry.enumValues {
        checkAll(value.directives, placement: .enumValue, context: context)
      }
    }
  }

  /// The pass-through directives that are not `repeatable` (GraphQL spec §3.13: `@deprecated`,
  /// `@specifiedBy`; AWS AppSync's `@aws_*` definitions): a second use at one location is MG017,
  /// which AppSync and graphql-core refuse (spec §5.7.3 "Directives Are Unique Per Location").
  static let nonRepeatablePassThroughDirectives: Set<String> = [
    "aws_subscribe", "aws_auth", "aws_api_key", "aws_iam", "aws_oidc", "aws_cognito_user_pools", "aws_lambda",
    "deprecated", "specifiedBy",
  ]

  /// Whether the non-Amplify directive `name` may appear twice at one location: as its
  /// definition in the document says (`directive @name repeatable on …`), else `false` for the
  /// ``nonRepeatablePassThroughDirectives``.
  private static func isRepeatable(_ name: String, in context: AnalysisContext) -> Bool {
    if context.declaredDirectives.contains(name) { return context.repeatableDirectives.contains(name) }
    return !nonRepeatablePassThroughDirectives.contains(name)
  }

  /// The transformer v2 directives that replace a v1 directive (Amplify's "Migrating GraphQL
  /// schemas to the v2 transformer"): `@key(name:)` → `@index`, `@key` without `name:` →
  /// `@primaryKey`, `@connection` → `@hasMany`/`@hasOne`/`@belongsTo`, `@versioned` → the API's
  /// conflict resolution; `nil` for other directives.
  static func v1Replacement(_ directive: Directive) -> String? {
    switch directive.name.value {
    case "key":
      let hasName = directive.arguments.contains { $0.name.value == "name" }
      return hasName
        ? "`@index(name:, sortKeyFields:)` on the key's first field"
        : "`@primaryKey(sortKeyFields:)` on the key's first field"
    case "connection":
      return "`@hasMany`, `@hasOne` or `@belongsTo` (and `@manyToMany` for a join through a model)"
    case "versioned":
      // v1's `@versioned` became the API's conflict detection (`ResolverConfig` in v2).
      return
        "conflict resolution for the whole API: `--conflict-resolution automerge` (or `optimistic`, `lambda`), or `\"conflictResolution\"` in modelgen-config.json"
    default:
      return nil
    }
  }

  private static func checkAll(_ directives: [Directive], placement: Placement, context: AnalysisContext) {
    var seen: [String: SourceRange] = [:]
    for directive in directives {
      let name = directive.name.value
      if name == "searchable", !context.declaredDirectives.contains(name) {
        // The searchable transformer adds OpenSearch resolvers, `search<Plural>` and its
        // `Searchable…` inputs; modelgen emits none of them, so the API would lack what the
        // schema asks for. Refused rather than dropped in silence.
        context.report(
          .unsupportedDirective(
            name: name, feature: "OpenSearch resolvers or `search…` query (the searchable transformer's)",
            instead:
              "remove `@searchable` and filter with the `list…` query or an `@index` query instead"
          ), at: directive.range)
        continue
      }
      guard let spec = specs[name] else {
        if !passThroughDirectives.contains(name), !context.declaredDirectives.contains(name) {
          if let replacement = v1Replacement(directive) {
            context.report(.v1Directive(name: name, replacement: replacement), at: directive.range)
            continue
          }
          let suggestion = Naming.suggestion(for: name, among: Array(specs.keys).sorted())
          context.report(.unknownDirective(name: name, suggestion: suggestion), at: directive.range)
        } else if let first = seen[name], !isRepeatable(name, in: context) {
          context.report(
            .repeatedDirective(directive: name), at: directive.range,
            notes: [DiagnosticNote(message: "first used here", range: first)])
        }
        seen[name] = seen[name] ?? directive.range
        continue
      }
      if let first = seen[name], !spec.isRepeatable {
        context.report(
          .repeatedDirective(directive: name), at: directive.range,
          notes: [DiagnosticNote(message: "first used here", range: first)])
      }
      seen[name] = seen[name] ?? directive.range
      if !spec.placements.contains(placement) {
        context.report(
          .misplacedDirective(directive: name, placement: spec.placementDescription), at: directive.range)
      }
      checkArguments(of: directive, spec: spec, context: context)
    }
  }

  private static func checkArguments(of directive: Directive, spec: Spec, context: AnalysisContext) {
    let name = directive.name.value
    var given: Set<String> = []
    for argument in directive.arguments {
      let argumentName = argument.name.value
      if !given.insert(argumentName).inserted {
        context.report(.repeatedDirective(directive: "\(name)(\(argumentName):)"), at: argument.name.range)
        continue
      }
      guard let shape = spec.arguments[argumentName] else {
        let suggestion = Naming.suggestion(for: argumentName, among: spec.arguments.keys.sorted())
        context.report(
          .unknownArgument(
            directive: name, argument: argumentName, suggestion: suggestion, arguments: spec.arguments.keys.sorted()),
          at: argument.name.range)
        continue
      }
      if let expected = mismatch(argument.value, shape) {
        context.report(
          .invalidArgumentValue(
            directive: name, argument: argumentName, expected: expected,
            fix: Self.validForm(of: argument.value, shape, directive: name, argument: argumentName)),
          at: argument.value.range)
      } else if let keys = nameArguments[name]?[argumentName] {
        checkNames(in: argument.value, keys: keys, directive: name, argument: argumentName, context: context)
      }
    }
    for requiredName in spec.required.sorted() where !given.contains(requiredName) {
      context.report(.missingArgument(directive: name, argument: requiredName), at: directive.range)
    }
  }

  /// The arguments whose strings become GraphQL names (of types, fields, queries, indexes) and,
  /// through them, Swift identifiers and file names: `nil` means every string of the value; a set
  /// names the members of an object value (or of each object of a list) that hold names.
  static let nameArguments: [String: [String: Set<String>?]] = [
    "primaryKey": ["sortKeyFields": nil],
    "index": ["name": nil, "sortKeyFields": nil, "queryField": nil],
    "hasMany": ["indexName": nil, "fields": nil, "references": nil],
    "hasOne": ["fields": nil, "references": nil],
    "belongsTo": ["fields": nil, "references": nil],
    "manyToMany": ["relationName": nil],
    "model": [
      "queries": ["get", "list", "sync"],
      "mutations": ["create", "update", "delete"],
      "subscriptions": ["onCreate", "onUpdate", "onDelete"],
      "timestamps": ["createdAt", "updatedAt"],
    ],
    "auth": ["rules": ["ownerField", "groupsField"]],
  ]

  /// Reports every string of `value` (or of its members named in `keys`) that is not a GraphQL
  /// name (GraphQL spec §2.1.9 *Name*: `/[_A-Za-z][_0-9A-Za-z]*/`), or that starts with `__`
  /// (§4.1, reserved for introspection): such a string would name a type, field or file, so a
  /// `relationName: "../../X"` would write outside `--output` and an `ownerField: "x; func f() {}"`
  /// would be Swift code. MG014, with the name made of its letters, digits and `_` as the hint.
  private static func checkNames(
    in value: ConstValue, keys: Set<String>?, directive: String, argument: String, context: AnalysisContext
  ) {
    if let keys {
      let objects = value.objectFields.map { [$0] } ?? value.listValues?.compactMap(\.objectFields) ?? []
      for object in objects {
        for field in object where keys.contains(field.name.value) {
          checkNames(
            in: field.value, keys: nil, directive: directive, argument: "\(argument).\(field.name.value)",
            context: context)
        }
      }
      return
    }
    let strings = value.stringValue != nil ? [value] : (value.listValues ?? []).filter { $0.stringValue != nil }
    for string in strings {
      guard let text = string.stringValue, !isGraphQLName(text) else { continue }
      var suggestion = String(text.unicodeScalars.filter(isNameScalar).map(Character.init))
      while suggestion.hasPrefix("__") { suggestion.removeFirst() }
      while let first = suggestion.unicodeScalars.first, ("0"..."9").contains(first) { suggestion.removeFirst() }
      context.report(
        .invalidArgumentValue(
          directive: directive, argument: argument,
          expected: "a GraphQL name (letters, digits and `_`, not starting with a digit or `__`): it names a"
            + " type, field or file in the API schema and the Swift code",
          suggestion: suggestion.isEmpty ? nil : suggestion,
          fix: "write a name of letters, digits and `_` that starts with a letter or one `_` (`byOwner`)"),
        at: string.range)
    }
  }

  /// Whether `text` is a GraphQL name that does not start with `__`.
  static func isGraphQLName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, !("0"..."9").contains(first), !text.hasPrefix("__") else {
      return false
    }
    return text.unicodeScalars.allSatisfy(isNameScalar)
  }

  private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
  }

  /// A description of the expected value when `value` does not have `shape`, else `nil`.
  /// The hint of an MG014 ``mismatch(_:_:)``: the argument written in the form its shape takes,
  /// with the value written when it is a plain number, enum value or Boolean
  /// (`@default(value: 3)` → `` `@default(value: "3")` ``).
  private static func validForm(of value: ConstValue, _ shape: Shape, directive: String, argument: String) -> String {
    let written: String
    switch value {
    case .int(let text, _), .float(let text, _): written = text
    default: written = value.booleanValue.map { String($0) } ?? value.enumValueName ?? "…"
    }
    let shown = DiagnosticText.shortened(written)
    let form: String
    switch shape {
    case .string: form = "\(argument): \"\(shown)\""
    case .stringOrNull: form = "\(argument): \"\(shown)\"` or `\(argument): null"
    case .int: form = "\(argument): 10"
    case .stringList: form = "\(argument): [\"\(shown)\"]"
    case .objectOrNull: form = "\(argument): {…}` or `\(argument): null"
    case .objectList: form = "\(argument): [{…}]"
    }
    let prefix =
      shape == .string || shape == .stringOrNull || shape == .stringList ? "write it in double quotes: " : "write "
    return prefix + "`@\(DiagnosticText.shortened(directive))(\(form))`"
  }

  private static func mismatch(_ value: ConstValue, _ shape: Shape) -> String? {
    switch shape {
    case .string:
      return value.stringValue == nil ? "a string" : nil
    case .stringOrNull:
      return value.stringValue == nil && !value.isNull ? "a string or null" : nil
    case .int:
      return value.intValue == nil ? "an integer" : nil
    case .stringList:
      if value.stringValue != nil { return nil }
      if let values = value.listValues, values.allSatisfy({ $0.stringValue != nil }) { return nil }
      return "a list of strings"
    case .objectOrNull:
      return value.objectFields != nil || value.isNull ? nil : "an object or null"
    case .objectList:
      if value.objectFields != nil { return nil }
      if let values = value.listValues, values.allSatisfy({ $0.objectFields != nil }) { return nil }
      return "a list of objects"
    }
  }
}

/// Reading directive arguments whose shape ``DirectiveRule`` has checked.
extension Directive {
  /// A `String` argument, or `nil` when absent or not a string.
  func string(_ name: String) -> String? {
    argument(named: name)?.value.stringValue
  }

  /// A `[String]` argument (a single string counts as a list of one), or `nil`.
  func strings(_ name: String) -> [String]? {
    guard let value = argument(named: name)?.value else { return nil }
    if let single = value.stringValue { return [single] }
    guard let list = value.listValues else { return nil }
    let strings = list.compactMap(\.stringValue)
    return strings.count == list.count ? strings : nil
  }

  /// The range of an argument's value, or the directive name's range when absent.
  func range(of name: String) -> SourceRange {
    argument(named: name)?.value.range ?? self.range
  }

  /// The range of the `index`th string of a list argument, or of the whole value.
  func range(of name: String, element index: Int) -> SourceRange {
    guard let value = argument(named: name)?.value else { return self.range }
    if let list = value.listValues, index < list.count { return list[index].range }
    return value.range
  }
}
