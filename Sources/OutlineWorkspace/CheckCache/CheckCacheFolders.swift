import Foundation
import OutlineCore
import OutlineFiles

/// Each cache folder's ``CheckCacheIndex`` through a run: read at the first lookup, written
/// once at the end with what the run changed.
extension CheckCache {
  /// Writes what the run changed in each folder's index: the entries it made, the days of
  /// those it used, and the index without the records pruned (``CheckCacheIndex/pruned(today:keeping:)``),
  /// merged with what another run wrote meanwhile. Call it once, when every file is done.
  public func finish() {
    lock.lock()
    let touched = folders.filter {
      $0.value.changed || !$0.value.added.isEmpty || !$0.value.addedFiles.isEmpty
    }
    lock.unlock()
    for (folder, state) in touched.sorted(by: { $0.key < $1.key }) {
      guard ready(folder) else { continue }
      let problem = CacheFolderFiles.withLock(in: folder) { () -> String? in
        // What another run wrote since this one read the index, else what this one read.
        var merged = state.index
        if case .success(let bytes) = CacheFolderFiles.readIfPresent(
          CheckCacheIndex.fileName, in: folder, limit: Self.indexReadLimit),
          case .success(let now) = CheckCacheIndex.decode(bytes)
        {
          merged = now
        }
        for key in state.used {
          if merged.lastUsed(key) != nil {
            merged.use(key, day: today)
          } else if let body = state.index.body(key) {
            merged.set(key, body: body, day: today)
          }
        }
        for (key, body) in state.added { merged.set(key, body: body, day: today) }
        for place in state.usedFiles {
          if merged.fileSlot(place) != nil {
            merged.useFile(place, day: today)
          } else if let record = state.index.file(place) {
            merged.setFile(place, record, day: today)
          }
        }
        for (place, record) in state.addedFiles { merged.setFile(place, record, day: today) }
        merged.toolVersion = ToolVersion.current
        let kept = merged.pruned(today: today, keeping: Set(state.used).union(state.added.keys))
        return CacheFolderFiles.write(kept.encoded(), named: CheckCacheIndex.fileName, in: folder)
      }
      if let problem {
        report(problem)
        continue
      }
      count { $0.written += state.added.count }
      CacheFolderFiles.removeLeftovers(in: folder, isStale: Self.isFormerEntry)
    }
  }

  /// The most an index may be to be read.
  static let indexReadLimit = 1 << 30

  /// Whether `name` is an entry of the cache's former layout, one file an entry.
  static func isFormerEntry(_ name: String) -> Bool {
    name.utf8.count == 64 + 5 && name.hasSuffix(".lint")
      && name.utf8.prefix(64).allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  /// The index of `folder`, read at its first use; empty when there is none or it could not be
  /// taken (said once: corrupt, newer, unreadable), and then written afresh by ``finish()``.
  func loaded(_ folder: String) -> FolderState {
    lock.lock()
    if let known = folders[folder] {
      lock.unlock()
      return known
    }
    lock.unlock()
    loading.lock()
    defer { loading.unlock() }
    lock.lock()
    if let known = folders[folder] {
      lock.unlock()
      return known
    }
    lock.unlock()
    var index = CheckCacheIndex()
    var changed = false
    switch CacheFolderFiles.readIfPresent(CheckCacheIndex.fileName, in: folder, limit: Self.indexReadLimit) {
    case .none: break
    case .failure(let error)?:
      report("the index of \(InputFile.quoted(folder)) cannot be read: \(error.description)")
      changed = true
    case .success(let bytes)?:
      switch CheckCacheIndex.decode(bytes) {
      case .success(let read):
        index = read
        // Records to prune: the index is written again even when the run changes nothing else.
        if let earliest = index.earliestDay, earliest < today - CheckCacheIndex.keptDays { changed = true }
        if index.bodyBytes > CheckCacheIndex.byteLimit { changed = true }
      case .failure(.corrupt):
        report("the index of \(InputFile.quoted(folder)) is corrupt")
        changed = true
      case .failure(.newer):
        report("the index of \(InputFile.quoted(folder)) was written by a newer outline-lint")
        changed = true
      case .failure(.otherVersion):
        changed = true
      }
    }
    let state = FolderState(index, folder: folder)
    state.changed = changed
    lock.lock()
    folders[folder] = state
    lock.unlock()
    return state
  }
}

/// One cache folder's index as the run read it (never changed after), and what the run did
/// with it (changed under ``CheckCache``'s lock). Each document holds its folder's.
final class FolderState: @unchecked Sendable {
  let index: CheckCacheIndex
  /// The folder.
  let folder: String
  /// The records used (hits).
  var used: [CheckCacheIndex.Key] = []
  /// The entries made, by key.
  var added: [CheckCacheIndex.Key: [UInt8]] = [:]
  /// The places of the files whose records were trusted.
  var usedFiles: [UInt64] = []
  /// The records of the files hashed, by place.
  var addedFiles: [UInt64: CheckCacheFileRecord] = [:]
  /// The bodies of ``index`` decoded and checked so far, by number.
  var checked: [CheckedBody?]
  /// Whether the index must be written besides what was added: a record (or a file's) used
  /// was marked with an earlier day, records are to be pruned, or the file
  /// could not be taken.
  var changed = false

  init(_ index: CheckCacheIndex, folder: String) {
    self.index = index
    self.folder = folder
    checked = Array(repeating: nil, count: index.bodies.count)
  }
}
