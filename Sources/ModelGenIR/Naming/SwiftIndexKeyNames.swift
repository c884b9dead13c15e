/// The Swift names of a model's typed index keys (`Book.indexes.byIsbn`, a `ModelIndexKey`) and of
/// the sort key structs of its composite ones (`Book.Indexes.BooksByAuthorAndYearAndTitleSortKey`),
/// resolved once, here, for the Swift stage (which renders them) and ``SwiftNameRule`` (which
/// reports each one that is not the name wanted as `MGW003`), so an index name can never break
/// the generated code and no rename goes unreported.
///
/// An `@index(name:)` is a GraphQL name (MG014 refuses `"by-post"` or `"2nd"`); its Swift member
/// is ``SwiftNames/indexKeyName(_:)`` of it (lower-first, as a property: `ByOwner` → `byOwner`),
/// and names two indexes would share get the smallest free numeric suffix from 2
/// (``SwiftNames/indexKeyNames(_:)``), independent of declaration order. A sort key struct is `<Member, upper-first>SortKey`, with a numeric suffix when a type
/// of the schema (whose Swift names are `typeNames`) or another struct has that name (a field of
/// such a type inside `Indexes` would name the struct).
///
/// A value; `Sendable`.
package struct SwiftIndexKeyNames: Sendable, Hashable {
  /// One index key or sort key struct that cannot have its wanted name.
  package struct Rename: Sendable, Hashable {
    /// The `@index(name:)`.
    package var index: String
    /// The name it would have: the index name lower-first (`byOwner`), or its struct's
    /// (`ByGradeSortKey`).
    package var wanted: String
    /// The name it has, unescaped (`byOwner2`, `ByGradeSortKey2`).
    package var swiftName: String
    /// `true` for the sort key struct, `false` for the `ModelIndexKey` member.
    package var isSortKeyStruct: Bool
  }

  /// Index name → its `static let` in `Indexes` (unescaped), for every index given.
  package let memberNames: [String: String]
  /// Index name → its sort key struct, for the indexes given with more than one sort key field.
  package let sortKeyTypeNames: [String: String]
  /// Every name that is not the wanted one, in the order of the indexes given (member, then struct).
  package let renames: [Rename]

  /// Resolves the names of `indexes` (the model's typed ones, in declaration order), its sort key
  /// structs unique against `typeNames` (the Swift names of every type of the schema).
  package init(indexes: [IndexDefinition], typeNames: Set<String>) {
    let names = indexes.map(\.name)
    let members = SwiftNames.indexKeyNames(names)
    var memberNames: [String: String] = [:]
    for (name, member) in zip(names, members) { memberNames[name] = member }
    let composite = indexes.indices.filter { indexes[$0].fields.count > 2 }
    let wantedStructs = composite.map { SwiftNames.upperFirst(members[$0]) + "SortKey" }
    let structs = SwiftNames.uniqued(wantedStructs, taken: typeNames)
    var sortKeyTypeNames: [String: String] = [:]
    for (position, index) in composite.enumerated() { sortKeyTypeNames[names[index]] = structs[position] }
    var renames: [Rename] = []
    for (index, name) in names.enumerated() {
      let lowered = SwiftNames.lowerFirst(name)
      if members[index] != lowered {
        renames.append(Rename(index: name, wanted: lowered, swiftName: members[index], isSortKeyStruct: false))
      }
      if let position = composite.firstIndex(of: index), structs[position] != wantedStructs[position] {
        renames.append(
          Rename(index: name, wanted: wantedStructs[position], swiftName: structs[position], isSortKeyStruct: true))
      }
    }
    self.memberNames = memberNames
    self.sortKeyTypeNames = sortKeyTypeNames
    self.renames = renames
  }

  /// The indexes of `model` that get a typed key: those with a query field (`queryField:` or its
  /// default; not `queryField: null`, which no index query reads through) whose fields the model
  /// declares (an index over a `@belongsTo`'s target name that is no field gets none; the API's
  /// `uncheckedIndex:` queries still reach every index).
  package static func typedIndexes(of model: ModelDefinition) -> [IndexDefinition] {
    model.indexes.filter { index in
      index.hasQueryField && index.fields.allSatisfy { model.field(named: $0) != nil }
    }
  }
}

extension SwiftNames {
  /// The Swift member (unescaped) wanted for the `@index` named `name`, before any numeric suffix:
  /// the name lower-first, as a property is (`byPost`; `ByOwner` → `byOwner`, `ModelIndexKey` →
  /// `modelIndexKey`, so no key shadows the types `Indexes` names: a key `ModelIndexKey` was a
  /// circular reference); a keyword stays and is escaped where written (`` `default` ``,
  /// `` `self` ``, which `Model.indexes.`self`` reaches). An index name is always a GraphQL name
  /// (MG014 refuses any other at the `name:`), so this is a Swift identifier.
  public static func indexKeyName(_ name: String) -> String {
    lowerFirst(name)
  }

  /// The Swift members (unescaped) of one model's typed indexes named `names`, in the order given:
  /// each ``indexKeyName(_:)``, unique within the model's `Indexes`. An index whose member is its
  /// name as written keeps it, then one whose member is its name lower-first (`ByOwner` →
  /// `byOwner`); the others, in index-name order, take the smallest free numeric suffix from 2
  /// (`by-post` → `byPost2` beside an index `byPost`, `ByOwner` → `byOwner2` beside `byOwner`,
  /// wherever each is declared).
  public static func indexKeyNames(_ names: [String]) -> [String] {
    let wanted = names.map(indexKeyName)
    if allDistinctNames(wanted) { return wanted }
    // Written exactly as its member first, then lower-first, then the rest; by name within each.
    func rank(_ index: Int) -> Int {
      wanted[index] == names[index] ? 0 : wanted[index] == lowerFirst(names[index]) ? 1 : 2
    }
    let order = names.indices.sorted { (rank($0), names[$0]) < (rank($1), names[$1]) }
    return suffixedUniquely(wanted, order: order)
  }

  private static func allDistinctNames(_ names: [String]) -> Bool {
    Set(names).count == names.count
  }
}
