import GraphQLSDL

/// Names that differ only in letter case are one name to SQLite (table and column names are
/// case-insensitive) and, once the transformer capitalises the first letter for operation and input
/// names, to the API schema (`post` and `Post` both imply `CreatePostInput`).
///
/// - Types (MG032): every type of the document (models, non-model types, enums, interfaces, unions,
///   inputs, scalars) and every join model claims its own name and the names the API schema
///   prints for it, and only those (a name nothing prints stays free for the user's own type, as
///   the transformer's `if (!ctx.output.getType(name))` checks keep it): for a model
///   `Create`/`Update`/`Delete<Model>Input`, `Model<Model>ConditionInput` and
///   `ModelSubscription<Model>FilterInput` as its `@model` arguments enable the operations that
///   print them, `Model<Model>Connection` and `Model<Model>FilterInput` when its `list` query, an
///   `@index` or another model's `@hasMany` prints them;
///   and, for the primary key and each index with several sort key fields,
///   `Model<Model><Key>CompositeKeyConditionInput` and `Model<Model><Key>CompositeKeyInput` (every
///   name ``APINames/generatedTypeNames(of:isHasManyTarget:)`` gives, the source `APISchemaEmitter`
///   prints from); for a non-model type that a model reaches `<Type>Input`; for an enum a model's
///   filter-shaped inputs name `Model<Enum>Input` or `Model<Enum>ListInput`.
///   The shared API types (`ModelStringInput`, `ModelSortDirection`, ...) are claimed first, and
///   with them each `Model<Scalar>KeyConditionInput` some model prints (a key with one sort key
///   field, ``APINames/printedKeyConditionInputs(of:)``): shared, so two models with an `Int`
///   sort key do not collide, but claimed only when printed. Two claims equal ignoring letter case are
///   reported once per type, at the later type's name, with a note at the earlier; a type whose own
///   name an earlier type's generated name takes is reported at the earlier type instead (the user's
///   `input ModelOrderFilterInput` before `type Order @model` is the one to rename).
/// - Fields (MG033): two fields of one model or non-model type (declared, or implicit: `id`, foreign
///   keys, timestamps) whose names are equal ignoring case but not exactly (exact repeats are MG005
///   and MG025), reported at the later declared field.
enum NameCollisionRule {
  /// - Parameter models: `ModelRule.finish` of each of `context.orderedModels`, in that order.
  static func apply(_ context: AnalysisContext, models: [ModelDefinition]) {
    checkTypes(context, models: models)
    checkFields(context)
  }

  /// Which derived names the API schema prints beyond a model's own (``APINames``): the models a
  /// `@hasMany` returns, the non-model types a model reaches (their `<Type>Input`, model
  /// transformer `createNonModelInputs`), and the enums a printed filter-shaped input names.
  struct Printed {
    var hasManyTargets: Set<String> = []
    var nonModelInputs: Set<String> = []
    var enumFilters: Set<String> = []
    var enumListFilters: Set<String> = []

    /// - Parameter models: the finished models in document order (`ModelRule.finish` of
    ///   `context.orderedModels`).
    init(_ context: AnalysisContext, models: [ModelDefinition]) {
      for model in models {
        for field in model.fields {
          if case .hasMany(let association)? = field.association { hasManyTargets.insert(association.relatedModel) }
        }
      }
      var pending: [String] = []
      for model in models {
        // Whether the model prints filter-shaped inputs: asked once per model, at its first enum field.
        var printsFilterInputs: Bool?
        for field in model.fields where field.association == nil {
          switch field.type.elementType {
          case .embedded(let name): pending.append(name)
          case .enumeration(let name):
            let prints =
              printsFilterInputs
              ?? APINames.printsFilterInputs(of: model, isHasManyTarget: hasManyTargets.contains(model.name))
            printsFilterInputs = prints
            guard prints else { break }
            if field.type.isList { enumListFilters.insert(name) } else { enumFilters.insert(name) }
          default: break
          }
        }
      }
      while let name = pending.popLast() {
        guard nonModelInputs.insert(name).inserted, let entry = context.types[name], entry.kind == .nonModel
        else { continue }
        for field in entry.fields where context.types[field.type.namedType.value]?.kind == .nonModel {
          pending.append(field.type.namedType.value)
        }
      }
    }
  }

  /// The names a type of `kind` named `name` occupies in the API schema, its own name first; for a
  /// model, `model` (the model being built) gives the names its keys and indexes derive
  /// (``APINames/generatedTypeNames(of:isHasManyTarget:)``, the name source of `APISchemaEmitter`);
  /// `printed` says which derived names are printed at all.
  static func claims(of name: String, kind: TypeKind, model: ModelDefinition?, printed: Printed) -> [String] {
    switch kind {
    case .model:
      guard let model else { return [name] }
      return [name] + APINames.generatedTypeNames(of: model, isHasManyTarget: printed.hasManyTargets.contains(name))
    case .nonModel:
      return printed.nonModelInputs.contains(name) ? [name, APINames.nonModelInput(name)] : [name]
    case .enumeration:
      return [name] + (printed.enumFilters.contains(name) ? [APINames.enumFilterInput(name)] : [])
        + (printed.enumListFilters.contains(name) ? [APINames.enumListFilterInput(name)] : [])
    case .scalar, .unsupported:
      return [name]
    }
  }

