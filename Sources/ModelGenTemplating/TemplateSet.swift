/// A named set of compiled templates that may refer to each other as partials.
///
/// Rendering is a pure function of the set and the value; a set is immutable and safe to share
/// between threads.
public struct TemplateSet: Sendable {
  /// The templates by name.
  public let templates: [String: Template]

  /// Compiles every `(name, source)` pair.
  ///
  /// - Throws: The first ``TemplateError`` of any template (templates are compiled in name order,
  ///   so the error reported for a given input is always the same), or a ``TemplateError`` on the
  ///   partial tag's line when a partial names a template the set does not have, when a partial
  ///   includes itself directly or through other partials (`recursive partial 'model' (model →
  ///   model)`, reported on the tag that closes the cycle), or when partials nest deeper than
  ///   ``maximumPartialDepth``.
  public init(sources: [String: String]) throws {
    var templates: [String: Template] = [:]
    for name in sources.keys.sorted() {
      templates[name] = try Template(name: name, source: sources[name] ?? "")
    }
    for name in templates.keys.sorted() {
      try Self.checkPartials(templates[name]?.nodes ?? [], in: name, known: templates)
    }
    var heights: [String: Int] = [:]
    for name in templates.keys.sorted() where heights[name] == nil {
      try Self.checkRecursion(from: name, path: [name], known: templates, heights: &heights)
    }
    self.templates = templates
  }

  /// How deeply partials may nest (a template including a partial that includes a partial … counts
  /// one level per inclusion). Cycles are rejected when the set is built; this bound keeps a long
  /// acyclic chain from exhausting the stack as well.
  public static let maximumPartialDepth = 32

  /// The partial tags of `nodes` (sections included), in source order, with their lines.
  package static func partialTags(_ nodes: [TemplateNode]) -> [(name: String, line: Int)] {
    var tags: [(name: String, line: Int)] = []
    for node in nodes {
      switch node {
      case .partial(let name, _, let line): tags.append((name, line))
      case .section(_, _, let children, _): tags += partialTags(children)
      default: continue
      }
    }
    return tags
  }

  /// Follows every partial chain from `path.last`: a partial already on `path` is a cycle; a chain
  /// longer than ``maximumPartialDepth`` is too deep. `heights` memoizes, per template already
  /// checked, the longest partial chain below it, so shared partials are walked once.
  private static func checkRecursion(
    from name: String, path: [String], known: [String: Template],
    heights: inout [String: Int]
  ) throws {
    guard let template = known[name] else { return }
    var height = 0
    for tag in partialTags(template.nodes) {
      if let start = path.firstIndex(of: tag.name) {
        let cycle = (path[start...] + [tag.name]).joined(separator: " → ")
        throw TemplateError(
          templateName: name, line: tag.line,
          message: "recursive partial '\(tag.name)' (\(cycle))")
      }
      if heights[tag.name] == nil {
        guard path.count < maximumPartialDepth else {
          throw TemplateError(
            templateName: name, line: tag.line,
            message:
              "partials nest more than \(maximumPartialDepth) deep (\((path + [tag.name]).joined(separator: " → ")))"
          )
        }
        try checkRecursion(
          from: tag.name, path: path + [tag.name], known: known, heights: &heights)
      }
      let below = heights[tag.name] ?? 0
      guard path.count + below < maximumPartialDepth else {
        throw TemplateError(
          templateName: name, line: tag.line,
          message: "partials nest more than \(maximumPartialDepth) deep (from '\(path[0])')")
      }
      height = max(height, below + 1)
    }
    heights[name] = height
  }

  private static func checkPartials(
    _ nodes: [TemplateNode], in name: String, known: [String: Template]
  ) throws {
    for node in nodes {
      switch node {
      case .partial(let partial, _, let line) where known[partial] == nil:
        throw TemplateError(templateName: name, line: line, message: "unknown partial '\(partial)'")
      case .section(_, _, let children, _):
        try checkPartials(children, in: name, known: known)
      default:
        continue
      }
    }
  }

  /// Renders the template `name` over `value`.
  ///
  /// - Returns: The rendered text.
  /// - Throws: ``TemplateError`` when the set has no template `name`, when a tag names a value no
  ///   context on the stack has, or when a variable tag names a list or an object (only strings and
  ///   flags can be placed).
  public func render(_ name: String, _ value: TemplateValue) throws -> String {
    guard let template = templates[name] else {
      throw TemplateError(templateName: name, line: 0, message: "no template named '\(name)'")
    }
    var state = RenderState(stack: [value])
    try render(template.nodes, in: Scope(templateName: name), &state)
    return state.output
  }

  /// Where rendering is: the template whose nodes are rendered, how deep in partials, and the
  /// indentation the enclosing partial tags will add to every line of this output.
  private struct Scope {
    var templateName: String
    var depth = 0
    var baseIndentation = 0
  }

  /// What rendering accumulates: the context stack and the output text.
  private struct RenderState {
    var stack: [TemplateValue]
    var output = ""
  }

