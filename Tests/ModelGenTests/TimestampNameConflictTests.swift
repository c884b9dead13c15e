import Testing

@testable import GraphQLSDL
@testable import ModelGen
@testable import ModelGenIR

/// Issue 17 (a fresh user's run): a `@model(timestamps:)` name that another field of the model
/// needs passed `validate`, and `generate` wrote Swift that does not compile. Each kind is MG074
/// at the written `timestamps:` value, with a hint; a declared `AWSDateTime` field of the name
/// stays a timestamp, as the transformer keeps it.
@Suite("MG074: timestamp names that another field needs")
struct TimestampNameConflictTests {
  /// `{createdAt: "changed", updatedAt: "changed"}` generated `changed2` twice and duplicate
  /// coding-key raw values, and an API schema with `changed` twice.
  @Test func bothTimestampsWithOneName() {
    expectDiagnostics(
      #"type C @model(timestamps: {createdAt: "changed", updatedAt: 1️⃣"changed"}) { id: ID! }"#,
      [(ModelGenDiagnosticCode.timestampNameConflict, "1️⃣")])
    let (result, _) = analyzeMarked(
      #"type C @model(timestamps: {createdAt: "changed", updatedAt: "changed"}) { id: ID! }"#)
    #expect(
      result.diagnostics.map(\.message) == [
        "the `updatedAt` timestamp of `C` is named `changed`, which is also the name of the `createdAt` timestamp; the model would define `changed` twice"
      ])
    #expect(
      result.diagnostics.first?.hint
        == "give the `updatedAt` timestamp another name (`timestamps: {updatedAt: \"updatedOn\"}`) or leave it out (`updatedAt: null`); the two timestamps need two fields"
    )
    // Also when the model declares the field.
    expectDiagnostics(
      #"type E @model(timestamps: {createdAt: "at", updatedAt: 1️⃣"at"}) { id: ID! at: AWSDateTime }"#,
      [(ModelGenDiagnosticCode.timestampNameConflict, "1️⃣")])
  }

  /// A timestamp named like the implicit `id: ID!` was MG025 "must have type `AWSDateTime`" at
  /// the model's name, with a hint about declaring the field `AWSDateTime`, which is not the user's.
  @Test func aTimestampNamedLikeTheImplicitIdentifier() {
    expectDiagnostics(
      #"type C @model(timestamps: {createdAt: 1️⃣"id"}) { title: String }"#,
      [(ModelGenDiagnosticCode.timestampNameConflict, "1️⃣")])
    let (result, _) = analyzeMarked(#"type C @model(timestamps: {createdAt: "id"}) { title: String }"#)
    #expect(result.diagnostics.first?.message.contains("which is also the implicit primary key (`id: ID!`)") == true)
  }

  /// A timestamp named like the implicit foreign key another model's `@hasMany` adds was MG011
  /// ("has type AWSDateTime") at the `@hasMany`, far from the cause.
  @Test func aTimestampNamedLikeAnImplicitForeignKey() {
    expectDiagnostics(
      """
      type Q @model { id: ID! comments: [Comment] @hasMany }
      type Comment @model(timestamps: {createdAt: 1️⃣"qCommentsId"}) { id: ID! text: String }
      """,
      [(ModelGenDiagnosticCode.timestampNameConflict, "1️⃣")])
    let (result, _) = analyzeMarked(
      """
      type Q @model { id: ID! comments: [Comment] @hasMany }
      type Comment @model(timestamps: {createdAt: "qCommentsId"}) { id: ID! text: String }
      """)
    #expect(
      result.diagnostics.first?.message
        == "the `createdAt` timestamp of `Comment` is named `qCommentsId`, which is also the foreign key that `Q.comments` (@hasMany) adds; the model would define `qCommentsId` twice"
    )
    // A bare @hasOne's key on the parent, and a @belongsTo's paired with a @hasOne.
    expectDiagnostics(
      """
      type Team @model(timestamps: {updatedAt: 1️⃣"teamProjectId"}) { id: ID! project: Project @hasOne }
      type Project @model { id: ID! }
      """,
      [(ModelGenDiagnosticCode.timestampNameConflict, "1️⃣")])
  }

  /// `timestamps: {createdAt: "owner"}` with `{allow: owner}` silently made the owner an
  /// `AWSDateTime`; also for a named `ownerField:`.
  @Test func aTimestampNamedLikeAnOwnerField() {
    expectDiagnostics(
      #"type Note @model(timestamps: {createdAt: 1️⃣"owner"}) @auth(rules: [{allow: owner}]) { id: ID! }"#,
      [(ModelGenDiagnosticCode.timestampNameConflict, "1️⃣")])
    expectDiagnostics(
      #"""
      type Note @model(timestamps: {updatedAt: 1️⃣"author"})
        @auth(rules: [{allow: owner, ownerField: "author"}, {allow: owner, ownerField: "author", operations: [read]}]) {
        id: ID!
      }
      """#,
      [(ModelGenDiagnosticCode.timestampNameConflict, "1️⃣")])
    let (result, _) = analyzeMarked(
      #"type Note @model(timestamps: {createdAt: "owner"}) @auth(rules: [{allow: owner}]) { id: ID! }"#)
    #expect(result.diagnostics.first?.hint.map { $0.contains("an owner field holds a `String`") } == true)
  }

  /// What the transformer keeps stays accepted: a declared `AWSDateTime` field named by a
  /// timestamp (also the primary key), and default names beside an owner rule.
  @Test func declaredTimestampFieldsStayAccepted() throws {
    let graph = try #require(
      analyzeClean(
        """
        type K @model(timestamps: {createdAt: "day"}) { day: AWSDateTime! @primaryKey title: String }
        type Note @model @auth(rules: [{allow: owner}]) { id: ID! createdAt: AWSDateTime }
        """))
    let k = try #require(graph.models.first { $0.name == "K" })
    #expect(k.fields.map(\.name) == ["day", "title", "updatedAt"])
    let note = try #require(graph.models.first { $0.name == "Note" })
    #expect(note.fields.map(\.name) == ["id", "createdAt", "owner", "updatedAt"])
  }
}
