/// A value a template is rendered over: the logic-less data model of our Mustache-style engine.
///
/// Templates only look values up by name and place them; every decision (which modifiers, which
/// separators, which lines exist) is made in Swift before a value is built.
///
/// Truthiness in sections follows the Mustache specification (`sections.yml`): `false`, `null` and
/// the empty list are falsey; every string, `true` and every object are truthy.
public enum TemplateValue: Sendable, Equatable {
  /// Text placed as is (no HTML escaping: we emit Swift).
  case string(String)
  /// A flag for sections and inverted sections.
  case bool(Bool)
  /// A list; a section renders once per element with the element pushed on the context stack.
  case list([TemplateValue])
  /// Named values; a section over an object renders once with the object pushed.
  case object([String: TemplateValue])
  /// An explicit absence: falsey in sections, renders as the empty string.
  case null

  /// Whether a section over this value renders (spec: not `false`, not `null`, not an empty list).
  public var isTruthy: Bool {
    switch self {
    case .bool(let flag): return flag
    case .null: return false
    case .list(let elements): return !elements.isEmpty
    case .string, .object: return true
    }
  }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// A `.string`.
  public init(stringLiteral value: String) { self = .string(value) }
  /// A `.bool`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// A `.list`.
  public init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
  /// An `.object`; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, TemplateValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

/// A Swift value that can present itself to a template.
///
/// View models conform by listing their template keys explicitly (no reflection), so renaming a
/// Swift property never silently changes what a template sees.
public protocol TemplateRepresentable {
  /// This value as template data.
  var templateValue: TemplateValue { get }
}

extension String: TemplateRepresentable {
  /// `.string(self)`.
  public var templateValue: TemplateValue { .string(self) }
}

extension Bool: TemplateRepresentable {
  /// `.bool(self)`.
  public var templateValue: TemplateValue { .bool(self) }
}

extension Array: TemplateRepresentable where Element: TemplateRepresentable {
  /// `.list` of the elements' values.
  public var templateValue: TemplateValue { .list(map(\.templateValue)) }
}

extension Optional: TemplateRepresentable where Wrapped: TemplateRepresentable {
  /// The wrapped value's template value, or `.null`.
  public var templateValue: TemplateValue { self?.templateValue ?? .null }
}
