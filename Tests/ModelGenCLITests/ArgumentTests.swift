import ModelGen
import Testing

@testable import ModelGenCLI

@Suite("CLI arguments")
struct ArgumentTests {
  @Test func generateWithEveryOption() throws {
    let command = try Command.parse([
      "generate", "a.graphql", "b.graphql", "--output", "Out", "--templates", "T", "--access",
      "internal",
      "--emit", "swift,api-schema", "--dry-run",
    ])
    #expect(
      command
        == .generate(
          GenerateOptions(
            schemas: ["a.graphql", "b.graphql"], output: "Out", templates: "T", access: .internal,
            emit: [.swift, .apiSchema], dryRun: true)))
  }

  @Test func inlineOptionValues() throws {
    let command = try Command.parse([
      "generate", "a.graphql", "--output=Out", "--access=public", "--check",
    ])
    #expect(
      command == .generate(GenerateOptions(schemas: ["a.graphql"], output: "Out", check: true)))
  }

  @Test func validateAndHelp() throws {
    #expect(
      try Command.parse(["validate", "a.graphql", "b.graphql"])
        == .validate(schemas: ["a.graphql", "b.graphql"]))
    #expect(try Command.parse(["--help"]) == .help)
  }

  @Test(arguments: [
    ([], "missing command: expected 'generate' or 'validate'"),
    (["build"], "unknown command 'build': expected 'generate' or 'validate'"),
    (["generate", "--output", "O"], "missing schema: 'generate' needs at least one .graphql file"),
    (["generate", "a.graphql"], "missing '--output DIR'"),
    (["generate", "a.graphql", "--output"], "missing value for '--output'"),
    (
      ["generate", "a.graphql", "--output", "O", "--access", "open"],
      "invalid value 'open' for '--access': expected 'public', 'package' or 'internal'"
    ),
    (
      ["generate", "a.graphql", "--output", "O", "--emit", "swift,docs"],
      "invalid value 'docs' for '--emit': expected 'swift' and/or 'api-schema'"
    ),
    (
      ["generate", "a.graphql", "--output", "O", "--check", "--dry-run"],
      "'--check' and '--dry-run' cannot be used together"
    ),
    (
      ["generate", "a.graphql", "--output", "O", "--verbose"],
      "unknown option '--verbose' for 'generate'"
    ),
    (
      ["generate", "x/a.graphql", "y/a.graphql", "--output", "O"],
      "two schemas have the file stem 'a': their output directories would collide"
    ),
    (["validate"], "missing schema: 'validate' needs at least one .graphql file"),
    (["validate", "a.graphql", "--fast"], "unknown option '--fast' for 'validate'"),
  ])
  func usageErrors(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try Command.parse(arguments) }
  }

  @Test func usageErrorsExitWith64AndPrintUsage() {
    var errors = ""
    let status = ModelGenCommand(standardOutput: { _ in }, standardError: { errors += $0 }).run([
      "generate"
    ])
    #expect(status == 64)
    #expect(
      errors
        == "error: missing schema: 'generate' needs at least one .graphql file\n"
        + "usage: modelgen generate <schema.graphql>... --output DIR [options] | modelgen validate <schema.graphql>... [--config FILE]\n"
        + "see modelgen --help\n")
  }

  @Test func helpExitsWith0() {
    var output = ""
    #expect(
      ModelGenCommand(standardOutput: { output += $0 }, standardError: { _ in }).run(["help"]) == 0)
    #expect(
      output.contains(
        "EXIT STATUS: 0 success; 1 schema errors, stale output (--check) or output that cannot be\n"
          + "written; 64 bad usage or an input (schema, --config, --templates) that cannot be read or used."
      ))
  }

  @Test func regenerateCommandIsTheInvokedCommandWithoutCheck() {
    #expect(
      ModelGenCommand.regenerateCommand(
        programName: ".build/debug/modelgen",
        arguments: [
          "generate", "Schemas/a.graphql", "--check", "--output", "Generated/a", "--access",
          "internal", "--emit=swift,api-schema",
        ])
        == ".build/debug/modelgen generate Schemas/a.graphql --output Generated/a --access internal --emit=swift,api-schema"
    )
    #expect(
      ModelGenCommand.regenerateCommand(
        programName: "modelgen", arguments: ["generate", "my schema.graphql", "--output", "it's"])
        == "modelgen generate 'my schema.graphql' --output 'it'\\''s'")
  }

  @Test func aSingleValuedOptionGivenTwiceIsAUsageError() {
    for arguments in [
      ["generate", "a.graphql", "--output", "A", "--output", "B"],
      ["generate", "a.graphql", "-o", "A", "--output=B"],
      ["generate", "a.graphql", "--output", "A", "--access", "public", "--access=internal"],
      ["generate", "a.graphql", "--output", "A", "--emit", "swift", "--emit", "api-schema"],
      ["generate", "a.graphql", "--output", "A", "--templates", "T", "--templates", "U"],
      ["generate", "a.graphql", "--output", "A", "--config", "c.json", "--config", "d.json"],
      ["generate", "a.graphql", "--single-file", "A.swift", "--single-file", "B.swift"],
    ] {
      #expect(throws: UsageError.self) { try Command.parse(arguments) }
    }
    #expect(throws: UsageError("'--output' given twice: it takes one value")) {
      try Command.parse(["generate", "a.graphql", "--output", "A", "--output", "B"])
    }
  }

  @Test func everyUsageErrorPrintsTheShortUsageAndExits64() {
    let shortUsage =
      "usage: modelgen generate <schema.graphql>... --output DIR [options] | modelgen validate <schema.graphql>... [--config FILE]\n"
      + "see modelgen --help\n"
    for (arguments, message) in [
      ([], "missing command: expected 'generate' or 'validate'"),
      (["frobnicate"], "unknown command 'frobnicate': expected 'generate' or 'validate'"),
      (["generate", "a.graphql"], "missing '--output DIR'"),
      (["generate", "a.graphql", "--output", "A", "--output", "B"], "'--output' given twice: it takes one value"),
      (["validate", "--check", "a.graphql"], "unknown option '--check' for 'validate'"),
    ] {
      let run = CommandRun(arguments)
      #expect(run.status == 64)
      #expect(run.errors == "error: \(message)\n" + shortUsage)
      #expect(run.output.isEmpty)
    }
  }
}
