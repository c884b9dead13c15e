import Foundation
import LazyModel
import LazyModelAPI
import RegressionNonModelTypeHoldsModel
import Testing

/// `Schemas/regressions/non-model-type-holds-model.graphql` over HTTP: a model held by a non-model
/// type is selected with its data fields one level deep and written in its `CreateProductInput`
/// shape inside `OrderLineInput`, as the emitted API schema declares (a held model without a create
/// mutation, `Catalog`, is selected but never sent).
@Suite("API: embedded model values (non-model types holding models)")
struct EmbeddedModelValueAPITests {
  @Test func orderLinesHoldingProductsRoundTripThroughCreateAndGet() async throws {
    let server = try await GraphQLServerProcess(
      schema: "Generated/regressions/non-model-type-holds-model/schema.api.graphql")
    defer { server.stop() }
    let log = RequestLog()
    let client = makeClient(server, log: log)
    let book = Product(id: "p1", name: "Dune", price: 9.5, kind: .book, tags: ["sf"])
    let game = Product(id: "p2", name: "Go", kind: .game)
    let order = Order(
      id: "o1", customer: "ana",
      lines: [
        OrderLine(product: book, catalog: Catalog(id: "c1", title: "Autumn"), alternatives: [game], quantity: 2),
        OrderLine(quantity: 1),
      ],
      featured: OrderLine(product: game, quantity: 3))
    try await client.create(order)
    let sentLines: GraphQLValue? = log.last?.variables["input"]?["lines"]
    guard case .list(let lines)? = sentLines, let line = lines.first else {
      Issue.record("createOrder sent no lines: \(String(describing: sentLines))")
      return
    }
    let sentBook: GraphQLValue = .object([
      "id": "p1", "name": "Dune", "price": .double(9.5), "kind": "BOOK", "tags": .list(["sf"]),
    ])
    let sentGame: GraphQLValue = .object(["id": "p2", "name": "Go", "kind": "GAME"])
    #expect(line["product"] == sentBook, "the product in its CreateProductInput shape")
    #expect(line["alternatives"] == .list([sentGame]))
    #expect(line["quantity"] == 2)
    #expect(line["catalog"] == nil, "Catalog has no create mutation, so OrderLineInput has no catalog")
    #expect(lines.count == 2)

    let fetched = try #require(try await client.get(Order.self, byIdentifier: .init(id: "o1")))
    let product = "{ id name price kind tags __typename }"
    let orderLine = "{ product \(product) catalog { id title __typename } alternatives \(product) quantity }"
    #expect(
      log.last?.document
        == "query GetOrder($id: ID!) { getOrder(id: $id) { id customer lines \(orderLine) featured \(orderLine) createdAt updatedAt __typename } }"
    )
    #expect(fetched.lines.count == 2)
    #expect(fetched.lines[0].product?.name == "Dune")
    #expect(fetched.lines[0].product?.price == 9.5)
    #expect(fetched.lines[0].product?.kind == .book)
    #expect(fetched.lines[0].product?.tags == ["sf"])
    #expect(fetched.lines[0].alternatives?.map(\.id) == ["p2"])
    #expect(fetched.lines[1].product == nil)
    #expect(fetched.lines[0].catalog == nil, "never sent, so never stored")
    #expect(fetched.featured?.product?.name == "Go")
    #expect(fetched.featured?.quantity == 3)
  }
}
