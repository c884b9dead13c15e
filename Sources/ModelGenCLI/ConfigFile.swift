import Foundation
import GraphQLSDL
import ModelGen

/// The settings of a `modelgen-config.json` (`modelgen generate --config FILE`), the file the
/// ModelGenPlugin build tool plugin and the `generate-models` command plugin pass for a target.
///
/// The file holds one JSON object; every key is optional:
/// - `access`: `"public"`, `"package"` or `"internal"` (as `--access`; default `public`).
/// - `emit`: a non-empty array of `"swift"` and `"api-schema"` (as `--emit`; default `["swift"]`).
/// - `templates`: a directory of templates to use instead of the built-in ones, relative to the
///   directory holding the config file, or absolute (as `--templates`).
/// - `conflictResolution`: `"automerge"`, `"optimistic"` or `"lambda"` (as `--conflict-resolution`;
///   default none).
/// - `swiftNames`: an object from GraphQL type name to the Swift type name to generate for it
///   (`{"Task": "TodoTask"}`; README, "Swift names"). Each key must be a GraphQL name and each
///   value a Swift identifier that is no keyword and shadows no type of
///   `SwiftNames.shadowedTypeNames`; two values may not be equal ignoring letter case. The
///   schemas' checks (a key naming no type, a value colliding with another type's Swift name in
///   either order) are reported by `modelgen generate` and `validate` at the entry's key.
///
/// The file is strict JSON (RFC 8259, read by `ConfigJSON`: no comments, no trailing commas, no
/// key twice in one object) of at most ``maximumSize`` bytes. Every error has a stable code of
/// `ConfigDiagnosticCode` (`MGC001`…), a line and column, and a hint; all errors are reported, up
/// to ``maximumErrorCount``.
///
/// `modelgen` reads the file each time it runs (not the plugins while they plan the build), so an
/// edited config always takes effect on the next build.
public struct ConfigFile: Sendable, Equatable {
  /// The file name the plugins look for in a target.
  public static let fileName = "modelgen-config.json"
  /// Every key this version understands, in documentation order.
  public static let keys = ["access", "emit", "templates", "conflictResolution", "swiftNames"]

  /// `access`, or `nil` when the file leaves it out.
  public var access: AccessLevel?
  /// `emit`, or `nil` when the file leaves it out.
  public var emit: Set<EmitKind>?
  /// `templates` resolved against the config file's directory, or `nil`.
  public var templates: String?
  /// `conflictResolution`, or `nil` when the file leaves it out.
  public var conflictResolution: ConflictResolution?
  /// `swiftNames`: GraphQL type name → Swift type name; empty when the file leaves it out.
  public var swiftNames: [String: String]
  /// Where each `swiftNames` key that is a GraphQL name is written, for the errors the schemas
  /// find later: the entries of ``swiftNames`` and those whose value has an error (`MGC007`,
  /// `MGC010`, `MGC011`), whose key may still name no type (`MGC012`).
  public var swiftNamePositions: [String: ConfigPosition]
  /// Where the `emit` value is written, for an error found later (`MGC013`); `nil` without one.
  public var emitPosition: ConfigPosition?

  /// Creates settings.
  public init(
    access: AccessLevel? = nil, emit: Set<EmitKind>? = nil, templates: String? = nil,
    conflictResolution: ConflictResolution? = nil, swiftNames: [String: String] = [:],
    swiftNamePositions: [String: ConfigPosition] = [:]
  ) {
    self.access = access
    self.emit = emit
    self.templates = templates
    self.conflictResolution = conflictResolution
    self.swiftNames = swiftNames
    self.swiftNamePositions = swiftNamePositions
  }

  /// The largest config file `modelgen` reads: 1 MiB (1,048,576 bytes). A larger file is
  /// refused (`MGC002`) before a byte of it is parsed; a config is a few hundred bytes.
  public static let maximumSize = 1 << 20

  /// The most errors one config file reports; the next one is replaced by one `MGC099` and
  /// checking stops (the schema budget, `DiagnosticBudget.defaultLimit`).
  public static let maximumErrorCount = 200

