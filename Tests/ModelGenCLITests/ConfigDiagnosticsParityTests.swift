import Foundation
import Testing

/// Issue 17, CLI diagnostics a fresh user found: `generate --config` and `validate --config` run
/// the same config checks and report every independent error of the file, in file order, with the
/// same exit status; a config syntax error that ends the JSON reading still lets the schemas be
/// read and parsed; an unreadable schema is `MGC027` with a hint. Every case runs the real binary.
@Suite("CLI config diagnostics: generate and validate alike (spawned binary)")
struct ConfigDiagnosticsParityTests {
  /// A schema with the user types `Task` and `TodoTask`.
  let tasks = "type Task @model { id: ID! }\ntype TodoTask @model { id: ID! }\n"

  /// The config error lines (`path…: error: … [MGC…]`) of a run's standard error, each with its
  /// hint line.
  static func configErrors(_ run: SpawnedRun) -> [String] {
    let lines = run.errors.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var errors: [String] = []
    for (index, line) in lines.enumerated() where line.contains(": error: ") && line.contains(" [MGC") {
      errors.append(line + "\n" + (index + 1 < lines.count ? lines[index + 1] : ""))
    }
    return errors
  }

  /// The codes of ``configErrors(_:)``, in printing order.
  static func configCodes(_ run: SpawnedRun) -> [String] {
    configErrors(run).compactMap { error in
      error.firstMatch(of: #/\[(MGC\d+)\]/#).map { String($0.output.1) }
    }
  }

  /// Runs `validate` and `generate` on the same files and returns both runs.
  static func both(_ schemas: [String], config: String?, in directory: TemporaryDirectory) async throws
    -> (validate: SpawnedRun, generate: SpawnedRun)
  {
    let configArguments = config.map { ["--config", $0] } ?? []
    let validate = try await SpawnedRun.spawn(["validate"] + schemas + configArguments, in: directory.path)
    let generate = try await SpawnedRun.spawn(
      ["generate"] + schemas + ["--output", "Out"] + configArguments, in: directory.path)
    return (validate, generate)
  }

  /// The issue's file: `Tsak` names no type (MGC012) and `Task`'s value is the Swift name of the
  /// user type `TodoTask` (MGC011). `validate` printed both, `generate` only MGC011 (its check of
  /// unknown keys was skipped once any schema problem was found).
  @Test func generateReportsEverySwiftNamesErrorValidateReports() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", tasks)
    try directory.write("modelgen-config.json", #"{"swiftNames": {"Tsak": "TodoItem", "Task": "TodoTask"}}"#)
    let (validate, generate) = try await Self.both(["s.graphql"], config: "modelgen-config.json", in: directory)
    for run in [validate, generate] {
      #expect(run.status == 64, "\(run.errors)")
      #expect(Self.configCodes(run) == ["MGC012", "MGC011"], "\(run.errors)")
      let errors = Self.configErrors(run)
      #expect(errors.first?.hasPrefix("modelgen-config.json:1:17: error: \"swiftNames\" entry \"Tsak\": ") == true)
      #expect(errors.last?.hasPrefix("modelgen-config.json:1:37: error: \"swiftNames\" entry \"Task\": ") == true)
      #expect(errors.allSatisfy { $0.contains("\n  hint: ") }, "\(errors)")
    }
    #expect(Self.configErrors(validate) == Self.configErrors(generate))
    #expect(directory.read("Out/Models.swift") == nil)
  }

  /// One kind of error no longer hides another: an invalid value used to stop the run before the
  /// schemas' checks of `swiftNames` (MGC012, MGC011), and a comment or trailing comma (MGC003,
  /// which the reader skips) before the checks of the values (MGC007). Every error is reported
  /// in file order, by both commands.
  @Test(arguments: [
    (
      #"{"access": "open", "swiftNames": {"Tsak": "TodoItem", "Task": "TodoTask"}}"#,
      ["MGC007", "MGC012", "MGC011"], ["1:12", "1:35", "1:55"]
    ),
    (#"{"access": "open", "emit": ["swift",]}"#, ["MGC007", "MGC003"], ["1:12", "1:36"]),
    ("{\"access\": \"open\",\n}", ["MGC007", "MGC003"], ["1:12", "1:18"]),
    ("{\"acess\": 1, // note\n \"access\": \"open\"}", ["MGC006", "MGC003", "MGC007"], ["1:2", "1:14", "2:12"]),
    (
      #"{"swiftNames": {"Tsak": "class", "Task": 3}}"#, ["MGC012", "MGC010", "MGC007"],
      ["1:17", "1:25", "1:42"]
    ),
  ])
  func noKindOfConfigErrorHidesAnother(json: String, codes: [String], positions: [String]) async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", tasks)
    try directory.write("modelgen-config.json", json)
    let (validate, generate) = try await Self.both(["s.graphql"], config: "modelgen-config.json", in: directory)
    for run in [validate, generate] {
      #expect(run.status == 64, "\(json): \(run.errors)")
      #expect(Self.configCodes(run) == codes, "\(json): \(run.errors)")
      let columns = Self.configErrors(run).map {
        $0.dropFirst("modelgen-config.json:".count).split(separator: ":").prefix(2).joined(separator: ":")
      }
      #expect(columns == positions, "\(json): \(run.errors)")
    }
    #expect(Self.configErrors(validate) == Self.configErrors(generate), "\(json)")
  }

  /// A syntax error that ends the JSON reading (here a missing comma) leaves the file's content
  /// unknown: no member is checked (`"access": "open"` is not reported) and the schemas are only
  /// read and parsed, since their semantic checks depend on the config (`swiftNames`,
  /// `conflictResolution`). The schema's syntax error is still reported, by both commands.
  @Test func aConfigSyntaxErrorStillLetsTheSchemasBeParsed() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("bad.graphql", "type Post @model { id: ID! % }\n")
    try directory.write("semantic.graphql", "type Post @model { id: ID! author: Writer @belongsTo }\n")
    try directory.write("modelgen-config.json", #"{"access": "open" "emit": 3}"#)
    let (validate, generate) = try await Self.both(
      ["bad.graphql", "semantic.graphql"], config: "modelgen-config.json", in: directory)
    for run in [validate, generate] {
      #expect(run.status == 64, "\(run.errors)")
      #expect(Self.configCodes(run) == ["MGC003"], "\(run.errors)")
      #expect(run.errors.contains("modelgen-config.json:1:19: error: expected ',' or '}' after a member"))
      #expect(run.errors.contains("bad.graphql:1:28: error: unexpected character `%` [SDL001]"), "\(run.errors)")
      #expect(!run.errors.contains("[MG001]"), "\(run.errors)")
    }
  }

  /// Both commands exit alike for every mix of config and schema problems: 64 for a config error
  /// or an unreadable schema, 1 for schema errors only, 0 when all is valid (SPEC §6); and they
  /// print the same config errors.
  @Test func bothCommandsExitAlikeForEveryMixOfProblems() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("good.graphql", tasks)
    try directory.write("syntax.graphql", "type Post @model { id: ID!\n")
    try directory.write("semantic.graphql", "type Task @model { id: ID! author: Writer @belongsTo }\n")
    let configs: [(name: String, json: String?, isValid: Bool)] = [
      ("none", nil, true),
      ("empty.json", "{}", true),
      ("names.json", #"{"swiftNames": {"Task": "TodoItem"}}"#, true),
      ("value.json", #"{"access": "open"}"#, false),
      ("comma.json", #"{"access": "internal",}"#, false),
      ("syntax.json", #"{"access" "internal"}"#, false),
      ("unknown.json", #"{"swiftNames": {"Tsak": "TodoItem"}}"#, false),
      ("missing.json", nil, false),
    ]
    for config in configs {
      if let json = config.json { try directory.write(config.name, json) }
      for (schema, schemaStatus) in [
        ("good.graphql", Int32(0)), ("syntax.graphql", 1), ("semantic.graphql", 1), ("none.graphql", 64),
      ] {
        let path = config.name == "none" ? nil : config.name
        let (validate, generate) = try await Self.both([schema], config: path, in: directory)
        var expected = config.isValid ? schemaStatus : 64
        // `Tsak` names no type only once the schema parsed.
        if config.name == "unknown.json" && schema == "syntax.graphql" { expected = 1 }
        #expect(validate.status == expected, "\(config.name) \(schema): \(validate.errors)")
        #expect(generate.status == expected, "\(config.name) \(schema): \(generate.errors)")
        #expect(Self.configErrors(validate) == Self.configErrors(generate), "\(config.name) \(schema)")
      }
    }
  }

  /// An unreadable schema is `MGC027` at its path, with a hint, exit 64 (it used to be
  /// `error: cannot read schema …` with no code); the other schemas are still checked.
  @Test func anUnreadableSchemaIsMGC027AndTheOthersAreStillChecked() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("bad.graphql", "type Post @model { id: ID! author: Writer @belongsTo }\n")
    let (validate, generate) = try await Self.both(["nope.graphql", "bad.graphql"], config: nil, in: directory)
    for run in [validate, generate] {
      #expect(run.status == 64, "\(run.errors)")
      #expect(
        run.errors.hasPrefix(
          "nope.graphql: error: cannot read the schema: no such file [MGC027]\n"
            + "  hint: pass the path of a readable GraphQL schema file (relative to the working directory, or absolute)\n"
        ), "\(run.errors)")
      #expect(run.errors.contains("bad.graphql:1:36: error: unknown type `Writer` [MG001]"), "\(run.errors)")
    }
    #expect(generate.errors.hasSuffix("error: no files written\n"))
  }

  /// Templates that cannot be used are `MGC028` at their path, with a hint (they were
  /// `error: cannot read templates directory …` with no code), and the schemas are still checked.
  @Test func unusableTemplatesAreMGC028AndTheSchemasAreStillChecked() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("bad.graphql", "type Post @model { id: ID! author: Writer @belongsTo }\n")
    let run = try await SpawnedRun.spawn(
      ["generate", "bad.graphql", "--output", "Out", "--templates", "nowhere"], in: directory.path)
    #expect(run.status == 64, "\(run.errors)")
    #expect(
      run.errors.hasPrefix("nowhere: error: cannot read the templates directory: no such directory [MGC028]\n  hint: "),
      "\(run.errors)")
    #expect(run.errors.contains("bad.graphql:1:36: error: unknown type `Writer` [MG001]"), "\(run.errors)")
    #expect(run.errors.hasSuffix("error: no files written\n"))
  }

  /// The config's `templates` are checked by `validate` as `generate` loads them: a directory whose
  /// template does not compile (MGC029) or whose file names no template (MGC028) fails both
  /// commands with the same lines and exit 64 (`validate` said "1 schema valid" and exited 0).
  @Test(arguments: [
    (
      "enum.mustache", "{{> header}}\nok\n  {{#cases}}\n",
      "T/enum.mustache:3:3: error: section 'cases' is never closed [MGC029]\n  hint: close it with '{{/cases}}'\n"
    ),
    (
      "modle.mustache", "x\n",
      "T/modle.mustache: error: unknown template: 'modle.mustache' is not a template name, and no template"
        + " includes it as a partial [MGC028]\n  hint: did you mean 'model.mustache'?\n"
    ),
  ])
  func validateChecksTheConfigsTemplatesAsGenerateDoes(file: String, text: String, expected: String) async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", "enum Color { red }\ntype Post @model { id: ID! color: Color }\n")
    try directory.write("T/\(file)", text)
    try directory.write("modelgen-config.json", #"{"templates": "T"}"#)
    let (validate, generate) = try await Self.both(["s.graphql"], config: "modelgen-config.json", in: directory)
    for run in [validate, generate] {
      #expect(run.status == 64, "\(run.errors)")
      #expect(run.errors.hasPrefix(expected) || run.errors.contains("/" + expected), "\(run.errors)")
    }
    #expect(validate.errors == generate.errors.replacingOccurrences(of: "error: no files written\n", with: ""))
    #expect(validate.output.isEmpty, "\(validate.output)")
    #expect(generate.errors.hasSuffix("error: no files written\n"))
  }
}
