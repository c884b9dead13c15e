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
/// - `beginsWith`, `contains`, `notContains` need a text field: `String` or a `Temporal` scalar
///   (``StringFilterable``: `ModelStringInput`, which the transformer also uses for `AWSDate`,
///   `AWSTime` and `AWSDateTime`).
/// - on a list, `contains`/`notContains` test membership of one element: text for a list of text
///   (`[String]`, `[AWSDate]`), the enum for a list of enum values (`Model<Enum>ListInput`); a list of
///   numbers or Booleans has neither (`ModelIntInput`, `ModelFloatInput`, `ModelBooleanInput`).
/// - `isNil`, `isNotNil` need an optional field (a required one is never null).
/// - a `@belongsTo`/`@hasOne` key compares (`eq`, `ne`) with the related model or its `Identifier`
///   (``QueryOperator/references(_:)``: one value per target name); an optional one also with `nil`
///   (`Comment.keys.post.eq(nil)`: no post).
///
/// `Post.keys.title.eq(42)`, `Post.keys.rating.beginsWith("a")`, `Post.keys.rating.contains("1")`,
/// `Post.keys.tags.beginsWith("a")` (DynamoDB's `begins_with` never matches a list)
/// and `Post.keys.title.isNil()` (a required `title`) do not compile. The predicate built is a
/// ``QueryPredicate`` of `Root` (so it filters only `Root`s) wrapping the untyped
/// ``AnyQueryPredicate`` that both the DataStore and the API providers read.
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

  /// This field compared by `comparison`, as a predicate on `Root`.
  func predicate(_ comparison: QueryOperator) -> QueryPredicate<Root> {
    QueryPredicate(unchecked: .field(name, comparison))
  }
}

// MARK: Optional fields

extension ModelFieldKey {
  /// `self` is null (AppSync `attributeExists: false`); only on an optional field.
  public func isNil<Wrapped>() -> QueryPredicate<Root> where Value == Wrapped? { predicate(.eq(nil)) }
  /// `self` is not null (AppSync `attributeExists: true`); only on an optional field.
  public func isNotNil<Wrapped>() -> QueryPredicate<Root> where Value == Wrapped? { predicate(.ne(nil)) }
}

// MARK: Text (ModelStringInput) and lists (Model<Enum>ListInput, a scalar list's element input)

/// A Swift field type that AppSync filters with `ModelStringInput`/`ModelIDInput`, so its keys have
/// `beginsWith`, `contains` and `notContains` besides the comparisons: `String` (GraphQL `ID`,
/// `String`, `AWSEmail`, `AWSJSON`, `AWSURL`, `AWSPhone`, `AWSIPAddress`) and the `Temporal` scalars
/// (`AWSDate`, `AWSTime`, `AWSDateTime`, which the transformer's `DEFAULT_SCALARS` filter as
/// `String`: `Post.keys.publishedOn.beginsWith("2026-03")`).
///
/// Not `Int`/`AWSTimestamp`, `Double`, `Bool` or enums: `ModelIntInput`, `ModelFloatInput`,
/// `ModelBooleanInput` and `Model<Enum>Input` have no text operators.
public protocol StringFilterable: KeyValueConvertible {}

extension String: StringFilterable {}

extension ModelFieldKey where Value: StringFilterable {
  /// The text starts with `prefix` (case-sensitive, byte for byte).
  public func beginsWith(_ prefix: String) -> QueryPredicate<Root> { predicate(.beginsWith(prefix)) }
  /// The text contains `text` (case-sensitive).
  public func contains(_ text: String) -> QueryPredicate<Root> { predicate(.contains(text)) }
  /// The text does not contain `text` (case-sensitive).
  public func notContains(_ text: String) -> QueryPredicate<Root> { predicate(.notContains(text)) }
}

extension ModelFieldKey {
  /// The text starts with `prefix` (case-sensitive; a null field does not match).
  public func beginsWith<Wrapped: StringFilterable>(_ prefix: String) -> QueryPredicate<Root>
  where Value == Wrapped? {
    predicate(.beginsWith(prefix))
  }
  /// The text contains `text` (case-sensitive; a null field does not match).
  public func contains<Wrapped: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == Wrapped? {
    predicate(.contains(text))
  }
  /// The text does not contain `text` (case-sensitive; a null field matches).
  public func notContains<Wrapped: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == Wrapped? {
    predicate(.notContains(text))
  }
}

