import Foundation
import ModelGenCLI

exit(ModelGenCommand().run(Array(CommandLine.arguments.dropFirst())))
