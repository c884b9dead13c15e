import Foundation
import LazyModel
import LazyModelAPI
import RegressionCustomRootFieldsDropped
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 20: the user's own root fields are kept in `schema.api.graphql`. The local server serving
/// `Schemas/regressions/custom-root-fields-dropped` accepts documents for them (it has no resolver
/// for a custom field, so each answers `null`) beside the generated queries and mutations, and
/// refuses a field the schema does not have.
@Suite("User root fields in the served API schema")
struct CustomRootFieldsTests {
  @Test func theUsersRootFieldsValidateBesideTheGeneratedOnes() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/custom-root-fields-dropped/schema.api.graphql")
    defer { server.stop() }
    let client = makeClient(server)
    _ = try await client.create(Order(id: "o1", total: 3, status: .open))
    let order = try #require(try await client.get(Order.self, byIdentifier: .init(id: "o1")))
    #expect(order.total == 3 && order.status == .open)

    let echo = GraphQLRequest<String?>(
      operationType: .query, operationName: "Echo", document: "query Echo($text: String!) { echo(text: $text) }",
      variables: ["text": "hi"], responseField: "echo")
    #expect(try await client.send(echo) == nil)
    let receipt = GraphQLRequest<Receipt?>(
      operationType: .query, operationName: "Receipt",
      document: "query Receipt($orderID: ID!) { receipt(orderID: $orderID) { orderID lines } }",
      variables: ["orderID": "o1"], responseField: "receipt")
    #expect(try await client.send(receipt) == nil)
    let byStatus = GraphQLRequest<[Order?]?>(
      operationType: .query, operationName: "OrdersByStatus",
      document: "query OrdersByStatus($status: OrderStatus!) { ordersByStatus(status: $status) { id } }",
      variables: ["status": "OPEN"], responseField: "ordersByStatus")
    #expect(try await client.send(byStatus) == nil)
    let send = GraphQLRequest<Receipt?>(
      operationType: .mutation, operationName: "SendReceipt",
      document:
        "mutation SendReceipt($input: SendReceiptInput!) { sendReceipt(input: $input) { orderID lines } }",
      variables: ["input": ["orderID": "o1", "note": "thanks"]], responseField: "sendReceipt")
    #expect(try await client.send(send) == nil)

    // The served schema is what is checked: a field it lacks is a validation error.
    let missing = GraphQLRequest<String?>(
      operationType: .query, operationName: "Nope", document: "query Nope { nope }", variables: [:],
      responseField: "nope")
    do {
      _ = try await client.send(missing)
      Issue.record("expected a validation error")
    } catch let APIError.graphQL(_, errors, _, _) {
      #expect(errors.first?.errorType == "ValidationError")
    }
  }
}
