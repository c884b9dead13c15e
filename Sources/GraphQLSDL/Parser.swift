import ModelVocabulary

/// Thrown inside the parser after a syntax error has been reported; caught where the parser can
/// resynchronise (the next list item or the next definition).
struct ParseAbort: Error {}

/// The recursive-descent parser for type-system documents (GraphQL spec October 2021, §3), with
/// error recovery: every error is reported once as a diagnostic, then the parser skips to the next
/// field, value or definition and carries on.
struct Parser {
  private var lexer: Lexer
  private var token: Token
  /// The end of the last consumed token; node ranges end here.
  private var previousEnd: SourceLocation = .startOfFile
  private var diagnostics: [Diagnostic] = []
  private let options: ParseOptions
  private let fileName: String
  private var depth = 0
  private var stopped = false
  /// Reused storage for the fields of one type, so a field list grows once per parse, not per type.
  private var fieldScratch: [FieldDefinition] = []

  private init(base: UnsafePointer<UInt8>, count: Int, fileName: String, options: ParseOptions) {
    var lexer = Lexer(base: base, count: count, fileName: fileName, diagnosticLimit: options.maximumDiagnosticCount)
    self.token = lexer.next()
    self.lexer = lexer
    self.fileName = fileName
    self.options = options
  }

  /// Parses `source` into a document and its diagnostics, sorted by position.
  static func parse(_ source: SourceFile, options: ParseOptions) -> ParseResult {
    guard source.bytes.count < Int(UInt32.max) else {
      let diagnostic = SDLDiagnosticMessage.inputTooLarge(byteCount: source.bytes.count)
        .diagnostic(fileName: source.fileName, range: .zero)
      return ParseResult(document: Document(definitions: [], range: .zero), diagnostics: [diagnostic], source: source)
    }
    // An empty array may have no storage; parse one zero byte with a count of zero instead.
    let storage = source.bytes.isEmpty ? [0] : source.bytes
    return storage.withUnsafeBufferPointer { buffer in
      var parser = Parser(
        base: buffer.baseAddress!, count: source.bytes.count, fileName: source.fileName, options: options)
      let document = parser.parseDocument()
      let (all, tooManyErrors) = Self.merged(
        parser.lexer.diagnostics, parser.diagnostics, limit: options.maximumDiagnosticCount)
      let budget = DiagnosticBudget(
        limit: options.maximumDiagnosticCount, spent: all.count - (tooManyErrors ? 1 : 0),
        isExhausted: tooManyErrors)
      return ParseResult(document: document, diagnostics: all, source: source, budget: budget)
    }
  }

  /// The lexical and syntax diagnostics in one list: stably ordered by start offset (lexical
  /// before syntax at the same offset), at most `limit` of them (one lexer step can report several
  /// problems, such as a string full of invalid bytes), then the first ``SDLDiagnosticCode/tooManyErrors``
  /// if there is one. Both inputs are in source order almost always, so this is a merge, each
  /// diagnostic copied once; out-of-order input falls back to a stable sort.
  private static func merged(_ lexical: [Diagnostic], _ syntax: [Diagnostic], limit: Int)
    -> (diagnostics: [Diagnostic], tooManyErrors: Bool)
  {
    func isTooMany(_ diagnostic: Diagnostic) -> Bool { diagnostic.code == SDLDiagnosticCode.tooManyErrors }
    func isOrdered(_ list: [Diagnostic]) -> Bool {
      var last = -1
      for diagnostic in list where !isTooMany(diagnostic) {
        if diagnostic.range.start.offset < last { return false }
        last = diagnostic.range.start.offset
      }
      return true
    }
    // The first `tooManyErrors` of the concatenation (lexical, then syntax) goes last.
    var tooManyIndex: Int?
    if let index = lexical.firstIndex(where: isTooMany) {
      tooManyIndex = index
    } else if let index = syntax.firstIndex(where: isTooMany) {
      tooManyIndex = lexical.count + index
    }
    var out: [Diagnostic] = []
    out.reserveCapacity(min(lexical.count + syntax.count, limit + 1))
    let tooManyCount =
      lexical.reduce(0) { $0 + (isTooMany($1) ? 1 : 0) } + syntax.reduce(0) { $0 + (isTooMany($1) ? 1 : 0) }
    if tooManyCount <= 1 && isOrdered(lexical) && isOrdered(syntax) {
      // Only one kind of diagnostic (common: a file of syntax mistakes, or of junk bytes): that
      // list is already the result when it fits, and is returned without copying its elements.
      if lexical.isEmpty || syntax.isEmpty {
        let single = lexical.isEmpty ? syntax : lexical
        let admitted = single.count - (tooManyIndex == nil ? 0 : 1)
        if admitted <= limit, tooManyIndex == nil || tooManyIndex == single.count - 1 {
          return (single, tooManyIndex != nil)
        }
      }
      mergeOrdered(lexical, syntax, skipping: tooManyIndex, limit: limit, into: &out)
    } else {
      var all = lexical + syntax
      if let tooManyIndex { all.remove(at: tooManyIndex) }
      all = all.enumerated().sorted {
        ($0.element.range.start.offset, $0.offset) < ($1.element.range.start.offset, $1.offset)
      }.map(\.element)
      out = Array(all.prefix(limit))
    }
    guard let tooManyIndex else { return (out, false) }
    out.append(tooManyIndex < lexical.count ? lexical[tooManyIndex] : syntax[tooManyIndex - lexical.count])
    return (out, true)
  }

