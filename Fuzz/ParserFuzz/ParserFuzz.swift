// libFuzzer target: GraphQLSDL's lexer, parser, printer and diagnostics printer on arbitrary bytes.
// Built by Fuzz/build.sh with `-sanitize=fuzzer,address`; see README.md, "Fuzzing".
import GraphQLSDL

/// One input: parse it and check what must hold for any
/// input (a violation traps, which libFuzzer reports as a crash with the input saved):
/// - at most `maximumDiagnosticCount` diagnostics plus one `SDL099`;
/// - every range lies inside the input, start before end;
/// - every message is one line and quotes at most a bounded amount of user text;
/// - a clean document printed with `SDLPrinter` parses again without diagnostics and prints the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func parserFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let result = SDLParser.parse(bytes: bytes, fileName: "fuzz.graphql")
  _ = checkDiagnostics(result.diagnostics, inputCount: bytes.count)
  if result.diagnostics.isEmpty {
    let printed = SDLPrinter.print(result.document)
    let reparsed = SDLParser.parse(printed, fileName: "printed.graphql")
    require(reparsed.diagnostics.isEmpty, "printed document does not parse: \(reparsed.diagnostics)")
    require(SDLPrinter.print(reparsed.document) == printed, "printing is not stable")
  }
  return 0
}
