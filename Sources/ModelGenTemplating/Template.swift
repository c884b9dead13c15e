import Foundation

/// A compiled logic-less template: our small Mustache-style language.
///
/// Supported tags (Mustache specification, `https://github.com/mustache/spec`, the parts we use):
/// - `{{name}}`, `{{a.b}}`, `{{.}}`: place a value (`{{{name}}}` and `{{&name}}` are the same:
///   there is no HTML escaping, since we emit Swift).
/// - `{{#name}}…{{/name}}`: a section, rendered once per list element, once for a truthy value.
/// - `{{^name}}…{{/name}}`: an inverted section, rendered once when the value is falsey.
/// - `{{>name}}`: a partial (another template of the same ``TemplateSet``), indented like its tag.
/// - `{{! comment }}`.
///
/// Standalone lines (spec, "Standalone" tests): a line holding only whitespace and one section,
/// inverted-section, closing, partial or comment tag is removed from the output entirely; a
/// standalone partial's leading whitespace indents every non-empty line the partial renders.
///
/// Differences from the specification, chosen for a code generator: every tag must end on the
/// line it starts on; set-delimiter tags are not supported; a name that no value on the context
/// stack has is an error (a typo in a template must not silently render nothing).
///
/// A template is an immutable value and safe to share between threads.
public struct Template: Sendable {
  /// The name used in error messages and to refer to the template as a partial (`model`).
  public let name: String
  package let nodes: [TemplateNode]

  /// Compiles `source`.
  ///
  /// - Parameters:
  ///   - name: The template's name, as partial tags and error messages spell it.
  ///   - source: The template text.
  /// - Throws: ``TemplateError`` naming this template, the 1-based line and column of the tag at
  ///   fault, and a hint: an unterminated tag, an empty name, a set-delimiter tag, a closing tag
  ///   that does not match the open section, or a section left open at the end (reported at its
  ///   opening tag).
  public init(name: String, source: String) throws {
    self.name = name
    nodes = try TemplateParser(templateName: name, source: source).parse()
  }
}

/// A name in a tag: dotted components, or the implicit iterator `.` (no components).
package struct TemplateName: Sendable, Equatable {
  let components: [String]
  let text: String

  init(_ text: String) {
    self.text = text
    components =
      text == "."
      ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
  }
}

/// One node of a compiled template.
package indirect enum TemplateNode: Sendable {
  case text(String)
  case variable(TemplateName, at: TemplatePosition)
  case section(TemplateName, inverted: Bool, children: [TemplateNode], at: TemplatePosition)
  case partial(String, indentation: String, at: TemplatePosition)
}

/// Where a tag starts in its template: the 1-based line and the 1-based column of its `{{`
/// (Unicode scalars, a tab is one column, as schema diagnostics count).
package struct TemplatePosition: Sendable, Equatable {
  let line: Int
  let column: Int
}

/// A fault in a template, at compile or render time.
///
/// `modelgen` prints it as `DIR/model.mustache:12:5: error: message [MGC029]` (compile time) or
/// `… (while rendering Post.swift) [MGC030]` (render time), followed by `  hint: …`.
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The template's name (`model`).
  public let templateName: String
  /// The 1-based line of the tag at fault, or 0 when the fault is not at a tag (a template the
  /// set does not have).
  public let line: Int
  /// The 1-based column (Unicode scalars) of the `{{` of the tag at fault, or `nil` when the
  /// fault is not at a tag.
  public let column: Int?
  /// What is wrong.
  public let message: String
  /// What to do about it (`close the section with {{/items}}`, `did you mean 'name'?`). Every
  /// template error has one.
  public let hint: String

  /// Creates an error.
  public init(templateName: String, line: Int, column: Int?, message: String, hint: String) {
    self.templateName = templateName
    self.line = line
    self.column = column
    self.message = message
    self.hint = hint
  }

  init(templateName: String, at position: TemplatePosition, message: String, hint: String) {
    self.init(
      templateName: templateName, line: position.line, column: position.column, message: message,
      hint: hint)
  }

  /// `model.mustache:12:5` (`model.mustache:12` without a column, `model.mustache` without a line).
  public var location: String {
    guard line > 0 else { return "\(templateName).mustache" }
    return "\(templateName).mustache:\(line)" + (column.map { ":\($0)" } ?? "")
  }

  /// `model.mustache:12:5: error: message`, then `  hint: …` on a second line.
  public var description: String { "\(location): error: \(message)\n  hint: \(hint)" }
}

/// Turns template text into nodes, applying the standalone-line rules line by line.
private struct TemplateParser {
  let templateName: String
  let source: String

  private enum Token {
    case text(String)
    case variable(String, at: TemplatePosition)
    case open(String, inverted: Bool, at: TemplatePosition)
    case close(String, at: TemplatePosition)
    case partial(String, indentation: String, at: TemplatePosition)
    case comment
  }

