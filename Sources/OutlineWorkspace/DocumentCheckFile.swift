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
    let bytes: ByteBuffer
    do {
      defer { close(descriptor) }
      bytes = try WholeFile.load(descriptor: descriptor, size: size, path: path, limit: limit)
    }
    progress?(bytes.view.count, size)
    // Whole, on this thread: a plain document is checked without libxml2 (XMLEventParser.feedWhole).
    var check = check(
      path: path, modelOverride: modelOverride, configurations: configurations, models: models,
      buildTree: false, alongside: nil, pipelined: false
    ) { parser, _ in
      parser.feedWhole(bytes.view)
    }
    check.checkVersion(histories: histories, bytes: bytes.view)
    let lines = check.diagnostics.isEmpty ? LineIndex() : LineIndex(bytes.view)
    return (check, FileLines(path: path, lines: lines))
  }
}
