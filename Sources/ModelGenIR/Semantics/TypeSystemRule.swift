import GraphQLSDL

/// The GraphQL type-system rules (October 2021 spec, §3 "Type System") for what the user declares
/// beside the Amplify directives: field arguments, `input` types, enum values and directive
/// definitions. A schema that breaks them passes through the generator into `schema.api.graphql`,
/// which AWS AppSync (and graphql-core's `build_schema`/`assert_valid_schema`) then refuses.
///
/// Checks, at the offending name or value, each once:
/// - MG050: two arguments with one name on a field or a directive definition (§3.6 "Field
///   Arguments", §3.13: "each argument must have a unique name").
/// - MG005: two fields with one name in an `input` type, definition and extensions together (§3.10;
///   fields of object types, interfaces and enum values are ``TypeResolution``'s).
/// - MG051: two `directive @name` definitions with one name (§3.13).
/// - MG052: a default value (`a(x: Int = 5)`, `input I { f: [E!] = [A] }`, a directive argument's)
///   that the input coercion rules of its type refuse (§3.10 "Input Coercion", §3.11, §3.12,
///   §3.5: `Int` is a 32-bit integer, `Float` a finite number, `ID` a string or integer, enum
///   values by name only, a single value where a list is expected, input objects with every
///   required field and no unknown or repeated one, `null` only for a nullable type; AppSync's
///   scalars by the formats ``DefaultRule`` checks, `AWSTimestamp` an integer).
/// - MG053: an object type that is not a model, an interface or an `input` type with no fields
///   (§3.6, §3.7, §3.10: "must define one or more fields"; a model gets its implicit `id`, the root
///   types get the generated fields).
/// - MG054: `input` types that contain themselves through non-null fields that are not lists
///   (`input I { i: I! }`, `A.b: B!` → `B.a: A!`): no finite value exists (§3.10 "Circular
///   References"). Reported once per cycle at the field that closes it.
/// - MG036: an argument, input field, directive or directive argument named with a leading `__`
///   (§3.6, §3.10, §3.13; type, field and enum value names are ``TypeResolution``'s).
/// - MG001/MG021: an argument of a directive definition or of a field of a model, non-model type
///   or interface whose type is not defined, or is not a scalar, enum or `input` type (root fields
///   and input fields are ``CustomRootRule``'s).
///
/// Pure function of the context; runs after ``DirectiveRule``, before the graph is built.
enum TypeSystemRule {
  static func check(_ document: Document, _ context: AnalysisContext) {
    for name in context.typeOrder {
      guard let entry = context.types[name] else { continue }
      checkFields(of: entry, in: context)
      if entry.kind == .unsupported("input") {
        checkInputFields(of: entry, in: context)
      }
      switch entry.kind {
      case .nonModel where entry.fields.isEmpty:
        context.report(.typeWithoutFields(name: name, kind: "object type"), at: entry.nameRange)
      case .unsupported("interface") where entry.fields.isEmpty:
        context.report(.typeWithoutFields(name: name, kind: "interface"), at: entry.nameRange)
      case .unsupported("input") where entry.inputFields.isEmpty:
        context.report(.typeWithoutFields(name: name, kind: "input type"), at: entry.nameRange)
      default:
        break
      }
    }
    checkDirectiveDefinitions(of: document, in: context)
    checkInputCycles(context)
    checkDirectiveUses(of: document, in: context)
  }

  // MARK: - Directive uses

  /// The definitions of the directives AWS AppSync and GraphQL declare themselves (AppSync's
  /// schema prelude, as the local server declares them; GraphQL spec §3.13.3, §3.13.4), which the
  /// API schema keeps (``CustomRootRule/printedDirectives``).
  static let builtInDirectiveSDL = """
    directive @deprecated(reason: String = "No longer supported") on FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM_VALUE
    directive @specifiedBy(url: String!) on SCALAR
    directive @aws_subscribe(mutations: [String!]!) on FIELD_DEFINITION
    directive @aws_auth(cognito_groups: [String]) on FIELD_DEFINITION
    directive @aws_api_key on OBJECT | FIELD_DEFINITION
    directive @aws_iam on OBJECT | FIELD_DEFINITION
    directive @aws_oidc on OBJECT | FIELD_DEFINITION
    directive @aws_cognito_user_pools(cognito_groups: [String]) on OBJECT | FIELD_DEFINITION
    directive @aws_lambda on OBJECT | FIELD_DEFINITION
    """

