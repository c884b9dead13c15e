import Foundation
import LazyModel
import LazyModelAPI
import RegressionAppsyncDirectivesOnModelTypesDropped
import RegressionChildWithoutQueriesConnectionUnauthorized
import RegressionSubscriptionLevelNotInModelSchema
import Testing

/// `Schemas/regressions/subscription-level-not-in-model-schema.graphql`: the generated schemas
/// carry `@model(subscriptions:)`'s level and the protected fields, and what mutation responses
/// and events redact follows them (before: no level in the schema, every model counted as `on`,
/// and `Diary`'s mutation responses were taken as redacting `secret`).
@Suite("Generated: the subscription level and protected fields in the model schema")
struct RegressionSubscriptionLevelTests {
  @Test func levelsAndProtectedFields() {
    #expect(
      [Journal.schema.subscriptionLevel, Diary.schema.subscriptionLevel, Ledger.schema.subscriptionLevel] == [
        .on, .public, .off,
      ])
    for schema in [Journal.schema, Diary.schema, Ledger.schema] { #expect(schema.protectedFields == ["secret"]) }
    #expect(Journal.schema.fieldsRedactedInMutationResponses == ["secret"])
    #expect(Diary.schema.fieldsRedactedInMutationResponses == [])
    #expect(Ledger.schema.fieldsRedactedInMutationResponses == [])
    // Events stay conservative; a model without subscriptions has none.
    #expect(Journal.schema.fieldsRedactedInSubscriptionEvents == ["secret"])
    #expect(Diary.schema.fieldsRedactedInSubscriptionEvents == ["secret"])
    #expect(Ledger.schema.fieldsRedactedInSubscriptionEvents == [])
    #expect(Ledger.schema.operations.onCreate == nil)
  }

  /// A hand-written schema that gives no protected fields gets them computed from its rules, by
  /// the rule the generator applies.
  @Test func handWrittenSchemasComputeTheSameProtectedFields() {
    let copy = ModelSchema(
      name: "Journal", pluralName: "Journals", primaryKey: ["id"], fields: Journal.schema.fields,
      authRules: Journal.schema.authRules)
    #expect(copy.protectedFields == Journal.schema.protectedFields)
    #expect(copy.subscriptionLevel == .on)
  }

  /// The other two regressions of s14 compile and keep their models' names.
  @Test func otherRegressionModelsCompile() {
    #expect(
      [Album.schema.name, Track.schema.name, Poll.schema.name, Vote.schema.name] == ["Album", "Track", "Poll", "Vote"])
    #expect(Track.schema.operations.list == nil && Track.schema.operations.get == nil)
  }
}
