/// Errors of the lazy runtime itself (providers have their own typed errors).
public enum LazyModelError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `require()` found no model for the identifiers.
  case notFound(model: String, identifiers: [IdentifierComponent])
  /// A `LazyList`'s elements were read before `fetch()`.
  case listNotLoaded(model: String, associatedFields: [String], associatedIdentifiers: [KeyValue])
  /// A not-loaded value has no provider: it was decoded without a ``ModelDecodingContext``.
  case noProvider(model: String, identifiers: [IdentifierComponent])
  /// `nextPage()` was called on a list with no next page.
  case noNextPage(model: String)

  /// A one-line message naming the model and, where there are any, the identifiers.
  public var description: String {
    switch self {
    case .notFound(let model, let identifiers):
      return "no \(model) found for \(ModelIdentifier(modelName: model, components: identifiers))"
    case .listNotLoaded(let model, let fields, let values):
      let parent = ModelIdentifier(
        modelName: model,
        components: zip(fields, values).map { IdentifierComponent(name: $0, value: $1) })
      return "the list of \(parent) is not loaded: call fetch() first"
    case .noProvider(let model, let identifiers):
      return
        "no provider to load \(ModelIdentifier(modelName: model, components: identifiers)): it was decoded without a ModelDecodingContext"
    case .noNextPage(let model):
      return "the list of \(model) has no next page"
    }
  }
}
