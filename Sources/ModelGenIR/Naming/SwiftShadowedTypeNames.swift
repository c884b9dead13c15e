/// The type names a generated type must not take because it would shadow them in the app's module,
/// by where each comes from (``SwiftNames/shadowedTypeNameSources`` joins them). A model, enum or
/// non-model type named like one of them would take its place for every unqualified use in the app
/// (`Task { … }`, `let path: KeyPath<Post, String>`, `DataStore(…)` would name the generated type).
///
/// How each list was made, so it can be brought up to date with a new toolchain or runtime:
/// - ``standardLibrary``: every public, top-level, non-underscored and non-deprecated type,
///   protocol and type alias of the `Swift` module (Swift 6.3: `swift-symbolgraph-extract
///   -module-name Swift -minimum-access-level public`, the symbols with one path component).
/// - ``concurrency``: the same for `_Concurrency` and `_StringProcessing` (`Regex`), the modules
///   every Swift file imports implicitly (from their `.swiftinterface`), without the deprecated
///   `Job`, `PartialAsyncTask` and `AnyActor`.
/// - ``foundation``: every such type of `FoundationEssentials` (the value types: `Date`, `Data`,
///   `URL`, `UUID`, `Predicate`, …), and the classes and protocols of `Foundation` and
///   `FoundationNetworking` that apps commonly write unqualified (`NSObject`, `DateFormatter`,
///   `Notification`, `Timer`, `URLSession`, …); not the rarely used ones (``keptFoundationNames``:
///   `Host`, `Port`, `Unit`, `Process`, …), so common model names (`Unit`, `Process`, `Stream`)
///   stay as written.
/// - ``dispatch`` and ``observation``: every public type of `Dispatch` and `Observation`.
/// - ``runtime``: every public top-level type of `LazyModel` (with `ModelVocabulary`, which it
///   re-exports), `LazyModelAPI` and `LazyModelDataStore`, and the module names themselves (a type
///   `LazyModelAPI` would break `LazyModelAPI.APIClient`). `RuntimeShadowListTests` scans
///   `Sources/LazyModel*/` and `Sources/ModelVocabulary/` and fails when a public type is missing.
enum SwiftShadowedTypeNames {
  /// The `Swift` module's public types and protocols.
  static let standardLibrary: [String] = [
    "AdditiveArithmetic", "AnyBidirectionalCollection", "AnyClass", "AnyCollection", "AnyHashable", "AnyIndex",
    "AnyIterator", "AnyKeyPath", "AnyObject", "AnyRandomAccessCollection", "AnySequence", "Array", "ArraySlice",
    "BidirectionalCollection", "BinaryFloatingPoint", "BinaryInteger", "BitwiseCopyable", "Bool",
    "BooleanLiteralType", "CBool", "CChar", "CChar16", "CChar32", "CChar8", "CDouble", "CFloat", "CFloat16",
    "CInt", "CLong", "CLongDouble", "CLongLong", "CShort", "CSignedChar", "CUnsignedChar", "CUnsignedInt",
    "CUnsignedLong", "CUnsignedLongLong", "CUnsignedShort", "CVaListPointer", "CVarArg", "CWideChar",
    "CaseIterable", "Character", "ClosedRange", "Codable", "CodingKey", "CodingKeyRepresentable",
    "CodingUserInfoKey", "Collection", "CollectionDifference", "CollectionOfOne", "CommandLine", "Comparable",
    "ContiguousArray", "Copyable", "CountableClosedRange", "CountablePartialRangeFrom", "CountableRange",
    "CustomDebugStringConvertible", "CustomLeafReflectable", "CustomPlaygroundDisplayConvertible",
    "CustomReflectable", "CustomStringConvertible", "Decodable", "Decoder", "DecodingError", "DefaultIndices",
    "DefaultStringInterpolation", "Dictionary", "DictionaryIndex", "DictionaryIterator", "DiscontiguousSlice",
    "Double", "DropFirstSequence", "DropWhileSequence", "Duration", "DurationProtocol", "EmptyCollection",
    "Encodable", "Encoder", "EncodingError", "EnumeratedSequence", "Equatable", "Error", "Escapable",
    "ExpressibleByArrayLiteral", "ExpressibleByBooleanLiteral", "ExpressibleByDictionaryLiteral",
    "ExpressibleByExtendedGraphemeClusterLiteral", "ExpressibleByFloatLiteral", "ExpressibleByIntegerLiteral",
    "ExpressibleByNilLiteral", "ExpressibleByStringInterpolation", "ExpressibleByStringLiteral",
    "ExpressibleByUnicodeScalarLiteral", "ExtendedGraphemeClusterType", "FixedWidthInteger", "FlattenCollection",
    "FlattenSequence", "Float", "Float16", "Float32", "Float64", "Float80", "FloatLiteralType", "FloatingPoint",
    "FloatingPointClassification", "FloatingPointRoundingRule", "FloatingPointSign", "Hashable", "Hasher",
    "Identifiable", "IndexingIterator", "InlineArray", "InstantProtocol", "Int", "Int128", "Int16", "Int32",
    "Int64", "Int8", "IntegerLiteralType", "IteratorProtocol", "IteratorSequence", "JoinedSequence", "KeyPath",
    "KeyValuePairs", "KeyedDecodingContainer", "KeyedDecodingContainerProtocol", "KeyedEncodingContainer",
    "KeyedEncodingContainerProtocol", "LazyCollection", "LazyCollectionProtocol", "LazyDropWhileCollection",
    "LazyDropWhileSequence", "LazyFilterCollection", "LazyFilterSequence", "LazyMapCollection", "LazyMapSequence",
    "LazyPrefixWhileCollection", "LazyPrefixWhileSequence", "LazySequence", "LazySequenceProtocol",
    "LosslessStringConvertible", "ManagedBuffer", "ManagedBufferPointer", "MemoryLayout", "Mirror", "MirrorPath",
    "MutableCollection", "MutableRawSpan", "MutableSpan", "Never", "Numeric", "ObjectIdentifier", "OpaquePointer",
    "OptionSet", "Optional", "OutputRawSpan", "OutputSpan", "PartialKeyPath", "PartialRangeFrom",
    "PartialRangeThrough", "PartialRangeUpTo", "PrefixSequence", "RandomAccessCollection", "RandomNumberGenerator",
    "Range", "RangeExpression", "RangeReplaceableCollection", "RangeSet", "RawRepresentable", "RawSpan",
    "ReferenceWritableKeyPath", "Repeated", "Result", "ReversedCollection", "SIMD", "SIMD16", "SIMD2", "SIMD3",
    "SIMD32", "SIMD4", "SIMD64", "SIMD8", "SIMDMask", "SIMDScalar", "SIMDStorage", "Sendable", "SendableMetatype",
    "Sequence", "Set", "SetAlgebra", "SetIndex", "SetIterator", "SignedInteger", "SignedNumeric",
    "SingleValueDecodingContainer", "SingleValueEncodingContainer", "Slice", "Span", "StaticBigInt",
    "StaticString", "StrideThrough", "StrideThroughIterator", "StrideTo", "StrideToIterator", "Strideable",
    "String", "StringInterpolationProtocol", "StringLiteralType", "StringProtocol", "Substring",
    "SystemRandomNumberGenerator", "TextOutputStream", "TextOutputStreamable", "UInt", "UInt128", "UInt16",
    "UInt32", "UInt64", "UInt8", "UTF16", "UTF32", "UTF8", "UTF8Span", "UnboundedRange", "UnfoldFirstSequence",
    "UnfoldSequence", "Unicode", "UnicodeCodec", "UnicodeDecodingResult", "UnicodeScalar", "UnicodeScalarType",
    "UnkeyedDecodingContainer", "UnkeyedEncodingContainer", "Unmanaged", "UnsafeBufferPointer",
    "UnsafeMutableBufferPointer", "UnsafeMutablePointer", "UnsafeMutableRawBufferPointer",
    "UnsafeMutableRawPointer", "UnsafePointer", "UnsafeRawBufferPointer", "UnsafeRawPointer", "UnsignedInteger",
    "Void", "WritableKeyPath", "Zip2Sequence",
  ]

