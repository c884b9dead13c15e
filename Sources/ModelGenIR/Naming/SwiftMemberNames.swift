/// The Swift members of one type's fields, resolved once (through ``SwiftNames``): property names
/// (unique within the type), coding-key case names and argument labels, by GraphQL field name.
///
/// Compact, because the graph holds one per generated type (``ResolvedMemberNames``): two names
/// per field (the escaped spellings and the label are derived from them when asked), found by a
/// scan of the fields for a type of up to ``scannedFieldCount`` fields, by a dictionary beyond.
///
/// A value; `Sendable`.
package struct SwiftMemberNames: Sendable, Hashable {
  /// The names of one field's members.
  struct Member: Sendable, Hashable {
    /// The GraphQL field name.
    var field: String
    var property: String
    var codingKey: String
    /// The `ModelPath` member of an association field (unescaped), `nil` for data fields.
    var pathMember: String?
    /// ``property`` is a Swift keyword (``SwiftNames/escaped(_:)`` puts it in backticks).
    var propertyIsKeyword: Bool
    /// ``codingKey`` is a Swift keyword.
    var codingKeyIsKeyword: Bool
    /// ``property`` is escaped as an argument label (``SwiftNames/argumentLabel(_:)``).
    var labelIsEscaped: Bool
  }

  /// Up to this many fields, a field's members are found by scanning them (no hashing, no table).
  static let scannedFieldCount = 16

  /// One per field, in field order (a field name given twice: the later one is found).
  private var members: [Member] = []
  /// GraphQL field name → index in ``members``, for a type of more than ``scannedFieldCount``
  /// fields; `nil` for the others.
  private var indices: [String: Int]?

  /// Resolves the members of `fields`, avoiding the names in `reserved`. `caseIterableKeys` is
  /// `true` for a model, whose `CodingKeys` is `CaseIterable` (a case `allCases` gets a suffix);
  /// an embedded type's `CodingKeys` is not, and its synthesized `Codable` needs every case named
  /// as its property, so there each coding key is the property name.
  package init(fields: [FieldDefinition], reserved: Set<String> = [], caseIterableKeys: Bool = true) {
    let names = SwiftNames.propertyNames(fields.map(\.name), taken: reserved)
    let keys = caseIterableKeys ? SwiftNames.codingKeyCases(forProperties: names) : names
    members.reserveCapacity(fields.count)
    for (field, (name, key)) in zip(fields, zip(names, keys)) {
      members.append(
        Member(
          field: field.name, property: name, codingKey: key, pathMember: nil,
          propertyIsKeyword: SwiftNames.keywords.contains(name), codingKeyIsKeyword: SwiftNames.keywords.contains(key),
          labelIsEscaped: SwiftNames.escapedLabels.contains(name)))
    }
    let associations = fields.indices.filter { fields[$0].association != nil }
    let paths = SwiftNames.pathMembers(forProperties: associations.map { names[$0] })
    for (index, path) in zip(associations, paths) { members[index].pathMember = path }
    if members.count > Self.scannedFieldCount {
      indices = Dictionary(members.indices.map { (members[$0].field, $0) }, uniquingKeysWith: { _, later in later })
    }
  }

  /// The members of `field`, `nil` when the type has no such field.
  private func member(_ field: String) -> Member? {
    if let indices { return indices[field].map { members[$0] } }
    return members.last { $0.field == field }
  }

  /// Every property name (unescaped).
  package var propertyNames: Set<String> { Set(members.map(\.property)) }

  /// The unescaped coding-key case of `field` (unique within the type's `CodingKeys` and `Keys`).
  package func codingKeyCase(_ field: String) -> String { member(field)?.codingKey ?? field }
  /// The unescaped `ModelPath` member of the association `field` (unique within the model's
  /// `ModelPath` extension), `nil` for a data field.
  package func pathMember(_ field: String) -> String? { member(field)?.pathMember }

  /// The unescaped property name of `field`.
  package func propertyName(_ field: String) -> String { member(field)?.property ?? field }
  /// The escaped property name of `field`.
  package func escapedProperty(_ field: String) -> String {
    guard let member = member(field) else { return SwiftNames.escaped(field) }
    return member.propertyIsKeyword ? "`\(member.property)`" : member.property
  }
  /// The escaped coding-key case of `field`.
  package func key(_ field: String) -> String {
    guard let member = member(field) else { return SwiftNames.escaped(field) }
    return member.codingKeyIsKeyword ? "`\(member.codingKey)`" : member.codingKey
  }
  /// The argument label of `field` at a call site.
  package func label(_ field: String) -> String {
    guard let member = member(field) else { return SwiftNames.argumentLabel(field) }
    return member.labelIsEscaped ? "`\(member.property)`" : member.property
  }

  /// `case id` or `` case `default` `` or `case selfValue = "self"`.
  package func codingKeyDeclaration(_ field: String) -> String {
    let caseName = member(field)?.codingKey ?? field
    let declared = "case \(SwiftNames.escaped(caseName))"
    return caseName == field ? declared : declared + " = \(SwiftNames.stringLiteral(field))"
  }
}
