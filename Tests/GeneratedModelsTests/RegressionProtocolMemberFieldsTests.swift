import Foundation
import LazyModel
import LazyModelDataStore
import RegressionFieldNamesCollideWithProtocolMembers
import Testing

/// `Schemas/regressions/field-names-collide-with-protocol-members.graphql`: a field named
/// `description` (or `debugDescription`, `hashValue`) no longer replaces the protocol member every
/// model implements, nor an enum value or key `allCases` `CaseIterable.allCases`; the Swift name is
/// suffixed (MGW002), the GraphQL name is unchanged.
@Suite("Generated regression: field-names-collide-with-protocol-members")
struct RegressionProtocolMemberFieldsTests {
  let listing = Listing(
    id: "l1", title: "Lamp", descriptionValue2: "brass", descriptionValue: "v", debugDescriptionValue: "dbg",
    hashValueValue: 7, allCases: 3, state: .allCasesValue, spec: Spec(descriptionValue: "spec", hashValueValue: 2))

  @Test func aModelWithADescriptionFieldPrintsAllItsFields() {
    #expect(
      listing.description
        == #"Listing(id: "l1", title: "Lamp", descriptionValue2: "brass", descriptionValue: "v", debugDescriptionValue: "dbg", hashValueValue: 7, allCases: 3, allCasesValue: nil, state: .allCasesValue, spec: Spec(descriptionValue: "spec", hashValueValue: 2, allCases: nil, allCasesValue: nil), createdAt: nil, updatedAt: nil)"#
    )
    #expect(String(describing: listing) == listing.description)
    #expect(listing.debugDescription == listing.description)
    var other = listing
    other.hashValueValue = 8
    #expect(
      listing.hashValue
        == Listing(
          id: "l1", title: "Lamp", descriptionValue2: "brass", descriptionValue: "v",
          debugDescriptionValue: "dbg", hashValueValue: 7, allCases: 3, state: .allCasesValue,
          spec: Spec(descriptionValue: "spec", hashValueValue: 2)
        ).hashValue)
    #expect(listing != other)
  }

  @Test func theGraphQLNamesAreKeptOnTheWireAndInTheSchema() async throws {
    let json = try JSON.object(try JSON.encode(listing))
    #expect(json["description"] as? String == "brass")
    #expect(json["descriptionValue"] as? String == "v")
    #expect(json["debugDescription"] as? String == "dbg")
    #expect(json["hashValue"] as? Int == 7)
    #expect(json["allCases"] as? Int == 3)
    #expect(json["state"] as? String == "ALL_CASES")
    #expect(ListingState.allCases == [.open, .allCasesValue], "CaseIterable.allCases is not ambiguous")
    #expect(Listing.CodingKeys.allCases.map(\.stringValue).contains("allCases"))
    // `allCases` beside a field `allCasesValue`: the renamed key takes the next free number.
    #expect(Listing.keys.allCasesValue2.name == "allCases")
    #expect(Listing.keys.allCasesValue.name == "allCasesValue")
    #expect(Listing.CodingKeys.allCasesValue2.stringValue == "allCases")
    #expect(Listing.CodingKeys.allCasesValue.stringValue == "allCasesValue")
    #expect(Spec.keys.allCases.stringValue == "allCases" && Spec.keys.allCasesValue.stringValue == "allCasesValue")
    let spec = Spec(descriptionValue: "d", allCases: "a", allCasesValue: "b")
    let specJSON = try JSON.object(try JSON.encode(spec))
    #expect(specJSON["allCases"] as? String == "a" && specJSON["allCasesValue"] as? String == "b")
    #expect(try JSONDecoder().decode(Spec.self, from: Data(try JSON.encode(spec).utf8)) == spec)
    let both = Listing(id: "l2", title: "Both", allCases: 1, allCasesValue: "one")
    let bothJSON = try JSON.object(try JSON.encode(both))
    #expect(bothJSON["allCases"] as? Int == 1 && bothJSON["allCasesValue"] as? String == "one")
    let decoded = try JSONDecoder().decode(Listing.self, from: Data(try JSON.encode(both).utf8))
    #expect(decoded.allCases == 1 && decoded.allCasesValue == "one")
    #expect((json["spec"] as? NSDictionary)?["description"] as? String == "spec")
    #expect(
      Listing.schema.fields.map(\.name)
        == [
          "id", "title", "description", "descriptionValue", "debugDescription", "hashValue", "allCases",
          "allCasesValue", "state",
          "spec", "createdAt", "updatedAt",
        ])
    #expect(Listing.keys.descriptionValue2.name == "description")
    #expect(Spec.keys.descriptionValue.stringValue == "description")

    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ProtocolMembers-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try DataStore(fileURL: directory.appendingPathComponent("listing.sqlite"), registry: Models.registry)
    try await store.save(listing)
    let found = try await store.query(Listing.self, where: Listing.keys.descriptionValue2.eq("brass"))
    #expect(found.map(\.descriptionValue2) == ["brass"])
    #expect(found.first?.spec == listing.spec)
  }
}
