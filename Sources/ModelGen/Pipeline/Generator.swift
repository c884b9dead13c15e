import Dispatch
import GraphQLSDL
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// `schema.api.graphql`: the AppSync API schema the transformer would derive (deployable), and
  /// `schema.local.json`: the local server's manifest.
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
  /// detection (today's output, byte for byte). Copied into `ModelGraph.conflictResolution`.
  public var conflictResolution: ConflictResolution?
  /// The config file's `"swiftNames"`: GraphQL type name → the Swift type name to generate
  /// (README, "Swift names"). Entries naming a type the schema lacks are ignored here (the CLI
  /// reports names no schema has); entries that cannot be used are reported in
  /// ``GenerationResult/swiftNameProblems``.
  public var swiftNames: [String: String]

  /// Creates options.
  public init(
    access: AccessLevel = .public, emit: Set<EmitKind> = [.swift], templates: TemplateSet,
    conflictResolution: ConflictResolution? = nil, swiftNames: [String: String] = [:]
  ) {
    self.access = access
    self.emit = emit
    self.templates = templates
    self.conflictResolution = conflictResolution
    self.swiftNames = swiftNames
  }
}

/// The outcome of generating one schema: the files (empty when the schema has errors) and every
/// diagnostic of parsing and analysis.
public struct GenerationResult: Sendable {
  /// The rendered files, sorted by path; empty when ``hasErrors``.
  public var files: [GeneratedFile]
  /// Every diagnostic, in source order.
  public var diagnostics: [Diagnostic]
  /// ``GeneratorOptions/swiftNames`` entries for types of this schema that cannot be used
  /// (GraphQL type name → what is wrong); when there is one, no file is rendered.
  public var swiftNameProblems: [String: SwiftNameProblem]
  /// The ``GeneratorOptions/swiftNames`` keys that name a type of this schema.
  public var usedSwiftNames: Set<String>
  /// The names of the schema's types a `"swiftNames"` key may name (models, enums, non-model
  /// types), or `nil` when the schema did not parse.
  public var typeNames: Set<String>?

  /// Creates a result.
  public init(
    files: [GeneratedFile], diagnostics: [Diagnostic], swiftNameProblems: [String: SwiftNameProblem] = [:],
    usedSwiftNames: Set<String> = [], typeNames: Set<String>? = nil
  ) {
    self.files = files
    self.diagnostics = diagnostics
    self.swiftNameProblems = swiftNameProblems
    self.usedSwiftNames = usedSwiftNames
    self.typeNames = typeNames
  }

  /// `true` when a diagnostic is an error or a Swift name of the options cannot be used.
  public var hasErrors: Bool {
    !swiftNameProblems.isEmpty || diagnostics.contains { $0.severity == .error }
  }

  /// Every diagnostic as text: the `path:line:col: error: message [CODE]` line, then the source
  /// line with a caret, the hint and the notes (`DiagnosticPrinter/render(_:source:)-swift.type.method`).
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

  /// `model.mustache:12:5: error: message (while rendering Post.swift)`, then `  hint: …`.
  public var description: String {
    switch self {
    case .template(let error, let file):
      return "\(error.location): error: \(error.message) (while rendering \(file))\n  hint: \(error.hint)"
    }
  }
}

