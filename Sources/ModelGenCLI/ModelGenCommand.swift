import Foundation
import GraphQLSDL
import ModelGen
import ModelVocabulary

/// The `modelgen` command-line tool: everything except the process entry point, so tests can run
/// it in-process.
///
/// Exit statuses (SPEC §6): 0 success; 1 schema errors, stale output under `--check`, or output
/// that cannot be written (a conflict, a directory in the way, an I/O error); 64 bad usage
/// (`EX_USAGE`): a command line that cannot be understood, or an input it names (schema, config
/// file, templates directory or template) that cannot be read or used.
public struct ModelGenCommand {
  /// Where standard output text goes.
  public var standardOutput: (String) -> Void
  /// Where standard error text goes.
  public var standardError: (String) -> Void
  /// The program as it was invoked (`argv[0]`: `modelgen`, `.build/debug/modelgen`), used to
  /// spell the command `--check` tells the user to run.
  public var programName: String

  /// Creates a command that writes to the given sinks (each call passes whole lines ending in `\n`).
  ///
  /// - Parameter programName: `argv[0]` as the tool was invoked (default `modelgen`).
  public init(
    programName: String = "modelgen",
    standardOutput: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
    standardError: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
  ) {
    self.programName = programName
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  /// Exit status: success.
  public static let success: Int32 = 0
  /// Exit status: schema errors, stale output, or output that cannot be written.
  public static let failure: Int32 = 1
  /// Exit status: bad usage or an unusable input path (`EX_USAGE` from `sysexits.h`).
  public static let usage: Int32 = 64

  /// Runs the tool with `arguments` (without the program name) and returns the exit status.
  public func run(_ arguments: [String]) -> Int32 {
    let command: Command
    do {
      command = try Command.parse(arguments)
    } catch {
      standardError("\(error)\n\(Command.shortUsage)\nsee modelgen --help\n")
      return Self.usage
    }
    switch command {
    case .help:
      standardOutput(Command.usage + "\n")
      return Self.success
    case .commandHelp(let topic):
      standardOutput(Command.usage(of: topic) + "\n")
      return Self.success
    case .version:
      standardOutput(ModelGenRelease.versionLine + "\n")
      return Self.success
    case .validate(let schemas, let config):
      return validate(schemas, config: config)
    case .generate(let options):
      return generate(options, arguments: arguments)
    }
  }

  /// The bytes of the schema at `path`, or the `MGC027` error saying why it cannot be read.
  private func readSchema(_ path: String) -> Result<[UInt8], ConfigFileError> {
    func unreadable(_ reason: String) -> ConfigFileError {
      ConfigFileError(
        path: path, code: ConfigDiagnosticCode.unreadableSchema, message: "cannot read the schema: \(reason)",
        hint: "pass the path of a readable GraphQL schema file (relative to the working directory, or absolute)")
    }
    if let problem = InputPath.problem(path, directory: false) { return .failure(unreadable(problem)) }
    do {
      return .success(try RegularFile.read(path))
    } catch {
      return .failure(unreadable(error.reason))
    }
  }

  /// What the input checks shared by `validate` and `generate` found (`checkInputs(_:reading:extraConfigErrors:templates:analyze:)`).
  private struct CheckedInputs {
    /// Every config error, the file's own and those found against the schemas, in file order.
    var configErrors: [ConfigFileError] = []
    /// A schema could not be read (`MGC027`), or a template failed to render.
    var badInput = false
    /// A schema has an error diagnostic.
    var schemaErrors = false
    /// Each schema analysed with the config's settings, in command-line order.
    var results: [(path: String, result: GenerationResult)] = []

    /// The exit status of a run that stops here, or `nil` when every input is valid: 64 for
    /// config errors and unusable inputs, 1 for schema errors (SPEC §6).
    var failureStatus: Int32? {
      if !configErrors.isEmpty || badInput { return ModelGenCommand.usage }
      return schemaErrors ? ModelGenCommand.failure : nil
    }
  }

  /// The checks `validate` and `generate` run alike, so both report the same errors for the same
  /// files: every schema is read (`MGC027`) and analysed with the config's settings (`analyze`),
  /// its diagnostics printed; the config's `swiftNames` are checked against the schemas (`MGC010`,
  /// `MGC011`; `MGC012` once every schema parsed); then every config error (the file's own from
  /// `reading`, `extraConfigErrors`, and those against the schemas) is printed in file order,
  /// before the schemas' diagnostics.
  ///
  /// When the config's content is unknown (``ConfigFile/Reading/isContentKnown``: unreadable, too
  /// large, a syntax error that ends the JSON reading, not an object), the schemas are only read
  /// and parsed: their semantic checks depend on the config's `swiftNames` and
  /// `conflictResolution`, and no `swiftNames` entry can be checked.
  private func checkInputs(
    _ schemas: [String], reading: ConfigFile.Reading, extraConfigErrors: [ConfigFileError] = [],
    templates: String? = nil, analyze: (_ bytes: [UInt8], _ path: String) throws -> GenerationResult
  ) -> CheckedInputs {
    var checked = CheckedInputs()
    var schemaText = ""
    var typeNames: Set<String> = []
    var everySchemaParsed = true
    var fromSchemas: [ConfigFileError] = []
    for path in schemas {
      let bytes: [UInt8]
      switch readSchema(path) {
      case .success(let read): bytes = read
      case .failure(let error):
        schemaText += "\(error)\n"
        checked.badInput = true
        everySchemaParsed = false
        continue
      }
      guard reading.isContentKnown else {
        let parsed = SDLParser.parse(bytes: bytes, fileName: path)
        schemaText += DiagnosticPrinter.render(parsed.diagnostics, source: SourceFile(fileName: path, bytes: bytes))
        if parsed.hasErrors { checked.schemaErrors = true }
        continue
      }
      let result: GenerationResult
      do {
        result = try analyze(bytes, path)
      } catch {
        schemaText += Self.describe(error, templates: templates)
        checked.badInput = true
        continue
      }
      if !result.diagnostics.isEmpty { schemaText += result.renderedDiagnostics(bytes: bytes, fileName: path) }
      if let names = result.typeNames { typeNames.formUnion(names) } else { everySchemaParsed = false }
      for (name, problem) in result.swiftNameProblems.sorted(by: { $0.key < $1.key }) {
        fromSchemas.append(swiftNameError(name, problem, in: path, reading.config, reading.path))
      }
      if result.diagnostics.contains(where: { $0.severity == .error }) { checked.schemaErrors = true }
      checked.results.append((path, result))
    }
    if reading.isContentKnown && everySchemaParsed {
      for name in reading.config.swiftNamePositions.keys.sorted() where !typeNames.contains(name) {
        fromSchemas.append(unknownSwiftNameError(name, schemaCount: schemas.count, reading.config, reading.path))
      }
    }
    // A file whose own errors spent the budget was not checked to its end: the checks against
    // the schemas would report past the budget, so they are left out.
    checked.configErrors = reading.errors + extraConfigErrors + (reading.isExhausted ? [] : fromSchemas)
    printConfigErrors(checked.configErrors)
    if !schemaText.isEmpty { standardError(schemaText) }
    return checked
  }

  /// The config at `path` as both commands read it (``ConfigFile/read(path:)``), or the defaults
  /// without `--config`.
  private func readConfig(_ path: String?) -> ConfigFile.Reading {
    guard let path else { return ConfigFile.Reading(config: ConfigFile(), errors: [], isContentKnown: true) }
    return ConfigFile.read(path: path)
  }

  /// `modelgen validate`: the input checks of `generate` (`checkInputs(_:reading:extraConfigErrors:templates:analyze:)`)
  /// and nothing more, so both commands report the same errors and exit with the same status.
  private func validate(_ schemas: [String], config configPath: String?) -> Int32 {
    let reading = readConfig(configPath)
    let config = reading.config
    // The config's `templates` are loaded and compiled as `generate` loads them (MGC028, MGC029),
    // so a directory `generate` refuses is refused here too, with the same exit status.
    let templatesFailed =
      reading.errors.isEmpty && config.templates != nil && loadTemplates(config.templates) == nil
    var checked = checkInputs(schemas, reading: reading, templates: config.templates) { bytes, path in
      Generator.validate(
        bytes: bytes, fileName: path, swiftNames: config.swiftNames, conflictResolution: config.conflictResolution)
    }
    if templatesFailed { checked.badInput = true }
    if let status = checked.failureStatus { return status }
    standardOutput("\(schemas.count) schema\(schemas.count == 1 ? "" : "s") valid\n")
    return Self.success
  }

  /// The templates of `directory` (the built-in ones when `nil`), loaded and compiled; `nil`
  /// after printing why they cannot be used (MGC028, or a template's MGC029), for both `generate`
  /// and `validate`.
  private func loadTemplates(_ directory: String?) -> TemplateSet? {
    do {
      guard let directory else { return try TemplateLibrary.defaults() }
      if let problem = InputPath.problem(directory, directory: true) {
        throw TemplateLibraryError.unreadableDirectory(path: directory, reason: problem)
      }
      return try TemplateLibrary.load(directory: URL(fileURLWithPath: directory))
    } catch {
      // The schemas are still checked, as `validate` checks them.
      standardError(Self.describe(error, templates: directory))
      return nil
    }
  }

  /// `modelgen generate`: the input checks of `validate`, then every schema rendered in memory and,
  /// only when every input is valid, written (or compared, `--check`; listed, `--dry-run`).
  private func generate(_ options: GenerateOptions, arguments: [String]) -> Int32 {
    let reading = readConfig(options.config)
    let config = reading.config
    let (options, extraConfigErrors) = Self.applying(reading, to: options)
    // Templates are loaded only for a run that can render: with config errors the schemas are
    // checked as `validate` checks them.
    var templates: TemplateSet?
    var templatesFailed = false
    if reading.errors.isEmpty && extraConfigErrors.isEmpty {
      templates = loadTemplates(options.templates)
      templatesFailed = templates == nil
    }
    let generator = templates.map {
      Generator(
        options: GeneratorOptions(
          access: options.access, emit: options.emit, templates: $0,
          conflictResolution: options.conflictResolution, swiftNames: config.swiftNames))
    }
    let conflictResolution = options.conflictResolution
    var checked = checkInputs(
      options.schemas, reading: reading, extraConfigErrors: extraConfigErrors, templates: options.templates
    ) { bytes, path in
      guard let generator else {
        return Generator.validate(
          bytes: bytes, fileName: path, swiftNames: config.swiftNames, conflictResolution: conflictResolution)
      }
      return try generator.generate(bytes: bytes, fileName: path)
    }
    // Schemas whose output directories are one (MGC014) are reported beside the input errors.
    let collisions =
      options.schemas.count > 1 && options.singleFile == nil ? OutputDirectories.problems(options.schemas) : []
    printConfigErrors(collisions)
    // Templates that cannot be used are an unusable input, as an unreadable schema is (exit 64).
    if templatesFailed { checked.badInput = true }
    if let status = checked.failureStatus ?? (collisions.isEmpty ? nil : Self.failure) {
      standardError("error: no files written\n")
      return status
    }
    // Render everything first: nothing is written unless every schema is valid.
    let outputs = Self.outputs(of: checked.results, options)
    if let singleFile = options.singleFile, let output = outputs.first {
      return writeSingleFile(SingleFile.join(output.files), to: singleFile)
    }
    return write(outputs, options, arguments: arguments)
  }

  /// `options` with the config file's settings in place of the command line's, and the config
  /// errors found against the command line (`MGC030`: `emit` without `swift` for `--single-file`).
  private static func applying(
    _ reading: ConfigFile.Reading, to options: GenerateOptions
  ) -> (GenerateOptions, [ConfigFileError]) {
    let config = reading.config
    var options = options
    var errors: [ConfigFileError] = []
    options.access = config.access ?? options.access
    options.templates = config.templates ?? options.templates
    options.conflictResolution = config.conflictResolution ?? options.conflictResolution
    if let emit = config.emit {
      // --single-file writes Swift only; the other outputs of the config are for --output runs.
      if options.singleFile == nil {
        options.emit = emit
      } else if !emit.contains(.swift) {
        errors.append(
          ConfigFileError(
            path: reading.path ?? ConfigFile.fileName, code: ConfigDiagnosticCode.emitWithoutSwift,
            message: "\"emit\" leaves out \"swift\", but '--single-file' (the build tool plugin) writes Swift",
            line: config.emitPosition?.line, column: config.emitPosition?.column,
            hint: "add \"swift\" to \"emit\" (the command plugin generate-models writes the other outputs)"))
      }
    }
    return (options, errors)
  }

  /// The files rendered for one schema and where they go.
  private struct SchemaOutput {
    /// The output directory: `--output`, or a directory a schema below it when there are several.
    var directory: String
    /// The schema's file name escaped for a comment, as the generated headers carry it.
    var schemaName: String
    var schemaPath: String
    var files: [GeneratedFile]
  }

  private static func outputs(
    of results: [(path: String, result: GenerationResult)], _ options: GenerateOptions
  ) -> [SchemaOutput] {
    results.map { path, result in
      SchemaOutput(
        directory: options.schemas.count == 1
          ? options.output : PathText.appending(OutputPlanner.stem(of: path), to: options.output),
        // The headers carry the name escaped for a comment; compare generated files by that form.
        schemaName: SwiftNames.commentText(PathText.lastComponent(of: path)), schemaPath: path, files: result.files
      )
    }
  }

  /// Plans the changes of every output directory and then compares (`--check`), lists
  /// (`--dry-run`) or writes them.
  private func write(_ outputs: [SchemaOutput], _ options: GenerateOptions, arguments: [String]) -> Int32 {
    // A run that writes locks its output directories before it reads them, and holds the locks
    // until the last file is in place: a concurrent run plans after it, against its files and
    // manifest (OutputLock). Runs that write nothing take no lock.
    var locks: [OutputLock] = []
    if !options.check && !options.dryRun {
      do {
        locks = try OutputLock.acquire(outputs.map(\.directory), timeout: options.lockTimeout)
      } catch {
        standardError("\(error)\n")
        return Self.failure
      }
    }
    func releaseLocks(wroteNothing: Bool) {
      for lock in locks.reversed() { lock.release(removingCreatedDirectories: wroteNothing) }
    }
    defer { releaseLocks(wroteNothing: false) }

    let changes: [PlannedChange]
    let unchanged: Int
    do {
      (changes, unchanged) = try Self.plan(outputs, emit: options.emit)
    } catch {
      releaseLocks(wroteNothing: true)
      standardError("\(error)\n")
      return Self.failure
    }
    if options.check { return reportCheck(changes, output: options.output, arguments: arguments) }
    if options.dryRun {
      for change in changes { standardOutput("would \(change.kind.rawValue) \(change.path)\n") }
      standardOutput(
        "\(changes.count) change\(changes.count == 1 ? "" : "s"), \(unchanged) unchanged\n")
      return Self.success
    }
    do {
      try OutputPlanner.apply(changes)
    } catch {
      releaseLocks(wroteNothing: true)
      standardError("\(error)\n")
      return Self.failure
    }
    let count = { (kind: PlannedChange.Kind) in changes.filter { $0.kind == kind }.count }
    standardOutput(
      "created \(count(.create)), updated \(count(.update)), deleted \(count(.delete)), unchanged \(unchanged)\n"
    )
    return Self.success
  }

  /// The changes that bring every output directory to its files, and how many files (manifests
  /// included) are unchanged.
  private static func plan(
    _ outputs: [SchemaOutput], emit: Set<EmitKind>
  ) throws -> (changes: [PlannedChange], unchanged: Int) {
    var changes: [PlannedChange] = []
    var unchanged = 0
    for output in outputs {
      let planned = try OutputPlanner.plan(
        directory: output.directory, files: output.files, schemaName: output.schemaName,
        prunable: OutputPlanner.prunable(for: emit), schemaPath: output.schemaPath)
      // The files plus the directory's manifest (`.modelgen-manifest.json`).
      unchanged += output.files.count + 1 - planned.filter { $0.kind != .delete }.count
      changes += planned
    }
    return (changes, unchanged)
  }

  /// `--check`: success when nothing would change, else each change and the command to run.
  private func reportCheck(_ changes: [PlannedChange], output: String, arguments: [String]) -> Int32 {
    guard !changes.isEmpty else {
      standardOutput("\(output) is up to date\n")
      return Self.success
    }
    for change in changes { standardError("\(change.path): \(Self.checkWording(change.kind))\n") }
    standardError(
      "error: \(output) is out of date (\(changes.count) file\(changes.count == 1 ? "" : "s")); run:\n"
        + "  \(Self.regenerateCommand(programName: programName, arguments: arguments))\n")
    return Self.failure
  }

  /// A config error (`MGC010`, `MGC011`) about the `swiftNames` entry for `name`, found against
  /// the schema at `schemaPath`, at the entry's key in the config file.
  private func swiftNameError(
    _ name: String, _ problem: SwiftNameProblem, in schemaPath: String, _ config: ConfigFile, _ configPath: String?
  ) -> ConfigFileError {
    let position = config.swiftNamePositions[name]
    return ConfigFileError(
      path: configPath ?? ConfigFile.fileName, code: problem.code,
      message:
        "\"swiftNames\" entry \"\(SwiftNames.commentText(name))\": \(problem.message) (in \(SwiftNames.commentText(schemaPath)))",
      line: position?.line, column: position?.column, hint: SwiftNames.commentText(problem.hint))
  }

  /// `MGC012`: the `swiftNames` entry for `name` names no type of the `schemaCount` schemas.
  private func unknownSwiftNameError(
    _ name: String, schemaCount: Int, _ config: ConfigFile, _ configPath: String?
  ) -> ConfigFileError {
    let position = config.swiftNamePositions[name]
    let schemas = schemaCount == 1 ? "the schema" : "any of the \(schemaCount) schemas"
    return ConfigFileError(
      path: configPath ?? ConfigFile.fileName, code: ConfigDiagnosticCode.swiftNamesUnknownType,
      message: "\"swiftNames\" entry \"\(SwiftNames.commentText(name))\": names no type of \(schemas)",
      line: position?.line, column: position?.column,
      hint: "a key is a GraphQL type name as the schema writes it (letter case counts); remove the entry or correct it")
  }

  /// Prints config errors in file order, in the config's error budget: at most
  /// ``ConfigFile/maximumErrorCount``, then one `MGC099`.
  private func printConfigErrors(_ errors: [ConfigFileError]) {
    let sorted = errors.sortedInFileOrder()
    // A file whose own errors spent the budget ends with its MGC099 already.
    if sorted.last?.code == ConfigDiagnosticCode.tooManyErrors {
      for error in sorted { standardError("\(error)\n") }
      return
    }
    for error in sorted.prefix(ConfigFile.maximumErrorCount) { standardError("\(error)\n") }
    if sorted.count > ConfigFile.maximumErrorCount, let first = sorted.first {
      let next = sorted[ConfigFile.maximumErrorCount]
      let summary = ConfigFileError(
        path: first.path, code: ConfigDiagnosticCode.tooManyErrors,
        message: "too many errors; stopped after \(ConfigFile.maximumErrorCount)", line: next.line,
        column: next.column, hint: "fix the errors above and run again")
      standardError("\(summary)\n")
    }
  }

  /// The command line that regenerates the output `--check` found stale: the program as invoked
  /// and the same arguments without `--check`, each quoted for a POSIX shell when it needs it.
  static func regenerateCommand(programName: String, arguments: [String]) -> String {
    ([programName] + arguments.filter { $0 != "--check" }).map(shellQuoted).joined(separator: " ")
  }

  /// `word` as a POSIX shell reads it back: unchanged when it holds only safe characters,
  /// otherwise in single quotes (an embedded `'` written as `'\''`).
  static func shellQuoted(_ word: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,=:+@%")
    if !word.isEmpty && word.allSatisfy(safe.contains) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// One line for a failure outside the schema: templates that cannot be used as
  /// `PATH: error: message [MGC028]` and a hint line, template errors as
  /// `DIR/name.mustache:LINE:COL: error: message [MGC029]` (render errors: `… (while rendering
  /// Post.swift) [MGC030]`) and a hint line (clickable like compiler output), anything else as
  /// `error: description`.
  static func describe(_ error: any Error, templates: String?) -> String {
    let prefix = templates.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? "Templates/"
    switch error {
    case let error as TemplateLibraryError:
      return
        "\(ConfigFileError(path: error.path, code: ConfigDiagnosticCode.unusableTemplates, message: error.message, hint: error.hint))\n"
    case let error as TemplateError:
      return "\(templateError(error, prefix: prefix, code: ConfigDiagnosticCode.templateDoesNotCompile))\n"
    case GeneratorError.template(let error, let file):
      return
        "\(templateError(error, prefix: prefix, code: ConfigDiagnosticCode.templateDoesNotRender, rendering: file))\n"
    default:
      return "error: \(error)\n"
    }
  }

  /// A template error as the config and output errors print: at `DIR/name.mustache:LINE:COL`,
  /// with its code and hint; `rendering` names the output file a render error was rendering.
  private static func templateError(
    _ error: TemplateError, prefix: String, code: DiagnosticCode, rendering file: String? = nil
  ) -> ConfigFileError {
    ConfigFileError(
      path: prefix + error.templateName + ".mustache",
      code: code, message: error.message + (file.map { " (while rendering \($0))" } ?? ""),
      line: error.line > 0 ? error.line : nil, column: error.column, hint: error.hint)
  }

  /// `--single-file`: writes `text` to `path` when its bytes differ (creating the directory).
  private func writeSingleFile(_ text: String, to path: String) -> Int32 {
    do {
      let directory = PathText.parent(of: path)
      try OutputPlanner.checkWritableDirectory(directory)
      if let existing = try OutputPlanner.existingFile(at: path) {
        if existing == Array(text.utf8) {
          standardOutput("\(path) is up to date\n")
          return Self.success
        }
      }
      if !directory.isEmpty {
        do {
          try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
          throw OutputWriteError(path: directory, reason: "cannot create this directory")
        }
      }
      try OutputPlanner.writeAtomically(text, to: path)
    } catch let error as OutputError {
      standardError("\(error)\n")
      return Self.failure
    } catch let error as OutputWriteError {
      standardError("\(error)\n")
      return Self.failure
    } catch {
      standardError("error: \(error)\n")
      return Self.failure
    }
    standardOutput("wrote \(path)\n")
    return Self.success
  }

  private static func checkWording(_ kind: PlannedChange.Kind) -> String {
    switch kind {
    case .create: return "missing"
    case .update: return "differs from the generated output"
    case .delete: return "stale (no longer generated)"
    }
  }
}
