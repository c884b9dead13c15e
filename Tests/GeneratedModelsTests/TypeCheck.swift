import ChildProcessSupport
import Foundation
import Testing

/// `swiftc -typecheck` of a snippet against the modules of this test build.
enum TypeCheck {
  struct Result: Sendable {
    let status: Int32
    let output: String
  }

  /// The build's module directory (`.build/<triple>/debug/Modules`): beside the test bundle.
  static func modulesDirectory() throws -> URL {
    let candidates = [
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ].map { $0.appendingPathComponent("Modules") }
    let found = candidates.first {
      FileManager.default.fileExists(
        atPath: $0.appendingPathComponent("LazyModel.swiftmodule").path)
    }
    return try #require(found, "no Modules directory beside the test bundle: \(candidates)")
  }

  /// Type-checks the `prelude` lines (imports, declarations) followed by `rejections` (one line
  /// each) and expects the snippet to fail with, on each line, an error ending in exactly that line's `error` (`error: <error>`): the
  /// compiler's complaint about the line itself, never only a follow-on error. Each line must be a
  /// declaration of its own (`let a = …`) so that one rejection cannot hide another.
  ///
  /// Records an issue at `sourceLocation` per line whose error is missing, with the compiler's
  /// output. Throws only when `swiftc` cannot be run.
  static func expectEachLineRejected(
    prelude: [String], _ rejections: [(line: String, error: String)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let rejected = try await run((prelude + rejections.map(\.line)).joined(separator: "\n"))
    #expect(rejected.status != 0, "the snippet compiled", sourceLocation: sourceLocation)
    let errors = rejected.output.split(separator: "\n").filter { $0.contains("snippet.swift:") }
    for (offset, rejection) in rejections.enumerated() {
      // Snippet lines are numbered from 1; the prelude comes first.
      let onLine = errors.filter { $0.contains("snippet.swift:\(prelude.count + offset + 1):") }
      #expect(
        onLine.contains { $0.hasSuffix("error: \(rejection.error)") },
        "`\(rejection.line)`: \(onLine)\n\(rejected.output)", sourceLocation: sourceLocation)
    }
  }

  /// Type-checks `source` and expects it to compile (so that a rejection test cannot pass by
  /// failing to run at all); records the compiler's output otherwise.
  static func expectAccepted(_ source: String, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    let accepted = try await run(source)
    #expect(accepted.status == 0, "\(accepted.output)", sourceLocation: sourceLocation)
  }

  /// The package's system-library module directories (`Sources/CSQLite`, `Sources/CCrypto`, …,
  /// each with a `module.modulemap`), which a snippet importing `LazyModelDataStore` or
  /// `LazyModelAPI` needs to find as the package build does.
  static func systemLibraryDirectories() -> [String] {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
    return names.sorted().map { sources.appendingPathComponent($0).path }.filter {
      FileManager.default.fileExists(atPath: $0 + "/module.modulemap")
    }
  }

  /// Type-checks `source`; the wait for the compiler suspends, never blocking a cooperative-pool
  /// thread (ChildProcess waits on threads of its own).
  static func run(_ source: String) async throws -> Result {
    let modules = try modulesDirectory()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("TypeCheck-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("snippet.swift")
    try Data(source.utf8).write(to: file)
    let run = try await ChildProcess.run(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      arguments: ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path]
        + systemLibraryDirectories().flatMap { ["-I", $0] } + [file.path],
      standardError: .standardOutput)
    return Result(status: run.status, output: run.output)
  }
}
