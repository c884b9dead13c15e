import Foundation
import Testing

@testable import ModelGenCLI

/// Issue 17, names and CLI: per-command help, `--access package`, the config's `swiftNames` (with
/// errors at their position in the config file), MGW001 warnings that do not fail a run or
/// `--check`, V1 directive hints, and a schema without models.
@Suite("CLI names, help and access")
struct NamesAndHelpTests {
  let tasks = """
    type Task @model {
      id: ID!
      title: String!
    }
    type Note @model {
      id: ID!
    }
    """

  @Test(arguments: [
    (["help", "generate"], HelpTopic.generate), (["generate", "--help"], .generate), (["generate", "-h"], .generate),
    (["generate", "a.graphql", "--output", "Out", "--help"], .generate), (["help", "validate"], .validate),
    (["validate", "--help"], .validate),
  ])
  func commandHelpPrintsThatCommandsUsage(arguments: [String], topic: HelpTopic) {
    #expect(throws: Never.self) { try Command.parse(arguments) }
    #expect((try? Command.parse(arguments)) == .commandHelp(topic))
    let run = CommandRun(arguments)
    #expect(run.status == 0)
    #expect(run.errors == "")
    #expect(run.output == Command.usage(of: topic) + "\n")
    #expect(run.output.hasPrefix("USAGE: modelgen \(topic.rawValue) <schema.graphql>"))
  }

  /// The pruning rule `generate` states is the manifest's (genbreak11 F2: the help still said a
  /// stale file is removed when its header names the same schema file, the rule before the
  /// manifest).
  @Test func generateHelpStatesTheManifestPruningRule() {
    for text in [Command.usage(of: .generate), Command.usage] {
      let prose = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(prose.contains("DIR/.modelgen-manifest.json records"))
      let headed = ["it still carries", "they still carry"].contains {
        prose.contains("same schema and \($0) the modelgen header")
      }
      #expect(headed)
      #expect(prose.contains("(MGC015)"))
      #expect(!prose.contains("header names the same schema file are removed"))
    }
  }

  @Test func helpOfAnUnknownCommandIsAUsageError() {
    let run = CommandRun(["help", "frobnicate"])
    #expect(run.status == 64)
    #expect(run.errors.hasPrefix("error: unknown help topic 'frobnicate': expected 'generate' or 'validate'\n"))
  }

