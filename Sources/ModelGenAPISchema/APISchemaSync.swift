import ModelGenIR

/// What the Amplify GraphQL transformer adds to the API schema of a versioned data source (a
/// conflict-resolution strategy is set; AppSync developer guide, "Versioning, conflict detection,
/// and sync operations for DynamoDB data sources"):
/// - every model type gains `_version: Int!`, `_deleted: Boolean`, `_lastChangedAt: AWSTimestamp!`
///   (after its fields);
/// - `Create<X>Input`, `Update<X>Input` and `Delete<X>Input` gain `_version: Int` (last);
/// - `Model<X>Connection` gains `startedAt: AWSTimestamp`;
/// - `Query` gains `sync<PluralName>(filter:, limit:, nextToken:, lastSync: AWSTimestamp):
///   Model<X>Connection` after `list<PluralName>` (only while `list` is enabled);
/// - and, for the local server, each model's `conflictHandler` and its `SYNC` operation in the
///   manifest (``APILocalManifest``), not in the deployable schema.
///
/// Thread-safe: constants and pure functions.
enum APISchemaSync {
  /// The sync metadata fields of a model type, in the transformer's order.
  static let metadataFields = ["_version: Int!", "_deleted: Boolean", "_lastChangedAt: AWSTimestamp!"]

  /// The connection's `startedAt`: when the sync query began, in epoch milliseconds.
  static let startedAtField = "startedAt: AWSTimestamp"

  /// `_version` in a mutation input: the version the client last saw.
  static let versionInputField = "_version: Int"

  /// `sync<PluralName>(filter: Model<X>FilterInput, limit: Int, nextToken: String, lastSync:
  /// AWSTimestamp): Model<X>Connection` with `directives`.
  static func syncQuery(_ model: ModelDefinition, directives: [String]) -> String {
    SDLBlock.field(
      APINames.syncQuery(model),
      arguments: [
        ("filter", APINames.filterInput(model.name)), ("limit", "Int"), ("nextToken", "String"),
        ("lastSync", "AWSTimestamp"),
      ],
      type: APINames.connection(model.name), directives: directives)
  }
}
