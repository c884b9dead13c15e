import Foundation
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
///   schemas' checks (a key naming no type, a value colliding with another type's Swift name)
///   are reported by `modelgen generate` at the entry's position.
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
  /// Where each `swiftNames` entry is written (its key), for errors the schemas find later.
  public var swiftNamePositions: [String: ConfigPosition]

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

  /// Reads and checks the config file at `path`.
  ///
  /// - Throws: ``ConfigFileError`` when the file cannot be read, is not one JSON object, has a key
  ///   other than ``keys`` (with a `did you mean` suggestion when one is close), a value of the
  ///   wrong type, or a `templates` entry that is not a directory.
  public static func load(path: String) throws -> ConfigFile {
    if let problem = InputPath.problem(path, directory: false) {
      throw ConfigFileError(path: path, message: "cannot read the config file: \(problem)")
    }
    let bytes: [UInt8]
    do {
      bytes = try RegularFile.read(path)
    } catch {
      throw ConfigFileError(path: path, message: "cannot read the config file: \(error.reason)")
    }
    return try parse(Data(bytes), path: path)
  }

  /// Checks the bytes of a config file; `path` names it in errors and anchors `templates`.
  ///
  /// - Throws: ``ConfigFileError`` as ``load(path:)`` does.
  public static func parse(_ data: Data, path: String) throws -> ConfigFile {
    // The member being read: its errors point at its value (an unknown key at the key itself).
    var member: JSONPositions.Member?
    func fail(_ message: String, atKey: Bool = false) -> ConfigFileError {
      let position = atKey ? member?.key : member?.value
      return ConfigFileError(path: path, message: message, line: position?.line, column: position?.column)
    }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw fail("the config file is not valid JSON")
    }
    guard let settings = object as? [String: Any] else {
      throw fail("the config file must hold one JSON object with the keys \(quoted(keys))")
    }
    var config = ConfigFile()
    let positions = JSONPositions.topLevelMembers(in: [UInt8](data))
    for key in settings.keys.sorted() {
      let value = settings[key]!
      member = positions[key]
      switch key {
      case "access":
        guard let text = value as? String, let access = AccessLevel(rawValue: text) else {
          throw fail("\"access\" must be \"public\", \"package\" or \"internal\"")
        }
        config.access = access
      case "emit":
        let expected =
          "\"emit\" must be a non-empty array of \(quoted(EmitKind.allCases.map(\.rawValue)))"
        guard let texts = value as? [String], !texts.isEmpty else { throw fail(expected) }
        var kinds: Set<EmitKind> = []
        for text in texts {
          guard let kind = EmitKind(rawValue: text) else {
            throw fail("\(expected); \"\(text)\" is not one of them")
          }
          kinds.insert(kind)
        }
        config.emit = kinds
      case "templates":
        guard let text = value as? String, !text.isEmpty else {
          throw fail(
            "\"templates\" must be a directory path, relative to the config file's directory")
        }
        let directory =
          text.hasPrefix("/")
          ? text
          : PathText.appending(text, to: PathText.parent(of: path))
        let standardized = PathText.standardized(directory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: standardized, isDirectory: &isDirectory),
          isDirectory.boolValue
        else {
          throw fail("\"templates\" names \(standardized), which is not a directory")
        }
        config.templates = standardized
      case "conflictResolution":
        guard let text = value as? String, let strategy = ConflictResolution(rawValue: text) else {
          var message =
            "\"conflictResolution\" must be one of \(quoted(ConflictResolution.allCases.map(\.rawValue)))"
          if let text = value as? String,
            let suggestion = Naming.closest(to: text, among: ConflictResolution.allCases.map(\.rawValue))
          {
            message += " (did you mean \"\(suggestion)\"?)"
          }
          throw fail(message)
        }
        config.conflictResolution = strategy
      case "swiftNames":
        try parseSwiftNames(value, data: data, path: path, into: &config)
      default:
        var message = "unknown key \"\(key)\"; the keys are \(quoted(keys))"
        if let suggestion = closestKey(to: key) { message += " (did you mean \"\(suggestion)\"?)" }
        throw fail(message, atKey: true)
      }
    }
    return config
  }

  /// Checks `swiftNames` and records its entries with their positions.
  private static func parseSwiftNames(_ value: Any, data: Data, path: String, into config: inout ConfigFile) throws {
    let members = JSONPositions.members(ofTopLevelObject: "swiftNames", in: [UInt8](data))
    func fail(_ message: String, at position: JSONPositions.Position?) -> ConfigFileError {
      ConfigFileError(path: path, message: message, line: position?.line, column: position?.column)
    }
    guard let entries = value as? [String: Any] else {
      throw fail(
        "\"swiftNames\" must be an object from GraphQL type name to Swift type name ({\"Task\": \"TodoTask\"})",
        at: nil)
    }
    var byFoldedName: [String: String] = [:]
    for key in entries.keys.sorted() {
      let member = members[key]
      let shown = SwiftNames.commentText(key)
      guard isGraphQLName(key) else {
        throw fail("\"swiftNames\" key \"\(shown)\" is not a GraphQL type name", at: member?.key)
      }
      guard let name = entries[key] as? String else {
        throw fail("\"swiftNames\" value for \"\(shown)\" must be a string (the Swift type name)", at: member?.value)
      }
      if let problem = SwiftTypeNaming.declarabilityProblem(name) {
        throw fail("\"swiftNames\" value for \"\(shown)\": \(SwiftNames.commentText(problem))", at: member?.value)
      }
      if let other = byFoldedName[name.lowercased()] {
        throw fail(
          "\"swiftNames\" gives \"\(shown)\" and \"\(SwiftNames.commentText(other))\" the Swift names \"\(SwiftNames.commentText(name))\" and \"\(SwiftNames.commentText(entries[other] as? String ?? ""))\", which are equal ignoring letter case (their files would collide)",
          at: member?.value)
      }
      byFoldedName[name.lowercased()] = key
      config.swiftNames[key] = name
      if let member {
        config.swiftNamePositions[key] = ConfigPosition(line: member.key.line, column: member.key.column)
      }
    }
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

/// A `modelgen-config.json` that cannot be used, printed as `path: error: message`, or
/// `path:line:col: error: message` when the error has a position (exit status 64).
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The config file as given.
  public var path: String
  /// What is wrong and what was expected.
  public var message: String
  /// The 1-based line of the offending entry, or `nil` for the whole file.
  public var line: Int?
  /// The 1-based column (Unicode scalars) of the offending entry, or `nil`.
  public var column: Int?

  /// Creates an error.
  public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
    self.path = path
    self.message = message
    self.line = line
    self.column = column
  }

  /// `path: error: message` or `path:line:col: error: message`.
  public var description: String {
    if let line, let column { return "\(path):\(line):\(column): error: \(message)" }
    return "\(path): error: \(message)"
  }
}
