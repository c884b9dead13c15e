import Foundation
import ModelGenIR
import Testing

@testable import ModelGenCLI

/// Issue 17, paths the CLI writes: every directory a run of several schemas writes into is its
/// own on macOS too (MGC014, before anything is written), and a type name as long as
/// `validate` allows is written by `generate` (MG040 past it, at the type's name).
@Suite("CLI output paths")
struct OutputPathTests {
  let post = "type Post @model { id: ID! title: String }\n"
  let note = "type Note @model { id: ID! text: String }\n"

  /// The files and directories under `path`, relative to it, sorted.
  func tree(_ directory: TemporaryDirectory, _ path: String) -> [String] {
    ((try? FileManager.default.subpathsOfDirectory(atPath: directory.url(path))) ?? []).sorted()
  }

  @Test func schemaStemsEqualIgnoringCaseAreRefusedBeforeAnythingIsWritten() throws {
    let directory = try TemporaryDirectory()
    try directory.write("sa/schema.graphql", post)
    try directory.write("sb/Schema.graphql", note)
    let run = CommandRun([
      "generate", directory.url("sa/schema.graphql"), directory.url("sb/Schema.graphql"), "--output",
      directory.url("X"),
    ])
    #expect(run.status == 1)
    #expect(
      run.errors.hasPrefix(
        "\(directory.url("sb/Schema.graphql")): error: this schema writes into `Schema` and \(directory.url("sa/schema.graphql")) into `schema`; the two names differ only in letter case or Unicode normalization"
      ), "\(run.errors)")
    #expect(run.errors.contains("[MGC014]\n  hint: rename one of the schema files"))
    #expect(run.errors.hasSuffix("error: no files written\n"))
    #expect(!FileManager.default.fileExists(atPath: directory.url("X")))
  }

  @Test(arguments: [
    ("Straße", "STRASSE"), ("Café", "CAFE\u{301}"), ("ΣΑΣ", "σας"),
  ])
  func schemaStemsThatFoldToOneNameAreRefused(first: String, second: String) throws {
    let directory = try TemporaryDirectory()
    try directory.write("a/\(first).graphql", post)
    try directory.write("b/\(second).graphql", note)
    let run = CommandRun([
      "generate", directory.url("a/\(first).graphql"), directory.url("b/\(second).graphql"), "--output",
      directory.url("X"), "--dry-run",
    ])
    #expect(run.status == 1, "\(run.output)")
    #expect(run.errors.components(separatedBy: "[MGC014]").count == 2, "\(run.errors)")
    #expect(run.output == "")
  }

  /// Stems equal as Swift strings (byte for byte, or canonically equivalent: `Café` in NFC and
  /// NFD) are refused while the arguments are read, a usage error; nothing is written.
  @Test func theSameSchemaFileNameFromTwoDirectoriesIsAUsageError() throws {
    let directory = try TemporaryDirectory()
    try directory.write("sa/schema.graphql", post)
    try directory.write("sb/schema.graphql", note)
    for pair in [("sa/schema.graphql", "sb/schema.graphql"), ("sa/schema.graphql", "sa/schema.graphql")] {
      let run = CommandRun([
        "generate", directory.url(pair.0), directory.url(pair.1), "--output", directory.url("X"),
      ])
      #expect(run.status == 64)
      #expect(
        run.errors.hasPrefix(
          "error: two schemas have the file stem 'schema': their output directories would collide\n"),
        "\(run.errors)")
    }
    #expect(!FileManager.default.fileExists(atPath: directory.url("X")))
    #expect(OutputDirectories.problems(["sa/schema.graphql", "sb/schema.graphql"]).map(\.code) == ["MGC014"])
  }

  @Test func aSchemaWhoseStemIsDotOrDotDotIsRefused() throws {
    let directory = try TemporaryDirectory()
    try directory.write("a/..graphql", post)
    try directory.write("b/notes.graphql", note)
    let run = CommandRun([
      "generate", directory.url("a/..graphql"), directory.url("b/notes.graphql"), "--output", directory.url("X/Y"),
    ])
    #expect(run.status == 1)
    #expect(
      run.errors.hasPrefix(
        "\(directory.url("a/..graphql")): error: the output directory of this schema would be `.`, which is not a directory of its own [MGC014]"
      ), "\(run.errors)")
    #expect(!FileManager.default.fileExists(atPath: directory.url("X")))
  }

  @Test func distinctStemsStillGenerateSideBySide() throws {
    let directory = try TemporaryDirectory()
    try directory.write("sa/blog.graphql", post)
    try directory.write("sb/notes.graphql", note)
    let run = CommandRun([
      "generate", directory.url("sa/blog.graphql"), directory.url("sb/notes.graphql"), "--output",
      directory.url("X"),
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(
      tree(directory, "X").filter { $0.hasSuffix(".swift") } == [
        "blog/Models.swift", "blog/Post+Schema.swift", "blog/Post.swift",
        "notes/Models.swift", "notes/Note+Schema.swift", "notes/Note.swift",
      ])
  }

  /// The longest name `validate` accepts is written by `generate`, in a directory whose path is
  /// long too: the temporary file's name does not add to the file's.
  @Test func theLongestTypeNameValidateAcceptsIsWritten() throws {
    let directory = try TemporaryDirectory()
    let longest = "T" + String(repeating: "e", count: SwiftNames.maximumTypeNameLength - 1)
    #expect(longest.utf8.count == 238)
    let schema = "type \(longest) @model { id: ID! }\n"
    try directory.write("long.graphql", schema)
    let validate = CommandRun(["validate", directory.url("long.graphql")])
    #expect(validate.status == 0, "\(validate.errors)")
    let generate = CommandRun(["generate", directory.url("long.graphql"), "--output", directory.url("Out")])
    #expect(generate.status == 0, "\(generate.errors)")
    #expect(
      tree(directory, "Out")
        == [
          ".modelgen-manifest.json", "Models.swift", "\(longest)+Schema.swift", "\(longest).swift",
        ].sorted())
    #expect(PathText.lastComponent(of: "\(longest)+Schema.swift").utf8.count == 251)
    // SwiftPM's longest file for it, `<name>+Schema.swiftdeps`, is exactly the 255-byte limit.
    #expect("\(longest)+Schema.swiftdeps".utf8.count == 255)
    // Nothing temporary is left behind.
    #expect(!tree(directory, "Out").contains { $0.hasPrefix(".modelgen-") && $0.hasSuffix(".tmp") })
  }

  /// One byte more (GraphQL names are ASCII) is MG040 at the type's name, in
  /// `validate` as in `generate`, and nothing is written.
  @Test(arguments: ["T" + String(repeating: "e", count: 238), "T" + String(repeating: "e", count: 237) + "_"])
  func aTypeNameOverTheLimitIsMG040AtItsName(name: String) throws {
    #expect(name.utf8.count == 239)
    let directory = try TemporaryDirectory()
    try directory.write("long.graphql", "type Post @model { id: ID! }\nenum \(name) { A }\n")
    for arguments in [["validate"], ["generate", "--output", directory.url("Out")]] {
      let run = CommandRun(
        [arguments[0], directory.url("long.graphql")] + arguments.dropFirst())
      #expect(run.status == 1)
      let shown = String(name.prefix(79)) + "…"
      #expect(
        run.errors.hasPrefix(
          "\(directory.url("long.graphql")):2:6: error: the Swift name of type `\(shown)` is 239 bytes long in UTF-8; the longest is 238, so that the build's file `<name>+Schema.swiftdeps` (SwiftPM's longest for `<name>+Schema.swift`) fits the 255-byte file name limit (APFS, ext4) [MG040]"
        ), "\(run.errors)")
      #expect(run.errors.contains("hint: shorten the type's name, or choose a shorter Swift name"))
    }
    #expect(!FileManager.default.fileExists(atPath: directory.url("Out")))
  }
}
