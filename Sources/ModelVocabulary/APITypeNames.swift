/// The names the Amplify GraphQL Transformer v2 gives the per-model types of an AppSync API: one
/// naming function that both the generator (`schema.api.graphql`) and the runtime's documents
/// (`LazyModelAPI`) call, so a document can never name a type the schema spells differently.
///
/// Rules (transformer-core `getConnectionName`/`getFilterInputName`/`getConditionInputName`/
/// `getSubscriptionFilterInputName`, all `toPascalCase`; `ModelResourceIDs.Model…InputObjectName`,
/// `toUpper`): the model name's first character is upper-cased (`type modelType @model` →
/// `ModelModelTypeConnection`, `CreateModelTypeInput`); the rest is kept as written. The composite
/// key inputs (`ModelResourceIDs.ModelCompositeKeyConditionInputTypeName`) keep the model name as
/// written and are not here. Thread-safety: pure functions.
public enum APITypeNames {
  /// `Model<Model>Connection` (`ModelModelTypeConnection` for `modelType`).
  public static func connection(_ model: String) -> String { "Model" + upperFirst(model) + "Connection" }
  /// `Model<Model>FilterInput`: the `filter` of list and index queries and of hasMany fields.
  public static func filterInput(_ model: String) -> String { "Model" + upperFirst(model) + "FilterInput" }
  /// `Model<Model>ConditionInput`: the `condition` of the mutations.
  public static func conditionInput(_ model: String) -> String {
    "Model" + upperFirst(model) + "ConditionInput"
  }
  /// `ModelSubscription<Model>FilterInput`: the `filter` of the subscriptions.
  public static func subscriptionFilterInput(_ model: String) -> String {
    "ModelSubscription" + upperFirst(model) + "FilterInput"
  }
  /// `Create<Model>Input`, `Update<Model>Input`, `Delete<Model>Input` for `verb` `create`/`update`/`delete`
  /// (either case).
  public static func mutationInput(_ verb: String, _ model: String) -> String {
    upperFirst(verb) + upperFirst(model) + "Input"
  }

  /// `title` → `Title` (the first character upper-cased, as the transformer's `toUpper`).
  public static func upperFirst(_ word: String) -> String {
    word.prefix(1).uppercased() + word.dropFirst()
  }
}
