// swift-tools-version:6.0
// modelgen: Amplify-style GraphQL schema → lazy Swift models, plus the runtime they run on.
import PackageDescription

/// Swift 6 language mode with complete strict concurrency is the default for tools-version 6.0.
let strict: [SwiftSetting] = []

/// Checked-in generated output, one module per schema (see `Generated/README.md`).
/// Each entry is (module name, directory under `Generated/`). Keep in sync with `Schemas/`;
/// `ModelGenTests.GoldenFileTests` fails when a schema has no module here.
let generatedModules: [(name: String, path: String)] = [
  ("AuthRulesModels", "auth-rules"),
  ("CompositeKeyHasManyModels", "composite-key-has-many"),
  ("DefaultValuesModels", "default-values"),
  ("ForeignKeysWithoutBelongsToModels", "foreign-keys-without-belongs-to"),
  ("HasManyImplicitModels", "has-many-implicit"),
  ("HasOneModels", "has-one"),
  ("IndexSecondaryModels", "index-secondary"),
  ("ManyToManyModels", "many-to-many"),
  ("ModelOperationsModels", "model-operations"),
  ("ModelTimestampsModels", "model-timestamps"),
  ("PrimaryKeyCompositeModels", "primary-key-composite"),
  ("ScalarsEnumsEmbeddedModels", "scalars-enums-embedded"),
  ("SeedPostCommentModels", "seed-post-comment"),
  ("SelfAndOneToOneModels", "self-and-one-to-one"),
  ("SwiftKeywordsModels", "swift-keywords"),
  ("SyncBlogModels", "sync/sync-blog"),
  ("SyncOwnerModels", "sync/sync-owner"),
  ("SyncFieldAuthModels", "sync/sync-field-auth"),
  ("SyncDeclaredTimestampsModels", "sync/sync-declared-timestamps"),
  ("RegressionBelongsToFkIsPrimaryKeyField", "regressions/belongs-to-fk-is-primary-key-field"),
  ("RegressionCompositeKeyNonStringComponents", "regressions/composite-key-non-string-components"),
  ("RegressionCompositeKeySortKeyNamedId", "regressions/composite-key-sort-key-named-id"),
  ("RegressionEmbeddedTypeRecursiveThroughList", "regressions/embedded-type-recursive-through-list"),
  ("RegressionEnumValuesSwiftKeywords", "regressions/enum-values-swift-keywords"),
  ("RegressionHasManyExplicitFkIndex", "regressions/has-many-explicit-fk-index"),
  ("RegressionHasManyIndexNameWithTwoIndexes", "regressions/has-many-index-name-with-two-indexes"),
  ("RegressionHasOneBelongsToCompositeKeys", "regressions/has-one-belongs-to-composite-keys"),
  ("RegressionIndexQueryFieldNullRejected", "regressions/index-query-field-null-rejected"),
  ("RegressionLazyListReadBeforeFetch", "regressions/lazy-list-read-before-fetch"),
  ("RegressionListNullabilityWithLazyBelongsTo", "regressions/list-nullability-with-lazy-belongs-to"),
  ("RegressionReferencesHasOneHasMany", "regressions/references-has-one-has-many"),
  ("RegressionTypeNameLowercasesToKeyword", "regressions/type-name-lowercases-to-keyword"),
  ("RegressionIntIdKeyArgumentsTypedId", "regressions/int-id-key-arguments-typed-id"),
  ("RegressionLowerCaseModelTypeNames", "regressions/lower-case-model-type-names"),
  ("RegressionManyToManyJoinSortKeyFieldNames", "regressions/many-to-many-join-sort-key-field-names"),
  ("RegressionDefaultValueRequiredInCreateInput", "regressions/default-value-required-in-create-input"),
  ("RegressionHasManyChildWithoutQueriesFilter", "regressions/has-many-child-without-queries-filter"),
  ("RegressionNonModelInputOnlyWhenUsed", "regressions/non-model-input-only-when-used"),
  ("RegressionImplicitIdAfterDeclaredFields", "regressions/implicit-id-after-declared-fields"),
  ("DescriptionsModels", "descriptions"),
  ("RegressionTypeNamesShadowStandardTypes", "regressions/type-names-shadow-standard-types"),
  ("RegressionTypeNamesShadowRuntimeTypes", "regressions/type-names-shadow-runtime-types"),
  ("RegressionSchemaWithoutModels", "regressions/schema-without-models"),
  ("RegressionKeyOperatorsCompileOnEveryField", "regressions/key-operators-compile-on-every-field"),
  ("RegressionAssociationNamesClashWithPathMembers", "regressions/association-names-clash-with-path-members"),
  ("RegressionKeyPredicatesAcceptAnyValueType", "regressions/key-predicates-accept-any-value-type"),
  ("RegressionKeyOperatorsRejectValidAppsyncFilters", "regressions/key-operators-reject-valid-appsync-filters"),
  ("RegressionModelsNotEquatableOrPrintable", "regressions/models-not-equatable-or-printable"),
  ("RegressionDeclaredTimestampsReadOnly", "regressions/declared-timestamps-read-only"),
  ("RegressionMultiOwnerFieldsAndAuthDefaults", "regressions/multi-owner-fields-and-auth-defaults"),
  ("RegressionHasOneDanglingForeignKey", "regressions/has-one-dangling-foreign-key"),
  ("RegressionIndexOnModelWithoutListQuery", "regressions/index-on-model-without-list-query"),
  ("RegressionNonModelTypeHoldsModel", "regressions/non-model-type-holds-model"),
  ("RegressionFieldNamesCollideWithProtocolMembers", "regressions/field-names-collide-with-protocol-members"),
  ("RegressionCustomRootFieldsDropped", "regressions/custom-root-fields-dropped"),
  ("RegressionUserInputTypesAndDefaultsUnchecked", "regressions/user-input-types-and-defaults-unchecked"),
  ("RegressionRootFieldsWithoutModels", "regressions/root-fields-without-models"),
  ("RegressionAuthOnCustomRootFieldsDropped", "regressions/auth-on-custom-root-fields-dropped"),
  ("RegressionAppsyncDirectivesOnUserTypesDropped", "regressions/appsync-directives-on-user-types-dropped"),
  ("RegressionRootDirectivesModelDescriptionsDropped", "regressions/root-directives-model-descriptions-dropped"),
  ("RegressionInterfacesAndUnionsDropped", "regressions/interfaces-and-unions-dropped"),
  ("RegressionFieldRuleGranularReadOperationsAccepted", "regressions/field-rule-granular-read-operations-accepted"),
  ("RegressionNestedPageModesFromChildRulesOnly", "regressions/nested-page-modes-from-child-rules-only"),
  ("RegressionIndexQueriesAcceptAnyKeyType", "regressions/index-queries-accept-any-key-type"),
  ("RegressionIndexNamesBreakSwift", "regressions/index-names-break-swift"),
  ("RegressionSubscriptionLevelNotInModelSchema", "regressions/subscription-level-not-in-model-schema"),
  ("RegressionChildWithoutQueriesConnectionUnauthorized", "regressions/child-without-queries-connection-unauthorized"),
  ("RegressionAppsyncDirectivesOnModelTypesDropped", "regressions/appsync-directives-on-model-types-dropped"),
  ("RegressionDeclaredTimestampsReplacedOnSave", "regressions/declared-timestamps-replaced-on-save"),
  ("RegressionEmbeddedModelReferenceLoadedNil", "regressions/embedded-model-reference-loaded-nil"),
  ("RegressionRedactedHasManyClaimedNoChildren", "regressions/redacted-has-many-claimed-no-children"),
]

