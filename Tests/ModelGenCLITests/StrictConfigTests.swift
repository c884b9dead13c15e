import Foundation
import ModelGenCLI
import Testing

/// Issue 17's config items: a `swiftNames` target that takes another type's Swift name is an
/// error in either order (MGC011); every config error has a stable code, a line and column and a
/// hint; the file is strict JSON (no duplicate keys, comments or trailing commas) of at most
/// 1 MiB; and its errors share a budget of 200 (then MGC099). Every case runs the real binary.
@Suite("CLI config: codes, strict JSON, limits (spawned binary)")
struct StrictConfigTests {
  let twoModels = "type X @model { id: ID! }\ntype Y @model { id: ID! }\n"

  /// `{"X": "Y"}` beside a type `Y` used to rename `Y` to `Y2` silently; `{"Y": "X"}` beside `X`
  /// was an error. Both are MGC011 at the entry's key, whichever type is declared first, for
  /// `generate` and `validate`, and nothing is written.
  @Test(arguments: [
    (#"{"swiftNames": {"X": "Y"}}"#, "X", "Y"),
    (#"{"swiftNames": {"Y": "X"}}"#, "Y", "X"),
    (#"{"swiftNames": {"X": "y"}}"#, "X", "Y"),
  ])
  func aSwiftNameTakingAnotherTypesNameIsAnErrorInEitherOrder(json: String, entry: String, other: String) async throws {
    for schema in [twoModels, "type Y @model { id: ID! }\ntype X @model { id: ID! }\n"] {
      let directory = try TemporaryDirectory()
      try directory.write("s.graphql", schema)
      try directory.write("modelgen-config.json", json)
      for arguments in [
        ["generate", "s.graphql", "--output", "Out", "--config", "modelgen-config.json"],
        ["validate", "s.graphql", "--config", "modelgen-config.json"],
      ] {
        let run = try await SpawnedRun.spawn(arguments, in: directory.path)
        #expect(run.status == 64, "\(run.errors)")
        #expect(
          run.errors.contains("modelgen-config.json:1:17: error: \"swiftNames\" entry \"\(entry)\": "),
          "\(run.errors)")
        #expect(run.errors.contains("of type `\(other)`"), "\(run.errors)")
        #expect(run.errors.contains("(in s.graphql) [MGC011]\n  hint: "), "\(run.errors)")
        #expect(directory.read("Out/Models.swift") == nil)
      }
    }
    // Giving both types names keeps them apart: no error.
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", twoModels)
    try directory.write("modelgen-config.json", #"{"swiftNames": {"X": "Y", "Y": "YModel"}}"#)
    let run = try await SpawnedRun.spawn(
      ["generate", "s.graphql", "--output", "Out", "--config", "modelgen-config.json"], in: directory.path)
    #expect(run.status == 0, "\(run.errors)")
    #expect(directory.read("Out/Y.swift")?.contains("struct Y:") == true)
    #expect(directory.read("Out/YModel.swift")?.contains("struct YModel:") == true)
  }

  /// Syntax errors RFC 8259 forbids, duplicate keys and checks of values: each at its line and
  /// column, with its code and a hint line.
  @Test(arguments: [
    ("{\n  \"access\": \"internal\",\n}", "2:23", "MGC003", "trailing comma before '}'"),
    ("{\"emit\": [\"swift\",]}", "1:18", "MGC003", "trailing comma before ']'"),
    ("{\n  // internal\n  \"access\": \"internal\"\n}", "2:3", "MGC003", "comments are not JSON"),
    ("{ /* x */ \"access\": \"internal\" }", "1:3", "MGC003", "comments are not JSON"),
    (
      "{\"access\": \"internal\",\n \"access\": \"public\"}", "2:2", "MGC004",
      "duplicate key \"access\" (first written at 1:2)"
    ),
    ("{\"access\" \"internal\"}", "1:11", "MGC003", "expected ':' after the key \"access\""),
    ("{\"access\": 'internal'}", "1:12", "MGC003", "strings must be in double quotes"),
    ("{access: \"internal\"}", "1:2", "MGC003", "expected a key in double quotes"),
    ("{\"access\": \"internal\"} {}", "1:24", "MGC003", "after the JSON value"),
    ("{\"access\": \"inter\nnal\"}", "1:18", "MGC003", "a control character (U+000A) in a string"),
    ("{\"access\": \"\\x\"}", "1:13", "MGC003", "an invalid escape"),
    ("{\"access\": 01}", "1:12", "MGC003", "an invalid number"),
    ("{\"access\": tru}", "1:12", "MGC003", "invalid literal; expected true"),
    ("{\n  \"access\": ", "2:13", "MGC003", "the JSON text ends where a value is expected"),
    ("", "1:1", "MGC003", "the config file is empty"),
    (
      "\t{\"access\": \"ïnternal\", \"access\": \"public\"}", "1:25", "MGC004",
      "duplicate key \"access\" (first written at 1:3)"
    ),
    ("{\"access\": \"open\"}", "1:12", "MGC007", "\"access\" must be"),
    ("[1]", "1:1", "MGC005", "must hold one JSON object"),
    ("{\"acess\": \"internal\"}", "1:2", "MGC006", "unknown key \"acess\""),
    ("{\"templates\": \"nowhere\"}", "1:15", "MGC008", "which is not a directory"),
    ("{\"swiftNames\": {\"a-b\": \"AB\"}}", "1:17", "MGC009", "is not a GraphQL type name"),
    ("{\"swiftNames\": {\"X\": \"class\"}}", "1:22", "MGC010", "is a Swift keyword"),
    ("{\"swiftNames\": {\"X\": \"Same\", \"Y\": \"same\"}}", "1:35", "MGC011", "equal ignoring letter case"),
    ("{\"swiftNames\": {\"Z\": \"ZModel\"}}", "1:17", "MGC012", "names no type of the schema"),
  ])
  func everyConfigErrorHasItsCodePositionAndHint(json: String, position: String, code: String, message: String)
    async throws
  {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", twoModels)
    try directory.write("modelgen-config.json", json)
    let run = try await SpawnedRun.spawn(
      ["generate", "s.graphql", "--output", "Out", "--config", "modelgen-config.json"], in: directory.path)
    #expect(run.status == 64)
    let lines = run.errors.split(separator: "\n").map(String.init)
    // The error at `position` (a file may have others: a duplicate key's first value is checked too).
    let index = try #require(
      lines.firstIndex { $0.hasPrefix("modelgen-config.json:\(position): error: ") }, "\(json): \(run.errors)")
    let headline = lines[index]
    #expect(headline.hasSuffix(" [\(code)]"), "\(json): \(run.errors)")
    #expect(headline.contains(message), "\(json): \(run.errors)")
    #expect(lines.count > index + 1 && lines[index + 1].hasPrefix("  hint: "), "\(json): \(run.errors)")
    #expect(directory.read("Out/Models.swift") == nil)
  }

  /// A lower-case `swiftNames` value naming a member the generated code declares (a property of a
  /// generated type, or `identifier`, `keys`, `schema`, `path`, `registry`) would be shadowed by it
  /// there, so the output did not compile: MGC010 at the entry, with a hint, and nothing is written.
  @Test(arguments: [
    ("Post", "post", "1:17", "a property of a generated type"),
    ("Post", "identifier", "1:17", "`identifier` of every model"),
    ("Post", "keys", "1:17", "`keys` of every model and embedded type"),
    ("Post", "schema", "1:17", "`schema` of every model and embedded type"),
    ("Post", "path", "1:17", "`path` of every model"),
    ("Comment", "registry", "1:17", "`Models.registry`"),
  ])
  func valuesNamedLikeGeneratedMembersAreMGC010(key: String, value: String, position: String, member: String)
    async throws
  {
    let directory = try TemporaryDirectory()
    try directory.write(
      "s.graphql",
      "type Post @model { id: ID! comments: [Comment] @hasMany }\ntype Comment @model { id: ID! post: Post @belongsTo }\n"
    )
    try directory.write("modelgen-config.json", "{\"swiftNames\": {\"\(key)\": \"\(value)\"}}")
    for command in [["validate"], ["generate", "--output", "Out"]] {
      let run = try await SpawnedRun.spawn(
        [command[0], "s.graphql", "--config", "modelgen-config.json"] + command.dropFirst(), in: directory.path)
      #expect(run.status == 64, "\(run.errors)")
      let lines = run.errors.split(separator: "\n").map(String.init)
      let headline = try #require(lines.first, "\(value)")
      #expect(
        headline
          == "modelgen-config.json:\(position): error: \"swiftNames\" entry \"\(key)\": \"\(value)\" is the name of a member the generated code declares (\(member)), which would shadow the type there (in s.graphql) [MGC010]",
        "\(run.errors)")
      #expect(
        lines.count > 1
          && lines[1]
            == "  hint: choose another Swift name for `\(key)`, upper-camel-cased as types are, such as \"\(key)Model\"",
        "\(run.errors)")
    }
    #expect(directory.read("Out/Models.swift") == nil)
  }

