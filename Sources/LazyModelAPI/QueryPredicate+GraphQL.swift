import LazyModel

extension GraphQLFilter {
  /// The `Model<Name>FilterInput` of the predicate `predicate` on `M`, or `nil` for `QueryPredicate.all`
  /// (``from(_:schema:)`` on `M.schema`).
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` as ``from(_:schema:)``.
  public static func from<M: Model>(_ predicate: QueryPredicate<M>) throws -> GraphQLFilter? {
    try from(predicate.untyped, schema: M.schema)
  }

  /// The `Model<Name>FilterInput` of an untyped predicate on `schema`'s model, or `nil` for
  /// `AnyQueryPredicate.all`: the one translation of predicates to filters, used by the API and
  /// by the DataStore's sync engine.
  ///
  /// A condition on a `@belongsTo`/`@hasOne` field becomes conditions on its target names (the FK
  /// fields the API schema exposes): `QueryOperator.references(_:)` compares every target name
  /// with the matching value, another operator applies to the one target name of a single-field
  /// key. `eq(nil)`/`ne(nil)` become `attributeExists: false`/`true` (on a composite reference:
  /// any target name missing / every one present), as the transformer's filter
  /// inputs have no null comparison; an empty `or` (which never holds) becomes `attributeExists:
  /// false` on the first primary-key field, which every stored model has.
  ///
  /// - Throws: ``APIError/invalidRequest(operationName:reason:)`` (naming `list<Plural>`) for a
  ///   field `schema` does not have, `references` on a data field or with the wrong number of
  ///   values, or a single-value operator on a composite-key reference.
  public static func from(_ predicate: AnyQueryPredicate, schema: ModelSchema) throws
    -> GraphQLFilter?
  {
    if case .all = predicate { return nil }
    return GraphQLFilter(unchecked: try value(of: predicate, schema: schema))
  }

  private static func value(of predicate: AnyQueryPredicate, schema: ModelSchema) throws
    -> GraphQLValue
  {
    let operationName = ModelDocument.operationName(
      try? ModelDocument.listField(schema), "list", schema)
    func invalid(_ reason: String) -> APIError {
      .invalidRequest(operationName: operationName, reason: reason)
    }
    switch predicate {
    case .all:
      return .object(["and": .list([])])
    case .and(let parts):
      return .object(["and": .list(try parts.map { try value(of: $0, schema: schema) })])
    case .or(let parts):
      guard !parts.isEmpty else {
        // An empty `or` never holds (`AnyQueryPredicate.or(_:)`), but filters have no "false", and
        // the transformer's resolver skips an empty `or`: ask for a missing primary key instead.
        guard let key = schema.primaryKey.first else { throw invalid("\(schema.name) has no key") }
        return .object([key: .object(["attributeExists": .bool(false)])])
      }
      return .object(["or": .list(try parts.map { try value(of: $0, schema: schema) })])
    case .not(let inner):
      return .object(["not": try value(of: inner, schema: schema)])
    case .field(let name, let condition):
      guard let field = schema.field(named: name) else {
        throw invalid("\(schema.name) has no field \(name)")
      }
      var targets = [name]
      switch field.association {
      case .belongsTo(_, let targetNames), .hasOne(_, let targetNames):
        guard !targetNames.isEmpty else {
          throw invalid("\(schema.name).\(name) holds no foreign key to filter on")
        }
        targets = targetNames
      case .hasMany:
        throw invalid("\(schema.name).\(name) is a hasMany and cannot be filtered on")
      case nil:
        break
      }
      if case .references(let values) = condition {
        guard field.association != nil, values.count == targets.count else {
          throw invalid(
            "references(\(values.count) values) on \(schema.name).\(name) with \(targets.count) target names"
          )
        }
        return GraphQLFilter.equal(
          zip(targets, values).map { IdentifierComponent(name: $0, value: $1) }
        ).value
      }
      if targets.count > 1, field.association != nil {
        // A composite reference points at nothing when any target name is missing.
        switch condition {
        case .eq(nil):
          return .object([
            "or": .list(targets.map { .object([$0: .object(["attributeExists": .bool(false)])]) })
          ])
        case .ne(nil):
          return .object([
            "and": .list(targets.map { .object([$0: .object(["attributeExists": .bool(true)])]) })
          ])
        default: break
        }
      }
      guard targets.count == 1 else {
        throw invalid(
          "\(schema.name).\(name) has a composite key: compare it with references([...])")
      }
      let (op, operand) = operatorMember(condition)
      return .object([targets[0]: .object([op: operand])])
    }
  }

  private static func operatorMember(_ condition: QueryOperator) -> (String, GraphQLValue) {
    switch condition {
    case .eq(nil): return ("attributeExists", false)
    case .ne(nil): return ("attributeExists", true)
    case .eq(let value?): return ("eq", GraphQLValue(value))
    case .ne(let value?): return ("ne", GraphQLValue(value))
    case .lt(let value): return ("lt", GraphQLValue(value))
    case .le(let value): return ("le", GraphQLValue(value))
    case .gt(let value): return ("gt", GraphQLValue(value))
    case .ge(let value): return ("ge", GraphQLValue(value))
    case .between(let low, let high):
      return ("between", .list([GraphQLValue(low), GraphQLValue(high)]))
    case .beginsWith(let prefix): return ("beginsWith", .string(prefix))
    case .contains(let text): return ("contains", .string(text))
    case .notContains(let text): return ("notContains", .string(text))
    case .references(let values): return ("eq", .list(values.map { GraphQLValue($0) }))
    }
  }
}