  /// Appends to `out`, up to `limit` diagnostics in all, the two lists (each in source order) merged
  /// in source order (lexical first on a tie), leaving out the one at `skipped`, an index into the
  /// concatenation lexical + syntax.
  private static func mergeOrdered(
    _ lexical: [Diagnostic], _ syntax: [Diagnostic], skipping skipped: Int?, limit: Int, into out: inout [Diagnostic]
  ) {
    var i = 0
    var j = 0
    while out.count < limit {
      if i < lexical.count, skipped == i {
        i += 1
        continue
      }
      if j < syntax.count, skipped == lexical.count + j {
        j += 1
        continue
      }
      if i < lexical.count, j < syntax.count {
        if syntax[j].range.start.offset < lexical[i].range.start.offset {
          out.append(syntax[j])
          j += 1
        } else {
          out.append(lexical[i])
          i += 1
        }
      } else if i < lexical.count {
        out.append(lexical[i])
        i += 1
      } else if j < syntax.count {
        out.append(syntax[j])
        j += 1
      } else {
        break
      }
    }
  }

  // MARK: Tokens

  private mutating func advance() {
    previousEnd = token.end
    if stopped { return }
    token = lexer.next()
    if lexer.diagnostics.count + diagnostics.count >= options.maximumDiagnosticCount {
      stopAfterTooManyErrors()
    }
  }

  private mutating func stopAfterTooManyErrors() {
    guard !stopped else { return }
    diagnostics.append(
      SDLDiagnosticMessage.tooManyErrors(limit: options.maximumDiagnosticCount)
        .diagnostic(fileName: fileName, range: token.range))
    stopped = true
    token = Token(kind: .endOfFile, start: token.start, end: token.start)
  }

  private func at(_ kind: TokenKind) -> Bool { token.kind == kind }

  private func atKeyword(_ keyword: StaticString) -> Bool {
    token.kind == .name && lexer.bytes(token.start.offset, token.end.offset, equal: keyword)
  }

  private func isKeyword(_ candidate: Token, _ keyword: StaticString) -> Bool {
    candidate.kind == .name && lexer.bytes(candidate.start.offset, candidate.end.offset, equal: keyword)
  }

  private func text(of candidate: Token) -> String {
    lexer.text(candidate.start.offset, candidate.end.offset)
  }

  /// How the current token is named in messages: "`foo`", "`{`", "end of file", "a string".
  private var found: String {
    switch token.kind {
    case .name, .int, .float: "`\(DiagnosticText.shortened(text(of: token)))`"
    default: token.kind.spelling
    }
  }

  /// `true` when the current token is the first on its line.
  private var startsLine: Bool { token.start.line > previousEnd.line || token.start.offset == 0 }

  private mutating func report(
    _ message: SDLDiagnosticMessage, at range: SourceRange, notes: [DiagnosticNote] = [], fixIt: FixIt? = nil
  ) {
    guard !stopped else { return }
    diagnostics.append(message.diagnostic(fileName: fileName, range: range, notes: notes, fixIt: fixIt))
    if lexer.diagnostics.count + diagnostics.count >= options.maximumDiagnosticCount {
      stopAfterTooManyErrors()
    }
  }

  /// Reports and throws unless the current token is `kind`; consumes it otherwise.
  @discardableResult
  private mutating func expect(_ kind: TokenKind, _ context: @autoclosure () -> String) throws(ParseAbort) -> Token {
    guard at(kind) else {
      report(
        .expectedToken(token: kind.spelling, context: context(), found: found), at: token.range,
        fixIt: FixIt(
          message: "insert \(kind.spelling)", range: SourceRange(at: previousEnd), replacement: kind.punctuatorText))
      throw ParseAbort()
    }
    let consumed = token
    advance()
    return consumed
  }

  /// Consumes a name, or reports ``SDLDiagnosticCode/expectedName`` and throws.
  private mutating func parseName(_ what: String) throws(ParseAbort) -> Name {
    guard at(.name) else {
      report(.expectedName(what: what, found: found), at: token.range)
      throw ParseAbort()
    }
    let name = Name(text(of: token), range: token.range)
    advance()
    return name
  }

  private mutating func parseDescription() -> StringValue? {
    guard at(.string) || at(.blockString) else { return nil }
    let value = StringValue(lexer.stringValue, isBlockString: at(.blockString), range: token.range)
    advance()
    return value
  }

  private func range(from start: SourceLocation) -> SourceRange {
    SourceRange(start: start, end: previousEnd)
  }

  // MARK: Document and recovery

  private mutating func parseDocument() -> Document {
    var definitions: [Definition] = []
    while !at(.endOfFile) {
      let before = token.start.offset
      do {
        if let definition = try parseDefinition() { definitions.append(definition) }
      } catch {
        if token.start.offset == before && !at(.endOfFile) { advance() }
        synchronizeToDefinition()
      }
    }
    if lexer.diagnostics.count + diagnostics.count >= options.maximumDiagnosticCount {
      stopAfterTooManyErrors()
    }
    return Document(definitions: exactlySized(definitions), range: SourceRange(start: .startOfFile, end: token.end))
  }

  private static let definitionKeywords: [String] = [
    "schema", "scalar", "type", "interface", "union", "enum", "input", "directive", "extend",
  ]

