import Foundation
import LazyModel
import LazyModelDataStore
import ModelOperationsModels
import ModelTimestampsModels
import Testing

/// `@model(timestamps:)` renames and disables: the store sets the timestamps the generated schema
/// names (``ModelSchema/timestamps``), whatever they are called, and nothing else.
@Suite("Timestamps named by the schema")
struct TimestampNameTests {
  @Test("generated schemas carry the resolved timestamp names")
  func schemaNames() {
    #expect(
      Renamed.schema.timestamps
        == ModelTimestampFields(createdAt: "createdOn", updatedAt: "updatedOn"))
    #expect(Untimed.schema.timestamps == ModelTimestampFields(createdAt: nil, updatedAt: nil))
    #expect(Stamp.schema.timestamps == ModelTimestampFields(createdAt: "created", updatedAt: nil))
    #expect(
      Note.schema.timestamps == ModelTimestampFields(createdAt: "createdAt", updatedAt: "updatedAt")
    )
  }

  @Test(
    "renamed timestamps (createdOn/updatedOn) are set on insert; createdOn is kept on update",
    arguments: StoreLocation.allCases)
  func renamed(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: ModelTimestampsModels.Models.registry)
    var model = Renamed(id: "r", text: "one")
    try await store.save(model)
    let inserted = try #require(try await store.query(Renamed.self, byIdentifier: .init(id: "r")))
    let createdOn = try #require(inserted.createdOn)
    #expect(inserted.updatedOn != nil)
    model.text = "two"
    try await store.save(model)
    let updated = try #require(try await store.query(Renamed.self, byIdentifier: .init(id: "r")))
    #expect(updated.text == "two")
    #expect(updated.createdOn == createdOn)
    #expect(updated.updatedOn != nil)
  }

  @Test(
    "createdAt renamed to created with updatedAt disabled: created is set, a data field named updatedAt is left as given",
    arguments: StoreLocation.allCases)
  func renamedCreatedDisabledUpdated(_ location: StoreLocation) async throws {
    let (store, _) = try makeStore(location, registry: ModelOperationsModels.Models.registry)
    let given = try Temporal.DateTime(iso8601String: "2020-01-02T03:04:05.000Z")
    try await store.save(Stamp(id: "given", text: "a", updatedAt: given))
    try await store.save(Stamp(id: "none", text: "b", updatedAt: nil))
    let withValue = try #require(
      try await store.query(Stamp.self, byIdentifier: .init(id: "given")))
    let withoutValue = try #require(
      try await store.query(Stamp.self, byIdentifier: .init(id: "none")))
    #expect(withValue.created != nil)
    #expect(withoutValue.created != nil)
    #expect(withValue.updatedAt == given)
    #expect(withoutValue.updatedAt == nil)
  }

  @Test(
    "timestamps: null: the model saves and round-trips with no timestamp columns",
    arguments: StoreLocation.allCases)
  func disabled(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: ModelTimestampsModels.Models.registry)
    try await store.save(Untimed(id: "u", text: "plain"))
    let loaded = try #require(try await store.query(Untimed.self, byIdentifier: .init(id: "u")))
    #expect(loaded.text == "plain")
    #expect(
      log.queries.contains { $0.hasPrefix(#"SELECT "id", "text" FROM "Untimed""#) })
  }
}
