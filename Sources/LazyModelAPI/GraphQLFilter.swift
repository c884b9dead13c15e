import LazyModel

/// A `Model<Name>FilterInput` / `Model<Name>ConditionInput` value: conditions on fields combined
/// with `and`, `or` and `not`, as the Amplify GraphQL Transformer v2 defines them (the
/// `Model<Scalar>Input` operators `eq`, `ne`, `le`, `lt`, `ge`, `gt`, `contains`, `notContains`,
/// `between`, `beginsWith`, `attributeExists`).
///
/// A filter always travels as a variable (`$filter`, `$condition`); it is never written into a
/// document, so values need no escaping.
///
/// This is the **untyped** form, an escape hatch: nothing checks its field names or value types
/// against the model (`.unchecked(field: "title", .eq(42))` builds, and the server answers with a
/// GraphQL error or matches nothing). The API's filters and conditions take a typed
/// `QueryPredicate<M>` built from `M.keys` (`Post.keys.title.eq("a")`, which type-checks);
/// ``from(_:)`` converts one. Only the `unchecked…` parameters (`uncheckedFilter:`,
/// `uncheckedCondition:`) take a `GraphQLFilter`, for what a predicate cannot say: a custom
/// resolver's filter input, `attributeExists` on a required field (create only when absent), or
/// a filter built at run time. Build one with ``unchecked(field:_:)``, ``init(unchecked:)`` and the
/// combinators: `.unchecked(field: "id", .attributeExists(false))`.
///
/// Thread-safety: an immutable `Sendable` value.
public struct GraphQLFilter: Sendable, Hashable {
  /// The input object exactly as sent.
  public let value: GraphQLValue

  /// A filter whose input object is `value` as written: not checked against any model (for
  /// operators this type does not name, or a custom resolver's input).
  public init(unchecked value: GraphQLValue) {
    self.value = value
  }

  /// One operator of a `Model<Scalar>Input`.
  public enum Operator: Sendable, Hashable {
    /// `eq`: equal.
    case eq(GraphQLValue)
    /// `ne`: not equal.
    case ne(GraphQLValue)
    /// `le`: less than or equal.
    case le(GraphQLValue)
    /// `lt`: less than.
    case lt(GraphQLValue)
    /// `ge`: greater than or equal.
    case ge(GraphQLValue)
    /// `gt`: greater than.
    case gt(GraphQLValue)
    /// `contains`: substring or list element.
    case contains(GraphQLValue)
    /// `notContains`.
    case notContains(GraphQLValue)
    /// `between: [low, high]`, both ends included.
    case between(GraphQLValue, GraphQLValue)
    /// `beginsWith`: string prefix.
    case beginsWith(String)
    /// `attributeExists`: the field is present (`true`) or absent (`false`).
    case attributeExists(Bool)

    /// The operator's input field name and value.
    var member: (String, GraphQLValue) {
      switch self {
      case .eq(let value): return ("eq", value)
      case .ne(let value): return ("ne", value)
      case .le(let value): return ("le", value)
      case .lt(let value): return ("lt", value)
      case .ge(let value): return ("ge", value)
      case .gt(let value): return ("gt", value)
      case .contains(let value): return ("contains", value)
      case .notContains(let value): return ("notContains", value)
      case .between(let low, let high): return ("between", .list([low, high]))
      case .beginsWith(let prefix): return ("beginsWith", .string(prefix))
      case .attributeExists(let flag): return ("attributeExists", .bool(flag))
      }
    }
  }

  /// `{name: {op: value}}`, with `name` and the value's type as written: not checked against any
  /// model (the escape hatch; a typed `M.keys` predicate is the checked form).
  ///
  /// - Parameters:
  ///   - name: A GraphQL field name of the filter input (`postID`, a FK target name included).
  ///   - condition: The operator and its operand.
  public static func unchecked(field name: String, _ condition: Operator) -> GraphQLFilter {
    let (op, value) = condition.member
    return GraphQLFilter(unchecked: .object([name: .object([op: value])]))
  }

  /// `{and: [...]}`: every filter holds.
  public static func and(_ filters: [GraphQLFilter]) -> GraphQLFilter {
    GraphQLFilter(unchecked: .object(["and": .list(filters.map(\.value))]))
  }

  /// `{or: [...]}`: at least one filter holds.
  public static func or(_ filters: [GraphQLFilter]) -> GraphQLFilter {
    GraphQLFilter(unchecked: .object(["or": .list(filters.map(\.value))]))
  }

  /// `{not: filter}`.
  public static func not(_ filter: GraphQLFilter) -> GraphQLFilter {
    GraphQLFilter(unchecked: .object(["not": filter.value]))
  }

  /// `lhs` and `rhs` (`{and: [lhs, rhs]}`).
  public static func && (lhs: GraphQLFilter, rhs: GraphQLFilter) -> GraphQLFilter {
    .and([lhs, rhs])
  }

  /// `lhs` or `rhs` (`{or: [lhs, rhs]}`).
  public static func || (lhs: GraphQLFilter, rhs: GraphQLFilter) -> GraphQLFilter {
    .or([lhs, rhs])
  }

  /// Equality on every named field: a single `{f: {eq: v}}` for one field, `{and: [...]}` for more.
  ///
  /// - Parameter components: Field name/value pairs (for example a child's FK fields and the
  ///   parent's key values).
  public static func equal(_ components: [IdentifierComponent]) -> GraphQLFilter {
    let parts = components.map { unchecked(field: $0.name, .eq(GraphQLValue($0.value))) }
    return parts.count == 1 ? parts[0] : .and(parts)
  }
}
