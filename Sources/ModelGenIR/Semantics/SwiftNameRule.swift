import GraphQLSDL

/// Reports what the safe-name pass (``SwiftTypeNaming``) decides about the Swift type names of
/// the schema, at each type's name:
/// - MGW001 (warning): a type renamed because its name would shadow a standard library,
///   Foundation, Concurrency or LazyModel type (or the `Models` registry) in the app's module.
/// - MG035 (error): two output file names (`<SwiftName>.swift`, `<SwiftName>+Schema.swift`,
///   `Models.swift`) that differ only in letter case or Unicode normalization
///   (``SwiftNames/fileSystemKey(_:)``: `Straße`/`STRASSE`, `Café`/`Cafe\u{301}`, which APFS and
///   HFS+ store as one file); reported at the later type in the document, with a note at the
///   earlier.
/// - MG040 (error): a type whose Swift name is longer than ``SwiftNames/maximumTypeNameLength``
///   UTF-8 bytes, so the build's `<SwiftName>+Schema.swiftdeps` (SwiftPM's longest file for
///   `<SwiftName>+Schema.swift`) would not fit a 255-byte file name.
///
/// - MGW002 (warning): a declared field whose Swift property gets the suffix `Value` (`self`,
///   `identifier`, `modelIdentifier`, `modelName`, and `description`, `debugDescription`,
///   `hashValue`, which a protocol of every model requires), or a numeric suffix because another
///   field of the type has the same Swift property (`Name` and `name` → `name`, `name2`; the pass
///   of ``SwiftMemberNames`` that renders them), and an enum value whose Swift case gets a suffix
///   (`Type` → `TypeValue`, or `inProgress2` beside `inProgress`), at the member's name.
///
///   The same for an association whose `ModelPath` member cannot keep the property's name
///   (``SwiftNames/pathMemberNames``: `fieldNames`, `stringValue`, `intValue`, … → `Post.path.fieldNamesValue`),
///   and for every member a model derives from a field that gets a numeric suffix
///   (``SwiftModelMemberNames``: a `@belongsTo`/`@hasOne` field's setter `setPost2`, accessor
///   `postReference2`, storage `_post2` or by-identifier label `postIdentifier2` beside a field of
///   that name, and a key field `components`, whose `Identifier` member is `componentsValue`).
///
/// - MGW003 (warning): an `@index` whose typed key (`Model.indexes.<name>`) or composite sort key
///   struct cannot be named after the index (``SwiftIndexKeyNames``: `ByOwner` is `byOwner2`
///   beside an index `byOwner`, a struct `ByGradeSortKey2` beside a type `ByGradeSortKey`), at the
///   index's `name:`.
///
/// Runs after every other rule, over the graph's final set of types (join models included).
enum SwiftNameRule {
  /// - Parameter models: `ModelRule.finish` of each of `context.orderedModels`, in that order.
  /// - Returns: the Swift member names of every model and non-model type, by GraphQL type name,
  ///   as checked here, for the graph (``ModelGraph/memberNames``).
  static func apply(
    _ context: AnalysisContext, models: [ModelDefinition], nonModels: [NonModelDefinition]
  ) -> [String: ResolvedMemberNames] {
    var memberNames = reportMembers(context, models: models, nonModels: nonModels)
    var ranges: [String: SourceRange] = [:]
    for model in context.orderedModels { ranges[model.name] = model.nameRange }
    for name in context.typeOrder {
      if let entry = context.types[name], entry.kind == .enumeration { ranges[name] = entry.nameRange }
    }
    for definition in nonModels {
      if let entry = context.types[definition.name] { ranges[definition.name] = entry.nameRange }
    }
    let resolution = SwiftTypeNaming.resolve(Array(ranges.keys), overrides: context.swiftNames)
    let typeNames = Set(resolution.names.values)
    for (model, finished) in zip(context.orderedModels, models) {
      let indexKeys = SwiftIndexKeyNames(indexes: SwiftIndexKeyNames.typedIndexes(of: finished), typeNames: typeNames)
      memberNames[model.name]?.indexKeys = indexKeys
      reportIndexKeys(context, indexKeys, of: model, resolution: resolution)
    }
    for rename in resolution.renames {
      guard let range = ranges[rename.graphQLName] else { continue }
      context.report(
        .renamedSwiftType(
          name: rename.graphQLName, wanted: rename.wantedName, swiftName: rename.swiftName,
          source: rename.shadowedSource),
        at: range)
    }
    // Document order: the later of two colliding types is reported.
    let ordered = ranges.sorted { ($0.value.start.offset, $0.key) < ($1.value.start.offset, $1.key) }
    var byFoldedStem: [String: String] = [
      SwiftNames.fileSystemKey(SwiftTypeNaming.registryName): SwiftTypeNaming.registryName
    ]
    for (name, range) in ordered {
      guard let stem = resolution.names[name] else { continue }
      if stem.utf8.count > SwiftNames.maximumTypeNameLength {
        context.report(.fileNameTooLong(name: name, swiftName: stem, bytes: stem.utf8.count), at: range)
        continue
      }
      let folded = SwiftNames.fileSystemKey(stem)
      if let other = byFoldedStem[folded] {
        let otherStem = resolution.names[other] ?? other
        let notes =
          ranges[other].map {
            [DiagnosticNote(message: "`\(DiagnosticText.shortened(other))` is defined here", range: $0)]
          } ?? []
        context.report(
          .caseCollidingFileNames(name: name, file: stem + ".swift", otherName: other, otherFile: otherStem + ".swift"),
          at: range, notes: notes)
      } else {
        byFoldedStem[folded] = name
      }
    }
    return memberNames
  }

