// Shared by the ModelGenPlugin and GenerateModels plugins (GenerateModels links this file).
// Plugins cannot depend on library targets, so the one reader of modelgen-config.json lives here.
import Foundation

/// The settings a target keeps in `modelgen-config.json`, one file anywhere in the target
/// (usually next to its schema files).
///
/// Every key is optional; a missing file means "all defaults" (the CLI's defaults). Keys:
/// - `access`: `"public"` or `"internal"`, the access modifier of the generated declarations
///   (`modelgen generate --access`).
/// - `emit`: a non-empty array of `"swift"` and `"api-schema"`, the outputs to write
///   (`modelgen generate --emit`).
/// - `templates`: a directory of templates to render instead of the built-in ones, relative to the
///   directory holding the config file (`modelgen generate --templates`).
///
/// Any other key, a wrong value type, or a `templates` directory that does not exist is a
/// ``ModelGenConfigError`` naming the file, the key and what was expected.
struct ModelGenConfig: Equatable {
  /// The access modifier of generated declarations.
  enum Access: String, CaseIterable {
    case `public`
    case `internal`
  }

  /// One kind of output `modelgen generate` can write.
  enum Output: String, CaseIterable {
    case swift
    case apiSchema = "api-schema"
  }

  /// The file name looked up in a target's directory.
  static let fileName = "modelgen-config.json"

  /// The keys this version understands, in documentation order.
  static let keys = ["access", "emit", "templates"]

  /// `access`, or `nil` for the CLI default.
  var access: Access?
  /// `emit`, or `nil` for the CLI default (Swift only).
  var emit: [Output]?
  /// `templates` as an absolute directory URL, or `nil` for the built-in templates.
  var templates: URL?

  /// The file these settings were read from, or `nil` when the target has no config file.
  var file: URL?

  /// The `modelgen generate` options these settings stand for, in a fixed order
  /// (`--access`, `--emit`, `--templates`); empty for defaults.
  var generateArguments: [String] {
    var arguments: [String] = []
    if let access { arguments += ["--access", access.rawValue] }
    if let emit { arguments += ["--emit", emit.map(\.rawValue).joined(separator: ",")] }
    if let templates { arguments += ["--templates", templates.path] }
    return arguments
  }

  /// Whether Swift code is among the outputs (the default).
  var emitsSwift: Bool { emit?.contains(.swift) ?? true }

  /// Reads the target's `modelgen-config.json`, or returns the defaults when it has none.
  ///
  /// - Parameters:
  ///   - targetFiles: Every file of the target (SwiftPM lists the config among them).
  ///   - targetName: The target's name, for messages.
  /// - Throws: ``ModelGenConfigError`` when the target holds more than one config file, or when the
  ///   file is not a JSON object, has an unknown key or a value of the wrong type, or names a
  ///   templates directory that does not exist.
  static func load(targetFiles: [URL], targetName: String) throws -> ModelGenConfig {
    let files = targetFiles.filter { $0.lastPathComponent == fileName }.sorted { $0.path < $1.path }
    guard let file = files.first else { return ModelGenConfig() }
    guard files.count == 1 else {
      throw ModelGenConfigError(
        file: files[1],
        problem: "target '\(targetName)' holds \(files.count) \(fileName) files (also \(file.path)); keep one")
    }
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw ModelGenConfigError(file: file, problem: "cannot read the file: \(error.localizedDescription)")
    }
    return try parse(data, file: file)
  }

  /// Parses the bytes of a config file; `file` is used for messages and to resolve `templates`.
  static func parse(_ data: Data, file: URL) throws -> ModelGenConfig {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw ModelGenConfigError(file: file, problem: "the file is not valid JSON (\(error.localizedDescription))")
    }
    guard let settings = object as? [String: Any] else {
      throw ModelGenConfigError(
        file: file, problem: "the file must hold one JSON object with the keys \(quotedList(keys))")
    }
    var config = ModelGenConfig(file: file)
    for key in settings.keys.sorted() {
      let value = settings[key]!
      switch key {
      case "access":
        guard let text = value as? String, let access = Access(rawValue: text) else {
          throw ModelGenConfigError(
            file: file, problem: "\"access\" must be \(quotedList(Access.allCases.map(\.rawValue), or: true))")
        }
        config.access = access
      case "emit":
        let expected = "\"emit\" must be a non-empty array of \(quotedList(Output.allCases.map(\.rawValue)))"
        guard let texts = value as? [String], !texts.isEmpty else {
          throw ModelGenConfigError(file: file, problem: expected)
        }
        var outputs: [Output] = []
        for text in texts {
          guard let output = Output(rawValue: text) else {
            throw ModelGenConfigError(file: file, problem: "\(expected); \"\(text)\" is not one of them")
          }
          if !outputs.contains(output) { outputs.append(output) }
        }
        config.emit = outputs
      case "templates":
        guard let path = value as? String, !path.isEmpty else {
          throw ModelGenConfigError(
            file: file, problem: "\"templates\" must be a directory path (relative to the config file's directory)")
        }
        let directory =
          path.hasPrefix("/")
          ? URL(fileURLWithPath: path)
          : file.deletingLastPathComponent().appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
          isDirectory.boolValue
        else {
          throw ModelGenConfigError(
            file: file, problem: "\"templates\" names \(directory.standardizedFileURL.path), which is not a directory")
        }
        config.templates = directory.standardizedFileURL
      default:
        var problem = "unknown key \"\(key)\"; the keys are \(quotedList(keys))"
        if let suggestion = closestKey(to: key) { problem += " (did you mean \"\(suggestion)\"?)" }
        throw ModelGenConfigError(file: file, problem: problem)
      }
    }
    return config
  }

  /// The files under the templates directory (recursively, sorted), which a build depends on.
  func templateFiles() -> [URL] {
    guard let templates else { return [] }
    guard
      let enumerator = FileManager.default.enumerator(
        at: templates, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var files: [URL] = []
    for case let url as URL in enumerator {
      if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
        files.append(url.standardizedFileURL)
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  /// `"a", "b", "c"` (or `"a" or "b"`).
  private static func quotedList(_ names: [String], or: Bool = false) -> String {
    let quoted = names.map { "\"\($0)\"" }
    guard or, quoted.count > 1 else { return quoted.joined(separator: ", ") }
    return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
  }

  /// The known key within edit distance 2 of `key`, if exactly one is closest.
  private static func closestKey(to key: String) -> String? {
    let scored = keys.map { ($0, editDistance(key.lowercased(), $0)) }.filter { $0.1 <= 2 }
    return scored.min { $0.1 < $1.1 }?.0
  }

  /// Levenshtein distance between two strings, by characters.
  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...max(b.count, 1) where !b.isEmpty {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}

/// A problem with a `modelgen-config.json`: the file and what is wrong, printed as
/// `path: problem` (SwiftPM puts `error: ` in front).
struct ModelGenConfigError: Error, CustomStringConvertible {
  /// The config file.
  var file: URL
  /// What is wrong, as a sentence fragment following the file name.
  var problem: String

  var description: String { "\(file.path): \(problem)" }
}