  /// `true` when the current token starts a top-level definition: a definition keyword followed by
  /// what that keyword needs (a name, or `{`/`@` after `schema`, `@` after `directive`), or a
  /// description followed by such a keyword. With `maximumColumn`, the token must also start its
  /// line at or left of that column (used to spot a missing `}`).
  private func isDefinitionStart(maximumColumn: Int? = nil) -> Bool {
    if let maximumColumn, !startsLine || token.start.column > maximumColumn { return false }
    switch token.kind {
    case .name:
      var copy = lexer
      return keywordStartsDefinition(token, lexer: &copy)
    case .string, .blockString:
      guard maximumColumn == nil || startsLine else { return false }
      var copy = lexer
      let keyword = copy.next()
      return keywordStartsDefinition(keyword, lexer: &copy)
    default:
      return false
    }
  }

  /// `true` when `keyword` is a definition keyword and the token `lexer` reads next fits it. The
  /// next token is only read for keywords, so skipping junk stays linear.
  private func keywordStartsDefinition(_ keyword: Token, lexer: inout Lexer) -> Bool {
    guard keyword.kind == .name else { return false }
    if isKeyword(keyword, "schema") {
      let next = lexer.next()
      return next.kind == .braceLeft || next.kind == .at
    }
    if isKeyword(keyword, "directive") { return lexer.next().kind == .at }
    for candidate: StaticString in [
      "type", "interface", "union", "enum", "input", "scalar", "extend", "query", "mutation", "subscription",
      "fragment",
    ] where isKeyword(keyword, candidate) {
      let next = lexer.next()
      return next.kind == .name || (next.kind == .braceLeft && !isKeyword(keyword, "extend"))
    }
    return false
  }

  /// Skips tokens until the next top-level definition (tracking brackets so nothing inside a
  /// `{ … }` is mistaken for one) or the end of the file.
  private mutating func synchronizeToDefinition() {
    var nesting = 0
    while !at(.endOfFile) {
      if nesting == 0 && isDefinitionStart() { return }
      switch token.kind {
      case .braceLeft, .parenLeft, .bracketLeft: nesting += 1
      case .braceRight, .parenRight, .bracketRight: nesting = max(0, nesting - 1)
      default: break
      }
      advance()
    }
  }

  /// Skips tokens until the next item of a `{ … }` list: a name or description that starts a line,
  /// or the closing `}`, outside any nested brackets.
  private mutating func synchronizeToItem() {
    var nesting = 0
    while !at(.endOfFile) {
      if nesting == 0 {
        if at(.braceRight) { return }
        if (at(.name) || at(.string) || at(.blockString)) && startsLine { return }
      }
      switch token.kind {
      case .braceLeft, .parenLeft, .bracketLeft: nesting += 1
      case .braceRight, .parenRight, .bracketRight: nesting = max(0, nesting - 1)
      default: break
      }
      advance()
    }
  }

  /// Parses `{ item+ }` with recovery per item. A missing `}` is reported (with a note at the
  /// `{`) when the file ends or a definition starts at or left of `outerColumn`; the items read so
  /// far are kept.
  private mutating func parseBracedList<Item>(
    of what: @autoclosure () -> String, outerColumn: Int, _ item: (inout Parser) throws(ParseAbort) -> Item?
  ) -> [Item] {
    var items: [Item] = []
    return parseBracedList(of: what(), outerColumn: outerColumn, into: &items, item)
  }

  /// ``parseBracedList(of:outerColumn:_:)`` collecting into `items` (emptied first, capacity kept)
  /// and returning an exactly sized copy.
  private mutating func parseBracedList<Item>(
    of what: @autoclosure () -> String, outerColumn: Int, into items: inout [Item],
    _ item: (inout Parser) throws(ParseAbort) -> Item?
  ) -> [Item] {
    let open = token
    advance()
    items.removeAll(keepingCapacity: true)
    if at(.braceRight) {
      report(.emptyBraces(what: what()), at: SourceRange(start: open.start, end: token.end))
      advance()
      return items
    }
    while true {
      if at(.braceRight) {
        advance()
        return exactlySized(items)
      }
      if at(.endOfFile) || isDefinitionStart(maximumColumn: outerColumn) {
        report(
          .unclosedBraces(what: what(), found: found), at: token.range,
          notes: [DiagnosticNote(message: "to match this `{`", range: open.range)],
          fixIt: FixIt(message: "insert `}`", range: SourceRange(at: previousEnd), replacement: "\n}"))
        return exactlySized(items)
      }
      let before = token.start.offset
      do {
        if let parsed = try item(&self) { items.append(parsed) }
      } catch {
        if token.start.offset == before { advance() }
        synchronizeToItem()
      }
    }
  }

  // MARK: Definitions (§3)

  private mutating func parseDefinition() throws(ParseAbort) -> Definition? {
    let start = token.start
    let description = parseDescription()
    guard at(.name) else {
      if let description {
        report(.danglingDescription(found: found), at: description.range)
      } else if at(.braceLeft) {
        report(.anonymousOperation, at: token.range)
      } else {
        report(.expectedDefinition(found: found, suggestion: nil), at: token.range)
      }
      throw ParseAbort()
    }
    let column = start.column
    if atKeyword("type") { return .objectType(try parseObjectType(description, start, column)) }
    if atKeyword("enum") { return .enumType(try parseEnumType(description, start, column)) }
    if atKeyword("input") { return .inputObjectType(try parseInputObjectType(description, start, column)) }
    if atKeyword("interface") { return .interfaceType(try parseInterfaceType(description, start, column)) }
    if atKeyword("union") { return .unionType(try parseUnionType(description, start)) }
    if atKeyword("scalar") { return .scalarType(try parseScalarType(description, start)) }
    if atKeyword("directive") { return .directive(try parseDirectiveDefinition(description, start)) }
    if atKeyword("schema") { return .schema(try parseSchemaDefinition(description, start, column)) }
    if atKeyword("extend") {
      if let description {
        report(
          .descriptionOnExtension, at: description.range,
          fixIt: FixIt(message: "remove the description", range: description.range, replacement: ""))
      }
      return try parseExtension(token.start, column)
    }
    for keyword: StaticString in ["query", "mutation", "subscription", "fragment"] where atKeyword(keyword) {
      report(.executableDefinition(keyword: "\(keyword)"), at: token.range)
      throw ParseAbort()
    }
    let word = text(of: token)
    let suggestion = closestMatch(to: word, in: Parser.definitionKeywords)
    report(
      .expectedDefinition(found: found, suggestion: suggestion), at: token.range,
      fixIt: suggestion.map { FixIt(message: "replace with `\($0)`", range: token.range, replacement: $0) })
    throw ParseAbort()
  }

