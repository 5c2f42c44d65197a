// What the server sends is bounded whatever the document holds: a title of megabytes is cut to a
// label, and a chain of 100,000 items nests no reply deeper than a client's JSON decoder reads.
// The decoders the editors use refuse deep nesting: Rust's serde_json (Helix, Zed) at 128
// levels, Foundation's JSONSerialization at 512, Neovim's lua-cjson at 1,000, Python's json near
// its recursion limit of 1,000. Every message stays within ``ReplyLimits/jsonDepth``, its
// envelope included.

import OutlineCore

/// The bounds of every reply and notification the server sends.
enum ReplyLimits {
  /// The deepest nesting of objects and arrays in any message the server sends, counting the
  /// message object itself as 1: under serde_json's 128, the strictest decoder of the editors.
  static let jsonDepth = 100

  /// The deepest level of nested document symbols (the root's children are level 1): a
  /// symbol at this level lists every item of its subtree as its own children, flat. Level
  /// `n` of a reply is at JSON depth `2n + 1`, its range's positions at `2n + 3`, one more in
  /// a `$/progress` batch: the flat children stay at most 86 deep.
  static let symbolLevels = 40

  /// The most ranges in one position's selection chain (a `parent` nests one level
  /// deeper each): the innermost ones and, last, the whole text.
  static let selectionRanges = 90

  /// The most characters of document text one label quotes: a symbol's name or detail, a
  /// fold's collapsed text, a completion's label. Longer text is cut after them with `...`.
  static let labelCharacters = 200

  /// The most characters of any one string of a reply (a hover's text, with its labels
  /// quoted at ``Excerpt/limit``): longer text is cut at a line with `...`.
  static let textCharacters = 8192

  /// `text` cut after ``labelCharacters`` characters with `...`.
  static func label(_ text: String) -> String {
    guard text.utf8.count > labelCharacters else { return text }
    return Excerpt.truncated(text, limit: labelCharacters)
  }

  /// Cuts the UTF-8 text `bytes[from...]` after `limit` characters (Unicode scalars), with `...`.
  static func cut(_ bytes: inout [UInt8], from start: Int = 0, limit: Int = labelCharacters) {
    // A character is at least one byte: text of no more bytes than that is never cut.
    guard bytes.count - start > limit else { return }
    var characters = 0
    for index in start..<bytes.count where bytes[index] & 0xC0 != 0x80 {
      if characters == limit {
        bytes.removeSubrange(index...)
        bytes += Array("...".utf8)
        return
      }
      characters += 1
    }
  }

  /// `text` cut at its last line end within ``textCharacters`` characters, with `...`.
  static func text(_ text: String) -> String {
    guard text.utf8.count > textCharacters, text.unicodeScalars.count > textCharacters else { return text }
    let prefix = String(text.unicodeScalars.prefix(textCharacters - 4))
    guard let lineEnd = prefix.lastIndex(of: "\n") else { return prefix + "..." }
    return String(prefix[..<lineEnd]) + "\n..."
  }
}
