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
  /// - Throws: ``TemplateError`` only if a default template is broken (a build defect; tests cover it).
  public static func defaults() throws -> TemplateSet {
    try TemplateSet(sources: defaultSources)
  }

  /// The templates of `directory`: every `*.mustache` file there replaces the default of the same
  /// name; names the directory lacks keep their default. Other files are ignored.
  ///
  /// - Parameter directory: A directory URL (`--templates DIR`).
  /// - Throws: ``TemplateLibraryError`` when the directory cannot be read or a file is not UTF-8;
  ///   ``TemplateError`` naming the file and line when a template does not compile.
  public static func load(directory: URL) throws -> TemplateSet {
    let contents: [String]
    do {
      contents = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw TemplateLibraryError.unreadableDirectory(
        path: directory.path, reason: "\(error.localizedDescription)")
    }
    var sources = defaultSources
    for file in contents.sorted() where file.hasSuffix(".mustache") {
      let url = directory.appendingPathComponent(file)
      guard let data = FileManager.default.contents(atPath: url.path),
        let text = String(data: data, encoding: .utf8)
      else {
        throw TemplateLibraryError.unreadableFile(path: url.path)
      }
      sources[String(file.dropLast(".mustache".count))] = text
    }
    return try TemplateSet(sources: sources)
  }
}

/// A templates directory that cannot be used.
public enum TemplateLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The directory does not exist or cannot be listed.
  case unreadableDirectory(path: String, reason: String)
  /// A template file cannot be read as UTF-8 text.
  case unreadableFile(path: String)

  /// A one-line message.
  public var description: String {
    switch self {
    case .unreadableDirectory(let path, let reason):
      return "cannot read templates directory \(path): \(reason)"
    case .unreadableFile(let path): return "cannot read template \(path) as UTF-8 text"
    }
  }
}
