import GraphQLSDL

/// Root field names of the API (Amplify GraphQL Transformer v2 naming, as ``ModelNames`` resolves
/// them for `--emit api-schema` and for `ModelSchema.operations`): every
/// `get`/`list` query, index query field, mutation and subscription must be unique within its
/// root type, or the API schema defines a field twice and the runtime would send one model's
/// operation for another (`type Person` and `type People` both list as `listPeople`). A clash is
/// MG030 at the model (or index) that repeats the name, with a note at the first one.
///
/// A field of the user's own `type Query`/`Mutation`/`Subscription` (``CustomRootRule``) whose name
/// a model's generated field takes is MG030 at the user's field, with a hint naming the
/// `@model(…)` argument that leaves the generated one out (the transformer refuses it:
/// `Object type extension 'Query' cannot redeclare field getOrder`). With a conflict-resolution
/// strategy (``AnalysisContext/conflictResolution``) the `sync<PluralName>` query of every model
/// with a `list` query is claimed too.
enum OperationNameRule {
  /// - Parameter models: `ModelRule.finish` of each of `context.orderedModels`, in that order.
  static func apply(_ context: AnalysisContext, models: [ModelDefinition]) {
    var claims = RootFieldClaims(context: context)
    // A model whose name equals an earlier one ignoring case is already MG032; its operation
    // names would only repeat that error.
    var modelNames: Set<String> = []
    for (working, model) in zip(context.orderedModels, models) {
      guard modelNames.insert(working.name.lowercased()).inserted else { continue }
      let names = ModelNames(model: model)
      claimQueries(of: model, names, working, in: &claims)
      claimMutationsAndSubscriptions(of: model, names.operations, at: working.nameRange, in: &claims)
    }
    reportUserRootFieldClashes(context, claims)
    checkSubscribedMutations(context, generatedMutations: claims.table("Mutation").mapValues(\.owner))
    checkQueryRoot(context, generatedQueries: claims.table("Query").isEmpty)
  }

  /// The generated root fields claimed so far, one table a root type (`Query`, `Mutation`,
  /// `Subscription`): name → the model (or index) that first claims it. A second claim is MG030.
  private struct RootFieldClaims {
    typealias Table = [String: (owner: String, range: SourceRange)]
    typealias Origin = (model: String, operation: String, disable: String)

    let context: AnalysisContext
    private var tables: [String: Table] = [:]
    /// What each generated root field is, for a clash with a user's root field: root/name →
    /// (model, operation in words, how to leave it out). Only read for the user's own root types:
    /// without one, it is not built (nor its texts).
    private(set) var generated: [String: Origin] = [:]
    private let recordsGenerated: Bool

    init(context: AnalysisContext) {
      self.context = context
      recordsGenerated = ["Query", "Mutation", "Subscription"].contains {
        context.types[$0]?.kind == .unsupported("root operation")
      }
    }

    func table(_ root: String) -> Table { tables[root] ?? [:] }

    /// Claims `name` (nothing when nil) in `root` for `owner`, or reports MG030 at `range` with a
    /// note at the first claim.
    mutating func claim(
      _ name: String?, owner: String, at range: SourceRange, in root: String, as origin: @autoclosure () -> Origin
    ) {
      guard let name else { return }
      if recordsGenerated {
        let key = "\(root).\(name)"
        if generated[key] == nil { generated[key] = origin() }
      }
      if let first = tables[root]?[name] {
        context.report(
          .duplicateQueryField(name: name), at: range,
          notes: [
            DiagnosticNote(
              message:
                "`\(DiagnosticText.shortened(name))` is first the root field of `\(DiagnosticText.shortened(first.owner))` here",
              range: first.range)
          ])
      } else {
        tables[root, default: [:]][name] = (owner, range)
      }
    }
  }

