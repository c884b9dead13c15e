import GraphQLSDL

/// The stable codes of the errors in a `modelgen-config.json` (`MGC001`–`MGC013`, `MGC099`), printed
/// as `modelgen-config.json:line:col: error: message [MGC006]` with a hint line, and of the
/// output stage of `modelgen generate` (`MGC014`–`MGC026`: output directories, the manifest, the
/// directory lock, files in the way, writes), printed as `path: error: message [MGC015]` with a
/// hint line, and of a schema file that cannot be read (`MGC027`, printed the same way), of templates that
/// cannot be used (`MGC028`), and of templates that do not compile or render (`MGC029`, `MGC030`:
/// `DIR/model.mustache:line:col: error: message [MGC029]`). Like the schema
/// codes (`ModelGenDiagnosticCode`), codes never change meaning and retired codes are not reused:
/// match on codes, never on wording. Defined beside the schema codes because the checks of
/// `"swiftNames"` against a schema (`SwiftTypeNaming`) run in the semantic stage.
public enum ConfigDiagnosticCode {
  /// The config file cannot be read: nothing at the path, not a regular file (a directory, FIFO,
  /// device or socket), or an I/O error.
  public static let unreadableFile: DiagnosticCode = "MGC001"
  /// The config file is larger than the limit (1 MiB, `ConfigFile.maximumSize`); it is refused
  /// before a byte of it is parsed.
  public static let fileTooLarge: DiagnosticCode = "MGC002"
  /// The file is not strict JSON (RFC 8259): a syntax error, invalid UTF-8, a comment, a trailing
  /// comma, or nesting deeper than 64 arrays and objects.
  public static let invalidJSON: DiagnosticCode = "MGC003"
  /// A key written twice in one JSON object (JSONSerialization would keep the last one silently).
  public static let duplicateKey: DiagnosticCode = "MGC004"
  /// The file holds valid JSON that is not one object.
  public static let notAnObject: DiagnosticCode = "MGC005"
  /// A key this version of `modelgen` does not know (with a `did you mean` hint when one is close).
  public static let unknownKey: DiagnosticCode = "MGC006"
  /// A value of the wrong type, or not one of the allowed values (`"access": "open"`), or an
  /// `"emit"` kind named twice (`["swift", "swift"]`, at the second). The values of a repeated key
  /// (`MGC004`) are each checked.
  public static let invalidValue: DiagnosticCode = "MGC007"
  /// `"templates"` names a path that is not a directory.
  public static let templatesNotADirectory: DiagnosticCode = "MGC008"
  /// A `"swiftNames"` key that is not a GraphQL type name (GraphQL spec §2.1.9).
  public static let invalidSwiftNamesKey: DiagnosticCode = "MGC009"
  /// A `"swiftNames"` value that cannot name a generated type: not a Swift identifier, a Swift
  /// keyword, a name that would shadow a standard library, Foundation, Concurrency or LazyModel
  /// type, or the name of a member the generated code declares (a property of a generated type,
  /// `identifier`, `keys`, `schema`, `path`, `registry`), which would shadow the type inside it.
  public static let undeclarableSwiftName: DiagnosticCode = "MGC010"
  /// A `"swiftNames"` value equal, ignoring letter case, to the Swift name of another type of the
  /// schema (whichever of the two is declared first), to another entry's value, or to the
  /// registry `Models`: the types or their files would collide.
  public static let swiftNameCollision: DiagnosticCode = "MGC011"
  /// A `"swiftNames"` key that names no type of the schemas `modelgen` was given.
  public static let swiftNamesUnknownType: DiagnosticCode = "MGC012"
  /// `"emit"` leaves out `"swift"`, but the build tool plugin (`--single-file`) writes Swift.
  public static let emitWithoutSwift: DiagnosticCode = "MGC013"
  /// Two schemas of one `generate` run whose output directories (`--output`/`<schema file stem>`)
  /// are one directory: equal stems (`a/schema.graphql`, `b/schema.graphql`), stems equal after
  /// Unicode normalization and case folding (`schema`, `Schema`: one directory on APFS and HFS+),
  /// or a stem `.`/`..`. Reported at the later schema before anything is written.
  public static let outputDirectoryCollision: DiagnosticCode = "MGC014"
  /// A file this run would write into an output directory is recorded in the directory's
  /// `.modelgen-manifest.json` as written by `modelgen` for another schema (`a/schema.graphql`,
  /// then `b/schema.graphql` into one `--output`): the two schemas' outputs collide, and replacing
  /// the file would leave the other schema's output broken. Reported at the file before anything
  /// is written.
  public static let outputFileCollision: DiagnosticCode = "MGC015"
  /// An output directory's `.modelgen-manifest.json` (the record of the files `modelgen` wrote
  /// there) cannot be read or is not a manifest this version understands: nothing is written or
  /// deleted until it is fixed or removed.
  public static let outputManifestInvalid: DiagnosticCode = "MGC016"
  /// Another `modelgen generate` run holds the output directory's lock (`<output>/.modelgen.lock`,
  /// an advisory `flock(2)` lock held from planning until the last file is written) and did not
  /// finish within `--lock-timeout` seconds (default 30; `0` fails at once). Nothing is written.
  /// The system releases the lock when the run holding it ends, also when it is killed.
  public static let outputLocked: DiagnosticCode = "MGC017"
  /// The output directory's lock file (`<output>/.modelgen.lock`) cannot be created or locked:
  /// a symbolic link, directory, FIFO, device or socket stands at its name (it is opened with
  /// `O_NOFOLLOW` and must be a regular file), the directory is not writable, or the file system
  /// refuses `flock(2)` (`ENOLCK`). Nothing is written.
  public static let outputLockFailed: DiagnosticCode = "MGC018"
  /// The output directory, or a directory above it (`--output taken/Models` where `taken` is a
  /// file), exists and is not a directory. Nothing is written.
  public static let outputNotADirectory: DiagnosticCode = "MGC019"
  /// The output directory, or the nearest existing directory it would be created in, is not
  /// writable (`access(2)` `W_OK | X_OK`). Nothing is written.
  public static let outputNotWritable: DiagnosticCode = "MGC020"
  /// A directory stands where a generated file goes (`Out/Post.swift/`); `modelgen` never removes
  /// directories. Nothing is written.
  public static let outputDirectoryInTheWay: DiagnosticCode = "MGC021"
  /// A file stands where a generated file goes and cannot be read to compare it (permission
  /// denied, an I/O error). Nothing is written.
  public static let outputFileUnreadable: DiagnosticCode = "MGC022"
  /// A FIFO, device or socket stands where a generated file goes; it is never opened for
  /// reading (a FIFO would block) nor replaced. Nothing is written.
  public static let outputNotARegularFile: DiagnosticCode = "MGC023"
  /// In a directory without a `.modelgen-manifest.json`, a generated file of the same name whose
  /// header names another schema file (`a.graphql`, then `b.graphql` into one `--output`).
  /// Nothing is written.
  public static let outputGeneratedFromOtherSchema: DiagnosticCode = "MGC024"
  /// A file without the modelgen header (a hand-written file) stands where a generated file goes;
  /// it is never overwritten. Nothing is written.
  public static let outputHandWrittenFile: DiagnosticCode = "MGC025"
  /// Writing a generated file failed after every check passed: its directory cannot be created,
  /// its temporary file cannot be written (disk full), or the rename into place failed. The run's
  /// temporary files are removed; files renamed into place before the failure stand.
  public static let outputWriteFailed: DiagnosticCode = "MGC026"
  /// A schema file given to `modelgen generate` or `validate` cannot be read: nothing at the
  /// path, a directory, FIFO, device or socket, a component of the path that is not a directory,
  /// permission denied, or an I/O error. Printed as `path: error: cannot read the schema: reason
  /// [MGC027]` with a hint line; exit status 64 (`EX_USAGE`, an input that cannot be used), and
  /// the other schemas and the config are still checked.
  public static let unreadableSchema: DiagnosticCode = "MGC027"
  /// The templates of `modelgen generate` (`--templates DIR`, or `"templates"` in the config)
  /// cannot be used: the directory cannot be read, a `*.mustache` file in it is not a regular file
  /// or not UTF-8 text, or its name is no template and no template includes it as a partial.
  /// Printed as `path: error: message [MGC028]` with a hint line; exit status 64.
  public static let unusableTemplates: DiagnosticCode = "MGC028"
  /// A template of `modelgen generate` (a user's `--templates DIR/*.mustache`) does not compile:
  /// an unterminated tag, an empty tag name, a set-delimiter tag, a closing tag without or not
  /// matching its open section, a section never closed, a partial naming no template, a partial
  /// that includes itself, or partials nested more than 32 deep. Printed as
  /// `DIR/model.mustache:line:col: error: message [MGC029]` at the tag, with a hint line; exit
  /// status 64, nothing written.
  public static let templateDoesNotCompile: DiagnosticCode = "MGC029"
  /// A template fails while rendering an output file: a tag names a value the view model does not
  /// have (the hint names the closest name, or lists them), or a variable tag names a list or an
  /// object. Printed as `DIR/model.mustache:line:col: error: message (while rendering Post.swift)
  /// [MGC030]` at the tag, with a hint line; exit status 64, nothing written.
  public static let templateDoesNotRender: DiagnosticCode = "MGC030"
  /// Too many errors in one config file: after 200 (the schema budget, `DiagnosticBudget`), one
  /// `MGC099` is printed and checking stops.
  public static let tooManyErrors: DiagnosticCode = "MGC099"
}

/// What is wrong with one `"swiftNames"` entry of the config, found against a schema
/// (`SwiftTypeNaming.overrideProblems(_:graphQLNames:)`): a code of ``ConfigDiagnosticCode``,
/// the message and a hint. Printed by `modelgen` at the entry's key in the config file.
public struct SwiftNameProblem: Sendable, Hashable, CustomStringConvertible {
  /// ``ConfigDiagnosticCode/undeclarableSwiftName`` or ``ConfigDiagnosticCode/swiftNameCollision``.
  public var code: DiagnosticCode
  /// What is wrong (`"Note" is the Swift name of type `Note` too`).
  public var message: String
  /// What to write instead.
  public var hint: String

  /// Creates a problem.
  public init(code: DiagnosticCode, message: String, hint: String) {
    self.code = code
    self.message = message
    self.hint = hint
  }

  /// The message.
  public var description: String { message }
}
