import Foundation
import LazyModel
import LazyModelDataStore
import RegressionNonModelTypeHoldsModel
import Testing

/// `Schemas/regressions/non-model-type-holds-model.graphql`: a non-model type holding models
/// (`OrderLine.product`, `OrderLine.alternatives`) stores each model in full inside the embedded
/// JSON column of the model that holds it: no table row, no foreign key.
@Suite("DataStore: embedded model values (non-model types holding models)")
struct EmbeddedModelValueTests {
  @Test func orderLinesHoldingProductsRoundTripAsEmbeddedJSON() async throws {
    let url = try temporaryFileURL()
    let store = try DataStore(fileURL: url, registry: Models.registry)
    let book = Product(id: "p1", name: "Dune", price: 9.5, kind: .book, tags: ["sf", "classic"])
    let game = Product(id: "p2", name: "Go", kind: .game)
    let order = Order(
      id: "o1", customer: "ana",
      lines: [
        OrderLine(product: book, catalog: Catalog(id: "c1", title: "Autumn"), alternatives: [game, book], quantity: 2),
        OrderLine(quantity: 1),
      ],
      featured: OrderLine(product: game, quantity: 3))
    try await store.save(order)

    let fetched = try #require(try await store.query(Order.self, byIdentifier: .init(id: "o1")))
    #expect(fetched.lines == order.lines)
    #expect(fetched.lines[0].product == book)
    #expect(fetched.lines[0].alternatives?.map(\.name) == ["Go", "Dune"])
    #expect(fetched.lines[0].product?.tags == ["sf", "classic"])
    #expect(fetched.lines[1].product == nil)
    #expect(fetched.lines[0].catalog?.title == "Autumn", "stored locally whatever its mutations")
    #expect(fetched.featured?.product?.kind == .game)
    #expect(fetched.featured?.quantity == 3)
    #expect(try await store.query(Product.self).isEmpty, "an embedded product is not a Product row")

    let db = try RawDatabase(url)
    let columns = db.rows(#"SELECT name FROM pragma_table_info('Order')"#).map { $0[0] }
    #expect(columns == ["id", "customer", "lines", "featured", "createdAt", "updatedAt"])
    let stored = try #require(db.rows(#"SELECT "lines" FROM "Order""#).first?.first)
    let lines = try #require(try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [[String: Any]])
    let product = try #require(lines[0]["product"] as? [String: Any])
    #expect(product["id"] as? String == "p1")
    #expect(product["name"] as? String == "Dune")
    #expect(product["price"] as? Double == 9.5)
    #expect(product["kind"] as? String == "BOOK")
    #expect((lines[0]["alternatives"] as? [[String: Any]])?.map { $0["id"] as? String } == ["p2", "p1"])
  }

  @Test func theEmbeddedSchemaRecordsModelFieldsWithoutAssociations() {
    let fields = OrderLine.schema.fields
    #expect(fields.map(\.name) == ["product", "catalog", "alternatives", "quantity"])
    #expect(fields[0].type == .model(Product.self) && !fields[0].isRequired)
    #expect(fields[1].type == .model(Catalog.self))
    #expect(fields[2].type == .list(.model(Product.self), elementRequired: true))
    #expect(fields.allSatisfy { $0.association == nil })
  }
}