  /// ``builtInDirectiveSDL``, parsed once.
  static let builtInDirectives: [String: DirectiveDefinition] = {
    var result: [String: DirectiveDefinition] = [:]
    for case .directive(let definition) in SDLParser.parse(builtInDirectiveSDL, fileName: "appsync.graphql").document
      .definitions
    {
      result[definition.name.value] = definition
    }
    return result
  }()

  /// Every use of a directive the document declares (`directive @name …`) or AppSync/GraphQL
  /// declares (``builtInDirectives``), checked against its definition as GraphQL validation does
  /// (§5.7.1–§5.7.2, §5.4.1–§5.4.3, §5.6.1): MG016 at a use in a location the definition does not
  /// list (`@aws_iam` on an argument), MG003 at an argument it does not take (with a did-you-mean),
  /// MG017 at a repeated argument, MG046 at a value that does not coerce to the argument's type
  /// (`@deprecated(reason: 1)`), MG015 at a use without a required argument; MG047 at
  /// `@deprecated` on a required argument or input field (non-null, no default: §3.13.3, "must not
  /// be required"). The Amplify directives are ``DirectiveRule``'s; its pass-through directives
  /// that AppSync does not define (`@function`, `@http`, …) are dropped from the API schema and not
  /// checked here.
  private static func checkDirectiveUses(of document: Document, in context: AnalysisContext) {
    // AppSync's own definitions hold whatever the document restates (the API schema declares no
    // directive, so AppSync's apply); for the others, the document's first definition (a second
    // is MG051).
    var definitions = builtInDirectives
    for case .directive(let definition) in document.definitions where definitions[definition.name.value] == nil {
      definitions[definition.name.value] = definition
    }
    // `placement` is built only for a directive that is checked here (most uses are Amplify's own,
    // which `DirectiveRule` checks), not for every field of every type.
    func check(_ directives: [Directive], at location: DirectiveLocation, placement: () -> String) {
      for directive in directives {
        guard let definition = definitions[directive.name.value], DirectiveRule.specs[directive.name.value] == nil
        else { continue }
        checkUse(directive, against: definition, at: location, placement: placement(), in: context)
      }
    }
    for name in context.typeOrder {
      guard let entry = context.types[name] else { continue }
      let location: DirectiveLocation
      switch entry.kind {
      case .model, .nonModel, .unsupported("root operation"): location = .object
      case .enumeration: location = .enumType
      case .unsupported("input"): location = .inputObject
      case .unsupported("interface"): location = .interface
      case .unsupported("union"): location = .union
      default: location = .scalar
      }
      check(entry.directives, at: location) { "type `\(text(name))`" }
      for field in entry.fields {
        let owner = { "\(name).\(field.name.value)" }
        check(field.directives, at: .fieldDefinition) { "the field `\(text(owner()))`" }
        for argument in field.arguments {
          check(argument.directives, at: .argumentDefinition) {
            "the argument `\(text(owner()))(\(text(argument.name.value)):)`"
          }
          checkDeprecatedRequired(argument, kind: "argument", owner: "\(owner())(\(argument.name.value):)", in: context)
        }
      }
      for field in entry.inputFields {
        let owner = { "\(name).\(field.name.value)" }
        check(field.directives, at: .inputFieldDefinition) { "the input field `\(text(owner()))`" }
        checkDeprecatedRequired(field, kind: "input field", owner: owner(), in: context)
      }
      for value in entry.enumValues {
        check(value.directives, at: .enumValue) { "the enum value `\(text(name)).\(text(value.name.value))`" }
      }
    }
  }

