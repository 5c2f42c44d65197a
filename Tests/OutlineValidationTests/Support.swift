import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation

/// A fixture written with markers (1️⃣ 2️⃣ ...): the text without them and each marker's offset.
struct Marked {
  let text: String
  /// Offsets by marker number (1️⃣ is index 0).
  let offsets: [Int]

  static let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"].map { Array($0.utf8) }

  init(_ marked: String) {
    let bytes = Array(marked.utf8)
    var output: [UInt8] = []
    var offsets = [Int](repeating: -1, count: Self.markers.count)
    var index = 0
    scan: while index < bytes.count {
      for (number, marker) in Self.markers.enumerated()
      where bytes[index...].starts(with: marker) {
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

enum Fixtures {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  static let testModel: Model = {
    let url = folder.appendingPathComponent("models/Test.xcdatamodel/contents")
    let data = try! Data(contentsOf: url)
    return ModelLoader.load(SourceText(bytes: [UInt8](data)), path: url.path)
  }()
}

/// Validates `text` against the test model (or `model`).
func validate(_ text: String, model: Model = Fixtures.testModel) -> [Diagnostic] {
  OutlineValidator.validate(SourceText(text), modelProvider: fixedModel(model)).diagnostics
}

/// Wraps items in a root element.
func document(_ body: String) -> String {
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<outline version=\"1\">\n\(body)\n</outline>\n"
}
