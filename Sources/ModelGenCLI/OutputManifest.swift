import Foundation

/// The record `modelgen generate` keeps in each output directory of the files it wrote there, per
/// schema: `.modelgen-manifest.json`.
///
/// The stale-file pass deletes only files the manifest lists for the same schema (and that still
/// carry the modelgen header), so a second schema generated into the same directory never deletes
/// the first's files, and a file the manifest lists for another schema is a collision
/// (`MGC015`, ``OutputError/collision(path:schema:otherSchema:)``) instead of being replaced.
///
/// A schema is named by its path relative to the output directory, with `.` and `..` resolved
/// lexically (symbolic links are not resolved): `../../Schemas/seed-post-comment.graphql` for
/// `Generated/seed-post-comment`, whatever the current directory of the run. File names are plain
/// names directly inside the directory.
///
/// The text is deterministic (entries sorted by schema path, files by name, byte for byte in
/// UTF-8; two-space indentation, LF, one final newline), so it is checked in beside the generated
/// files it lists and `generate --check` reports it when it is stale. Pure values: `Sendable`.
public struct OutputManifest: Sendable, Equatable {
  /// The manifest's file name in an output directory.
  public static let fileName = ".modelgen-manifest.json"
  /// The `"manifestVersion"` this version writes and reads.
  public static let formatVersion = 1

  /// The files written for one schema.
  public struct Entry: Sendable, Equatable {
    /// The schema's path relative to the output directory.
    public var schema: String
    /// The file names, sorted byte for byte.
    public var files: [String]

    /// An entry; `files` are sorted and deduplicated.
    public init(schema: String, files: [String]) {
      self.schema = schema
      self.files = OutputManifest.sortedUnique(files)
    }
  }

  /// The entries, sorted by schema path byte for byte; one per schema.
  public private(set) var entries: [Entry]

  /// A manifest of `entries` (sorted; a later entry for the same schema replaces an earlier one).
  public init(entries: [Entry] = []) {
    var bySchema: [[UInt8]: Entry] = [:]
    for entry in entries { bySchema[Array(entry.schema.utf8)] = entry }
    self.entries = bySchema.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
  }

  /// The files recorded for `schema`, or `nil` when the manifest has no entry for it.
  public func files(of schema: String) -> [String]? {
    entries.first { Self.same($0.schema, schema) }?.files
  }

  /// The schema (other than `excluding`) whose entry lists the file `name`, if any.
  public func owner(of name: String, excluding schema: String) -> String? {
    entries.first { entry in
      !Self.same(entry.schema, schema) && entry.files.contains { Self.same($0, name) }
    }?.schema
  }

  /// This manifest with `schema`'s entry replaced by `files` (added when it had none).
  public func replacing(_ schema: String, files: [String]) -> OutputManifest {
    OutputManifest(entries: entries + [Entry(schema: schema, files: files)])
  }

  /// The manifest's text, as written to ``fileName``.
  public var text: String {
    var lines = [
      "{",
      "  \"about\": \"Written by modelgen generate: the files it wrote into this directory, per schema. Do not edit.\",",
      "  \"manifestVersion\": \(Self.formatVersion),",
    ]
    if entries.isEmpty {
      lines.append("  \"outputs\": []")
    } else {
      lines.append("  \"outputs\": [")
      for (index, entry) in entries.enumerated() {
        lines.append("    {")
        lines.append("      \"schema\": \(Self.quoted(entry.schema)),")
        if entry.files.isEmpty {
          lines.append("      \"files\": []")
        } else {
          lines.append("      \"files\": [")
          for (fileIndex, file) in entry.files.enumerated() {
            lines.append("        \(Self.quoted(file))" + (fileIndex == entry.files.count - 1 ? "" : ","))
          }
          lines.append("      ]")
        }
        lines.append("    }" + (index == entries.count - 1 ? "" : ","))
      }
      lines.append("  ]")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Why a manifest's bytes are not a manifest this version reads.
  public struct ParseError: Error, Sendable, Equatable {
    /// In words (`"manifestVersion" is 2; this modelgen reads version 1`).
    public var reason: String
  }

  private struct Raw: Decodable {
    struct Output: Decodable {
      var schema: String
      var files: [String]
    }
    var manifestVersion: Int
    var outputs: [Output]
  }

  /// The version alone: read first, so that a manifest of another version (whose other keys may
  /// differ) is named by its version rather than called "not a modelgen manifest".
  private struct Versioned: Decodable {
    var manifestVersion: Int
  }

  /// Reads a manifest's bytes.
  ///
  /// - Throws: ``ParseError`` when `data` is not JSON of the manifest's shape, names another
  ///   `manifestVersion`, or lists a file name that is not a plain name in the directory (empty,
  ///   `.`, `..`, containing `/` or NUL, or the manifest itself): a manifest never makes
  ///   `modelgen` delete a file outside its directory.
  public init(parsing data: Data) throws(ParseError) {
    if let versioned = try? JSONDecoder().decode(Versioned.self, from: data),
      versioned.manifestVersion != Self.formatVersion
    {
      throw ParseError(
        reason: "\"manifestVersion\" is \(versioned.manifestVersion); this modelgen reads version \(Self.formatVersion)"
      )
    }
    let raw: Raw
    do {
      raw = try JSONDecoder().decode(Raw.self, from: data)
    } catch {
      throw ParseError(
        reason: "it is not a modelgen manifest (a JSON object with \"manifestVersion\" and \"outputs\")")
    }
    for output in raw.outputs {
      for file in output.files where !Self.isPlainName(file) {
        throw ParseError(reason: "it lists \(Self.quoted(file)), which is not a file name in this directory")
      }
    }
    self.init(entries: raw.outputs.map { Entry(schema: $0.schema, files: $0.files) })
  }

  /// `schema`'s path relative to `directory`, both taken relative to `currentDirectory` when they
  /// are relative and standardized lexically (`Schemas/a.graphql` from `Generated/a` is
  /// `../../Schemas/a.graphql`). Pure.
  public static func schemaPath(_ schema: String, relativeTo directory: String, currentDirectory: String)
    -> String
  {
    func absolute(_ path: String) -> [Substring] {
      let joined = path.hasPrefix("/") ? path : PathText.appending(path, to: currentDirectory)
      return PathText.standardized(joined.isEmpty ? "." : joined).split(separator: "/")
    }
    let target = absolute(schema)
    let base = absolute(directory.isEmpty ? "." : directory)
    var common = 0
    while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
    let parts = Array(repeating: "..", count: base.count - common) + target[common...].map(String.init)
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }

  /// Whether `name` is a plain file name directly inside a directory (and not the manifest).
  static func isPlainName(_ name: String) -> Bool {
    !name.isEmpty && name != "." && name != ".." && name != fileName && !name.contains("/")
      && !name.unicodeScalars.contains("\0")
  }

  /// Byte-for-byte equality (two spellings of one name in NFC and NFD are two names).
  static func same(_ lhs: String, _ rhs: String) -> Bool { Array(lhs.utf8) == Array(rhs.utf8) }

  static func sortedUnique(_ names: [String]) -> [String] {
    Set(names.map { Array($0.utf8) }).sorted { $0.lexicographicallyPrecedes($1) }
      .map { String(decoding: $0, as: UTF8.self) }
  }

  /// `text` as a JSON string literal: `"` and `\` escaped, control characters as `\u00XX`, every
  /// other character as itself (UTF-8).
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
