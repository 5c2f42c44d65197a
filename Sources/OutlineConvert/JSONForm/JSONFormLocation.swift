import OutlineCore
import OutlineModel

extension JSONFormReader {
  /// Where each of `offsets` (into the XML that ``convert(_:choosingModel:output:restart:)``
  /// writes for `bytes` read with `model`) comes from in the JSON: the path and offset of the
  /// object or key whose start or end tag bytes hold it. An offset it cannot place is absent.
  public static func locate(_ offsets: [Int], in bytes: ByteBuffer, model: Model) -> [Int: (
    path: String, offset: Int
  )] {
    guard !offsets.isEmpty else { return [:] }
    // The XML is written with the attributes that come after an array of children, when some do.
    var collect = Transcoder(bytes: bytes, model: model, mode: .collectLate)
    try? collect.run()
    var locate = Transcoder(
      bytes: bytes, model: model, mode: .write(late: collect.collected.isEmpty ? nil : collect.collected))
    locate.locating = Array(Set(offsets)).sorted()
    try? locate.run()
    return locate.located
  }
}
