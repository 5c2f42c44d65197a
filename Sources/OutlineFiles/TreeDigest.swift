import Foundation

/// The SHA-256 of everything at a path: a file's bytes, or a folder's names,
/// kinds and contents all the way down; what a model bundle is, as a cache key.
///
/// Two states of a path get the same digest only when they hold the same
/// names with the same bytes (and links with the same targets), whatever
/// their modification times. A link is recorded by its target's text and then
/// followed (a version linked in from elsewhere is read where it lies); a
/// folder met twice through links is recorded the second time by that fact
/// alone, so a cycle ends. Nothing missing or unreadable is an error: it is
/// recorded as what it is, so that it differs from anything readable.
public enum TreeDigest {
  /// The digest of what is at `path`, reading no file larger than `limit` bytes.
  public static func of(_ path: String, limit: Int = InputFile.defaultLimit) -> [UInt8] {
    var digest = SHA256Digest()
    digest.add("outline-tree-digest 1\n")
    // (path to read, name as recorded) in order; a folder adds its entries, sorted, in front.
    var stack: [(path: String, name: String)] = [(path, ".")]
    var folders = Set<[UInt64]>()
    while let (path, name) = stack.popLast() {
      field(&digest, name)
      var info = stat()
      if lstat(path, &info) != 0 {
        field(&digest, "missing \(errno)")
        continue
      }
      if (info.st_mode & S_IFMT) == S_IFLNK {
        field(&digest, "link " + (linkTarget(path) ?? "?"))
        if stat(path, &info) != 0 {
          field(&digest, "dangling \(errno)")
          continue
        }
      }
      switch info.st_mode & S_IFMT {
      case S_IFREG:
        if let bytes = try? InputFile.read(path, limit: limit) {
          field(&digest, "file \(bytes.count)")
          digest.add(bytes)
        } else {
          field(&digest, "unreadable file \(info.st_size)")
        }
      case S_IFDIR:
        guard folders.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else {
          field(&digest, "folder seen")
          continue
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
          field(&digest, "unreadable folder")
          continue
        }
        let sorted = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        field(&digest, "folder \(sorted.count)")
        for entry in sorted.reversed() { stack.append((path + "/" + entry, name + "/" + entry)) }
      default:
        field(&digest, "other \(info.st_mode & S_IFMT)")
      }
    }
    return digest.finish()
  }

  /// Adds `text` with its length first, so that no two sequences of fields add the same bytes.
  private static func field(_ digest: inout SHA256Digest, _ text: String) {
    digest.add("\(text.utf8.count):")
    digest.add(text)
  }

  private static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count - 1) }
    guard count >= 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
