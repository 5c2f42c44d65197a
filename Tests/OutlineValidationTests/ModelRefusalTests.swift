import OutlineCore
import OutlineModel
import OutlineValidation
import Testing

/// OL106: a provider that refuses the model (outside the project) is
/// reported on the `model` attribute's value, and nothing is validated against a model.
@Suite struct ModelRefusalTests {
  @Test func refusedModelIsReportedOnTheAttribute() {
    let marked = Marked("<outline model=\"1️⃣/etc/passwd\"><Item order=\"0\"/></outline>\n")
    nonisolated(unsafe) var asked: [String?] = []
    let diagnostics = OutlineValidator.validate(
      SourceText(marked.text),
      modelProvider: { attribute in
        asked.append(attribute)
        return .refused("The model '/etc/passwd' is outside the project '/p'")
      }
    ).diagnostics
    #expect(asked == ["/etc/passwd"])
    #expect(diagnostics.map(\.code) == [.modelOutsideProject])
    #expect(diagnostics.first?.range.start == marked.offsets.first)
    #expect(diagnostics.first?.message == "The model '/etc/passwd' is outside the project '/p'")
    #expect(diagnostics.first?.severity == .error)
  }

  @Test func refusedModelFromTheConfigurationIsReportedOnTheRoot() {
    let marked = Marked("<1️⃣outline><Item order=\"0\"/></outline>\n")
    let diagnostics = OutlineValidator.validate(
      SourceText(marked.text), modelProvider: { _ in .refused("outside") }
    ).diagnostics
    #expect(diagnostics.map(\.code) == [.modelOutsideProject])
    #expect(diagnostics.first?.range.start == marked.offsets.first)
  }
}
