/// A condition on the fields of the model `M`, as providers filter by it.
///
/// Built from `M`'s typed keys (``ModelFieldKey``): `Comment.keys.content.beginsWith("a") &&
/// Comment.keys.post.eq(post)` is a `QueryPredicate<Comment>`. Every provider API that filters
/// models of type `M` takes a `QueryPredicate<M>`, so a predicate built from another model's keys
/// does not compile (`store.query(Comment.self, where: Post.keys.title.eq("x"))`: "cannot convert
/// value of type 'QueryPredicate<Post>' to expected argument type 'QueryPredicate<Comment>'").
///
/// It wraps the untyped ``AnyQueryPredicate`` (``untyped``), the one representation that every
/// provider translates (SQL in the DataStore, a `Model<Name>FilterInput` in the API).
///
/// Values only: `Sendable` and `Hashable`.
public struct QueryPredicate<M: Model>: Sendable, Hashable {
  /// The condition as providers read it, on `M`'s GraphQL field names.
  public let untyped: AnyQueryPredicate

  /// The predicate `untyped` on `M`, as written: its field names are not checked against `M` until
  /// a provider reads it (which throws its own "unknown field" error naming `M` and the field).
  /// Prefer `M.keys`; this is for field names known only at run time.
  public init(unchecked untyped: AnyQueryPredicate) {
    self.untyped = untyped
  }

  /// Every model.
  public static var all: QueryPredicate<M> { QueryPredicate(unchecked: .all) }

  /// Every predicate of `predicates` holds (an empty list holds).
  public static func and(_ predicates: [QueryPredicate<M>]) -> QueryPredicate<M> {
    QueryPredicate(unchecked: .and(predicates.map(\.untyped)))
  }
  /// At least one predicate of `predicates` holds (an empty list never holds).
  public static func or(_ predicates: [QueryPredicate<M>]) -> QueryPredicate<M> {
    QueryPredicate(unchecked: .or(predicates.map(\.untyped)))
  }
  /// `predicate` does not hold (`!predicate`).
  public static func not(_ predicate: QueryPredicate<M>) -> QueryPredicate<M> { !predicate }

  /// Both hold.
  public static func && (lhs: QueryPredicate<M>, rhs: QueryPredicate<M>) -> QueryPredicate<M> {
    QueryPredicate(unchecked: .and([lhs.untyped, rhs.untyped]))
  }
  /// At least one holds.
  public static func || (lhs: QueryPredicate<M>, rhs: QueryPredicate<M>) -> QueryPredicate<M> {
    QueryPredicate(unchecked: .or([lhs.untyped, rhs.untyped]))
  }
  /// It does not hold.
  public static prefix func ! (predicate: QueryPredicate<M>) -> QueryPredicate<M> {
    QueryPredicate(unchecked: .not(predicate.untyped))
  }
}

/// A condition on the fields of one model, untyped: the value that ``QueryPredicate`` wraps and
/// that providers translate.
///
/// Field names are GraphQL field names; for a `@belongsTo`/`@hasOne` field a provider compares its FK
/// fields (the association's target names). The operators are those of the Amplify GraphQL
/// Transformer's `Model<Type>FilterInput` (`eq ne le lt ge gt between beginsWith contains notContains`,
/// `and or not`); a provider that cannot express one throws its own typed error.
///
/// Values only: `Sendable` and `Hashable`.
public indirect enum AnyQueryPredicate: Sendable, Hashable {
  /// Every model.
  case all
  /// `field` compared by `operator`.
  case field(String, QueryOperator)
  /// Every predicate holds (an empty list holds).
  case and([AnyQueryPredicate])
  /// At least one predicate holds (an empty list never holds).
  case or([AnyQueryPredicate])
  /// The predicate does not hold.
  case not(AnyQueryPredicate)

  /// Both hold.
  public static func && (lhs: AnyQueryPredicate, rhs: AnyQueryPredicate) -> AnyQueryPredicate {
    .and([lhs, rhs])
  }
  /// At least one holds.
  public static func || (lhs: AnyQueryPredicate, rhs: AnyQueryPredicate) -> AnyQueryPredicate {
    .or([lhs, rhs])
  }
  /// It does not hold.
  public static prefix func ! (predicate: AnyQueryPredicate) -> AnyQueryPredicate {
    .not(predicate)
  }
}

