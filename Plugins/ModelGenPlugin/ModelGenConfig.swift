// Shared by the ModelGenPlugin and GenerateModels plugins (GenerateModels links this file).
// Plugins cannot depend on library targets, so this small helper lives here.
import Foundation

/// A target's `modelgen-config.json`, as the plugins see it.
///
/// The plugins do not interpret the settings: they pass the file to `modelgen generate --config`,
/// which reads and checks it every time it runs (keys `access`, `emit`, `templates`, `conflictResolution`, `swiftNames`; see
/// `ModelGenCLI.ConfigFile`). SwiftPM may reuse a build plan made before the file was edited
/// (it re-plans when files are added or removed, not when they change), so settings baked into
/// the command's arguments could be stale; the file itself is a declared input instead. The
/// plugins only look for the file and for the template files it names, which become inputs too.
enum ModelGenConfig {
  /// The file name looked up among a target's files.
  static let fileName = "modelgen-config.json"

  /// The target's config file, or `nil` when it has none.
  ///
  /// - Parameters:
  ///   - targetFiles: Every file SwiftPM lists for the target (it lists the config among them).
  ///   - targetName: The target's name, for messages.
  /// - Throws: ``ModelGenConfigError`` when the target holds more than one config file.
  static func find(in targetFiles: [URL], targetName: String) throws -> URL? {
    let files = targetFiles.filter { $0.lastPathComponent == fileName }.sorted { $0.path < $1.path }
    guard files.count <= 1 else {
      throw ModelGenConfigError(
        "target '\(targetName)' holds \(files.count) \(fileName) files (\(files.map(\.path).joined(separator: ", "))); keep one"
      )
    }
    return files.first
  }

  /// The regular files under the `templates` directory the config names (recursively, sorted),
  /// which a build depends on; empty when it names none.
  ///
  /// Lenient on purpose: a config that cannot be read yields no files here, and `modelgen`
  /// reports what is wrong with it when the build runs.
  static func templateFiles(named configFile: URL) -> [URL] {
    guard let data = try? Data(contentsOf: configFile),
      let settings = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
      let path = settings["templates"] as? String, !path.isEmpty
    else { return [] }
    let directory =
      path.hasPrefix("/")
      ? URL(fileURLWithPath: path)
      : configFile.deletingLastPathComponent().appendingPathComponent(path)
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory.standardizedFileURL, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var files: [URL] = []
    for case let url as URL in enumerator
    where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
      files.append(url.standardizedFileURL)
    }
    return files.sorted { $0.path < $1.path }
  }
}

/// A problem with where a target keeps its `modelgen-config.json`, described in one message.
struct ModelGenConfigError: Error, CustomStringConvertible {
  /// What is wrong and what was expected.
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
