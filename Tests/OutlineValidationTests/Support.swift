import Foundation
import OutlineCore
import OutlineModel
import OutlineValidation
@_exported import TestSupport

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
