import OutlineModel
import Testing

@testable import OutlineValidation

@Suite struct RootFormatNamesTests {
  /// The byte comparison the validator uses answers as the names do, for each of them, their
  /// prefixes and near misses of their lengths.
  @Test func bytesAnswerAsNames() {
    let candidates =
      RootFormat.attributeNames + RootFormat.attributeNames.map { String($0.dropLast()) }
      + ["Model", "models", "entitY", "versioN", "modelversion", "modelVersions", "title", "", "x"]
    for name in candidates {
      let bytes = Array(name.utf8)
      let answer = bytes.withUnsafeBufferPointer { RootFormat.isAttribute($0) }
      #expect(answer == RootFormat.isAttribute(name), "\(name)")
    }
  }
}
