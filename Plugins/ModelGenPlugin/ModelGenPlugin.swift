import Foundation
import PackagePlugin

/// The `ModelGenPlugin` build tool plugin: generates a target's models from its `*.graphql` file
/// at build time.
///
/// For the target's schema file `name.graphql` it declares one build command,
/// `modelgen generate <schema> --single-file <work dir>/name.graphql.swift`, plus
/// `--config <target>/modelgen-config.json` when the target has one (`modelgen` reads the settings
/// when it runs, so an edited config always takes effect). Because the output name follows from
/// the input name, the build system knows the output before it runs anything. The command's inputs
/// are the schema file, the config file and every file of the config's templates directory (and
/// `modelgen` itself), so editing any of them regenerates on the next build and nothing else does.
/// Schema errors are printed by `modelgen` as `path:line:col: error: message [CODE]` with the
/// schema's absolute path, which SwiftPM and Xcode show as errors at that place.
@main
struct ModelGenPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else {
      throw ModelGenPluginError(
        "ModelGenPlugin generates Swift sources, so it applies only to source targets; '\(target.name)' is not one"
      )
    }
    return try Self.commands(
      targetName: target.name, targetFiles: target.sourceFiles.map(\.url),
      modelgen: try context.tool(named: "modelgen").url,
      workDirectory: context.pluginWorkDirectoryURL)
  }

  /// The build commands for one target: one for its schema file.
  ///
  /// - Parameters:
  ///   - targetFiles: Every file SwiftPM lists for the target (sources, schemas, the config).
  ///   - modelgen: The `modelgen` executable.
  ///   - workDirectory: The plugin work directory the outputs go into.
  ///
  /// - Throws: ``ModelGenPluginError`` when the target has no schema or more than one;
  ///   ``ModelGenConfigError`` when the target holds more than one `modelgen-config.json`.
  static func commands(
    targetName: String, targetFiles: [URL], modelgen: URL, workDirectory: URL
  ) throws -> [Command] {
    let schemas = targetFiles.filter { $0.pathExtension == "graphql" }.sorted { $0.path < $1.path }
    guard !schemas.isEmpty else {
      throw ModelGenPluginError(
        """
        target '\(targetName)' uses ModelGenPlugin but has no GraphQL schema: expected one \
        '*.graphql' file (for example 'schema.graphql' with '@model' types) in the target's directory, \
        optionally with a '\(ModelGenConfig.fileName)' next to it
        """)
    }
    let config = try ModelGenConfig.find(in: targetFiles, targetName: targetName)
    // Each schema is a document of its own and its models get their own `Models` registry, so two
    // schemas in one module would declare `Models` twice; say so before the compiler does.
    guard schemas.count == 1 else {
      throw ModelGenPluginError(
        """
        target '\(targetName)' has \(schemas.count) schema files (\(schemas.map(\.lastPathComponent).joined(separator: ", "))); \
        ModelGenPlugin generates one schema per target (each schema gets its own 'Models' registry): \
        merge them into one file, or move each into a target of its own
        """)
    }

    var sharedInputs: [URL] = []
    var options: [String] = []
    if let config {
      sharedInputs = [config] + ModelGenConfig.templateFiles(named: config)
      options = ["--config", config.path]
    }

    return schemas.map { schema in
      let output = workDirectory.appendingPathComponent(schema.lastPathComponent + ".swift")
      return .buildCommand(
        displayName: "Generating models from \(schema.lastPathComponent) (modelgen)",
        executable: modelgen,
        arguments: ["generate", schema.path, "--single-file", output.path] + options,
        inputFiles: [schema] + sharedInputs,
        outputFiles: [output])
    }
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  /// The same plugin for targets of Xcode projects: the schemas and config are among the target's
  /// input files.
  extension ModelGenPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
      try Self.commands(
        targetName: target.displayName, targetFiles: target.inputFiles.map(\.url),
        modelgen: try context.tool(named: "modelgen").url,
        workDirectory: context.pluginWorkDirectoryURL)
    }
  }
#endif

/// A problem that stops ModelGenPlugin from planning a target's build, described in one message.
struct ModelGenPluginError: Error, CustomStringConvertible {
  /// What is wrong and what was expected.
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
