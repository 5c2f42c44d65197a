/// A fixture written with position markers (1️⃣ 2️⃣ ...): the text without
/// them, and each marker's UTF-8 offset in that text.
public struct Marked {
  /// The text with the markers removed.
  public let text: String
  /// Offsets by marker number (1️⃣ is index 0).
  public let offsets: [Int]

  static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"].map { Array($0.utf8) }

  /// Strips the markers of `marked`.
  public init(_ marked: String) {
    let bytes = Array(marked.utf8)
    var output: [UInt8] = []
    var offsets = [Int](repeating: -1, count: Self.markers.count)
    var index = 0
    scan: while index < bytes.count {
      for (number, marker) in Self.markers.enumerated() where bytes[index...].starts(with: marker) {
        offsets[number] = output.count
        index += marker.count
        continue scan
      }
      output.append(bytes[index])
      index += 1
    }
    text = String(decoding: output, as: UTF8.self)
    self.offsets = Array(offsets.prefix { $0 >= 0 })
  }
}
