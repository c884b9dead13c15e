/// The Swift members of one type's fields, resolved once (through ``SwiftNames``): property names
/// (unique within the type), coding-key case names and argument labels, by GraphQL field name.
///
/// A value; `Sendable`.
package struct SwiftMemberNames: Sendable, Hashable {
  /// The names of one field's members.
  struct Member: Sendable, Hashable {
    var property: String
    var codingKey: String
    var escapedProperty: String
    var escapedKey: String
    var label: String
    /// The `ModelPath` member of an association field (unescaped), `nil` for data fields.
    var pathMember: String?
  }

  private var byField: [String: Member] = [:]
  /// Every property name (unescaped).
  package let propertyNames: Set<String>

  /// Resolves the members of `fields`, avoiding the names in `reserved`. `caseIterableKeys` is
  /// `true` for a model, whose `CodingKeys` is `CaseIterable` (a case `allCases` gets a suffix);
  /// an embedded type's `CodingKeys` is not, and its synthesized `Codable` needs every case named
  /// as its property, so there each coding key is the property name.
  package init(fields: [FieldDefinition], reserved: Set<String> = [], caseIterableKeys: Bool = true) {
    let names = SwiftNames.propertyNames(fields.map(\.name), taken: reserved)
    let keys = caseIterableKeys ? SwiftNames.codingKeyCases(forProperties: names) : names
    byField.reserveCapacity(fields.count)
    for (field, (name, key)) in zip(fields, zip(names, keys)) {
      byField[field.name] = Member(
        property: name, codingKey: key, escapedProperty: SwiftNames.escaped(name),
        escapedKey: SwiftNames.escaped(key), label: SwiftNames.argumentLabel(name))
    }
    let associations = zip(fields, names).filter { $0.0.association != nil }
    let paths = SwiftNames.pathMembers(forProperties: associations.map(\.1))
    for ((field, _), path) in zip(associations, paths) { byField[field.name]?.pathMember = path }
    propertyNames = Set(names)
  }

  /// The unescaped coding-key case of `field` (unique within the type's `CodingKeys` and `Keys`).
  package func codingKeyCase(_ field: String) -> String { byField[field]?.codingKey ?? field }
  /// The unescaped `ModelPath` member of the association `field` (unique within the model's
  /// `ModelPath` extension), `nil` for a data field.
  package func pathMember(_ field: String) -> String? { byField[field]?.pathMember }

  /// The unescaped property name of `field`.
  package func propertyName(_ field: String) -> String { byField[field]?.property ?? field }
  /// The escaped property name of `field`.
  package func escapedProperty(_ field: String) -> String {
    byField[field]?.escapedProperty ?? SwiftNames.escaped(field)
  }
  /// The escaped coding-key case of `field`.
  package func key(_ field: String) -> String {
    byField[field]?.escapedKey ?? SwiftNames.escaped(field)
  }
  /// The argument label of `field` at a call site.
  package func label(_ field: String) -> String {
    byField[field]?.label ?? SwiftNames.argumentLabel(field)
  }

  /// `case id` or `` case `default` `` or `case selfValue = "self"`.
  package func codingKeyDeclaration(_ field: String) -> String {
    let caseName = byField[field]?.codingKey ?? field
    let declared = "case \(SwiftNames.escaped(caseName))"
    return caseName == field ? declared : declared + " = \(SwiftNames.stringLiteral(field))"
  }
}
