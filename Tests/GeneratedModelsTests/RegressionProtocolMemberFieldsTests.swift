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
        == #"Listing(id: "l1", title: "Lamp", descriptionValue2: "brass", descriptionValue: "v", debugDescriptionValue: "dbg", hashValueValue: 7, allCases: 3, state: .allCasesValue, spec: Spec(descriptionValue: "spec", hashValueValue: 2), createdAt: nil, updatedAt: nil)"#
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
    #expect(Listing.keys.allCasesValue.name == "allCases")
    #expect((json["spec"] as? NSDictionary)?["description"] as? String == "spec")
    #expect(
      Listing.schema.fields.map(\.name)
        == [
          "id", "title", "description", "descriptionValue", "debugDescription", "hashValue", "allCases", "state",
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
