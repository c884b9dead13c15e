/// A condition on the fields of one model, as providers filter by it.
///
/// Built from a model's typed keys (``ModelFieldKey``): `Comment.keys.content.beginsWith("a") && Comment.keys.post.eq(post)`.
/// Field names are GraphQL field names; for a `@belongsTo`/`@hasOne` field a provider compares its FK
/// fields (the association's target names). The operators are those of the Amplify GraphQL
/// Transformer's `Model<Type>FilterInput` (`eq ne le lt ge gt between beginsWith contains notContains`,
/// `and or not`); a provider that cannot express one throws its own typed error.
///
/// Values only: `Sendable` and `Hashable`.
public indirect enum QueryPredicate: Sendable, Hashable {
  /// Every model.
  case all
  /// `field` compared by `operator`.
  case field(String, QueryOperator)
  /// Every predicate holds (an empty list holds).
  case and([QueryPredicate])
  /// At least one predicate holds (an empty list never holds).
  case or([QueryPredicate])
  /// The predicate does not hold.
  case not(QueryPredicate)

  /// Both hold.
  public static func && (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate {
    .and([lhs, rhs])
  }
  /// At least one holds.
  public static func || (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate {
    .or([lhs, rhs])
  }
  /// It does not hold.
  public static prefix func ! (predicate: QueryPredicate) -> QueryPredicate { .not(predicate) }
}

/// One comparison of a ``QueryPredicate``.
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

extension ModelKey {
  /// `self == value`.
  public func eq(_ value: some KeyValueConvertible) -> QueryPredicate {
    .field(name, .eq(value.keyValue))
  }
  /// `self` is null.
  public func isNil() -> QueryPredicate { .field(name, .eq(nil)) }
  /// `self != value`.
  public func ne(_ value: some KeyValueConvertible) -> QueryPredicate {
    .field(name, .ne(value.keyValue))
  }
  /// `self` is not null.
  public func isNotNil() -> QueryPredicate { .field(name, .ne(nil)) }
  /// `self < value`.
  public func lt(_ value: some KeyValueConvertible) -> QueryPredicate {
    .field(name, .lt(value.keyValue))
  }
  /// `self <= value`.
  public func le(_ value: some KeyValueConvertible) -> QueryPredicate {
    .field(name, .le(value.keyValue))
  }
  /// `self > value`.
  public func gt(_ value: some KeyValueConvertible) -> QueryPredicate {
    .field(name, .gt(value.keyValue))
  }
  /// `self >= value`.
  public func ge(_ value: some KeyValueConvertible) -> QueryPredicate {
    .field(name, .ge(value.keyValue))
  }
  /// `lower <= self <= upper`.
  public func between<V: KeyValueConvertible>(_ lower: V, _ upper: V) -> QueryPredicate {
    .field(name, .between(lower.keyValue, upper.keyValue))
  }
  /// Text starts with `prefix`.
  public func beginsWith(_ prefix: String) -> QueryPredicate { .field(name, .beginsWith(prefix)) }
  /// Text contains `text`.
  public func contains(_ text: String) -> QueryPredicate { .field(name, .contains(text)) }
  /// Text does not contain `text`.
  public func notContains(_ text: String) -> QueryPredicate { .field(name, .notContains(text)) }
  /// A `@belongsTo`/`@hasOne` field points at the model with `identifier` (its key values in key order).
  public func eq(_ identifier: some ModelIdentifierProtocol) -> QueryPredicate {
    .field(name, .references(identifier.components.map(\.value)))
  }
}
