import ChildProcessSupport
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

/// The real `modelgen` executable run as a child process, bounded in time: a crash (SIGILL) or a
/// hang (a FIFO) in the tool shows up as a signal or a timeout here instead of taking the test
/// process down or blocking it.
struct SpawnedRun {
  /// The exit status (`-1` when a signal ended the process or it timed out).
  var status: Int32 = -1
  /// The signal that ended the process, if one did.
  var signal: Int32?
  /// `true` when the process ran past its deadline and was killed.
  var timedOut = false
  var output = ""
  var errors = ""

  /// `modelgen` next to the test bundle (`swift build --build-tests` builds both), else under
  /// `.build/debug/` of this package.
  static let binary: String = {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("modelgen").path
    if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/modelgen").path
  }()

  /// Runs `modelgen arguments` with `directory` as the working directory, standard input empty,
  /// and kills it after `timeout` seconds times ``slowdown()`` (the load this run shares the
  /// machine with), so a bound meant for a hang never fails a slow but working run.
  init(_ arguments: [String], in directory: String, timeout: Double = 30) throws {
    let logs = try TemporaryDirectory()
    let outURL = URL(fileURLWithPath: logs.url("stdout"))
    let errURL = URL(fileURLWithPath: logs.url("stderr"))
    let process = try ChildProcess(
      executable: URL(fileURLWithPath: Self.binary), arguments: arguments,
      currentDirectory: URL(fileURLWithPath: directory), standardInput: .nullDevice, standardOutput: .file(outURL),
      standardError: .file(errURL))
    let deadline = Date().addingTimeInterval(timeout * Self.slowdown())
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning {
      timedOut = true
      process.kill(SIGKILL)
    }
    let termination = process.waitUntilExit()
    if !timedOut {
      switch termination {
      case .signalled(let number): signal = number
      case .exited(let code): status = code
      }
    }
    output = logs.read("stdout") ?? ""
    errors = logs.read("stderr") ?? ""
  }

  /// How much slower than on an idle machine a child may run now: the factor in
  /// `LAZYMODEL_TEST_DEADLINE_SCALE` (at least 1; `.ci/run` sets 4 under the thread sanitizer), times
  /// the one-minute load average per processor when it is above 1 (`getloadavg`; at load 40 on 2
  /// cores a child gets 20 times its idle share of the processors), read when the child starts.
  static func slowdown() -> Double {
    let scale = ProcessInfo.processInfo.environment["LAZYMODEL_TEST_DEADLINE_SCALE"].flatMap(Double.init) ?? 1
    var load = [0.0]
    let perProcessor =
      getloadavg(&load, 1) == 1 ? load[0] / Double(max(1, ProcessInfo.processInfo.activeProcessorCount)) : 1
    return max(1, scale) * max(1, perProcessor)
  }

  /// ``init(_:in:timeout:)`` on a thread of its own: the wait for the child never holds one of
  /// the cooperative pool's threads (two of them on this machine), so the other tests' async
  /// work and deadlines keep running while a slow child (100,000 diagnostics) runs.
  static func spawn(_ arguments: [String], in directory: String, timeout: Double = 30) async throws
    -> SpawnedRun
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result { try SpawnedRun(arguments, in: directory, timeout: timeout) })
      }.start()
    }
  }
}

/// Issue 18, items 1–7: hostile files and paths given to the CLI. Every case runs the real binary.
@Suite("CLI hostile inputs (spawned binary)")
struct HostileInputTests {
  let seed = """
    type Post4V2 @model @auth(rules: [{allow: public}]) {
      id: ID!
      title: String!
      comments: [Comment4V2] @hasMany(indexName: "byPost4", fields: ["id"])
    }

    type Comment4V2 @model @auth(rules: [{allow: public}]) {
      id: ID!
      postID: ID! @index(name: "byPost4", sortKeyFields: ["content"])
      content: String!
      post: Post4V2 @belongsTo(fields: ["postID"])
    }
    """
  let seedFiles = [
    "Comment4V2+Schema.swift", "Comment4V2.swift", "Models.swift", "Post4V2+Schema.swift", "Post4V2.swift",
  ]

