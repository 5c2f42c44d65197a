import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineWorkspace

/// Where a command's document goes: standard output, or a file written atomically.
///
/// A command that learns about a problem only while it writes (JSON -> XML
/// validates the XML it writes) asks for `spooled` standard output: the
/// output waits in an unlinked temporary file and reaches standard output
/// only at ``commit()``, so memory stays flat and a refused input prints nothing.
final class OutputTarget {
  private let writer: AtomicFileWriter?
  private var spool: Int32 = -1
  private var failure: String?
  private var discarded = false

  /// `-` or nil for standard output, else a path, which must not be the file `input` (links
  /// followed) and replaces a file already there only when `existing` says so.
  init(
    _ path: String?, spooled: Bool = false, existing: ExistingFile = .replace, input: String? = nil
  ) throws(WriteError) {
    writer =
      (path == nil || path == "-")
      ? nil : try AtomicFileWriter(path: path!, existing: existing, distinctFrom: input == "-" ? nil : input)
    if writer == nil && spooled {
      guard let file = FileDescriptorIO.anonymousTemporaryFile(prefix: "outline-spool") else {
        throw WriteError(description: "cannot spool standard output: \(String(cString: strerror(errno)))")
      }
      spool = file
    }
  }

  /// Opens the target for a command: a target that cannot be written (a
  /// missing or read-only folder, a read-only file, the input
  /// itself) is reported and ends the command with exit 2.
  static func open(_ path: String?, spooled: Bool = false, input: String? = nil) throws(ExitCode)
    -> OutputTarget
  {
    do {
      return try OutputTarget(path, spooled: spooled, input: input)
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
  }

  deinit {
    if spool >= 0 { close(spool) }
  }

  func write(_ bytes: [UInt8]) { bytes.withByteView { write(contentsOf: $0) } }

  func write(contentsOf bytes: ByteView) {
    if discarded { return }
    if let writer {
      writer.write(bytes)
    } else if spool >= 0 {
      if failure == nil, let code = FileDescriptorIO.writeAll(spool, bytes) {
        failure = String(cString: strerror(code))
      }
    } else if failure == nil, let code = FileDescriptorIO.writeAll(1, bytes) {
      failure = String(cString: strerror(code))
    }
  }

  /// Forgets what was written so far (a file or spooled output only).
  func reset() {
    if let writer {
      writer.reset()
    } else if spool >= 0 {
      _ = ftruncate(spool, 0)
      lseek(spool, 0, SEEK_SET)
    }
  }

  /// Removes the temporary file or closes the spool: nothing is written.
  func discard() {
    discarded = true
    writer?.discard()
    if spool >= 0 {
      close(spool)
      spool = -1
    }
  }

  /// Makes a file appear at its path, or copies the spool to standard output.
  func commit() throws(WriteError) {
    if let writer { return try writer.commit() }
    guard spool >= 0 else {
      if let failure { throw WriteError(description: "cannot write standard output: \(failure)") }
      return
    }
    if let failure { throw WriteError(description: "cannot spool standard output: \(failure)") }
    lseek(spool, 0, SEEK_SET)
    var written: Int32?
    do {
      try FileChunks.readViews(descriptor: spool, name: "the standard output spool") {
        if written == nil { written = FileDescriptorIO.writeAll(1, $0) }
      }
    } catch {
      throw WriteError(description: error.description)
    }
    if let written {
      throw WriteError(description: "cannot write standard output: \(String(cString: strerror(written)))")
    }
  }
}
