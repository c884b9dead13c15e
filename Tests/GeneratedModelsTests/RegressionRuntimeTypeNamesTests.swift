import Foundation
import LazyModel
import LazyModelAPI
import LazyModelDataStore
import RegressionTypeNamesShadowRuntimeTypes
import Testing

/// `Schemas/regressions/type-names-shadow-runtime-types.graphql` (issue 17): types named
/// `DataStore`, `APIClient`, `KeyPath` and `AsyncStream` are generated as `DataStoreType`,
/// `APIClientType`, `KeyPathType` and `AsyncStreamType`. This file imports the generated module
/// beside `LazyModelDataStore`, `LazyModelAPI` and the standard library and writes each of those
/// names unqualified: had the module declared one of them, the name would be ambiguous here and
/// this file would not compile.
@Suite("Generated regression: type-names-shadow-runtime-types")
struct RegressionRuntimeTypeNamesTests {
  @Test func theRuntimeAndStandardTypesStayUsableBesideTheRenamedModels() async throws {
    let name: KeyPath<DataStoreType, String> = \.name
    let stream = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.yield(2)
      continuation.finish()
    }
    var received: [Int] = []
    for await value in stream { received.append(value) }
    #expect(received == [1, 2])
    #expect(String(describing: APIClient.self) == "APIClient")

    let store: DataStore = try DataStore.inMemory(registry: RegressionTypeNamesShadowRuntimeTypes.Models.registry)
    let main = try await store.save(DataStoreType(id: "d1", name: "main"))
    #expect(main[keyPath: name] == "main")
    try await store.save(
      APIClientType(
        id: "c1", endpoint: "https://example.com/graphql", route: KeyPathType(segments: ["a", "b"]), state: .open,
        store: main))
    let client = try #require(try await store.query(APIClientType.self, byIdentifier: .init(id: "c1")))
    #expect(client.route == KeyPathType(segments: ["a", "b"]))
    #expect(client.state == .open)
    #expect(try await client.store?.id == "d1")
    let clients = try #require(try await store.query(DataStoreType.self, byIdentifier: .init(id: "d1"))?.clients)
    #expect(try await clients.fetch().map(\.id) == ["c1"])
  }

  @Test func theGraphQLNamesStayOnTheWireAndInTheSchema() throws {
    #expect(DataStoreType.schema.name == "DataStore")
    #expect(APIClientType.schema.name == "APIClient")
    #expect(AsyncStreamType.open.rawValue == "OPEN")
    #expect(AsyncStreamType.allCases == [.open, .closed])
    let registry = RegressionTypeNamesShadowRuntimeTypes.Models.registry
    #expect(registry.model(named: "DataStore").map(ObjectIdentifier.init) == ObjectIdentifier(DataStoreType.self))
    #expect(registry.model(named: "APIClient").map(ObjectIdentifier.init) == ObjectIdentifier(APIClientType.self))
    let client = APIClientType(id: "c2", endpoint: "e", route: KeyPathType(segments: ["x"]), state: .closed)
    let json = try JSON.object(try JSON.encode(client))
    #expect(json["state"] as? String == "CLOSED")
    #expect((json["route"] as? NSDictionary)?["segments"] as? [String] == ["x"])
  }
}
