/// A typed key of one field of a generated model: `Post.keys.title` is
/// `ModelFieldKey<Post, String>`, so predicates and sorts built from it type-check.
///
/// `Value` is the Swift type of the field's property as generated (`String`, `Int?`, `Color?`,
/// `Temporal.DateTime?`, `[String?]?`, or the related model for a `@belongsTo`, and for a
/// `@hasOne` whose foreign key this model holds). An association whose key fields are on the
/// other model (`@hasMany`, `@manyToMany`, a `@hasOne` found through the child's `references:`)
/// has a ``ModelAssociationKey`` instead, which builds no predicate. The operators available
/// follow `Value` (the Amplify GraphQL Transformer's `Model<Type>FilterInput` operators, see
/// ``QueryOperator``):
/// - `eq`, `ne` take a `Value` (scalars and enums, ``KeyValueConvertible``); an optional field also
///   takes `nil` (`eq(nil)`: the field is null, AppSync's `attributeExists: false`).
/// - `lt`, `le`, `gt`, `ge`, `between` need a `Comparable` value (`String`, `Int`, `Double`,
///   `Temporal` scalars; not `Bool`, not enums).
/// - `beginsWith` needs a `String` field (`ModelStringFilterInput`).
/// - `contains`, `notContains` need a `String` field or a list of strings (`ModelStringFilterInput`
///   has them; the number, Boolean and enum filter inputs do not).
/// - `isNil`, `isNotNil` need an optional field (a required one is never null).
/// - a `@belongsTo`/`@hasOne` key compares with the related model or its `Identifier`
///   (``QueryOperator/references(_:)``: one value per target name).
///
/// `Post.keys.title.eq(42)`, `Post.keys.rating.beginsWith("a")`, `Post.keys.rating.contains("1")`
/// and `Post.keys.title.isNil()` (a required `title`) do not compile. The predicate built is the
/// untyped ``QueryPredicate`` that both the DataStore and the API providers read.
///
/// It is also a `CodingKey` whose `stringValue` is the field name, so it serves wherever an API
/// takes coding keys (`includes: [Comment.keys.post]`).
///
/// Thread-safety: a `Sendable` value (it stores only the field name).
public struct ModelFieldKey<Root: Model, Value>: CodingKey, Sendable, Hashable {
  /// The GraphQL field name this key stands for.
  public let name: String

  /// The key of the field named `name` (a GraphQL field name of `Root`).
  public init(_ name: String) {
    self.name = name
  }

  /// The key of the field named `stringValue` (`CodingKey`); never `nil`.
  public init?(stringValue: String) {
    self.init(stringValue)
  }

  /// `nil`: fields are named, never positional (`CodingKey`).
  public init?(intValue: Int) {
    return nil
  }

  /// The GraphQL field name (`CodingKey`).
  public var stringValue: String { name }

  /// `nil` (`CodingKey`).
  public var intValue: Int? { nil }
}

// MARK: Optional fields

extension ModelFieldKey {
  /// `self` is null (AppSync `attributeExists: false`); only on an optional field.
  public func isNil<Wrapped>() -> QueryPredicate where Value == Wrapped? { .field(name, .eq(nil)) }
  /// `self` is not null (AppSync `attributeExists: true`); only on an optional field.
  public func isNotNil<Wrapped>() -> QueryPredicate where Value == Wrapped? { .field(name, .ne(nil)) }
}

// MARK: Text and lists of text

extension ModelFieldKey where Value == String {
  /// The text contains `text` (case-sensitive).
  public func contains(_ text: String) -> QueryPredicate { .field(name, .contains(text)) }
  /// The text does not contain `text` (case-sensitive).
  public func notContains(_ text: String) -> QueryPredicate { .field(name, .notContains(text)) }
}

extension ModelFieldKey where Value == String? {
  /// The text contains `text` (case-sensitive; a null field does not match).
  public func contains(_ text: String) -> QueryPredicate { .field(name, .contains(text)) }
  /// The text does not contain `text` (case-sensitive).
  public func notContains(_ text: String) -> QueryPredicate { .field(name, .notContains(text)) }
}

extension ModelFieldKey where Value == [String] {
  /// The list holds the element `text`.
  public func contains(_ text: String) -> QueryPredicate { .field(name, .contains(text)) }
  /// The list does not hold the element `text`.
  public func notContains(_ text: String) -> QueryPredicate { .field(name, .notContains(text)) }
}

extension ModelFieldKey where Value == [String]? {
  /// The list holds the element `text` (a null list does not match).
  public func contains(_ text: String) -> QueryPredicate { .field(name, .contains(text)) }
  /// The list does not hold the element `text`.
  public func notContains(_ text: String) -> QueryPredicate { .field(name, .notContains(text)) }
}

extension ModelFieldKey where Value == [String?] {
  /// The list holds the element `text`.
  public func contains(_ text: String) -> QueryPredicate { .field(name, .contains(text)) }
  /// The list does not hold the element `text`.
  public func notContains(_ text: String) -> QueryPredicate { .field(name, .notContains(text)) }
}

extension ModelFieldKey where Value == [String?]? {
  /// The list holds the element `text` (a null list does not match).
  public func contains(_ text: String) -> QueryPredicate { .field(name, .contains(text)) }
  /// The list does not hold the element `text`.
  public func notContains(_ text: String) -> QueryPredicate { .field(name, .notContains(text)) }
}

// MARK: Required scalar and enum fields

extension ModelFieldKey where Value: KeyValueConvertible {
  /// `self == value`.
  public func eq(_ value: Value) -> QueryPredicate { .field(name, .eq(value.keyValue)) }
  /// `self != value`.
  public func ne(_ value: Value) -> QueryPredicate { .field(name, .ne(value.keyValue)) }
}

