import Foundation
import LazyModel
import LazyModelAPI
import RegressionIndexNamesBreakSwift
import Testing

/// Index names through the safe-name pass, and a composite key's `beginsWith` as the transformer
/// matches it (`Schemas/regressions/index-names-break-swift.graphql`), against the local server:
/// each renamed or keyword-named typed key reads its own index, a hasMany loads through its index,
/// and `beginsWith` on a composite key whose fields are Int, Boolean and AWSTimestamp is a text
/// prefix of the `#`-joined key (the resolver of `applyCompositeKeyConditionExpression`), where it
/// was refused before sending ("needs text").
@Suite("Index names and composite beginsWith against the local server")
struct IndexNamesServedTests {
  @Test func renamedKeysReadTheirIndexesAndCompositeBeginsWithIsATextPrefix() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/index-names-break-swift/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let probe = Probe(id: "p1", label: "roof")
    _ = try await client.create(probe)
    let rows: [(id: String, level: Int, ok: Bool, at: Int, owner: String)] = [
      ("r1", 1, true, 100, "Ann"), ("r2", 10, false, 200, "ann"), ("r3", 12, true, 300, "Ann"),
      ("r4", 2, true, 400, "ann"), ("r5", 1, false, 500, "bob"),
    ]
    for row in rows {
      _ = try await client.create(
        Reading(
          id: row.id, probe: probe, sensor: "s", level: row.level, ok: row.ok, at: row.at, site: "roof",
          ratio: Double(row.level) / 4, kind: "k", grade: row.level > 5 ? .high : .low, owner: row.owner,
          city: "c-\(row.id)", zone: "z", room: row.owner))
    }
    func ids(_ page: ModelListPage<Reading>) -> [String] { page.items.map(\.id).sorted() }

    // beginsWith on the composite (level, ok, at): "1" is a prefix of "1#…", "10#…" and "12#…".
    let one = try await client.list(
      Reading.self, index: Reading.indexes.reading, key: "s", sortKey: .beginsWith(.init(level: 1)))
    #expect(ids(one) == ["r1", "r2", "r3", "r5"])
    #expect(log.last?.operationName == "ReadingsBySensor")
    #expect(log.last?.variables["levelOkAt"] == ["beginsWith": ["level": 1]])
    let oneTrue = try await client.list(
      Reading.self, index: Reading.indexes.reading, key: "s", sortKey: .beginsWith(.init(level: 1, ok: true)))
    #expect(ids(oneTrue) == ["r1"])
    let whole = try await client.list(
      Reading.self, index: Reading.indexes.reading, key: "s",
      sortKey: .beginsWith(.init(level: 12, ok: true, at: 3)))
    #expect(ids(whole) == ["r3"])
    // The untyped form takes the same condition: "1#false" begins "1#false#500" (r5), not
    // "10#false#200" (r2).
    let untyped = try await client.list(
      Reading.self, uncheckedIndex: "Reading", key: "s", sortKey: .beginsWith(["level": 1, "ok": false]))
    #expect(ids(untyped) == ["r5"])
    // One Int sort key field has no beginsWith on AppSync (ModelIntKeyConditionInput): refused
    // before sending, naming the model, index and field.
    let sent = log.all.count
    await #expect {
      try await client.list(Reading.self, uncheckedIndex: "_2nd", key: "s", sortKey: .beginsWith(["level": 1]))
    } throws: { error in
      guard case .invalidRequest(let operationName, let reason) = error as? APIError else { return false }
      return operationName == "ReadingsBySensorAndLevel"
        && reason == "beginsWith on Reading.level needs text, got int(1)"
    }
    #expect(log.all.count == sent)

    // Each renamed or keyword-named key reads its own index.
    #expect(ids(try await client.list(Reading.self, index: Reading.indexes.byOwner, key: "ann")) == ["r2", "r4"])
    #expect(log.last?.operationName == "ReadingsByOwner")
    #expect(ids(try await client.list(Reading.self, index: Reading.indexes.byOwner2, key: "Ann")) == ["r1", "r3"])
    #expect(log.last?.operationName == "ReadingsByOwnerUpper")
    #expect(
      ids(try await client.list(Reading.self, index: Reading.indexes.`self`, key: "roof", sortKey: .ge(2.5)))
        == ["r2", "r3"])
    #expect(ids(try await client.list(Reading.self, index: Reading.indexes.self2, key: "roof")).count == 5)
    #expect(ids(try await client.list(Reading.self, index: Reading.indexes.`init`, key: "bob")) == ["r5"])
    #expect(ids(try await client.list(Reading.self, index: Reading.indexes.string, key: "c-r4")) == ["r4"])
    #expect(ids(try await client.list(Reading.self, index: Reading.indexes.modelIndexKey, key: "z")).count == 5)
    // An enum sort key takes beginsWith on its GraphQL value (ModelStringKeyConditionInput).
    let highGrades = try await client.list(
      Reading.self, index: Reading.indexes.modelIndexKey, key: "z", sortKey: .beginsWith("HI"))
    #expect(ids(highGrades) == ["r2", "r3"])
    #expect(log.last?.variables["grade"] == ["beginsWith": "HI"])
    let high = try await client.list(
      Reading.self, index: Reading.indexes.byGrade, key: "k",
      sortKey: .eq(Reading.Indexes.ByGradeSortKey2(grade: .high, level: 10)))
    #expect(ids(high) == ["r2"])
    #expect(log.last?.variables["gradeLevel"] == ["eq": ["grade": "HIGH", "level": 10]])
    // The hasMany reads through the index it names.
    let loaded = try #require(try await client.get(Probe.self, byIdentifier: .init(id: "p1")))
    let readings = try #require(loaded.readings)
    #expect(try await readings.fetch().map(\.id).sorted() == ["r1", "r2", "r3", "r4", "r5"])
    #expect(log.last?.operationName == "ReadingsByProbe")
  }
}
