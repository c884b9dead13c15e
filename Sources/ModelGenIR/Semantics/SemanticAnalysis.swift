import GraphQLSDL

/// The result of analysing one schema document: the model graph when the document has no errors,
/// and every diagnostic found (errors and warnings), sorted by position.
public struct SemanticAnalysis: Sendable, Hashable {
  /// The validated model graph, or `nil` when ``diagnostics`` contains an error.
  public var graph: ModelGraph?
  /// All diagnostics of the file, in source order.
  public var diagnostics: [Diagnostic]

  /// Creates a result.
  public init(graph: ModelGraph?, diagnostics: [Diagnostic]) {
    self.graph = graph
    self.diagnostics = diagnostics
  }

  /// `true` when at least one diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