  private func names(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  // MARK: 1. Relative output paths whose first component is one character

  @Test(arguments: ["x", "G/Models", "q/", "./x", "G//Models/"])
  func aMissingRelativeOutputDirectoryIsCreatedNotACrash(output: String) async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", seed)
    let check = try await SpawnedRun.spawn(
      ["generate", "s.graphql", "--output", output, "--check"], in: directory.path)
    #expect(check.signal == nil && !check.timedOut)
    #expect(check.status == 1)
    #expect(check.errors.contains("error: \(output) is out of date (6 files); run:\n"))
    #expect(check.errors.hasSuffix("modelgen generate s.graphql --output \(output)\n"))
    #expect(names(directory.path) == ["s.graphql"])

    let dryRun = try await SpawnedRun.spawn(
      ["generate", "s.graphql", "--output", output, "--dry-run"], in: directory.path)
    #expect(dryRun.status == 0 && dryRun.signal == nil)
    #expect(dryRun.output.hasSuffix("6 changes, 0 unchanged\n"))

    let run = try await SpawnedRun.spawn(["generate", "s.graphql", "--output", output], in: directory.path)
    #expect(run.signal == nil)
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output == "created 6, updated 0, deleted 0, unchanged 0\n")
    #expect(names(directory.url(output)) == [".modelgen-manifest.json"] + seedFiles)