  private func render(_ nodes: [TemplateNode], in scope: Scope, _ state: inout RenderState) throws {
    for (offset, node) in nodes.enumerated() {
      switch node {
      case .text(let text):
        state.output += text
      case .variable(let name, let line):
        let value = try lookup(name, in: state.stack, templateName: scope.templateName, line: line)
        let next = offset + 1 < nodes.count ? nodes[offset + 1] : nil
        try place(value, name: name, line: line, before: next, in: scope, &state)
      case .section(let name, let inverted, let children, let line):
        let value = try lookup(name, in: state.stack, templateName: scope.templateName, line: line)
        try renderSection(value, inverted: inverted, children: children, in: scope, &state)
      case .partial(let partialName, let indentation, let line):
        try renderPartial(partialName, indentation: indentation, line: line, in: scope, &state)
      }
    }
  }

  /// Places a variable's value; a layout is laid out for the line it lands on.
  private func place(
    _ value: TemplateValue, name: TemplateName, line: Int, before next: TemplateNode?,
    in scope: Scope, _ state: inout RenderState
  ) throws {
    switch value {
    case .string(let text): state.output += text
    case .bool(let flag): state.output += flag ? "true" : "false"
    case .null: return
    case .layout(let layout):
      state.output += layout.laidOut(on: currentLine(state.output, in: scope, before: next))
    case .list, .object:
      throw TemplateError(
        templateName: scope.templateName, line: line,
        message: "'\(name.text)' is a list or an object: use a section to enter it")
    }
  }

  /// The line the next placed value starts on: its indentation and column (the enclosing partials'
  /// indentation included) and the width of the template text after the tag up to the newline.
  private func currentLine(_ output: String, in scope: Scope, before next: TemplateNode?)
    -> TemplateLine
  {
    let bytes = output.utf8
    let start = bytes.lastIndex(of: UInt8(ascii: "\n")).map(bytes.index(after:)) ?? bytes.startIndex
    let lineBytes = bytes[start...]
    let leading = lineBytes.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
    var trailing = 0
    if case .text(let text)? = next {
      trailing = text.utf8.prefix { $0 != UInt8(ascii: "\n") }.count
    }
    return TemplateLine(
      indentation: scope.baseIndentation + leading,
      column: scope.baseIndentation + lineBytes.count, trailingWidth: trailing)
  }

  private func renderSection(
    _ value: TemplateValue, inverted: Bool, children: [TemplateNode], in scope: Scope,
    _ state: inout RenderState
  ) throws {
    if inverted {
      if !value.isTruthy { try render(children, in: scope, &state) }
      return
    }
    guard value.isTruthy else { return }
    let elements: [TemplateValue]
    if case .list(let list) = value { elements = list } else { elements = [value] }
    for element in elements {
      state.stack.append(element)
      try render(children, in: scope, &state)
      state.stack.removeLast()
    }
  }

  private func renderPartial(
    _ partialName: String, indentation: String, line: Int, in scope: Scope,
    _ state: inout RenderState
  ) throws {
    guard let partial = templates[partialName] else {
      throw TemplateError(
        templateName: scope.templateName, line: line, message: "unknown partial '\(partialName)'")
    }
    // Unreachable for a set built by `init` (it rejects cycles and deep chains); kept so no
    // input can ever recurse without bound.
    guard scope.depth < Self.maximumPartialDepth else {
      throw TemplateError(
        templateName: scope.templateName, line: line,
        message: "partials nest more than \(Self.maximumPartialDepth) deep")
    }
    var inner = Scope(
      templateName: partialName, depth: scope.depth + 1,
      baseIndentation: scope.baseIndentation + indentation.utf8.count)
    if indentation.isEmpty {
      inner.baseIndentation = scope.baseIndentation
      try render(partial.nodes, in: inner, &state)
      return
    }
    var partialState = RenderState(stack: state.stack)
    try render(partial.nodes, in: inner, &partialState)
    state.output += Self.indent(partialState.output, by: indentation)
  }

  /// Prefixes every non-empty line of `text` with `indentation` (empty lines stay empty so no
  /// trailing whitespace appears).
  static func indent(_ text: String, by indentation: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count + indentation.utf8.count * 8)
    var atLineStart = true
    for character in text {
      if atLineStart && character != "\n" { result += indentation }
      result.append(character)
      atLineStart = character == "\n"
    }
    return result
  }

  /// Resolves `name`: its first component in the innermost context that has it, then the rest
  /// inside that value (Mustache "dotted names").
  private func lookup(
    _ name: TemplateName, in stack: [TemplateValue], templateName: String, line: Int
  ) throws
    -> TemplateValue
  {
    guard let first = name.components.first else { return stack.last ?? .null }
    var found: TemplateValue?
    for context in stack.reversed() {
      if case .object(let members) = context, let value = members[first] {
        found = value
        break
      }
    }
    guard var value = found else {
      throw TemplateError(
        templateName: templateName, line: line, message: "no value named '\(first)'")
    }
    for component in name.components.dropFirst() {
      guard case .object(let members) = value, let member = members[component] else {
        throw TemplateError(
          templateName: templateName, line: line, message: "no value named '\(name.text)'")
      }
      value = member
    }
    return value
  }
}
