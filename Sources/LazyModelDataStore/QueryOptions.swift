import LazyModel

/// One sort criterion of ``DataStore/query(_:where:sort:limit:offset:includes:)`` on the model `M`.
///
/// Built from `M`'s typed keys (`.ascending(Post.keys.title)` is a `QuerySort<Post>`), so a sort
/// by another model's field does not compile. A `@belongsTo`/`@hasOne` field sorts by its FK
/// columns in order. Values only; `Sendable`.
public struct QuerySort<M: Model>: Sendable, Hashable {
  /// The GraphQL field name (or FK target name).
  public let field: String
  /// `true` for ascending order.
  public let ascending: Bool

  /// Sorts by the field named `field`, as written: the name is not checked against `M` until the
  /// query runs (an unknown name throws ``DataStoreError/unknownField(model:field:)``). Prefer
  /// ``ascending(_:)`` and ``descending(_:)`` with `M.keys`.
  public init(unchecked field: String, ascending: Bool) {
    self.field = field
    self.ascending = ascending
  }

  /// Ascending by the typed key `key` (`Post.keys.title`).
  public static func ascending<Value>(_ key: ModelFieldKey<M, Value>) -> QuerySort<M> {
    QuerySort(unchecked: key.name, ascending: true)
  }
  /// Descending by the typed key `key` (`Post.keys.title`).
  public static func descending<Value>(_ key: ModelFieldKey<M, Value>) -> QuerySort<M> {
    QuerySort(unchecked: key.name, ascending: false)
  }
}

/// An association to load together with the queried models (eager loading), with the associations
/// of the loaded models to load in turn.
///
/// Each level costs one `IN (…)` query per included association (per 500 distinct keys), whatever
/// the number of rows: `includes: [.include(Comment.keys.post, .include(Post.keys.comments))]` loads
/// the comments, their posts, and every comment of those posts in three queries. Included fields are
/// decoded as loaded `LazyReference`s / `LazyList`s. Values only; `Sendable`.
public struct QueryInclude: Sendable, Hashable {
  /// The association field name (`@belongsTo`, `@hasOne` or `@hasMany`).
  public let field: String
  /// Associations of the loaded models to include as well.
  public let nested: [QueryInclude]

  /// Includes `field`, then `nested` on the models it loads.
  public init(field: String, nested: [QueryInclude] = []) {
    self.field = field
    self.nested = nested
  }

  /// Includes the association `key`, then `nested` on the models it loads.
  public static func include(_ key: some ModelKey, _ nested: QueryInclude...) -> QueryInclude {
    QueryInclude(field: key.name, nested: nested)
  }

  /// Includes the association of the typed key `key` (`Comment.keys.post`), then `nested` on the
  /// models it loads.
  public static func include<Root, Value>(
    _ key: ModelFieldKey<Root, Value>, _ nested: QueryInclude...
  ) -> QueryInclude {
    QueryInclude(field: key.name, nested: nested)
  }

  /// Includes the association of the typed key `key` whose key fields are on the other model
  /// (`Post.keys.comments`, a `ModelAssociationKey`), then `nested` on the models it loads.
  public static func include<Root, Related>(
    _ key: ModelAssociationKey<Root, Related>, _ nested: QueryInclude...
  ) -> QueryInclude {
    QueryInclude(field: key.name, nested: nested)
  }

  /// Includes every association on a typed path (`.path(Comment4V2.path.post.comments.post)`:
  /// the post, its comments, and their posts), one `IN (…)` query per level. An empty path
  /// (`Comment4V2.path`) includes nothing and is an ``DataStoreError/unknownField(model:field:)``
  /// when queried.
  public static func path<Root: Model, Target: Model>(_ path: ModelPath<Root, Target>)
    -> QueryInclude
  {
    paths([path]).first ?? QueryInclude(field: "")
  }

  /// The includes of several typed paths of one root model, merged where they share a prefix
  /// (`[Comment4V2.path.post.comments, Comment4V2.path.post]` loads the post once), so each level
  /// is one query. Also takes the same paths as coding keys (`post.comments`, dotted).
  public static func paths(_ paths: [any CodingKey]) -> [QueryInclude] {
    merge(paths.map { $0.stringValue.split(separator: ".").map(String.init) })
  }

  private static func merge(_ paths: [[String]]) -> [QueryInclude] {
    var order: [String] = []
    var rest: [String: [[String]]] = [:]
    for path in paths {
      guard let head = path.first else { continue }
      if rest[head] == nil { order.append(head) }
      rest[head, default: []].append(Array(path.dropFirst()))
    }
    return order.map { QueryInclude(field: $0, nested: merge(rest[$0] ?? [])) }
  }
}

/// Throws ``DataStoreError/invalidArgument(name:value:reason:)`` when `value` is below `minimum`
/// (`nil` is always accepted: the argument was not given).
func requireArgument(_ name: String, _ value: Int?, atLeast minimum: Int) throws {
  guard let value, value < minimum else { return }
  throw DataStoreError.invalidArgument(
    name: name, value: value,
    reason: minimum == 0 ? "must not be negative" : "must be at least \(minimum)")
}
