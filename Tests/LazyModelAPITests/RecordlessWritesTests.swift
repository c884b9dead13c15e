import AuthRulesModels
import Foundation
import LazyModel
import Testing

@testable import LazyModelAPI

/// Issue 15: an update or delete by a caller that no static role lets write is decided by the
/// stored record's owner field, as the transformer's update and delete auth resolvers read the
/// record first (`$ctx.result.<ownerField>`), never by the input — against the local server
/// (Tests/GraphQLServer/auth.py). `Notice`: the API key reads, the owner (user pools) does all.
@Suite("Writes decided by the stored record's owner, not by the input (issue 15)")
struct RecordlessWritesTests {
  /// The `AuthorizationError` and first message of an `APIError.authorization` that `body` throws.
  private func refusal(
    _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> (mode: AuthorizationMode, message: String?)? {
    do {
      try await body()
      Issue.record("expected APIError.authorization", sourceLocation: sourceLocation)
    } catch APIError.authorization(_, let underlying as AuthorizationError) {
      guard case .rejected(_, let errors) = underlying.reason else { return (underlying.mode, nil) }
      return (underlying.mode, errors.first?.message)
    } catch {
      Issue.record("expected APIError.authorization, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
  }

  @Test(
    "another user's update or delete of a notice is Unauthorized whatever owner the input names; the record is unchanged"
  )
  func anotherOwnersRecordIsRefused() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let annToken = try keys.userPoolToken("ann")
    let bobToken = try keys.userPoolToken("bob")
    let ann = makeClient(server, authorization: .userPools { annToken })
    let bob = makeClient(server, authorization: .userPools { bobToken })
    let reader = makeClient(server, authorization: .apiKey(keys.apiKey))
    let stored = try await ann.create(Notice(id: "n1", text: "Ann's"))
    #expect(stored.owner == "ann")
    for owner in [nil, "bob", "ann", "sub-ann::ann"] as [String?] {
      let failure = await refusal { try await bob.update(Notice(id: "n1", text: "Bob's", owner: owner)) }
      #expect(failure?.mode == .userPools)
      #expect(failure?.message == "Not Authorized to access updateNotice on type Mutation")
    }
    let deletion = await refusal { try await bob.delete(Notice(id: "n1", text: "Ann's")) }
    #expect(deletion?.message == "Not Authorized to access deleteNotice on type Mutation")
    let after = try await reader.get(Notice.self, byIdentifier: .init(id: "n1"))
    #expect(after?.text == "Ann's")
    #expect(after?.owner == "ann")
    // The owner writes her own record.
    var mine = try #require(after)
    mine.text = "edited"
    #expect(try await ann.update(mine).text == "edited")
    #expect(try await ann.delete(mine).id == "n1")
    #expect(try await reader.get(Notice.self, byIdentifier: .init(id: "n1")) == nil)
  }

  @Test("a key with no stored record is Unauthorized to an owner-only caller, a conditional failure to a static role")
  func aMissingRecordHasNoOwnerToMatch() async throws {
    let keys = try AuthFixture()
    let server = try await keys.server()
    defer { server.stop() }
    let bobToken = try keys.userPoolToken("bob")
    let bob = makeClient(server, authorization: .userPools { bobToken })
    let update = await refusal { try await bob.update(Notice(id: "none", text: "x")) }
    #expect(update?.mode == .userPools)
    #expect(update?.message == "Not Authorized to access updateNotice on type Mutation")
    let deletion = await refusal { try await bob.delete(Notice(id: "none", text: "x")) }
    #expect(deletion?.message == "Not Authorized to access deleteNotice on type Mutation")
    // IAM's private rule lets it write any Document: the write runs and finds no record.
    let credentials = keys.credentials
    let iam = makeClient(server, authorization: .iam({ credentials }, region: "us-east-1"))
    do {
      try await iam.update(Document(id: "none", title: "x"))
      Issue.record("expected the conditional check to fail")
    } catch APIError.graphQL(_, let errors, _, _) {
      #expect(errors.map(\.errorType) == ["DynamoDB:ConditionalCheckFailedException"])
    }
  }
}