var targets: [Target] = [
  // MARK: Front end and generator
  // The vocabulary the generator and the runtime share (auth rules, scalars, the edit distance of
  // "did you mean" hints); LazyModel re-exports it.
  .target(name: "ModelVocabulary", swiftSettings: strict),
  .target(name: "GraphQLSDL", dependencies: ["ModelVocabulary"], swiftSettings: strict),
  // The generator's stages, one target each, so the compiler enforces their order (README,
  // "Generator architecture"): analysis cannot import an output stage, and the two outputs
  // (Swift files, API schema) cannot import each other.
  .target(name: "ModelGenIR", dependencies: ["GraphQLSDL", "ModelVocabulary"], swiftSettings: strict),
  .target(name: "ModelGenAPISchema", dependencies: ["ModelGenIR"], swiftSettings: strict),
  .target(name: "ModelGenTemplating", dependencies: ["ModelVocabulary"], swiftSettings: strict),
  .target(
    name: "ModelGenSwift", dependencies: ["ModelGenIR", "ModelGenTemplating", "ModelVocabulary"],
    swiftSettings: strict),
  .target(
    name: "ModelGen",
    dependencies: ["GraphQLSDL", "ModelGenIR", "ModelGenAPISchema", "ModelGenTemplating", "ModelGenSwift"],
    exclude: [],
    resources: [
      .embedInCode("Templates/embedded.mustache"), .embedInCode("Templates/enum.mustache"),
      .embedInCode("Templates/header.mustache"), .embedInCode("Templates/model.mustache"),
      .embedInCode("Templates/registry.mustache"), .embedInCode("Templates/schema.mustache"),
    ],
    swiftSettings: strict
  ),
  .target(name: "ModelGenCLI", dependencies: ["ModelGen", "ModelVocabulary", "GraphQLSDL"], swiftSettings: strict),
  .executableTarget(name: "modelgen", dependencies: ["ModelGenCLI"], swiftSettings: strict),

  // MARK: SwiftPM plugins (both run the modelgen executable)
  .plugin(
    name: "ModelGenPlugin",
    capability: .buildTool(),
    dependencies: ["modelgen"]
  ),
  .plugin(
    name: "GenerateModels",
    capability: .command(
      intent: .custom(
        verb: "generate-models",
        description: "Generate Swift models from the *.graphql schemas of the chosen targets into Generated/"),
      permissions: [
        .writeToPackageDirectory(reason: "generate-models writes the generated model files into the package")
      ]),
    dependencies: ["modelgen"]
  ),

  // MARK: Runtime
  .target(name: "LazyModel", dependencies: ["ModelVocabulary"], swiftSettings: strict),
  .systemLibrary(
    name: "CSQLite",
    pkgConfig: "sqlite3",
    providers: [.apt(["libsqlite3-dev"])]
  ),
  // LazyModelDataStore's sync engine (Sources/LazyModelDataStore/Sync) sends its outbox with LazyModelAPI.
  .target(name: "LazyModelDataStore", dependencies: ["LazyModel", "CSQLite", "LazyModelAPI"], swiftSettings: strict),
  .systemLibrary(
    name: "CCrypto",
    pkgConfig: "libcrypto",
    providers: [.apt(["libssl-dev"])]
  ),
  .systemLibrary(
    name: "CWebSockets",
    pkgConfig: "libwebsockets",
    providers: [.apt(["libwebsockets-dev"])]
  ),
  .target(
    name: "LazyModelAPI",
    dependencies: [
      "LazyModel",
      .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      .target(name: "CWebSockets", condition: .when(platforms: [.linux])),
    ],
    swiftSettings: strict),

  // MARK: Tests
  // Child processes for the tests, started with posix_spawn so that they get only descriptors
  // 0, 1 and 2, never with Foundation.Process, whose run() crashes the test process on Linux once
  // ~1,355 descriptors are open (Tests/ChildProcessSupport/ChildProcess.swift). CPosixSpawn shows
  // Swift the glibc file actions Swift's Glibc module hides (they need _GNU_SOURCE).
  .target(name: "CPosixSpawn", path: "Tests/CPosixSpawn"),
  .target(
    name: "ChildProcessSupport",
    dependencies: [.target(name: "CPosixSpawn", condition: .when(platforms: [.linux]))],
    path: "Tests/ChildProcessSupport",
    swiftSettings: strict),
  .testTarget(name: "ChildProcessSupportTests", dependencies: ["ChildProcessSupport"], swiftSettings: strict),
  .testTarget(name: "GraphQLSDLTests", dependencies: ["GraphQLSDL", "BenchmarkSupport"], swiftSettings: strict),
  .testTarget(
    name: "ModelGenTests",
    dependencies: [
      "ModelGen", "GraphQLSDL", "ModelGenIR", "ModelGenAPISchema", "ModelGenTemplating", "ModelGenSwift",
      // OutputManifest: GoldenFileTests records and checks each directory's manifest.
      "ModelGenCLI",
      // APISchemaServerCheckTests runs the local server's --check.
      "ChildProcessSupport",
    ],
    swiftSettings: strict),
  .testTarget(
    name: "ModelGenCLITests", dependencies: ["ModelGenCLI", "ModelVocabulary", "ChildProcessSupport"],
    swiftSettings: strict),
  .testTarget(
    name: "GeneratedModelsTests",
    dependencies: ["LazyModel", "LazyModelDataStore", "LazyModelAPI", "ChildProcessSupport"]
      + generatedModules.map { .target(name: $0.name) },
    swiftSettings: strict
  ),
  .testTarget(name: "LazyModelTests", dependencies: ["LazyModel"], swiftSettings: strict),
  .testTarget(
    name: "LazyModelDataStoreTests",
    dependencies: ["LazyModelDataStore", "LazyModel", "CSQLite", "DataStoreKillHelper", "ChildProcessSupport"]
      + generatedModules.map { .target(name: $0.name) },
    swiftSettings: strict
  ),
  // The child process the DataStore's SIGKILL test kills at random points.
  .executableTarget(
    name: "DataStoreKillHelper",
    dependencies: ["LazyModelDataStore", "SeedPostCommentModels"],
    path: "Tests/DataStoreKillHelper",
    swiftSettings: strict
  ),
  // Sync of the DataStore (outbox, outbound processor) against the local server.
  .testTarget(
    name: "LazyModelSyncTests",
    dependencies: [
      "LazyModelDataStore", "LazyModelAPI", "LazyModel", "SyncBlogModels", "SyncOwnerModels", "SyncFieldAuthModels",
      "SyncDeclaredTimestampsModels", "SyncKillHelper", "ChildProcessSupport",
    ],
    swiftSettings: strict
  ),
  // The child process the sync tests kill with SIGKILL while its outbox drains.
  .executableTarget(
    name: "SyncKillHelper",
    dependencies: ["LazyModelDataStore", "LazyModelAPI", "SyncBlogModels"],
    path: "Tests/SyncKillHelper",
    swiftSettings: strict
  ),
  .testTarget(
    name: "LazyModelAPITests",
    // Tour: built before the tests so TourRunTests can run it.
    dependencies: ["LazyModelAPI", "LazyModel", "Tour", "ChildProcessSupport"]
      + generatedModules.map { .target(name: $0.name) },
    swiftSettings: strict
  ),

  // MARK: The README tour as a program (`swift run Tour`; README "A five-minute tour")
  .executableTarget(
    name: "Tour",
    dependencies: ["LazyModel", "LazyModelDataStore", "LazyModelAPI", "SeedPostCommentModels"],
    path: "Examples/Tour",
    swiftSettings: strict
  ),

  // MARK: Benchmarks (release builds; each prints a table; see README "Benchmarks")
  .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport", swiftSettings: strict),
  .executableTarget(
    name: "SDLParseBenchmark",
    dependencies: ["GraphQLSDL", "BenchmarkSupport"],
    path: "Benchmarks/SDLParseBenchmark",
    swiftSettings: strict
  ),
  .executableTarget(
    name: "DiagnosticsBenchmark",
    dependencies: ["GraphQLSDL", "BenchmarkSupport"],
    path: "Benchmarks/DiagnosticsBenchmark",
    swiftSettings: strict
  ),
  .executableTarget(
    name: "GenerateBenchmark",
    dependencies: ["ModelGen", "ModelGenCLI", "BenchmarkSupport"],
    path: "Benchmarks/GenerateBenchmark",
    swiftSettings: strict
  ),
  .executableTarget(
    name: "DataStoreBenchmark",
    dependencies: ["LazyModelDataStore", "LazyModel", "CSQLite", "SeedPostCommentModels"],
    path: "Benchmarks/DataStoreBenchmark"
  ),
  .executableTarget(
    name: "APIBenchmark",
    dependencies: ["LazyModelAPI", "LazyModel", "SeedPostCommentModels", "BenchmarkSupport"],
    path: "Benchmarks/APIBenchmark"
  ),
  .executableTarget(
    name: "SubscriptionBenchmark",
    dependencies: ["LazyModelAPI", "LazyModel", "SeedPostCommentModels", "BenchmarkSupport"],
    path: "Benchmarks/SubscriptionBenchmark",
    swiftSettings: strict
  ),
  .executableTarget(
    name: "SyncBenchmark",
    dependencies: ["LazyModelDataStore", "LazyModelAPI", "LazyModel", "SyncBlogModels", "BenchmarkSupport", "CSQLite"],
    path: "Benchmarks/SyncBenchmark",
    swiftSettings: strict
  ),
  .executableTarget(
    name: "LazyModelBenchmark",
    dependencies: ["LazyModel", "BenchmarkSupport"],
    path: "Benchmarks/LazyModelBenchmark",
    swiftSettings: strict
  ),
]

