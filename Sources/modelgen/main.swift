import Foundation
import ModelGenCLI

exit(
  ModelGenCommand(programName: CommandLine.arguments.first ?? "modelgen")
    .run(Array(CommandLine.arguments.dropFirst())))
