import ModelGenIR
import ModelGenTemplating

/// Line layout of long Swift calls, matching what `swift format` (default configuration: 100
/// columns, 2-space indentation, `lineBreakBeforeEachArgument: false`) accepts unchanged.
///
/// A call that fits stays on one line; otherwise the line breaks after `(` and the arguments are
/// packed onto continuation lines indented 2 more than the line, with `)` after the last argument.
/// The renderer calls these with the line a template places the code on (``SwiftCode``); widths
/// are UTF-8 byte counts: exact for ASCII, an overestimate otherwise (which only wraps earlier, a
/// layout swift-format also accepts).
public enum SwiftLayout {
  /// The line length `swift format` checks by default.
  public static let lineLength = 100

  /// `head` + arguments + `close` + `trailing`, laid out for a statement that starts at column
  /// `indent` (0-based) of a line indented by `indent`. Continuation lines carry their absolute
  /// indentation; the first line has none (the template places it).
  ///
  /// - Parameters:
  ///   - head: Everything up to and including the opening parenthesis (`x = try f(`).
  ///   - arguments: The arguments, each already rendered.
  ///   - close: The closing text after the last argument (`)`).
  ///   - trailing: Text after the closing text (`,` in an array literal).
  ///   - indent: The column at which the template places the first line.
  public static func call(
    _ head: String, _ arguments: [String], close: String = ")", trailing: String = "", indent: Int
  ) -> String {
    call(
      head, arguments, close: close + trailing,
      on: TemplateLine(indentation: indent, column: indent))
  }

  /// `head` + arguments + `close` laid out for `line`: one line when it fits before the line's
  /// trailing text, else packed continuation lines at the line's indentation + 2.
  public static func call(_ head: String, _ arguments: [String], close: String, on line: TemplateLine)
    -> String
  {
    let separators = max(0, arguments.count - 1) * 2
    let width =
      line.column + head.utf8.count + arguments.reduce(0) { $0 + $1.utf8.count } + separators
      + close.utf8.count + line.trailingWidth
    if width <= lineLength || arguments.isEmpty {
      // One line, built in one allocation (`head + joined + close` made three).
      var result = ""
      result.reserveCapacity(width - line.column - line.trailingWidth)
      result += head
      for (offset, argument) in arguments.enumerated() {
        if offset > 0 { result += ", " }
        result += argument
      }
      result += close
      return result
    }
    let continuation = String(repeating: " ", count: line.indentation + 2)
    // swift-format keeps `)` after the last argument, but puts a closing text that continues the
    // expression (`).components`) or closes a literal (`])`) on a line of its own.
    let closeOnOwnLine = !close.hasPrefix(")") || !close.dropFirst().allSatisfy { $0 == "," }
    var result = head
    var current = ""
    var currentWidth = 0
    for (offset, argument) in arguments.enumerated() {
      let isLast = offset == arguments.count - 1
      let piece = argument + (isLast ? (closeOnOwnLine ? "" : close) : ",")
      let pieceWidth = piece.utf8.count + (isLast && !closeOnOwnLine ? line.trailingWidth : 0)
      // A byte search: `String.contains(_:)` with a string argument is Foundation's
      // `range(of:)`, which was 5 % of all generator instructions here.
      if piece.utf8.contains(UInt8(ascii: "\n")) {
        // A multi-line argument (a broken array literal) starts a line and ends it.
        if !current.isEmpty { result += "\n" + continuation + current }
        result += "\n" + continuation + piece
        current = ""
        currentWidth = 0
      } else if current.isEmpty {
        current = piece
        currentWidth = pieceWidth
      } else if continuation.utf8.count + currentWidth + 1 + pieceWidth <= lineLength {
        current += " " + piece
        currentWidth += 1 + pieceWidth
      } else {
        result += "\n" + continuation + current
        current = piece
        currentWidth = pieceWidth
      }
    }
    if !current.isEmpty { result += "\n" + continuation + current }
    if closeOnOwnLine { result += "\n" + String(repeating: " ", count: line.indentation) + close }
    return result
  }

  /// An array literal of already-rendered `elements` for an expression that starts at column
  /// `indent` after `prefix`: one line when it fits, else one element per line with a trailing comma
  /// (swift-format's multi-line collection style), closed at `indent`.
  public static func arrayLiteral(_ elements: [String], prefix: String = "", indent: Int) -> String {
    arrayLiteral(
      elements, on: TemplateLine(indentation: indent, column: indent + prefix.utf8.count))
  }

  /// An array literal of already-rendered `elements` for `line`: one line when it fits before the
  /// line's trailing text, else one element per line at the line's indentation + 2, each with a
  /// trailing comma, and `]` at the line's indentation.
  public static func arrayLiteral(_ elements: [String], on line: TemplateLine) -> String {
    var oneLine = "["
    oneLine.reserveCapacity(elements.reduce(2) { $0 + $1.utf8.count + 2 })
    for (offset, element) in elements.enumerated() {
      if offset > 0 { oneLine += ", " }
      oneLine += element
    }
    oneLine += "]"
    if line.column + oneLine.utf8.count + line.trailingWidth <= lineLength || elements.isEmpty {
      return oneLine
    }
    let inner = String(repeating: " ", count: line.indentation + 2)
    return "[\n" + elements.map { inner + $0 + ",\n" }.joined()
      + String(repeating: " ", count: line.indentation) + "]"
  }

  /// A parameter list for a declaration whose line starts at column `indent` with `head` (`public
  /// init(`) and ends with `tail` (`) {`): inline when it fits, else one parameter per line at
  /// `indent + 2` with the closing parenthesis back at `indent`.
  public static func parameterList(_ parameters: [String], head: String, tail: String, indent: Int)
    -> String
  {
    parameterList(
      parameters,
      on: TemplateLine(
        indentation: indent, column: indent + head.utf8.count, trailingWidth: tail.utf8.count))
  }

  /// A parameter list for `line` (the template writes the parentheses): inline when it fits before
  /// the line's trailing text, else one parameter per line at the line's indentation + 2 and the
  /// closing text back at the line's indentation.
  public static func parameterList(_ parameters: [String], on line: TemplateLine) -> String {
    let oneLine = parameters.joined(separator: ", ")
    if line.column + oneLine.utf8.count + line.trailingWidth <= lineLength {
      return oneLine
    }
    let inner = String(repeating: " ", count: line.indentation + 2)
    return "\n" + parameters.map { inner + $0 }.joined(separator: ",\n") + "\n"
      + String(repeating: " ", count: line.indentation)
  }

  /// A Swift array literal of string literals (`["a", "b"]`).
  public static func stringArray(_ values: [String]) -> String {
    "[" + values.map(SwiftNames.stringLiteral).joined(separator: ", ") + "]"
  }

  /// `label` + an array literal of string literals (`targetNames: ["a", "b"]`) as code, so that
  /// a list too long for its line breaks one element per line as swift-format lays it out.
  public static func stringArray(label: String, _ values: [String]) -> SwiftCode {
    .labeledArray(label: label, elements: values.map { .text(SwiftNames.stringLiteral($0)) })
  }
}
