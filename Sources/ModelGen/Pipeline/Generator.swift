import GraphQLSDL

/// One file the generator produces, in memory.
public struct GeneratedFile: Sendable, Hashable {
  /// The path relative to the schema's output directory (`Comment4V2+Schema.swift`).
  public var path: String
  /// The full text: LF line endings, exactly one trailing newline.
  public var contents: String

  /// Creates a file.
  public init(path: String, contents: String) {
    self.path = path
    self.contents = contents
  }
}

/// What the generator can write (`--emit`).
public enum EmitKind: String, Sendable, Hashable, CaseIterable {
  /// The Swift model files.
  case swift
  /// `schema.api.graphql`: the AppSync API schema the transformer would derive.
  case apiSchema = "api-schema"
}

/// Options of one generator run.
public struct GeneratorOptions: Sendable {
  /// The access level of generated declarations.
  public var access: AccessLevel
  /// What to emit.
  public var emit: Set<EmitKind>
  /// The templates to render.
  public var templates: TemplateSet
  /// `--conflict-resolution`: the versioned data source's strategy, or `nil` for no conflict
  /// detection (today's output, byte for byte). Copied into ``ModelGraph/conflictResolution``.
  public var conflictResolution: ConflictResolution?

  /// Creates options.
  public init(
    access: AccessLevel = .public, emit: Set<EmitKind> = [.swift], templates: TemplateSet,
    conflictResolution: ConflictResolution? = nil
  ) {
    self.access = access
    self.emit = emit
    self.templates = templates
    self.conflictResolution = conflictResolution
  }
}

/// The outcome of generating one schema: the files (empty when the schema has errors) and every
/// diagnostic of parsing and analysis.
public struct GenerationResult: Sendable {
  /// The rendered files, sorted by path; empty when ``hasErrors``.
  public var files: [GeneratedFile]
  /// Every diagnostic, in source order.
  public var diagnostics: [Diagnostic]

  /// Creates a result.
  public init(files: [GeneratedFile], diagnostics: [Diagnostic]) {
    self.files = files
    self.diagnostics = diagnostics
  }

  /// `true` when a diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// Every diagnostic as text: the `path:line:col: error: message [CODE]` line, then the source
  /// line with a caret, the hint and the notes (``DiagnosticPrinter/render(_:source:)-swift.type.method``).
  ///
  /// - Parameters:
  ///   - source: The schema text the diagnostics refer to.
  ///   - fileName: The file name the diagnostics carry.
  public func renderedDiagnostics(source: String, fileName: String) -> String {
    DiagnosticPrinter.render(diagnostics, source: SourceFile(fileName: fileName, text: source))
  }

  /// Every diagnostic as text, as ``renderedDiagnostics(source:fileName:)``, for a schema read as
  /// raw bytes (which may hold invalid UTF-8).
  ///
  /// - Parameters:
  ///   - bytes: The schema file's contents the diagnostics refer to.
  ///   - fileName: The file name the diagnostics carry.
  public func renderedDiagnostics(bytes: [UInt8], fileName: String) -> String {
    DiagnosticPrinter.render(diagnostics, source: SourceFile(fileName: fileName, bytes: bytes))
  }
}

/// A fault of the generator itself (not of the schema): a user template that fails to render.
public enum GeneratorError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A template failed while rendering the named output file.
  case template(TemplateError, file: String)

  /// `model.mustache:12: error: message (while rendering Post.swift)`.
  public var description: String {
    switch self {
    case .template(let error, let file): return "\(error) (while rendering \(file))"
    }
  }
}

/// The generator: schema text → rendered files in memory, plus diagnostics.
///
/// The stages, one module each (README, "Generator architecture"): `SDLParser` (`GraphQLSDL`:
/// text → document), semantic analysis (`ModelGenIR`: document → ``ModelGraph``, names resolved
/// once by its naming stage), ``ViewModelBuilder`` (`ModelGenSwift`: graph → view models),
/// ``TemplateSet`` (`ModelGenTemplating`: view models → text, laying code out where templates put
/// it), `APISchemaEmitter` (`ModelGenAPISchema`: graph → API schema). No disk I/O: callers read
/// schemas and write files.
/// A value type; safe to use from several threads at once.
public struct Generator: Sendable {
  /// The options every run uses.
  public let options: GeneratorOptions

  /// Creates a generator.
  public init(options: GeneratorOptions) {
    self.options = options
  }

  /// Parses, analyses and renders one schema.
  ///
  /// - Parameters:
  ///   - source: The schema text.
  ///   - fileName: The schema's file name as it appears in diagnostics and file headers
  ///     (`seed-post-comment.graphql`); pass the path the user typed for diagnostics.
  ///   - headerName: The name written into file headers; defaults to `fileName`'s last component.
  /// - Returns: Files sorted by path, or no files and the diagnostics when the schema has errors.
  /// - Throws: ``GeneratorError`` when a (user) template fails to render.
  public func generate(source: String, fileName: String, headerName: String? = nil) throws
    -> GenerationResult
  {
    try generate(bytes: Array(source.utf8), fileName: fileName, headerName: headerName)
  }

