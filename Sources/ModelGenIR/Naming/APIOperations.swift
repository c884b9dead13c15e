/// The root fields the transformer generates for one model, after `@model(queries:, mutations:,
/// subscriptions:)`: a `nil` name means the operation is disabled.
///
/// Amplify GraphQL Transformer v2 merges the written argument over the defaults: `queries: null`
/// disables every query, `queries: {get: "fetchPost"}` renames `get` and keeps `list`, and
/// `{list: null}` disables `list`. Mutations work the same way. `subscriptions: null` or
/// `{level: off}` disables subscriptions; `{onCreate: ["name"]}` renames. A subscription exists only
/// while its mutation does.
package struct APIOperations: Sendable {
  package var get: String?
  package var list: String?
  package var create: String?
  package var update: String?
  package var delete: String?
  package var onCreate: String?
  package var onUpdate: String?
  package var onDelete: String?

  package init(model: ModelDefinition) {
    let queries = APIOperations.names(
      model.operations.queries,
      defaults: [
        ("get", APINames.getQuery(model)), ("list", APINames.listQuery(model)),
      ])
    get = queries["get"] ?? nil
    list = queries["list"] ?? nil
    let mutations = APIOperations.names(
      model.operations.mutations,
      defaults: ["create", "update", "delete"].map { ($0, APINames.mutation($0, model)) })
    create = mutations["create"] ?? nil
    update = mutations["update"] ?? nil
    delete = mutations["delete"] ?? nil
    let subscriptions = APIOperations.names(
      model.operations.subscriptions,
      defaults: ["create", "update", "delete"].map {
        ("on" + Naming.uppercasingFirst($0), APINames.subscription($0, model))
      })
    onCreate = create == nil ? nil : subscriptions["onCreate"] ?? nil
    onUpdate = update == nil ? nil : subscriptions["onUpdate"] ?? nil
    onDelete = delete == nil ? nil : subscriptions["onDelete"] ?? nil
  }

  /// The written value merged over the defaults: key → name, or `nil` when disabled.
  private static func names(_ written: WrittenValue?, defaults: [(String, String)]) -> [String:
    String?]
  {
    var result: [String: String?] = [:]
    for (key, name) in defaults {
      result[key] = .some(name)
    }
    guard let written else { return result }
    switch written {
    case .null:
      return result.mapValues { _ in nil }
    case .object(let fields):
      for field in fields {
        if field.name == "level", case .enumValue("off") = field.value {
          return result.mapValues { _ in nil }
        }
        guard result.keys.contains(field.name) else { continue }
        switch field.value {
        case .null: result[field.name] = .some(nil)
        case .string(let name): result[field.name] = .some(name)
        case .list(let names):
          if case .string(let first)? = names.first {
            result[field.name] = .some(first)
          } else {
            result[field.name] = .some(nil)
          }
        default: continue
        }
      }
      return result
    default:
      return result
    }
  }
}