  /// MG016, MG003, MG017, MG046 and MG015 for one use of a directive defined by `definition`.
  private static func checkUse(
    _ directive: Directive, against definition: DirectiveDefinition, at location: DirectiveLocation,
    placement: String, in context: AnalysisContext
  ) {
    let name = directive.name.value
    if !definition.locations.contains(where: { $0.location == location }) {
      let allowed = definition.locations.map(\.location.rawValue).joined(separator: " | ")
      context.report(
        .misplacedDirective(
          directive: name,
          placement: "is not allowed on \(placement) (\(location.rawValue)); it is defined on \(allowed)"),
        at: directive.range)
    }
    var parameters: [String: InputValueDefinition] = [:]
    for argument in definition.arguments where parameters[argument.name.value] == nil {
      parameters[argument.name.value] = argument
    }
    var given: Set<String> = []
    for argument in directive.arguments {
      let argumentName = argument.name.value
      guard given.insert(argumentName).inserted else {
        context.report(.repeatedDirective(directive: "\(name)(\(argumentName):)"), at: argument.name.range)
        continue
      }
      guard let parameter = parameters[argumentName] else {
        let suggestion = Naming.suggestion(for: argumentName, among: parameters.keys.sorted())
        context.report(
          .unknownArgument(
            directive: name, argument: argumentName, suggestion: suggestion, arguments: parameters.keys.sorted()),
          at: argument.name.range)
        continue
      }
      if isSubscribeMutations(name, argumentName) { continue }
      if let mismatch = coerce(argument.value, to: parameter.type, in: context) {
        context.report(
          .invalidDirectiveArgument(
            directive: name, argument: argumentName, typeName: parameter.type.description, reason: mismatch.reason),
          at: mismatch.range)
      }
    }
    for parameter in definition.arguments
    where parameter.type.isNonNull && parameter.defaultValue == nil && !given.contains(parameter.name.value)
      && !isSubscribeMutations(name, parameter.name.value)
    {
      context.report(.missingArgument(directive: name, argument: parameter.name.value), at: directive.range)
    }
  }

  /// `@aws_subscribe(mutations:)`, whose value (missing, not a list of names, empty) is MG038
  /// (``OperationNameRule``, which also checks the names against `Mutation`).
  private static func isSubscribeMutations(_ directive: String, _ argument: String) -> Bool {
    directive == "aws_subscribe" && argument == "mutations"
  }

  /// MG047: `@deprecated` on a required (non-null, no default) argument or input field.
  private static func checkDeprecatedRequired(
    _ value: InputValueDefinition, kind: String, owner: @autoclosure () -> String, in context: AnalysisContext
  ) {
    guard value.type.isNonNull, value.defaultValue == nil,
      let directive = value.directives.first(where: { $0.name.value == "deprecated" }),
      !context.declaredDirectives.contains("deprecated")
    else { return }
    context.report(.deprecatedRequiredInput(owner: owner(), kind: kind), at: directive.range)
  }

  // MARK: - Fields and arguments

  /// MG050, MG036 and MG052 for the arguments of every field of `entry` (object types, models,
  /// root types, interfaces), and MG001/MG021 for argument types outside root types.
  private static func checkFields(of entry: TypeEntry, in context: AnalysisContext) {
    var seenFields: Set<String> = []
    for field in entry.fields where seenFields.insert(field.name.value).inserted {
      checkArguments(field.arguments, of: "\(entry.name).\(field.name.value)", in: context)
      for argument in field.arguments {
        if let defaultValue = argument.defaultValue {
          checkDefault(
            defaultValue, type: argument.type,
            owner: entry.name, field: field.name.value, argument: argument.name.value, in: context)
        }
        // Root fields' argument types are CustomRootRule's (MG001/MG021).
        if entry.kind != .unsupported("root operation") {
          checkInputType(
            argument.type, owner: entry.name, field: field.name.value, argument: argument.name.value,
            reportUnknown: true, in: context)
        }
      }
    }
  }

  /// MG050 for a repeated argument name and MG036 for a `__` one, in `arguments` of `owner`
  /// (`Query.search` or `@cached`).
  private static func checkArguments(
    _ arguments: [InputValueDefinition], of owner: @autoclosure () -> String, isDirective: Bool = false,
    in context: AnalysisContext
  ) {
    var seen: [String: SourceRange] = [:]
    for argument in arguments {
      let name = argument.name
      if let first = seen[name.value] {
        context.report(
          .duplicateArgument(owner: owner(), argument: name.value), at: name.range,
          notes: [DiagnosticNote(message: "first defined here", range: first)])
        continue
      }
      seen[name.value] = name.range
      if name.value.hasPrefix("__") {
        context.report(
          .reservedName(name: name.value, kind: isDirective ? "directive argument" : "argument"), at: name.range)
      }
    }
  }

