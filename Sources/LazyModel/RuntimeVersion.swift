/// The versions of the contract between generated model code and this runtime.
///
/// Code that `modelgen` generates names the runtime version it was generated for by referencing
/// one case of this enum (`LazyModelRuntimeVersion.v2`, in the generated registry). The compiler
/// then checks that the generated code and the `LazyModel` it is compiled against agree:
///
/// - Code generated for a runtime version this `LazyModel` does not implement references a member
///   that does not exist (`LazyModelRuntimeVersion.v3`). Such references resolve to the
///   unavailable `subscript(dynamicMember:)`, so the compiler's error says which version this
///   runtime is and what to regenerate, next to the generated line that names the version it
///   was generated for.
/// - When the version changes, the old case stays here, marked
///   `@available(*, unavailable, message: ...)` with a message naming both versions.
///
/// The version changes only when generated code and the runtime stop fitting each other (a
/// changed `ModelSchema` DSL, decoding helper or protocol requirement), not on every release.
@dynamicMemberLookup
public enum LazyModelRuntimeVersion: Sendable, Hashable, CaseIterable {
  /// Version 2: typed keys (`ModelFieldKey`, the generated `Keys` enums), typed include paths
  /// (`ModelPath`), `Model` as `Hashable` and printable, identifiers built from components
  /// (`ModelIdentifierProtocol.init?(components:)`) and references decoded by their target names
  /// (`decodeLazyReference(_:forKey:targetNames:decoder:)`).
  case v2

  /// Version 1, of release 0.1.0: the `Model`/`ModelSchema` DSL, `LazyReference`/`LazyList`
  /// decoding helpers and `ModelRegistry` of the first release. Code generated for it does not
  /// compile against this runtime; the message says what to do.
  ///
  /// Never returns: unavailable, so the compiler rejects every use (the body, never reached,
  /// traps). Source of the rule: `ModelGenRelease.runtimeVersion` in `ModelVocabulary`.
  @available(
    *, unavailable,
    message:
      "this code was generated for LazyModel runtime v1 (modelgen 0.1.0); this LazyModel implements runtime v2: regenerate it with the modelgen of the same release as this LazyModel"
  )
  public static var v1: LazyModelRuntimeVersion { fatalError("unavailable") }

  /// The version this build of `LazyModel` implements.
  public static let current: LazyModelRuntimeVersion = .v2

  /// The version's name as generated code and messages spell it (`"v2"`).
  public var name: String {
    switch self {
    case .v2: return "v2"
    }
  }

  /// Any other version name (`LazyModelRuntimeVersion.v3`): never available, so that code
  /// generated for another runtime version fails to compile with this message.
  ///
  /// - Parameter name: The member name the generated code wrote (`"v3"`).
  /// - Returns: Never: unavailable, so the compiler rejects every use (the body, never reached,
  ///   traps). Thread-safety: no state.
  @available(
    *, unavailable,
    message:
      "this code was generated for another LazyModel runtime version than v2, the version of the LazyModel it is compiled against: regenerate it with the modelgen of the same release as this LazyModel, or depend on the LazyModel release it was generated for"
  )
  public static subscript(dynamicMember name: String) -> LazyModelRuntimeVersion {
    fatalError("unavailable")
  }
}
