import GraphQLSDL

/// The semantic stage of the generator: Amplify GraphQL Transformer v2 directive semantics over a
/// `GraphQLSDL` document, producing the validated ``ModelGraph``.
///
/// The rules run in a fixed order, each in its own file: `TypeResolution`, `DirectiveRule`,
/// `TypeSystemRule`, `ModelRule`, `EmbeddedCycleRule`, `PrimaryKeyRule`, `IndexRule`, `AuthRule`, `RelationPairing`,
/// `ManyToManyRule`, `HasManyRule`, `HasOneRule`, `BelongsToRule`, `DefaultRule`, `ConflictResolutionRule`, `AbstractTypeRule`, `NameCollisionRule`, `CustomRootRule`, `OperationNameRule`, `SwiftNameRule`. Every rule reports all the
/// problems it finds; the graph is returned only when no error was reported. Pure function of its
/// input: thread-safe, no I/O.
public enum SemanticAnalyzer {
  /// Analyses a parsed document.
  /// - Parameters:
  ///   - document: a type-system document (parse it with `SDLParser.parse`).
  ///   - fileName: the schema file name diagnostics and the graph carry (`seed-post-comment.graphql`).
  ///   - budget: what is left of the schema's diagnostics budget after parsing
  ///     (`ParseResult.budget`); at most that many diagnostics are reported, then one `SDL099`.
  ///   - swiftNames: the config file's `"swiftNames"` (GraphQL type name → Swift type name). The
  ///     entries naming a type of this document are checked (`SwiftTypeNaming`); those that
  ///     fail are reported in ``SemanticAnalysis/swiftNameProblems`` and not applied.
  ///   - conflictResolution: the run's conflict-resolution strategy (`--conflict-resolution`, config
  ///     `conflictResolution`), or `nil`. With one, the analysis knows what the transformer adds for a
  ///     versioned data source: a user root field named `sync<PluralName>` is MG030, a declared
  ///     `_version`/`_deleted`/`_lastChangedAt` field is MG037; the graph carries it
  ///     (``ModelGraph/conflictResolution``).
  /// - Returns: the graph (when error-free) and every diagnostic, sorted by position (`SDL099` last).
  public static func analyze(
    _ document: Document, fileName: String, budget: DiagnosticBudget = DiagnosticBudget(),
    swiftNames: [String: String] = [:], conflictResolution: ConflictResolution? = nil
  ) -> SemanticAnalysis {
    let context = AnalysisContext(fileName: fileName, budget: budget)
    context.conflictResolution = conflictResolution
    TypeResolution.collectTypes(of: document, into: context)
    DirectiveRule.check(context)
    TypeSystemRule.check(document, context)
    ModelRule.buildModels(context)
    let nonModels = ModelRule.buildNonModels(context)
    EmbeddedCycleRule.check(context)
    let enums = ModelRule.buildEnums(context)
    PrimaryKeyRule.apply(context)
    IndexRule.apply(context)
    AuthRule.apply(context)
    let pairing = RelationPairing(context)
    ManyToManyRule.apply(pairing, context)
    let foreignKeys = HasManyRule.apply(pairing, context)
    HasOneRule.apply(pairing, context)
    BelongsToRule.apply(pairing, hasManyForeignKeys: foreignKeys, context)
    DefaultRule.apply(context)
    ConflictResolutionRule.apply(context)
    let abstractTypes = AbstractTypeRule.apply(context)
    // No rule after this point changes a model: each is finished once, for the rules that read
    // finished models and for the graph.
    let models = context.orderedModels.map(ModelRule.finish)
    NameCollisionRule.apply(context, models: models)
    let custom = CustomRootRule.build(context)
    OperationNameRule.apply(context, models: models)
    let typeNames =
      context.orderedModels.map(\.name) + enums.map(\.name) + nonModels.map(\.name)
    // The Swift properties of every generated type: a type named like one is shadowed by it.
    let memberNames = Set(
      (context.orderedModels.flatMap { $0.declared.map(\.ast.name.value) }
        + nonModels.flatMap { $0.fields.map(\.name) }).map(SwiftNames.propertyName))
    let problems = SwiftTypeNaming.overrideProblems(swiftNames, graphQLNames: typeNames, memberNames: memberNames)
    let present = Set(typeNames)
    context.swiftNames = swiftNames.filter { present.contains($0.key) && problems[$0.key] == nil }
    let resolvedMembers = SwiftNameRule.apply(context, models: models, nonModels: nonModels)

    let diagnostics = sorted(context.diagnostics)
    let usedSwiftNames = Set(swiftNames.keys.filter(present.contains))
    guard !context.hasErrors else {
      return SemanticAnalysis(
        graph: nil, diagnostics: diagnostics, swiftNameProblems: problems, usedSwiftNames: usedSwiftNames,
        typeNames: present)
    }
    var graph = ModelGraph(
      sourceFileName: fileName, models: models, enums: enums, nonModels: nonModels)
    graph.swiftNames = context.swiftNames
    graph.conflictResolution = conflictResolution
    graph.customRootTypes = custom.roots
    graph.customInputTypes = custom.inputs
    graph.abstractTypes = abstractTypes
    graph.memberNames = resolvedMembers
    return SemanticAnalysis(
      graph: graph, diagnostics: diagnostics, swiftNameProblems: problems, usedSwiftNames: usedSwiftNames,
      typeNames: present)
  }

  /// Parses and analyses schema text. Parse errors are returned as they are (GraphQLSDL's `SDL` codes)
  /// and stop the analysis; otherwise the result is ``analyze(_:fileName:)``'s, with parser warnings first.
  /// - Parameters:
  ///   - source: the schema text.
  ///   - fileName: the schema file name diagnostics and the graph carry.
  ///   - conflictResolution: as for ``analyze(_:fileName:budget:swiftNames:conflictResolution:)``.
  public static func analyze(
    source: String, fileName: String, conflictResolution: ConflictResolution? = nil
  ) -> SemanticAnalysis {
    let parsed = SDLParser.parse(source, fileName: fileName)
    if parsed.hasErrors {
      return SemanticAnalysis(graph: nil, diagnostics: parsed.diagnostics)
    }
    var result = analyze(
      parsed.document, fileName: fileName, budget: parsed.budget, conflictResolution: conflictResolution)
    result.diagnostics = sorted(parsed.diagnostics + result.diagnostics)
    return result
  }

  private static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    DiagnosticBudget.inPrintingOrder(diagnostics)
  }
}
