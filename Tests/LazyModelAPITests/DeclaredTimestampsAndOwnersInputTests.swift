import Foundation
import LazyModel
import LazyModelAPI
import RegressionDeclaredTimestampsReadOnly
import RegressionMultiOwnerFieldsAndAuthDefaults
import Testing

/// The inputs the API sends for a declared timestamp (`declared-timestamps-read-only.graphql`) and
/// for co-owner fields (`multi-owner-fields-and-auth-defaults.graphql`), as the emitted
/// `Create…Input`/`Update…Input` declare them.
@Suite("Mutation inputs: declared timestamps and co-owners")
struct DeclaredTimestampsAndOwnersInputTests {
  @Test func aDeclaredTimestampIsSentWhenSetAndNeverClearedWhenNil() throws {
    let written = try Temporal.DateTime(iso8601String: "2020-01-02T03:04:05.678Z")
    let create = try ModelMutations.input(.create, of: Event(id: "e1", name: "n", createdAt: written))
    #expect(create == ["id": "e1", "name": "n", "createdAt": .string(written.iso8601String)])
    #expect(try ModelMutations.input(.create, of: Event(id: "e1", name: "n")) == ["id": "e1", "name": "n"])
    #expect(
      try ModelMutations.input(.update, of: Event(id: "e1", name: "n")) == ["id": "e1", "name": "n"],
      "a nil declared timestamp is left to the service, not sent as null")
  }

  @Test func coOwnersAreSentAndTheSingleOwnerIsNot() throws {
    let board = Board(id: "b1", title: "Plan", owners: ["ana", "bo"], editors: ["cy"])
    let create = try ModelMutations.input(.create, of: board)
    #expect(create["owners"] == .list([.string("ana"), .string("bo")]))
    #expect(create["editors"] == .list([.string("cy")]))
    #expect(create["owner"] == nil, "the implicit owner field is filled by the service")
    let update = try ModelMutations.input(.update, of: board)
    #expect(update["owners"] == .list([.string("ana"), .string("bo")]))
    #expect(update["owner"] == nil)
  }
}
