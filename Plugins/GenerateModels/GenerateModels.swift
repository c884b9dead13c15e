import Foundation
import PackagePlugin

/// The `generate-models` command plugin: writes a target's generated models into the package.
///
///     swift package --allow-writing-to-package-directory generate-models \
///       [--target NAME]... [--output DIR] [--check] [--dry-run]
///
/// For every `name.graphql` of each chosen target (default: every source target holding a
/// `*.graphql` file) it runs `modelgen generate <schema> --output <DIR>/name`, plus
/// `--config <target>/modelgen-config.json` when the target has one. `DIR` is relative to the package directory and defaults to
/// `Generated`. Because the plugin only runs the CLI, the files are byte for byte what
/// `modelgen generate` writes, including its rules: files are rewritten only when their bytes
/// change, stale generated files are pruned, hand-written files are never touched. `--check` and
/// `--dry-run` are passed to `modelgen` unchanged (`--check` writes nothing and fails when the
/// output is stale).
@main
struct GenerateModels: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    let outputOptions = extractor.extractOption(named: "output")
    let check = extractor.extractFlag(named: "check") > 0
    let dryRun = extractor.extractFlag(named: "dry-run") > 0
    guard extractor.remainingArguments.isEmpty else {
      throw GenerateModelsError(
        """
        unexpected arguments \(extractor.remainingArguments); usage: swift package \
        --allow-writing-to-package-directory generate-models [--target NAME]... [--output DIR] \
        [--check] [--dry-run]
        """)
    }
    guard outputOptions.count <= 1 else {
      throw GenerateModelsError(
        "--output is given \(outputOptions.count) times; give it at most once")
    }

    let package = context.package
    let targets: [SourceModuleTarget]
    if targetNames.isEmpty {
      targets = package.targets.compactMap { $0 as? SourceModuleTarget }
        .filter { !$0.sourceFiles(withSuffix: ".graphql").map(\.url).isEmpty }
      guard !targets.isEmpty else {
        throw GenerateModelsError(
          "no target of package '\(package.displayName)' holds a '*.graphql' schema; add one or pass --target NAME"
        )
      }
    } else {
      targets = try package.targets(named: targetNames).map { target in
        guard let source = target as? SourceModuleTarget else {
          throw GenerateModelsError(
            "target '\(target.name)' is not a source target, so it holds no schema")
        }
        return source
      }
    }

    let outputPath = outputOptions.first ?? "Generated"
    let outputRoot =
      (outputPath.hasPrefix("/")
      ? URL(fileURLWithPath: outputPath) : package.directoryURL.appendingPathComponent(outputPath))
      .standardizedFileURL
    let modelgen = try context.tool(named: "modelgen").url
    var passThrough: [String] = []
    if check { passThrough.append("--check") }
    if dryRun { passThrough.append("--dry-run") }

    // Plan every run first, so that a collision writes nothing.
    var runs: [(schema: URL, output: URL, arguments: [String])] = []
    var outputs: [String: URL] = [:]
    for target in targets {
      let schemas = target.sourceFiles(withSuffix: ".graphql").map(\.url).sorted {
        $0.path < $1.path
      }
      guard !schemas.isEmpty else {
        throw GenerateModelsError(
          """
          target '\(target.name)' has no GraphQL schema: expected at least one '*.graphql' file in the \
          target's directory, optionally with a '\(ModelGenConfig.fileName)' next to it
          """)
      }
      let config = try ModelGenConfig.find(
        in: target.sourceFiles.map(\.url), targetName: target.name)
      let options = config.map { ["--config", $0.path] } ?? []
      for schema in schemas {
        let output = outputRoot.appendingPathComponent(
          schema.deletingPathExtension().lastPathComponent)
        if let other = outputs[output.path] {
          throw GenerateModelsError(
            """
            \(other.path) and \(schema.path) would both be generated into \(output.path); \
            rename one, or run generate-models once per target with its own --output
            """)
        }
        outputs[output.path] = schema
        runs.append(
          (
            schema, output,
            ["generate", schema.path, "--output", output.path] + options + passThrough
          ))
      }
    }

    for run in runs {
      print(
        "generate-models: \(relative(run.schema, to: package.directoryURL)) -> \(relative(run.output, to: package.directoryURL))"
      )
      let process = Process()
      process.executableURL = modelgen
      process.arguments = run.arguments
      try process.run()
      process.waitUntilExit()
      guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        throw GenerateModelsError(
          "modelgen \(run.arguments.joined(separator: " ")) failed with exit status \(process.terminationStatus)"
        )
      }
    }
  }

  /// `url`'s path relative to `base` when it lies inside it, else its absolute path.
  private func relative(_ url: URL, to base: URL) -> String {
    let basePath = base.standardizedFileURL.path + "/"
    let path = url.standardizedFileURL.path
    return path.hasPrefix(basePath) ? String(path.dropFirst(basePath.count)) : path
  }
}

/// A problem that stops `generate-models`, described in one message.
struct GenerateModelsError: Error, CustomStringConvertible {
  /// What is wrong and what was expected.
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
