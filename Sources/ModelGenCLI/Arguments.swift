import Foundation
import ModelGen

/// A parsed `modelgen` command line (SPEC §6).
public enum Command: Sendable, Equatable {
  /// `modelgen generate <schema.graphql>... --output DIR [options]`.
  case generate(GenerateOptions)
  /// `modelgen validate <schema.graphql>... [--config FILE]`: `config` is the `modelgen-config.json`
  /// whose keys are checked and whose `swiftNames` the analysis uses, as `generate --config` does.
  case validate(schemas: [String], config: String? = nil)
  /// `modelgen help`, `--help`, `-h`.
  case help
  /// `modelgen help generate`, `modelgen generate --help` (or `-h`), and the same for `validate`:
  /// prints that command's usage (``Command/usage(of:)``) and exits 0.
  case commandHelp(HelpTopic)
  /// `modelgen --version`, `version`: prints `ModelGenRelease.versionLine` and exits 0.
  case version
}

/// A command with usage text of its own (`modelgen help <command>`).
public enum HelpTopic: String, Sendable, Equatable, CaseIterable {
  /// `modelgen generate`.
  case generate
  /// `modelgen validate`.
  case validate
}

/// The options of `modelgen generate`.
public struct GenerateOptions: Sendable, Equatable {
  /// The schema paths, as typed.
  public var schemas: [String]
  /// `--output DIR`.
  public var output: String
  /// `--templates DIR`, or `nil` for the templates compiled into `modelgen`.
  public var templates: String?
  /// `--access public|package|internal` (default `public`).
  public var access: AccessLevel
  /// `--emit swift,api-schema` (default `swift`).
  public var emit: Set<EmitKind>
  /// `--check`: write nothing; fail when the output is stale.
  public var check: Bool
  /// `--dry-run`: write nothing; list what would change.
  public var dryRun: Bool
  /// `--single-file PATH`: write the one schema's Swift files joined into the file at `PATH`
  /// (``SingleFile``) instead of per-type files under `output`; `nil` otherwise.
  public var singleFile: String?
  /// `--config FILE`: a `modelgen-config.json` (``ConfigFile``) read when the command runs, whose
  /// keys stand in for `--access`, `--emit` and `--templates`; `nil` otherwise.
  public var config: String?
  /// `--conflict-resolution automerge|optimistic|lambda`: emit a versioned data source's API schema
  /// and sync names (``ConflictResolution``); `nil` (the default) for none.
  public var conflictResolution: ConflictResolution?
  /// `--lock-timeout SECONDS`: how long a run writing into `--output` waits for another run that
  /// holds an output directory's lock (``OutputLock``, `MGC017` after it); `0` fails at once.
  /// Default 30. Runs that write nothing (`--check`, `--dry-run`) and `--single-file` take no lock.
  public var lockTimeout: Double

  /// The `--lock-timeout` of a run that gives none: 30 seconds.
  public static let defaultLockTimeout: Double = 30

  /// Creates options.
  public init(
    schemas: [String], output: String, templates: String? = nil, access: AccessLevel = .public,
    emit: Set<EmitKind> = [.swift], check: Bool = false, dryRun: Bool = false,
    singleFile: String? = nil,
    config: String? = nil, conflictResolution: ConflictResolution? = nil,
    lockTimeout: Double = GenerateOptions.defaultLockTimeout
  ) {
    self.schemas = schemas
    self.output = output
    self.templates = templates
    self.access = access
    self.emit = emit
    self.check = check
    self.dryRun = dryRun
    self.singleFile = singleFile
    self.config = config
    self.conflictResolution = conflictResolution
    self.lockTimeout = lockTimeout
  }
}

/// A command line that cannot be understood (exit status 64, `EX_USAGE`).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, one sentence.
  public var message: String

  /// Creates an error.
  public init(_ message: String) { self.message = message }

  /// `error: message`.
  public var description: String { "error: \(message)" }
}