  /// MGW002 for the fields of models and non-model types and for enum values; returns the
  /// member names of the models and non-model types it checked.
  private static func reportMembers(
    _ context: AnalysisContext, models: [ModelDefinition], nonModels: [NonModelDefinition]
  ) -> [String: ResolvedMemberNames] {
    // A field already in error (MG033: `Name` beside `name`) gets no rename warning on top.
    let erroneous = Set(context.diagnostics.filter { $0.severity == .error }.map(\.range.start.offset))
    // One owner at a time (the models, then the non-model types), so only one owner's stored
    // fields exist at once beside the finished models.
    var resolved: [String: ResolvedMemberNames] = [:]
    resolved.reserveCapacity(models.count + nonModels.count)
    for (model, finished) in zip(context.orderedModels, models) {
      let names = ResolvedMemberNames(model: finished)
      let owner = MemberOwner(
        name: model.name, stored: finished.swiftMemberFields, names: names, declared: model.declared.map(\.ast))
      reportRenamedMembers(context, of: owner, erroneous: erroneous)
      resolved[model.name] = names
    }
    for definition in nonModels {
      let names = ResolvedMemberNames(nonModel: definition)
      if let entry = context.types[definition.name] {
        let owner = MemberOwner(name: definition.name, stored: definition.fields, names: names, declared: entry.fields)
        reportRenamedMembers(context, of: owner, erroneous: erroneous)
      }
      resolved[definition.name] = names
    }
    reportEnumValues(context)
    return resolved
  }

  /// A generated type whose members are checked: the fields it stores, as the Swift stage
  /// resolves their names (`SwiftMemberNames`), with the declared ones' positions.
  private struct MemberOwner {
    /// The model's or non-model type's GraphQL name.
    var name: String
    var stored: [FieldDefinition]
    var names: ResolvedMemberNames
    var declared: [GraphQLSDL.FieldDefinition]
    var members: SwiftMemberNames { names.members }
  }

  /// MGW002 for each stored field of `owner` (and each member derived from one) whose Swift name
  /// is not the one wanted; none for a field whose offset is in `erroneous`.
  private static func reportRenamedMembers(_ context: AnalysisContext, of owner: MemberOwner, erroneous: Set<Int>) {
    let members = owner.members
    if let derived = owner.names.derived {
      reportDerivedMembers(context, of: owner, derived: derived, erroneous: erroneous)
    }
    let storedNames = Set(owner.stored.map(\.name))
    var seen: Set<String> = []
    for field in owner.declared
    where seen.insert(field.name.value).inserted && storedNames.contains(field.name.value) {
      let name = field.name.value
      guard !erroneous.contains(field.name.range.start.offset) else { continue }
      let wanted = SwiftNames.lowerFirst(name)
      let swiftName = members.propertyName(name)
      guard swiftName != wanted else {
        reportRenamedKeyAndPath(context, of: field, in: owner)
        continue
      }
      let reason = renameReason(of: name, wanted: wanted, swiftName: swiftName, in: owner)
      context.report(
        .renamedSwiftMember(owner: owner.name, member: name, wanted: wanted, swiftName: swiftName, reason: reason),
        at: field.name.range)
    }
  }