/// The generator: schema text → rendered files in memory, plus diagnostics.
///
/// The stages, one module each (README, "Generator architecture"): `SDLParser` (`GraphQLSDL`:
/// text → document), semantic analysis (`ModelGenIR`: document → `ModelGraph`, names resolved
/// once by its naming stage), `ViewModelBuilder` (`ModelGenSwift`: graph → view models),
/// `TemplateSet` (`ModelGenTemplating`: view models → text, laying code out where templates put
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
    let analysis = Self.analysis(
      bytes: bytes, fileName: fileName, swiftNames: options.swiftNames,
      conflictResolution: options.conflictResolution)
    var result = GenerationResult(
      files: [], diagnostics: analysis.diagnostics, swiftNameProblems: analysis.swiftNameProblems,
      usedSwiftNames: analysis.usedSwiftNames, typeNames: analysis.typeNames)
    guard var graph = analysis.graph, analysis.swiftNameProblems.isEmpty else { return result }
    graph.sourceFileName =
      headerName ?? String(fileName.split(separator: "/").last ?? Substring(fileName))
    result.files = try render(graph)
    return result
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
    let analysis = analysis(bytes: bytes, fileName: fileName, swiftNames: [:])
    return (analysis.graph, analysis.diagnostics)
  }

  /// Parses and analyses the raw bytes of a schema file with the config's Swift type names
  /// (``GeneratorOptions/swiftNames``), without rendering (`modelgen validate --config`): the
  /// diagnostics ``generate(bytes:fileName:headerName:)`` would report, the names that cannot be
  /// used and those that name a type.
  ///
  /// - Returns: A result with no files.
  ///
  /// - Parameters:
  ///   - bytes: The schema file's contents.
  ///   - fileName: The name diagnostics carry (the path the user typed).
  ///   - swiftNames: The config's `"swiftNames"` (GraphQL type name → Swift type name).
  ///   - conflictResolution: The config's (or `--conflict-resolution`'s) strategy, checked as
  ///     `generate` checks it (``GeneratorOptions/conflictResolution``).
  public static func validate(
    bytes: [UInt8], fileName: String, swiftNames: [String: String], conflictResolution: ConflictResolution? = nil
  ) -> GenerationResult {
    let analysis = analysis(
      bytes: bytes, fileName: fileName, swiftNames: swiftNames, conflictResolution: conflictResolution)
    return GenerationResult(
      files: [], diagnostics: analysis.diagnostics, swiftNameProblems: analysis.swiftNameProblems,
      usedSwiftNames: analysis.usedSwiftNames, typeNames: analysis.typeNames)
  }

  /// ``analyze(bytes:fileName:)`` with the config's Swift type names (``GeneratorOptions/swiftNames``).
  static func analysis(
    bytes: [UInt8], fileName: String, swiftNames: [String: String], conflictResolution: ConflictResolution? = nil
  ) -> SemanticAnalysis {
    let parsed = SDLParser.parse(bytes: bytes, fileName: fileName)
    if parsed.hasErrors { return SemanticAnalysis(graph: nil, diagnostics: parsed.diagnostics) }
    // One diagnostics budget per schema: the analysis gets what parsing left.
    var analysis = SemanticAnalyzer.analyze(
      parsed.document, fileName: fileName, budget: parsed.budget, swiftNames: swiftNames,
      conflictResolution: conflictResolution)
    analysis.diagnostics = DiagnosticBudget.inPrintingOrder(parsed.diagnostics + analysis.diagnostics)
    if analysis.hasErrors { analysis.graph = nil }
    return analysis
  }

  /// Renders a validated graph.
  ///
  /// - Returns: Per model `Name.swift` and `Name+Schema.swift`, per enum and non-model type
  ///   `Name.swift`, `Models.swift` (the registry, empty when the schema has no models), and `schema.api.graphql`
  ///   with `schema.local.json` when ``EmitKind/apiSchema`` is requested and the schema has models;
  ///   sorted by path.
  /// - Throws: ``GeneratorError`` when a template fails to render.
  public func render(_ graph: ModelGraph) throws -> [GeneratedFile] {
    var files: [GeneratedFile] = []
    if options.emit.contains(.swift) {
      let builder = ViewModelBuilder(graph: graph, access: options.access)
      files.reserveCapacity(graph.models.count * 2 + graph.enums.count + graph.nonModels.count + 2)
      files += try modelFiles(graph.models, builder: builder)
      for definition in graph.enums {
        let enumeration = builder.enumViewModel(definition)
        files.append(
          try file("\(enumeration.fileStem).swift", template: "enum", enumeration.templateValue))
      }
      for definition in graph.nonModels {
        let embedded = builder.embeddedViewModel(definition)
        files.append(
          try file("\(embedded.fileStem).swift", template: "embedded", embedded.templateValue))
      }
      if let registry = builder.registryViewModel() {
        files.append(
          try file("\(registry.typeName).swift", template: "registry", registry.templateValue))
      }
    }
    // A GraphQL schema needs a `Query` type with at least one field (GraphQL spec October 2021,
    // §3.3.1 and §3.6): models give it one, or the user's own `type Query` does (the transformer
    // then prints the user's types and its shared inputs, as for any schema).
    let hasQuery = graph.customRootTypes.contains { $0.operation == .query && !$0.fields.isEmpty }
    if options.emit.contains(.apiSchema) && (!graph.models.isEmpty || hasQuery) {
      let text = APISchemaEmitter.render(graph, sourceFileName: graph.sourceFileName)
      files.append(GeneratedFile(path: Self.apiSchemaFileName, contents: Self.normalized(text)))
      // The local server's manifest beside the deployable schema (`APILocalManifest`).
      let manifest = APILocalManifest.render(graph, sourceFileName: graph.sourceFileName)
      files.append(GeneratedFile(path: Self.localManifestFileName, contents: Self.normalized(manifest)))
    }
    return files.sorted { $0.path < $1.path }
  }

  /// `Name.swift` and `Name+Schema.swift` of every model, in the order of `models`.
  ///
  /// The models render side by side on the calling thread and Dispatch's worker threads
  /// (`DispatchQueue.concurrentPerform`, one iteration per model, as many at once as there are
  /// active cores): each view model is built, rendered and dropped by one worker, so at most one per
  /// core is alive at a time. Every result goes to its model's own slot (under a `Mutex`, held only
  /// to store it), so the output does not
  /// depend on scheduling. Pure CPU work; it blocks the caller until every model is done, as any
  /// synchronous computation does.
  ///
  /// - Throws: ``GeneratorError`` of the first model in `models` whose template failed.
  private func modelFiles(_ models: [ModelDefinition], builder: ViewModelBuilder) throws -> [GeneratedFile] {
    let slots = Mutex([Result<(GeneratedFile, GeneratedFile), any Error>?](repeating: nil, count: models.count))
    DispatchQueue.concurrentPerform(iterations: models.count) { index in
      let result = Result {
        let model = builder.modelViewModel(models[index])
        let value = model.templateValue
        return (
          try file("\(model.fileStem).swift", template: "model", value),
          try file("\(model.fileStem)+Schema.swift", template: "schema", value)
        )
      }
      slots.withLock { $0[index] = result }
    }
    var files: [GeneratedFile] = []
    files.reserveCapacity(models.count * 2)
    for slot in slots.withLock({ $0 }) {
      let (model, schema) = try slot!.get()
      files.append(model)
      files.append(schema)
    }
    return files
  }

  /// The file name `--emit api-schema` writes in a schema's output directory.
  public static let apiSchemaFileName = "schema.api.graphql"
  /// The local server's manifest `--emit api-schema` writes beside it (`APILocalManifest`).
  public static let localManifestFileName = APILocalManifest.fileName

  private func file(_ path: String, template: String, _ value: TemplateValue) throws
    -> GeneratedFile
  {
    do {
      let bytes = try options.templates.renderUTF8(template, value)
      return GeneratedFile(
        path: path, contents: bytes.withUnsafeBufferPointer { Self.normalized(utf8: $0) })
    } catch let error as TemplateError {
      throw GeneratorError.template(error, file: path)
    }
  }

  /// LF line endings, no trailing whitespace on any line, no run of more than one blank line, no
  /// blank lines at the end, and exactly one trailing newline (empty text stays empty). Works on UTF-8 bytes (only ASCII
  /// bytes are inspected, so multi-byte characters pass through unchanged).
  static func normalized(_ text: String) -> String {
    var text = text
    return text.withUTF8 { normalized(utf8: $0) }
  }

  /// ``normalized(_:)`` over UTF-8 bytes, line by line: each line (found with `memchr`) loses its
  /// trailing blanks and is copied whole into the new string's storage, which needs at most
  /// `bytes.count + 1` bytes (a kept blank line reuses the line feed of a dropped one; only the
  /// last line may gain one). Carriage returns are removed first, in a copy, when there are any.
  static func normalized(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
    guard memchr(base, Int32(UInt8(ascii: "\r")), bytes.count) == nil else {
      let withoutCR = bytes.filter { $0 != UInt8(ascii: "\r") }
      return withoutCR.withUnsafeBufferPointer { normalized(utf8: $0) }
    }
    return String(unsafeUninitializedCapacity: bytes.count + 1) { output in
      let lf = UInt8(ascii: "\n")
      var count = 0
      var pendingBlank = false
      var lineStart = 0
      while lineStart < bytes.count {
        let rest = bytes.count - lineStart
        var lineEnd = lineStart + rest
        if let found = memchr(base + lineStart, Int32(lf), rest) {
          lineEnd = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        var end = lineEnd
        while end > lineStart, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") {
          end -= 1
        }
        if end == lineStart {
          pendingBlank = count > 0
        } else {
          if pendingBlank {
            output[count] = lf
            count += 1
            pendingBlank = false
          }
          let length = end - lineStart
          (output.baseAddress! + count).update(from: base + lineStart, count: length)
          count += length
          output[count] = lf
          count += 1
        }
        lineStart = lineEnd + 1
      }
      return count
    }
  }

}
