import GraphQLSDL
import ModelGenIR

/// The output directories of a run with several schemas (`--output X a/blog.graphql b/shop.graphql`
/// writes `X/blog/` and `X/shop/`), checked before anything is rendered or written.
enum OutputDirectories {
  /// The directory name (a schema's file stem) each schema of `schemas` writes into.
  static func names(_ schemas: [String]) -> [String] { schemas.map(OutputPlanner.stem(of:)) }

  /// `MGC014` for each schema whose output directory cannot be its own: a stem that is `.` or
  /// `..` (`..graphql` would write into `--output` itself), a stem equal to an earlier schema's
  /// (`a/schema.graphql` and `b/schema.graphql`: the second's stale-file pass would delete the
  /// first's files), or a stem equal to an earlier one after Unicode normalization and case
  /// folding (``SwiftNames/fileSystemKey(_:)``: `schema` and `Schema`, one directory on APFS and
  /// HFS+, the rule MG035 applies to file names). Reported at the later schema, in argument order.
  /// Pure.
  static func problems(_ schemas: [String]) -> [ConfigFileError] {
    var errors: [ConfigFileError] = []
    var seen: [String: (schema: String, stem: String)] = [:]
    for (schema, stem) in zip(schemas, names(schemas)) {
      let shown = SwiftNames.commentText(schema)
      if stem == "." || stem == ".." {
        errors.append(
          ConfigFileError(
            path: shown, code: ConfigDiagnosticCode.outputDirectoryCollision,
            message: "the output directory of this schema would be `\(stem)`, which is not a directory of its own",
            hint: "rename the schema file so its name before `.graphql` is a directory name"))
        continue
      }
      let key = SwiftNames.fileSystemKey(stem)
      guard let earlier = seen[key] else {
        seen[key] = (schema, stem)
        continue
      }
      let other = SwiftNames.commentText(earlier.schema)
      let message =
        Array(earlier.stem.utf8) == Array(stem.utf8)
        ? "this schema and \(other) both write into the directory `\(SwiftNames.commentText(stem))`; the second would delete the first's files"
        : "this schema writes into `\(SwiftNames.commentText(stem))` and \(other) into `\(SwiftNames.commentText(earlier.stem))`; the two names differ only in letter case or Unicode normalization, so they are one directory on case-insensitive file systems (macOS)"
      errors.append(
        ConfigFileError(
          path: shown, code: ConfigDiagnosticCode.outputDirectoryCollision, message: message,
          hint: "rename one of the schema files, or generate them in separate runs with different --output directories"
        ))
    }
    return errors
  }
}
