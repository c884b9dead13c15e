import GraphQLSDL

/// The result of analysing one schema document: the model graph when the document has no errors,
/// and every diagnostic found (errors and warnings), sorted by position.
public struct SemanticAnalysis: Sendable, Hashable {
  /// The validated model graph, or `nil` when ``diagnostics`` contains an error.
  public var graph: ModelGraph?
  /// All diagnostics of the file, in source order.
  public var diagnostics: [Diagnostic]
  /// The config's `"swiftNames"` entries for types of this schema that cannot be used: GraphQL
  /// type name → what is wrong (not a declarable Swift type name, or colliding with another
  /// type's Swift name, ignoring letter case). Such entries are not applied; the CLI reports them
  /// at their position in the config file.
  public var swiftNameProblems: [String: SwiftNameProblem]
  /// The config's `"swiftNames"` keys that name a type of this schema.
  public var usedSwiftNames: Set<String>
  /// The names of the types a `"swiftNames"` key may name (models, enums and non-model types),
  /// or `nil` when the document was not analysed (it did not parse): then no key can be said to
  /// name no type of it.
  public var typeNames: Set<String>?

  /// Creates a result.
  public init(
    graph: ModelGraph?, diagnostics: [Diagnostic], swiftNameProblems: [String: SwiftNameProblem] = [:],
    usedSwiftNames: Set<String> = [], typeNames: Set<String>? = nil
  ) {
    self.graph = graph
    self.diagnostics = diagnostics
    self.swiftNameProblems = swiftNameProblems
    self.usedSwiftNames = usedSwiftNames
    self.typeNames = typeNames
  }

  /// `true` when at least one diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
