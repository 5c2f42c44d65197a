import Foundation
import OutlineFiles

/// The files' records (``CheckCacheFileRecord``): a file whose `stat` is as recorded when
/// it was hashed is taken to hold the bytes of the recorded digest without being read.
extension CheckCache {
  /// The SHA-256 of `document`'s bytes as its record says, when `info` (the file's `stat`,
  /// taken now) is what was recorded and the record is not racy; nil: the file must be read
  /// and hashed.
  public func knownDigest(of document: CheckCacheDocument, status info: stat) -> CheckCacheIndex.Key? {
    guard let slot = document.state.index.fileSlot(document.place), slot.record.matches(info, reader: reader),
      !slot.record.isRacy
    else { return nil }
    used(file: document.place, day: slot.day, in: document.state)
    return slot.record.digest
  }

  /// Records that `document`'s file, whose `stat` was `info` (taken after `hashed`, before
  /// reading), held bytes whose SHA-256 is `digest` (written by ``finish()``).
  public func remember(
    _ document: CheckCacheDocument, status info: stat, hashed: CheckCacheFileRecord.Time,
    digest: CheckCacheIndex.Key
  ) {
    let record = CheckCacheFileRecord(info, hashed: hashed, digest: digest, reader: reader)
    guard record.isRegularFile else { return }
    if let slot = document.state.index.fileSlot(document.place), slot.record.matches(info, reader: reader),
      slot.record.digest == digest, !slot.record.isRacy
    {
      // Read for its lines (it has problems): its record still holds.
      used(file: document.place, day: slot.day, in: document.state)
      return
    }
    lock.lock()
    document.state.addedFiles[document.place] = record
    lock.unlock()
  }

  /// Notes that the record of the file at `place`, last used on `day`, was trusted.
  private func used(file place: UInt64, day: Int, in state: FolderState) {
    lock.lock()
    state.usedFiles.append(place)
    if day != today { state.changed = true }
    lock.unlock()
  }
}
