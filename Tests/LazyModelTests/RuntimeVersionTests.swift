import LazyModel
import Testing

/// The runtime implements the version that `ModelGenRelease` says generated code is written for.
@Suite("Runtime version")
struct RuntimeVersionTests {
  @Test func currentIsTheReleaseRuntimeVersion() {
    #expect(LazyModelRuntimeVersion.current.name == ModelGenRelease.runtimeVersion)
    #expect(LazyModelRuntimeVersion.current == .v2)
    #expect(LazyModelRuntimeVersion.allCases.map(\.name) == ["v2"])
  }
}
