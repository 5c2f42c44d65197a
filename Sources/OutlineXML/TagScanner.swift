import OutlineCore

/// Finds the name and attribute ranges inside the bytes of a start tag that
/// libxml2 has already found well-formed, so the scan needs no error handling.
public enum TagScanner {
  /// Fills `attributes` with the ranges of `tag` (`<` to `>`) up to
  /// `contentEnd` (the offset of its `>` or `/>`); returns where the name ends.
  public static func scan(
    _ tag: UnsafeBufferPointer<UInt8>, contentEnd: Int, into attributes: inout [RawAttribute]
  ) -> Int {
    attributes.removeAll(keepingCapacity: true)
    return scan(tag, contentEnd: contentEnd) { attributes.append($0) }
  }

  /// Calls `found` with each attribute's ranges of `tag` (`<` to `>`) up
  /// to `contentEnd`, in source order; returns where the name ends. The
  /// scan reads the bytes through a pointer: it runs on every start tag of
  /// a lint, where bounds checks and array bookkeeping showed in profiles.
  @inline(__always)
  public static func scan(
    _ tag: UnsafeBufferPointer<UInt8>, contentEnd: Int, found: (RawAttribute) -> Void
  ) -> Int {
    guard let base = tag.baseAddress, contentEnd <= tag.count else { return 0 }
    // The tag is well-formed: outside values, the only bytes below 0x21 are XML's four spaces,
    // a name ends at one of them or at `=`, and `=` is followed by spaces and a quote.
    var index = 1
    index = nameEnd(base, from: index, to: contentEnd)
    let nameEnd = index
    while true {
      while index < contentEnd && base[index] < 0x21 { index += 1 }
      if index >= contentEnd { break }
      let nameStart = index
      index = self.nameEnd(base, from: index, to: contentEnd)
      let attributeNameEnd = index
      // The `=` and the spaces around it; the quote comes next.
      while index < contentEnd && (base[index] < 0x21 || base[index] == UInt8(ascii: "=")) { index += 1 }
      guard index < contentEnd else { break }
      let quote = base[index]
      index += 1
      let valueStart = index
      // Values are most of a tag's bytes: find the closing quote with memchr.
      if let hit = memchr(base + index, Int32(quote), contentEnd - index) {
        index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
      } else {
        index = contentEnd
      }
      found(
        RawAttribute(
          nameStart: Int32(truncatingIfNeeded: nameStart),
          nameEnd: Int32(truncatingIfNeeded: attributeNameEnd),
          valueStart: Int32(truncatingIfNeeded: valueStart), valueEnd: Int32(truncatingIfNeeded: index)))
      index += 1
    }
    return nameEnd
  }

  /// Where the name starting at `index` ends (at `=`, a space or `end`), eight bytes at a time.
  @inline(__always)
  private static func nameEnd(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
    var index = start
    while index + 8 <= end {
      let word = WordScan.load(base + index)
      let hits = WordScan.equal(word, UInt8(ascii: "=")) | WordScan.below(word, 0x21)
      if hits != 0 { return index + hits.trailingZeroBitCount / 8 }
      index += 8
    }
    while index < end && base[index] != UInt8(ascii: "=") && base[index] > 0x20 { index += 1 }
    return index
  }

  /// Calls `body` with the start tag at `range` of `bytes` (a range an
  /// ``XMLEventHandler`` was given earlier for the same bytes).
  public static func withStartTag<R>(
    in bytes: [UInt8], range: TextRange, _ body: (StartTag) -> R
  ) -> R {
    var attributes: [RawAttribute] = []
    return bytes.withUnsafeBufferPointer { buffer in
      withStartTag(
        UnsafeBufferPointer(rebasing: buffer[range.start..<range.end]), at: range.start,
        attributes: &attributes, body)
    }
  }

  /// Calls `body` with the start tag whose well-formed bytes (`<` to `>`)
  /// are `tag`, found at global offset `offset`; `attributes` is scratch
  /// space a caller reuses from tag to tag.
  public static func withStartTag<R>(
    _ tag: ByteView, at offset: Int, attributes: inout [RawAttribute], _ body: (StartTag) -> R
  ) -> R {
    withStartTag(tag.unsafeBuffer, at: offset, attributes: &attributes, body)
  }

  /// Calls `body` with the start tag whose well-formed bytes (`<` to `>`)
  /// are `tag`, found at global offset `offset`; `attributes` is scratch
  /// space a caller reuses from tag to tag.
  public static func withStartTag<R>(
    _ tag: UnsafeBufferPointer<UInt8>, at offset: Int, attributes: inout [RawAttribute],
    _ body: (StartTag) -> R
  ) -> R {
    let isSelfClosing = tag.count >= 2 && tag[tag.count - 2] == UInt8(ascii: "/")
    let contentEnd = tag.count - (isSelfClosing ? 2 : 1)
    let nameEnd = scan(tag, contentEnd: contentEnd, into: &attributes)
    return attributes.withUnsafeBufferPointer { list in
      body(
        StartTag(
          bytes: tag, offset: offset, nameEnd: nameEnd, attributes: list, isSelfClosing: isSelfClosing))
    }
  }
}