  private mutating func parseSchemaDefinition(_ description: StringValue?, _ start: SourceLocation, _ column: Int)
    throws(ParseAbort) -> SchemaDefinition
  {
    advance()
    let directives = try parseDirectives()
    guard at(.braceLeft) else {
      try expect(.braceLeft, "to list the root operation types of `schema`")
      throw ParseAbort()
    }
    let operations = parseOperationTypes(outerColumn: column)
    return SchemaDefinition(
      description: description, directives: directives, operationTypes: operations, range: range(from: start))
  }

  private mutating func parseOperationTypes(outerColumn: Int) -> [RootOperationTypeDefinition] {
    parseBracedList(of: "root operation types", outerColumn: outerColumn) { parser throws(ParseAbort) in
      let start = parser.token.start
      let operationName = try parser.parseName("an operation type (`query`, `mutation` or `subscription`)")
      try parser.expect(.colon, "after operation type `\(DiagnosticText.shortened(operationName.value))`")
      let type = try parser.parseName("a root type name")
      guard let operation = OperationType(rawValue: operationName.value) else {
        parser.report(
          .unknownOperationType(
            name: operationName.value,
            suggestion: closestMatch(to: operationName.value, in: OperationType.allCases.map(\.rawValue))),
          at: operationName.range)
        return nil
      }
      return RootOperationTypeDefinition(operation: operation, type: type, range: parser.range(from: start))
    }
  }

  private mutating func parseScalarType(_ description: StringValue?, _ start: SourceLocation)
    throws(ParseAbort) -> ScalarTypeDefinition
  {
    advance()
    let name = try parseName("a scalar name after `scalar`")
    let directives = try parseDirectives()
    return ScalarTypeDefinition(description: description, name: name, directives: directives, range: range(from: start))
  }

  private mutating func parseObjectType(_ description: StringValue?, _ start: SourceLocation, _ column: Int)
    throws(ParseAbort) -> ObjectTypeDefinition
  {
    advance()
    let name = try parseName("a type name after `type`")
    let interfaces = try parseImplementsInterfaces()
    let directives = try parseDirectives()
    let fields = at(.braceLeft) ? parseFieldDefinitions(of: name, outerColumn: column) : []
    return ObjectTypeDefinition(
      description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
      range: range(from: start))
  }

  private mutating func parseInterfaceType(_ description: StringValue?, _ start: SourceLocation, _ column: Int)
    throws(ParseAbort) -> InterfaceTypeDefinition
  {
    advance()
    let name = try parseName("an interface name after `interface`")
    let interfaces = try parseImplementsInterfaces()
    let directives = try parseDirectives()
    let fields = at(.braceLeft) ? parseFieldDefinitions(of: name, outerColumn: column) : []
    return InterfaceTypeDefinition(
      description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
      range: range(from: start))
  }

  /// `implements &? A & B` (§3.6 *ImplementsInterfaces*); empty when `implements` is absent.
  private mutating func parseImplementsInterfaces() throws(ParseAbort) -> [Name] {
    guard atKeyword("implements") else { return [] }
    advance()
    if at(.ampersand) { advance() }
    var interfaces = [try parseName("an interface name after `implements`")]
    while true {
      if at(.ampersand) {
        advance()
        interfaces.append(try parseName("an interface name after `&`"))
      } else if at(.name) && !startsLine && !atKeyword("implements") && !isDefinitionStart() {
        // A name without `&` is taken for a missing `&`, unless it starts the next definition
        // (`type A implements B type C { … }` on one line is valid: `A` has no fields).
        report(
          .expectedAmpersand(previous: interfaces.last!.value, found: found),
          at: token.range,
          fixIt: FixIt(message: "insert `&`", range: SourceRange(at: previousEnd), replacement: " &"))
        interfaces.append(try parseName("an interface name"))
      } else {
        return interfaces
      }
    }
  }

  private mutating func parseFieldDefinitions(of owner: Name, outerColumn: Int) -> [FieldDefinition] {
    var scratch = fieldScratch
    fieldScratch = []
    defer { fieldScratch = scratch }
    return parseBracedList(
      of: "fields of `\(DiagnosticText.shortened(owner.value))`", outerColumn: outerColumn, into: &scratch
    ) {
      parser throws(ParseAbort) in
      try parser.parseFieldDefinition()
    }
  }

