import ModelGenIR

/// Where the AppSync authorization directives go for one model, derived from its model-level and
/// field-level `@auth` rules the way the Amplify GraphQL Transformer v2 auth transformer does
/// (`AuthTransformer.transformSchema`, `protectSchemaOperations`, `getServiceDirectives`).
///
/// Rules become access-control roles (``AuthRuleDefinition/roleNames``). A role may perform an
/// operation on a field when the field's own rules grant it (fields with field-level rules), or the
/// model-level rules do (other fields). The transformer then places one directive per provider
/// (`apiKey` -> `@aws_api_key`, `iam`/`identityPool` -> `@aws_iam`, `oidc` -> `@aws_oidc`,
/// `userPools` -> `@aws_cognito_user_pools`, `function` -> `@aws_lambda`, in that order):
/// - on the model type: every provider of every role;
/// - on each `Query`/`Mutation`/`Subscription` field: the providers of the roles that may perform its
///   operation on some field (`get`, `list`; index queries `list` then `get`; `create`, `update`,
///   `listen`), for `delete` on every field — the transformer's `protectDeleteResolver`: "only
///   roles with full delete on every field can delete", so when field rules leave no role with
///   `delete` on every field (`Memo` in `Schemas/auth-rules.graphql`) the delete field gets no
///   directive and its resolver refuses everyone; this is deliberate, as the transformer does;
/// - on the operation's return type when it is a connection type (`list` and index queries);
/// - on every non-model type a model field reaches, the union over the models that reach it.
///
/// modelgen has no API configuration, so no provider is the API's default authorization mode: the
/// transformer omits a directive only for the default mode, hence every provider gets its directive
/// here. Operations no role may perform get none (AppSync then applies the default mode).
struct APIAuth {
  /// Roles by name with their provider, in first-seen order.
  private var roles: [(name: String, provider: AuthRuleDefinition.Provider)] = []
  /// Per declared field: the rules that apply to it (field-level when it has them, else model-level).
  private var fieldRules: [[AuthRuleDefinition]] = []
  /// `true` when the model has model- or field-level rules.
  let isProtected: Bool

  /// The fields the access-control matrix covers (the transformer's `collectFieldNames`, run on
  /// the type as written, before the model transformer adds its fields): the declared fields, not
  /// an inserted `id`, the timestamps nor an inserted owner field. A `@manyToMany` join model,
  /// which the transformer writes itself with its `id`, keeps that `id`.
  static func resources(of model: ModelDefinition) -> [FieldDefinition] {
    model.authResources
  }

  /// The plan of `model`.
  init(model: ModelDefinition) {
    let fields = APIAuth.resources(of: model)
    let allRules = model.authRules + fields.flatMap(\.authRules)
    isProtected = !allRules.isEmpty
    for rule in allRules {
      for name in rule.roleNames where !roles.contains(where: { $0.name == name }) {
        roles.append((name, rule.effectiveProvider))
      }
    }
    fieldRules = fields.map { $0.authRules.isEmpty ? model.authRules : $0.authRules }
  }

  /// The directive names of `providers`, in the transformer's `AUTH_PROVIDER_DIRECTIVE_MAP` order,
  /// without duplicates (`iam` and `identityPool` share `@aws_iam`).
  static func directives(_ providers: some Sequence<AuthRuleDefinition.Provider>) -> [String] {
    AuthRuleDefinition.appSyncDirectives(providers)
  }

  /// The AppSync directive of a provider.
  static func directiveName(_ provider: AuthRuleDefinition.Provider) -> String {
    AuthRuleDefinition.appSyncDirectiveName(provider)
  }

  /// The directives of the model type: every provider of every role.
  var typeDirectives: [String] {
    APIAuth.directives(roles.map(\.provider))
  }

  /// The directives of a root field performing `operation` (`delete` needs it on every field).
  func operationDirectives(_ operation: AuthRuleDefinition.Operation) -> [String] {
    APIAuth.directives(roles(for: operation).map(\.provider))
  }

  /// The directives of an index query: those of `list`, then the ones `get` adds.
  var indexQueryDirectives: [String] {
    let list = operationDirectives(.list)
    return list + operationDirectives(.get).filter { !list.contains($0) }
  }

  /// The owner fields of the owner roles allowed to `listen`, which the transformer adds to each
  /// subscription field as `String` arguments (`addSubscriptionArguments`), unless the owner field
  /// of `model` is a list.
  func subscriptionOwnerArguments(of model: ModelDefinition) -> [String] {
    let listening = Set(roles(for: .listen).map(\.name))
    var names: [String] = []
    for rule in model.authRules + model.fields.flatMap(\.authRules) where rule.allow == .owner {
      let name = rule.effectiveOwnerField
      guard rule.roleNames.contains(where: listening.contains), !names.contains(name),
        model.field(named: name)?.type.isList != true
      else { continue }
      names.append(name)
    }
    return names
  }

  /// The fields the transformer removes from `ModelSubscription<X>FilterInput`
  /// (`removeAuthFieldsFromSubscriptionFilter`): the owner and `groupsField` fields of the dynamic
  /// (`userPools`/`oidc`) owner and group rules; AppSync filters on them itself.
  static func dynamicAuthFields(of model: ModelDefinition) -> Set<String> {
    var names: Set<String> = []
    for rule in model.authRules + model.fields.flatMap(\.authRules)
    where rule.effectiveProvider == .userPools || rule.effectiveProvider == .oidc {
      if rule.allow == .owner { names.insert(rule.effectiveOwnerField) }
      if rule.allow == .groups, let field = rule.groupsField { names.insert(field) }
    }
    return names
  }

  /// The roles that may perform `operation` on some field (on every field for `delete`,
  /// `AccessControlMatrix.getRolesPerOperation(operation, operation === 'delete')`).
  private func roles(for operation: AuthRuleDefinition.Operation) -> [(
    name: String, provider: AuthRuleDefinition.Provider
  )] {
    roles.filter { role in
      let allowed = fieldRules.map { rules in
        rules.contains {
          $0.roleNames.contains(role.name) && $0.grantedOperations.contains(operation)
        }
      }
      return operation == .delete ? !allowed.contains(false) : allowed.contains(true)
    }
  }
}
