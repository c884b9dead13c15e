/// The Swift members of one type's fields, resolved once (through ``SwiftNames``): property names
/// (unique within the type), coding-key case names and argument labels, by GraphQL field name.
///
/// A value; `Sendable`.
package struct SwiftMemberNames: Sendable {
  /// The names of one field's members.
  struct Member: Sendable {
    var property: String
    var codingKey: String
    var escapedProperty: String
    var escapedKey: String
    var label: String
  }

  private var byField: [String: Member] = [:]
  /// Every property name (unescaped).
  package let propertyNames: Set<String>

  /// Resolves the members of `fields`, avoiding the names in `reserved`.
  package init(fields: [FieldDefinition], reserved: Set<String> = []) {
    let names = SwiftNames.propertyNames(fields.map(\.name), taken: reserved)
    byField.reserveCapacity(fields.count)
    for (field, name) in zip(fields, names) {
      let key = SwiftNames.codingKeyCase(forProperty: name)
      byField[field.name] = Member(
        property: name, codingKey: key, escapedProperty: SwiftNames.escaped(name),
        escapedKey: SwiftNames.escaped(key), label: SwiftNames.argumentLabel(name))
    }
    propertyNames = Set(names)
  }

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