  /// MG005 for a repeated input field, MG036 for a `__` one, MG052 for a default value that does
  /// not coerce to the field's type.
  private static func checkInputFields(of entry: TypeEntry, in context: AnalysisContext) {
    var seen: [String: SourceRange] = [:]
    for field in entry.inputFields {
      let name = field.name
      if let first = seen[name.value] {
        context.report(
          .duplicateField(owner: entry.name, field: name.value), at: name.range,
          notes: [DiagnosticNote(message: "first defined here", range: first)])
        continue
      }
      seen[name.value] = name.range
      if name.value.hasPrefix("__") {
        context.report(.reservedName(name: name.value, kind: "input field"), at: name.range)
      }
      if let defaultValue = field.defaultValue {
        checkDefault(
          defaultValue, type: field.type, owner: entry.name, field: name.value, argument: nil, in: context)
      }
    }
  }

  /// MG001 for an argument type that is not defined (when `reportUnknown`; else another rule
  /// reports it) and MG021 for one that is not an input type: an object type, model, interface,
  /// union, or a custom scalar (which AppSync does not support; ``CustomRootRule`` refuses it on
  /// root fields and input fields alike).
  private static func checkInputType(
    _ type: TypeReference, owner: String, field: String?, argument: String, reportUnknown: Bool = false,
    in context: AnalysisContext
  ) {
    let named = type.namedType
    if ScalarType(rawValue: named.value) != nil { return }
    guard let entry = context.types[named.value] else {
      guard reportUnknown else { return }
      let suggestion = Naming.suggestion(for: named.value, among: context.typeOrder)
      context.report(.unknownType(name: named.value, suggestion: suggestion), at: named.range)
      return
    }
    let kind: String
    switch entry.kind {
    case .scalar, .enumeration, .unsupported("input"): return
    case .model: kind = "model"
    case .nonModel: kind = "object"
    case .unsupported("root operation"): kind = "object"
    case .unsupported(let described): kind = described
    }
    context.report(
      .invalidCustomFieldType(
        owner: owner, field: field ?? "", argument: argument, typeName: named.value, kind: kind, expectsInput: true),
      at: named.range)
  }

  // MARK: - Directive definitions

  /// MG051, MG036, MG050, MG001/MG021 and MG052 for every `directive @name` of the document.
  private static func checkDirectiveDefinitions(of document: Document, in context: AnalysisContext) {
    var seen: [String: SourceRange] = [:]
    for case .directive(let definition) in document.definitions {
      let name = definition.name
      if let first = seen[name.value] {
        context.report(
          .duplicateDirective(name: name.value), at: name.range,
          notes: [DiagnosticNote(message: "first defined here", range: first)])
        continue
      }
      seen[name.value] = name.range
      if name.value.hasPrefix("__") {
        context.report(.reservedName(name: name.value, kind: "directive"), at: name.range)
      }
      let owner = "@\(name.value)"
      checkArguments(definition.arguments, of: owner, isDirective: true, in: context)
      var arguments: Set<String> = []
      for argument in definition.arguments where arguments.insert(argument.name.value).inserted {
        checkInputType(
          argument.type, owner: owner, field: nil, argument: argument.name.value, reportUnknown: true,
          in: context)
        if let defaultValue = argument.defaultValue {
          checkDefault(
            defaultValue, type: argument.type,
            owner: owner, field: nil, argument: argument.name.value, in: context)
        }
      }
    }
  }

  // MARK: - Input object cycles

