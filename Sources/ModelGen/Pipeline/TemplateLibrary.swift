import Foundation

/// The templates a generator renders: the defaults compiled into `ModelGen` from `Templates/`, or a
/// user's copies (`--templates DIR`).
public enum TemplateLibrary {
  /// The names of the templates the generator renders or includes, without `.mustache`.
  public static let names = ["embedded", "enum", "header", "model", "registry", "schema"]

  /// The default template sources by name, as compiled in from `Templates/*.mustache`.
  public static var defaultSources: [String: String] {
    [
      "embedded": String(decoding: PackageResources.embedded_mustache, as: UTF8.self),
      "enum": String(decoding: PackageResources.enum_mustache, as: UTF8.self),
      "header": String(decoding: PackageResources.header_mustache, as: UTF8.self),
      "model": String(decoding: PackageResources.model_mustache, as: UTF8.self),
      "registry": String(decoding: PackageResources.registry_mustache, as: UTF8.self),
      "schema": String(decoding: PackageResources.schema_mustache, as: UTF8.self),
    ]
  }

  /// The compiled default templates.
  ///
  /// - Throws: `TemplateError` only if a default template is broken (a build defect; tests cover it).
  public static func defaults() throws -> TemplateSet {
    try TemplateSet(sources: defaultSources)
  }

  /// The templates of `directory`: every `*.mustache` file there replaces the default of the same
  /// name; names the directory lacks keep their default. Files not ending in `.mustache` are
  /// ignored. A `*.mustache` file must be one of ``names`` or a partial that a template of the
  /// resulting set includes (`{{> name}}`); any other name is most likely a typo that would
  /// silently be ignored, so it is an error.
  ///
  /// - Parameter directory: A directory URL (`--templates DIR`).
  /// - Throws: ``TemplateLibraryError`` when the directory cannot be read, a file is not UTF-8, or
  ///   a file's name is not a template name (``TemplateLibraryError/unknownTemplate(path:suggestion:)``,
  ///   with the closest known name); `TemplateError` naming the file, the line and column of the
  ///   tag and a hint when a template does not compile (`modelgen` prints it as `MGC029`).
  public static func load(directory: URL) throws -> TemplateSet {
    let contents: [String]
    do {
      contents = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw TemplateLibraryError.unreadableDirectory(
        path: directory.path, reason: "\(error.localizedDescription)")
    }
    var sources = defaultSources
    var added: [(name: String, path: String)] = []
    for file in contents.sorted() where file.hasSuffix(".mustache") {
      let url = directory.appendingPathComponent(file)
      // A regular file only: a FIFO named `model.mustache` must not block the run.
      let bytes: [UInt8]
      do {
        bytes = try RegularFile.read(url.path)
      } catch {
        throw TemplateLibraryError.unusableFile(path: url.path, reason: error.reason)
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw TemplateLibraryError.unreadableFile(path: url.path)
      }
      let name = String(file.dropLast(".mustache".count))
      if !names.contains(name) { added.append((name, url.path)) }
      sources[name] = text
    }
    let set = try TemplateSet(sources: sources)
    let included = Set(set.templates.values.flatMap { TemplateSet.partialTags($0.nodes).map(\.name) })
    if let unknown = added.first(where: { !included.contains($0.name) }) {
      throw TemplateLibraryError.unknownTemplate(
        path: unknown.path, suggestion: closestName(to: unknown.name))
    }
    return set
  }

  /// The template name closest to `name` by edit distance, when at most 2 edits away.
  static func closestName(to name: String) -> String? {
    Naming.closest(to: name, among: names)
  }
}

/// A templates directory that cannot be used.
public enum TemplateLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The directory does not exist or cannot be listed.
  case unreadableDirectory(path: String, reason: String)
  /// A template file cannot be read as UTF-8 text.
  case unreadableFile(path: String)
  /// A template file that is not a regular file (a FIFO, device, socket) or cannot be opened;
  /// `reason` in words (``RegularFileError/reason``).
  case unusableFile(path: String, reason: String)
  /// A `*.mustache` file whose name is neither a template the generator renders or includes
  /// (``TemplateLibrary/names``) nor a partial another template includes; `suggestion` is the
  /// closest template name, if one is close.
  case unknownTemplate(path: String, suggestion: String?)

  /// The directory or file the error is about.
  public var path: String {
    switch self {
    case .unreadableDirectory(let path, _), .unreadableFile(let path), .unusableFile(let path, _),
      .unknownTemplate(let path, _):
      path
    }
  }

  /// What is wrong, without the path (`modelgen` prints it as `PATH: error: MESSAGE [MGC028]`).
  public var message: String {
    switch self {
    case .unreadableDirectory(_, let reason): "cannot read the templates directory: \(reason)"
    case .unreadableFile: "cannot read the template as UTF-8 text"
    case .unusableFile(_, let reason): "cannot read the template: \(reason)"
    case .unknownTemplate(let path, _):
      "unknown template: '\(path.split(separator: "/").last.map(String.init) ?? path)' is not a template name, and no "
        + "template includes it as a partial"
    }
  }

  /// What to do about it.
  public var hint: String {
    switch self {
    case .unreadableDirectory:
      "pass a readable directory of `.mustache` templates (`--templates DIR`, or \"templates\" in "
        + "modelgen-config.json), or leave it out for the built-in templates"
    case .unreadableFile: "save the template as UTF-8 text"
    case .unusableFile: "put a regular file there, or remove it (the built-in template of that name is used then)"
    case .unknownTemplate(_, let suggestion?): "did you mean '\(suggestion).mustache'?"
    case .unknownTemplate(_, nil):
      "name it after a template ("
        + TemplateLibrary.names.map { "\($0).mustache" }.joined(separator: ", ")
        + "), or include it from one as a partial (`{{> name}}`)"
    }
  }

  /// A one-line message.
  public var description: String {
    switch self {
    case .unreadableDirectory(let path, let reason):
      return "cannot read templates directory \(path): \(reason)"
    case .unreadableFile(let path): return "cannot read template \(path) as UTF-8 text"
    case .unusableFile(let path, let reason): return "cannot read template \(path): \(reason)"
    case .unknownTemplate(let path, let suggestion):
      let name = path.split(separator: "/").last.map(String.init) ?? path
      let hint = suggestion.map { " (did you mean '\($0).mustache'?)" } ?? ""
      return "unknown template \(path)\(hint); '\(name)' is not a template name, and no template "
        + "includes it as a partial. The templates are: "
        + TemplateLibrary.names.map { "\($0).mustache" }.joined(separator: ", ")
    }
  }
}