extension Command {
  /// The synopsis of `generate`, the start of both `usage` and `generateUsage`.
  static let generateSynopsis = """
    USAGE: modelgen generate <schema.graphql>... --output DIR [--templates DIR]
                             [--access LEVEL] [--emit swift,api-schema]
                             [--conflict-resolution STRATEGY] [--config FILE]
                             [--check] [--dry-run] [--lock-timeout SECONDS]
           modelgen generate <schema.graphql> --single-file FILE [--templates DIR]
                             [--access LEVEL] [--conflict-resolution STRATEGY]
                             [--config FILE]
    """

  /// The usage text printed by `modelgen help` and after usage errors.
  public static let usage = """
    \(generateSynopsis)
           modelgen validate <schema.graphql>... [--config FILE]
           modelgen help [generate|validate]
           modelgen --version

    generate  Writes Swift models for each schema. One schema: files go directly into DIR;
              several: into DIR/<schema-file-stem>/. Files are written only when their bytes
              change; stale files are removed only when DIR/.modelgen-manifest.json records
              them for the same schema and they still carry the modelgen header; a file it
              records for another schema is an error (MGC015); other files are never touched.
      --output DIR        The output directory (required).
      --templates DIR     Use the *.mustache files in DIR instead of the built-in templates
                          (missing ones fall back to the built-in ones). Every file must be
                          a template name (embedded, enum, header, model, registry, schema)
                          or a partial one of them includes.
      --access LEVEL      public (default), package or internal declarations.
      --emit KINDS        Comma-separated: swift (default), api-schema (schema.api.graphql + schema.local.json).
      --conflict-resolution STRATEGY
                          automerge, optimistic or lambda: a versioned data source for
                          DataStore sync (_version, _deleted, _lastChangedAt, sync<Plural>
                          queries, syncPluralName in each ModelSchema). Default: none.
      --check             Write nothing; exit 1 and name the command to run when DIR is stale.
      --dry-run           Write nothing; list the files that would change.
      --config FILE       Read --access, --emit, --templates and --conflict-resolution from a
                          modelgen-config.json (keys "access", "emit", "templates",
                          "conflictResolution"; templates relative to FILE), and "swiftNames":
                          {"Task": "TodoTask"} chooses a type's Swift name.
      --lock-timeout SECONDS
                          How long to wait for another modelgen run writing into the same
                          output directory (it holds DIR/.modelgen.lock); 0 fails at once.
                          Default 30. After it: error MGC017, nothing written.
      --single-file FILE  Instead of --output: write the Swift of the one schema joined into
                          FILE (for build systems that must name outputs in advance, such as
                          the ModelGenPlugin build tool plugin). Written only when it changes.
    validate  Reports every error of each schema without writing anything.
      --config FILE       Check the config file and judge the schema with its swiftNames, as
                          generate --config does.
    --version Prints the modelgen release and the LazyModel runtime version its code needs.

    Writing is all-or-nothing: every destination is checked first, each file is written to a
    temporary file beside it, and the files are renamed into place only when all were written.
    Files generated from another schema (named in their header) are never replaced or removed.
    A run that writes holds an advisory lock on each output directory (DIR/.modelgen.lock,
    deleted afterwards) from reading the directory until its last file is in place.

    EXIT STATUS: 0 success; 1 schema errors, stale output (--check) or output that cannot be
    written; 64 bad usage or an input (schema, --config, --templates) that cannot be read or used.
    """

  /// The usage of one command: `modelgen help generate`, `modelgen generate --help`.
  public static func usage(of topic: HelpTopic) -> String {
    switch topic {
    case .generate: return generateUsage
    case .validate: return validateUsage
    }
  }