  /// For a field whose property keeps its name: MGW002 when its coding key (and typed key), or
  /// its `ModelPath` member, cannot (`Post.path.fieldNames` would be ambiguous).
  private static func reportRenamedKeyAndPath(
    _ context: AnalysisContext, of field: GraphQLSDL.FieldDefinition, in owner: MemberOwner
  ) {
    let name = field.name.value
    let members = owner.members
    let swiftName = members.propertyName(name)
    let key = members.codingKeyCase(name)
    if key != swiftName, let source = SwiftNames.protocolCaseNames[swiftName] {
      context.report(
        .renamedSwiftMember(
          owner: owner.name, member: name, wanted: swiftName, swiftName: "keys.\(key)",
          reason:
            "is `\(source).\(swiftName)`, which every model's `CodingKeys` has (the property keeps its name)"
            + (key == swiftName + "Value" ? "" : ", and `\(swiftName)Value` is the coding key of another field")),
        at: field.name.range)
    }
    if let pathMember = members.pathMember(name), pathMember != swiftName, context.models[owner.name] != nil,
      let source = SwiftNames.pathMemberNames[swiftName]
    {
      context.report(
        .renamedSwiftMember(
          owner: owner.name, member: name, wanted: swiftName, swiftName: "path.\(pathMember)",
          reason:
            "is `\(source).\(swiftName)`, which every `ModelPath` has (the property keeps its name)"
            + (pathMember == swiftName + "Value"
              ? "" : ", and `\(swiftName)Value` is the path member of another association")),
        at: field.name.range)
    }
  }

  /// Why field `name` of `owner` is `swiftName` in Swift and not `wanted`: a name Swift or the
  /// generated protocols take, and/or the suffixed name another field's property has.
  private static func renameReason(
    of name: String, wanted: String, swiftName: String, in owner: MemberOwner
  ) -> String {
    let members = owner.members
    let suffixed = SwiftNames.propertyName(name)
    var reasons: [String] = []
    if suffixed != wanted {
      reasons.append(
        SwiftNames.unusableProperties.contains(wanted)
          ? "cannot name a stored property in Swift"
          : SwiftNames.protocolMemberNames[wanted].map {
            "is `\($0).\(wanted)`, which every generated model implements (a stored property would replace it)"
          } ?? "is a member every generated type declares")
    }
    if swiftName != suffixed {
      let other = owner.stored.first { $0.name != name && members.propertyName($0.name) == suffixed }?.name ?? suffixed
      let subject = suffixed == wanted ? "" : "`\(DiagnosticText.shortened(suffixed))` "
      reasons.append("\(subject)is the Swift property of field `\(DiagnosticText.shortened(other))`")
    }
    return reasons.joined(separator: ", and ")
  }

