import OutlineWorkspace

/// Where a command's document goes: standard output, or a file written atomically.
final class OutputTarget {
  private let writer: AtomicFileWriter?

  /// `-` or nil for standard output, else a path.
  init(_ path: String?) throws(WriteError) {
    writer = (path == nil || path == "-") ? nil : try AtomicFileWriter(path: path!)
  }

  func write(_ bytes: [UInt8]) {
    if let writer {
      writer.write(bytes)
    } else {
      Terminal.write(bytes, to: 1)
    }
  }

  /// Makes a file appear at its path; nothing for standard output.
  func commit() throws(WriteError) { try writer?.commit() }
}