  /// The public types of `_Concurrency` and `_StringProcessing`.
  static let concurrency: [String] = [
    "Actor", "AnyRegexOutput", "AsyncCompactMapSequence", "AsyncDropFirstSequence", "AsyncDropWhileSequence",
    "AsyncFilterSequence", "AsyncFlatMapSequence", "AsyncIteratorProtocol", "AsyncMapSequence",
    "AsyncPrefixSequence", "AsyncPrefixWhileSequence", "AsyncSequence", "AsyncStream",
    "AsyncThrowingCompactMapSequence", "AsyncThrowingDropWhileSequence", "AsyncThrowingFilterSequence",
    "AsyncThrowingFlatMapSequence", "AsyncThrowingMapSequence", "AsyncThrowingPrefixWhileSequence",
    "AsyncThrowingStream", "CancellationError", "CheckedContinuation", "Clock", "ContinuousClock",
    "CustomConsumingRegexComponent", "DiscardingTaskGroup", "Executor", "ExecutorJob", "GlobalActor",
    "JobPriority", "MainActor", "Regex", "RegexComponent", "RegexRepetitionBehavior", "RegexSemanticLevel",
    "RegexWordBoundaryKind", "SerialExecutor", "SuspendingClock", "Task", "TaskExecutor", "TaskGroup", "TaskLocal",
    "TaskPriority", "ThrowingDiscardingTaskGroup", "ThrowingTaskGroup", "UnownedJob", "UnownedSerialExecutor",
    "UnownedTaskExecutor", "UnsafeContinuation", "UnsafeCurrentTask", "UnsafeThrowingContinuation",
  ]

