import OutlineCore
import OutlineFiles
import OutlineXML

extension DocumentCheck {
  /// Files smaller than this are read whole, in one `read`, and checked from
  /// memory; larger ones stream from disk (``stream(path:modelOverride:configurations:models:limit:alongside:progress:)``).
  public static let wholeFileBytes = 1 << 20

  /// Checks the regular file at `path` as `outline-lint` does, the model
  /// version (OL108) included: a small file is read in one piece (one `open`,
  /// one `fstat`, a `read` or two) and checked from memory, a large one
  /// streams from disk in chunks. Throws when the file cannot be read or is
  /// over `limit` bytes.
  ///
  /// The returned lines read back from disk the lines diagnostics point to.
  /// A small file's line index is made only when it has diagnostics: with
  /// none, no line is ever asked for. `checked` says the path was just seen to
  /// name a regular file (``InputFile/open(_:status:checked:)``).
  public static func file(
    path: String, modelOverride: String?, configurations: ConfigurationFinder, models: ModelCache,
    histories: ModelHistoryCache, limit: Int = InputFile.defaultLimit, checked: Bool = false,
    progress: ((_ read: Int, _ size: Int) -> Void)? = nil
  ) throws(ReadError) -> (DocumentCheck, FileLines) {
    var info = stat()
    let descriptor = try InputFile.open(path, status: &info, checked: checked)
    let size = Int(info.st_size)
    if size > limit {
      close(descriptor)
      throw InputFile.tooLarge(InputFile.quoted(path), limit: limit)
    }
    if size >= wholeFileBytes {
      close(descriptor)
      var (check, lines) = try stream(
        path: path, modelOverride: modelOverride, configurations: configurations, models: models,
        limit: limit, progress: progress)
      check.checkVersion(histories: histories, path: path, limit: limit)
      return (check, lines)
    }
    let bytes: WholeFile
    do {
      defer { close(descriptor) }
      bytes = try WholeFile.load(descriptor: descriptor, size: size, path: path, limit: limit)
    }
    defer { bytes.deallocate() }
    progress?(bytes.count, size)
    var check = run(
      path: path, size: bytes.count, modelOverride: modelOverride, configurations: configurations,
      models: models
    ) { parse in
      parse(bytes.buffer)
    }
    check.checkVersion(histories: histories, bytes: bytes.buffer)
    let lines = check.diagnostics.isEmpty ? LineIndex() : LineIndex(bytes.buffer)
    return (check, FileLines(path: path, lines: lines))
  }
}

/// A file's bytes read whole into uninitialized memory the caller frees.
private struct WholeFile {
  private let storage: UnsafeMutableBufferPointer<UInt8>
  let count: Int

  var buffer: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: UnsafeBufferPointer(storage)[0..<count])
  }

  func deallocate() { storage.deallocate() }

  /// Reads `descriptor` (a regular file `fstat` said is `size` bytes) to its end, at most `limit` bytes.
  ///
  /// A read that stops short exactly at `size` is the end (a regular file's
  /// read is short only at its end), so a file that did not change since the
  /// `fstat` takes one `read`; a file that grew is read on to its end.
  static func load(descriptor: Int32, size: Int, path: String, limit: Int) throws(ReadError) -> WholeFile {
    var storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(size, limit) + 1)
    var count = 0
    while true {
      if count == storage.count {
        // The file grew since the fstat: room for more, never past one byte over the limit.
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(storage.count * 2, limit + 1))
        _ = grown.initialize(from: storage)
        storage.deallocate()
        storage = grown
      }
      let wanted = storage.count - count
      let got = read(descriptor, storage.baseAddress! + count, wanted)
      if got < 0 {
        if errno == EINTR { continue }
        let code = errno
        storage.deallocate()
        throw ReadError(path: path, errno: code)
      }
      if got == 0 { break }
      count += got
      if count > limit {
        storage.deallocate()
        throw InputFile.tooLarge(InputFile.quoted(path), limit: limit)
      }
      if got < wanted && count == size { break }
    }
    return WholeFile(storage: storage, count: count)
  }
}