  /// `"desc"? name (args)? : Type @directives` (§3.6 *FieldDefinition*).
  private mutating func parseFieldDefinition() throws(ParseAbort) -> FieldDefinition {
    let start = token.start
    let description = parseDescription()
    let name = try parseName("a field name")
    let arguments =
      at(.parenLeft) ? try parseArgumentDefinitions(of: "field `\(DiagnosticText.shortened(name.value))`") : []
    try expectColonBeforeType(after: "field name `\(DiagnosticText.shortened(name.value))`")
    let type = try parseType()
    if at(.equals) {
      report(.defaultValueOnField(field: name.value), at: token.range)
      advance()
      _ = try parseConstValue()
    }
    let directives = try parseDirectives()
    return FieldDefinition(
      description: description, name: name, arguments: arguments, type: type, directives: directives,
      range: range(from: start))
  }

  /// Consumes `:`; when it is missing but a type follows, reports it with a fix-it and goes on.
  private mutating func expectColonBeforeType(after what: @autoclosure () -> String) throws(ParseAbort) {
    if at(.colon) {
      advance()
    } else if (at(.name) || at(.bracketLeft)) && !startsLine {
      report(
        .expectedToken(token: TokenKind.colon.spelling, context: "after \(what())", found: found), at: token.range,
        fixIt: FixIt(message: "insert `:`", range: SourceRange(at: previousEnd), replacement: ":"))
    } else {
      try expect(.colon, "after \(what())")
    }
  }

  /// `( InputValueDefinition+ )` (§3.6 *ArgumentsDefinition*).
  private mutating func parseArgumentDefinitions(of owner: @autoclosure () -> String) throws(ParseAbort)
    -> [InputValueDefinition]
  {
    let open = token
    advance()
    if at(.parenRight) {
      report(.emptyArguments(owner: owner()), at: SourceRange(start: open.start, end: token.end))
      advance()
      return []
    }
    var arguments: [InputValueDefinition] = []
    while !at(.parenRight) {
      guard at(.name) || at(.string) || at(.blockString) else {
        report(
          .unclosedArguments(owner: owner(), found: found), at: token.range,
          notes: [DiagnosticNote(message: "to match this `(`", range: open.range)])
        throw ParseAbort()
      }
      arguments.append(try parseInputValueDefinition())
    }
    advance()
    return exactlySized(arguments)
  }

  /// `"desc"? name : Type (= value)? @directives` (§3.6 *InputValueDefinition*).
  private mutating func parseInputValueDefinition() throws(ParseAbort) -> InputValueDefinition {
    let start = token.start
    let description = parseDescription()
    let name = try parseName("an argument or input field name")
    try expectColonBeforeType(after: "`\(DiagnosticText.shortened(name.value))`")
    let type = try parseType()
    var defaultValue: ConstValue?
    if at(.equals) {
      advance()
      defaultValue = try parseConstValue()
    }
    let directives = try parseDirectives()
    return InputValueDefinition(
      description: description, name: name, type: type, defaultValue: defaultValue, directives: directives,
      range: range(from: start))
  }

  private mutating func parseUnionType(_ description: StringValue?, _ start: SourceLocation)
    throws(ParseAbort) -> UnionTypeDefinition
  {
    advance()
    let name = try parseName("a union name after `union`")
    let directives = try parseDirectives()
    let members = try parseUnionMembers(of: name)
    return UnionTypeDefinition(
      description: description, name: name, directives: directives, memberTypes: members, range: range(from: start))
  }

  /// `= |? A | B` (§3.8 *UnionMemberTypes*); empty when `=` is absent.
  private mutating func parseUnionMembers(of union: Name) throws(ParseAbort) -> [Name] {
    guard at(.equals) else { return [] }
    advance()
    if at(.pipe) { advance() }
    guard at(.name) else {
      report(.expectedUnionMember(union: union.value, found: found), at: token.range)
      throw ParseAbort()
    }
    var members = [try parseName("a member type")]
    while true {
      if at(.pipe) {
        advance()
        members.append(try parseName("a member type after `|`"))
      } else if at(.name) && !startsLine && !isDefinitionStart() {
        // A name without `|` is taken for a missing `|`, unless it starts the next definition
        // (`union U = A | B type Query { … }` on one line is valid GraphQL, §3.8).
        report(
          .expectedPipe(previous: members.last!.value, found: found), at: token.range,
          fixIt: FixIt(message: "insert `|`", range: SourceRange(at: previousEnd), replacement: " |"))
        members.append(try parseName("a member type"))
      } else {
        return members
      }
    }
  }

  private mutating func parseEnumType(_ description: StringValue?, _ start: SourceLocation, _ column: Int)
    throws(ParseAbort) -> EnumTypeDefinition
  {
    advance()
    let name = try parseName("an enum name after `enum`")
    let directives = try parseDirectives()
    let values = at(.braceLeft) ? parseEnumValues(of: name, outerColumn: column) : []
    return EnumTypeDefinition(
      description: description, name: name, directives: directives, values: values, range: range(from: start))
  }

  private mutating func parseEnumValues(of owner: Name, outerColumn: Int) -> [EnumValueDefinition] {
    parseBracedList(of: "values of enum `\(DiagnosticText.shortened(owner.value))`", outerColumn: outerColumn) {
      parser throws(ParseAbort) in
      let start = parser.token.start
      let description = parser.parseDescription()
      let name = try parser.parseName("an enum value")
      let directives = try parser.parseDirectives()
      if ["true", "false", "null"].contains(name.value) {
        parser.report(.reservedEnumValueName(name: name.value), at: name.range)
        return nil
      }
      return EnumValueDefinition(
        description: description, name: name, directives: directives, range: parser.range(from: start))
    }
  }

