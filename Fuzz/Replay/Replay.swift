// A stand-in for libFuzzer's driver in the plain builds of the targets (`FUZZ_SANITIZE=none bash
// Fuzz/build.sh`): runs `LLVMFuzzerTestOneInput` once on each file named on the command line (a
// directory stands for the files in it), so a corpus can be replayed under
// `valgrind --tool=callgrind` without the sanitizers' and libFuzzer's own costs.
import Foundation

@_silgen_name("LLVMFuzzerTestOneInput")
func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt

@main
enum Replay {
  static func main() {
    var files: [String] = []
    for argument in CommandLine.arguments.dropFirst() {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else { continue }
      if isDirectory.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
        files += names.sorted().map { argument + "/" + $0 }
      } else {
        files.append(argument)
      }
    }
    var bytes = 0
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else { continue }
      let input = [UInt8](data) + [0]
      bytes += data.count
      _ = input.withUnsafeBufferPointer { fuzzTestOneInput($0.baseAddress!, data.count) }
    }
    print("replayed \(files.count) inputs, \(bytes) bytes")
  }
}