// Lists: `contains`/`notContains` test membership of one element (DynamoDB's `contains` on a list
// attribute). A list of text (`[String]`, `[AWSDate]`) is filtered with its element's
// `ModelStringInput`, so the element is given as text; a list of enum values with
// `Model<Enum>ListInput` (`contains: Enum`), so the element is the enum. A list of numbers or
// Booleans (`ModelIntInput`, `ModelFloatInput`, `ModelBooleanInput`) has neither. `beginsWith` and
// the ordering operators of the element's input compare a list attribute with a single value,
// which DynamoDB never matches, so list keys do not offer them.

extension ModelFieldKey {
  /// The list holds the element `text`.
  public func contains<Element: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == [Element] {
    predicate(.contains(text))
  }
  /// The list does not hold the element `text`.
  public func notContains<Element: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == [Element] {
    predicate(.notContains(text))
  }
  /// The list holds the element `text` (a null list does not match).
  public func contains<Element: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == [Element]? {
    predicate(.contains(text))
  }
  /// The list does not hold the element `text` (a null list matches).
  public func notContains<Element: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == [Element]? {
    predicate(.notContains(text))
  }
  /// The list holds the element `text`.
  public func contains<Element: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == [Element?] {
    predicate(.contains(text))
  }
  /// The list does not hold the element `text`.
  public func notContains<Element: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == [Element?] {
    predicate(.notContains(text))
  }
  /// The list holds the element `text` (a null list does not match).
  public func contains<Element: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == [Element?]? {
    predicate(.contains(text))
  }
  /// The list does not hold the element `text` (a null list matches).
  public func notContains<Element: StringFilterable>(_ text: String) -> QueryPredicate<Root>
  where Value == [Element?]? {
    predicate(.notContains(text))
  }
}

extension ModelFieldKey {
  /// The list of enum values holds `element` (`Model<Enum>ListInput.contains`).
  public func contains<Element: RawRepresentable & KeyValueConvertible>(_ element: Element)
    -> QueryPredicate<Root> where Value == [Element], Element.RawValue == String
  {
    predicate(.contains(element.rawValue))
  }
  /// The list of enum values does not hold `element` (`Model<Enum>ListInput.notContains`).
  public func notContains<Element: RawRepresentable & KeyValueConvertible>(_ element: Element)
    -> QueryPredicate<Root> where Value == [Element], Element.RawValue == String
  {
    predicate(.notContains(element.rawValue))
  }
  /// The list of enum values holds `element` (a null list does not match).
  public func contains<Element: RawRepresentable & KeyValueConvertible>(_ element: Element)
    -> QueryPredicate<Root> where Value == [Element]?, Element.RawValue == String
  {
    predicate(.contains(element.rawValue))
  }
  /// The list of enum values does not hold `element` (a null list matches).
  public func notContains<Element: RawRepresentable & KeyValueConvertible>(_ element: Element)
    -> QueryPredicate<Root> where Value == [Element]?, Element.RawValue == String
  {
    predicate(.notContains(element.rawValue))
  }
  /// The list of enum values holds `element`.
  public func contains<Element: RawRepresentable & KeyValueConvertible>(_ element: Element)
    -> QueryPredicate<Root> where Value == [Element?], Element.RawValue == String
  {
    predicate(.contains(element.rawValue))
  }
  /// The list of enum values does not hold `element`.
  public func notContains<Element: RawRepresentable & KeyValueConvertible>(_ element: Element)
    -> QueryPredicate<Root> where Value == [Element?], Element.RawValue == String
  {
    predicate(.notContains(element.rawValue))
  }
  /// The list of enum values holds `element` (a null list does not match).
  public func contains<Element: RawRepresentable & KeyValueConvertible>(_ element: Element)
    -> QueryPredicate<Root> where Value == [Element?]?, Element.RawValue == String
  {
    predicate(.contains(element.rawValue))
  }
  /// The list of enum values does not hold `element` (a null list matches).
  public func notContains<Element: RawRepresentable & KeyValueConvertible>(_ element: Element)
    -> QueryPredicate<Root> where Value == [Element?]?, Element.RawValue == String
  {
    predicate(.notContains(element.rawValue))
  }
}

// MARK: Required scalar and enum fields

extension ModelFieldKey where Value: KeyValueConvertible {
  /// `self == value`.
  public func eq(_ value: Value) -> QueryPredicate<Root> { predicate(.eq(value.keyValue)) }
  /// `self != value`.
  public func ne(_ value: Value) -> QueryPredicate<Root> { predicate(.ne(value.keyValue)) }
}

