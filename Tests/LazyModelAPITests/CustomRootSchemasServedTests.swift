import Foundation
import LazyModel
import LazyModelAPI
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 20: the API schema of `Schemas/regressions/auth-on-custom-root-fields-dropped` (`@auth` on
/// user root fields turned into `@aws_*` directives) is served by the local server, and documents
/// for its fields validate against it (the server has no resolver for a user's field: each answers
/// `null`).
@Suite("User root schemas served by the local server")
struct CustomRootSchemasServedTests {
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