/// One comparison of an ``AnyQueryPredicate``.
///
/// Ordering operators compare as the source stores the value (numbers numerically, strings,
/// `Temporal` and enum raw values by their text). String operators work on text.
public enum QueryOperator: Sendable, Hashable {
  /// Equal; `nil` means the field is null.
  case eq(KeyValue?)
  /// Not equal; `nil` means the field is not null. A null field is not equal to any value.
  case ne(KeyValue?)
  /// Less than.
  case lt(KeyValue)
  /// Less than or equal.
  case le(KeyValue)
  /// Greater than.
  case gt(KeyValue)
  /// Greater than or equal.
  case ge(KeyValue)
  /// Between both bounds, inclusive.
  case between(KeyValue, KeyValue)
  /// Text starts with the string (case-sensitive).
  case beginsWith(String)
  /// Text contains the string (case-sensitive).
  case contains(String)
  /// Text does not contain the string (case-sensitive); a null field matches (it contains nothing,
  /// as a missing attribute in AppSync's filters).
  case notContains(String)
  /// For a `@belongsTo`/`@hasOne` field: it points at the model whose associated fields equal these
  /// values, in the association's order (one value per target name; use it for composite keys).
  case references([KeyValue])
}

/// Untyped predicates from a model's coding keys (`Post.CodingKeys.title.eq("a")`): a coding key
/// names no model, so these build an ``AnyQueryPredicate``; wrap it with
/// ``QueryPredicate/init(unchecked:)`` for a provider, or use the typed `Post.keys` instead.
extension ModelKey {
  /// `self == value`.
  public func eq(_ value: some KeyValueConvertible) -> AnyQueryPredicate {
    .field(name, .eq(value.keyValue))
  }
  /// `self` is null.
  public func isNil() -> AnyQueryPredicate { .field(name, .eq(nil)) }
  /// `self != value`.
  public func ne(_ value: some KeyValueConvertible) -> AnyQueryPredicate {
    .field(name, .ne(value.keyValue))
  }
  /// `self` is not null.
  public func isNotNil() -> AnyQueryPredicate { .field(name, .ne(nil)) }
  /// `self < value`.
  public func lt(_ value: some KeyValueConvertible) -> AnyQueryPredicate {
    .field(name, .lt(value.keyValue))
  }
  /// `self <= value`.
  public func le(_ value: some KeyValueConvertible) -> AnyQueryPredicate {
    .field(name, .le(value.keyValue))
  }
  /// `self > value`.
  public func gt(_ value: some KeyValueConvertible) -> AnyQueryPredicate {
    .field(name, .gt(value.keyValue))
  }
  /// `self >= value`.
  public func ge(_ value: some KeyValueConvertible) -> AnyQueryPredicate {
    .field(name, .ge(value.keyValue))
  }
  /// `lower <= self <= upper`.
  public func between<V: KeyValueConvertible>(_ lower: V, _ upper: V) -> AnyQueryPredicate {
    .field(name, .between(lower.keyValue, upper.keyValue))
  }
  /// Text starts with `prefix`.
  public func beginsWith(_ prefix: String) -> AnyQueryPredicate { .field(name, .beginsWith(prefix)) }
  /// Text contains `text`.
  public func contains(_ text: String) -> AnyQueryPredicate { .field(name, .contains(text)) }
  /// Text does not contain `text`.
  public func notContains(_ text: String) -> AnyQueryPredicate { .field(name, .notContains(text)) }
  /// A `@belongsTo`/`@hasOne` field points at the model with `identifier` (its key values in key order).
  public func eq(_ identifier: some ModelIdentifierProtocol) -> AnyQueryPredicate {
    .field(name, .references(identifier.components.map(\.value)))
  }
}
