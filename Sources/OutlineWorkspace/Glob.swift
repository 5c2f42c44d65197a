// The globs of `.outline.json` (`models` and `exclude`), matched against a path character by character.

/// Glob matching for `models` and `exclude`: `*` any characters within a
/// path segment, `?` one character other than `/`, `**` any characters
/// across segments (`**/` nothing or anything that ends with `/`); nothing
/// else is special. A character is a Unicode scalar; in a path that is not
/// UTF-8 each byte that is not part of a character counts as one character,
/// which `?` and `*` match and no character of the pattern equals.
///
/// The pattern is run as a set of positions over the path, one step a
/// character: time is the path's length times the pattern's, whatever the
/// stars, and nothing backtracks.
public enum Glob {
  /// Whether `path` (relative, `/`-separated) matches `pattern`.
  public static func matches(_ pattern: String, _ path: String) -> Bool {
    run(Pattern(pattern), path.unicodeScalars.lazy.map(\.value))
  }

  /// Whether `path`, a relative `/`-separated path as bytes that need not be UTF-8, matches `pattern`.
  public static func matches(_ pattern: String, bytes path: some Collection<UInt8>) -> Bool {
    run(Pattern(pattern), characters(of: path))
  }

  /// The characters of `bytes`: the value of each Unicode scalar in UTF-8, and for each byte
  /// of what is not UTF-8 a value above every scalar's (`0x110000` plus the byte).
  static func characters(of bytes: some Collection<UInt8>) -> [UInt32] {
    let bytes = Array(bytes)
    var result: [UInt32] = []
    result.reserveCapacity(bytes.count)
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        result.append(Unicode.UTF8.decode(encoded).value)
        offset += encoded.count
      case .error(let length):
        for byte in bytes[offset..<offset + length] { result.append(0x11_0000 + UInt32(byte)) }
        offset += length
      case .emptyInput:
        return result
      }
    }
  }

  private static let slash = UInt32(UInt8(ascii: "/"))

  /// One piece of a pattern.
  enum Token: Equatable {
    /// This character.
    case character(UInt32)
    /// `?`: one character other than `/`.
    case one
    /// `*`: any characters other than `/`.
    case star
    /// `**` not followed by `/`: any characters.
    case anything
    /// `**/`: nothing, or any characters that end with `/`.
    case folders
  }

  struct Pattern {
    var tokens: [Token] = []

    init(_ text: String) {
      let scalars = Array(text.unicodeScalars.lazy.map(\.value))
      var index = 0
      let star = UInt32(UInt8(ascii: "*"))
      while index < scalars.count {
        let scalar = scalars[index]
        if scalar == star && index + 1 < scalars.count && scalars[index + 1] == star {
          if index + 2 < scalars.count && scalars[index + 2] == Glob.slash {
            tokens.append(.folders)
            index += 3
          } else {
            tokens.append(.anything)
            index += 2
          }
        } else if scalar == star {
          tokens.append(.star)
          index += 1
        } else if scalar == UInt32(UInt8(ascii: "?")) {
          tokens.append(.one)
          index += 1
        } else {
          tokens.append(.character(scalar))
          index += 1
        }
      }
    }
  }

  /// Whether `pattern` matches the whole of `path`: the positions in the pattern reached after
  /// each character (position `i`: the first `i` tokens matched), with the stars' empty matches;
  /// `inside[i]`: within the `**/` at `i`, past its start, waiting for a `/` to end it.
  private static func run(_ pattern: Pattern, _ path: some Sequence<UInt32>) -> Bool {
    let tokens = pattern.tokens
    var current = [Bool](repeating: false, count: tokens.count + 1)
    var next = current
    var inside = [Bool](repeating: false, count: tokens.count)
    var insideNext = inside
    current[0] = true
    closeOverEmpty(&current, tokens)
    for character in path {
      for index in next.indices { next[index] = false }
      for index in insideNext.indices { insideNext[index] = false }
      for (index, token) in tokens.enumerated() where current[index] || inside[index] {
        switch token {
        case .character(let expected):
          if character == expected { next[index + 1] = true }
        case .one:
          if character != slash { next[index + 1] = true }
        case .star:
          if character != slash { next[index] = true }
        case .anything:
          next[index] = true
        case .folders:
          insideNext[index] = true
          if character == slash { next[index + 1] = true }
        }
      }
      closeOverEmpty(&next, tokens)
      // Nothing left alive: no longer path can match either.
      if !next.contains(true) && !insideNext.contains(true) { return false }
      swap(&current, &next)
      swap(&inside, &insideNext)
    }
    return current[tokens.count]
  }

  /// Adds the positions reached by the stars' empty matches, front to back.
  private static func closeOverEmpty(_ states: inout [Bool], _ tokens: [Token]) {
    for (index, token) in tokens.enumerated() where states[index] {
      switch token {
      case .star, .anything, .folders: states[index + 1] = true
      case .character, .one: break
      }
    }
  }
}
