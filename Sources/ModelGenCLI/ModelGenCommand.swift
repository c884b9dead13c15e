import Foundation
import ModelGen

/// The `modelgen` command-line tool: everything except the process entry point, so tests can run
/// it in-process.
///
/// Exit statuses (SPEC §6): 0 success; 1 schema errors, stale output under `--check`, an
/// unreadable schema or template, or an output conflict; 64 bad usage (`EX_USAGE`).
public struct ModelGenCommand {
  /// Where standard output text goes.
  public var standardOutput: (String) -> Void
  /// Where standard error text goes.
  public var standardError: (String) -> Void

  /// Creates a command that writes to the given sinks (each call passes whole lines ending in `\n`).
  public init(
    standardOutput: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
    standardError: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  /// Exit status: success.
  public static let success: Int32 = 0
  /// Exit status: schema errors, stale output, or unreadable input.
  public static let failure: Int32 = 1
  /// Exit status: bad usage (`EX_USAGE` from `sysexits.h`).
  public static let usage: Int32 = 64

  /// Runs the tool with `arguments` (without the program name) and returns the exit status.
  public func run(_ arguments: [String]) -> Int32 {
    let command: Command
    do {
      command = try Command.parse(arguments)
    } catch {
      standardError("\(error)\n\n\(Command.usage)\n")
      return Self.usage
    }
    switch command {
    case .help:
      standardOutput(Command.usage + "\n")
      return Self.success
    case .validate(let schemas):
      return validate(schemas)
    case .generate(let options):
      return generate(options)
    }
  }

  private func readSchema(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else {
      standardError("error: cannot read schema \(path)\n")
      return nil
    }
    return String(decoding: data, as: UTF8.self)
  }

  private func validate(_ schemas: [String]) -> Int32 {
    var failed = false
    for path in schemas {
      guard let source = readSchema(path) else {
        failed = true
        continue
      }
      let (graph, diagnostics) = Generator.analyze(source: source, fileName: path)
      let result = GenerationResult(files: [], diagnostics: diagnostics)
      if !diagnostics.isEmpty {
        standardError(result.renderedDiagnostics(source: source, fileName: path))
      }
      if graph == nil { failed = true }
    }
    if !failed { standardOutput("\(schemas.count) schema\(schemas.count == 1 ? "" : "s") valid\n") }
    return failed ? Self.failure : Self.success
  }

  private func generate(_ options: GenerateOptions) -> Int32 {
    var options = options
    if let path = options.config {
      do {
        let config = try ConfigFile.load(path: path)
        options.access = config.access ?? options.access
        options.templates = config.templates ?? options.templates
        if let emit = config.emit {
          // --single-file writes Swift only; the other outputs of the config are for --output runs.
          if options.singleFile == nil {
            options.emit = emit
          } else if !emit.contains(.swift) {
            throw ConfigFileError(
              path: path,
              message:
                "\"emit\" leaves out \"swift\", but '--single-file' (the build tool plugin) writes Swift"
            )
          }
        }
      } catch {
        standardError("\(error)\n")
        return Self.failure
      }
    }
    let templates: TemplateSet
    do {
      if let directory = options.templates {
        templates = try TemplateLibrary.load(directory: URL(fileURLWithPath: directory))
      } else {
        templates = try TemplateLibrary.defaults()
      }
    } catch {
      standardError(Self.describe(error, templates: options.templates))
      return Self.failure
    }
    let generator = Generator(
      options: GeneratorOptions(access: options.access, emit: options.emit, templates: templates))

    // Render everything first: nothing is written unless every schema is valid.
    var outputs: [(directory: String, files: [GeneratedFile])] = []
    var failed = false
    for path in options.schemas {
      guard let source = readSchema(path) else {
        failed = true
        continue
      }
      do {
        let result = try generator.generate(source: source, fileName: path)
        if !result.diagnostics.isEmpty {
          standardError(result.renderedDiagnostics(source: source, fileName: path))
        }
        if result.hasErrors {
          failed = true
          continue
        }
        let directory =
          options.schemas.count == 1
          ? options.output
          : (options.output as NSString).appendingPathComponent(OutputPlanner.stem(of: path))
        outputs.append((directory, result.files))
      } catch {
        standardError(Self.describe(error, templates: options.templates))
        failed = true
      }
    }
    if failed {
      standardError("error: no files written\n")
      return Self.failure
    }

    if let singleFile = options.singleFile, let output = outputs.first {
      return writeSingleFile(SingleFile.join(output.files), to: singleFile)
    }

    var changes: [PlannedChange] = []
    var unchanged = 0
    do {
      for output in outputs {
        let planned = try OutputPlanner.plan(
          directory: output.directory, files: output.files,
          prunable: OutputPlanner.prunable(for: options.emit))
        unchanged += output.files.count - planned.filter { $0.kind != .delete }.count
        changes += planned
      }
    } catch {
      standardError("\(error)\n")
      return Self.failure
    }

    if options.check {
      guard !changes.isEmpty else {
        standardOutput("\(options.output) is up to date\n")
        return Self.success
      }
      for change in changes { standardError("\(change.path): \(Self.checkWording(change.kind))\n") }
      standardError(
        "error: \(options.output) is out of date (\(changes.count) file\(changes.count == 1 ? "" : "s")); run:\n"
          + "  \(options.regenerateCommand)\n")
      return Self.failure
    }
    if options.dryRun {
      for change in changes { standardOutput("would \(change.kind.rawValue) \(change.path)\n") }
      standardOutput(
        "\(changes.count) change\(changes.count == 1 ? "" : "s"), \(unchanged) unchanged\n")
      return Self.success
    }
    do {
      try OutputPlanner.apply(changes)
    } catch let error as OutputWriteError {
      standardError("error: \(error)\n")
      return Self.failure
    } catch {
      standardError("error: \(error.localizedDescription)\n")
      return Self.failure
    }
    let count = { (kind: PlannedChange.Kind) in changes.filter { $0.kind == kind }.count }
    standardOutput(
      "created \(count(.create)), updated \(count(.update)), deleted \(count(.delete)), unchanged \(unchanged)\n"
    )
    return Self.success
  }

  /// One line for a failure outside the schema: template errors as `DIR/name.mustache:LINE: error:
  /// message` (clickable like compiler output), anything else as `error: description`.
  static func describe(_ error: any Error, templates: String?) -> String {
    let prefix = templates.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? "Templates/"
    switch error {
    case let error as TemplateError:
      return prefix + "\(error)\n"
    case GeneratorError.template(let error, let file):
      return prefix + "\(error) (while rendering \(file))\n"
    default:
      return "error: \(error)\n"
    }
  }

  /// `--single-file`: writes `text` to `path` when its bytes differ (creating the directory).
  private func writeSingleFile(_ text: String, to path: String) -> Int32 {
    let data = Data(text.utf8)
    if FileManager.default.contents(atPath: path) == data {
      standardOutput("\(path) is up to date\n")
      return Self.success
    }
    do {
      let url = URL(fileURLWithPath: path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try OutputPlanner.writeAtomically(text, to: path)
    } catch {
      standardError("error: cannot write \(path): \(error.localizedDescription)\n")
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
