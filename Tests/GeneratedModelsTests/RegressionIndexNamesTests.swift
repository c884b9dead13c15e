import Foundation
import LazyModel
import LazyModelAPI
import RegressionIndexNamesBreakSwift
import Testing

/// `Schemas/regressions/index-names-break-swift.graphql`: index names pass through the safe-name
/// pass. An index named `ModelIndexKey` was a circular reference and a sort key struct named like
/// the enum its field holds (`ByGradeSortKey`) held itself, so this module did not compile with
/// the old generator; now keys are the names lower-first (`reading`, `string`, `modelIndexKey`),
/// keyword names stay escaped (`` `self` ``, `` `init` ``), and equal ones take suffixes
/// (`byOwner2`, `self2`, `ByGradeSortKey2`, warned as MGW003) while the wire keeps every name.
@Suite("Generated: index names that broke the Swift code")
struct RegressionIndexNamesTests {
  @Test func everyIndexHasATypedKeyUnderItsSafeName() throws {
    let keys: [(swift: String, name: String, fields: [String])] = [
      ("byProbe", Reading.indexes.byProbe.name, Reading.indexes.byProbe.fields),
      ("reading", Reading.indexes.reading.name, Reading.indexes.reading.fields),
      ("_2nd", Reading.indexes._2nd.name, Reading.indexes._2nd.fields),
      ("self", Reading.indexes.`self`.name, Reading.indexes.`self`.fields),
      ("self2", Reading.indexes.self2.name, Reading.indexes.self2.fields),
      ("byGrade", Reading.indexes.byGrade.name, Reading.indexes.byGrade.fields),
      ("byOwner2", Reading.indexes.byOwner2.name, Reading.indexes.byOwner2.fields),
      ("byOwner", Reading.indexes.byOwner.name, Reading.indexes.byOwner.fields),
      ("string", Reading.indexes.string.name, Reading.indexes.string.fields),
      ("modelIndexKey", Reading.indexes.modelIndexKey.name, Reading.indexes.modelIndexKey.fields),
      ("init", Reading.indexes.`init`.name, Reading.indexes.`init`.fields),
    ]
    // The wire names are the schema's, in its order, each with its fields.
    #expect(keys.map(\.name) == Reading.schema.indexes.map(\.name))
    #expect(keys.map(\.fields) == Reading.schema.indexes.map(\.fields))
    #expect(
      keys.map(\.name) == [
        "byProbe", "Reading", "_2nd", "self", "Self", "byGrade", "ByOwner", "byOwner", "String",
        "ModelIndexKey", "init",
      ])
    // Typed by the fields: the key types are checked by these annotations.
    let _: ModelIndexKey<Reading, String, Reading.Indexes.ReadingSortKey> = Reading.indexes.reading
    let _: ModelIndexKey<Reading, String, Int> = Reading.indexes._2nd
    let _: ModelIndexKey<Reading, String, Double> = Reading.indexes.`self`
    let _: ModelIndexKey<Reading, String, Reading.Indexes.ByGradeSortKey2> = Reading.indexes.byGrade
    let _: ModelIndexKey<Reading, String, ByGradeSortKey> = Reading.indexes.modelIndexKey
    // The renamed struct holds the schema's enum of the name it could not take.
    let grade = Reading.Indexes.ByGradeSortKey2(grade: ByGradeSortKey.high, level: 2)
    #expect(grade.sortKeyValues == [.string("HIGH"), .int(2)])
    let sensor = Reading.Indexes.ReadingSortKey(level: 1, ok: true, at: 5)
    #expect(sensor.sortKeyValues == [.int(1), .bool(true), .int(5)])
  }

  @Test func oldSpellingsAreGoneAndTheNewOnesCompile() async throws {
    let prelude = ["import LazyModel", "import LazyModelAPI", "import RegressionIndexNamesBreakSwift"]
    try await TypeCheck.expectAccepted(
      (prelude + [
        "let a = try ModelQueries.query(Reading.self, index: Reading.indexes.`self`, partitionKey: \"s\", sortKey: .ge(0.5))",
        "let b = try ModelQueries.query(Reading.self, index: Reading.indexes.`init`, partitionKey: \"r\")",
        "let c = try ModelQueries.query(Reading.self, index: Reading.indexes.reading, partitionKey: \"s\", sortKey: .beginsWith(.init(level: 1)))",
        "let d = try ModelQueries.query(Reading.self, index: Reading.indexes.modelIndexKey, partitionKey: \"z\", sortKey: .beginsWith(\"HI\"))",
      ]).joined(separator: "\n"))
    try await TypeCheck.expectEachLineRejected(
      prelude: prelude,
      [
        ("let a = Reading.indexes.ModelIndexKey", "type 'Reading.Indexes' has no member 'ModelIndexKey'"),
        ("let b = Reading.indexes.ByOwner", "type 'Reading.Indexes' has no member 'ByOwner'"),
        (
          "let c = try ModelQueries.query(Reading.self, index: Reading.indexes._2nd, partitionKey: \"s\", sortKey: .beginsWith(\"1\"))",
          "contextual member reference to static method 'beginsWith' requires 'Self' constraint in the protocol extension"
        ),
      ])
  }
}
