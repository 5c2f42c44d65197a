// A long string value (a document's text in a `didOpen`) checked and decoded in one pass over its bytes,
// straight into the array that keeps it, on two cores when it is large: ``JSONValue/parse(_:maximumDepth:)``
// reads messages with it. The bytes and errors are those of ``JSONReader/nextToken()`` and
// ``JSONReader/utf8(_:)`` one after the other.

import Dispatch
import OutlineCore

extension JSONReader {
  /// The next token, as ``nextToken()``; when it is a string value of more
  /// than `longString` bytes, its contents come with it, decoded.
  mutating func nextToken(decodingLongerThan longString: Int) throws(JSONSyntaxError) -> (
    JSONToken, [UInt8]?
  )? {
    if expect == .colon {
      // The colon after a key (anything else is for nextToken() to refuse).
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
        index += 1
        expect = .value
      }
    }
    if expect == .value || expect == .valueOrEnd {
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "\""), Self.isLong(bytes, quote: index, longString)
      {
        let start = index
        let (decoded, closing) = try Self.decodeString(bytes, quote: start)
        index = closing + 1
        range = TextRange(start: start, end: index)
        afterValue()
        return (JSONToken(kind: .string, range: range, hasEscapes: true), decoded)
      }
    }
    return try nextToken().map { ($0, nil) }
  }

  /// Whether the string at `quote` runs past `longString` bytes (a string that
  /// ends sooner, or is malformed sooner, is read the usual way).
  private static func isLong(_ bytes: UnsafeBufferPointer<UInt8>, quote: Int, _ longString: Int) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let limit = min(bytes.count, quote + 1 + longString)
    var at = quote + 1
    while true {
      at = plainRun(base, from: at, to: limit)
      guard at < limit else { return limit < bytes.count }
      guard base[at] == UInt8(ascii: "\\") else { return false }  // the end, or a control character
      at += 2
    }
  }

  /// Bytes of a long string decoded serially before it is split.
  static let serialBytes = 1 << 20
  /// A string with at least this many bytes left after the serial part is split in two.
  static let splitBytes = 8 << 20

  /// Checks and decodes the string whose opening quote is at `quote`; returns
  /// its contents and where its closing quote is.
  static func decodeString(_ bytes: UnsafeBufferPointer<UInt8>, quote: Int) throws(JSONSyntaxError) -> (
    [UInt8], Int
  ) {
    let count = bytes.count
    let first = quote + 1
    var failure: JSONSyntaxError?
    var closing = -1
    // Decoding never lengthens text: the rest of the bytes is room enough.
    let decoded = [UInt8](unsafeUninitializedCapacity: count - first) { out, written in
      written = 0
      guard let base = bytes.baseAddress, let target = out.baseAddress else {
        failure = JSONSyntaxError(message: "Unterminated string", offset: quote)
        return
      }
      var at = first
      var stop = min(count, first + serialBytes)
      while true {
        let run = decode(base, count: count, quote: quote, from: at, stop: stop, into: target + written)
        written += run.written
        switch run.outcome {
        case .failed(let error):
          failure = error
          return
        case .ended(let end):
          closing = end
          return
        case .reached(let reached):
          at = reached
        }
        if at >= count {
          failure = JSONSyntaxError(message: "Unterminated string", offset: quote)
          return
        }
        if count - at >= splitBytes, let split = boundary(base, after: at + (count - at) / 2, before: count) {
          // The second half is decoded on another core at its own offset (never
          // before where it belongs), then moved down behind the first.
          let halves = Halves()
          let source = UnsafeSendable(base)
          let destination = UnsafeSendable(target)
          let (written0, from) = (written, at)
          DispatchQueue.concurrentPerform(iterations: 2) { half in
            if half == 0 {
              halves.first = decode(
                source.pointer, count: count, quote: quote, from: from, stop: split,
                into: destination.pointer + written0)
            } else {
              halves.second = decode(
                source.pointer, count: count, quote: quote, from: split, stop: count,
                into: destination.pointer + (split - first))
            }
          }
          written += halves.first.written
          switch halves.first.outcome {
          case .failed(let error):
            failure = error
            return
          case .ended(let end):
            closing = end
            return
          case .reached(let reached) where reached == split:
            // The string runs past the split, which is then a boundary between two characters.
            switch halves.second.outcome {
            case .failed(let error):
              failure = error
              return
            case .ended(let end):
              memmove(target + written, target + (split - first), halves.second.written)
              written += halves.second.written
              closing = end
              return
            case .reached:
              failure = JSONSyntaxError(message: "Unterminated string", offset: quote)
              return
            }
          case .reached(let reached):
            at = reached  // not a boundary after all (cannot happen inside a string): go on alone
          }
        }
        stop = count
      }
    }
    if let failure { throw failure }
    // Room for the rest of the message, when much more than the string
    // needed (many long strings in one message), is not kept: the string moves to an array of its size.
    guard decoded.capacity - decoded.count > max(decoded.count / 8, 1 << 16) else {
      return (decoded, closing)
    }
    let fitted = [UInt8](unsafeUninitializedCapacity: decoded.count) { out, written in
      written = out.initialize(fromContentsOf: decoded)
    }
    return (fitted, closing)
  }

  /// How a stretch of a string's bytes ended.
  enum Outcome {
    /// At the closing quote, at this offset.
    case ended(Int)
    /// At `stop` (or just past it, after an escape that straddles it), at this offset.
    case reached(Int)
    case failed(JSONSyntaxError)
  }

  /// Checks and decodes the string bytes from `from` until the closing quote
  /// or `stop`, writing to `target`; errors as ``scanString()`` reports them.
  static func decode(
    _ base: UnsafePointer<UInt8>, count: Int, quote: Int, from: Int, stop: Int,
    into target: UnsafeMutablePointer<UInt8>
  ) -> (outcome: Outcome, written: Int) {
    var at = from
    var written = 0
    func fail(_ message: String, _ offset: Int) -> (outcome: Outcome, written: Int) {
      (.failed(JSONSyntaxError(message: message, offset: offset)), written)
    }
    while true {
      // Plain bytes eight at a time, each word stored whole while it fits
      // before `stop` (its bytes after a quote or backslash are written over).
      var found = false
      while at + 8 <= stop {
        let word = WordScan.load(base + at)
        UnsafeMutableRawPointer(target + written).storeBytes(of: word, as: UInt64.self)
        let hits = WordScan.equal(word, 0x22) | WordScan.equal(word, 0x5C) | WordScan.below(word, 0x20)
        if hits != 0 {
          // The lowest flagged byte is a true one (the tests' false hits come after it).
          let plain = hits.trailingZeroBitCount >> 3
          at += plain
          written += plain
          found = true
          break
        }
        at += 8
        written += 8
      }
      while !found && at < stop {
        let byte = base[at]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
        target[written] = byte
        written += 1
        at += 1
      }
      guard at < stop else { return (.reached(at), written) }
      let byte = base[at]
      if byte == UInt8(ascii: "\"") { return (.ended(at), written) }
      if byte < 0x20 { return fail("Control character in a string", at) }
      guard at + 1 < count else { return fail("Unterminated string", quote) }
      if let simple = JSONReader.simpleEscape(base[at + 1]) {
        target[written] = simple
        written += 1
        at += 2
        continue
      }
      guard base[at + 1] == UInt8(ascii: "u") else {
        return fail("Invalid escape '\\\(Character(Unicode.Scalar(base[at + 1])))'", at)
      }
      guard var scalar = hex4(base, at + 2, count) else { return fail("Invalid \\u escape", at + 2) }
      at += 6
      if (0xD800..<0xDC00).contains(scalar) {
        guard at + 1 < count, base[at] == UInt8(ascii: "\\"), base[at + 1] == UInt8(ascii: "u") else {
          return fail("Invalid \\u escape (lone surrogate)", at)
        }
        guard let low = hex4(base, at + 2, count), (0xDC00..<0xE000).contains(low) else {
          return fail("Invalid surrogate pair", at + 2)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        at += 6
      } else if (0xDC00..<0xE000).contains(scalar) {
        return fail("Invalid \\u escape (lone surrogate)", at)
      }
      for unit in UTF8.encode(Unicode.Scalar(scalar)!)! {
        target[written] = unit
        written += 1
      }
    }
  }

  /// An offset at or after `after` (before `before`) that cannot be inside an
  /// escape when it is inside a string: a byte that is neither a backslash nor
  /// a hex digit, after an even run of backslashes; nil when none is near.
  static func boundary(_ base: UnsafePointer<UInt8>, after: Int, before: Int) -> Int? {
    var at = after
    let limit = min(before, after + (1 << 16))
    while at < limit {
      switch base[at] {
      case UInt8(ascii: "\\"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
        UInt8(ascii: "A")...UInt8(ascii: "F"):
        at += 1
        continue
      default: break
      }
      var backslashes = 0
      while at - backslashes - 1 >= 0, base[at - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
      if backslashes % 2 == 0 { return at }
      at += 1
    }
    return nil
  }
}

/// What the two halves of a split string found (each written by one thread, read after both ended).
private final class Halves: @unchecked Sendable {
  var first: (outcome: JSONReader.Outcome, written: Int) = (.reached(0), 0)
  var second: (outcome: JSONReader.Outcome, written: Int) = (.reached(0), 0)
}

/// A pointer handed to the threads of one `concurrentPerform`, which end before it is freed.
private struct UnsafeSendable<Pointee>: @unchecked Sendable {
  let pointer: Pointee
  init(_ pointer: Pointee) { self.pointer = pointer }
}
