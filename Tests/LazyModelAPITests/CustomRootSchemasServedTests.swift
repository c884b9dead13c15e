import Foundation
import LazyModel
import LazyModelAPI
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 20: the API schemas of `Schemas/regressions/root-fields-without-models` (no `@model`, only
/// the user's root fields) and `auth-on-custom-root-fields-dropped` (`@auth` on user root fields
/// turned into `@aws_*` directives) are served by the local server, and documents for their fields
/// validate against them (the server has no resolver for a user's field: each answers `null`).
@Suite("User root schemas served by the local server")
struct CustomRootSchemasServedTests {
  @Test func aSchemaWithoutModelsIsServed() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/root-fields-without-models/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server)
    let echo = GraphQLRequest<String?>(
      operationType: .query, operationName: "Echo", document: "query Echo($text: String!) { echo(text: $text) }",
      variables: ["text": "hi"], responseField: "echo")
    #expect(try await client.send(echo) == nil)
    let add = GraphQLRequest<[String: String]?>(
      operationType: .mutation, operationName: "AddNote",
      document: "mutation AddNote($input: AddNoteInput!) { addNote(input: $input) { text level } }",
      variables: ["input": ["text": "a", "level": "HIGH"]], responseField: "addNote")
    #expect(try await client.send(add) == nil)
    // An argument of the wrong enum is refused by the served schema.
    let wrong = GraphQLRequest<[String: String]?>(
      operationType: .query, operationName: "Notes", document: "query Notes { notes(level: MEDIUM) { text } }",
      variables: [:], responseField: "notes")
    do {
      _ = try await client.send(wrong)
      Issue.record("expected a validation error")
    } catch let APIError.graphQL(_, errors, _, _) {
      #expect(errors.first?.errorType == "ValidationError")
    }
  }

  @Test func userRootFieldsWithAuthAreServedBesideTheModels() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/auth-on-custom-root-fields-dropped/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server)
    let pulse = GraphQLRequest<Int?>(
      operationType: .query, operationName: "Pulse", document: "query Pulse { pulse }", variables: [:],
      responseField: "pulse")
    #expect(try await client.send(pulse) == nil)
    let report = GraphQLRequest<String?>(
      operationType: .query, operationName: "Report", document: "query Report($day: AWSDate!) { report(day: $day) }",
      variables: ["day": "2026-12-02"], responseField: "report")
    #expect(try await client.send(report) == nil)
  }
}