  /// `FoundationEssentials`, and the common types of `Foundation` and `FoundationNetworking`.
  static let foundation: [String] = [
    "AttributeContainer", "AttributeDynamicLookup", "AttributeScope", "AttributeScopeCodableConfiguration",
    "AttributeScopes", "AttributedString", "AttributedStringAttributeMutation", "AttributedStringKey",
    "AttributedStringProtocol", "AttributedSubstring", "Bundle", "ByteCountFormatter", "CGFloat", "CGPoint",
    "CGRect", "CGSize", "Calendar", "CharacterSet", "CocoaError", "CodableAttributedStringKey",
    "CodableConfiguration", "CodableWithConfiguration", "ComparableComparator", "ComparisonResult",
    "ContiguousBytes", "CustomNSError", "Data", "DataProtocol", "Date", "DateComponents", "DateFormatter",
    "DateInterval", "DateIntervalFormatter", "Decimal", "DecodableAttributedStringKey",
    "DecodableWithConfiguration", "DecodingConfigurationProviding", "DiscontiguousAttributedSubstring",
    "DiscreteFormatStyle", "EncodableAttributedStringKey", "EncodableWithConfiguration",
    "EncodingConfigurationProviding", "Expression", "FileAttributeKey", "FileAttributeType", "FileHandle",
    "FileManager", "FileManagerDelegate", "FileProtectionType", "FormatStyle", "Formatter", "Foundation",
    "FoundationEssentials", "FoundationNetworking", "HTTPCookie", "HTTPCookieStorage", "HTTPURLResponse",
    "ISO8601DateFormatter", "IndexPath", "IndexSet", "JSONDecoder", "JSONEncoder", "JSONSerialization",
    "KeyPathComparator", "Locale", "LocalizedError", "MarkdownDecodableAttributedStringKey", "Measurement",
    "MutableDataProtocol", "NSArray", "NSAttributedString", "NSCache", "NSCoder", "NSCoding", "NSCondition",
    "NSCopying", "NSData", "NSDate", "NSDecimalNumber", "NSDictionary", "NSError", "NSLock", "NSMutableArray",
    "NSMutableDictionary", "NSMutableString", "NSNull", "NSNumber", "NSObject", "NSPredicate", "NSRange",
    "NSRecursiveLock", "NSRegularExpression", "NSSecureCoding", "NSSet", "NSSortDescriptor", "NSString", "NSURL",
    "NSUUID", "NSValue", "Notification", "NotificationCenter", "NumberFormatter", "OperatingSystemVersion",
    "Operation", "OperationQueue", "POSIXError", "ParseStrategy", "ParseableFormatStyle", "PersonNameComponents",
    "Predicate", "PredicateBindings", "PredicateError", "PredicateExpression", "PredicateExpressions",
    "ProcessInfo", "Progress", "PropertyListDecoder", "PropertyListEncoder", "PropertyListSerialization",
    "RecoverableError", "RunLoop", "ScopedAttributeContainer", "SortComparator", "SortDescriptor", "SortOrder",
    "StandardPredicateExpression", "Thread", "TimeInterval", "TimeZone", "Timer", "URL",
    "URLAuthenticationChallenge", "URLCache", "URLComponents", "URLCredential", "URLError", "URLProtocol",
    "URLQueryItem", "URLRequest", "URLResourceKey", "URLResponse", "URLSession", "URLSessionConfiguration",
    "URLSessionDataTask", "URLSessionDelegate", "URLSessionDownloadTask", "URLSessionTask", "URLSessionUploadTask",
    "URLSessionWebSocketTask", "UUID", "UserDefaults",
  ]

  /// The public types of `Dispatch` (`swift-symbolgraph-extract -module-name Dispatch`, Swift 6.3
  /// on Linux, and the five Darwin-only sources `DispatchSourceProcess`, `…FileSystemObject`,
  /// `…MachSend`, `…MachReceive`, `…MemoryPressure`): apps write `DispatchQueue.main.async { … }`
  /// unqualified, which a model named `DispatchQueue` in the app's module breaks (checked with
  /// swiftc: "type 'DispatchQueue' has no member 'main'").
  static let dispatch: [String] = [
    "DispatchData", "DispatchDataIterator", "DispatchGroup", "DispatchIO", "DispatchObject", "DispatchPredicate",
    "DispatchQoS", "DispatchQueue", "DispatchSemaphore", "DispatchSource", "DispatchSourceFileSystemObject",
    "DispatchSourceHandler", "DispatchSourceMachReceive", "DispatchSourceMachSend", "DispatchSourceMemoryPressure",
    "DispatchSourceProcess", "DispatchSourceProtocol", "DispatchSourceRead", "DispatchSourceSignal",
    "DispatchSourceTimer", "DispatchSourceUserDataAdd", "DispatchSourceUserDataOr", "DispatchSourceUserDataReplace",
    "DispatchSourceWrite", "DispatchSpecificKey", "DispatchTime", "DispatchTimeInterval", "DispatchTimeoutResult",
    "DispatchWallTime", "DispatchWorkItem", "DispatchWorkItemFlags",
  ]