  /// Parses, analyses and renders one schema given as the raw bytes of its file, so a file that is
  /// not valid UTF-8 is reported by the lexer (`SDL002`, naming the byte and its position) instead
  /// of being decoded lossily.
  ///
  /// - Parameters:
  ///   - bytes: The schema file's contents.
  ///   - fileName: The name diagnostics carry (the path the user typed).
  ///   - headerName: The name written into file headers; defaults to `fileName`'s last component.
  /// - Returns: Files sorted by path, or no files and the diagnostics when the schema has errors.
  /// - Throws: ``GeneratorError`` when a (user) template fails to render.
  public func generate(bytes: [UInt8], fileName: String, headerName: String? = nil) throws
    -> GenerationResult
  {
    let (graph, diagnostics) = Self.analyze(bytes: bytes, fileName: fileName)
    guard var graph else { return GenerationResult(files: [], diagnostics: diagnostics) }
    graph.sourceFileName =
      headerName ?? String(fileName.split(separator: "/").last ?? Substring(fileName))
    graph.conflictResolution = options.conflictResolution
    return GenerationResult(files: try render(graph), diagnostics: diagnostics)
  }

  /// Parses and analyses one schema without rendering (`modelgen validate`).
  ///
  /// - Returns: The validated graph (`nil` when there is an error) and every diagnostic.
  public static func analyze(source: String, fileName: String) -> (
    graph: ModelGraph?, diagnostics: [Diagnostic]
  ) {
    analyze(bytes: Array(source.utf8), fileName: fileName)
  }

  /// Parses and analyses the raw bytes of a schema file without rendering (`modelgen validate`):
  /// parse errors (invalid UTF-8 included, `SDL002`) stop the analysis; otherwise the parser's
  /// warnings and the semantic diagnostics are returned together, in source order.
  ///
  /// - Returns: The validated graph (`nil` when there is an error) and every diagnostic.
  public static func analyze(bytes: [UInt8], fileName: String) -> (
    graph: ModelGraph?, diagnostics: [Diagnostic]
  ) {
    let parsed = SDLParser.parse(bytes: bytes, fileName: fileName)
    if parsed.hasErrors { return (nil, parsed.diagnostics) }
    // One diagnostics budget per schema: the analysis gets what parsing left.
    let analysis = SemanticAnalyzer.analyze(parsed.document, fileName: fileName, budget: parsed.budget)
    let diagnostics = DiagnosticBudget.inPrintingOrder(parsed.diagnostics + analysis.diagnostics)
    return (analysis.hasErrors ? nil : analysis.graph, diagnostics)
  }

  /// Renders a validated graph.
  ///
  /// - Returns: Per model `Name.swift` and `Name+Schema.swift`, per enum and non-model type
  ///   `Name.swift`, `Models.swift` (the registry) when there are models, and `schema.api.graphql`
  ///   when ``EmitKind/apiSchema`` is requested; sorted by path.
  /// - Throws: ``GeneratorError`` when a template fails to render.
  public func render(_ graph: ModelGraph) throws -> [GeneratedFile] {
    var files: [GeneratedFile] = []
    if options.emit.contains(.swift) {
      let views = ViewModelBuilder(graph: graph, access: options.access).build()
      for model in views.models {
        let value = model.templateValue
        files.append(try file("\(model.fileStem).swift", template: "model", value))
        files.append(try file("\(model.fileStem)+Schema.swift", template: "schema", value))
      }
      for enumeration in views.enums {
        files.append(
          try file("\(enumeration.fileStem).swift", template: "enum", enumeration.templateValue))
      }
      for embedded in views.embedded {
        files.append(
          try file("\(embedded.fileStem).swift", template: "embedded", embedded.templateValue))
      }
      if let registry = views.registry {
        files.append(
          try file("\(registry.typeName).swift", template: "registry", registry.templateValue))
      }
    }
    if options.emit.contains(.apiSchema) {
      let text = APISchemaEmitter.render(graph, sourceFileName: graph.sourceFileName)
      files.append(GeneratedFile(path: Self.apiSchemaFileName, contents: Self.normalized(text)))
    }
    return files.sorted { $0.path < $1.path }
  }

  /// The file name `--emit api-schema` writes in a schema's output directory.
  public static let apiSchemaFileName = "schema.api.graphql"

  private func file(_ path: String, template: String, _ value: TemplateValue) throws
    -> GeneratedFile
  {
    do {
      return GeneratedFile(
        path: path, contents: Self.normalized(try options.templates.render(template, value)))
    } catch let error as TemplateError {
      throw GeneratorError.template(error, file: path)
    }
  }

  /// LF line endings, no trailing whitespace on any line, no run of more than one blank line, no
  /// blank lines at the end, and exactly one trailing newline (empty text stays empty). Works on UTF-8 bytes (only ASCII
  /// bytes are inspected, so multi-byte characters pass through unchanged).
  static func normalized(_ text: String) -> String {
    let space = UInt8(ascii: " ")
    let tab = UInt8(ascii: "\t")
    let cr = UInt8(ascii: "\r")
    let lf = UInt8(ascii: "\n")
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count + 1)
    var pendingBlank = false
    var lineStart = 0
    var wroteLine = false
    func finishLine() {
      while output.count > lineStart,
        output[output.count - 1] == space || output[output.count - 1] == tab
      {
        output.removeLast()
      }
      if output.count == lineStart {
        pendingBlank = wroteLine
      } else {
        if pendingBlank {
          output.insert(lf, at: lineStart)
          pendingBlank = false
        }
        output.append(lf)
        wroteLine = true
      }
      lineStart = output.count
    }
    for byte in text.utf8 {
      switch byte {
      case lf: finishLine()
      case cr: continue
      default: output.append(byte)
      }
    }
    finishLine()
    return String(decoding: output, as: UTF8.self)
  }

}