  func parse() throws -> [TemplateNode] {
    var tokens: [Token] = []
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    for (offset, line) in lines.enumerated() {
      let text = offset == lines.count - 1 ? line : Substring(line + "\n")
      if text.isEmpty { continue }
      tokens.append(contentsOf: try tokenize(line: text, number: offset + 1))
    }
    var index = 0
    let nodes = try build(tokens, &index, closing: nil)
    return nodes
  }

  /// Splits one line (with its newline) into tokens and drops it when it is standalone.
  private func tokenize(line: Substring, number: Int) throws -> [Token] {
    var tokens: [Token] = []
    var rest = line[...]
    while let open = rest.range(of: "{{") {
      if open.lowerBound > rest.startIndex {
        tokens.append(.text(String(rest[rest.startIndex..<open.lowerBound])))
      }
      let at = TemplatePosition(
        line: number,
        column: line.unicodeScalars.distance(from: line.startIndex, to: open.lowerBound) + 1)
      var body = rest[open.upperBound...]
      var closer = "}}"
      if body.first == "{" {
        body = body.dropFirst()
        closer = "}}}"
      }
      guard let close = body.range(of: closer) else {
        throw TemplateError(
          templateName: templateName, at: at,
          message: "unterminated tag: expected '\(closer)' on the same line",
          hint: "end the tag with '\(closer)' on this line (a tag cannot span lines)")
      }
      let inner = body[body.startIndex..<close.lowerBound]
      rest = body[close.upperBound...]
      if closer == "}}}" {
        tokens.append(.variable(try checkedName(inner, at: at), at: at))
        continue
      }
      let sigil = inner.first
      let content = inner.dropFirst()
      switch sigil {
      case "#":
        tokens.append(.open(try checkedName(content, at: at), inverted: false, at: at))
      case "^":
        tokens.append(.open(try checkedName(content, at: at), inverted: true, at: at))
      case "/": tokens.append(.close(try checkedName(content, at: at), at: at))
      case ">":
        tokens.append(
          .partial(try checkedName(content, at: at), indentation: "", at: at))
      case "!": tokens.append(.comment)
      case "&": tokens.append(.variable(try checkedName(content, at: at), at: at))
      case "=":
        throw TemplateError(
          templateName: templateName, at: at, message: "set-delimiter tags are not supported",
          hint: "remove the tag: templates always use '{{' and '}}'")
      default: tokens.append(.variable(try checkedName(inner, at: at), at: at))
      }
    }
    if !rest.isEmpty { tokens.append(.text(String(rest))) }
    return standalone(tokens) ?? tokens
  }

  /// The tokens of a standalone line (its one non-variable tag, with a partial's indentation), or
  /// `nil` when the line is not standalone.
  private func standalone(_ tokens: [Token]) -> [Token]? {
    var tag: Token?
    var indentation = ""
    for token in tokens {
      switch token {
      case .text(let text):
        guard text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else {
          return nil
        }
        if tag == nil { indentation += text }
      case .variable:
        return nil
      case .open, .close, .partial, .comment:
        guard tag == nil else { return nil }
        tag = token
      }
    }
    guard let tag else { return nil }
    if case .partial(let name, _, let at) = tag {
      return [.partial(name, indentation: indentation, at: at)]
    }
    return [tag]
  }

  private func checkedName(_ raw: Substring, at: TemplatePosition) throws -> String {
    let name = raw.trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty else {
      throw TemplateError(
        templateName: templateName, at: at, message: "empty tag name",
        hint: "name a value in the tag ('{{name}}', '{{#name}}'), or remove it")
    }
    return name
  }

  private func build(
    _ tokens: [Token], _ index: inout Int, closing: (name: String, at: TemplatePosition)?
  )
    throws -> [TemplateNode]
  {
    var nodes: [TemplateNode] = []
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      switch token {
      case .text(let text):
        if case .text(let previous) = nodes.last {
          nodes[nodes.count - 1] = .text(previous + text)
        } else {
          nodes.append(.text(text))
        }
      case .variable(let name, let at):
        nodes.append(.variable(TemplateName(name), at: at))
      case .open(let name, let inverted, let at):
        let children = try build(tokens, &index, closing: (name, at))
        nodes.append(
          .section(TemplateName(name), inverted: inverted, children: children, at: at))
      case .close(let name, let at):
        guard let closing else {
          throw TemplateError(
            templateName: templateName, at: at,
            message: "closing tag '\(name)' has no open section",
            hint: "remove '{{/\(name)}}', or open the section before it with '{{#\(name)}}'")
        }
        guard closing.name == name else {
          throw TemplateError(
            templateName: templateName, at: at,
            message:
              "closing tag '\(name)' does not match section '\(closing.name)' opened on line \(closing.at.line)",
            hint:
              "close '\(closing.name)' first with '{{/\(closing.name)}}' (sections close innermost first)"
          )
        }
        return nodes
      case .partial(let name, let indentation, let at):
        nodes.append(.partial(name, indentation: indentation, at: at))
      case .comment:
        continue
      }
    }
    if let closing {
      throw TemplateError(
        templateName: templateName, at: closing.at,
        message: "section '\(closing.name)' is never closed",
        hint: "close it with '{{/\(closing.name)}}'")
    }
    return nodes
  }
}
