import OutlineCore
import OutlineFiles

/// The index's file: written sorted, each distinct body once; read by checking its
/// checksum and finding where its tables lie, nothing per record.
extension CheckCacheIndex {
  /// The index's file.
  public func encoded() -> [UInt8] {
    let records = allRecords()
    let files = allFiles()
    // Each distinct body once, numbered in the order the records (sorted) first name it.
    var numbers: [Int: Int] = [:]
    var byContent: [ArraySlice<UInt8>: Int] = [:]
    var kept: [Range<Int>] = []
    var bodyOf: [Int] = []
    bodyOf.reserveCapacity(records.count)
    for (_, slot) in records {
      if let number = numbers[slot.body] {
        bodyOf.append(number)
        continue
      }
      let bytes = storage[bodies[slot.body]]
      let number = byContent[bytes] ?? kept.count
      if number == kept.count {
        kept.append(bodies[slot.body])
        byContent[bytes] = number
      }
      numbers[slot.body] = number
      bodyOf.append(number)
    }
    var out = EntryWriter()
    out.bytes.reserveCapacity(
      kept.reduce(0) { $0 + $1.count + 8 } + records.count * Self.recordWidth + files.count * Self.fileWidth
        + 160)
    out.bytes = Self.magic
    out.number(Int(CheckCacheEntry.format))
    out.text(toolVersion)
    out.number(kept.count)
    for range in kept {
      out.number(range.count)
      out.bytes += storage[range]
    }
    out.number(records.count)
    for ((key, slot), body) in zip(records, bodyOf) {
      key.append(to: &out.bytes)
      out.word32(UInt32(clamping: slot.day))
      out.word32(UInt32(body))
    }
    out.number(files.count)
    for (place, slot) in files {
      let record = slot.record
      out.word64(place)
      out.word64(record.device)
      out.word64(record.inode)
      out.word64(UInt64(bitPattern: record.size))
      for time in [record.modified, record.changed, record.hashed] {
        out.word64(UInt64(bitPattern: time.seconds))
        out.word32(time.nanoseconds)
      }
      out.word32(record.mode)
      out.word32(record.reader)
      out.word32(UInt32(clamping: slot.day))
      record.digest.append(to: &out.bytes)
    }
    var digest = SHA256Digest()
    digest.add(out.bytes)
    out.bytes += digest.finish()
    return out.bytes
  }

  /// The index in `bytes`, when they are a whole, unaltered index of this format for `toolVersion`.
  /// Each record's body is read only when asked for (``entry(_:)``).
  public static func decode(_ bytes: [UInt8], toolVersion: String = ToolVersion.current) -> Result<
    CheckCacheIndex, Rejection
  > {
    var input = EntryReader(bytes: bytes)
    guard input.expect(magic), let format = input.number() else { return .failure(.corrupt) }
    if format > Int(CheckCacheEntry.format) { return .failure(.newer) }
    guard bytes.count >= 32 + input.offset else { return .failure(.corrupt) }
    var digest = SHA256Digest()
    digest.add(bytes[..<(bytes.count - 32)])
    guard digest.finish().elementsEqual(bytes[(bytes.count - 32)...]) else { return .failure(.corrupt) }
    if format < Int(CheckCacheEntry.format) { return .failure(.otherVersion) }
    input.end = bytes.count - 32
    guard let version = input.text() else { return .failure(.corrupt) }
    if version != toolVersion { return .failure(.otherVersion) }
    var index = CheckCacheIndex(toolVersion: version)
    guard let bodyCount = input.count(least: 8) else { return .failure(.corrupt) }
    index.bodies.reserveCapacity(bodyCount)
    for _ in 0..<bodyCount {
      guard let length = input.number(), input.end - input.offset >= length else { return .failure(.corrupt) }
      index.bodies.append(input.offset..<(input.offset + length))
      input.offset += length
    }
    guard let recordCount = input.count(least: recordWidth) else { return .failure(.corrupt) }
    index.readRecords = Table(start: input.offset, count: recordCount)
    input.offset += recordCount * recordWidth
    guard let fileCount = input.count(least: fileWidth) else { return .failure(.corrupt) }
    index.readFiles = Table(start: input.offset, count: fileCount)
    input.offset += fileCount * fileWidth
    guard input.offset == input.end else { return .failure(.corrupt) }
    // The words lookups search, each in order (a table out of order is not one this tool wrote).
    index.recordWords = (0..<recordCount).map {
      bigEndianWord(bytes, index.readRecords.start + $0 * recordWidth)
    }
    index.filePlaces = (0..<fileCount).map { word64(bytes, index.readFiles.start + $0 * fileWidth) }
    for words in [index.recordWords, index.filePlaces] {
      for position in words.indices.dropFirst() where words[position - 1] > words[position] {
        return .failure(.corrupt)
      }
    }
    index.storage = bytes
    return .success(index)
  }

  /// The file's slot in the row at `row`.
  static func fileSlot(_ bytes: [UInt8], _ row: Int) -> FileSlot {
    func time(_ at: Int) -> CheckCacheFileRecord.Time {
      CheckCacheFileRecord.Time(
        seconds: Int64(bitPattern: word64(bytes, at)), nanoseconds: word32(bytes, at + 8))
    }
    let record = CheckCacheFileRecord(
      device: word64(bytes, row + 8), inode: word64(bytes, row + 16),
      size: Int64(bitPattern: word64(bytes, row + 24)),
      modified: time(row + 32), changed: time(row + 44), mode: word32(bytes, row + 68),
      reader: word32(bytes, row + 72), hashed: time(row + 56), digest: Key(bytes, at: row + 80))
    return FileSlot(record: record, day: Int(word32(bytes, row + 76)))
  }

  /// The little-endian word of 4 bytes at `offset`.
  static func word32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }

  /// The big-endian word of 8 bytes at `offset` (a key's first word).
  static func bigEndianWord(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<8 { value = value << 8 | UInt64(bytes[offset + index]) }
    return value
  }

  /// The little-endian word of 8 bytes at `offset`.
  static func word64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
    UInt64(word32(bytes, offset)) | UInt64(word32(bytes, offset + 4)) << 32
  }
}