  /// What reading a config file found: the settings that passed their checks and every error.
  ///
  /// `modelgen generate` and `validate` read a config this way, so both report the same errors:
  /// the file's own errors here, then the checks of ``ConfigFile/swiftNames`` against the schemas
  /// (`MGC010`–`MGC012`), all together in file order.
  public struct Reading: Sendable, Equatable {
    /// The settings whose values passed their checks; a key with an error is left at its
    /// default (`nil`, or no `swiftNames` entry).
    public var config: ConfigFile
    /// Every error found, in file order; `MGC099` last when ``isExhausted``.
    public var errors: [ConfigFileError]
    /// `true` when the file was read as one JSON object, so every member was checked. `false`
    /// after `MGC001` (unreadable), `MGC002` (too large), an `MGC003` syntax error that ends the
    /// reading (anything but a comment or a trailing comma, which are skipped) or `MGC005` (not an
    /// object): then no member is known, and neither are the settings the schemas are judged with.
    public var isContentKnown: Bool
    /// `true` when the error budget (``ConfigFile/maximumErrorCount``) ran out and checking stopped.
    public var isExhausted: Bool
    /// The config file as given (`--config`), or `nil` for a run without one.
    public var path: String?

    /// Creates a reading.
    public init(config: ConfigFile, errors: [ConfigFileError], isContentKnown: Bool, isExhausted: Bool = false) {
      self.config = config
      self.errors = errors
      self.isContentKnown = isContentKnown
      self.isExhausted = isExhausted
    }
  }

  /// Reads and checks the config file at `path`.
  ///
  /// - Throws: ``ConfigFileErrors`` when the file cannot be read (`MGC001`), is larger than
  ///   ``maximumSize`` (`MGC002`), or fails any check of ``parse(_:path:)``.
  public static func load(path: String) throws(ConfigFileErrors) -> ConfigFile {
    let reading = read(path: path)
    guard reading.errors.isEmpty else { throw ConfigFileErrors(reading.errors) }
    return reading.config
  }

  /// Reads and checks the config file at `path` without throwing: the settings that passed and
  /// every error (`MGC001` when the file cannot be read, `MGC002` when it is larger than
  /// ``maximumSize``, and those of ``check(_:path:)``).
  public static func read(path: String) -> Reading {
    var reading = readUnnamed(path: path)
    reading.path = path
    return reading
  }

  /// ``read(path:)`` before the reading is given its path.
  private static func readUnnamed(path: String) -> Reading {
    func unreadable(_ reason: String) -> Reading {
      Reading(
        config: ConfigFile(),
        errors: [
          ConfigFileError(
            path: path, code: ConfigDiagnosticCode.unreadableFile,
            message: "cannot read the config file: \(reason)",
            hint: "pass the path of a readable modelgen-config.json")
        ], isContentKnown: false)
    }
    if let problem = InputPath.problem(path, directory: false) { return unreadable(problem) }
    let bytes: [UInt8]
    do {
      bytes = try RegularFile.read(path, maximumSize: maximumSize)
    } catch .tooLarge(_, let size) {
      return Reading(config: ConfigFile(), errors: [tooLarge(path: path, size: size)], isContentKnown: false)
    } catch {
      return unreadable(error.reason)
    }
    return checkUnnamed(bytes, path: path)
  }

  /// Checks the bytes of a config file; `path` names it in errors and anchors `templates`.
  ///
  /// - Throws: ``ConfigFileErrors`` as ``load(path:)`` does.
  public static func parse(_ data: Data, path: String) throws(ConfigFileErrors) -> ConfigFile {
    try parse([UInt8](data), path: path)
  }

  /// Checks the bytes of a config file; `path` names it in errors and anchors `templates`.
  ///
  /// - Throws: ``ConfigFileErrors`` holding every error ``check(_:path:)`` finds.
  public static func parse(_ bytes: [UInt8], path: String) throws(ConfigFileErrors) -> ConfigFile {
    let reading = check(bytes, path: path)
    guard reading.errors.isEmpty else { throw ConfigFileErrors(reading.errors) }
    return reading.config
  }