  /// Every problem is reported in one run, in file order: comments, trailing commas and duplicate
  /// keys do not stop the checks of the members (until s15 the unknown key `acess` and the invalid
  /// `emit` here were hidden behind the syntax errors).
  @Test func everyProblemOfOneFileIsReported() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", twoModels)
    try directory.write(
      "modelgen-config.json",
      "{\n  \"acess\": \"internal\", // typo\n  \"emit\": [\"docs\"],\n  \"acess\": \"public\",\n}\n")
    let syntax = try await SpawnedRun.spawn(
      ["validate", "s.graphql", "--config", "modelgen-config.json"], in: directory.path)
    #expect(syntax.status == 64)
    let headlines = syntax.errors.split(separator: "\n").filter { !$0.hasPrefix("  hint: ") }
    #expect(
      headlines.map { $0.split(separator: ": error: ").first.map(String.init) ?? "" }
        == [
          "modelgen-config.json:2:3", "modelgen-config.json:2:24", "modelgen-config.json:3:11",
          "modelgen-config.json:4:3", "modelgen-config.json:4:20",
        ],
      "\(syntax.errors)")
    #expect(headlines.map { String($0.suffix(8)) } == ["[MGC006]", "[MGC003]", "[MGC007]", "[MGC004]", "[MGC003]"])

    try directory.write(
      "modelgen-config.json",
      "{\n  \"acess\": \"internal\",\n  \"emit\": [\"docs\"],\n  \"conflictResolution\": \"automerg\"\n}\n")
    let values = try await SpawnedRun.spawn(
      ["validate", "s.graphql", "--config", "modelgen-config.json"], in: directory.path)
    let valueLines = values.errors.split(separator: "\n").filter { !$0.hasPrefix("  hint: ") }
    #expect(
      valueLines.map { $0.split(separator: ": error: ").first.map(String.init) ?? "" }
        == ["modelgen-config.json:2:3", "modelgen-config.json:3:11", "modelgen-config.json:4:25"],
      "\(values.errors)")
    #expect(values.errors.contains("  hint: did you mean \"automerge\"?\n"))

    // Invalid UTF-8 is reported where the bad byte is (columns count Unicode scalars).
    let bytes = Array("{\"access\": \"é".utf8) + [0xFF] + Array("\"}".utf8)
    #expect(FileManager.default.createFile(atPath: directory.url("modelgen-config.json"), contents: Data(bytes)))
    let utf8 = try await SpawnedRun.spawn(
      ["validate", "s.graphql", "--config", "modelgen-config.json"], in: directory.path)
    #expect(
      utf8.errors.hasPrefix("modelgen-config.json:1:14: error: the config file is not valid UTF-8 [MGC003]\n  hint: "),
      "\(utf8.errors)")
  }

  /// Issue 17 (a fresh user's run): a key written twice had only its first value checked
  /// (`"access": "nope", "access": "alsonope"` gave MGC007 for the first, MGC004 for the repeat
  /// and nothing for the second value), and `"emit": ["swift", "swift"]` was accepted silently.
  /// Every value of a repeated key is checked (the first is kept), and a kind named twice in
  /// `emit` is MGC007 at the second.
  @Test func everyValueOfARepeatedKeyAndARepeatedEmitKindAreChecked() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", twoModels)
    try directory.write(
      "modelgen-config.json", "{\"access\": \"nope\",\n \"access\": \"alsonope\",\n \"emit\": [\"swift\", \"swift\"]}\n"
    )
    let run = try await SpawnedRun.spawn(
      ["validate", "s.graphql", "--config", "modelgen-config.json"], in: directory.path)
    #expect(run.status == 64)
    let headlines = run.errors.split(separator: "\n").filter { !$0.hasPrefix("  hint: ") }.map(String.init)
    #expect(
      headlines == [
        "modelgen-config.json:1:12: error: \"access\" must be \"public\", \"package\" or \"internal\" [MGC007]",
        "modelgen-config.json:2:2: error: duplicate key \"access\" (first written at 1:2) [MGC004]",
        "modelgen-config.json:2:12: error: \"access\" must be \"public\", \"package\" or \"internal\" [MGC007]",
        "modelgen-config.json:3:20: error: \"emit\" names \"swift\" more than once [MGC007]",
      ], "\(run.errors)")
    #expect(run.errors.contains("  hint: name each kind once: \"emit\": [\"swift\", \"api-schema\"]\n"))

    // A valid repeat still keeps the first value (and is MGC004 only).
    try directory.write("modelgen-config.json", "{\"access\": \"internal\", \"access\": \"public\"}")
    let valid = try await SpawnedRun.spawn(
      ["validate", "s.graphql", "--config", "modelgen-config.json"], in: directory.path)
    #expect(
      valid.errors.split(separator: "\n").filter { !$0.hasPrefix("  hint: ") }.map { String($0.suffix(8)) } == [
        "[MGC004]"
      ])
  }

  /// A file over 1 MiB is refused before it is parsed (its text here is not even JSON); a file of
  /// exactly 1 MiB is read.
  @Test func aConfigOverOneMebibyteIsRefusedUnread() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", twoModels)
    let limit = 1 << 20
    #expect(ConfigFile.maximumSize == limit)
    try directory.write("big.json", String(repeating: "x", count: limit + 1))
    let big = try await SpawnedRun.spawn(["validate", "s.graphql", "--config", "big.json"], in: directory.path)
    #expect(big.status == 64)
    #expect(
      big.errors.hasPrefix(
        "big.json: error: the config file is \(limit + 1) bytes, more than the limit of \(limit) bytes (1 MiB); it was not read [MGC002]\n  hint: "
      ), "\(big.errors)")
    let padded = "{\"access\": \"internal\"" + String(repeating: " ", count: limit - 22) + "}"
    #expect(padded.utf8.count == limit)
    try directory.write("full.json", padded)
    let full = try await SpawnedRun.spawn(["validate", "s.graphql", "--config", "full.json"], in: directory.path)
    #expect(full.status == 0, "\(full.errors)")
    #expect(full.output == "1 schema valid\n")
  }

  /// 300 unknown keys: 200 errors, then one MGC099 at the 201st, and nothing after it.
  @Test func configErrorsShareABudgetOf200() async throws {
    let directory = try TemporaryDirectory()
    try directory.write("s.graphql", twoModels)
    let members = (1...300).map { "\"k\($0)\": 1" }.joined(separator: ",\n")
    try directory.write("modelgen-config.json", "{\n\(members)\n}\n")
    let run = try await SpawnedRun.spawn(
      ["validate", "s.graphql", "--config", "modelgen-config.json"], in: directory.path)
    #expect(run.status == 64)
    let headlines = run.errors.split(separator: "\n").filter { !$0.hasPrefix("  hint: ") }
    #expect(headlines.count == 201)
    #expect(headlines.prefix(200).allSatisfy { $0.hasSuffix("[MGC006]") })
    #expect(headlines.first?.hasPrefix("modelgen-config.json:2:1: error: unknown key \"k1\"") == true)
    #expect(
      headlines.last == "modelgen-config.json:202:1: error: too many errors; stopped after 200 [MGC099]",
      "\(headlines.last ?? "")")
    // Duplicate keys count against the same budget while the JSON is read.
    let duplicates = (1...300).map { _ in "\"access\": \"internal\"" }.joined(separator: ",\n")
    try directory.write("modelgen-config.json", "{\n\(duplicates)\n}\n")
    let again = try await SpawnedRun.spawn(
      ["validate", "s.graphql", "--config", "modelgen-config.json"], in: directory.path)
    let lines = again.errors.split(separator: "\n").filter { !$0.hasPrefix("  hint: ") }
    #expect(lines.count == 201)
    #expect(lines.prefix(200).allSatisfy { $0.hasSuffix("[MGC004]") })
    #expect(lines.last?.hasSuffix("too many errors; stopped after 200 [MGC099]") == true)
  }
}