  /// MG054: a depth-first walk over the non-null, non-list input fields of the `input` types, in
  /// document order (an explicit stack, so a long chain of types cannot exhaust the thread's
  /// stack).
  private static func checkInputCycles(_ context: AnalysisContext) {
    /// The edges of one input type: its non-null, non-list fields whose type is an input type.
    func edges(of type: String) -> [(field: Name, target: String)] {
      var seen: Set<String> = []
      var result: [(field: Name, target: String)] = []
      for field in context.types[type]?.inputFields ?? [] where seen.insert(field.name.value).inserted {
        guard case .nonNull(.named(let target), _) = field.type,
          context.types[target.value]?.kind == .unsupported("input")
        else { continue }
        result.append((field.name, target.value))
      }
      return result
    }
    /// `false` while a type is on the walk's path, `true` once all its fields are walked.
    var finished: [String: Bool] = [:]
    for start in context.typeOrder where context.types[start]?.kind == .unsupported("input") && finished[start] == nil {
      // Each frame: a type on the path, its edges and the next edge to follow.
      var stack: [(type: String, edges: [(field: Name, target: String)], next: Int)] = [(start, edges(of: start), 0)]
      finished[start] = false
      while let top = stack.last {
        guard top.next < top.edges.count else {
          finished[top.type] = true
          stack.removeLast()
          continue
        }
        stack[stack.count - 1].next += 1
        let (field, target) = top.edges[top.next]
        switch finished[target] {
        case false?:
          let first = stack.firstIndex { $0.type == target } ?? 0
          let steps = stack[first...].map { frame in
            "\(frame.type).\(frame.edges[frame.next - 1].field.value)"
          }
          context.report(
            .inputTypeCycle(owner: top.type, field: field.value, cycle: steps + [target]), at: field.range)
        case nil:
          finished[target] = false
          stack.append((target, edges(of: target), 0))
        case true?:
          break
        }
      }
    }
  }

  // MARK: - Default values

  /// Why a value does not coerce, and the (innermost) value that does not.
  struct Mismatch {
    let reason: String
    let range: SourceRange
  }

  /// MG052 when `value` does not coerce to `type`.
  private static func checkDefault(
    _ value: ConstValue, type: TypeReference, owner: String, field: String?, argument: String?,
    in context: AnalysisContext
  ) {
    guard let mismatch = coerce(value, to: type, in: context) else { return }
    context.report(
      .invalidDefaultValue(
        owner: owner, field: field, argument: argument, typeName: type.description, reason: mismatch.reason),
      at: mismatch.range)
  }

  /// The first reason `value` does not coerce to `type` by the spec's input coercion rules, or
  /// `nil` when it does (or when `type` is not an input type: that is MG001/MG021 elsewhere).
  /// Recursion follows the value's nesting, which the parser bounds (SDL028).
  static func coerce(_ value: ConstValue, to type: TypeReference, in context: AnalysisContext) -> Mismatch? {
    switch type {
    case .nonNull(let inner, _):
      if value.isNull {
        return Mismatch(
          reason: "`null` is not a value of the non-null type `\(text(type.description))`", range: value.range)
      }
      return coerce(value, to: inner, in: context)
    case .list(let element, _):
      guard let values = value.listValues else {
        // §3.11: a single value where a list is expected is a list of one.
        return value.isNull ? nil : coerce(value, to: element, in: context)
      }
      for member in values {
        if let mismatch = coerce(member, to: element, in: context) { return mismatch }
      }
      return nil
    case .named(let name):
      return value.isNull ? nil : coerce(value, toNamed: name.value, in: context)
    }
  }

  private static func coerce(_ value: ConstValue, toNamed name: String, in context: AnalysisContext) -> Mismatch? {
    func mismatch(_ reason: String) -> Mismatch { Mismatch(reason: reason, range: value.range) }
    if let scalar = ScalarType(rawValue: name) {
      return coerce(value, toScalar: scalar).map(mismatch)
    }
    guard let entry = context.types[name] else { return nil }
    switch entry.kind {
    case .enumeration:
      let values = entry.enumValues.map(\.name.value)
      if let written = value.enumValueName {
        if values.contains(written) { return nil }
        let suggestion = Naming.suggestion(for: written, among: values)
        return mismatch(
          "`\(text(name))` has no value `\(text(written))`" + (suggestion.map { "; did you mean `\(text($0))`?" } ?? "")
        )
      }
      if let written = value.stringValue, values.contains(written) {
        return mismatch("an enum value is written as a name, without quotes: `\(text(written))`")
      }
      return mismatch("expected a value of enum `\(text(name))`, found \(describe(value))")
    case .unsupported("input"):
      return coerce(value, toInput: entry, in: context)
    case .unsupported("custom scalar"):
      return nil  // A custom scalar's literal coercion is its server's.
    default:
      return nil  // An output type: MG021 at the type.
    }
  }

