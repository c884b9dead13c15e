import LazyModel

/// What the row coders need from a `LazyReference<M>` without knowing `M`.
protocol LazyReferenceBox {
  /// A not-loaded reference to the `M` whose fields equal `identifiers`, loading from `store`.
  static func notLoaded(_ identifiers: [IdentifierComponent], store: DataStore) -> Self
  /// A loaded reference (`nil` when `model` is `nil` or not an `M`).
  static func loaded(_ model: (any Model)?) -> Self
  /// The current state: a loaded model (or `nil`), or the identifiers of a not-loaded one.
  var boxState: LazyReferenceBoxState { get }
  /// The identifiers it was created or decoded with (see `LazyReference.identifiers`), read without
  /// building its `State`.
  var boxIdentifiers: [IdentifierComponent]? { get }
  /// The identifiers that stand for the referenced model's key without building it (see
  /// `LazyReference.identifiersWithoutModel`), or `nil` when the model must be read.
  var boxIdentifiersWithoutModel: [IdentifierComponent]? { get }
  /// ``boxIdentifiersWithoutModel`` of `object`, which must be a `Self` (a reference is a class:
  /// an encoder that knows its type calls this without a dynamic cast per value).
  static func identifiersWithoutModel(of object: AnyObject) -> [IdentifierComponent]?
  /// Makes not-loaded references sharing one provider over `store`; with `batching` (and
  /// ``DataStore/batchesSiblingReferences``) the references it makes are siblings
  /// (``SiblingReferences``), else each loads on its own.
  static func factory(store: DataStore, batching: Bool) -> ReferenceFactory
}

/// Makes the not-loaded references of one field for a whole query: the provider is built once, and
/// no generic metadata is looked up per row.
///
/// A class, so that the row decoder calls it through an unretained reference (a struct of
/// closures loaded from the decoder's slot retained and released a closure context per row), and
/// the identifiers are taken (`consuming`), not copied, into the reference.
final class ReferenceFactory {
  /// A not-loaded reference holding `identifiers` (a `LazyReference<M>` instance), recorded as a
  /// sibling (``SiblingReferences/add(_:)``).
  let make: (consuming [IdentifierComponent]) -> AnyObject
  /// The same for an identifiers array that a reference made by ``make`` already holds (the children
  /// of one parent share it): the array is not recorded again.
  let makeSharing: (consuming [IdentifierComponent]) -> AnyObject
  /// Records (once) that references share identifiers arrays (``SiblingReferences/addSharingSibling()``).
  let recordSharing: () -> Void
  /// An empty loaded reference (a `LazyReference<M>` instance).
  let empty: () -> AnyObject

  init(
    make: @escaping (consuming [IdentifierComponent]) -> AnyObject,
    makeSharing: @escaping (consuming [IdentifierComponent]) -> AnyObject,
    recordSharing: @escaping () -> Void, empty: @escaping () -> AnyObject
  ) {
    self.make = make
    self.makeSharing = makeSharing
    self.recordSharing = recordSharing
    self.empty = empty
  }
}

/// ``LazyReferenceBox/boxState``.
enum LazyReferenceBoxState {
  case loaded((any Model)?)
  case notLoaded([IdentifierComponent])
}

extension LazyReference: LazyReferenceBox {

  static func notLoaded(_ identifiers: [IdentifierComponent], store: DataStore) -> LazyReference<M> {
    LazyReference(identifiers: identifiers, provider: DataStoreReferenceProvider<M>(store: store))
  }

  static func loaded(_ model: (any Model)?) -> LazyReference<M> {
    LazyReference(model as? M)
  }

  var boxIdentifiers: [IdentifierComponent]? { identifiers }

  var boxIdentifiersWithoutModel: [IdentifierComponent]? { identifiersWithoutModel }

  static func identifiersWithoutModel(of object: AnyObject) -> [IdentifierComponent]? {
    unsafeDowncast(object, to: LazyReference<M>.self).identifiersWithoutModel
  }

  static func factory(store: DataStore, batching: Bool) -> ReferenceFactory {
    // One provider box for every reference of the query; the type is looked up once here, not
    // once per reference made (`M` is generic here).
    let referenceType = LazyReference<M>.self
    if batching && store.batchesSiblingReferences {
      // The references of one query's field load their targets together (issue 11).
      let siblings = SiblingReferences<M>(store: store)
      let provider = SharedModelProvider<M>(
        DataStoreReferenceProvider<M>(store: store, siblings: siblings))
      return ReferenceFactory(
        make: { (identifiers: consuming [IdentifierComponent]) in
          siblings.add(identifiers)
          return referenceType.init(identifiers: identifiers, sharedProvider: provider)
        },
        makeSharing: { (identifiers: consuming [IdentifierComponent]) in
          referenceType.init(identifiers: identifiers, sharedProvider: provider)
        },
        recordSharing: { siblings.addSharingSibling() },
        empty: { LazyReference<M>(nil as M?) })
    }
    let provider = SharedModelProvider<M>(DataStoreReferenceProvider<M>(store: store))
    let make: (consuming [IdentifierComponent]) -> AnyObject = {
      (identifiers: consuming [IdentifierComponent]) in
      referenceType.init(identifiers: identifiers, sharedProvider: provider)
    }
    return ReferenceFactory(
      make: make, makeSharing: make, recordSharing: {}, empty: { LazyReference<M>(nil as M?) })
  }

  var boxState: LazyReferenceBoxState {
    switch state {
    case .loaded(let model): return .loaded(model)
    case .notLoaded(let identifiers): return .notLoaded(identifiers)
    }
  }
}

/// What the row decoder needs from a `LazyList<M>` without knowing `M`.
protocol LazyListBox {
  /// A loaded list of the `M`s among `models`.
  static func loaded(_ models: [any Model]) -> Self
}

extension LazyList: LazyListBox {
  static func loaded(_ models: [any Model]) -> LazyList<M> {
    LazyList(models.compactMap { $0 as? M })
  }
}
