/// A value a template is rendered over: the logic-less data model of our Mustache-style engine.
///
/// Templates only look values up by name and place them; every decision (which modifiers, which
/// separators, which lines exist) is made in Swift before a value is built.
///
/// Truthiness in sections follows the Mustache specification (`sections.yml`): `false`, `null` and
/// the empty list are falsey; every string, `true` and every object are truthy.
public enum TemplateValue: Sendable {
  /// Text placed as is (no HTML escaping: we emit Swift).
  case string(String)
  /// A flag for sections and inverted sections.
  case bool(Bool)
  /// A list; a section renders once per element with the element pushed on the context stack.
  case list([TemplateValue])
  /// Named values; a section over an object renders once with the object pushed.
  case object([String: TemplateValue])
  /// Named values whose names are shared by every value of one kind (a view model's keys, listed
  /// once in a ``TemplateKeys``): looked up and rendered like ``object(_:)``, built without hashing
  /// a dictionary per value.
  case record(TemplateRecord)
  /// An explicit absence: falsey in sections, renders as the empty string.
  case null
  /// Text the renderer lays out for the line the template places it on (``TemplateLayout``): the
  /// template decides the indentation, the value where its lines break.
  case layout(any TemplateLayout)

  /// Whether a section over this value renders (spec: not `false`, not `null`, not an empty list).
  public var isTruthy: Bool {
    switch self {
    case .bool(let flag): return flag
    case .null: return false
    case .list(let elements): return !elements.isEmpty
    case .string, .object, .record, .layout: return true
    }
  }
}

extension TemplateValue: Equatable {
  /// Structural equality; two layouts are equal when ``TemplateLayout/isEqual(to:)`` says so.
  public static func == (lhs: TemplateValue, rhs: TemplateValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.list(let a), .list(let b)): return a == b
    case (.object(let a), .object(let b)): return a == b
    case (.record(let a), .record(let b)): return a == b
    case (.null, .null): return true
    case (.layout(let a), .layout(let b)): return a.isEqual(to: b)
    default: return false
    }
  }
}

/// The names of a kind of ``TemplateRecord``, in the order of its values: created once per kind
/// (a view model type's `static let`) and shared by every record of that kind.
///
/// Immutable; safe to share between threads.
public final class TemplateKeys: Sendable {
  /// The names.
  public let names: [String]
  /// Each name's length in UTF-8 bytes, compared before the name itself.
  private let lengths: [Int]

  /// Creates keys; a repeated name is found at its first position.
  public init(_ names: [String]) {
    self.names = names
    lengths = names.map(\.utf8.count)
  }

  /// The position of `name`, or `nil` when it is not one of the names.
  public func index(of name: String) -> Int? {
    let length = name.utf8.count
    for index in lengths.indices where lengths[index] == length && names[index] == name {
      return index
    }
    return nil
  }
}

/// Named values as a view model presents them: shared ``TemplateKeys`` and one value per key, so a
/// record costs one array to build and no hashing. The payload of ``TemplateValue/record(_:)``.
public struct TemplateRecord: Sendable, Equatable {
  /// The names.
  public let keys: TemplateKeys
  /// The values, in the order of ``keys``.
  public let values: [TemplateValue]

  /// Creates a record.
  ///
  /// - Precondition: `values` has one value per name of `keys`.
  public init(keys: TemplateKeys, values: [TemplateValue]) {
    precondition(keys.names.count == values.count, "a TemplateRecord needs one value per key")
    self.keys = keys
    self.values = values
  }

  /// The value named `name`, or `nil` when the record has no such name.
  public subscript(name: String) -> TemplateValue? {
    keys.index(of: name).map { values[$0] }
  }

  /// Equal when both have the same names and values.
  public static func == (lhs: TemplateRecord, rhs: TemplateRecord) -> Bool {
    (lhs.keys === rhs.keys || lhs.keys.names == rhs.keys.names) && lhs.values == rhs.values
  }
}

/// Where the renderer places a value: the facts of the output line a ``TemplateLayout`` needs to
/// choose its line breaks. Widths and columns count UTF-8 bytes (exact for the ASCII a template
/// indents with).
public struct TemplateLine: Sendable, Equatable {
  /// The indentation of the output line the value starts on, in columns: its leading spaces and
  /// tabs, including the indentation of the partial it is rendered in.
  public var indentation: Int
  /// The 0-based column at which the value starts.
  public var column: Int
  /// The width of the template text that follows the tag on the same line (`) {` after
  /// `init({{parameters}}`), 0 when the tag ends the line.
  public var trailingWidth: Int

  /// Creates a line.
  public init(indentation: Int, column: Int, trailingWidth: Int = 0) {
    self.indentation = indentation
    self.column = column
    self.trailingWidth = trailingWidth
  }
}

/// A value that lays itself out for the line the template places it on, so the renderer, not the
/// view model, owns indentation: a user template may indent a statement as it likes and its
/// continuation lines follow.
///
/// Conforming types are immutable values; `laidOut(on:)` must be a pure function.
public protocol TemplateLayout: Sendable {
  /// The text for `line`: the first line without indentation (the template placed it), every
  /// continuation line with its full indentation.
  func laidOut(on line: TemplateLine) -> String
  /// Whether `other` is the same value (for ``TemplateValue``'s equality).
  func isEqual(to other: any TemplateLayout) -> Bool
}

extension TemplateLayout where Self: Equatable {
  /// Equal when `other` is of the same type and `==`.
  public func isEqual(to other: any TemplateLayout) -> Bool {
    (other as? Self) == self
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
  @inlinable public var templateValue: TemplateValue { .list(map { $0.templateValue }) }
}

extension Optional: TemplateRepresentable where Wrapped: TemplateRepresentable {
  /// The wrapped value's template value, or `.null`.
  public var templateValue: TemplateValue { self?.templateValue ?? .null }
}
