/// A typed path through a model's associations, from the model `Root` to the model `Target`
/// (Amplify's `ModelPath`): `Comment4V2.path.post.comments.post` is a
/// `ModelPath<Comment4V2, Post4V2>` whose ``fieldNames`` are `["post", "comments", "post"]`.
///
/// The generator emits one member per `@belongsTo`, `@hasOne` and `@hasMany` field on
/// `ModelPath where Target == <Model>`, so a path through an association the model lacks does not
/// compile. Providers take paths as `includes:` to load every association on the path eagerly.
///
/// As a `CodingKey` (so every `includes: [any CodingKey]` parameter takes it) its
/// ``stringValue`` is the field names joined by `.` (`post.comments.post`); GraphQL names never
/// contain a `.`, so the spelling is unambiguous.
///
/// Thread-safety: an immutable `Sendable` value.
public struct ModelPath<Root: Model, Target: Model>: CodingKey, Sendable, Hashable {
  /// The association field names from `Root` to `Target`, in order (empty for `Root.path`).
  public let fieldNames: [String]

  /// A path made of `fieldNames` (what generated members build; prefer `Root.path.…`).
  public init(fieldNames: [String]) {
    self.fieldNames = fieldNames
  }

  /// This path followed by the association `field` of `Target`, which leads to `Next`.
  public func appending<Next: Model>(_ field: String) -> ModelPath<Root, Next> {
    ModelPath<Root, Next>(fieldNames: fieldNames + [field])
  }

  /// The field names joined by `.` (`post.comments.post`).
  public var stringValue: String { fieldNames.joined(separator: ".") }
  /// Always `nil`.
  public var intValue: Int? { nil }
  /// The path whose field names are `stringValue` split at `.`.
  public init?(stringValue: String) {
    fieldNames = stringValue.split(separator: ".", omittingEmptySubsequences: false).map(
      String.init)
  }
  /// Always `nil`: a path has no integer form.
  public init?(intValue: Int) { nil }
}

extension Model {
  /// The empty path at this model, where typed include paths start (`Comment4V2.path.post`).
  public static var path: ModelPath<Self, Self> { ModelPath(fieldNames: []) }
}
