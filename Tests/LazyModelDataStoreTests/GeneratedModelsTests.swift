// Every module modelgen generated into Generated/ opens as a DataStore. Types are module-qualified:
// several modules declare models of the same names. (The other suites of this module run their
// scenarios on these generated models too.)
import AuthRulesModels
import CompositeKeyHasManyModels
import DefaultValuesModels
import ForeignKeysWithoutBelongsToModels
import Foundation
import HasManyImplicitModels
import HasOneModels
import IndexSecondaryModels
import LazyModel
import LazyModelDataStore
import ManyToManyModels
import ModelTimestampsModels
import PrimaryKeyCompositeModels
import RegressionCompositeKeyNonStringComponents
import RegressionCompositeKeySortKeyNamedId
import RegressionEnumValuesSwiftKeywords
import RegressionHasManyExplicitFkIndex
import RegressionHasOneBelongsToCompositeKeys
import RegressionLazyListReadBeforeFetch
import RegressionListNullabilityWithLazyBelongsTo
import RegressionReferencesHasOneHasMany
import RegressionTypeNameLowercasesToKeyword
import ScalarsEnumsEmbeddedModels
import SeedPostCommentModels
import SelfAndOneToOneModels
import SwiftKeywordsModels
import Testing

@Suite("Generated models in the DataStore")
struct GeneratedModelsTests {
  static let registries: [(String, ModelRegistry)] = [
    ("auth-rules", AuthRulesModels.Models.registry),
    ("composite-key-has-many", CompositeKeyHasManyModels.Models.registry),
    ("default-values", DefaultValuesModels.Models.registry),
    ("foreign-keys-without-belongs-to", ForeignKeysWithoutBelongsToModels.Models.registry),
    ("has-many-implicit", HasManyImplicitModels.Models.registry),
    ("has-one", HasOneModels.Models.registry),
    ("index-secondary", IndexSecondaryModels.Models.registry),
    ("many-to-many", ManyToManyModels.Models.registry),
    ("model-timestamps", ModelTimestampsModels.Models.registry),
    ("primary-key-composite", PrimaryKeyCompositeModels.Models.registry),
    ("scalars-enums-embedded", ScalarsEnumsEmbeddedModels.Models.registry),
    ("seed-post-comment", SeedPostCommentModels.Models.registry),
    ("self-and-one-to-one", SelfAndOneToOneModels.Models.registry),
    ("swift-keywords", SwiftKeywordsModels.Models.registry),
    (
      "composite-key-non-string-components",
      RegressionCompositeKeyNonStringComponents.Models.registry
    ),
    ("composite-key-sort-key-named-id", RegressionCompositeKeySortKeyNamedId.Models.registry),
    ("enum-values-swift-keywords", RegressionEnumValuesSwiftKeywords.Models.registry),
    ("has-many-explicit-fk-index", RegressionHasManyExplicitFkIndex.Models.registry),
    ("has-one-belongs-to-composite-keys", RegressionHasOneBelongsToCompositeKeys.Models.registry),
    ("lazy-list-read-before-fetch", RegressionLazyListReadBeforeFetch.Models.registry),
    (
      "list-nullability-with-lazy-belongs-to",
      RegressionListNullabilityWithLazyBelongsTo.Models.registry
    ),
    ("references-has-one-has-many", RegressionReferencesHasOneHasMany.Models.registry),
    ("type-name-lowercases-to-keyword", RegressionTypeNameLowercasesToKeyword.Models.registry),
  ]

  @Test("every generated registry gets its tables, and reopens without migration errors")
  func everyRegistryOpens() throws {
    for (name, registry) in Self.registries {
      let url = try temporaryFileURL("\(name).sqlite")
      _ = try DataStore(fileURL: url, registry: registry)
      _ = try DataStore(fileURL: url, registry: registry)
      _ = try DataStore.inMemory(registry: registry)
      let tables = try RawDatabase(url).rows("SELECT name FROM sqlite_schema WHERE type = 'table'")
        .map { $0[0] }
      let modelNames = Set(registry.schemas.map { $0.name })
      #expect(Set(tables) == modelNames, "\(name)")
    }
  }

  @Test("seed scenario with the generated Post4V2 / Comment4V2", arguments: StoreLocation.allCases)
  func generatedSeed(_ location: StoreLocation) async throws {
    let (store, log) = try makeStore(location, registry: SeedPostCommentModels.Models.registry)
    let post = SeedPostCommentModels.Post4V2(id: "p#1", title: "Hello")
    try await store.save(post)
    try await store.save(SeedPostCommentModels.Comment4V2(id: "c'1", content: "First", post: post))
    let comment = try #require(try await store.query(SeedPostCommentModels.Comment4V2.self).first)
    log.clear()
    #expect(try await comment.post?.title == "Hello")
    #expect(log.queries.count == 1)
    let loaded = try #require(try await comment.post)
    #expect(try await loaded.comments?.fetch().map(\.content) == ["First"])
    let posts = try await store.loadReferences(
      SeedPostCommentModels.Comment4V2.keys.post, of: [comment, comment],
      as: SeedPostCommentModels.Post4V2.self)
    #expect(posts.map { $0?.id } == ["p#1", "p#1"])
  }

  @Test("generated composite key with non-String components", arguments: StoreLocation.allCases)
  func generatedNonStringKey(_ location: StoreLocation) async throws {
    typealias Reading = RegressionCompositeKeyNonStringComponents.Reading
    let (store, _) = try makeStore(
      location, registry: RegressionCompositeKeyNonStringComponents.Models.registry)
    let reading = Reading(
      id: "r", takenAt: try .init(iso8601String: "2026-11-30T10:00:00Z"),
      day: try .init(iso8601String: "2026-11-30"),
      time: try .init(iso8601String: "10:00"), seq: 3, priority: .high, value: 0.5, note: "n")
    try await store.save(reading)
    let found = try #require(try await store.query(Reading.self, byIdentifier: reading.identifier))
    #expect(found.note == "n" && found.priority == .high && found.value == 0.5)
    #expect(
      try await store.query(
        Reading.self,
        where: Reading.keys.seq.ge(3)
          && Reading.keys.priority.eq(RegressionCompositeKeyNonStringComponents.Priority.high)
      ).count == 1)
  }
}
