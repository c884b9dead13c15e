import ModelGenTemplating

/// A piece of Swift whose line breaks the renderer chooses for the place a template puts it: a view
/// model holds the parts (callee, arguments, elements), never laid-out lines, so a template may
/// indent a statement as it likes and its continuation lines follow (``TemplateLayout``).
///
/// Layout follows ``SwiftLayout`` (swift-format's default style). A value type; `Sendable`. Not
/// `indirect`: nested code lives in arrays already, so no case needs a box of its own.
public enum SwiftCode: Sendable, Hashable, TemplateLayout {
  /// Text that never breaks (`keys.id`, `.required`).
  case text(String)
  /// `head` + arguments + `close` (`try values.decode(` … `)`); nested arguments are laid out
  /// at the statement's indentation + 2.
  case call(head: String, arguments: [SwiftCode], close: String)
  /// An array literal; elements break one per line when it does not fit.
  case array([SwiftCode])
  /// `label` + an array literal, as a call argument (`authRules: [...]`).
  case labeledArray(label: String, elements: [SwiftCode])
  /// The parameters of a declaration whose parentheses the template writes.
  case parameters([String])

  /// A call closed by `)` and followed by `trailing` (`,` between array elements).
  public static func call(_ head: String, _ arguments: [SwiftCode], trailing: String = "")
    -> SwiftCode
  {
    .call(head: head, arguments: arguments, close: ")" + trailing)
  }

  /// The same code with `prefix` written before it (`let id = ` before a call).
  func prefixed(_ prefix: String) -> SwiftCode {
    switch self {
    case .text(let text): return .text(prefix + text)
    case .call(let head, let arguments, let close):
      return .call(head: prefix + head, arguments: arguments, close: close)
    case .array, .labeledArray, .parameters:
      return .call(head: prefix, arguments: [self], close: "")
    }
  }

  /// The text laid out for `line`.
  public func laidOut(on line: TemplateLine) -> String {
    switch self {
    case .text(let text):
      return text
    case .call(let head, let arguments, let close):
      return SwiftLayout.call(head, arguments.map { $0.nested(in: line) }, close: close, on: line)
    case .array(let elements):
      return SwiftLayout.arrayLiteral(elements.map { $0.nested(in: line) }, on: line)
    case .labeledArray(let label, let elements):
      let column = line.column + label.utf8.count
      let inner = TemplateLine(indentation: line.indentation, column: column)
      return label + SwiftLayout.arrayLiteral(elements.map { $0.nested(in: line) }, on: inner)
    case .parameters(let parameters):
      return SwiftLayout.parameterList(parameters, on: line)
    }
  }

  /// This code as an argument or element of code on `line`: laid out on a continuation line.
  func nested(in line: TemplateLine) -> String {
    let indentation = line.indentation + 2
    return laidOut(on: TemplateLine(indentation: indentation, column: indentation))
  }
}

extension SwiftCode: TemplateRepresentable {
  /// `.layout(self)`.
  public var templateValue: TemplateValue { .layout(self) }
}

extension SwiftCode: ExpressibleByStringLiteral {
  /// `.text`.
  public init(stringLiteral value: String) { self = .text(value) }
}
