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
  /// - Throws: ``TemplateError`` naming this template and the 1-based line of the first fault:
  ///   an unterminated tag, an empty name, a closing tag that does not match the open section, or
  ///   a section left open at the end.
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
  case variable(TemplateName, line: Int)
  case section(TemplateName, inverted: Bool, children: [TemplateNode], line: Int)
  case partial(String, indentation: String, line: Int)
}

/// A fault in a template, at compile or render time.
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The template's name (`model`).
  public let templateName: String
  /// The 1-based line of the tag at fault.
  public let line: Int
  /// What is wrong.
  public let message: String

  /// Creates an error.
  public init(templateName: String, line: Int, message: String) {
    self.templateName = templateName
    self.line = line
    self.message = message
  }

  /// `model.mustache:12: error: message`.
  public var description: String { "\(templateName).mustache:\(line): error: \(message)" }
}

/// Turns template text into nodes, applying the standalone-line rules line by line.
private struct TemplateParser {
  let templateName: String
  let source: String

  private enum Token {
    case text(String)
    case variable(String, line: Int)
    case open(String, inverted: Bool, line: Int)
    case close(String, line: Int)
    case partial(String, indentation: String, line: Int)
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
      var body = rest[open.upperBound...]
      var closer = "}}"
      if body.first == "{" {
        body = body.dropFirst()
        closer = "}}}"
      }
      guard let close = body.range(of: closer) else {
        throw TemplateError(
          templateName: templateName, line: number,
          message: "unterminated tag: expected '\(closer)' on the same line")
      }
      let inner = body[body.startIndex..<close.lowerBound]
      rest = body[close.upperBound...]
      if closer == "}}}" {
        tokens.append(.variable(try checkedName(inner, line: number), line: number))
        continue
      }
      let sigil = inner.first
      let content = inner.dropFirst()
      switch sigil {
      case "#":
        tokens.append(.open(try checkedName(content, line: number), inverted: false, line: number))
      case "^":
        tokens.append(.open(try checkedName(content, line: number), inverted: true, line: number))
      case "/": tokens.append(.close(try checkedName(content, line: number), line: number))
      case ">":
        tokens.append(
          .partial(try checkedName(content, line: number), indentation: "", line: number))
      case "!": tokens.append(.comment)
      case "&": tokens.append(.variable(try checkedName(content, line: number), line: number))
      case "=":
        throw TemplateError(
          templateName: templateName, line: number, message: "set-delimiter tags are not supported")
      default: tokens.append(.variable(try checkedName(inner, line: number), line: number))
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
    if case .partial(let name, _, let line) = tag {
      return [.partial(name, indentation: indentation, line: line)]
    }
    return [tag]
  }

  private func checkedName(_ raw: Substring, line: Int) throws -> String {
    let name = raw.trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty else {
      throw TemplateError(templateName: templateName, line: line, message: "empty tag name")
    }
    return name
  }

  private func build(_ tokens: [Token], _ index: inout Int, closing: (name: String, line: Int)?)
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
      case .variable(let name, let line):
        nodes.append(.variable(TemplateName(name), line: line))
      case .open(let name, let inverted, let line):
        let children = try build(tokens, &index, closing: (name, line))
        nodes.append(
          .section(TemplateName(name), inverted: inverted, children: children, line: line))
      case .close(let name, let line):
        guard let closing else {
          throw TemplateError(
            templateName: templateName, line: line,
            message: "closing tag '\(name)' has no open section")
        }
        guard closing.name == name else {
          throw TemplateError(
            templateName: templateName, line: line,
            message:
              "closing tag '\(name)' does not match section '\(closing.name)' opened on line \(closing.line)"
          )
        }
        return nodes
      case .partial(let name, let indentation, let line):
        nodes.append(.partial(name, indentation: indentation, line: line))
      case .comment:
        continue
      }
    }
    if let closing {
      throw TemplateError(
        templateName: templateName, line: closing.line,
        message: "section '\(closing.name)' is never closed")
    }
    return nodes
  }
}