  /// MGW003 for each typed index key or sort key struct of `model` that cannot have its wanted
  /// name, at the `@index`'s `name:` (at the directive when the name is the transformer's
  /// default, at the model's name for an index `@manyToMany` made).
  private static func reportIndexKeys(
    _ context: AnalysisContext, _ names: SwiftIndexKeyNames, of model: WorkingModel,
    resolution: SwiftTypeNaming.Resolution
  ) {
    guard !names.renames.isEmpty else { return }
    var ranges: [String: SourceRange] = [:]
    for declared in model.declared {
      for directive in declared.ast.directives where directive.name.value == "index" {
        let name =
          directive.string("name")
          ?? IndexRule.defaultName(
            model: model.name,
            fields: [declared.ast.name.value]
              + (directive.argument(named: "sortKeyFields")?.value.listValues?.compactMap(\.stringValue) ?? []))
        if ranges[name] == nil { ranges[name] = directive.range(of: "name") }
      }
    }
    for rename in names.renames {
      let reason: String
      if rename.isSortKeyStruct {
        let owner =
          names.sortKeyTypeNames.first { $0.key != rename.index && $0.value == rename.wanted }
          .map { "the sort key of index `\(DiagnosticText.shortened($0.key))`" }
          ?? resolution.names.first { $0.value == rename.wanted }.map { "type `\(DiagnosticText.shortened($0.key))`" }
          ?? "a type of the schema"
        reason = "`\(rename.wanted)` is the Swift name of \(owner)"
      } else {
        let other = names.memberNames.first { $0.key != rename.index && $0.value == rename.wanted }?.key
        reason =
          "`\(rename.wanted)` is the typed key of index `\(DiagnosticText.shortened(other ?? rename.wanted))`"
      }
      let typeName = resolution.names[model.name] ?? model.name
      let swiftName = "\(typeName).\(rename.isSortKeyStruct ? "Indexes" : "indexes").\(rename.swiftName)"
      context.report(
        .renamedIndexKey(
          model: model.name, index: rename.index, isSortKey: rename.isSortKeyStruct, swiftName: swiftName,
          reason: reason),
        at: ranges[rename.index] ?? model.nameRange)
    }
  }

  /// MGW002 for each enum value whose Swift case cannot have its wanted name.
  private static func reportEnumValues(_ context: AnalysisContext) {
    for name in context.typeOrder {
      guard let entry = context.types[name], entry.kind == .enumeration else { continue }
      var seen: Set<String> = []
      let values = entry.enumValues.filter { seen.insert($0.name.value).inserted }
      let names = SwiftNames.caseNames(values.map(\.name.value))
      for (value, swiftName) in zip(values, names) {
        let wanted = SwiftNames.casedName(value.name.value)
        guard swiftName != wanted else { continue }
        let reason =
          SwiftNames.unusableCases.contains(wanted)
          ? "cannot name an enum case in Swift"
          : SwiftNames.protocolCaseNames[wanted].map { "is `\($0).\(wanted)`, which every generated enum has" }
            ?? "is the Swift case of another value of `\(DiagnosticText.shortened(name))` too"
        context.report(
          .renamedSwiftMember(
            owner: name, member: value.name.value, wanted: wanted, swiftName: swiftName, reason: reason),
          at: value.name.range)
      }
    }
  }

  /// MGW002 for the members a model derives from a field (``SwiftModelMemberNames``): a
  /// `@belongsTo`/`@hasOne` field's setter, reference accessor, storage or by-identifier label, or
  /// a key field's `Identifier` member, suffixed because another generated member has its name
  /// (`setPost2` beside a field `setPost`); at the declared field's name.
  private static func reportDerivedMembers(
    _ context: AnalysisContext, of owner: MemberOwner, derived: SwiftModelMemberNames, erroneous: Set<Int>
  ) {
    guard !derived.renames.isEmpty else { return }
    let (model, fields, members, declared) = (owner.name, owner.stored, owner.members, owner.declared)
    var ranges: [String: SourceRange] = [:]
    for field in declared where ranges[field.name.value] == nil {
      ranges[field.name.value] = field.name.range
    }
    for rename in derived.renames {
      guard let range = ranges[rename.field], !erroneous.contains(range.start.offset) else { continue }
      let other: String
      if rename.role == .identifierMember {
        other =
          rename.wanted == "components"
          ? "is the `Identifier`'s own property (`components`)"
          : "is the `Identifier` member of another key field"
      } else {
        other =
          fields.first { $0.name != rename.field && members.propertyName($0.name) == rename.wanted }.map {
            "is the Swift property of field `\(DiagnosticText.shortened($0.name))`"
          } ?? "is the name of another member generated for `\(DiagnosticText.shortened(model))`"
      }
      context.report(
        .renamedSwiftMember(
          owner: model, member: rename.field, wanted: rename.wanted, swiftName: rename.swiftName,
          reason: "(the \(rename.role.rawValue)) " + other),
        at: range)
    }
  }
}
