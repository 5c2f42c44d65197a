import Foundation
import OutlineCore

/// Applies edits handed out in text order to a text that arrives in chunks,
/// writing the result in pieces of about 1 MiB: only the bytes not yet
/// copied are kept, so memory does not grow with the text. The text may
/// arrive on one thread while the edits come on another (a migrator behind an
/// event pipeline): each chunk is appended before the parser sees it.
public final class EditStream: @unchecked Sendable {
  private let lock = NSLock()
  @exclusivity(unchecked) private var pending: [UInt8] = []
  /// The text offset of `pending[0]`.
  @exclusivity(unchecked) private var pendingStart = 0
  /// Everything before this offset has been written (or replaced).
  @exclusivity(unchecked) private var copied = 0
  @exclusivity(unchecked) private var output: [UInt8] = []
  private let sink: ([UInt8]) -> Void

  /// A stream that hands its output to `sink`.
  public init(sink: @escaping ([UInt8]) -> Void) {
    self.sink = sink
    output.reserveCapacity(1 << 20)
  }

  /// The next chunk of the text; call before the parser sees it.
  public func append(_ chunk: ByteView) {
    lock.lock()
    defer { lock.unlock() }
    let consumed = copied - pendingStart
    if consumed > 0 && consumed >= pending.count / 2 {
      pending.removeFirst(consumed)
      pendingStart = copied
    }
    pending.append(contentsOf: chunk)
  }

  /// Replaces `edit.range` (not before the last edit's end) by its text.
  public func apply(_ edit: TextEdit) {
    lock.lock()
    var edit = edit
    let base = pendingStart
    pending.withByteView { bytes in
      edit = Self.widened(edit, in: bytes, base: base, notBefore: copied)
    }
    copy(upTo: edit.range.start)
    output.append(contentsOf: edit.newText.utf8)
    copied = max(copied, edit.range.end)
    guard output.count >= 1 << 20 else {
      lock.unlock()
      return
    }
    // Handed over outside the lock: the sink may wait (for the migrated text's parser), and
    // the text's next chunk must not wait for it. Only the edits' thread drains.
    let full = output
    output = []
    output.reserveCapacity(1 << 20)
    lock.unlock()
    sink(full)
  }

  /// Writes the rest of the text and everything held.
  public func finish() {
    lock.lock()
    defer { lock.unlock() }
    copy(upTo: pendingStart + pending.count)
    drain()
  }

  /// A removed element (an empty edit from its `<` to its `>`) takes the
  /// indentation and line break before it along, so no blank line is left.
  /// `bytes` hold the text from offset `base`; nothing before `notBefore` is touched.
  public static func widened(
    _ edit: TextEdit, in bytes: ByteView, base: Int, notBefore: Int
  ) -> TextEdit {
    let start = edit.range.start - base
    let end = edit.range.end - base
    guard edit.newText.isEmpty, start >= 0, end <= bytes.count, end > start,
      bytes[start] == UInt8(ascii: "<"),
      bytes[end - 1] == UInt8(ascii: ">")
    else { return edit }
    var widened = start
    while widened > notBefore - base && widened > 0
      && (bytes[widened - 1] == UInt8(ascii: " ") || bytes[widened - 1] == UInt8(ascii: "\t"))
    {
      widened -= 1
    }
    // The line end before it: `\n`, `\r\n`, or a lone `\r`.
    guard
      widened > notBefore - base && widened > 0
        && (bytes[widened - 1] == UInt8(ascii: "\n") || bytes[widened - 1] == UInt8(ascii: "\r"))
    else {
      return edit
    }
    widened -= 1
    if bytes[widened] == UInt8(ascii: "\n") && widened > notBefore - base && widened > 0
      && bytes[widened - 1] == UInt8(ascii: "\r")
    {
      widened -= 1
    }
    return TextEdit(range: TextRange(start: widened + base, end: edit.range.end), newText: "")
  }

  private func copy(upTo offset: Int) {
    guard offset > copied else { return }
    output.append(contentsOf: pending[(copied - pendingStart)..<(offset - pendingStart)])
    copied = offset
  }

  private func drain() {
    guard !output.isEmpty else { return }
    sink(output)
    output.removeAll(keepingCapacity: true)
  }
}
