/// The conflict-resolution strategy of a versioned data source (`modelgen generate
/// --conflict-resolution`, config key `conflictResolution`), as AppSync names them in a resolver's
/// `SyncConfig` (AppSync developer guide, "Conflict detection and resolution").
///
/// With a strategy the emitted API schema is the one the Amplify transformer derives for DataStore
/// (conflict detection `VERSION`): `_version`, `_deleted`, `_lastChangedAt` on every model type,
/// `_version` in mutation inputs, `sync<PluralName>` queries and `startedAt` on connections; and each
/// generated `ModelSchema` records its `syncPluralName`. Without one (`nil`) nothing changes.
public enum ConflictResolution: String, Sendable, Hashable, CaseIterable {
  /// `AUTOMERGE`: the service merges a conflicting mutation into the stored item (scalars keep the
  /// stored value, lists are concatenated, fields the item lacks are taken).
  case automerge
  /// `OPTIMISTIC_CONCURRENCY`: a mutation whose `_version` is not the current one is rejected with
  /// `ConflictUnhandled`, carrying the stored item.
  case optimistic
  /// `LAMBDA`: a Lambda function decides (accept, reject or replace the incoming item).
  case lambda

  /// AppSync's `SyncConfig.conflictHandler` value (`AUTOMERGE`, `OPTIMISTIC_CONCURRENCY`, `LAMBDA`).
  public var conflictHandler: String {
    switch self {
    case .automerge: return "AUTOMERGE"
    case .optimistic: return "OPTIMISTIC_CONCURRENCY"
    case .lambda: return "LAMBDA"
    }
  }
}
