import Foundation
import ModelGenCLI
import Testing

@testable import ModelGen
@testable import ModelGenAPISchema
@testable import ModelGenIR
@testable import ModelGenSwift
@testable import ModelGenTemplating

/// Golden files: every schema under `Schemas/` regenerated in memory must equal its checked-in
/// output under `Generated/` byte for byte, and each output directory's `.modelgen-manifest.json`
/// must record exactly those files for that schema, as `modelgen generate` writes it.
///
/// Re-record after an intended change, then read the diff:
///
///     MODELGEN_RECORD=1 swift test --filter GoldenFileTests
///     git diff Generated/
///
/// (The CLI does the same: see `Generated/README.md`.)
@Suite("Golden files")
struct GoldenFileTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// `(schema path relative to the package root, output directory relative to the package root)`.
  static var cases: [GoldenCase] {
    func schemas(in directory: String, output: String) -> [GoldenCase] {
      let path = root.appendingPathComponent(directory).path
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return names.filter { $0.hasSuffix(".graphql") }.sorted().map { name in
        GoldenCase(
          schema: "\(directory)/\(name)", output: "\(output)/\(name.dropLast(".graphql".count))")
      }
    }
    // Schemas/sync: generated with its modelgen-config.json (conflictResolution), one
    // `modelgen generate … --config` per schema (README, "Sync").
    let sync = schemas(in: "Schemas/sync", output: "Generated/sync").map { golden in
      GoldenCase(schema: golden.schema, output: golden.output, conflictResolution: syncStrategy())
    }
    return schemas(in: "Schemas", output: "Generated")
      + schemas(in: "Schemas/regressions", output: "Generated/regressions") + sync
  }

  /// The `conflictResolution` of `Schemas/sync/modelgen-config.json`.
  static func syncStrategy() -> ConflictResolution? {
    let url = root.appendingPathComponent("Schemas/sync/modelgen-config.json")
    guard let data = FileManager.default.contents(atPath: url.path),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let text = object["conflictResolution"] as? String
    else { return nil }
    return ConflictResolution(rawValue: text)
  }

  static var isRecording: Bool { ProcessInfo.processInfo.environment["MODELGEN_RECORD"] == "1" }

  @Test func everySchemaHasGoldenCases() {
    #expect(Self.cases.count >= 10)
    #expect(Self.cases.contains { $0.schema == "Schemas/seed-post-comment.graphql" })
    #expect(
      Self.cases.contains {
        $0.schema == "Schemas/sync/sync-blog.graphql" && $0.conflictResolution == .automerge
      })
  }

  @Test(arguments: cases)
  func generatedOutputMatches(_ golden: GoldenCase) throws {
    let source = try String(
      contentsOf: Self.root.appendingPathComponent(golden.schema), encoding: .utf8)
    let generator = Generator(
      options: GeneratorOptions(
        emit: [.swift, .apiSchema], templates: try TemplateLibrary.defaults(),
        conflictResolution: golden.conflictResolution))
    let result = try generator.generate(source: source, fileName: golden.schema)
    #expect(!result.hasErrors, "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
    let directory = Self.root.appendingPathComponent(golden.output)
    let onDisk = Set(
      ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
        $0.hasSuffix(".swift") || $0.hasSuffix(".graphql")
      })
    let manifest = OutputManifest(entries: [
      OutputManifest.Entry(
        schema: OutputManifest.schemaPath(golden.schema, relativeTo: golden.output, currentDirectory: Self.root.path),
        files: result.files.map(\.path))
    ]).text
    let manifestURL = directory.appendingPathComponent(OutputManifest.fileName)
    if Self.isRecording {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for file in result.files {
        try Data(file.contents.utf8).write(
          to: directory.appendingPathComponent(file.path), options: .atomic)
      }
      try Data(manifest.utf8).write(to: manifestURL, options: .atomic)
      for stale in onDisk.subtracting(result.files.map(\.path)) {
        try FileManager.default.removeItem(at: directory.appendingPathComponent(stale))
      }
      return
    }
    for file in result.files {
      let url = directory.appendingPathComponent(file.path)
      guard let data = FileManager.default.contents(atPath: url.path) else {
        Issue.record(
          "\(golden.output)/\(file.path) is missing; re-record with MODELGEN_RECORD=1 swift test --filter GoldenFileTests"
        )
        continue
      }
      let expected = String(decoding: data, as: UTF8.self)
      if expected != file.contents {
        Issue.record(
          """
          \(golden.output)/\(file.path) differs from the generated output (- checked in, + generated):
          \(LineDiff.render(expected: expected, actual: file.contents))
          Re-record with MODELGEN_RECORD=1 swift test --filter GoldenFileTests, then read git diff Generated/.
          """)
      }
    }
    let stale = onDisk.subtracting(result.files.map(\.path))
    #expect(stale.isEmpty, "stale files in \(golden.output): \(stale.sorted())")
    let recorded = FileManager.default.contents(atPath: manifestURL.path).map { String(decoding: $0, as: UTF8.self) }
    #expect(
      recorded == manifest,
      """
      \(golden.output)/\(OutputManifest.fileName) does not record this schema's files (- checked in, + generated):
      \(LineDiff.render(expected: recorded ?? "", actual: manifest))
      Re-record with MODELGEN_RECORD=1 swift test --filter GoldenFileTests, then read git diff Generated/.
      """)
  }

  @Test func packageSwiftListsAModulePerGeneratedDirectory() throws {
    let manifest = try String(
      contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    for golden in Self.cases {
      let path = golden.output.dropFirst("Generated/".count)
      #expect(
        manifest.contains("\"\(path)\")"),
        "Package.swift's generatedModules has no module for \(golden.output)")
    }
  }

  @Test func outputIsDeterministicLFAndEndsWithOneNewline() throws {
    let generator = Generator(options: GeneratorOptions(templates: try TemplateLibrary.defaults()))
    let source = try String(
      contentsOf: Self.root.appendingPathComponent("Schemas/seed-post-comment.graphql"),
      encoding: .utf8)
    let first = try generator.generate(
      source: source, fileName: "Schemas/seed-post-comment.graphql")
    let second = try generator.generate(
      source: source, fileName: "/elsewhere/seed-post-comment.graphql")
    #expect(first.files == second.files)
    for file in first.files {
      #expect(!file.contents.contains("\r"))
      #expect(file.contents.hasSuffix("\n") && !file.contents.hasSuffix("\n\n"))
      #expect(
        file.contents.hasPrefix(
          "// Generated by modelgen from seed-post-comment.graphql. Do not edit.\n"))
      #expect(!file.contents.contains("/work/") && !file.contents.contains("/elsewhere/"))
    }
  }
}