/// Generated modules whose schema has no models, so `--emit api-schema` writes no API schema there.
let modulesWithoutAPISchema: Set<String> = ["regressions/schema-without-models"]

for module in generatedModules {
  targets.append(
    .target(
      name: module.name,
      dependencies: ["LazyModel"],
      path: "Generated/\(module.path)",
      exclude: modulesWithoutAPISchema.contains(module.path) ? [] : ["schema.api.graphql", "schema.local.json"],
      swiftSettings: strict
    )
  )
}

let package = Package(
  name: "modelgen",
  // Synchronization.Mutex (LazyModel, LazyModelDataStore) sets the floor: macOS 15, iOS 18,
  // tvOS 18, watchOS 11, visionOS 2. Linux CI checks the Apple side as README "Platforms" says.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "GraphQLSDL", targets: ["GraphQLSDL"]),
    .library(name: "ModelGen", targets: ["ModelGen"]),
    .library(name: "LazyModel", targets: ["LazyModel"]),
    .library(name: "LazyModelDataStore", targets: ["LazyModelDataStore"]),
    .library(name: "LazyModelAPI", targets: ["LazyModelAPI"]),
    .executable(name: "modelgen", targets: ["modelgen"]),
    .plugin(name: "ModelGenPlugin", targets: ["ModelGenPlugin"]),
    .plugin(name: "GenerateModels", targets: ["GenerateModels"]),
  ],
  targets: targets
)