  /// The `get` and `list` queries of `model`, its `sync` query with a conflict-resolution strategy,
  /// and its index queries.
  private static func claimQueries(
    of model: ModelDefinition, _ names: ModelNames, _ working: WorkingModel, in claims: inout RootFieldClaims
  ) {
    let operations = names.operations
    claims.claim(
      operations.get, owner: model.name, at: working.nameRange, in: "Query",
      as: (model.name, "`get` query", "leave the generated one out with `@model(queries: {get: null})`"))
    claims.claim(
      operations.list, owner: model.name, at: working.nameRange, in: "Query",
      as: (model.name, "`list` query", "leave the generated one out with `@model(queries: {list: null})`"))
    if claims.context.conflictResolution != nil, operations.list != nil {
      // A versioned data source: `sync<PluralName>` beside `list` (APISchemaSync).
      claims.claim(
        APINames.syncQuery(model), owner: model.name, at: working.nameRange, in: "Query",
        as: (
          model.name, "`sync` query",
          "leave the generated one out with `@model(queries: {list: null})` (the sync query goes with the list query)"
        ))
    }
    for index in model.indexes {
      // A written `queryField:` is reported at that argument, a default name at the model.
      let written = working.declared.lazy
        .filter { $0.ast.name.value == index.fields.first }
        .flatMap { $0.ast.directives.filter { $0.name.value == "index" } }
        .first { index.queryField != nil && $0.string("queryField") == index.queryField }
      claims.claim(
        names.queryField(of: index), owner: "\(model.name) index \(index.name)",
        at: written?.range(of: "queryField") ?? working.nameRange, in: "Query",
        as: (
          model.name, "query of index `\(DiagnosticText.shortened(index.name))`", "give the index another `queryField:`"
        ))
    }
  }

  /// The `create`/`update`/`delete` mutations and `onCreate`/`onUpdate`/`onDelete` subscriptions
  /// of `model`, all reported at `range` (the model's name).
  private static func claimMutationsAndSubscriptions(
    of model: ModelDefinition, _ operations: APIOperations, at range: SourceRange,
    in claims: inout RootFieldClaims
  ) {
    for (name, key) in [(operations.create, "create"), (operations.update, "update"), (operations.delete, "delete")] {
      claims.claim(
        name, owner: model.name, at: range, in: "Mutation",
        as: (
          model.name, "`\(DiagnosticText.shortened(key))` mutation",
          "leave the generated one out with `@model(mutations: {\(key): null})`"
        ))
    }
    for (name, key) in [
      (operations.onCreate, "onCreate"), (operations.onUpdate, "onUpdate"), (operations.onDelete, "onDelete"),
    ] {
      claims.claim(
        name, owner: model.name, at: range, in: "Subscription",
        as: (
          model.name, "`\(DiagnosticText.shortened(key))` subscription",
          "rename the generated one with `@model(subscriptions: {\(key): [\"…\"]})` or leave them out with `@model(subscriptions: null)`"
        ))
    }
  }

  /// MG030 at each field of the user's own `Query`/`Mutation`/`Subscription` whose name a model's
  /// generated field takes, with a note at that model.
  private static func reportUserRootFieldClashes(_ context: AnalysisContext, _ claims: RootFieldClaims) {
    for root in ["Query", "Mutation", "Subscription"] {
      guard let entry = context.types[root], entry.kind == .unsupported("root operation") else { continue }
      let table = claims.table(root)
      var seen: Set<String> = []
      for field in entry.fields where seen.insert(field.name.value).inserted {
        guard let origin = claims.generated["\(root).\(field.name.value)"] else { continue }
        let notes =
          table[field.name.value].map {
            [DiagnosticNote(message: "generated for `\(DiagnosticText.shortened(origin.model))` here", range: $0.range)]
          } ?? []
        context.report(
          .customRootFieldClash(
            root: root, name: field.name.value, model: origin.model, operation: origin.operation,
            disable: origin.disable),
          at: field.name.range, notes: notes)
      }
    }
  }

