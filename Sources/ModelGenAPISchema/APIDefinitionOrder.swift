/// The definitions of the API schema in the order the Amplify GraphQL Transformer v2 prints them:
/// the order in which its transformers first add each type (`TransformerOutput.nodeMap` keeps
/// insertion order; a later change to a type keeps its place). A definition added again under a
/// name already placed is dropped, as the transformers' `if (!ctx.output.getType(name))` checks do.
///
/// A value; `Sendable`.
struct DefinitionOrder: Sendable {
  /// The root operation types, placed when the first model adds its fields to them.
  enum Root: String, Sendable {
    case query = "Query"
    case mutation = "Mutation"
    case subscription = "Subscription"
  }

  private enum Entry: Sendable {
    case block(String)
    case root(Root)
  }

  private var entries: [Entry] = []
  private var placed: Set<String> = []

  /// Places `block` unless a definition of that name is already placed.
  mutating func append(_ block: SDLBlock) {
    guard placed.insert(block.name).inserted else { return }
    entries.append(.block(block.rendered))
  }

  /// Places a definition printed elsewhere (a user's `input`, `interface` or `union` type) unless
  /// `name` is already placed.
  mutating func append(named name: String, rendered: String) {
    guard placed.insert(name).inserted else { return }
    entries.append(.block(rendered))
  }

  /// Places the root type `root` here unless it is already placed (its fields come at the end).
  mutating func appendRoot(_ root: Root) {
    guard placed.insert(root.rawValue).inserted else { return }
    entries.append(.root(root))
  }

  /// The rendered definitions; a root type without fields is left out.
  func rendered(roots: RootFields) -> [String] {
    entries.compactMap { entry in
      switch entry {
      case .block(let text):
        return text
      case .root(let root):
        let lines = roots.fields(of: root)
        return lines.isEmpty
          ? nil
          : SDLBlock(
            kind: .type, name: root.rawValue, interfaces: roots.interfaces[root] ?? [],
            directives: roots.directives[root] ?? [], lines: lines
          ).rendered
      }
    }
  }
}

/// The fields of the root operation types, in the order the transformers add them: each model's
/// `get`/`list`/`sync`, mutations and subscriptions (model transformer), then the index queries
/// (index transformer). A value; `Sendable`.
struct RootFields: Sendable {
  var query: [String] = []
  var mutation: [String] = []
  var subscription: [String] = []
  /// The AppSync directives the user wrote on each root type (``CustomRootType/directives``).
  var directives: [DefinitionOrder.Root: [String]] = [:]
  /// The interfaces the user's root types implement (``CustomRootType/interfaces``).
  var interfaces: [DefinitionOrder.Root: [String]] = [:]

  /// Appends `lines` to the fields of `root`.
  mutating func append(_ lines: [String], to root: DefinitionOrder.Root) {
    switch root {
    case .query: query += lines
    case .mutation: mutation += lines
    case .subscription: subscription += lines
    }
  }

  func fields(of root: DefinitionOrder.Root) -> [String] {
    switch root {
    case .query: query
    case .mutation: mutation
    case .subscription: subscription
    }
  }
}
