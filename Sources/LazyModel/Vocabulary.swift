// The vocabulary the runtime shares with the generator (`AuthRule`, `GraphQLScalar`): generated
// code imports only `LazyModel` and sees it.
@_exported import ModelVocabulary
