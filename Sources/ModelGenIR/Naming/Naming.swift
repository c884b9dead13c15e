import GraphQLSDL
import ModelVocabulary

/// Name helpers that mirror the Amplify transformer's string functions.
package enum Naming {
  /// Amplify's `toCamelCase(words)`: the first word with its first character lower-cased, the others
  /// with their first character upper-cased, concatenated (`["Post", "comments", "id"]` → `postCommentsId`).
  static func camelCase(_ words: [String]) -> String {
    words.enumerated().map { index, word in
      index == 0 ? lowercasingFirst(word) : uppercasingFirst(word)
    }.joined()
  }

  /// `title` → `Title`.
  static func uppercasingFirst(_ word: String) -> String {
    word.prefix(1).uppercased() + word.dropFirst()
  }

  /// `Post` → `post`.
  static func lowercasingFirst(_ word: String) -> String {
    word.prefix(1).lowercased() + word.dropFirst()
  }

  /// The candidate closest to `name` by edit distance (case-insensitive equality counts as closest,
  /// a prefix relation as one edit), when it is close enough to be a likely typo: at most one edit
  /// per three characters, minimum one. Ties go to the earlier candidate.
  /// Names longer than `maximumTypoLength` (128 bytes) get no suggestion and are never suggested.
  static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
    guard name.utf8.count <= maximumTypoLength else { return nil }
    let lowered = name.lowercased()
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name && candidate.utf8.count <= maximumTypoLength {
      let other = candidate.lowercased()
      let distance =
        other == lowered
        ? 0
        : (other.hasPrefix(lowered) || lowered.hasPrefix(other)) && min(other.count, lowered.count) >= 3
          ? 1 : editDistance(lowered, other)
      if best == nil || distance < best!.distance {
        best = (candidate, distance)
      }
    }
    guard let best, best.distance <= max(1, name.count / 3) else { return nil }
    return best.name
  }

  /// The candidate closest to `word` (lower-cased) by edit distance, when at most 2 edits away;
  /// ties go to the earlier candidate. For small fixed vocabularies: template names, config keys.
  package static func closest(to word: String, among candidates: [String]) -> String? {
    guard word.utf8.count <= maximumTypoLength else { return nil }
    let lowered = word.lowercased()
    return candidates.filter { $0.utf8.count <= maximumTypoLength }.map { ($0, editDistance(lowered, $0)) }
      .filter { $0.1 <= 2 }
      .min { $0.1 < $1.1 }?.0
  }
}
