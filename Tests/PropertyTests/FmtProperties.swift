import OutlineCore
import TestSupport
import Testing

/// `outline fmt` over generated models and documents, valid and broken (Documentation/Format.md,
/// the canonical layout): it refuses only what does not parse or holds text, formatting twice
/// changes nothing, the data stays (elements, attributes, values, comments, in their order), and
/// the result lints exactly as the input did: the same codes on the same items.
@Suite struct FmtProperties {
  /// A generated model, one of its documents (valid or broken, any layout), and the model loaded.
  static func generate(_ random: inout SeededGenerator) -> (GeneratedModel, GeneratedDocument) {
    let model = ModelGenerator.generate(using: &random)
    let options = DocumentGenerator.Options.random(using: &random)
    return (model, DocumentGenerator.generate(for: model, options: options, using: &random))
  }

  @Test func fmtIsIdempotentKeepsTheDataAndLintsAsItsInput() throws {
    try Property.check("fmt: idempotent, data kept, lints as its input", cases: 150) { random, _ in
      let (generated, document) = Self.generate(&random)
      let model = InProcess.load(generated)
      let before = InProcess.lint(document.text, model: model)
      let refuses = before.contains { ["OL100", "OL104", "OL105"].contains($0.code.rawValue) }
      guard let formatted = InProcess.format(document.text, model: model) else {
        return refuses ? nil : "fmt refused a document that parses and holds no text\n\(document)"
      }
      if refuses && !before.contains(where: { $0.code.rawValue == "OL100" }) {
        return "fmt formatted a document with text or a DOCTYPE: \(before.map(\.code))\n\(document)"
      }
      if refuses { return nil }  // cut short: what fmt writes of it is not a promise
      if let again = InProcess.format(formatted, model: model), again != formatted {
        return "fmt is not idempotent\n\(formatted)\n---\n\(again)"
      }
      let dataBefore = DataDigest.of(document.text, model: generated)
      let dataAfter = DataDigest.of(formatted, model: generated)
      if dataBefore != dataAfter {
        let changed = zip(dataBefore, dataAfter).first { $0 != $1 }
        return
          "fmt changed the data: \(changed.map { "\($0.0) -> \($0.1)" } ?? "count \(dataBefore.count) -> \(dataAfter.count)")\n\(document)\n---\n\(formatted)"
      }
      let after = InProcess.lint(formatted, model: model)
      let codesBefore = InProcess.codesByElement(before, in: document.text)
      let codesAfter = InProcess.codesByElement(after, in: formatted)
      if codesBefore != codesAfter {
        return
          "fmt changed what lint says: \(codesBefore) -> \(codesAfter)\n\(generated)\n\(document)\n---\n\(formatted)"
      }
      return nil
    }
  }
}