  /// Checks the bytes of a config file; `path` names it in errors and anchors `templates`.
  ///
  /// Every problem is reported, in file order, up to ``maximumErrorCount`` (then `MGC099`): the
  /// file must be at most ``maximumSize`` bytes of strict JSON (RFC 8259: no comments, no trailing
  /// commas, no duplicate keys; `MGC002`–`MGC004`) holding one object (`MGC005`) of known keys
  /// (`MGC006`, with a `did you mean` hint) with values of the documented types (`MGC007`–`MGC011`).
  /// Comments, trailing commas and duplicate keys do not stop the checks: the members are still
  /// checked, each independently of the others. Any other syntax error ends the JSON reading
  /// (`ConfigJSON` returns no value, as `JSONSerialization` returns none for such a text), so no
  /// member is checked (``Reading/isContentKnown`` is `false`).
  public static func check(_ bytes: [UInt8], path: String) -> Reading {
    var reading = checkUnnamed(bytes, path: path)
    reading.path = path
    return reading
  }

  /// ``check(_:path:)`` before the reading is given its path.
  private static func checkUnnamed(_ bytes: [UInt8], path: String) -> Reading {
    var report = ConfigReport(path: path)
    guard bytes.count <= maximumSize else {
      return Reading(config: ConfigFile(), errors: [tooLarge(path: path, size: bytes.count)], isContentKnown: false)
    }
    let (node, syntaxErrors) = ConfigJSON.parse(bytes, capacity: maximumErrorCount + 1)
    for draft in syntaxErrors where !report.add(draft) { break }
    guard let node, !report.isExhausted else {
      return Reading(
        config: ConfigFile(), errors: report.errors, isContentKnown: false, isExhausted: report.isExhausted)
    }
    guard case .object(let members) = node.value else {
      report.add(
        code: ConfigDiagnosticCode.notAnObject,
        message: "the config file must hold one JSON object with the keys \(quoted(keys)), not \(node.value.kind)",
        at: node.position, hint: "write {\"access\": \"internal\"} or {} for the defaults")
      return Reading(config: ConfigFile(), errors: report.errors, isContentKnown: false)
    }
    var config = ConfigFile()
    members: for member in members {
      guard check(member, path: path, into: &config, report: &report) else { break }
      // A repeated key's later values (MGC004) are checked too, into a copy that is dropped:
      // the first value is the one kept.
      for repeated in member.repeats where keys.contains(member.key) {
        var discarded = config
        let again = ConfigJSON.Member(key: member.key, keyPosition: member.keyPosition, value: repeated)
        guard check(again, path: path, into: &discarded, report: &report) else { break members }
      }
    }
    // The recoverable syntax errors were found first; report everything in file order.
    let errors = report.errors.sortedInFileOrder()
    return Reading(config: config, errors: errors, isContentKnown: true, isExhausted: report.isExhausted)
  }

  /// `MGC002` for a file of `size` bytes.
  private static func tooLarge(path: String, size: Int) -> ConfigFileError {
    ConfigFileError(
      path: path, code: ConfigDiagnosticCode.fileTooLarge,
      message: "the config file is \(size) bytes, more than the limit of \(maximumSize) bytes (1 MiB); it was not read",
      hint: "a modelgen-config.json holds a few settings; check that the path names the right file")
  }

  /// Checks one top-level member; `false` once the error budget is spent.
  private static func check(
    _ member: ConfigJSON.Member, path: String, into config: inout ConfigFile, report: inout ConfigReport
  ) -> Bool {
    let value = member.value
    switch member.key {
    case "access": return checkAccess(value, into: &config, report: &report)
    case "emit": return checkEmit(value, into: &config, report: &report)
    case "templates": return checkTemplates(value, path: path, into: &config, report: &report)
    case "conflictResolution": return checkConflictResolution(value, into: &config, report: &report)
    case "swiftNames": return checkSwiftNames(value, into: &config, report: &report)
    default:
      let shown = SwiftNames.commentText(DiagnosticText.shortened(member.key))
      var message = "unknown key \"\(shown)\"; the keys are \(quoted(keys))"
      var hint = "remove it, or use one of the keys above"
      if let suggestion = closestKey(to: member.key) {
        message += " (did you mean \"\(suggestion)\"?)"
        hint = "did you mean \"\(suggestion)\"?"
      }
      return report.add(code: ConfigDiagnosticCode.unknownKey, message: message, at: member.keyPosition, hint: hint)
    }
  }

