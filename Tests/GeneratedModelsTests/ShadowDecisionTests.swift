import Dispatch
import Foundation
import LazyModel
import Testing

import struct RegressionTypeNamesShadowStandardTypes.DispatchQueueType
import struct RegressionTypeNamesShadowStandardTypes.ObservableType

/// Issue 17, the shadow-list decision (README, "Swift names"), tried with the real compiler on
/// `type-names-shadow-standard-types`: models named `DispatchQueue` and `Observable` are renamed,
/// so the app's `DispatchQueue.main` and `some Observable` keep working; models named `Process`
/// and `Unit` keep their names, their module compiles, and an app importing Foundation and the
/// models writes the Foundation type qualified where it needs it.
@Suite("Generated: shadowed Dispatch, Observation and kept Foundation names")
struct ShadowDecisionTests {
  @Test func renamedModelsLeaveDispatchUsable() async {
    #expect(DispatchQueueType.schema.name == "DispatchQueue")
    #expect(ObservableType.schema.name == "Observable")
    let done: Bool = await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: true) }
    }
    #expect(done)
  }

  /// The compiler's verdict on app code: what compiles, and what an app must qualify.
  @Test func keptFoundationNamesCompileAndNeedQualificationOnlyWhereAmbiguous() async throws {
    let accepted = try await TypeCheck.run(
      """
      import Dispatch
      import Foundation
      import Observation
      import RegressionTypeNamesShadowStandardTypes
      @Observable final class Counter { var count = 0 }
      func check(_ value: some Observable) {}
      func work() {
        DispatchQueue.main.async {}
        check(Counter())
        let process = RegressionTypeNamesShadowStandardTypes.Process(id: "p", step: 1)
        let unit = RegressionTypeNamesShadowStandardTypes.Unit(id: "kg", symbol: "kg")
        let child = Foundation.Process()
        _ = (process, unit, child, DispatchQueueType(id: "q"), ObservableType(id: "o"))
      }
      """)
    #expect(accepted.status == 0, "\(accepted.output)")
    // Unqualified, a type annotation naming `Unit` is ambiguous between the two modules: the cost
    // of keeping the name, written down in the README.
    let ambiguous = try await TypeCheck.run(
      """
      import Foundation
      import RegressionTypeNamesShadowStandardTypes
      let unit: Unit? = nil
      """)
    #expect(ambiguous.status != 0)
    #expect(
      ambiguous.output.contains("snippet.swift:3:11: error: 'Unit' is ambiguous for type lookup in this context"),
      "\(ambiguous.output)")
  }
}