  /// `modelgen help generate`: the synopsis and every option of `generate`.
  public static let generateUsage = """
    \(generateSynopsis)

    Writes Swift models for each schema. One schema: files go directly into DIR; several: into
    DIR/<schema-file-stem>/. Files are written only when their bytes change. The manifest
    DIR/.modelgen-manifest.json records the files written for each schema: a stale file is removed
    only when it records it for the same schema and it still carries the modelgen header; a file it
    records for another schema is an error (MGC015) and nothing is written; other files are never
    touched.
    Warnings (MGW codes) are printed and do not stop generation.

    OPTIONS:
      --output DIR        The output directory (required unless --single-file).
      --templates DIR     Use the *.mustache files in DIR instead of the built-in templates
                          (missing ones fall back to the built-in ones).
      --access LEVEL      public (default), package or internal declarations.
      --emit KINDS        Comma-separated: swift (default), api-schema (schema.api.graphql +
                          schema.local.json).
      --conflict-resolution STRATEGY
                          automerge, optimistic or lambda: a versioned data source for
                          DataStore sync. Default: none.
      --config FILE       Read access, emit, templates, conflictResolution and swiftNames
                          (GraphQL type name -> Swift type name) from a modelgen-config.json.
      --check             Write nothing; exit 1 and name the command to run when DIR is stale.
      --dry-run           Write nothing; list the files that would change.
      --lock-timeout SECONDS
                          Wait at most SECONDS (default 30; 0: not at all) for another run
                          writing into the same output directory (DIR/.modelgen.lock), then
                          fail with MGC017 and write nothing.
      --single-file FILE  Instead of --output: write the Swift of the one schema joined into FILE.
      -h, --help          Print this help.

    EXIT STATUS: 0 success; 1 schema errors, stale output (--check) or output that cannot be
    written; 64 bad usage or an input (schema, --config, --templates) that cannot be read or used.
    """

  /// `modelgen help validate`.
  public static let validateUsage = """
    USAGE: modelgen validate <schema.graphql>... [--config FILE]

    Reports every error and warning of each schema (path:line:col: error: message [CODE]) without
    writing anything.

    OPTIONS:
      --config FILE       Check a modelgen-config.json as generate --config reads it (errors at
                          the file's line and column) and analyse with its swiftNames, so the
                          schema is judged as generate would judge it.
      -h, --help          Print this help.

    EXIT STATUS: 0 every schema is valid (warnings allowed); 1 schema errors; 64 bad usage, a
    schema or config that cannot be read, or a config that cannot be used.
    """

  /// The one-line usage printed after every usage error, followed by `see modelgen --help`.
  public static let shortUsage =
    "usage: modelgen generate <schema.graphql>... --output DIR [options] | modelgen validate <schema.graphql>... [--config FILE]"

  /// Parses `arguments` (without the program name).
  ///
  /// - Throws: ``UsageError`` for an unknown command or option, a missing option value or schema,
  ///   a single-valued option given twice, an invalid `--access`/`--emit`/`--conflict-resolution`
  ///   value, a `--lock-timeout` that is not a number of seconds from 0 to 86400, `--check`
  ///   together with `--dry-run`, or an empty path (a schema, `--output`, `--templates`,
  ///   `--config`, `--single-file`).
  public static func parse(_ arguments: [String]) throws -> Command {
    guard let verb = arguments.first else {
      throw UsageError("missing command: expected 'generate' or 'validate'")
    }
    let rest = Array(arguments.dropFirst())
    switch verb {
    case "help", "--help", "-h":
      guard let topic = rest.first else { return .help }
      guard rest.count == 1, let command = HelpTopic(rawValue: topic) else {
        throw UsageError("unknown help topic '\(rest.joined(separator: " "))': expected 'generate' or 'validate'")
      }
      return .commandHelp(command)
    case "--version", "version":
      guard rest.isEmpty else { throw UsageError("'\(verb)' takes no arguments") }
      return .version
    case "validate":
      if rest.contains(where: { $0 == "--help" || $0 == "-h" }) { return .commandHelp(.validate) }
      var schemas: [String] = []
      var config: String?
      var index = rest.startIndex
      while index < rest.endIndex {
        let argument = rest[index]
        if argument == "--config" {
          guard config == nil else { throw UsageError("'--config' given twice") }
          guard index + 1 < rest.endIndex else { throw UsageError("missing value for '--config'") }
          config = rest[index + 1]
          index += 2
          continue
        }
        if argument.hasPrefix("-") { throw UsageError("unknown option '\(argument)' for 'validate'") }
        schemas.append(argument)
        index += 1
      }
      guard !schemas.isEmpty else {
        throw UsageError("missing schema: 'validate' needs at least one .graphql file")
      }
      try rejectEmptyPaths(schemas: schemas, options: [("--config", config)])
      return .validate(schemas: schemas, config: config)
    case "generate":
      if rest.contains(where: { $0 == "--help" || $0 == "-h" }) { return .commandHelp(.generate) }
      return .generate(try parseGenerate(rest))
    default:
      throw UsageError("unknown command '\(verb)': expected 'generate' or 'validate'")
    }
  }

