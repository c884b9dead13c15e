import Foundation
import ModelVocabulary
import Testing

@testable import ModelGenCLI

/// Issue 19: one version constant (`ModelGenRelease`) that `modelgen --version`, the generated
/// registry's runtime check, `CHANGELOG.md` and the README agree on.
@Suite("modelgen --version and the release constant")
struct VersionTests {
  /// The package root (this file is `Tests/ModelGenCLITests/VersionTests.swift`).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func theConstantsArePinned() {
    #expect(ModelGenRelease.version == "0.1.0")
    #expect(ModelGenRelease.runtimeVersion == "v2")
    #expect(ModelGenRelease.versionLine == "modelgen 0.1.0 (LazyModel runtime v2)")
  }

  @Test func parsesVersionAndRejectsArguments() throws {
    #expect(try Command.parse(["--version"]) == .version)
    #expect(try Command.parse(["version"]) == .version)
    #expect(throws: UsageError("'--version' takes no arguments")) {
      try Command.parse(["--version", "a.graphql"])
    }
  }

  @Test func printsTheVersionLineAndExits0() {
    var output = ""
    var errors = ""
    let status = ModelGenCommand(standardOutput: { output += $0 }, standardError: { errors += $0 })
      .run(["--version"])
    #expect(status == 0)
    #expect(output == "modelgen 0.1.0 (LazyModel runtime v2)\n")
    #expect(errors.isEmpty)
  }

  @Test func theBuiltBinaryPrintsIt() async throws {
    let run = try await SpawnedRun.spawn(["--version"], in: Self.root.path)
    #expect(run.status == 0)
    #expect(run.output == ModelGenRelease.versionLine + "\n")
    #expect(run.errors.isEmpty)
  }

  @Test func helpNamesTheFlag() {
    #expect(Command.usage.contains("modelgen --version\n"))
  }

  /// The checked-in registry references the runtime version the constant names.
  @Test func generatedRegistryNamesTheRuntimeVersion() throws {
    let registry = try Self.text("Generated/seed-post-comment/Models.swift")
    #expect(
      registry.contains(
        "public static let runtimeVersion = LazyModelRuntimeVersion.\(ModelGenRelease.runtimeVersion)\n"))
  }

  /// `CHANGELOG.md` (Keep a Changelog 1.1.0) has an Unreleased section first, then the current
  /// version with a date; the README's dependency line names the same version.
  @Test func changelogAndReadmeNameTheVersion() throws {
    let changelog = try Self.text("CHANGELOG.md")
    let headings = changelog.split(separator: "\n").filter { $0.hasPrefix("## ") }.map(String.init)
    #expect(headings.first == "## [Unreleased]")
    #expect(headings.dropFirst().first?.hasPrefix("## [\(ModelGenRelease.version)] - ") == true)
    let readme = try Self.text("README.md")
    #expect(readme.contains(#"from: "\#(ModelGenRelease.version)")"#))
    #expect(readme.contains("modelgen \(ModelGenRelease.version) (LazyModel runtime"))
  }
}
