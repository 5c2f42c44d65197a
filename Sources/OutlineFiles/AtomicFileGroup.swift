/// Several files written as one, all or none as far as the file system allows: every target is
/// checked (still the one read, writable, its folder writable) and every temporary file flushed
/// before any file changes; then each is renamed into place (or copied, as
/// ``AtomicFileWriter`` does for hard links) with the file it replaces kept under a second
/// name; a failure puts the files already replaced back, and only when all are in are the old
/// ones dropped.
public enum AtomicFileGroup {
  /// Why a group was not written: the file that failed and why, and the files already replaced
  /// that could not be put back (none: nothing was changed).
  public struct Failure: Error, CustomStringConvertible, Sendable {
    /// The first file that failed, naming its path.
    public let failed: WriteError
    /// One line each for the files left changed, saying where their old contents are.
    public let notRestored: [String]

    /// The failed file's message.
    public var description: String { failed.description }
  }

  /// Commits `writers` in their order, or none of them (see ``AtomicFileGroup``). Every
  /// temporary file is gone afterwards, whatever happened.
  public static func commit(_ writers: [AtomicFileWriter]) throws(Failure) {
    do throws(WriteError) {
      for writer in writers {
        try writer.prepare()
        // Closed until its install: a group of thousands of files stays under the limit on
        // open files.
        writer.park()
      }
    } catch {
      for writer in writers { writer.discard() }
      throw Failure(failed: error, notRestored: [])
    }
    var installed: [AtomicFileWriter] = []
    for writer in writers {
      do throws(WriteError) {
        try writer.install(keepingReplaced: true)
        installed.append(writer)
      } catch {
        let notRestored = installed.reversed().compactMap { $0.restore() }
        for writer in writers { writer.discard() }
        throw Failure(failed: error, notRestored: notRestored)
      }
    }
    for writer in installed { writer.settle() }
  }
}