  /// Throws for an empty schema path or an empty path option value: an empty string is most
  /// likely an unset shell variable (`--output "$OUT"`), and taking it as the current directory
  /// would write where nobody asked.
  fileprivate static func rejectEmptyPaths(schemas: [String], options: [(name: String, value: String?)]) throws {
    for (name, value) in options where value?.isEmpty == true {
      throw UsageError("empty path for '\(name)' (an unset shell variable?): give a file or directory path")
    }
    if schemas.contains("") {
      throw UsageError("empty schema path (an unset shell variable?): give a .graphql file path")
    }
  }

  private static func parseGenerate(_ arguments: [String]) throws -> GenerateOptions {
    var parsed = GenerateArguments()
    var index = 0
    while index < arguments.count {
      var argument = arguments[index]
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        inlineValue = String(argument[argument.index(after: equals)...])
        argument = String(argument[..<equals])
      }
      // The option's value: after `=`, or the next argument (not an option).
      func value() throws -> String {
        if let inlineValue { return inlineValue }
        index += 1
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
          throw UsageError("missing value for '\(argument)'")
        }
        return arguments[index]
      }
      try parsed.take(argument, value: value)
      index += 1
    }
    return try parsed.options()
  }
}

/// The `generate` arguments read so far, checked as they come (`take(_:value:)`) and together at
/// the end (`options()`).
private struct GenerateArguments {
  var schemas: [String] = []
  var output: String?
  var templates: String?
  var access = AccessLevel.public
  var emit: Set<EmitKind> = [.swift]
  var check = false
  var dryRun = false
  var singleFile: String?
  var config: String?
  var conflictResolution: ConflictResolution?
  var lockTimeout = GenerateOptions.defaultLockTimeout
  /// The options given that a config file's keys stand in for, in order (`--config` refuses them).
  var settingsGiven: [String] = []
  /// The options given that take a value (each once).
  var valuesGiven: Set<String> = []

  /// Reads one argument; `value` reads the option's value.
  mutating func take(_ argument: String, value: () throws -> String) throws {
    func optionValue() throws -> String {
      let canonical = argument == "-o" ? "--output" : argument
      guard !valuesGiven.contains(canonical) else {
        throw UsageError("'\(canonical)' given twice: it takes one value")
      }
      valuesGiven.insert(canonical)
      return try value()
    }
    switch argument {
    case "--output", "-o": output = try optionValue()
    case "--templates":
      templates = try optionValue()
      settingsGiven.append(argument)
    case "--config": config = try optionValue()
    case "--access":
      access = try Self.accessLevel(try optionValue())
      settingsGiven.append(argument)
    case "--emit":
      emit = try Self.emitKinds(try optionValue())
      settingsGiven.append(argument)
    case "--conflict-resolution":
      conflictResolution = try Self.conflictResolution(try optionValue())
      settingsGiven.append(argument)
    case "--lock-timeout": lockTimeout = try Self.lockTimeout(try optionValue())
    case "--check": check = true
    case "--dry-run": dryRun = true
    case "--single-file": singleFile = try optionValue()
    default:
      if argument.hasPrefix("-") {
        throw UsageError("unknown option '\(argument)' for 'generate'")
      }
      schemas.append(argument)
    }
  }

