/// Names as the system gives them (a folder's entries, the command line's arguments), bytes
/// that are not UTF-8 included: read here, where raw memory may be held, and handed out as
/// Swift values.
public enum SystemNames {
  /// The entries of the folder at `path` (without `.` and `..`) with their `d_type` (`DT_REG`,
  /// `DT_DIR`, or another value when the file system does not say or it is something else) and
  /// inode number, or nil when it cannot be read. A name that is not UTF-8 cannot be carried as
  /// a path: it goes to `notUTF8` as its bytes instead, with its `d_type`.
  public static func folderEntries(
    _ path: String, notUTF8: (_ name: [UInt8], _ type: UInt8) -> Void = { _, _ in }
  ) -> [(name: String, type: UInt8, inode: UInt64)]? {
    guard let folder = opendir(path) else { return nil }
    defer { closedir(folder) }
    var entries: [(name: String, type: UInt8, inode: UInt64)] = []
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        String(validatingCString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
      }
      guard let name else {
        // Said, not passed over.
        notUTF8(
          withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) },
          entry.pointee.d_type)
        continue
      }
      if name == "." || name == ".." { continue }
      entries.append((name, entry.pointee.d_type, UInt64(entry.pointee.d_ino)))
    }
    return entries
  }

  /// What `lstat` says of `path`, given as bytes, a name that is not UTF-8 included (a link not
  /// followed), or nil when nothing is there.
  public static func linkStatus(bytes path: [UInt8]) -> stat? {
    var info = stat()
    let found = (path + [0]).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) == 0 }
    }
    return found ? info : nil
  }

  /// Whether the bytes `first` come before `second` in byte order (as
  /// `lexicographicallyPrecedes`, by `memcmp`: a folder search sorts every path it finds).
  public static func precedes(_ first: [UInt8], _ second: [UInt8]) -> Bool {
    first.withUnsafeBufferPointer { one in
      second.withUnsafeBufferPointer { two in
        let common = min(one.count, two.count)
        let compared = common == 0 ? 0 : memcmp(one.baseAddress!, two.baseAddress!, common)
        return compared != 0 ? compared < 0 : one.count < two.count
      }
    }
  }

  /// The command line's arguments as the process was given them, bytes that are not UTF-8
  /// included (`CommandLine.arguments` holds U+FFFD in their place).
  public static func arguments() -> [[UInt8]] {
    (0..<Int(CommandLine.argc)).map { index in
      guard let argument = CommandLine.unsafeArgv[index] else { return [] }
      return Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map {
        UInt8(bitPattern: $0)
      }
    }
  }
}