  private mutating func parseInputObjectType(_ description: StringValue?, _ start: SourceLocation, _ column: Int)
    throws(ParseAbort) -> InputObjectTypeDefinition
  {
    advance()
    let name = try parseName("an input type name after `input`")
    let directives = try parseDirectives()
    let fields = at(.braceLeft) ? parseInputFields(of: name, outerColumn: column) : []
    return InputObjectTypeDefinition(
      description: description, name: name, directives: directives, fields: fields, range: range(from: start))
  }

  private mutating func parseInputFields(of owner: Name, outerColumn: Int) -> [InputValueDefinition] {
    parseBracedList(of: "fields of input `\(DiagnosticText.shortened(owner.value))`", outerColumn: outerColumn) {
      parser throws(ParseAbort) in
      try parser.parseInputValueDefinition()
    }
  }

  /// `directive @name (args)? repeatable? on |? A | B` (§3.13).
  private mutating func parseDirectiveDefinition(_ description: StringValue?, _ start: SourceLocation)
    throws(ParseAbort) -> DirectiveDefinition
  {
    advance()
    try expect(.at, "before the directive name")
    let name = try parseName("a directive name after `@`")
    let arguments =
      at(.parenLeft) ? try parseArgumentDefinitions(of: "directive `@\(DiagnosticText.shortened(name.value))`") : []
    var isRepeatable = false
    if atKeyword("repeatable") {
      isRepeatable = true
      advance()
    }
    guard atKeyword("on") else {
      report(
        .expectedOn(directive: name.value, found: found), at: token.range,
        fixIt: FixIt(message: "insert `on`", range: SourceRange(at: previousEnd), replacement: " on"))
      throw ParseAbort()
    }
    advance()
    if at(.pipe) { advance() }
    var locations: [DirectiveLocationName] = []
    repeat {
      let locationName = try parseName("a directive location such as `FIELD_DEFINITION`")
      if let location = DirectiveLocation(rawValue: locationName.value) {
        locations.append(DirectiveLocationName(location, range: locationName.range))
      } else {
        let suggestion = closestMatch(
          to: locationName.value, in: DirectiveLocation.allCases.map(\.rawValue), caseInsensitive: true)
        report(
          .unknownDirectiveLocation(name: locationName.value, suggestion: suggestion), at: locationName.range,
          fixIt: suggestion.map { FixIt(message: "replace with `\($0)`", range: locationName.range, replacement: $0) })
      }
      guard at(.pipe) else { break }
      advance()
    } while true
    return DirectiveDefinition(
      description: description, name: name, arguments: arguments, isRepeatable: isRepeatable, locations: locations,
      range: range(from: start))
  }

  // MARK: Extensions (§3.1.1)

  private mutating func parseExtension(_ start: SourceLocation, _ column: Int) throws(ParseAbort) -> Definition? {
    advance()
    let keywordToken = token
    if atKeyword("type") || atKeyword("interface") { return try parseObjectOrInterfaceExtension(start, column) }
    if atKeyword("scalar") { return try parseScalarExtension(start) }
    if atKeyword("union") { return try parseUnionExtension(start) }
    if atKeyword("enum") { return try parseEnumExtension(start, column) }
    if atKeyword("input") { return try parseInputObjectExtension(start, column) }
    if atKeyword("schema") { return try parseSchemaExtension(start, column) }
    report(.invalidExtension(found: found), at: keywordToken.range)
    throw ParseAbort()
  }

  /// An extension that adds nothing (the grammar needs at least one of `needs`), from `start` to
  /// the last token.
  private mutating func reportEmptyExtension(from start: SourceLocation, _ kind: String, needs: String) {
    report(.emptyExtension(kind: kind, needs: needs), at: SourceRange(start: start, end: previousEnd))
  }

  /// `extend type` / `extend interface`: interfaces, directives or fields.
  private mutating func parseObjectOrInterfaceExtension(_ start: SourceLocation, _ column: Int) throws(ParseAbort)
    -> Definition?
  {
    let isInterface = atKeyword("interface")
    advance()
    let name = try parseName("a type name to extend")
    let interfaces = try parseImplementsInterfaces()
    let directives = try parseDirectives()
    let fields = at(.braceLeft) ? parseFieldDefinitions(of: name, outerColumn: column) : []
    let kind = isInterface ? "interface" : "type"
    guard !(interfaces.isEmpty && directives.isEmpty && fields.isEmpty) else {
      reportEmptyExtension(from: start, kind, needs: "interfaces, directives or fields")
      return nil
    }
    return isInterface
      ? .interfaceTypeExtension(
        InterfaceTypeExtension(
          name: name, interfaces: interfaces, directives: directives, fields: fields, range: range(from: start)))
      : .objectTypeExtension(
        ObjectTypeExtension(
          name: name, interfaces: interfaces, directives: directives, fields: fields, range: range(from: start)))
  }

  /// `extend scalar`: directives.
  private mutating func parseScalarExtension(_ start: SourceLocation) throws(ParseAbort) -> Definition? {
    advance()
    let name = try parseName("a scalar name to extend")
    let directives = try parseDirectives()
    guard !directives.isEmpty else {
      reportEmptyExtension(from: start, "scalar", needs: "directives")
      return nil
    }
    return .scalarTypeExtension(ScalarTypeExtension(name: name, directives: directives, range: range(from: start)))
  }

