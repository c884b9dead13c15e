import LazyModelDataStore
import SyncOwnerModels

/// A sync expression for `Note` (`SyncOwnerModels`), a model the blog registry of the inbound
/// tests does not hold: `DataStore.start()` refuses it (`SyncExpressionError`, "names no synced
/// model"). In a file of its own because `SyncOwnerModels` and `SyncBlogModels` both declare
/// `Models`.
func unregisteredNoteExpression() -> SyncExpression {
  SyncExpression(Note.self, where: Note.keys.content.eq("x"))
}