  /// §3.10 "Input Coercion" for an input object literal.
  private static func coerce(_ value: ConstValue, toInput entry: TypeEntry, in context: AnalysisContext) -> Mismatch? {
    guard let written = value.objectFields else {
      return Mismatch(
        reason: "expected an input object of `\(text(entry.name))`, found \(describe(value))", range: value.range)
    }
    var fields: [String: InputValueDefinition] = [:]
    for field in entry.inputFields where fields[field.name.value] == nil { fields[field.name.value] = field }
    var given: Set<String> = []
    for member in written {
      guard given.insert(member.name.value).inserted else {
        return Mismatch(reason: "`\(text(member.name.value))` is given more than once", range: member.name.range)
      }
      guard let field = fields[member.name.value] else {
        let suggestion = Naming.suggestion(for: member.name.value, among: entry.inputFields.map(\.name.value))
        return Mismatch(
          reason: "`\(text(entry.name))` has no field `\(text(member.name.value))`"
            + (suggestion.map { "; did you mean `\(text($0))`?" } ?? ""),
          range: member.name.range)
      }
      if let mismatch = coerce(member.value, to: field.type, in: context) { return mismatch }
    }
    var seen: Set<String> = []
    for field in entry.inputFields where seen.insert(field.name.value).inserted {
      if field.type.isNonNull, field.defaultValue == nil, !given.contains(field.name.value) {
        return Mismatch(
          reason: "the required field `\(text(field.name.value))` of `\(text(entry.name))` is missing",
          range: value.range)
      }
    }
    return nil
  }

  /// The reason a literal is not a value of `scalar`, or `nil`. §3.5: `Int` is a signed 32-bit
  /// integer, `Float` a finite double (an integer literal is one too), `ID` a string or an integer;
  /// AppSync's scalars take strings in the formats ``DefaultRule`` checks, `AWSTimestamp` an
  /// integer (seconds since the epoch).
  private static func coerce(_ value: ConstValue, toScalar scalar: ScalarType) -> String? {
    switch (scalar, value) {
    case (.int, .int(let written, _)):
      return Int32(written) == nil
        ? "`\(text(written))` is outside the range of `Int`, a signed 32-bit integer (-2147483648 to 2147483647)"
        : nil
    case (.awsTimestamp, .int(let written, _)):
      return Int64(written) == nil ? "`\(text(written))` is outside the range of a 64-bit integer" : nil
    case (.float, .int(let written, _)), (.float, .float(let written, _)):
      return Double(written)?.isFinite == true ? nil : "`\(text(written))` is not a finite `Float`"
    case (.id, .int), (.id, .string), (.string, .string), (.boolean, .boolean):
      return nil
    case (.int, _), (.awsTimestamp, _):
      return "expected an integer, found \(describe(value))"
    case (.float, _):
      return "expected a number, found \(describe(value))"
    case (.id, _):
      return "expected a string or an integer, found \(describe(value))"
    case (.string, _):
      return "expected a string, found \(describe(value))"
    case (.boolean, _):
      return "expected `true` or `false`, found \(describe(value))"
    default:
      guard let written = value.stringValue else { return "expected a string, found \(describe(value))" }
      if case .failure(let rejection) = DefaultRule.scalarDefault(written, of: scalar) { return rejection.reason }
      return nil
    }
  }

  /// What kind of literal `value` is, for a message.
  private static func describe(_ value: ConstValue) -> String {
    switch value {
    case .int(let written, _): "the integer `\(text(written))`"
    case .float(let written, _): "the number `\(text(written))`"
    case .string(let string): "the string \"\(text(string.value))\""
    case .boolean(let flag, _): "`\(flag)`"
    case .null: "`null`"
    case .enumValue(let name): "the enum value `\(text(name.value))`"
    case .list: "a list"
    case .object: "an input object"
    }
  }

  /// User text inside a reason, shortened like every quoted piece of a diagnostic.
  private static func text(_ value: String) -> String {
    DiagnosticText.shortened(value, limit: 40)
  }
}