extension ModelFieldKey where Value: KeyValueConvertible & Comparable {
  /// `self < value`.
  public func lt(_ value: Value) -> QueryPredicate { .field(name, .lt(value.keyValue)) }
  /// `self <= value`.
  public func le(_ value: Value) -> QueryPredicate { .field(name, .le(value.keyValue)) }
  /// `self > value`.
  public func gt(_ value: Value) -> QueryPredicate { .field(name, .gt(value.keyValue)) }
  /// `self >= value`.
  public func ge(_ value: Value) -> QueryPredicate { .field(name, .ge(value.keyValue)) }
  /// `lower <= self <= upper`.
  public func between(_ lower: Value, _ upper: Value) -> QueryPredicate {
    .field(name, .between(lower.keyValue, upper.keyValue))
  }
}

extension ModelFieldKey where Value == String {
  /// Text starts with `prefix` (case-sensitive).
  public func beginsWith(_ prefix: String) -> QueryPredicate { .field(name, .beginsWith(prefix)) }
}

// MARK: Optional scalar and enum fields

extension ModelFieldKey {
  /// `self == value`; `nil` means the field is null.
  public func eq<Wrapped: KeyValueConvertible>(_ value: Wrapped?) -> QueryPredicate
  where Value == Wrapped? {
    .field(name, .eq(value?.keyValue))
  }
  /// `self != value`; `nil` means the field is not null.
  public func ne<Wrapped: KeyValueConvertible>(_ value: Wrapped?) -> QueryPredicate
  where Value == Wrapped? {
    .field(name, .ne(value?.keyValue))
  }
  /// `self < value` (a null field does not match).
  public func lt<Wrapped: KeyValueConvertible & Comparable>(_ value: Wrapped) -> QueryPredicate
  where Value == Wrapped? {
    .field(name, .lt(value.keyValue))
  }
  /// `self <= value` (a null field does not match).
  public func le<Wrapped: KeyValueConvertible & Comparable>(_ value: Wrapped) -> QueryPredicate
  where Value == Wrapped? {
    .field(name, .le(value.keyValue))
  }
  /// `self > value` (a null field does not match).
  public func gt<Wrapped: KeyValueConvertible & Comparable>(_ value: Wrapped) -> QueryPredicate
  where Value == Wrapped? {
    .field(name, .gt(value.keyValue))
  }
  /// `self >= value` (a null field does not match).
  public func ge<Wrapped: KeyValueConvertible & Comparable>(_ value: Wrapped) -> QueryPredicate
  where Value == Wrapped? {
    .field(name, .ge(value.keyValue))
  }
  /// `lower <= self <= upper` (a null field does not match).
  public func between<Wrapped: KeyValueConvertible & Comparable>(
    _ lower: Wrapped, _ upper: Wrapped
  ) -> QueryPredicate where Value == Wrapped? {
    .field(name, .between(lower.keyValue, upper.keyValue))
  }
  /// Text starts with `prefix` (case-sensitive; a null field does not match).
  public func beginsWith(_ prefix: String) -> QueryPredicate where Value == String? {
    .field(name, .beginsWith(prefix))
  }
}

// MARK: @belongsTo / @hasOne fields

extension ModelFieldKey where Value: Model {
  /// The field points at `model` (compares its FK fields with `model`'s key values).
  public func eq(_ model: Value) -> QueryPredicate { eq(model.identifier) }
  /// The field points at the model with `identifier` (its key values in key order).
  public func eq(_ identifier: Value.Identifier) -> QueryPredicate {
    .field(name, .references(identifier.components.map(\.value)))
  }
}

extension ModelFieldKey {
  /// The field points at `model` (compares its FK fields with `model`'s key values).
  public func eq<Related: Model>(_ model: Related) -> QueryPredicate where Value == Related? {
    eq(model.identifier)
  }
  /// The field points at the model with `identifier` (its key values in key order).
  public func eq<Related: Model>(_ identifier: Related.Identifier) -> QueryPredicate
  where Value == Related? {
    .field(name, .references(identifier.components.map(\.value)))
  }
}

/// The typed key of an association whose key fields are on the other model: a `@hasMany`, a
/// `@manyToMany` (through its join model), or a `@hasOne` that finds its child by the child's
/// `references:` fields. `Post.keys.comments` is `ModelAssociationKey<Post, Comment>`.
///
/// The model holds no value for such a field (no foreign key, SPEC §1), so the key builds no
/// predicate: `Author.keys.profile.eq(profile)` does not compile (filter on the child's own keys
/// instead, `Profile.keys.author.eq(author)`). It names the association wherever one is loaded:
/// `includes: [.include(Post.keys.comments)]` (DataStore), `includes: [Post.keys.comments]` (API,
/// as a `CodingKey` whose `stringValue` is the field name).
///
/// Thread-safety: a `Sendable` value (it stores only the field name).
public struct ModelAssociationKey<Root: Model, Related: Model>: CodingKey, Sendable, Hashable {
  /// The GraphQL field name this key stands for.
  public let name: String

  /// The key of the association named `name` (a GraphQL field name of `Root`).
  public init(_ name: String) {
    self.name = name
  }

  /// The key of the association named `stringValue` (`CodingKey`); never `nil`.
  public init?(stringValue: String) {
    self.init(stringValue)
  }

  /// `nil`: fields are named, never positional (`CodingKey`).
  public init?(intValue: Int) {
    return nil
  }

  /// The GraphQL field name (`CodingKey`).
  public var stringValue: String { name }

  /// `nil` (`CodingKey`).
  public var intValue: Int? { nil }
}
