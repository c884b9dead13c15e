// libFuzzer target: parse + Amplify semantic analysis (`Generator.analyze`, what `modelgen validate`
// runs) on arbitrary bytes, without templates or diagnostics printing (those are `GeneratorFuzz`).
// Built by Fuzz/build.sh with `-sanitize=fuzzer,address`.
import GraphQLSDL
import ModelGen

/// One input: analyse it and check what must hold for any input (a violation traps, which
/// libFuzzer reports as a crash with the input saved): the diagnostics budget shared by parser and
/// semantic rules (≤ `DiagnosticBudget.defaultLimit` plus one `SDL099`); every range inside the
/// input, start before end; one-line bounded messages; a graph exactly when there is no error.
@_cdecl("LLVMFuzzerTestOneInput")
public func analysisFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let (graph, diagnostics) = Generator.analyze(bytes: bytes, fileName: "fuzz.graphql")
  let hasErrors = checkDiagnostics(diagnostics, inputCount: bytes.count)
  require((graph == nil) == hasErrors, "a graph with errors, or none without")
  return 0
}