  @Test func accessPackageEmitsPackageDeclarations() throws {
    #expect(
      try Command.parse(["generate", "a.graphql", "--output", "O", "--access", "package"])
        == .generate(
          GenerateOptions(schemas: ["a.graphql"], output: "O", access: .package)))
    let directory = try TemporaryDirectory()
    try directory.write("t.graphql", "type Note @model { id: ID! text: String }")
    let run = CommandRun([
      "generate", directory.url("t.graphql"), "--output", directory.url("Out"), "--access", "package",
    ])
    #expect(run.status == 0, "\(run.errors)")
    let note = try #require(directory.read("Out/Note.swift"))
    #expect(note.contains("\npackage struct Note: Model {\n"))
    #expect(note.contains("\n  package let id: String\n"))
    #expect(note.contains("\n  package internal(set) var createdAt: Temporal.DateTime?\n"))
    #expect(!note.contains("public "))
    #expect(directory.read("Out/Models.swift")?.contains("\npackage enum Models {\n") == true)
    let config = try ConfigFile.parse(Data(#"{"access": "package"}"#.utf8), path: "c.json")
    #expect(config.access == .package)
  }

  @Test func shadowingTypesWarnAndStillGenerateAndCheck() throws {
    let directory = try TemporaryDirectory()
    try directory.write("t.graphql", tasks)
    let out = directory.url("Out")
    let run = CommandRun(["generate", directory.url("t.graphql"), "--output", out])
    #expect(run.status == 0)
    #expect(run.errors.hasPrefix("\(directory.url("t.graphql")):1:6: warning: type `Task` is generated as `TaskType`"))
    #expect(run.errors.contains("[MGW001]"))
    #expect(directory.read("Out/TaskType.swift")?.contains("public struct TaskType: Model {") == true)
    #expect(directory.read("Out/TaskType+Schema.swift")?.contains(#"name: "Task","#) == true)
    let check = CommandRun(["generate", directory.url("t.graphql"), "--output", out, "--check"])
    #expect(check.status == 0)
    #expect(check.output == "\(out) is up to date\n")
    let validate = CommandRun(["validate", directory.url("t.graphql")])
    #expect(validate.status == 0)
    #expect(validate.output == "1 schema valid\n")
    #expect(validate.errors.contains("[MGW001]"))
  }

  @Test func configSwiftNamesChooseTheName() throws {
    let directory = try TemporaryDirectory()
    try directory.write("t.graphql", tasks)
    try directory.write("modelgen-config.json", #"{"swiftNames": {"Task": "TodoTask"}}"#)
    let run = CommandRun([
      "generate", directory.url("t.graphql"), "--output", directory.url("Out"), "--config",
      directory.url("modelgen-config.json"),
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.errors == "")
    let task = try #require(directory.read("Out/TodoTask.swift"))
    #expect(task.contains("public struct TodoTask: Model {"))
    #expect(directory.read("Out/TodoTask+Schema.swift")?.contains(#"name: "Task","#) == true)
    #expect(directory.read("Out/Models.swift")?.contains("Note.self,\n      TodoTask.self,") == true)
  }

  /// A Swift name in NFD, a combining accent after the first letter (which Swift accepts), is
  /// kept scalar for scalar in the declaration and the file name.
  @Test func configSwiftNamesTakeUnicodeIdentifiersAsWritten() throws {
    let directory = try TemporaryDirectory()
    try directory.write("t.graphql", tasks)
    try directory.write("modelgen-config.json", #"{"swiftNames": {"Task": "Cafe\u0301", "Note": "Ωmega"}}"#)
    let run = CommandRun([
      "generate", directory.url("t.graphql"), "--output", directory.url("Out"), "--config",
      directory.url("modelgen-config.json"),
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.errors == "")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url("Out")).sorted()
    #expect(files.contains { $0.unicodeScalars.elementsEqual("Cafe\u{301}.swift".unicodeScalars) }, "\(files)")
    let task = try #require(directory.read("Out/Cafe\u{301}.swift"))
    #expect(task.contains("public struct Cafe\u{301}: Model {"))
    #expect(directory.read("Out/Ωmega.swift")?.contains("public struct Ωmega: Model {") == true)
  }

  @Test(
    arguments: [
      (#"{"swiftNames": {"Task": "class"}}"#, "1:25", #""class" is a Swift keyword"#),
      (#"{"swiftNames": {"Task": "Date"}}"#, "1:25", "would shadow `Date` of Foundation"),
      (#"{"swiftNames": {"Task": "To-do"}}"#, "1:25", "is not a Swift identifier"),
      (#"{"swiftNames": {"Task": "DataStore"}}"#, "1:25", "would shadow `DataStore` of LazyModelDataStore"),
      (#"{"swiftNames": {"Task": "APIClient"}}"#, "1:25", "would shadow `APIClient` of LazyModelAPI"),
      (#"{"swiftNames": {"Task": "KeyPath"}}"#, "1:25", "would shadow `KeyPath` of the Swift standard library"),
      (#"{"swiftNames": {"Task": "AsyncStream"}}"#, "1:25", "would shadow `AsyncStream` of Swift Concurrency"),
      (#"{"swiftNames": {"Task": "\u0301Cafe"}}"#, "1:25", "cannot start with U+0301"),
      (#"{"swiftNames": {"Task": "Todo\u202e"}}"#, "1:25", "invisible character U+202E"),
      (#"{"swiftNames": {"Task": "A\u0000B"}}"#, "1:25", #"value for "Task": "A\u{0}B" is not a Swift identifier"#),
      (#"{"swiftNames": {"A": "Straße", "B": "STRASSE"}}"#, "1:37", "equal ignoring letter case and Unicode"),
      (#"{"swiftNames": {"A": "Café", "B": "Cafe\u0301"}}"#, "1:35", "equal ignoring letter case and Unicode"),
      (
        "{\n  \"swiftNames\": {\n    \"Task\": \"TodoTask\",\n    \"task-x\": \"X\"\n  }\n}", "4:5",
        "is not a GraphQL type name"
      ),
      (#"{"swiftNames": {"Task": 3}}"#, "1:25", "must be a string"),
      (#"{"swiftNames": {"A": "Same", "B": "same"}}"#, "1:35", "equal ignoring letter case"),
      (#"{"swiftNames": ["Task"]}"#, "1:16", "must be an object"),
    ] as [(String, String?, String)])
  func badConfigSwiftNamesAreErrorsAtTheirPosition(json: String, position: String?, message: String) throws {
    let path = "/cfg/modelgen-config.json"
    let errors = try #require(throws: ConfigFileErrors.self) { try ConfigFile.parse(Data(json.utf8), path: path) }
    #expect(errors.errors.count == 1)
    let error = try #require(errors.first)
    #expect(error.message.contains(message), "\(error.message)")
    #expect(error.line.map { "\($0):\(error.column ?? 0)" } == position)
    if let position { #expect(error.description.hasPrefix("\(path):\(position): error: ")) }
  }

  @Test func configSwiftNamesCheckedAgainstTheSchemasAtTheirPosition() throws {
    let directory = try TemporaryDirectory()
    try directory.write("t.graphql", tasks)
    for (json, position, message) in [
      (
        "{\n  \"swiftNames\": {\"Tsak\": \"TodoTask\"}\n}", "2:18",
        #""swiftNames" entry "Tsak": names no type of the schema"#
      ),
      ("{\"swiftNames\": {\"Task\": \"note\"}}", "1:17", "differ only in letter case"),
      ("{\"swiftNames\": {\"Task\": \"Note\"}}", "1:17", "is the Swift name of type `Note` too"),
    ] {
      try directory.write("modelgen-config.json", json)
      let config = directory.url("modelgen-config.json")
      let run = CommandRun([
        "generate", directory.url("t.graphql"), "--output", directory.url("Out"), "--config", config,
      ])
      #expect(run.status == 64)
      #expect(run.errors.contains("\(config):\(position): error: "), "\(run.errors)")
      #expect(run.errors.contains(message), "\(run.errors)")
      #expect(run.errors.hasSuffix("error: no files written\n"))
      #expect(directory.read("Out/Models.swift") == nil)
    }
  }

  /// `validate --config` reads the config `generate` reads: its `swiftNames` decide the names
  /// (no MGW001 for a chosen one), and its errors are reported at their line and column (64).
  @Test func validateTakesTheConfigOfGenerate() throws {
    #expect(
      try Command.parse(["validate", "a.graphql", "--config", "c.json", "b.graphql"])
        == .validate(schemas: ["a.graphql", "b.graphql"], config: "c.json"))
    #expect(throws: UsageError.self) { try Command.parse(["validate", "a.graphql", "--config"]) }
    #expect(throws: UsageError.self) { try Command.parse(["validate", "a.graphql", "--config", ""]) }
    #expect(throws: UsageError.self) {
      try Command.parse(["validate", "a.graphql", "--config", "c.json", "--config", "d.json"])
    }
    #expect(Command.usage(of: .validate).contains("--config FILE"))

    let directory = try TemporaryDirectory()
    try directory.write("t.graphql", tasks)
    let schema = directory.url("t.graphql")
    let config = directory.url("modelgen-config.json")
    try directory.write("modelgen-config.json", #"{"swiftNames": {"Task": "TodoTask"}}"#)
    let chosen = CommandRun(["validate", schema, "--config", config])
    #expect(chosen.status == 0, "\(chosen.errors)")
    #expect(chosen.errors == "", "the config chose Task's Swift name: no MGW001")
    #expect(chosen.output == "1 schema valid\n")
    #expect(CommandRun(["validate", schema]).errors.contains("[MGW001]"))

    for (json, position, message) in [
      (
        "{\n  \"swiftNames\": {\"Tsak\": \"TodoTask\"}\n}", "2:18",
        #""swiftNames" entry "Tsak": names no type of the schema"#
      ),
      ("{\"swiftNames\": {\"Task\": \"Note\"}}", "1:17", "is the Swift name of type `Note` too"),
      (#"{"swiftNames": {"Task": "class"}}"#, "1:25", #""class" is a Swift keyword"#),
      ("{\n  \"acess\": \"public\"\n}", "2:3", "acess"),
    ] {
      try directory.write("modelgen-config.json", json)
      let run = CommandRun(["validate", schema, "--config", config])
      #expect(run.status == 64, "\(json)")
      #expect(run.errors.contains("\(config):\(position): error: "), "\(run.errors)")
      #expect(run.errors.contains(message), "\(run.errors)")
      #expect(run.output == "")
    }
    let missing = CommandRun(["validate", schema, "--config", directory.url("nope.json")])
    #expect(missing.status == 64)
    #expect(missing.errors.contains("cannot read the config file"))
  }

  @Test func v1DirectivesGetTheirReplacementAsAHint() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "v1.graphql",
      """
      type Post @model @key(fields: ["id"]) {
        id: ID!
      }
      """)
    let run = CommandRun(["validate", directory.url("v1.graphql")])
    #expect(run.status == 1)
    #expect(
      run.errors.contains(
        "\(directory.url("v1.graphql")):1:18: error: `@key` is a directive of the Amplify GraphQL Transformer v1"))
    #expect(run.errors.contains("hint: use `@primaryKey(sortKeyFields:)` on the key's first field (transformer v2)"))
  }

  @Test func aSchemaWithoutModelsGeneratesAnEmptyRegistryAndNoAPISchema() throws {
    let directory = try TemporaryDirectory()
    try directory.write("e.graphql", "enum Level { LOW HIGH }")
    let run = CommandRun([
      "generate", directory.url("e.graphql"), "--output", directory.url("Out"), "--emit", "swift,api-schema",
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.url("Out")).sorted() == [
        ".modelgen-manifest.json", "Level.swift", "Models.swift",
      ])
    #expect(directory.read("Out/Models.swift")?.contains("ModelRegistry(\n    models: []\n  )") == true)
  }
}
