import AuthRulesModels
import Foundation
import LazyModel
import LazyModelAPI
import Testing

@Suite("@auth models over HTTP (Generated/auth-rules)")
struct AuthRulesTests {
  @Test("the implicit owner field is read back but never sent; field-level rules change no request")
  func ownerFieldIsServiceSet() async throws {
    let server = try await GraphQLServerProcess(schema: "Generated/auth-rules/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let memo = Memo(
      id: "m1", title: "Plan", editors: ["ann"], secret: "s", reviewNote: "ok",
      attachment: Attachment(name: "a.pdf"))
    try await client.create(memo)
    #expect(log.last?.operationName == "CreateMemo")
    #expect(
      log.last?.variables == [
        "input": [
          "id": "m1", "title": "Plan", "editors": ["ann"], "secret": "s", "reviewNote": "ok",
          "attachment": ["name": "a.pdf"],
        ]
      ])
    #expect(log.last?.document.contains("owner") == true)
    let fetched = try #require(try await client.get(Memo.self, byIdentifier: .init(id: "m1")))
    #expect(fetched.secret == "s" && fetched.attachment == Attachment(name: "a.pdf"))
    #expect(fetched.owner == nil)

    try await client.create(Ticket(id: "t1", subject: "Bug"))
    #expect(log.last?.variables == ["input": ["id": "t1", "subject": "Bug"]])
    #expect(try await client.get(Ticket.self, byIdentifier: .init(id: "t1"))?.subject == "Bug")
  }
}
