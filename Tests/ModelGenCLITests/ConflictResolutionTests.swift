import Foundation
import ModelGen
import Testing

@testable import ModelGenCLI

/// `--conflict-resolution` and the config key `conflictResolution`: a versioned data source's API
/// schema and `syncPluralName`, nothing different without them.
@Suite("CLI conflict resolution")
struct ConflictResolutionTests {
  let schema = """
    type Note @model {
      id: ID!
      body: String!
    }
    """

  @Test func optionParsesEachStrategy() throws {
    for strategy in ConflictResolution.allCases {
      let command = try Command.parse([
        "generate", "a.graphql", "--output", "Out", "--conflict-resolution", strategy.rawValue,
      ])
      #expect(
        command
          == .generate(GenerateOptions(schemas: ["a.graphql"], output: "Out", conflictResolution: strategy)))
    }
    #expect(
      try Command.parse(["generate", "a.graphql", "--output", "Out"])
        == .generate(GenerateOptions(schemas: ["a.graphql"], output: "Out", conflictResolution: nil)))
  }

  @Test func badValueIsAUsageErrorNamingTheStrategies() throws {
    #expect(
      throws: UsageError(
        "invalid value 'merge' for '--conflict-resolution': expected 'automerge', 'optimistic' or 'lambda'")
    ) {
      try Command.parse(["generate", "a.graphql", "--output", "O", "--conflict-resolution", "merge"])
    }
    #expect(throws: UsageError("missing value for '--conflict-resolution'")) {
      try Command.parse(["generate", "a.graphql", "--output", "O", "--conflict-resolution"])
    }
    let directory = try TemporaryDirectory()
    try directory.write("note.graphql", schema)
    let run = CommandRun([
      "generate", directory.url("note.graphql"), "--output", directory.url("Out"),
      "--conflict-resolution=Automerge",
    ])
    #expect(run.status == 64)
    #expect(run.errors.contains("invalid value 'Automerge' for '--conflict-resolution'"))
    #expect(!FileManager.default.fileExists(atPath: directory.url("Out")))
  }

  @Test func optionAddsTheVersionedDataSourceAndSyncPluralName() throws {
    let directory = try TemporaryDirectory()
    try directory.write("note.graphql", schema)
    let run = CommandRun([
      "generate", directory.url("note.graphql"), "--output", directory.url("Out"),
      "--emit", "swift,api-schema", "--conflict-resolution", "optimistic",
    ])
    #expect(run.status == 0, "\(run.errors)")
    let api = try #require(directory.read("Out/schema.api.graphql"))
    // The deployable schema names no strategy; the local server's manifest does, per model.
    #expect(!api.contains("@modelgen"))
    let manifest = try #require(directory.read("Out/schema.local.json"))
    #expect(manifest.contains("      \"fieldAuthRules\": {},\n      \"conflictHandler\": \"OPTIMISTIC_CONCURRENCY\"\n"))
    #expect(manifest.contains("      \"syncNotes\": {\n        \"model\": \"Note\",\n        \"kind\": \"SYNC\","))
    #expect(api.contains("  _version: Int!\n  _deleted: Boolean\n  _lastChangedAt: AWSTimestamp!\n}"))
    #expect(api.contains("input UpdateNoteInput {\n  id: ID!\n  body: String\n  _version: Int\n}"))
    #expect(api.contains("input DeleteNoteInput {\n  id: ID!\n  _version: Int\n}"))
    #expect(api.contains("  items: [Note]!\n  nextToken: String\n  startedAt: AWSTimestamp\n}"))
    #expect(
      api.contains(
        "  syncNotes(filter: ModelNoteFilterInput, limit: Int, nextToken: String, lastSync: AWSTimestamp): ModelNoteConnection\n"
      ))
    let swift = try #require(directory.read("Out/Note+Schema.swift"))
    #expect(
      swift.contains(
        "    timestamps: ModelTimestampFields(createdAt: \"createdAt\", updatedAt: \"updatedAt\"),\n    syncPluralName: \"Notes\"\n  )"
      ))
  }

  @Test func withoutAStrategyTheOutputHasNoSyncFields() throws {
    let directory = try TemporaryDirectory()
    try directory.write("note.graphql", schema)
    let run = CommandRun([
      "generate", directory.url("note.graphql"), "--output", directory.url("Out"), "--emit", "swift,api-schema",
    ])
    #expect(run.status == 0, "\(run.errors)")
    let api = try #require(directory.read("Out/schema.api.graphql"))
    for absent in ["_version", "_deleted", "_lastChangedAt", "startedAt", "syncNotes", "modelgenSync"] {
      #expect(!api.contains(absent), "\(absent)")
    }
    let manifest = try #require(directory.read("Out/schema.local.json"))
    #expect(!manifest.contains("conflictHandler") && !manifest.contains("SYNC"))
    #expect(directory.read("Out/Note+Schema.swift")?.contains("syncPluralName") == false)
  }

  @Test func configKeySetsTheStrategyAndABadValueSuggestsOne() throws {
    let directory = try TemporaryDirectory()
    try directory.write("note.graphql", schema)
    try directory.write("good.json", #"{"conflictResolution": "lambda", "emit": ["api-schema"]}"#)
    let run = CommandRun([
      "generate", directory.url("note.graphql"), "--output", directory.url("Out"), "--config",
      directory.url("good.json"),
    ])
    #expect(run.status == 0, "\(run.errors)")
    #expect(directory.read("Out/schema.local.json")?.contains("\"conflictHandler\": \"LAMBDA\"") == true)

    try directory.write("bad.json", #"{"conflictResolution": "optimistc"}"#)
    let bad = CommandRun([
      "generate", directory.url("note.graphql"), "--output", directory.url("Out2"), "--config",
      directory.url("bad.json"),
    ])
    #expect(bad.status == 64)
    #expect(
      bad.errors
        == "\(directory.url("bad.json")):1:24: error: \"conflictResolution\" must be one of \"automerge\", \"optimistic\", \"lambda\" (did you mean \"optimistic\"?) [MGC007]\n"
        + "  hint: did you mean \"optimistic\"?\n" + "error: no files written\n"
    )
    let both = CommandRun([
      "generate", directory.url("note.graphql"), "--output", directory.url("Out3"), "--config",
      directory.url("good.json"), "--conflict-resolution", "automerge",
    ])
    #expect(both.status == 64)
    #expect(both.errors.contains("'--config' and '--conflict-resolution' cannot be used together"))
  }
}