  /// `"access"`: one of ``AccessLevel``'s names.
  private static func checkAccess(
    _ value: ConfigJSON.Node, into config: inout ConfigFile, report: inout ConfigReport
  ) -> Bool {
    guard case .string(let text) = value.value, let access = AccessLevel(rawValue: text) else {
      var hint = "write \"access\": \"public\" (the default), \"package\" or \"internal\""
      if case .string(let text) = value.value,
        let suggestion = Naming.closest(to: text, among: AccessLevel.allCases.map(\.rawValue))
      {
        hint = "did you mean \"\(suggestion)\"?"
      }
      return report.add(
        code: ConfigDiagnosticCode.invalidValue, message: "\"access\" must be \"public\", \"package\" or \"internal\"",
        at: value.position, hint: hint)
    }
    config.access = access
    return true
  }

  /// `"emit"`: a non-empty array of ``EmitKind``'s names, each once.
  private static func checkEmit(
    _ value: ConfigJSON.Node, into config: inout ConfigFile, report: inout ConfigReport
  ) -> Bool {
    let expected = "\"emit\" must be a non-empty array of \(quoted(EmitKind.allCases.map(\.rawValue)))"
    let hint = "write \"emit\": [\"swift\"] or [\"swift\", \"api-schema\"]"
    guard case .array(let elements) = value.value, !elements.isEmpty else {
      return report.add(code: ConfigDiagnosticCode.invalidValue, message: expected, at: value.position, hint: hint)
    }
    var kinds: Set<EmitKind> = []
    for element in elements {
      guard case .string(let text) = element.value, let kind = EmitKind(rawValue: text) else {
        let shown: String
        if case .string(let text) = element.value {
          shown = "\"\(SwiftNames.commentText(DiagnosticText.shortened(text)))\""
        } else {
          shown = element.value.kind
        }
        return report.add(
          code: ConfigDiagnosticCode.invalidValue, message: "\(expected); \(shown) is not one of them",
          at: value.position, hint: hint)
      }
      guard kinds.insert(kind).inserted else {
        return report.add(
          code: ConfigDiagnosticCode.invalidValue, message: "\"emit\" names \"\(text)\" more than once",
          at: element.position, hint: "name each kind once: \"emit\": [\"swift\", \"api-schema\"]")
      }
    }
    config.emit = kinds
    config.emitPosition = value.position
    return true
  }

