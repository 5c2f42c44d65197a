import OutlineCore

/// Applies edits handed out in text order to a text that arrives in chunks,
/// writing the result in pieces of about 1 MiB: only the bytes not yet
/// copied are kept, so memory does not grow with the text.
public final class EditStream {
  private var pending: [UInt8] = []
  /// The text offset of `pending[0]`.
  private var pendingStart = 0
  /// Everything before this offset has been written (or replaced).
  private var copied = 0
  private var output: [UInt8] = []
  private let sink: ([UInt8]) -> Void

  /// A stream that hands its output to `sink`.
  public init(sink: @escaping ([UInt8]) -> Void) {
    self.sink = sink
    output.reserveCapacity(1 << 20)
  }

  /// The next chunk of the text; call before the parser sees it.
  public func append(_ chunk: UnsafeBufferPointer<UInt8>) {
    let consumed = copied - pendingStart
    if consumed > 0 && consumed >= pending.count / 2 {
      pending.removeFirst(consumed)
      pendingStart = copied
    }
    pending.append(contentsOf: chunk)
  }

  /// Replaces `edit.range` (not before the last edit's end) by its text.
  public func apply(_ edit: TextEdit) {
    copy(upTo: edit.range.start)
    output.append(contentsOf: edit.newText.utf8)
    copied = max(copied, edit.range.end)
    if output.count >= 1 << 20 { drain() }
  }

  /// Writes the rest of the text and everything held.
  public func finish() {
    copy(upTo: pendingStart + pending.count)
    drain()
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