  private static func accessLevel(_ text: String) throws -> AccessLevel {
    guard let level = AccessLevel(rawValue: text) else {
      throw UsageError(
        "invalid value '\(text)' for '--access': expected 'public', 'package' or 'internal'")
    }
    return level
  }

  private static func emitKinds(_ text: String) throws -> Set<EmitKind> {
    var kinds: Set<EmitKind> = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let kind = EmitKind(rawValue: String(part)) else {
        throw UsageError(
          "invalid value '\(part)' for '--emit': expected 'swift' and/or 'api-schema'")
      }
      kinds.insert(kind)
    }
    return kinds
  }

  private static func conflictResolution(_ text: String) throws -> ConflictResolution {
    guard let strategy = ConflictResolution(rawValue: text) else {
      throw UsageError(
        "invalid value '\(text)' for '--conflict-resolution': expected 'automerge', 'optimistic' or 'lambda'"
      )
    }
    return strategy
  }

  private static func lockTimeout(_ text: String) throws -> Double {
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400,
      text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
    else {
      throw UsageError(
        "invalid value '\(text)' for '--lock-timeout': expected a number of seconds from 0 to 86400")
    }
    return seconds
  }

  /// The options, once every argument is read: the checks of the arguments together.
  func options() throws -> GenerateOptions {
    guard !schemas.isEmpty else {
      throw UsageError("missing schema: 'generate' needs at least one .graphql file")
    }
    try Command.rejectEmptyPaths(
      schemas: schemas,
      options: [("--output", output), ("--templates", templates), ("--config", config), ("--single-file", singleFile)])
    if config != nil, let setting = settingsGiven.first {
      throw UsageError(
        "'--config' and '\(setting)' cannot be used together: put the setting in the config file")
    }
    if let singleFile { return try singleFileOptions(singleFile) }
    guard let output else { throw UsageError("missing '--output DIR'") }
    if check && dryRun { throw UsageError("'--check' and '--dry-run' cannot be used together") }
    let stems = schemas.map(OutputPlanner.stem(of:))
    if schemas.count > 1,
      let duplicate = stems.first(where: { stem in stems.filter { $0 == stem }.count > 1 })
    {
      throw UsageError(
        "two schemas have the file stem '\(duplicate)': their output directories would collide")
    }
    return GenerateOptions(
      schemas: schemas, output: output, templates: templates, access: access, emit: emit,
      check: check, dryRun: dryRun,
      config: config, conflictResolution: conflictResolution, lockTimeout: lockTimeout)
  }

  /// `--single-file PATH`: one schema, Swift only, written beside nothing else.
  private func singleFileOptions(_ singleFile: String) throws -> GenerateOptions {
    guard schemas.count == 1 else {
      throw UsageError("'--single-file' takes exactly one schema, not \(schemas.count)")
    }
    guard output == nil else {
      throw UsageError("'--single-file' and '--output' cannot be used together")
    }
    guard emit == [.swift] else {
      throw UsageError("'--single-file' writes Swift only: leave out '--emit'")
    }
    guard !check && !dryRun else {
      throw UsageError("'--single-file' cannot be used with '--check' or '--dry-run'")
    }
    return GenerateOptions(
      schemas: schemas, output: PathText.parent(of: singleFile),
      templates: templates,
      access: access, singleFile: singleFile, config: config,
      conflictResolution: conflictResolution, lockTimeout: lockTimeout)
  }
}
