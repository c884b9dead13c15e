import Foundation
import LazyModel
import LazyModelDataStore
import RegressionDeclaredTimestampsReadOnly
import RegressionMultiOwnerFieldsAndAuthDefaults
import Testing

/// `Schemas/regressions/declared-timestamps-read-only.graphql` and
/// `Schemas/regressions/multi-owner-fields-and-auth-defaults.graphql`.
@Suite("Generated: declared timestamps, co-owners, resolved @auth")
struct DeclaredTimestampsAndAuthTests {
  @Test func aDeclaredTimestampIsWritableOptionalAndKeptBySave() async throws {
    let written = try Temporal.DateTime(iso8601String: "2020-01-02T03:04:05.678Z")
    var event = Event(id: "e1", name: "launch", createdAt: written)
    #expect(event.createdAt == written)
    event.createdAt = written
    #expect(Event.schema.field(named: "createdAt")?.isReadOnly == false)
    #expect(Event.schema.field(named: "createdAt")?.isRequired == false)
    #expect(Event.schema.field(named: "updatedAt")?.isReadOnly == true, "the implicit one stays read-only")

    let store = try DataStore.inMemory(registry: RegressionDeclaredTimestampsReadOnly.Models.registry)
    let saved = try await store.save(event)
    #expect(saved.createdAt == written, "a written createdAt is kept")
    #expect(saved.updatedAt != nil)
    let filled = try await store.save(Event(id: "e2", name: "later"))
    #expect(filled.createdAt != nil, "an absent createdAt is filled on insert")
    let queried = try await store.query(Event.self, byIdentifier: .init(id: "e1"))
    #expect(queried?.createdAt == written)
  }

  @Test func coOwnerFieldsAreSettableAndTheSingleOwnerStaysServiceFilled() throws {
    var board = Board(id: "b1", title: "Plan", owners: ["ana", "bo"], editors: ["cy"])
    board.owners?.append("dee")
    board.editors = ["cy", "eve"]
    #expect(board.owners == ["ana", "bo", "dee"])
    #expect(Board.schema.field(named: "owners")?.isReadOnly == false)
    #expect(Board.schema.field(named: "editors")?.isReadOnly == false)
    #expect(Board.schema.field(named: "owner")?.isReadOnly == true)
    let json = try JSON.object(try JSON.encode(board))
    #expect(json["owners"] as? [String] == ["ana", "bo", "dee"])
    #expect(json["editors"] as? [String] == ["cy", "eve"])
  }

  @Test func authRulesCarryAmplifysResolvedDefaultsAndStayAsWritten() {
    let schema = Board.schema
    #expect(
      schema.authRules == [
        AuthRule(allow: .owner),
        AuthRule(allow: .owner, ownerField: "owners", identityClaim: "sub"),
        AuthRule(allow: .owner, ownerField: "editors", operations: [.update, .read]),
        AuthRule(allow: .groups, groups: ["Admin"]),
        AuthRule(allow: .groups, groupsField: "teams"),
        AuthRule(allow: .private),
        AuthRule(allow: .public),
        AuthRule(allow: .custom),
      ], "as written")
    let all: [AuthRule.Operation] = [.create, .update, .delete, .read]
    #expect(
      schema.resolvedAuthRules == [
        AuthRule(
          allow: .owner, provider: .userPools, ownerField: "owner", identityClaim: "cognito:username",
          operations: all),
        AuthRule(
          allow: .owner, provider: .userPools, ownerField: "owners", identityClaim: "sub", operations: all),
        AuthRule(
          allow: .owner, provider: .userPools, ownerField: "editors", identityClaim: "cognito:username",
          operations: [.update, .read]),
        AuthRule(
          allow: .groups, provider: .userPools, groupClaim: "cognito:groups", groups: ["Admin"],
          operations: all),
        AuthRule(
          allow: .groups, provider: .userPools, groupClaim: "cognito:groups", groupsField: "teams",
          operations: all),
        AuthRule(allow: .private, provider: .userPools, operations: all),
        AuthRule(allow: .public, provider: .apiKey, operations: all),
        AuthRule(allow: .custom, provider: .function, operations: all),
      ])
    #expect(AuthRule(allow: .owner, identityClaim: "username").resolved.identityClaim == "cognito:username")
    #expect(AuthRule(allow: .owner, identityClaim: "sub::username").resolved.identityClaim == "cognito:username")
    #expect(AuthRule(allow: .groups, groups: ["A"]).resolved.groupsField == nil)
    #expect(AuthRule(allow: .private, provider: .iam).resolved.provider == .iam)
  }
}
