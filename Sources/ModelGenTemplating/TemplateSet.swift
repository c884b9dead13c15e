import ModelVocabulary

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
  ///   so the error reported for a given input is always the same), or a ``TemplateError`` at the
  ///   partial tag (its line and column, with a hint) when a partial names a template the set
  ///   does not have (the hint names the closest template, or lists them), when a partial
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

  /// The partial tags of `nodes` (sections included), in source order, with their positions.
  package static func partialTags(_ nodes: [TemplateNode]) -> [(name: String, at: TemplatePosition)] {
    var tags: [(name: String, at: TemplatePosition)] = []
    for node in nodes {
      switch node {
      case .partial(let name, _, let at): tags.append((name, at))
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
          templateName: name, at: tag.at,
          message: "recursive partial '\(tag.name)' (\(cycle))",
          hint: "remove '{{> \(tag.name)}}' here: a partial cannot include itself, directly or through "
            + "other partials")
      }
      if heights[tag.name] == nil {
        guard path.count < maximumPartialDepth else {
          throw TemplateError(
            templateName: name, at: tag.at,
            message:
              "partials nest more than \(maximumPartialDepth) deep (\((path + [tag.name]).joined(separator: " → ")))",
            hint: Self.depthHint)
        }
        try checkRecursion(
          from: tag.name, path: path + [tag.name], known: known, heights: &heights)
      }
      let below = heights[tag.name] ?? 0
      guard path.count + below < maximumPartialDepth else {
        throw TemplateError(
          templateName: name, at: tag.at,
          message: "partials nest more than \(maximumPartialDepth) deep (from '\(path[0])')",
          hint: Self.depthHint)
      }
      height = max(height, below + 1)
    }
    heights[name] = height
  }

  private static let depthHint =
    "include the innermost partials' text directly, so no chain of partials is longer than "
    + "\(maximumPartialDepth)"

  /// The hint for a partial tag naming no template of `known`: the closest name, or every name.
  private static func unknownPartialHint(_ partial: String, known: some Collection<String>) -> String {
    if let suggestion = TemplateSpelling.closest(to: partial, among: known.sorted()) {
      return "did you mean '{{> \(suggestion)}}'?"
    }
    return "add \(partial).mustache to the templates directory, or include one of the templates: "
      + known.sorted().joined(separator: ", ")
  }

  private static func checkPartials(
    _ nodes: [TemplateNode], in name: String, known: [String: Template]
  ) throws {
    for node in nodes {
      switch node {
      case .partial(let partial, _, let at) where known[partial] == nil:
        throw TemplateError(
          templateName: name, at: at, message: "unknown partial '\(partial)'",
          hint: unknownPartialHint(partial, known: known.keys))
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
  ///   context on the stack has (the hint names the closest name the stack has, or lists them), or
  ///   when a variable tag names a list or an object (only strings and flags can be placed); each
  ///   at the tag's template, line and column.
  public func render(_ name: String, _ value: TemplateValue) throws -> String {
    String(decoding: try renderUTF8(name, value), as: UTF8.self)
  }

  /// Renders the template `name` over `value` into UTF-8 bytes: the text ``render(_:_:)`` returns,
  /// without building a `String` (the generator normalizes these bytes into the file's text).
  ///
  /// - Throws: The errors of ``render(_:_:)``.
  public func renderUTF8(_ name: String, _ value: TemplateValue) throws -> [UInt8] {
    guard let template = templates[name] else {
      throw TemplateError(
        templateName: name, line: 0, column: nil, message: "no template named '\(name)'",
        hint: "render one of the templates: " + templates.keys.sorted().joined(separator: ", "))
    }
    var state = RenderState(stack: [value])
    state.output.reserveCapacity(16 * 1024)
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

  /// What rendering accumulates: the context stack and the output, as UTF-8 bytes appended to
  /// one buffer.
  private struct RenderState {
    var stack: [TemplateValue]
    var output: [UInt8] = []

    mutating func append(_ text: String) {
      var text = text
      text.withUTF8 { output.append(contentsOf: $0) }
    }
  }

  private func render(_ nodes: [TemplateNode], in scope: Scope, _ state: inout RenderState) throws {
    for (offset, node) in nodes.enumerated() {
      switch node {
      case .text(let text):
        state.append(text)
      case .variable(let name, let at):
        let value = try lookup(name, in: state.stack, templateName: scope.templateName, at: at)
        let next = offset + 1 < nodes.count ? nodes[offset + 1] : nil
        try place(value, name: name, at: at, before: next, in: scope, &state)
      case .section(let name, let inverted, let children, let at):
        let value = try lookup(name, in: state.stack, templateName: scope.templateName, at: at)
        try renderSection(value, inverted: inverted, children: children, in: scope, &state)
      case .partial(let partialName, let indentation, let at):
        try renderPartial(partialName, indentation: indentation, at: at, in: scope, &state)
      }
    }
  }

  /// Places a variable's value; a layout is laid out for the line it lands on.
  private func place(
    _ value: TemplateValue, name: TemplateName, at: TemplatePosition, before next: TemplateNode?,
    in scope: Scope, _ state: inout RenderState
  ) throws {
    switch value {
    case .string(let text): state.append(text)
    case .bool(let flag): state.append(flag ? "true" : "false")
    case .null: return
    case .layout(let layout):
      state.append(layout.laidOut(on: currentLine(state.output, in: scope, before: next)))
    case .list, .object, .record:
      throw TemplateError(
        templateName: scope.templateName, at: at,
        message: "'\(name.text)' is a list or an object: use a section to enter it",
        hint:
          "write '{{#\(name.text)}}…{{/\(name.text)}}' and place its members inside, or place one "
          + "member ('{{\(name.text).member}}')")
    }
  }

  /// The line the next placed value starts on: its indentation and column (the enclosing partials'
  /// indentation included) and the width of the template text after the tag up to the newline.
  private func currentLine(_ output: [UInt8], in scope: Scope, before next: TemplateNode?)
    -> TemplateLine
  {
    var start = output.count
    while start > 0, output[start - 1] != UInt8(ascii: "\n") { start -= 1 }
    var leading = 0
    while start + leading < output.count,
      output[start + leading] == UInt8(ascii: " ") || output[start + leading] == UInt8(ascii: "\t")
    {
      leading += 1
    }
    var trailing = 0
    if case .text(let text)? = next {
      trailing = text.utf8.prefix { $0 != UInt8(ascii: "\n") }.count
    }
    return TemplateLine(
      indentation: scope.baseIndentation + leading,
      column: scope.baseIndentation + output.count - start, trailingWidth: trailing)
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
    if case .list(let elements) = value {
      for element in elements {
        state.stack.append(element)
        try render(children, in: scope, &state)
        state.stack.removeLast()
      }
      return
    }
    state.stack.append(value)
    try render(children, in: scope, &state)
    state.stack.removeLast()
  }

  private func renderPartial(
    _ partialName: String, indentation: String, at: TemplatePosition, in scope: Scope,
    _ state: inout RenderState
  ) throws {
    guard let partial = templates[partialName] else {
      throw TemplateError(
        templateName: scope.templateName, at: at, message: "unknown partial '\(partialName)'",
        hint: Self.unknownPartialHint(partialName, known: templates.keys))
    }
    // Unreachable for a set built by `init` (it rejects cycles and deep chains); kept so no
    // input can ever recurse without bound.
    guard scope.depth < Self.maximumPartialDepth else {
      throw TemplateError(
        templateName: scope.templateName, at: at,
        message: "partials nest more than \(Self.maximumPartialDepth) deep", hint: Self.depthHint)
    }
    var inner = Scope(
      templateName: partialName, depth: scope.depth + 1,
      baseIndentation: scope.baseIndentation + indentation.utf8.count)
    if indentation.isEmpty {
      inner.baseIndentation = scope.baseIndentation
      try render(partial.nodes, in: inner, &state)
      return
    }
    // The partial renders at the end of the output; then every line it wrote is indented in place.
    let start = state.output.count
    try render(partial.nodes, in: inner, &state)
    let rendered = Array(state.output[start...])
    state.output.removeSubrange(start...)
    Self.indent(rendered, by: Array(indentation.utf8), into: &state.output)
  }

  /// Prefixes every non-empty line of `text` with `indentation` (empty lines stay empty so no
  /// trailing whitespace appears).
  static func indent(_ text: String, by indentation: String) -> String {
    var output: [UInt8] = []
    indent(Array(text.utf8), by: Array(indentation.utf8), into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// ``indent(_:by:)`` over UTF-8 bytes, appending to `output`.
  static func indent(_ text: [UInt8], by indentation: [UInt8], into output: inout [UInt8]) {
    output.reserveCapacity(output.count + text.count + indentation.count * 8)
    // A line starts after a lone LF; after CR LF (one `Character`, as the template parser sees
    // text) it does not, as in the `Character`-wise original.
    var atLineStart = true
    var previous: UInt8 = 0
    for byte in text {
      if atLineStart && byte != UInt8(ascii: "\n") { output.append(contentsOf: indentation) }
      output.append(byte)
      atLineStart = byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r")
      previous = byte
    }
  }

  /// Resolves `name`: its first component in the innermost context that has it, then the rest
  /// inside that value (Mustache "dotted names").
  private func lookup(
    _ name: TemplateName, in stack: [TemplateValue], templateName: String, at: TemplatePosition
  ) throws
    -> TemplateValue
  {
    guard let first = name.components.first else { return stack.last ?? .null }
    var found: TemplateValue?
    for index in stack.indices.reversed() {
      if let value = Self.member(first, of: stack[index]) {
        found = value
        break
      }
    }
    guard var value = found else {
      throw TemplateError(
        templateName: templateName, at: at, message: "no value named '\(first)'",
        hint: Self.unknownNameHint(first, names: stack.flatMap(Self.memberNames)))
    }
    for component in name.components.dropFirst() {
      guard let member = Self.member(component, of: value) else {
        throw TemplateError(
          templateName: templateName, at: at, message: "no value named '\(name.text)'",
          hint: Self.unknownNameHint(component, names: Self.memberNames(of: value)))
      }
      value = member
    }
    return value
  }

  /// The hint for a name no value has: the closest of `names` (the names the tag could have
  /// meant), or all of them, sorted.
  private static func unknownNameHint(_ name: String, names: [String]) -> String {
    let names = Set(names).sorted()
    if names.isEmpty { return "no value has members here; remove the tag, or move it into a section" }
    if let suggestion = TemplateSpelling.closest(to: name, among: names) {
      return "did you mean '\(suggestion)'?"
    }
    return "the names here are: " + names.joined(separator: ", ")
  }

  /// The names of an object's or a record's members (other values have none).
  private static func memberNames(of value: TemplateValue) -> [String] {
    switch value {
    case .object(let members): Array(members.keys)
    case .record(let record): record.keys.names
    default: []
    }
  }

  /// The member `name` of an object or a record, or `nil` (other values have no members).
  private static func member(_ name: String, of value: TemplateValue) -> TemplateValue? {
    switch value {
    case .object(let members): members[name]
    case .record(let record): record[name]
    default: nil
    }
  }
}

/// Did-you-mean suggestions for names in templates.
enum TemplateSpelling {
  /// The candidate closest to `word` by the package's edit distance over Unicode scalars
  /// (`ModelVocabulary.editDistance`: insertions, deletions, substitutions, swaps of neighbours),
  /// when at most 2 edits and fewer edits than half of `word`'s characters away; ties go to the
  /// earlier candidate.
  static func closest(to word: String, among candidates: [String]) -> String? {
    let word = Array(word.unicodeScalars)
    guard word.count <= 64 else { return nil }
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let other = Array(candidate.unicodeScalars)
      guard other.count <= 64, abs(other.count - word.count) <= 2 else { continue }
      let distance = editDistance(word, other)
      if distance <= min(2, max(1, word.count / 2)), distance < (best?.distance ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }
}