  /// `extend union`: directives or member types.
  private mutating func parseUnionExtension(_ start: SourceLocation) throws(ParseAbort) -> Definition? {
    advance()
    let name = try parseName("a union name to extend")
    let directives = try parseDirectives()
    let members = try parseUnionMembers(of: name)
    guard !(directives.isEmpty && members.isEmpty) else {
      reportEmptyExtension(from: start, "union", needs: "directives or member types")
      return nil
    }
    return .unionTypeExtension(
      UnionTypeExtension(name: name, directives: directives, memberTypes: members, range: range(from: start)))
  }

  /// `extend enum`: directives or values.
  private mutating func parseEnumExtension(_ start: SourceLocation, _ column: Int) throws(ParseAbort) -> Definition? {
    advance()
    let name = try parseName("an enum name to extend")
    let directives = try parseDirectives()
    let values = at(.braceLeft) ? parseEnumValues(of: name, outerColumn: column) : []
    guard !(directives.isEmpty && values.isEmpty) else {
      reportEmptyExtension(from: start, "enum", needs: "directives or values")
      return nil
    }
    return .enumTypeExtension(
      EnumTypeExtension(name: name, directives: directives, values: values, range: range(from: start)))
  }

  /// `extend input`: directives or fields.
  private mutating func parseInputObjectExtension(_ start: SourceLocation, _ column: Int) throws(ParseAbort)
    -> Definition?
  {
    advance()
    let name = try parseName("an input type name to extend")
    let directives = try parseDirectives()
    let fields = at(.braceLeft) ? parseInputFields(of: name, outerColumn: column) : []
    guard !(directives.isEmpty && fields.isEmpty) else {
      reportEmptyExtension(from: start, "input", needs: "directives or fields")
      return nil
    }
    return .inputObjectTypeExtension(
      InputObjectTypeExtension(name: name, directives: directives, fields: fields, range: range(from: start)))
  }

  /// `extend schema`: directives or root operation types.
  private mutating func parseSchemaExtension(_ start: SourceLocation, _ column: Int) throws(ParseAbort) -> Definition? {
    advance()
    let directives = try parseDirectives()
    let operations = at(.braceLeft) ? parseOperationTypes(outerColumn: column) : []
    guard !(directives.isEmpty && operations.isEmpty) else {
      reportEmptyExtension(from: start, "schema", needs: "directives or root operation types")
      return nil
    }
    return .schemaExtension(
      SchemaExtension(directives: directives, operationTypes: operations, range: range(from: start)))
  }

  // MARK: Directives, types and values

  /// `@name(args)` repeated (§2.12 *Directives[Const]*).
  private mutating func parseDirectives() throws(ParseAbort) -> [Directive] {
    var directives: [Directive] = []
    while at(.at) {
      let start = token.start
      advance()
      let name = try parseName("a directive name after `@`")
      var arguments: [Argument] = []
      if at(.parenLeft) {
        arguments = try parseArguments(of: "directive `@\(DiagnosticText.shortened(name.value))`")
      }
      directives.append(Directive(name: name, arguments: arguments, range: range(from: start)))
    }
    return exactlySized(directives)
  }

  /// `( name: value+ )` (§2.6 *Arguments[Const]*).
  private mutating func parseArguments(of owner: @autoclosure () -> String) throws(ParseAbort) -> [Argument] {
    let open = token
    advance()
    if at(.parenRight) {
      report(.emptyArguments(owner: owner()), at: SourceRange(start: open.start, end: token.end))
      advance()
      return []
    }
    var arguments: [Argument] = []
    while !at(.parenRight) {
      guard at(.name) else {
        if at(.endOfFile) || at(.braceLeft) || at(.braceRight) || at(.at) {
          report(
            .unclosedArguments(owner: owner(), found: found), at: token.range,
            notes: [DiagnosticNote(message: "to match this `(`", range: open.range)])
        } else {
          report(.expectedName(what: "an argument name of \(owner())", found: found), at: token.range)
        }
        throw ParseAbort()
      }
      let (name, value, range) = try parseNamedConstValue("argument")
      arguments.append(Argument(name: name, value: value, range: range))
    }
    advance()
    return exactlySized(arguments)
  }

  private mutating func enterNesting(_ what: String) throws(ParseAbort) {
    depth += 1
    guard depth <= options.maximumNestingDepth else {
      depth -= 1
      report(.nestingTooDeep(what: what, limit: options.maximumNestingDepth), at: token.range)
      throw ParseAbort()
    }
  }

  /// `Name`, `[Type]`, and either followed by `!` (§3.4.1 *Type*).
  private mutating func parseType() throws(ParseAbort) -> TypeReference {
    var type: TypeReference
    if at(.name) {
      type = .named(Name(text(of: token), range: token.range))
      advance()
    } else if at(.bracketLeft) {
      let open = token
      try enterNesting("list types")
      defer { depth -= 1 }
      advance()
      let element = try parseType()
      guard at(.bracketRight) else {
        report(
          .unclosedListType(found: found), at: token.range,
          notes: [DiagnosticNote(message: "to match this `[`", range: open.range)],
          fixIt: FixIt(message: "insert `]`", range: SourceRange(at: previousEnd), replacement: "]"))
        throw ParseAbort()
      }
      advance()
      type = .list(element, range: range(from: open.start))
    } else {
      report(.expectedType(found: found), at: token.range)
      throw ParseAbort()
    }
    if at(.bang) {
      advance()
      type = .nonNull(type, range: range(from: type.range.start))
      if at(.bang) {
        let extra = token.start
        while at(.bang) { advance() }
        report(
          .doubleNonNull(type: type.description), at: range(from: extra),
          fixIt: FixIt(message: "remove the extra `!`", range: range(from: extra), replacement: ""))
      }
    }
    return type
  }

