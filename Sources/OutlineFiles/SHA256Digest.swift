import CMappedFiles

/// SHA-256 (FIPS 180-4), for naming content by its bytes: the lint cache's keys.
///
/// Written here because neither Foundation on Linux nor the package's
/// dependencies offer it. A cryptographic hash, not a fast checksum: a cache
/// keyed by content must not be fooled by two files made to collide, which
/// the fast non-cryptographic hashes do not rule out. The tests check the
/// standard's example vectors, every length around the block size, and that
/// adding in pieces gives what adding at once does. The blocks go through the
/// processor's SHA instructions where it has them (`CMappedFiles/sha256_blocks.c`),
/// else through the Swift below; the tests hold the two to the same digests.
public struct SHA256Digest: Sendable {
  /// Whether the processor's SHA instructions are used.
  static let hasHardware = outline_sha256_hardware() != 0
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
  )
  /// Bytes not yet making a whole block.
  private var pending: [UInt8] = []
  private var length: UInt64 = 0
  private var hardware = SHA256Digest.hasHardware

  /// An empty digest.
  public init() { pending.reserveCapacity(64) }

  /// An empty digest that never uses the processor's SHA instructions (for the tests).
  init(software: Bool) {
    self.init()
    hardware = hardware && !software
  }

  /// The digest of `bytes`, as 32 bytes.
  public static func of(_ bytes: [UInt8]) -> [UInt8] {
    var digest = SHA256Digest()
    digest.add(bytes)
    return digest.finish()
  }

  /// Adds `bytes`.
  public mutating func add(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { add($0) }
  }

  /// Adds `bytes`.
  public mutating func add(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBufferPointer { add($0) }
  }

  /// Adds the UTF-8 of `text`.
  public mutating func add(_ text: String) {
    var text = text
    text.withUTF8 { add($0) }
  }

  /// Adds `bytes`.
  public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    length &+= UInt64(bytes.count)
    var offset = 0
    if !pending.isEmpty {
      let taken = min(64 - pending.count, bytes.count)
      pending.append(contentsOf: UnsafeBufferPointer(start: base, count: taken))
      offset = taken
      guard pending.count == 64 else { return }
      pending.withUnsafeBytes { compress(UnsafeRawPointer($0.baseAddress!), blocks: 1) }
      pending.removeAll(keepingCapacity: true)
    }
    let blocks = (bytes.count - offset) / 64
    if blocks > 0 {
      compress(UnsafeRawPointer(base + offset), blocks: blocks)
      offset += blocks * 64
    }
    if offset < bytes.count {
      pending.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: bytes.count - offset))
    }
  }

  /// The 32 bytes of the digest of everything added (the digest itself is left as it was).
  public func finish() -> [UInt8] {
    var copy = self
    let bits = length &* 8
    let used = (pending.count + 1) % 64
    // 0x80, the zeros that leave 8 bytes of the block, then the length in bits.
    var tail = [UInt8](repeating: 0, count: 1 + (used <= 56 ? 56 - used : 120 - used) + 8)
    tail[0] = 0x80
    for index in 0..<8 {
      tail[tail.count - 8 + index] = UInt8(truncatingIfNeeded: bits >> UInt64(56 - 8 * index))
    }
    let saved = copy.length
    tail.withUnsafeBufferPointer { copy.add($0) }
    copy.length = saved
    var out = [UInt8](repeating: 0, count: 32)
    func put(_ word: UInt32, at start: Int) {
      for index in 0..<4 { out[start + index] = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * index)) }
    }
    put(copy.state.0, at: 0)
    put(copy.state.1, at: 4)
    put(copy.state.2, at: 8)
    put(copy.state.3, at: 12)
    put(copy.state.4, at: 16)
    put(copy.state.5, at: 20)
    put(copy.state.6, at: 24)
    put(copy.state.7, at: 28)
    return out
  }

  /// The digest as 64 lowercase hexadecimal digits.
  public func finishHex() -> String { Self.hex(finish()) }

  /// `bytes` as lowercase hexadecimal digits.
  public static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static let constants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  @inline(__always)
  private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
    // Masking shifts: the smart ones test for counts of 32 or more, and no rotate instruction is made.
    (value &>> count) | (value &<< (32 &- count))
  }

  /// Folds the `blocks` 64-byte blocks at `start` into the state.
  private mutating func compress(_ start: UnsafeRawPointer, blocks: Int) {
    if hardware {
      withUnsafeMutableBytes(of: &state) { words in
        outline_sha256_blocks(
          words.baseAddress!.assumingMemoryBound(to: UInt32.self), start.assumingMemoryBound(to: UInt8.self),
          blocks)
      }
      return
    }
    var (h0, h1, h2, h3, h4, h5, h6, h7) = state
    Self.constants.withUnsafeBufferPointer { constants in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
        for block in 0..<blocks {
          let data = start + block * 64
          for index in 0..<16 {
            schedule[index] = UInt32(
              bigEndian: data.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
          }
          for index in 16..<64 {
            let early = schedule[index - 15]
            let late = schedule[index - 2]
            let sigma0 = Self.rotate(early, 7) ^ Self.rotate(early, 18) ^ (early >> 3)
            let sigma1 = Self.rotate(late, 17) ^ Self.rotate(late, 19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
          }
          var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
          for index in 0..<64 {
            let sum1 = Self.rotate(e, 6) ^ Self.rotate(e, 11) ^ Self.rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let first = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
            let sum0 = Self.rotate(a, 2) ^ Self.rotate(a, 13) ^ Self.rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            h = g
            g = f
            f = e
            e = d &+ first
            d = c
            c = b
            b = a
            a = first &+ sum0 &+ majority
          }
          h0 = h0 &+ a
          h1 = h1 &+ b
          h2 = h2 &+ c
          h3 = h3 &+ d
          h4 = h4 &+ e
          h5 = h5 &+ f
          h6 = h6 &+ g
          h7 = h7 &+ h
        }
      }
    }
    state = (h0, h1, h2, h3, h4, h5, h6, h7)
  }
}
