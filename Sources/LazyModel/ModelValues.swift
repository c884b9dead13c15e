/// Generated models behave like Swift values: `Equatable`/`Hashable` by their stored fields (the
/// compiler synthesizes both, since every stored property is `Hashable`), and printed as
/// `Comment4V2(id: "c1", content: "First", post: notLoaded(id: "p1"), createdAt: nil, …)`.
///
/// A relationship compares and prints by what it points at, never by its load state or provider:
/// a ``LazyReference`` by its ``LazyReference/identifiers``, a ``LazyList`` by its parent
/// association (``LazyList/associatedFields`` and ``LazyList/associatedIdentifiers``). So a
/// queried comment equals the same comment after its post has been loaded.

extension LazyReference: Hashable {
  /// Both point at the same identifiers (whether loaded or not, whatever their provider).
  public static func == (lhs: LazyReference, rhs: LazyReference) -> Bool {
    lhs.identifiers == rhs.identifiers
  }

  /// Hashes the identifiers (consistent with `==`).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(identifiers)
  }
}

extension LazyReference: CustomStringConvertible, CustomDebugStringConvertible {
  /// `notLoaded(id: "p1")`, `loaded(id: "p1")`, or `loaded(nil)` for an empty reference: the
  /// identifiers only, so printing never loads and never recurses into the related model.
  public var description: String {
    let identifiers = ModelValueText.components(self.identifiers ?? [])
    switch state {
    case .notLoaded: return "notLoaded(\(identifiers))"
    case .loaded(nil): return "loaded(nil)"
    case .loaded: return "loaded(\(identifiers))"
    }
  }

  /// The same as `description`.
  public var debugDescription: String { description }
}

extension LazyList: Hashable {
  /// Both list the children of the same parent association (whether fetched or not).
  public static func == (lhs: LazyList, rhs: LazyList) -> Bool {
    lhs.associatedFields == rhs.associatedFields
      && lhs.associatedIdentifiers == rhs.associatedIdentifiers
  }

  /// Hashes the parent association (consistent with `==`).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(associatedFields)
    hasher.combine(associatedIdentifiers)
  }
}

extension LazyList: CustomStringConvertible, CustomDebugStringConvertible {
  /// `notLoaded(postCommentsId: "p1")` (the associated fields and the parent's values), or
  /// `loaded(count: 2)` once fetched; never the elements, so printing never recurses.
  public var description: String {
    switch state {
    case .notLoaded(let values, let fields):
      let components = zip(fields, values).map { IdentifierComponent(name: $0, value: $1) }
      return "notLoaded(\(ModelValueText.components(components)))"
    case .loaded(let elements):
      return "loaded(count: \(elements.count))"
    }
  }

  /// The same as `description`.
  public var debugDescription: String { description }
}

extension Model {
  /// `Comment4V2(id: "c1", content: "First", post: notLoaded(id: "p1"), createdAt: nil, …)`: the
  /// type name and every stored field in declaration order, a relationship under its field name
  /// (see `LazyReference.description`), strings quoted, enum cases as `.case`.
  public var description: String { ModelValueText.describe(self) }

  /// The same as `description`.
  public var debugDescription: String { description }
}

/// How models and their values print.
enum ModelValueText {
  /// `id: "p1", n: 2`.
  static func components(_ components: [IdentifierComponent]) -> String {
    components.map { "\($0.name): \(keyValue($0.value))" }.joined(separator: ", ")
  }

  /// A key value as a Swift literal (`"p1"`, `2`, `true`).
  static func keyValue(_ value: KeyValue) -> String {
    switch value {
    case .string(let text): return String(reflecting: text)
    case .int(let number): return String(number)
    case .double(let number): return String(number)
    case .bool(let flag): return String(flag)
    }
  }

  /// `Type(field: value, …)` over the stored properties of `value`; a storage property
  /// (`_post`) prints under its field name (`post`).
  static func describe(_ value: Any) -> String {
    let fields = Mirror(reflecting: value).children.map { child -> String in
      var label = child.label ?? "_"
      if child.value is any LazyRelationshipValue, label.hasPrefix("_") { label.removeFirst() }
      return "\(label): \(text(of: child.value))"
    }
    return "\(type(of: value))(\(fields.joined(separator: ", ")))"
  }

  /// One field value as it prints.
  static func text(of value: Any) -> String {
    if let relationship = value as? any LazyRelationshipValue { return relationship.description }
    if let string = value as? String { return String(reflecting: string) }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional?:
      return mirror.children.first.map { text(of: $0.value) } ?? "nil"
    case .collection?, .set?:
      return "[" + mirror.children.map { text(of: $0.value) }.joined(separator: ", ") + "]"
    case .enum?:
      return "." + String(describing: value)
    case .struct? where value is any Embeddable:
      return describe(value)
    default:
      return String(describing: value)
    }
  }
}

/// A ``LazyReference`` or ``LazyList`` (for printing a model's fields).
protocol LazyRelationshipValue: CustomStringConvertible {}
extension LazyReference: LazyRelationshipValue {}
extension LazyList: LazyRelationshipValue {}
