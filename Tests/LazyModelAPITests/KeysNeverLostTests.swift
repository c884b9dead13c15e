import Foundation
import LazyModel
import LazyModelAPI
import Testing

@testable import RegressionHasOneDanglingForeignKey
@testable import SeedPostCommentModels

/// Issue 14: a belongsTo/hasOne whose target the server resolves to `null` (not created yet, or
/// deleted) keeps its foreign key through decoding, loading and an unchanged update.
@Suite("Foreign keys are never lost over the API")
struct KeysNeverLostTests {
  @Test("a hasOne FK to a Transcript not created yet survives create, get and an unchanged update")
  func danglingHasOne() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/has-one-dangling-foreign-key/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let transcript = Transcript(id: "t-1", text: "hello")  // never created on the server
    let call = PhoneCall(id: "call-1", caller: "Ada", transcript: transcript)

    let created = try await client.create(call)
    #expect(log.last?.variables["input"]?["phoneCallTranscriptId"] == "t-1")
    #expect(
      log.last?.document
        == "mutation CreatePhoneCall($input: CreatePhoneCallInput!, $condition: ModelPhoneCallConditionInput) { createPhoneCall(input: $input, condition: $condition) { id caller phoneCallTranscriptId transcript { id __typename } createdAt updatedAt __typename } }"
    )
    var stored = try await server.storedRecords(of: "PhoneCall")
    #expect(stored.count == 1)
    #expect(stored.first?["phoneCallTranscriptId"] as? String == "t-1")
    // The server answered `transcript: null`; the key came back beside it.
    #expect(
      created.transcriptReference.notLoadedIdentifiers == [
        IdentifierComponent(name: "id", value: .string("t-1"))
      ])

    let fetched = try #require(
      try await client.get(PhoneCall.self, byIdentifier: .init(id: "call-1")))
    #expect(
      fetched.transcriptReference.identifiers == [
        IdentifierComponent(name: "id", value: .string("t-1"))
      ])
    #expect(try await fetched.transcript == nil)  // loading yields nil while the target is missing
    #expect(log.last?.operationName == "GetTranscript")

    _ = try await client.update(fetched)  // no change: the key must not turn into null
    #expect(log.last?.variables["input"]?["phoneCallTranscriptId"] == "t-1")
    stored = try await server.storedRecords(of: "PhoneCall")
    #expect(stored.first?["phoneCallTranscriptId"] as? String == "t-1")

    // Once the transcript exists, the same reference loads it.
    try await client.create(transcript)
    let again = try #require(
      try await client.get(PhoneCall.self, byIdentifier: .init(id: "call-1")))
    #expect(try await again.transcript?.text == "hello")

    // Clearing the reference on purpose still clears the key.
    var cleared = again
    cleared.setTranscript(nil)
    _ = try await client.update(cleared)
    stored = try await server.storedRecords(of: "PhoneCall")
    #expect(stored.first?["phoneCallTranscriptId"] is NSNull)
  }

  @Test("a comment whose post was deleted keeps postID; loading yields nil; updating keeps it")
  func deletedPost() async throws {
    let server = try await GraphQLServerProcess(schema: seedSchemaPath)
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let post = Post4V2(id: "p-1", title: "gone soon")
    try await client.create(post)
    try await client.create(Comment4V2(id: "c-1", content: "orphan", post: post))
    try await client.delete(post)

    let comment = try #require(
      try await client.get(Comment4V2.self, byIdentifier: .init(id: "c-1")))
    #expect(
      log.last?.document
        == "query GetComment4V2($id: ID!) { getComment4V2(id: $id) { id content postID post { id __typename } createdAt updatedAt __typename } }"
    )
    #expect(
      comment.postReference.notLoadedIdentifiers == [
        IdentifierComponent(name: "id", value: .string("p-1"))
      ])
    #expect(try await comment.post == nil)
    #expect(
      comment.postReference.identifiers == [IdentifierComponent(name: "id", value: .string("p-1"))])

    var edited = comment
    edited.content = "still here"
    _ = try await client.update(edited)
    #expect(log.last?.variables["input"]?["postID"] == "p-1")
    let stored = try await server.storedRecords(of: "Comment4V2")
    #expect(stored.first?["postID"] as? String == "p-1")
    #expect(stored.first?["content"] as? String == "still here")
  }
}