  /// The type names every API schema defines, whatever the models (``APINames/sharedTypeNames``).
  static var sharedAPITypeNames: [String] { APINames.sharedTypeNames }

  private static func checkTypes(_ context: AnalysisContext, models: [ModelDefinition]) {
    var owners: [(name: String, kind: TypeKind, range: SourceRange)] = context.typeOrder.compactMap { name in
      context.types[name].map { ($0.name, $0.kind, $0.nameRange) }
    }
    for model in context.orderedModels where context.types[model.name] == nil {
      owners.append((model.name, .model, model.nameRange))  // join models
    }
    var taken: [String: (claim: String, owner: String?, range: SourceRange?)] = [:]
    var finished: [String: ModelDefinition] = [:]
    for model in models where finished[model.name] == nil { finished[model.name] = model }
    let keyConditionInputs = models.flatMap(APINames.printedKeyConditionInputs)
    for name in sharedAPITypeNames + keyConditionInputs {
      taken[name.lowercased()] = (name, nil, nil)
    }
    let printed = Printed(context, models: models)
    for owner in owners {
      let model =
        owner.kind == .model ? finished[owner.name] ?? context.models[owner.name].map(ModelRule.finish) : nil
      let ownClaims = claims(of: owner.name, kind: owner.kind, model: model, printed: printed)
      for claim in ownClaims {
        guard let earlier = taken[claim.lowercased()] else { continue }
        if claim != owner.name, let earlierOwner = earlier.owner, earlier.claim == earlierOwner,
          let earlierRange = earlier.range
        {
          // An earlier type takes a name this one generates (`input ModelOrderFilterInput` before
          // `type Order @model`): reported at that type, which is the one to rename.
          context.report(
            .typeNameCollision(name: earlierOwner, claim: earlierOwner, otherName: owner.name, otherClaim: claim),
            at: earlierRange,
            notes: [
              DiagnosticNote(message: "`\(DiagnosticText.shortened(owner.name))` is defined here", range: owner.range)
            ])
        } else {
          context.report(
            .typeNameCollision(name: owner.name, claim: claim, otherName: earlier.owner, otherClaim: earlier.claim),
            at: owner.range,
            notes: earlier.range.map {
              [DiagnosticNote(message: "`\(DiagnosticText.shortened(earlier.owner ?? ""))` is defined here", range: $0)]
            } ?? [])
        }
        break
      }
      for claim in ownClaims where taken[claim.lowercased()] == nil {
        taken[claim.lowercased()] = (claim, owner.name, owner.range)
      }
    }
  }

  private static func checkFields(_ context: AnalysisContext) {
    for model in context.orderedModels {
      let names = (model.fields + model.implicitFields + model.timestampFields).map(\.name)
      let declared = Dictionary(
        model.declared.map { ($0.ast.name.value, $0.ast.name.range) }, uniquingKeysWith: { first, _ in first })
      report(names: names, declared: declared, owner: model.name, context)
    }
    for name in context.typeOrder {
      guard let entry = context.types[name], entry.kind == .nonModel else { continue }
      let declared = Dictionary(
        entry.fields.map { ($0.name.value, $0.name.range) }, uniquingKeysWith: { first, _ in first })
      var seen: Set<String> = []
      report(
        names: entry.fields.map(\.name.value).filter { seen.insert($0).inserted }, declared: declared, owner: name,
        context)
    }
  }

  /// Reports each name of `names` equal ignoring case to an earlier one; `declared` holds the ranges
  /// of the declared names (the others are implicit).
  private static func report(
    names: [String], declared: [String: SourceRange], owner: String, _ context: AnalysisContext
  ) {
    var first: [String: String] = [:]
    for name in names {
      let key = name.lowercased()
      guard let earlier = first[key] else {
        first[key] = name
        continue
      }
      guard earlier != name else { continue }
      if let range = declared[name] {
        let notes =
          declared[earlier].map {
            [DiagnosticNote(message: "`\(DiagnosticText.shortened(earlier))` is defined here", range: $0)]
          } ?? []
        context.report(
          .fieldNameCollision(owner: owner, field: name, otherField: earlier, isImplicit: declared[earlier] == nil),
          at: range, notes: notes)
      } else if let range = declared[earlier] {
        context.report(.fieldNameCollision(owner: owner, field: earlier, otherField: name, isImplicit: true), at: range)
      }
    }
  }
}
