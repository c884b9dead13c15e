import Foundation
import GraphQLSDL
import ModelGen
import Testing

@testable import ModelGenCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 17: every output-stage error of `modelgen generate` (`OutputError`, `OutputConflict`,
/// `OutputWriteError`) is printed as `path: error: message [MGCxxx]` and a hint line, with its
/// stable code. Each case is produced on a real directory; the run writes nothing.
@Suite("CLI output error codes")
struct OutputErrorCodeTests {
  let blog = """
    type Post @model {
      id: ID!
      title: String!
    }
    """

  private func names(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  /// Runs `generate blog.graphql --output out` in `directory` and returns the run.
  private func generate(_ directory: TemporaryDirectory, output: String? = nil) throws -> CommandRun {
    try directory.write("blog.graphql", blog)
    return CommandRun(["generate", directory.url("blog.graphql"), "--output", output ?? directory.url("out")])
  }

  /// The first line of `errors` ends with `[code]` and the second is the hint; nothing else.
  private func expectCode(_ run: CommandRun, _ code: DiagnosticCode, at path: String) {
    #expect(run.status == 1)
    let lines = run.errors.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3, "\(run.errors)")
    #expect(lines.first?.hasPrefix("\(path): error: ") == true, "\(run.errors)")
    #expect(lines.first?.hasSuffix(" [\(code)]") == true, "\(run.errors)")
    #expect(lines.dropFirst().first?.hasPrefix("  hint: ") == true, "\(run.errors)")
  }

  @Test func anOutputPathThatIsAFileIsMGC019() throws {
    let directory = try TemporaryDirectory()
    try directory.write("taken", "mine\n")
    let run = try generate(directory, output: directory.url("taken/Models"))
    expectCode(run, ConfigDiagnosticCode.outputNotADirectory, at: directory.url("taken"))
    #expect(
      run.errors
        == "\(directory.url("taken")): error: exists and is not a directory, so the output directory cannot be in it; nothing was written [MGC019]\n"
        + "  hint: give --output a directory path, or move this file away\n")
  }

  /// A directory nobody may write in: a read-only directory for a user, `/proc/sys` (read-only
  /// even for root, who passes every permission bit) when the tests run as root.
  @Test func anUnwritableOutputDirectoryIsMGC020() throws {
    let directory = try TemporaryDirectory()
    var readOnly = directory.url("readonly")
    if geteuid() == 0 {
      readOnly = "/proc/sys"
    } else {
      try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
      #expect(chmod(readOnly, 0o555) == 0)
    }
    defer { chmod(directory.url("readonly"), 0o755) }
    let run = try generate(directory, output: readOnly + "/out")
    expectCode(run, ConfigDiagnosticCode.outputNotWritable, at: readOnly)
    #expect(
      run.errors
        == "\(readOnly): error: permission denied: the output directory cannot be written in; nothing was written [MGC020]\n"
        + "  hint: make the directory writable, or give --output another directory\n")
  }

  @Test func aDirectoryWhereAFileGoesIsMGC021() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.url("out/Post.swift"), withIntermediateDirectories: true)
    let run = try generate(directory)
    expectCode(run, ConfigDiagnosticCode.outputDirectoryInTheWay, at: directory.url("out/Post.swift"))
    #expect(names(directory.url("out")) == ["Post.swift"])
  }

  /// A symbolic link to itself where a file goes: `open` fails with `ELOOP` (also for root).
  @Test func aFileThatCannotBeReadIsMGC022() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.url("out"), withIntermediateDirectories: true)
    #expect(symlink("Post.swift", directory.url("out/Post.swift")) == 0)
    let run = try generate(directory)
    expectCode(run, ConfigDiagnosticCode.outputFileUnreadable, at: directory.url("out/Post.swift"))
    #expect(
      run.errors
        == "\(directory.url("out/Post.swift")): error: the existing file cannot be read to compare it (too many levels of symbolic links); nothing was written [MGC022]\n"
        + "  hint: make the file readable, or move it away\n")
    #expect(names(directory.url("out")) == ["Post.swift"])
  }

  @Test func aFIFOWhereAFileGoesIsMGC023() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.url("out"), withIntermediateDirectories: true)
    #expect(mkfifo(directory.url("out/Models.swift"), 0o644) == 0)
    let run = try generate(directory)
    expectCode(run, ConfigDiagnosticCode.outputNotARegularFile, at: directory.url("out/Models.swift"))
    #expect(names(directory.url("out")) == ["Models.swift"])
  }

  /// A directory without a manifest (written before manifests) holding a generated file whose
  /// header names another schema.
  @Test func aFileGeneratedFromAnotherSchemaIsMGC024() throws {
    let directory = try TemporaryDirectory()
    let other = "// Generated by modelgen from shop.graphql. Do not edit.\nstruct Post {}\n"
    try directory.write("out/Post.swift", other)
    let run = try generate(directory)
    expectCode(run, ConfigDiagnosticCode.outputGeneratedFromOtherSchema, at: directory.url("out/Post.swift"))
    #expect(
      run.errors
        == "\(directory.url("out/Post.swift")): error: cannot write this file for blog.graphql: the file there was generated from shop.graphql; nothing was written [MGC024]\n"
        + "  hint: generate the two schemas into different --output directories\n")
    #expect(directory.read("out/Post.swift") == other)
  }

  @Test func aHandWrittenFileIsMGC025() throws {
    let directory = try TemporaryDirectory()
    try directory.write("out/Post.swift", "// mine\n")
    let run = try generate(directory)
    expectCode(run, ConfigDiagnosticCode.outputHandWrittenFile, at: directory.url("out/Post.swift"))
    #expect(
      run.errors
        == "\(directory.url("out/Post.swift")): error: exists and was not generated by modelgen (no header line); it is never overwritten, nothing was written [MGC025]\n"
        + "  hint: move or rename your file, or give the type another Swift name (\"swiftNames\" in modelgen-config.json)\n"
    )
    #expect(names(directory.url("out")) == ["Post.swift"])
  }

  /// The checks pass, then the destination directory is replaced by a file before the write.
  @Test func aWriteThatFailsIsMGC026() throws {
    let directory = try TemporaryDirectory()
    let header = "// Generated by modelgen from a.graphql. Do not edit.\n"
    let changes = try OutputPlanner.plan(
      directory: directory.url("out/sub"), files: [GeneratedFile(path: "A.swift", contents: header)],
      schemaName: "a.graphql")
    try directory.write("out", "in the way\n")
    do {
      try OutputPlanner.apply(changes)
      Issue.record("apply succeeded")
    } catch let error as OutputWriteError {
      #expect(error.code == ConfigDiagnosticCode.outputWriteFailed)
      #expect(
        "\(error)"
          == "\(directory.url("out/sub")): error: writing failed: cannot create this directory [MGC026]\n"
          + "  hint: the run's temporary files were removed; fix the cause and run again")
    }
    #expect(directory.read("out") == "in the way\n")
  }

  /// Every case names its code, and no two cases share one.
  @Test func everyOutputErrorHasItsOwnCatalogedCode() {
    let errors: [OutputError] = [
      .notADirectory(path: "p"), .notWritable(path: "p"), .directoryInTheWay(path: "p"),
      .unreadable(path: "p", reason: "r"), .notARegularFile(path: "p", kind: "socket"),
      .otherSchema(path: "p", schema: "a", otherSchema: "b"), .collision(path: "p", schema: "a", otherSchema: "b"),
      .invalidManifest(path: "p", reason: "r"), .locked(path: "d/.modelgen.lock", seconds: 1.5),
      .lockFailed(path: "p", reason: "r"),
    ]
    let codes =
      errors.map(\.code.description) + [
        OutputConflict(path: "p").code.description, OutputWriteError(path: "p", reason: "r").code.description,
      ]
    #expect(
      codes == [
        "MGC019", "MGC020", "MGC021", "MGC022", "MGC023", "MGC024", "MGC015", "MGC016", "MGC017", "MGC018",
        "MGC025", "MGC026",
      ])
    for error in errors {
      #expect("\(error)".hasPrefix("\(error.path): error: \(error.message) [\(error.code)]\n  hint: "))
    }
    #expect(errors[8].message.contains("another modelgen run is writing into d and did not finish within 1.5 s"))
  }
}
