import GraphQLSDL

/// Bridge to the semantic-analysis stage (replaced by the analyzer's entry point once it lands).
enum SchemaAnalysis {
  static func analyze(_ document: Document, fileName: String) -> SemanticAnalysis {
    SemanticAnalysis(graph: nil, diagnostics: [])
  }
}
