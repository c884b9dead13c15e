/// The release of the modelgen package: the one place its version is written.
///
/// `modelgen --version` prints both values, the generated registry names ``runtimeVersion``
/// (`Models.runtimeVersion = LazyModelRuntimeVersion.v2`), `LazyModelRuntimeVersion.current`
/// must have that name (a test checks it), and the README's dependency line and `CHANGELOG.md`
/// name ``version``. Both are plain constants: safe to read from any thread.
public enum ModelGenRelease {
  /// The package's version, a Semantic Versioning 2.0.0 string (`"0.1.0"`): the git tag of the
  /// release and the section of `CHANGELOG.md` it describes.
  public static let version = "0.1.0"

  /// The name of the runtime version generated code is written for (`"v2"`), the case of
  /// `LazyModelRuntimeVersion` that the generated registry references. It changes only when
  /// generated code and the runtime stop fitting each other, not on every release.
  public static let runtimeVersion = "v2"

  /// What `modelgen --version` prints: `modelgen 0.1.0 (LazyModel runtime v2)`.
  public static let versionLine = "modelgen \(version) (LazyModel runtime \(runtimeVersion))"
}