  /// MG043 when the API schema would have no `Query` field: no model has a `get`, `list` or index
  /// query, and the user declares no `Query` field (the transformer's `TransformerOutput.buildSchema`
  /// then drops the empty `Query`, and graphql-core and AppSync refuse a schema without one).
  /// Reported at the first model's `queries:` argument, or at the user's `Mutation` or
  /// `Subscription` when there is no model; a schema with neither has no API schema at all.
  private static func checkQueryRoot(_ context: AnalysisContext, generatedQueries none: Bool) {
    guard none else { return }
    func rootFields(_ name: String) -> [GraphQLSDL.FieldDefinition]? {
      guard let entry = context.types[name], entry.kind == .unsupported("root operation") else { return nil }
      return entry.fields
    }
    if rootFields("Query")?.isEmpty == false { return }
    if let model = context.orderedModels.first {
      let directive = model.directives.first { $0.name.value == "model" }
      context.report(
        .missingQueryRoot(owner: model.name, isModel: true),
        at: directive.map { $0.argument(named: "queries") != nil ? $0.range(of: "queries") : $0.range }
          ?? model.nameRange)
      return
    }
    for root in ["Mutation", "Subscription"] where rootFields(root)?.isEmpty == false {
      guard let entry = context.types[root] else { continue }
      context.report(.missingQueryRoot(owner: root, isModel: false), at: entry.nameRange)
      return
    }
  }

  /// MG038: every `@aws_subscribe(mutations:)` on a field of the user's `Subscription` names
  /// fields of the merged `Mutation` type (the user's and the generated ones), at least one
  /// (AppSync declares the argument `[String!]!`; a single string is a list of one, GraphQL spec
  /// §3.11, input coercion of lists). MG044: a subscription's result type (its named type and full
  /// list shape, `[[Post]]` is not `[Post]`; nullability aside) is each subscribed mutation's: AppSync pushes the mutation's
  /// selection to the subscribers ("the return type of a subscription field must match the return
  /// type of the corresponding mutation field"); a generated `create<Model>` returns `<Model>`.
  /// MG016: `@aws_subscribe` on a field of any other type (a `Query` or `Mutation` field, a model's),
  /// where AppSync never triggers it.
  private static func checkSubscribedMutations(_ context: AnalysisContext, generatedMutations: [String: String]) {
    for name in context.typeOrder
    where name != "Subscription" || context.types[name]?.kind != .unsupported("root operation") {
      for field in context.types[name]?.fields ?? [] {
        for directive in field.directives where directive.name.value == "aws_subscribe" {
          context.report(
            .misplacedDirective(
              directive: "aws_subscribe",
              placement: "is only allowed on fields of `Subscription`, where "
                + "`\(DiagnosticText.shortened(name)).\(DiagnosticText.shortened(field.name.value))` is not"),
            at: directive.range)
        }
      }
    }
    guard let subscription = context.types["Subscription"], subscription.kind == .unsupported("root operation")
    else { return }
    // Each mutation's result: its named type, list depth (`[[Post]]` is 2; nullability aside)
    // and the type as written, for the message.
    var results: [String: (type: String, depth: Int, written: String)] = generatedMutations.mapValues {
      ($0, 0, $0)
    }
    if let mutation = context.types["Mutation"], mutation.kind == .unsupported("root operation") {
      for field in mutation.fields where results[field.name.value] == nil {
        results[field.name.value] = (field.type.namedType.value, listDepth(field.type), field.type.description)
      }
    }
    let mutationNames = Set(results.keys)
    for field in subscription.fields {
      for directive in field.directives where directive.name.value == "aws_subscribe" {
        guard let names = directive.strings("mutations"), !names.isEmpty else {
          context.report(
            .invalidSubscribeMutations(field: field.name.value, mutation: nil, suggestion: nil),
            at: directive.range(of: "mutations"))
          continue
        }
        let own = (type: field.type.namedType.value, depth: listDepth(field.type))
        for (offset, name) in names.enumerated() {
          guard let result = results[name] else {
            context.report(
              .invalidSubscribeMutations(
                field: field.name.value, mutation: name,
                suggestion: Naming.suggestion(for: name, among: mutationNames.sorted())),
              at: directive.range(of: "mutations", element: offset))
            continue
          }
          guard result.type != own.type || result.depth != own.depth else { continue }
          context.report(
            .subscriptionTypeMismatch(
              field: field.name.value, type: field.type.description, mutation: name,
              mutationType: result.written),
            at: directive.range(of: "mutations", element: offset))
        }
      }
    }
  }

  /// How many lists `type` nests, nullability aside: 0 for `Post!`, 1 for `[Post]!`, 2 for
  /// `[[Post!]]`.
  private static func listDepth(_ type: TypeReference) -> Int {
    var depth = 0
    var element = type.listElement
    while let inner = element {
      depth += 1
      element = inner.listElement
    }
    return depth
  }
}
