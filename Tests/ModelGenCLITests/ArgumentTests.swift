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
      "invalid value 'open' for '--access': expected 'public' or 'internal'"
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
    #expect(errors.hasPrefix("error: missing schema"))
    #expect(errors.contains("USAGE: modelgen generate"))
  }

  @Test func helpExitsWith0() {
    var output = ""
    #expect(
      ModelGenCommand(standardOutput: { output += $0 }, standardError: { _ in }).run(["help"]) == 0)
    #expect(
      output.contains("EXIT STATUS: 0 success, 1 schema errors or stale output, 64 bad usage."))
  }

  @Test func regenerateCommandRepeatsTheOptionsThatMatter() {
    let options = GenerateOptions(
      schemas: ["Schemas/a.graphql"], output: "Generated/a", access: .internal,
      emit: [.swift, .apiSchema], check: true)
    #expect(
      options.regenerateCommand
        == "swift run modelgen generate Schemas/a.graphql --output Generated/a --access internal --emit swift,api-schema"
    )
  }
}