/// One schema and its checked-in output directory.
struct GoldenCase: Sendable, CustomTestStringConvertible {
  let schema: String
  let output: String
  var conflictResolution: ConflictResolution? = nil
  var testDescription: String { schema }
}

/// A readable line diff (longest common subsequence), for golden-file failures.
enum LineDiff {
  /// Lines prefixed `-` (only in `expected`), `+` (only in `actual`) or ` ` (both), with at most
  /// `context` unchanged lines around each change; `...` marks skipped lines.
  static func render(expected: String, actual: String, context: Int = 2) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        lengths[i][j] =
          old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    var lines: [(mark: Character, text: String)] = []
    var (i, j) = (0, 0)
    while i < old.count || j < new.count {
      if i < old.count, j < new.count, old[i] == new[j] {
        lines.append((" ", old[i]))
        i += 1
        j += 1
      } else if i < old.count, j == new.count || lengths[i + 1][j] >= lengths[i][j + 1] {
        lines.append(("-", old[i]))
        i += 1
      } else {
        lines.append(("+", new[j]))
        j += 1
      }
    }
    let changed = lines.indices.filter { lines[$0].mark != " " }
    var output: [String] = []
    var last = -1
    for index in lines.indices where changed.contains(where: { abs($0 - index) <= context }) {
      if index > last + 1 { output.append("...") }
      output.append("\(lines[index].mark)\(lines[index].text)")
      last = index
    }
    return output.joined(separator: "\n")
  }
}

@Suite("Generator: output normalization")
struct NormalizationTests {
  @Test func linesAreTrimmedBlankRunsCollapsedAndOneNewlineEnds() {
    #expect(Generator.normalized("a  \r\nb\t\n\n\n\nc\n\n\n") == "a\nb\n\nc\n")
    #expect(Generator.normalized("é ∑\n  \nx") == "é ∑\n\nx\n")
    #expect(Generator.normalized("") == "")
  }
}
