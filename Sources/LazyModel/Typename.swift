/// An object decoded as a model named another type in its `__typename` (GraphQL spec §4.4.1
/// "Type Name Introspection"): a response that answers a query for `Post` with a `Comment`.
///
/// Thrown while decoding by ``LazyReference``, ``LazyList`` and ``TypenameCheckedModel``; an
/// object without `__typename` is accepted.
public struct TypenameMismatch: Error, Sendable, Hashable, CustomStringConvertible {
  /// The model's `ModelSchema.name`.
  public let expected: String
  /// The `__typename` the object carried.
  public let received: String
  /// The coding path of the object, dot-separated (`getComment.post`).
  public let path: String

  /// Creates the error.
  public init(expected: String, received: String, path: String) {
    self.expected = expected
    self.received = received
    self.path = path
  }

  /// `<path>: __typename <received>, expected <expected>`.
  public var description: String {
    "\(path): __typename \(received), expected \(expected)"
  }
}

extension KeyedDecodingContainer where Key == AnyCodingKey {
  /// Throws ``TypenameMismatch`` when this object's `__typename` is present and is not `M`'s
  /// schema name.
  @inlinable
  public func checkTypename<M: Model>(of type: M.Type) throws {
    let key = AnyCodingKey("__typename")
    guard contains(key), let received = try decodeIfPresent(String.self, forKey: key),
      received != M.schema.name
    else { return }
    throw TypenameMismatch(
      expected: M.schema.name, received: received,
      path: codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "."))
  }
}

/// Decodes an `M` after checking the object's `__typename` against `M` (see ``TypenameMismatch``).
///
/// Thread-safety: a `Sendable` value.
public struct TypenameCheckedModel<M: Model>: Decodable, Sendable {
  /// The decoded model.
  public let model: M

  /// Decodes `M`, first checking `__typename`.
  ///
  /// - Throws: ``TypenameMismatch``, or what `M.init(from:)` throws.
  public init(from decoder: any Decoder) throws {
    try decoder.container(keyedBy: AnyCodingKey.self).checkTypename(of: M.self)
    model = try M(from: decoder)
  }
}
