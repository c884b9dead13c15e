/// The Swift names of the members a model derives from its fields, besides the properties and
/// coding keys of ``SwiftMemberNames``: per `@belongsTo`/`@hasOne` field the setter (`setPost`),
/// the reference accessor (`postReference`), the `LazyReference` storage (`_post`) and the
/// by-identifier initializer's label (`postIdentifier`); per key field the member of the model's
/// `Identifier` (`components` is that struct's own property, so a key field `components` is
/// `componentsValue` there). Each is unique among the model's properties (and the setters, for an
/// accessor) by the smallest free numeric suffix from 2 (``SwiftNames/uniqued(_:taken:)``).
///
/// Resolved once, here, for both the Swift stage (which renders these names) and ``SwiftNameRule``
/// (which reports each one that is not the name wanted as `MGW002`), so no rename goes unreported.
///
/// A value; `Sendable`.
package struct SwiftModelMemberNames: Sendable, Hashable {
  /// Which derived member a ``Rename`` is.
  package enum Role: String, Sendable, Hashable {
    case setter = "setter"
    case referenceAccessor = "reference accessor"
    case storage = "`LazyReference` storage"
    case identifierLabel = "by-identifier initializer label"
    case identifierMember = "`Identifier` member"
  }

  /// One derived member that cannot have its wanted name.
  package struct Rename: Sendable, Hashable {
    /// The GraphQL field the member belongs to.
    package var field: String
    package var role: Role
    /// The name it would have (`setPost`).
    package var wanted: String
    /// The name it has (`setPost2`).
    package var swiftName: String
  }

  /// Reference field name → its setter (`setPost`). (Only a reference has one; the setters of
  /// every field are resolved together, so a reference's stays the name it had among them.)
  package let setterNames: [String: String]
  /// Reference field name → its reference accessor (`postReference`).
  package let referenceNames: [String: String]
  /// Reference field name → its `LazyReference` storage (`_post`).
  package let storageNames: [String: String]
  /// Reference field name → the by-identifier initializer's label (`postIdentifier`).
  package let identifierParameterNames: [String: String]
  /// Key field name → the `Identifier` member (unescaped).
  package let identifierNames: [String: String]
  /// Every rendered derived member whose name is not the wanted one, in field order (setter,
  /// accessor, storage, label per reference; then the identifier's members in key order).
  package let renames: [Rename]

  /// Resolves the derived members of `fields` (the fields a model renders: stored properties and
  /// associations, in field order) with the properties of `members`; `primaryKey` is the model's
  /// key fields in key order.
  package init(fields: [FieldDefinition], members: SwiftMemberNames, primaryKey: [String]) {
    let properties = members.propertyNames
    let propertyNames = fields.map { members.propertyName($0.name) }
    let wantedSetters = propertyNames.map { "set" + SwiftNames.upperFirst($0) }
    let setters = SwiftNames.uniqued(wantedSetters, taken: properties)
    // `postReference`: unique among properties and setters.
    let wantedReferences = propertyNames.map { $0 + "Reference" }
    let references = SwiftNames.uniqued(wantedReferences, taken: properties.union(setters))
    // Kept for the references only: the graph holds these for every model.
    var setterNames: [String: String] = [:]
    var referenceNames: [String: String] = [:]
    for (index, field) in fields.enumerated() where field.isLazyReference {
      setterNames[field.name] = setters[index]
      referenceNames[field.name] = references[index]
    }
    self.setterNames = setterNames
    self.referenceNames = referenceNames
    let referenceFields = fields.filter(\.isLazyReference)
    var storage: [String: String] = [:]
    for field in referenceFields {
      storage[field.name] = SwiftNames.uniqued(["_" + members.propertyName(field.name)], taken: properties)[0]
    }
    storageNames = storage
    let wantedLabels = referenceFields.map { members.propertyName($0.name) + "Identifier" }
    identifierParameterNames = Dictionary(
      uniqueKeysWithValues: zip(referenceFields.map(\.name), SwiftNames.uniqued(wantedLabels, taken: properties)))
    let identifierMembers = primaryKey.map { members.propertyName($0) }.map {
      $0 == "components" ? "componentsValue" : $0
    }
    let identifiers = SwiftNames.uniqued(identifierMembers, taken: ["components"])
    identifierNames = Dictionary(zip(primaryKey, identifiers), uniquingKeysWith: { first, _ in first })

    var renames: [Rename] = []
    for (index, field) in fields.enumerated() where field.isLazyReference {
      let property = propertyNames[index]
      func check(_ role: Role, _ wanted: String, _ name: String?) {
        if let name, name != wanted {
          renames.append(Rename(field: field.name, role: role, wanted: wanted, swiftName: name))
        }
      }
      check(.setter, wantedSetters[index], setters[index])
      check(.referenceAccessor, wantedReferences[index], references[index])
      check(.storage, "_" + property, storage[field.name])
      if !field.isFoundThroughChildReferences {
        check(.identifierLabel, property + "Identifier", identifierParameterNames[field.name])
      }
    }
    var reported: Set<String> = []
    for (key, name) in zip(primaryKey, identifiers) where reported.insert(key).inserted {
      let wanted = members.propertyName(key)
      if name != wanted {
        renames.append(Rename(field: key, role: .identifierMember, wanted: wanted, swiftName: name))
      }
    }
    self.renames = renames
  }
}

extension FieldDefinition {
  /// `true` for a `@belongsTo` or `@hasOne` field (a `LazyReference`).
  package var isLazyReference: Bool {
    switch association {
    case .belongsTo?, .hasOne?: return true
    default: return false
    }
  }

  /// `true` for a `@hasOne` found through the child's `references:` fields (the child holds the
  /// FK; this model has no target names).
  package var isFoundThroughChildReferences: Bool {
    if case .hasOne(let association)? = association { return association.targetNames.isEmpty }
    return false
  }
}
