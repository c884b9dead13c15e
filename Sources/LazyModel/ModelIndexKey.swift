/// A typed name of one `@index` of a generated model that has a query field:
/// `Book.indexes.byIsbn` is `ModelIndexKey<Book, String, ModelNoSortKey>`, and
/// `Book.indexes.booksByAuthorAndYearAndTitle` is
/// `ModelIndexKey<Book, String, Book.Indexes.BooksByAuthorAndYearAndTitleSortKey>`, so an index
/// query type-checks its model, its partition key value and its sort key condition
/// (`client.list(Book.self, index: Book.indexes.byIsbn, key: 42)` does not compile).
///
/// - `Root`: the model the index belongs to.
/// - `PartitionKey`: the Swift type of the partition key field (the field carrying `@index`),
///   without optionality (`String`, `Int`, an enum, a `Temporal` scalar).
/// - `SortKey`: ``ModelNoSortKey`` for an index without `sortKeyFields` (it takes no sort key
///   condition); the Swift type of the one sort key field (`Int`, `String`); or, for several sort
///   key fields, the generated ``ModelCompositeSortKey`` value of that index (its fields in index
///   order, the later ones optional so that a condition can give a leading run of them, as the
///   transformer's `Model<Name><Index>CompositeKeyInput` does).
///
/// The generator emits one per `@index` with a query field (`queryField:` or its default; not
/// `queryField: null`, not the `gsi-…` indexes the transformer derives for a `@hasMany`), named
/// after the index lower-first as a property is (`@index(name: "ByOwner")` is
/// `Model.indexes.byOwner`; a keyword such as `init` is escaped with backticks where written), with a numeric suffix
/// when two would be equal (`byOwner2`, reported as warning MGW003); ``name`` keeps the index's
/// own name.
///
/// Thread-safety: a `Sendable` value (it stores only names).
public struct ModelIndexKey<Root: Model, PartitionKey: KeyValueConvertible, SortKey>: Sendable,
  Hashable
{
  /// The `@index(name:)` (or the transformer's default name), as `ModelIndex.name`.
  public let name: String
  /// The index's fields: the partition key field, then the sort key fields (as `ModelIndex.fields`).
  public let fields: [String]

  /// The index named `name` of `Root` over `fields` (partition key first), as generated.
  public init(_ name: String, fields: [String]) {
    self.name = name
    self.fields = fields
  }

  /// The sort key fields (every field after the partition key), in index order.
  public var sortKeyFields: [String] { Array(fields.dropFirst()) }
}

/// The sort key type of an index without sort key fields: it has no values, so no sort key
/// condition on such an index can be built (``ModelIndexKey``).
public enum ModelNoSortKey: Sendable, Hashable {}

/// The sort key value of an index with several sort key fields, as generated per index
/// (`Book.Indexes.BooksByAuthorAndYearAndTitleSortKey(year: 2001, title: "A")`): one property per
/// sort key field in index order, the first required, the later ones optional.
///
/// A sort key condition compares a leading run of the fields (`year`, or `year` and `title`):
/// the transformer joins them into one DynamoDB sort key (`2001#A`), so only a prefix can be
/// constrained, and its resolver compares the given values joined by `#` with that key as text
/// (`applyCompositeKeyConditionExpression` of `graphql-transformer-common`): numbers compare as
/// text, and an `eq` must give every field (a partial one matches nothing, so the API provider
/// refuses it before sending, as it refuses a `nil` before a later value).
public protocol ModelCompositeSortKey: Sendable, Hashable {
  /// The value of each sort key field in index order, `nil` for a field not given.
  var sortKeyValues: [KeyValue?] { get }
}