  /// `"templates"`: a directory, relative to the directory of the config file at `path`.
  private static func checkTemplates(
    _ value: ConfigJSON.Node, path: String, into config: inout ConfigFile, report: inout ConfigReport
  ) -> Bool {
    guard case .string(let text) = value.value, !text.isEmpty else {
      return report.add(
        code: ConfigDiagnosticCode.invalidValue,
        message: "\"templates\" must be a directory path, relative to the config file's directory",
        at: value.position, hint: "write \"templates\": \"templates\" for a templates directory beside the config file")
    }
    let directory = text.hasPrefix("/") ? text : PathText.appending(text, to: PathText.parent(of: path))
    let standardized = PathText.standardized(directory)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: standardized, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      return report.add(
        code: ConfigDiagnosticCode.templatesNotADirectory,
        message: "\"templates\" names \(SwiftNames.commentText(standardized)), which is not a directory",
        at: value.position,
        hint: "a relative path is resolved against the directory of the config file")
    }
    config.templates = standardized
    return true
  }

  /// `"conflictResolution"`: one of ``ConflictResolution``'s names.
  private static func checkConflictResolution(
    _ value: ConfigJSON.Node, into config: inout ConfigFile, report: inout ConfigReport
  ) -> Bool {
    let names = ConflictResolution.allCases.map(\.rawValue)
    guard case .string(let text) = value.value, let strategy = ConflictResolution(rawValue: text) else {
      var message = "\"conflictResolution\" must be one of \(quoted(names))"
      var hint = "leave the key out for no conflict resolution (no sync fields)"
      if case .string(let text) = value.value, let suggestion = Naming.closest(to: text, among: names) {
        message += " (did you mean \"\(suggestion)\"?)"
        hint = "did you mean \"\(suggestion)\"?"
      }
      return report.add(code: ConfigDiagnosticCode.invalidValue, message: message, at: value.position, hint: hint)
    }
    config.conflictResolution = strategy
    return true
  }

  /// Checks `swiftNames` and records its entries with their positions; `false` once the error
  /// budget is spent.
  private static func checkSwiftNames(
    _ value: ConfigJSON.Node, into config: inout ConfigFile, report: inout ConfigReport
  ) -> Bool {
    guard case .object(let entries) = value.value else {
      return report.add(
        code: ConfigDiagnosticCode.invalidValue,
        message: "\"swiftNames\" must be an object from GraphQL type name to Swift type name, not \(value.value.kind)",
        at: value.position, hint: "write \"swiftNames\": {\"Task\": \"TodoTask\"}")
    }
    var byFoldedName: [String: String] = [:]
    for entry in entries {
      let key = entry.key
      let shown = SwiftNames.commentText(DiagnosticText.shortened(key))
      guard isGraphQLName(key) else {
        guard
          report.add(
            code: ConfigDiagnosticCode.invalidSwiftNamesKey,
            message: "\"swiftNames\" key \"\(shown)\" is not a GraphQL type name",
            at: entry.keyPosition, hint: "a key is the name of a type in the schema (letters, digits and _)")
        else { return false }
        continue
      }
      // Every key that is a GraphQL name is checked against the schemas (MGC012), also when its
      // value has an error of its own: the two are independent.
      config.swiftNamePositions[key] = entry.keyPosition
      guard case .string(let name) = entry.value.value else {
        guard
          report.add(
            code: ConfigDiagnosticCode.invalidValue,
            message:
              "\"swiftNames\" value for \"\(shown)\" must be a string (the Swift type name), not \(entry.value.value.kind)",
            at: entry.value.position, hint: "write \"\(shown)\": \"\(shown)Model\"")
        else { return false }
        continue
      }
      if let problem = SwiftTypeNaming.declarabilityProblem(name) {
        guard
          report.add(
            code: ConfigDiagnosticCode.undeclarableSwiftName,
            message: "\"swiftNames\" value for \"\(shown)\": \(problem)",  // `problem` quotes the name escaped
            at: entry.value.position,
            hint: "choose a Swift identifier that is no keyword and shadows no standard type, such as \"\(shown)Model\""
          )
        else { return false }
        continue
      }
      if let other = byFoldedName[SwiftNames.fileSystemKey(name)] {
        let otherName = config.swiftNames[other] ?? ""
        guard
          report.add(
            code: ConfigDiagnosticCode.swiftNameCollision,
            message:
              "\"swiftNames\" gives \"\(shown)\" and \"\(SwiftNames.commentText(other))\" the Swift names \"\(SwiftNames.commentText(name))\" and \"\(SwiftNames.commentText(otherName))\", which are equal ignoring letter case and Unicode normalization (their files would collide on macOS)",
            at: entry.value.position, hint: "give each type its own Swift name")
        else { return false }
        continue
      }
      byFoldedName[SwiftNames.fileSystemKey(name)] = key
      config.swiftNames[key] = name
    }
    return true
  }

  /// `true` for a GraphQL *Name* (GraphQL spec October 2021, §2.1.9): `/[_A-Za-z][_0-9A-Za-z]*/`.
  static func isGraphQLName(_ text: String) -> Bool {
    guard let first = text.utf8.first else { return false }
    let isLetter = { (byte: UInt8) in
      byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }
    return isLetter(first)
      && text.utf8.allSatisfy { isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  /// `"a", "b", "c"`.
  private static func quoted(_ names: [String]) -> String {
    names.map { "\"\($0)\"" }.joined(separator: ", ")
  }

  /// The known key closest to `key` by edit distance, when it is at most 2 edits away.
  private static func closestKey(to key: String) -> String? {
    Naming.closest(to: key, among: keys)
  }
}

/// A 1-based line and column in a config file (columns count Unicode scalars).
public struct ConfigPosition: Sendable, Equatable {
  /// 1-based line.
  public var line: Int
  /// 1-based column.
  public var column: Int

  /// Creates a position.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }
}

/// One problem of a `modelgen-config.json`, printed as `path:line:col: error: message [MGC006]`
/// (`path: error: message [MGC001]` when it concerns the whole file), then `  hint: …`.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The config file as given.
  public var path: String
  /// The stable code, one of `ConfigDiagnosticCode` (`MGC006`).
  public var code: DiagnosticCode
  /// What is wrong and what was expected.
  public var message: String
  /// The 1-based line of the offending key or value, or `nil` for the whole file.
  public var line: Int?
  /// The 1-based column (Unicode scalars) of the offending key or value, or `nil`.
  public var column: Int?
  /// What to do about it: every config, input and output error has one (`hint` is required).
  public var hint: String

  /// Creates an error.
  public init(
    path: String, code: DiagnosticCode, message: String, line: Int? = nil, column: Int? = nil, hint: String
  ) {
    self.path = path
    self.code = code
    self.message = message
    self.line = line
    self.column = column
    self.hint = hint
  }

  /// `path:line:col: error: message [CODE]` (or `path: error: message [CODE]`), and a second line
  /// `  hint: …` when there is a hint.
  public var description: String {
    let location = line.flatMap { line in column.map { "\(path):\(line):\($0)" } } ?? path
    return "\(location): error: \(message) [\(code)]\n  hint: \(hint)"
  }

  /// An error before its file is named.
  struct Draft: Sendable, Equatable {
    var code: DiagnosticCode
    var message: String
    var position: ConfigPosition?
    var hint: String
  }
}

