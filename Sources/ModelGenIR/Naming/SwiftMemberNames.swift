/// The Swift members of one type's fields, resolved once (through ``SwiftNames``): property names
/// (unique within the type), coding-key case names and argument labels, by GraphQL field name.
///
/// A value; `Sendable`.
package struct SwiftMemberNames: Sendable {
  /// GraphQL field name → unescaped, unique property name.
  package private(set) var property: [String: String] = [:]
  /// GraphQL field name → unescaped coding-key case name.
  package private(set) var codingKey: [String: String] = [:]
  private var escapedProperties: [String: String] = [:]
  private var escapedKeys: [String: String] = [:]
  private var labels: [String: String] = [:]

  /// Resolves the members of `fields`, avoiding the names in `reserved`.
  package init(fields: [FieldDefinition], reserved: Set<String> = []) {
    let names = SwiftNames.uniqued(fields.map { SwiftNames.propertyName($0.name) }, taken: reserved)
    for (field, name) in zip(fields, names) {
      let key = SwiftNames.codingKeyCase(forProperty: name)
      property[field.name] = name
      codingKey[field.name] = key
      escapedProperties[field.name] = SwiftNames.escaped(name)
      escapedKeys[field.name] = SwiftNames.escaped(key)
      labels[field.name] = SwiftNames.argumentLabel(name)
    }
  }

  /// Every property name (unescaped).
  package var propertyNames: Set<String> { Set(property.values) }

  /// The unescaped property name of `field`.
  package func propertyName(_ field: String) -> String { property[field] ?? field }
  /// The escaped property name of `field`.
  package func escapedProperty(_ field: String) -> String {
    escapedProperties[field] ?? SwiftNames.escaped(field)
  }
  /// The escaped coding-key case of `field`.
  package func key(_ field: String) -> String { escapedKeys[field] ?? SwiftNames.escaped(field) }
  /// The argument label of `field` at a call site.
  package func label(_ field: String) -> String { labels[field] ?? SwiftNames.argumentLabel(field) }

  /// `case id` or `` case `default` `` or `case selfValue = "self"`.
  package func codingKeyDeclaration(_ field: String) -> String {
    let caseName = codingKey[field] ?? field
    let declared = "case \(SwiftNames.escaped(caseName))"
    return caseName == field ? declared : declared + " = \(SwiftNames.stringLiteral(field))"
  }
}
