import Foundation
import LazyModel
import SyncFieldAuthModels
import Testing

@testable import LazyModelAPI

/// API reads by a signed-in user whom field-level `@auth` refuses one field (issue 15): `Memo`
/// (owner, and `private` read/update; `secret` the owner alone) and `Card` (`pin` the owner
/// alone, `note` the owner and `readers`), against the local server's field rules. AppSync
/// answers such a field `null` with an `Unauthorized` error at its path; the client returns the
/// model with `nil` there instead of throwing.
@Suite("API: reads of fields refused by field-level @auth return the model", .serialized)
struct FieldRefusalReadTests {
  private func client(_ server: SyncServer, _ token: String) -> APIClient {
    APIClient(
      configuration: .init(endpoint: server.endpoint, authorization: .userPools { token }, timeout: syncRequestTimeout))
  }

  /// Before, `get` and `list` threw `APIError.graphQL` ("Not Authorized to access secret on type
  /// Memo") for bob, the README's promise ("a model read that way holds `nil` there") held only
  /// for `response(for:)` and the sync engine.
  @Test func getAndListReturnTheModelWithTheRefusedFieldNil() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try OwnerPool(directory)
    let server = try await SyncServer(generated: "sync/sync-field-auth", authConfig: pool.configURL)
    defer { server.stop() }
    let alice = client(server, pool.token("alice"))
    try await alice.create(Memo(id: "m1", title: "Plan", secret: "s3cret"))
    try await alice.create(Memo(id: "m2", title: "Other", secret: nil))
    try await alice.create(Card(id: "c1", title: "door", note: "ring twice", pin: "1234"))
    let bob = client(
      server, pool.token(claims: ["sub": "sub-bob", "cognito:username": "bob", "cognito:groups": ["readers"]]))

    // The wire: AppSync's shape, `null` and one `Unauthorized` error at the field's path.
    let raw = try await bob.response(for: ModelQueries.get(Memo.self, byIdentifier: .init(id: "m1")))
    #expect(raw.errors.map(\.errorType) == ["Unauthorized"])
    #expect(raw.errors.map(\.message) == ["Not Authorized to access secret on type Memo"])
    #expect(raw.errors.map(\.path) == [[.string("getMemo"), .string("secret")]])

    let memo = try #require(try await bob.get(Memo.self, byIdentifier: .init(id: "m1")))
    #expect("\(memo.title) | \(memo.secret ?? "-")" == "Plan | -")
    #expect(bob.unreadableFields(of: memo) == ["secret"])

    let page = try await bob.list(Memo.self)
    #expect(page.items.map { "\($0.id) \($0.title) \($0.secret ?? "-")" }.sorted() == ["m1 Plan -", "m2 Other -"])
    #expect(page.items.map { bob.unreadableFields(of: $0) } == [["secret"], ["secret"]])
    let sent = try await bob.send(ModelQueries.list(Memo.self))
    #expect(sent.items.count == 2)

    // Card: `pin` refused, `note` shown (bob is in `readers`).
    let card = try #require(try await bob.get(Card.self, byIdentifier: .init(id: "c1")))
    #expect("\(card.title) | \(card.note ?? "-") | \(card.pin ?? "-")" == "door | ring twice | -")
    #expect(bob.unreadableFields(of: card) == ["pin"])

    // The owner reads every field, and nothing is remembered as refused.
    let own = try #require(try await alice.get(Memo.self, byIdentifier: .init(id: "m1")))
    #expect(own.secret == "s3cret")
    #expect(alice.unreadableFields(of: own).isEmpty)

    // A model built by the caller names its record: the memo is per record, not per value.
    #expect(bob.unreadableFields(of: Memo(id: "m1", title: "x")) == ["secret"])
    #expect(bob.unreadableFields(of: Memo(id: "m9", title: "x")).isEmpty)
  }
}