  /// A value without variables (§2.9 *Value[Const]*).
  private mutating func parseConstValue() throws(ParseAbort) -> ConstValue {
    let current = token
    switch current.kind {
    case .int:
      advance()
      return .int(text(of: current), range: current.range)
    case .float:
      advance()
      return .float(text(of: current), range: current.range)
    case .string, .blockString:
      let value = lexer.stringValue
      advance()
      return .string(StringValue(value, isBlockString: current.kind == .blockString, range: current.range))
    case .name:
      advance()
      if isKeyword(current, "true") { return .boolean(true, range: current.range) }
      if isKeyword(current, "false") { return .boolean(false, range: current.range) }
      if isKeyword(current, "null") { return .null(range: current.range) }
      return .enumValue(Name(text(of: current), range: current.range))
    case .bracketLeft: return try parseConstList(current)
    case .braceLeft: return try parseConstObject(current)
    case .dollar:
      advance()
      var variable = "$"
      if at(.name) && token.start.offset == current.end.offset {
        variable += text(of: token)
        advance()
      }
      report(.variableInConstValue(variable: variable), at: range(from: current.start))
      throw ParseAbort()
    default:
      report(.expectedValue(found: found), at: current.range)
      throw ParseAbort()
    }
  }

  /// `[value …]` from its `[` (`current`, the token the list starts at).
  private mutating func parseConstList(_ current: Token) throws(ParseAbort) -> ConstValue {
    try enterNesting("values")
    defer { depth -= 1 }
    advance()
    var values: [ConstValue] = []
    while !at(.bracketRight) {
      if at(.endOfFile) {
        report(
          .unclosedListValue(found: found), at: token.range,
          notes: [DiagnosticNote(message: "to match this `[`", range: current.range)])
        throw ParseAbort()
      }
      values.append(try parseConstValue())
    }
    advance()
    return .list(exactlySized(values), range: range(from: current.start))
  }

  /// `name: value` from the name (an argument's or an object field's, `what`): both and their range.
  private mutating func parseNamedConstValue(
    _ what: String
  ) throws(ParseAbort) -> (name: Name, value: ConstValue, range: SourceRange) {
    let start = token.start
    let name = Name(text(of: token), range: token.range)
    advance()
    try expect(.colon, "after \(what) `\(DiagnosticText.shortened(name.value))`")
    let value = try parseConstValue()
    return (name, value, range(from: start))
  }

  /// `{name: value …}` from its `{` (`current`).
  private mutating func parseConstObject(_ current: Token) throws(ParseAbort) -> ConstValue {
    try enterNesting("values")
    defer { depth -= 1 }
    advance()
    var fields: [ConstObjectField] = []
    while !at(.braceRight) {
      guard at(.name) else {
        if at(.endOfFile) {
          report(
            .unclosedObjectValue(found: found), at: token.range,
            notes: [DiagnosticNote(message: "to match this `{`", range: current.range)])
        } else {
          report(.expectedName(what: "an object field name", found: found), at: token.range)
        }
        throw ParseAbort()
      }
      let (name, value, range) = try parseNamedConstValue("object field")
      fields.append(ConstObjectField(name: name, value: value, range: range))
    }
    advance()
    return .object(exactlySized(fields), range: range(from: current.start))
  }
}

/// `items` in storage of exactly its size, so arrays kept in the AST carry no growth slack (the
/// AST of a large schema is dominated by small arrays).
@inline(__always)
func exactlySized<Element>(_ items: [Element]) -> [Element] {
  guard items.capacity > items.count else { return items }
  return [Element](unsafeUninitializedCapacity: items.count) { buffer, initialized in
    items.withUnsafeBufferPointer { source in
      _ = buffer.initialize(fromContentsOf: source)
    }
    initialized = items.count
  }
}

extension TokenKind {
  /// The source text of a punctuator, used by fix-its; `""` for other kinds.
  var punctuatorText: String {
    switch self {
    case .bang: "!"
    case .dollar: "$"
    case .ampersand: "&"
    case .parenLeft: "("
    case .parenRight: ")"
    case .spread: "..."
    case .colon: ":"
    case .equals: "="
    case .at: "@"
    case .bracketLeft: "["
    case .bracketRight: "]"
    case .braceLeft: "{"
    case .pipe: "|"
    case .braceRight: "}"
    default: ""
    }
  }
}

/// The candidate closest to `word` by edit distance, when it is close enough to be a typo
/// (distance at most 2, and less than half the word's length).
func closestMatch(to word: String, in candidates: [String], caseInsensitive: Bool = false) -> String? {
  guard word.utf8.count <= maximumTypoLength else { return nil }
  let key = Array((caseInsensitive ? word.uppercased() : word).utf8)
  var best: (String, Int)?
  for candidate in candidates where candidate.utf8.count <= maximumTypoLength {
    // The edit distance is at least the difference in length, and a hint needs at most 2.
    if !caseInsensitive && abs(candidate.utf8.count - key.count) > 2 { continue }
    let other = Array((caseInsensitive ? candidate.uppercased() : candidate).utf8)
    if abs(other.count - key.count) > 2 { continue }
    let distance = editDistance(key, other)
    if distance <= 2, distance * 2 < max(key.count, 2) || (caseInsensitive && distance == 0),
      distance < (best?.1 ?? .max)
    {
      best = (candidate, distance)
    }
  }
  return best?.0
}
