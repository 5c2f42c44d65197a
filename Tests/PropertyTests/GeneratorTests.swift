import OutlineCore
import OutlineModel
import TestSupport
import Testing

/// The generators make what they say: models the model check accepts, valid documents that lint
/// with no errors, and broken ones that do not.
@Suite struct GeneratorTests {
  @Test func modelsHaveNoErrors() throws {
    try Property.check("generated models check clean", cases: 60) { random, _ in
      let generated = ModelGenerator.generate(using: &random)
      let model = InProcess.load(generated)
      let errors = model.diagnostics.filter { $0.severity == .error }
      return errors.isEmpty ? nil : "\(errors.map(\.message))\n\(generated.text)"
    }
  }

  @Test func validDocumentsLintWithoutErrors() throws {
    try Property.check("valid documents lint clean", cases: 100) { random, _ in
      let generated = ModelGenerator.generate(using: &random)
      let model = InProcess.load(generated)
      var options = DocumentGenerator.Options.random(using: &random)
      options.problems = 0
      let document = DocumentGenerator.generate(for: generated, options: options, using: &random)
      let errors = InProcess.errors(document.text, model: model)
      return errors.isEmpty ? nil : "\(errors)\n\(generated)\n\(document)"
    }
  }

  @Test func brokenDocumentsHaveErrors() throws {
    try Property.check("broken documents have errors", cases: 100) { random, _ in
      let generated = ModelGenerator.generate(using: &random)
      let model = InProcess.load(generated)
      var options = DocumentGenerator.Options.random(using: &random)
      options.problems = max(1, options.problems)
      let document = DocumentGenerator.generate(for: generated, options: options, using: &random)
      let errors = InProcess.errors(document.text, model: model)
      return !errors.isEmpty || document.problems == ["nothing could be broken"]
        ? nil : "no error\n\(generated)\n\(document)"
    }
  }
}
