import AuthRulesModels
import Foundation
import LazyModel
import Testing

@testable import LazyModelAPI

/// `replacingInput(_:)`, which the client uses to leave an update's unreadable `null` inputs out
/// (``APIClient/withoutUnreadableFields(_:)``), keeps every property of the request but its input.
/// Before, it rebuilt the request from some of them and dropped `authRules` and `parentRead`, so
/// a filtered update lost the rules its multi-auth modes are picked by.
@Suite("GraphQLRequest.replacingInput keeps every other property")
struct ReplacingInputTests {
  /// Each stored property of `request` (by name, described), `variables` left out.
  private func properties(_ request: GraphQLRequest<GraphQLValue>) -> [String: String] {
    var described: [String: String] = [:]
    for child in Mirror(reflecting: request).children {
      guard let label = child.label, label != "variables" else { continue }
      var text = ""
      dump(child.value, to: &text)
      described[label] = text
    }
    return described
  }

  @Test func everyPropertyButTheInputIsKept() throws {
    var request = GraphQLRequest<GraphQLValue>(
      operationType: .mutation, operationName: "UpdateBulletin", document: "mutation UpdateBulletin { x }",
      variables: ["input": .object(["id": .string("b1"), "body": .null]), "condition": .null],
      responseField: "updateBulletin", nestedField: "posts", nestedLists: []
    ).authorized(by: Bulletin.schema, operation: .update).sendingInputAsIs()
    request.parentRead = (Bulletin.schema, "posts")
    let replaced = request.replacingInput(["id": .string("b1")])
    #expect(replaced.variables == ["input": .object(["id": .string("b1")]), "condition": .null])
    // Every stored property is compared (one added later is too), each set to a non-default value.
    let before = properties(request)
    #expect(Set(before.keys).isSuperset(of: ["authRules", "parentRead", "sendsInputAsIs", "nestedField"]))
    #expect(request.authRules != nil && request.parentRead != nil && request.sendsInputAsIs)
    #expect(properties(replaced) == before)
    #expect(replaced.authRules?.operation == .update && replaced.authRules?.schema.name == "Bulletin")
    #expect(replaced.parentRead?.field == "posts")
  }
}