    let again = try await SpawnedRun.spawn(
      ["generate", "s.graphql", "--output", output, "--check"], in: directory.path)
    #expect(again.status == 0)
    #expect(again.output == "\(output) is up to date\n")
  }

  @Test func severalSchemasAndASingleFileUnderAOneCharacterDirectory() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("a.graphql", "type A @model { id: ID! }\n")
    try directory.write("b.graphql", "enum B { X }\n")
    let run = try await SpawnedRun.spawn(["generate", "a.graphql", "b.graphql", "--output", "m"], in: directory.path)
    #expect(run.status == 0 && run.signal == nil, "\(run.errors)")
    #expect(names(directory.url("m")) == ["a", "b"])
    #expect(names(directory.url("m/b")) == [".modelgen-manifest.json", "B.swift", "Models.swift"])
    let single = try await SpawnedRun.spawn(
      ["generate", "a.graphql", "--single-file", "y/A.swift"], in: directory.path)
    #expect(single.status == 0 && single.signal == nil, "\(single.errors)")
    #expect(single.output == "wrote y/A.swift\n")
    #expect(directory.read("y/A.swift")?.hasPrefix("// Generated by modelgen from a.graphql. Do not edit.\n") == true)
  }

  @Test func pathTextSplitsOnSlashes() {
    #expect(PathText.parent(of: "x") == "")
    #expect(PathText.parent(of: "q/") == "")
    #expect(PathText.parent(of: "G/Models") == "G")
    #expect(PathText.parent(of: "G//Models/") == "G")
    #expect(PathText.parent(of: "/a") == "/")
    #expect(PathText.parent(of: "/") == "/")
    #expect(PathText.parent(of: "/a/b/c.swift") == "/a/b")
    #expect(PathText.appending("P.swift", to: "") == "P.swift")
    #expect(PathText.appending("P.swift", to: "q/") == "q/P.swift")
    #expect(PathText.appending("P.swift", to: "/") == "/P.swift")
    #expect(PathText.lastComponent(of: "Schemas/seed.graphql") == "seed.graphql")
    #expect(PathText.lastComponent(of: "q/") == "q")
    #expect(PathText.standardized("a/./b/../c//d/") == "a/c/d")
    #expect(PathText.standardized("../x/..") == "..")
    #expect(PathText.standardized("/../a") == "/a")
    #expect(PathText.standardized("a/..") == ".")
    #expect(PathText.missingDirectories("a/b/c") { $0 == "a" } == ["a/b/c", "a/b"])
  }

  // MARK: 2. FIFOs, devices and sockets where a file is read or replaced

  @Test func aFIFOWhereAGeneratedFileGoesIsAnErrorNotAHang() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", seed)
    try FileManager.default.createDirectory(atPath: directory.url("out"), withIntermediateDirectories: true)
    #expect(mkfifo(directory.url("out/Post4V2.swift"), 0o644) == 0)
    for extra in [[], ["--check"], ["--dry-run"]] {
      let run = try await SpawnedRun.spawn(
        ["generate", "s.graphql", "--output", "out"] + extra, in: directory.path, timeout: 20)
      #expect(!run.timedOut, "modelgen blocked on the FIFO")
      #expect(run.status == 1)
      #expect(
        run.errors
          == "out/Post4V2.swift: error: a FIFO (named pipe) is in the way, not a regular file; nothing was written [MGC023]\n"
          + "  hint: remove it (modelgen never opens or replaces a FIFO, device or socket)\n"
      )
    }
    #expect(names(directory.url("out")) == ["Post4V2.swift"])

    let single = try await SpawnedRun.spawn(
      ["generate", "s.graphql", "--single-file", "out/Post4V2.swift"], in: directory.path, timeout: 20)
    #expect(!single.timedOut)
    #expect(single.status == 1)
    #expect(single.errors.contains("a FIFO (named pipe) is in the way"))
  }

  @Test func aFIFOAmongTheFilesToPruneIsLeftAlone() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", seed)
    try FileManager.default.createDirectory(atPath: directory.url("out"), withIntermediateDirectories: true)
    #expect(mkfifo(directory.url("out/Stale.swift"), 0o644) == 0)
    let run = try await SpawnedRun.spawn(["generate", "s.graphql", "--output", "out"], in: directory.path, timeout: 20)
    #expect(!run.timedOut)
    #expect(run.status == 0, "\(run.errors)")
    #expect(names(directory.url("out")) == ([".modelgen-manifest.json", "Stale.swift"] + seedFiles).sorted())
    #expect(RegularFile.kind(atPath: directory.url("out/Stale.swift")) == "FIFO (named pipe)")
  }

  @Test func aFIFOOrDeviceAsAnInputIsAUsageError() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", seed)
    #expect(mkfifo(directory.url("f.graphql"), 0o644) == 0)
    #expect(mkfifo(directory.url("c.json"), 0o644) == 0)
    try FileManager.default.createDirectory(atPath: directory.url("T"), withIntermediateDirectories: true)
    #expect(mkfifo(directory.url("T/model.mustache"), 0o644) == 0)
    let fifo = "is a FIFO (named pipe), not a regular file"
    let cases: [([String], String)] = [
      (
        ["validate", "f.graphql"],
        "f.graphql: error: cannot read the schema: \(fifo) [MGC027]\n  hint: pass the path of a readable GraphQL schema file (relative to the working directory, or absolute)\n"
      ),
      (
        ["generate", "f.graphql", "--output", "o"],
        "f.graphql: error: cannot read the schema: \(fifo) [MGC027]\n  hint: pass the path of a readable GraphQL schema file (relative to the working directory, or absolute)\nerror: no files written\n"
      ),
      (
        ["validate", "/dev/null"],
        "/dev/null: error: cannot read the schema: is a character device, not a regular file [MGC027]\n  hint: pass the path of a readable GraphQL schema file (relative to the working directory, or absolute)\n"
      ),
      (
        ["generate", "s.graphql", "--output", "o", "--config", "c.json"],
        "c.json: error: cannot read the config file: \(fifo) [MGC001]\n  hint: pass the path of a readable modelgen-config.json\nerror: no files written\n"
      ),
      (
        ["generate", "s.graphql", "--output", "o", "--templates", "T"],
        "\(directory.url("T"))/model.mustache: error: cannot read the template: \(fifo) [MGC028]\n"
          + "  hint: put a regular file there, or remove it (the built-in template of that name is used then)\n"
          + "error: no files written\n"
      ),
    ]
    for (arguments, errors) in cases {
      let run = try await SpawnedRun.spawn(arguments, in: directory.path, timeout: 20)
      #expect(!run.timedOut, "\(arguments) blocked")
      #expect(run.status == 64, "\(arguments)")
      #expect(run.errors == errors)
    }
    #expect(!FileManager.default.fileExists(atPath: directory.url("o")))
  }

  @Test func regularFileReadsOnlyRegularFiles() throws {
    let directory = try TemporaryDirectory()
    try directory.write("a.txt", "abc")
    #expect(try RegularFile.read(directory.url("a.txt")) == Array("abc".utf8))
    #expect(throws: RegularFileError.notFound(path: directory.url("none"))) {
      try RegularFile.read(directory.url("none"))
    }
    #expect(throws: RegularFileError.notARegularFile(path: directory.path, kind: "directory")) {
      try RegularFile.read(directory.path)
    }
    #expect(mkfifo(directory.url("p"), 0o644) == 0)
    #expect(throws: RegularFileError.notARegularFile(path: directory.url("p"), kind: "FIFO (named pipe)")) {
      try RegularFile.read(directory.url("p"))
    }
  }

  // MARK: 3. User text in generated Swift

  @Test func aSchemaFileNameCannotBecomeSwiftCode() async throws {
    let directory = try TemporaryDirectory()
    let name = "x\nimport Evil; let pwned = 1; .graphql"
    try directory.write(name, seed)
    let run = try await SpawnedRun.spawn(
      ["generate", name, "--output", "out", "--emit", "swift,api-schema"], in: directory.path)
    #expect(run.status == 0, "\(run.errors)")
    let files = names(directory.url("out"))
    #expect(files == ([".modelgen-manifest.json", "schema.api.graphql", "schema.local.json"] + seedFiles).sorted())
    // The manifest names the schema in a JSON string literal (the newline escaped), never as code.
    #expect(
      directory.read("out/.modelgen-manifest.json")?.contains(
        #"      "schema": "../x\nimport Evil; let pwned = 1; .graphql","#) == true)
    for file in files where file != ".modelgen-manifest.json" {
      let text = directory.read("out/\(file)") ?? ""
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      if file.hasSuffix(".json") {
        // A JSON string literal: the escaped name's backslash is escaped once more.
        #expect(
          lines[0]
            == #"{"header": "Generated by modelgen from x\\nimport Evil; let pwned = 1; .graphql. Do not edit.","#)
        continue
      }
      let marker = file.hasSuffix(".swift") ? "//" : "#"
      #expect(lines[0] == "\(marker) Generated by modelgen from x\\nimport Evil; let pwned = 1; .graphql. Do not edit.")
      // The name may appear again only inside a comment (the registry's doc comment).
      let outsideComments = lines.dropFirst().filter {
        !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
      }
      #expect(!outsideComments.contains { $0.contains("import Evil") || $0.contains("pwned") }, "\(file)")
    }
    #expect(
      directory.read("out/Models.swift")?.contains(
        "/// The models generated from x\\nimport Evil; let pwned = 1; .graphql.\n") == true)
    // The headers still identify the schema: a second run changes nothing and prunes nothing.
    let again = try await SpawnedRun.spawn(
      ["generate", name, "--output", "out", "--emit", "swift,api-schema"], in: directory.path)
    #expect(again.output == "created 0, updated 0, deleted 0, unchanged 8\n")
    let check = try await SpawnedRun.spawn(
      ["generate", name, "--output", "out", "--emit", "swift,api-schema", "--check"], in: directory.path)
    #expect(check.status == 0)
  }

  @Test func commentTextEscapesEverythingThatCouldEndTheComment() {
    #expect(SwiftNames.commentText("seed-post-comment.graphql") == "seed-post-comment.graphql")
    #expect(SwiftNames.commentText("a\nb\rc\td") == "a\\nb\\rc\\td")
    #expect(SwiftNames.commentText("a*/b/*c") == "a*\\/b/\\*c")
    #expect(SwiftNames.commentText("back\\slash \\u{41}") == "back\\\\slash \\\\u{41}")
    #expect(
      SwiftNames.commentText("bidi\u{202E}txt\u{2028}\u{85}\u{7F}\u{0}\u{FEFF}")
        == "bidi\\u{202E}txt\\u{2028}\\u{85}\\u{7F}\\u{0}\\u{FEFF}")
    #expect(SwiftNames.commentText("é日本😀") == "é日本😀")
  }

  @Test func stringLiteralsEscapeQuotesBackslashesAndInvisibleScalars() {
    #expect(SwiftNames.stringLiteral("plain") == "\"plain\"")
    #expect(SwiftNames.stringLiteral("a\"b\\c\nd") == "\"a\\\"b\\\\c\\nd\"")
    #expect(SwiftNames.stringLiteral("\\u{41}\\(x)") == "\"\\\\u{41}\\\\(x)\"")
    #expect(SwiftNames.stringLiteral("x\u{202E}y\u{2028}z\u{7F}") == "\"x\\u{202e}y\\u{2028}z\\u{7f}\"")
  }

  @Test func directiveValuesReachSwiftOnlyAsEscapedLiterals() async throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "d.graphql",
      #"""
      type Note @model @auth(rules: [{allow: owner, identityClaim: "sub\"); import Evil //", ownerField: "owner"}]) {
        id: ID!
        title: String @default(value: "a\"b\\c\nd\u202Ee */ \\u{41}")
      }
      """#)
    let run = try await SpawnedRun.spawn(["generate", "d.graphql", "--output", "out"], in: directory.path)
    #expect(run.status == 0, "\(run.errors)")
    let model = directory.read("out/Note.swift") ?? ""
    #expect(model.contains(#"title: String? = "a\"b\\c\nd\u{202e}e */ \\u{41}""#), "\(model)")
    let schema = directory.read("out/Note+Schema.swift") ?? ""
    #expect(schema.contains(#"identityClaim: "sub\"); import Evil //""#), "\(schema)")
    #expect(!schema.split(separator: "\n").contains { $0.hasPrefix("import Evil") })
  }

  /// A string that becomes a name (here the join model's type and file name) is refused before
  /// anything is written: `relationName: "../../Escaped"` once wrote `Escaped.swift` two
  /// directories above `--output`.
  @Test func nameArgumentsNeverBecomePathsOrCode() async throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "q.graphql",
      #"""
      type P @model { id: ID! tags: [T] @manyToMany(relationName: "../../Escaped") }
      type T @model { id: ID! ps: [P] @manyToMany(relationName: "../../Escaped") }
      type O @model @auth(rules: [{allow: owner, ownerField: "x: Int = 0; func f() {}; var y"}]) { id: ID! }
      """#)
    let run = try await SpawnedRun.spawn(["generate", "q.graphql", "--output", "a/b/out"], in: directory.path)
    #expect(run.status == 1)
    #expect(run.errors.components(separatedBy: "[MG014]").count - 1 == 3, "\(run.errors)")
    #expect(run.errors.contains("q.graphql:1:61: error: `@manyToMany(relationName:)` must be a GraphQL name"))
    #expect(run.errors.contains("q.graphql:3:56: error: `@auth(rules.ownerField:)` must be a GraphQL name"))
    #expect(directory.read("Escaped.swift") == nil && directory.read("a/Escaped.swift") == nil)
    #expect(directory.read("a/b/out/O.swift") == nil)
  }

  // MARK: 4. One diagnostics budget per schema

  @Test func oneHundredThousandDuplicateFieldsPrint200ErrorsAndSDL099() async throws {
    let directory = try TemporaryDirectory()
    let fields = String(repeating: "  f: String\n", count: 100_000)
    try directory.write("dup.graphql", "type A @model {\n  id: ID!\n" + fields + "}\n")
    let run = try await SpawnedRun.spawn(["validate", "dup.graphql"], in: directory.path, timeout: 120)
    #expect(run.status == 1)
    let headlines = run.errors.split(separator: "\n").filter {
      $0.hasPrefix("dup.graphql:") && $0.contains(": error: ")
    }
    #expect(headlines.count == 201)
    #expect(headlines.dropLast().allSatisfy { $0.hasSuffix("error: `A` defines `f` more than once [MG005]") })
    #expect(headlines.first?.hasPrefix("dup.graphql:4:3: ") == true)
    #expect(headlines.last == "dup.graphql:204:3: error: too many errors; stopped after 200 [SDL099]")
    #expect(run.errors.utf8.count < 60_000)
  }

  @Test func theSemanticStageSpendsWhatTheParserLeft() {
    let parsed = SDLParser.parse("type A @model { id: ID! f: Int f: Int f: Int f: Int f: Int }", fileName: "b.graphql")
    #expect(parsed.budget == DiagnosticBudget(limit: 200, spent: 0))
    let analysis = SemanticAnalyzer.analyze(
      parsed.document, fileName: "b.graphql", budget: DiagnosticBudget(limit: 5, spent: 3))
    #expect(analysis.diagnostics.map(\.code.rawValue) == ["MG005", "MG005", "SDL099"])
    #expect(analysis.diagnostics.last?.message == "too many errors; stopped after 5")
    #expect(analysis.graph == nil)
    var budget = DiagnosticBudget(limit: 1)
    #expect([budget.admit(), budget.admit(), budget.admit()] == [.report, .reportTooManyErrors, .drop])
    #expect(budget.remaining == 0 && budget.isExhausted)
  }

  // MARK: 6. Huge names in messages

  @Test func aTenMegabyteTypeNameIsQuotedShortened() async throws {
    let directory = try TemporaryDirectory()
    let name = String(repeating: "T", count: 10_000_000)
    try directory.write(
      "big.graphql",
      "type A @model { id: ID! x: \(name) }\ntype \(name) @model { id: ID! }\ntype \(name) @model { id: ID! }\n")
    let run = try await SpawnedRun.spawn(["validate", "big.graphql"], in: directory.path, timeout: 120)
    #expect(run.status == 1)
    let quoted = String(repeating: "T", count: 79) + "…"
    let headlines = run.errors.split(separator: "\n").filter {
      $0.hasPrefix("big.graphql:") && $0.contains(": error: ")
    }
    #expect(
      headlines.contains("big.graphql:3:6: error: type `\(quoted)` is defined more than once [MG004]"), "\(headlines)")
    #expect(run.errors.utf8.count < 4_000)
  }

  /// The long fuzz run's finding (issue 18): `modelgen validate` printed one MG013 line of 1,263
  /// bytes for an enum `@default` of 250 × U+007F (`Fuzz/Regressions/enum-default-of-250-del.graphql`).
  @Test func anEnumDefaultOfControlCharactersPrintsOneBoundedLine() async throws {
    let directory = try TemporaryDirectory()
    let value = String(repeating: "\u{7F}", count: 250)
    try directory.write(
      "del.graphql",
      "enum Status { DRAFT LIVE }\ntype Post @model {\n  id: ID!\n  status: Status @default(value: \"\(value)\")\n}\n")
    let run = try await SpawnedRun.spawn(["validate", "del.graphql"], in: directory.path)
    #expect(run.status == 1)
    let quoted = String(repeating: "\\u{7F}", count: 13) + "…"
    let inReason = String(repeating: "\\u{7F}", count: 6) + "…"
    let headline =
      "del.graphql:4:34: error: @default value \"\(quoted)\" of `status` is not a valid `Status`: `Status` has no value `\(inReason)` [MG013]"
    let lines = run.errors.split(separator: "\n")
    #expect(lines.contains { $0 == headline }, "\(run.errors)")
    #expect(lines.allSatisfy { $0.utf8.count < 1_000 }, "\(lines.map(\.utf8.count))")
  }

  @Test func quotedUserTextIsBoundedAndOneLine() {
    #expect(DiagnosticText.shortened("Post") == "Post")
    #expect(DiagnosticText.shortened(String(repeating: "a", count: 80)) == String(repeating: "a", count: 80))
    #expect(DiagnosticText.shortened(String(repeating: "a", count: 81)) == String(repeating: "a", count: 79) + "…")
    #expect(DiagnosticText.shortened("a\nb\u{202E}c\t") == "a\\nb\\u{202E}c\\t")
    #expect(DiagnosticText.shortened("abcdef", limit: 4) == "abc…")
    let result = SDLParser.parse("type A @d(v: \"x\") { f: [Int\n}", fileName: "s")
    #expect(result.diagnostics.allSatisfy { !$0.message.contains("\n") })
  }

  // MARK: 7. Empty path arguments

  @Test func emptyPathArgumentsAreUsageErrors() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", seed)
    let cases: [([String], String)] = [
      (["generate", "s.graphql", "--output", ""], "error: empty path for '--output'"),
      (["generate", "s.graphql", "--output="], "error: empty path for '--output'"),
      (["generate", "s.graphql", "-o", ""], "error: empty path for '--output'"),
      (["generate", "", "--output", "o"], "error: empty schema path"),
      (["validate", ""], "error: empty schema path"),
      (["generate", "s.graphql", "--output", "o", "--templates", ""], "error: empty path for '--templates'"),
      (["generate", "s.graphql", "--output", "o", "--config", ""], "error: empty path for '--config'"),
      (["generate", "s.graphql", "--single-file", ""], "error: empty path for '--single-file'"),
    ]
    for (arguments, prefix) in cases {
      let run = try await SpawnedRun.spawn(arguments, in: directory.path)
      #expect(run.status == 64, "\(arguments)")
      #expect(run.errors.hasPrefix(prefix), "\(arguments): \(run.errors)")
      #expect(run.errors.hasSuffix("see modelgen --help\n"))
    }
    #expect(names(directory.path) == ["s.graphql"])
  }
}
