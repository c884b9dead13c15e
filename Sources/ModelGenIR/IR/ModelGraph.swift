import GraphQLSDL

/// The validated model graph of one schema file: what the Amplify directives of the document mean.
///
/// Produced by ``SemanticAnalyzer`` from a `GraphQLSDL` document. Plain values only: every implicit
/// field (`id`, foreign keys, timestamps), every association and every `@manyToMany` join model is
/// spelled out, so the renderers never interpret directives themselves. The only parser leftovers are
/// ``SchemaLocation`` values for diagnostics.
///
/// Order: models, enums and non-model types appear in document order; join models that
/// `@manyToMany` creates follow the declared models, in the order their relation is first written.
public struct ModelGraph: Sendable, Hashable {
  /// The schema file name as given to the analyzer (`seed-post-comment.graphql`), used in file headers.
  public var sourceFileName: String
  /// Every `@model` type, declared ones first, then generated join models.
  public var models: [ModelDefinition]
  /// Every enum type.
  public var enums: [EnumDefinition]
  /// Every non-model object type (embedded types). `Query`, `Mutation` and `Subscription` are not included.
  public var nonModels: [NonModelDefinition]
  /// The conflict-resolution strategy the outputs are generated for (`--conflict-resolution`), or
  /// `nil` for no conflict detection (the default). Set by the pipeline from its options, not read
  /// from the schema text.
  public var conflictResolution: ConflictResolution? = nil
  /// The Swift type names the config file chose (`"swiftNames"`), GraphQL type name → Swift name,
  /// for types of this graph only; checked by the analyzer. Every other name follows
  /// `SwiftTypeNaming`'s rule.
  public var swiftNames: [String: String] = [:]
  /// The root types the schema declares itself (`type Query { echo: String }`), in document
  /// order, for the API schema (``CustomRootType``); empty when it declares none.
  public var customRootTypes: [CustomRootType] = []
  /// The `input` types the schema declares, in document order, for the API schema.
  public var customInputTypes: [CustomInputType] = []
  /// The `interface` and `union` types the schema declares, in document order, for the API schema
  /// (``AbstractTypeDefinition``); no Swift is generated for them.
  public var abstractTypes: [AbstractTypeDefinition] = []
  /// The Swift member names of each model and non-model type, GraphQL type name → names, as the
  /// analysis resolved them (``SwiftNameRule`` reports their renames); the Swift stage renders
  /// these instead of resolving them again. Empty in a graph built by hand, and ignored for a
  /// type whose fields changed since: the Swift stage then resolves that type's names itself.
  package var memberNames: [String: ResolvedMemberNames] = [:]

  /// Creates a graph.
  public init(
    sourceFileName: String, models: [ModelDefinition], enums: [EnumDefinition], nonModels: [NonModelDefinition]
  ) {
    self.sourceFileName = sourceFileName
    self.models = models
    self.enums = enums
    self.nonModels = nonModels
  }

  /// Every GraphQL type name of the graph: models (join models included), enums, non-model types.
  public var typeNames: [String] {
    models.map(\.name) + enums.map(\.name) + nonModels.map(\.name)
  }

  /// The model named `name` (GraphQL type name), or `nil`. O(n) in the number of models.
  public func model(named name: String) -> ModelDefinition? {
    models.first { $0.name == name }
  }

  /// The enum named `name`, or `nil`.
  public func enumeration(named name: String) -> EnumDefinition? {
    enums.first { $0.name == name }
  }

  /// The non-model type named `name`, or `nil`.
  public func nonModel(named name: String) -> NonModelDefinition? {
    nonModels.first { $0.name == name }
  }
}

/// A position in the schema text: 1-based line and 1-based column (in Unicode scalars, as GraphQLSDL counts).
public struct SchemaLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// 1-based line.
  public var line: Int
  /// 1-based column.
  public var column: Int

  /// Creates a location.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line:column`.
  public var description: String { "\(line):\(column)" }

  /// Orders by line, then column.
  public static func < (lhs: SchemaLocation, rhs: SchemaLocation) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }
}

extension SchemaLocation {
  /// The line and column of a parser location.
  public init(_ location: SourceLocation) {
    self.init(line: location.line, column: location.column)
  }
}