  /// The public types of `Observation` (the same extraction): SwiftUI apps write `Observable`
  /// unqualified (`some Observable`, `any Observable`), and the name is rare for a model.
  static let observation: [String] = ["Observable", "ObservationRegistrar", "Observations"]

  /// Foundation types deliberately **not** shadowed, though a model of the name shadows them in the
  /// app's module (README, "Swift names"): the generated module compiles with each, and an app
  /// that imports Foundation and the models writes the Foundation type qualified
  /// (`Foundation.Process()`), as only command-line and stream code uses these; renaming a model
  /// `Process`, `Unit` or `Stream` (common model names) to `ProcessType` costs every app that
  /// uses the model. `SwiftNameSetsTests` and `ShadowDecisionTests` pin the decision.
  static let keptFoundationNames: [String] = [
    "Host", "InputStream", "OutputStream", "Pipe", "Port", "Process", "Scanner", "Selector", "Stream", "Unit",
  ]

  /// The public types of the runtime modules, by module.
  static let runtime: [(module: String, names: [String])] = [
    (
      "LazyModel",
      [
        "APITypeNames", "AnyCodingKey", "AnyQueryPredicate", "AuthRule", "BatchLoadError", "Embeddable",
        "EmbeddedSchema",
        "GraphQLScalar", "IdentifierComponent", "IdentifierComponentError", "InMemoryModelStore",
        "InMemoryModelStoreError", "JSONValue", "KeyValue", "KeyValueConvertible", "LazyList", "LazyModel",
        "LazyModelError", "LazyModelRuntimeVersion", "LazyReference", "Model", "ModelAssociation",
        "ModelAssociationKey",
        "ModelDecodingContext", "ModelField", "ModelFieldKey", "ModelFieldType", "ModelGenRelease",
        "ModelIdentifier", "ModelIdentifierParseError", "ModelIdentifierProtocol", "ModelIndex", "ModelIndexKey",
        "ModelKey", "ModelCompositeSortKey", "ModelNoSortKey",
        "ModelListProvider", "ModelOperationNames", "ModelPage", "ModelPath", "ModelProvider", "ModelRegistry",
        "ModelSchema", "ModelTimestampFields", "ModelVocabulary", "QueryOperator", "QueryPredicate",
        "SharedModelProvider", "StringFilterable", "SubscriptionLevel", "Temporal", "TemporalError", "TemporalScalar",
        "TypenameCheckedModel",
        "TypenameMismatch",
      ]
    ),
    (
      "LazyModelAPI",
      [
        "APIClient", "APIError", "APIListProvider", "APIModelDecodingContext", "APIReferenceProvider",
        "AWSCredentials", "AuthorizationError", "AuthorizationMode", "AuthorizationRequest", "AuthorizationStrategy",
        "GraphQLError", "GraphQLFilter", "GraphQLOperationType", "GraphQLRequest", "GraphQLRequestRecord",
        "GraphQLResponse", "GraphQLSubscriptionEvent", "GraphQLValue", "LazyModelAPI", "ModelConnection",
        "ModelDocument", "ModelListPage", "ModelListSequence", "ModelMutationKind", "ModelMutations", "ModelQueries",
        "ModelSortDirection", "ModelSortKeyCondition", "ModelSubscription", "ModelSubscriptionKind",
        "ModelSubscriptions", "RealtimeError", "SigV4Signer", "SortKeyCondition", "SubscriptionEvent",
      ]
    ),
    (
      "LazyModelDataStore",
      [
        "DataStore", "DataStoreChange", "DataStoreChangeSource", "DataStoreDecodingContext", "DataStoreError",
        "DataStoreEvent", "DataStoreListProvider", "DataStoreReferenceProvider", "LazyModelDataStore",
        "ModelSyncedEvent", "PendingMutation", "QueryInclude", "QuerySnapshot", "QuerySort", "ReadTransaction",
        "SyncConfiguration", "SyncConflict", "SyncConflictResolution", "SyncConflictRetryMismatch", "SyncError",
        "SyncEvent", "SyncExpression", "SyncExpressionError", "SyncInboundError", "SyncMetadata", "SyncMutationKind",
        "SyncRetryPolicy", "WriteTransaction",
      ]
    ),
  ]
}