/// Every problem found in one config file (or in its `"swiftNames"` against the schemas), in file
/// order, at most ``ConfigFile/maximumErrorCount`` of them and then one `MGC099`. `modelgen`
/// prints each as a line (exit status 64).
public struct ConfigFileErrors: Error, Sendable, Equatable, CustomStringConvertible {
  /// The errors, `MGC099` last when the budget ran out.
  public var errors: [ConfigFileError]

  /// Creates the list.
  public init(_ errors: [ConfigFileError]) { self.errors = errors }

  /// The first error (there is always one when this is thrown).
  public var first: ConfigFileError? { errors.first }

  /// Every error's ``ConfigFileError/description``, one per line (no final line break).
  public var description: String { errors.map(\.description).joined(separator: "\n") }
}

extension [ConfigFileError] {
  /// The errors in file order (line, then column; errors about the whole file first), `MGC099`
  /// last; errors at one position keep their order.
  func sortedInFileOrder() -> [ConfigFileError] {
    enumerated().sorted { left, right in
      let l = left.element
      let r = right.element
      let lKey = (l.code == ConfigDiagnosticCode.tooManyErrors ? 1 : 0, l.line ?? 0, l.column ?? 0, left.offset)
      let rKey = (r.code == ConfigDiagnosticCode.tooManyErrors ? 1 : 0, r.line ?? 0, r.column ?? 0, right.offset)
      return lKey < rKey
    }.map(\.element)
  }
}

/// The errors of one config file and its budget: ``ConfigFile/maximumErrorCount`` are kept, the
/// next becomes one `MGC099` and every later one is dropped.
struct ConfigReport {
  let path: String
  private(set) var errors: [ConfigFileError] = []
  private(set) var isExhausted = false
  private var counted = 0

  init(path: String) { self.path = path }

  /// Adds `draft`; `false` once the budget is spent (stop checking).
  @discardableResult
  mutating func add(_ draft: ConfigFileError.Draft) -> Bool {
    if isExhausted { return false }
    if counted == ConfigFile.maximumErrorCount {
      isExhausted = true
      errors.append(
        ConfigFileError(
          path: path, code: ConfigDiagnosticCode.tooManyErrors,
          message: "too many errors; stopped after \(ConfigFile.maximumErrorCount)",
          line: draft.position?.line, column: draft.position?.column,
          hint: "fix the errors above and run again"))
      return false
    }
    counted += 1
    errors.append(
      ConfigFileError(
        path: path, code: draft.code, message: draft.message, line: draft.position?.line,
        column: draft.position?.column, hint: draft.hint))
    return true
  }

  /// Adds an error; `false` once the budget is spent.
  @discardableResult
  mutating func add(code: DiagnosticCode, message: String, at position: ConfigPosition?, hint: String) -> Bool {
    add(ConfigFileError.Draft(code: code, message: message, position: position, hint: hint))
  }

  /// The errors as thrown.
  var failure: ConfigFileErrors { ConfigFileErrors(errors) }
}
