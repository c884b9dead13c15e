import ModelGenIR

/// The decisions of the API schema made before any text is written: which shared inputs the
/// models use. The emitter then renders each definition once, reading this plan (no pass fills a
/// set that a later pass reads).
///
/// Amplify GraphQL Transformer v2 emits `Model<Enum>Input` / `Model<Enum>ListInput` only for
/// enums some model filters on. (Key condition inputs are placed where the primary key and index
/// transformers add them, `DefinitionOrder`.) A value; `Sendable`.
struct APISchemaPlan: Sendable {
  /// Enums a non-list filterable field has: they get `Model<Enum>Input`.
  var enumFilters: Set<String> = []
  /// Enums a list filterable field has: they get `Model<Enum>ListInput`.
  var enumListFilters: Set<String> = []

  init(graph: ModelGraph) {
    for model in graph.models {
      addFilters(of: model)
    }
  }

  /// Fields that filters and conditions can name: scalars and enums (also lists of them), no
  /// associations, no non-model types; in the transformer's order.
  static func filterableFields(_ model: ModelDefinition) -> [FieldDefinition] {
    transformerOrder(model).filter(isFilterable)
  }

  /// `true` for scalar and enum fields (also lists of them) that are not associations.
  static func isFilterable(_ field: FieldDefinition) -> Bool {
    guard field.association == nil else { return false }
    switch field.type.elementType {
    case .scalar, .enumeration: return true
    default: return false
    }
  }

  /// Declared fields first, then the ones the transformer appends, in its order: the implicit `id`
  /// (model transformer `addAutoGeneratableFields` appends it after the declared fields:
  /// `Team { name members id createdAt updatedAt }`), the timestamps, the implicit foreign keys
  /// (relational transformers) and the implicit owner fields (auth transformer). A join model's
  /// `id` is written first by the many-to-many transformer, so it stays first.
  static func transformerOrder(_ model: ModelDefinition) -> [FieldDefinition] {
    var appended: [FieldDefinition.Origin] = [.timestamp, .implicitForeignKey, .implicitOwner]
    if model.origin == .declared { appended.insert(.implicitIdentifier, at: 0) }
    return model.fields.filter { !appended.contains($0.origin) }
      + appended.flatMap { origin in model.fields.filter { $0.origin == origin } }
  }

  private mutating func addFilters(of model: ModelDefinition) {
    for field in Self.filterableFields(model) {
      guard case .enumeration(let name) = field.type.elementType else { continue }
      if field.type.isList { enumListFilters.insert(name) } else { enumFilters.insert(name) }
    }
  }
}
