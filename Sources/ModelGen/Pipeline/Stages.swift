// The `ModelGen` product is the pipeline over the stage modules; importing it imports them all, so
// code written against the single `ModelGen` module (the CLI, the plugins, tests) reads unchanged.
@_exported import ModelGenAPISchema
@_exported import ModelGenIR
@_exported import ModelGenSwift
@_exported import ModelGenTemplating