extension ModelFieldKey where Value: KeyValueConvertible & Comparable {
  /// `self < value`.
  public func lt(_ value: Value) -> QueryPredicate<Root> { predicate(.lt(value.keyValue)) }
  /// `self <= value`.
  public func le(_ value: Value) -> QueryPredicate<Root> { predicate(.le(value.keyValue)) }
  /// `self > value`.
  public func gt(_ value: Value) -> QueryPredicate<Root> { predicate(.gt(value.keyValue)) }
  /// `self >= value`.
  public func ge(_ value: Value) -> QueryPredicate<Root> { predicate(.ge(value.keyValue)) }
  /// `lower <= self <= upper`.
  public func between(_ lower: Value, _ upper: Value) -> QueryPredicate<Root> {
    predicate(.between(lower.keyValue, upper.keyValue))
  }
}

// MARK: Optional scalar and enum fields

extension ModelFieldKey {
  /// `self == value`; `nil` means the field is null.
  public func eq<Wrapped: KeyValueConvertible>(_ value: Wrapped?) -> QueryPredicate<Root>
  where Value == Wrapped? {
    predicate(.eq(value?.keyValue))
  }
  /// `self != value`; `nil` means the field is not null.
  public func ne<Wrapped: KeyValueConvertible>(_ value: Wrapped?) -> QueryPredicate<Root>
  where Value == Wrapped? {
    predicate(.ne(value?.keyValue))
  }
  /// `self < value` (a null field does not match).
  public func lt<Wrapped: KeyValueConvertible & Comparable>(_ value: Wrapped) -> QueryPredicate<Root>
  where Value == Wrapped? {
    predicate(.lt(value.keyValue))
  }
  /// `self <= value` (a null field does not match).
  public func le<Wrapped: KeyValueConvertible & Comparable>(_ value: Wrapped) -> QueryPredicate<Root>
  where Value == Wrapped? {
    predicate(.le(value.keyValue))
  }
  /// `self > value` (a null field does not match).
  public func gt<Wrapped: KeyValueConvertible & Comparable>(_ value: Wrapped) -> QueryPredicate<Root>
  where Value == Wrapped? {
    predicate(.gt(value.keyValue))
  }
  /// `self >= value` (a null field does not match).
  public func ge<Wrapped: KeyValueConvertible & Comparable>(_ value: Wrapped) -> QueryPredicate<Root>
  where Value == Wrapped? {
    predicate(.ge(value.keyValue))
  }
  /// `lower <= self <= upper` (a null field does not match).
  public func between<Wrapped: KeyValueConvertible & Comparable>(
    _ lower: Wrapped, _ upper: Wrapped
  ) -> QueryPredicate<Root> where Value == Wrapped? {
    predicate(.between(lower.keyValue, upper.keyValue))
  }
}

// MARK: @belongsTo / @hasOne fields

// The transformer filters the foreign-key fields (`ModelIDInput`, or the key field's input), so a
// reference key has `eq` and `ne`; `ne` and `eq(nil)` are over all target names together.

extension ModelFieldKey where Value: Model {
  /// The field points at `model` (compares its FK fields with `model`'s key values).
  public func eq(_ model: Value) -> QueryPredicate<Root> { eq(model.identifier) }
  /// The field points at the model with `identifier` (its key values in key order).
  public func eq(_ identifier: Value.Identifier) -> QueryPredicate<Root> {
    predicate(.references(identifier.components.map(\.value)))
  }
  /// The field does not point at `model` (`!eq(model)`).
  public func ne(_ model: Value) -> QueryPredicate<Root> { ne(model.identifier) }
  /// The field does not point at the model with `identifier` (`!eq(identifier)`).
  public func ne(_ identifier: Value.Identifier) -> QueryPredicate<Root> { !eq(identifier) }
}

extension ModelFieldKey {
  /// The field points at `model`; `nil`: it points at nothing (a foreign-key field is null,
  /// AppSync's `attributeExists: false`).
  public func eq<Related: Model>(_ model: Related?) -> QueryPredicate<Root> where Value == Related? {
    guard let model else { return predicate(.eq(nil)) }
    return eq(model.identifier)
  }
  /// The field points at the model with `identifier` (its key values in key order).
  public func eq<Related: Model>(_ identifier: Related.Identifier) -> QueryPredicate<Root>
  where Value == Related? {
    predicate(.references(identifier.components.map(\.value)))
  }
  /// The field does not point at `model` (a field that points at nothing matches); `nil`: it
  /// points at a model (every foreign-key field is set).
  public func ne<Related: Model>(_ model: Related?) -> QueryPredicate<Root> where Value == Related? {
    guard let model else { return predicate(.ne(nil)) }
    return ne(model.identifier)
  }
  /// The field does not point at the model with `identifier` (`!eq(identifier)`).
  public func ne<Related: Model>(_ identifier: Related.Identifier) -> QueryPredicate<Root>
  where Value == Related? {
    .not(eq(identifier))
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
