/// `@model(subscriptions: {level: off | public | on})`: the Amplify GraphQL Transformer v2's
/// `SubscriptionLevel`, shared by the generator's IR and the runtime's `ModelSchema`.
///
/// - `on` (the default, also when `subscriptions:` renames the subscriptions without `level:`):
///   subscriptions exist and the auth transformer protects them; every protected field (one some
///   read role of the model may not read) is `null` in every mutation response, and so in every
///   subscription event (the transformer's `generateFieldAuthResponse` for a `Mutation` source,
///   `subsEnabled = level === 'on'` in `protectFieldResolver`).
/// - `public`: subscriptions exist without auth checks; mutation responses carry every field.
/// - `off` (also `subscriptions: null`): no subscriptions; mutation responses carry every field.
///
/// Thread-safety: a `Sendable` value.
public enum SubscriptionLevel: String, Sendable, Hashable, CaseIterable {
  /// No subscriptions (`{level: off}` or `subscriptions: null`).
  case off
  /// Subscriptions without authorization checks (`{level: public}`).
  case `public`
  /// Protected subscriptions (the default).
  case on
}

extension AuthRule {
  /// The protected fields of a model: the fields some read role of the model may not read, for
  /// which the auth transformer adds a field resolver (`needsFieldResolver` in its
  /// `generateResolvers`, with `getReadRolesForField`), in `fields` order.
  ///
  /// The read roles are the roles that may `get` some field (the transformer's
  /// `new Set(...READ_MODEL_OPERATIONS.map(getRolesPerOperation))` keeps get's only); a field's
  /// own rules replace the model's for it; a user-pool (or OIDC) `private` role that may perform
  /// every read operation on the field stands for the other roles of its provider. Empty when no
  /// field has rules of its own.
  ///
  /// - Parameters:
  ///   - modelRules: The model-level rules.
  ///   - fields: The fields of the access-control matrix that get no relational resolver (not
  ///     associations; not the timestamps nor an implicit owner), each with its own rules (empty:
  ///     the model's apply).
  /// - Returns: The names of the protected fields, in `fields` order.
  public static func protectedFields(modelRules: [AuthRule], fields: [(name: String, rules: [AuthRule])]) -> [String] {
    guard fields.contains(where: { !$0.rules.isEmpty }) else { return [] }
    let reads: Set<Operation> = [.get, .list, .sync, .listen, .search]
    func roles(_ rules: [AuthRule], granting operations: Set<Operation>) -> Set<String> {
      Set(rules.filter { !$0.grantedOperations.isDisjoint(with: operations) }.flatMap(\.roleNames))
    }
    let ruleSets = fields.map { $0.rules.isEmpty ? modelRules : $0.rules }
    let readRoles = ruleSets.reduce(into: Set<String>()) { $0.formUnion(roles($1, granting: [.get])) }
    var protected: [String] = []
    for (field, fieldRules) in zip(fields, ruleSets) {
      var expected = readRoles
      for provider in ["userPools", "oidc"] {
        let privateRole = "\(provider):private"
        let fullReader = reads.allSatisfy { roles(fieldRules, granting: [$0]).contains(privateRole) }
        if expected.contains(privateRole), fullReader {
          expected = expected.filter { !$0.hasPrefix("\(provider):") || $0 == privateRole }
        }
      }
      if !expected.isSubset(of: roles(fieldRules, granting: reads)) { protected.append(field.name) }
    }
    return protected
  }
}
