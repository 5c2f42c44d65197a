import OutlineConvert
import OutlineCore
import TestSupport
import Testing

/// `outline convert` both ways over generated models and valid documents (Documentation/JSONForm.md,
/// Round trips). XML -> JSON -> XML is `fmt`'s output for a document the JSON form can carry as it
/// stands: no comments (the JSON form has none), children in the file in their order (the JSON form
/// lists them in order order), and values in the form both write (`true`, not `YES`). For every valid
/// document it is canonical (`fmt` leaves it), lints clean and gives back the same JSON; and
/// JSON -> XML -> JSON is the identity on the JSON form `convert` writes, whatever its layout.
@Suite struct ConvertProperties {
  @Test func xmlToJSONToXMLIsFmtsOutput() throws {
    try Property.check("convert: XML -> JSON -> XML is fmt's output", cases: 150) { random, _ in
      let generated = ModelGenerator.generate(using: &random)
      let model = InProcess.load(generated)
      var options = DocumentGenerator.Options.random(using: &random)
      options.problems = 0
      // A third of the documents as the JSON form can carry them exactly.
      let exact = Int.random(in: 0..<3, using: &random) == 0
      if exact {
        options.comments = false
        options.outOfOrder = false
        options.looseValues = false
      }
      let document = DocumentGenerator.generate(for: generated, options: options, using: &random)
      let errors = InProcess.errors(document.text, model: model)
      guard errors.isEmpty else { return "the valid document has errors: \(errors)\n\(document)" }
      let json = InProcess.toJSON(document.text, model: model)
      let back: String
      do {
        back = try InProcess.toXML(json, model: model)
      } catch {
        return "convert refused its own JSON: \(error)\n\(generated)\n\(document)\n---\n\(json)"
      }
      let formatted = InProcess.format(document.text, model: model)
      if exact && back != formatted {
        return
          "XML -> JSON -> XML differs from fmt\n\(generated)\n\(document)\n---fmt\n\(formatted ?? "refused")\n---convert\n\(back)"
      }
      if InProcess.format(back, model: model) != back {
        return "XML -> JSON -> XML is not in the canonical layout\n\(back)"
      }
      let backErrors = InProcess.errors(back, model: model)
      if !backErrors.isEmpty {
        return "XML -> JSON -> XML has errors: \(backErrors)\n\(document)\n---\n\(back)"
      }
      let again = InProcess.toJSON(back, model: model)
      return again == json ? nil : "XML -> JSON -> XML -> JSON differs\n\(json)\n---\n\(again)"
    }
  }

  @Test func jsonToXMLToJSONIsTheCanonicalJSON() throws {
    try Property.check("convert: JSON -> XML -> JSON is the canonical JSON", cases: 150) { random, _ in
      let generated = ModelGenerator.generate(using: &random)
      let model = InProcess.load(generated)
      var options = DocumentGenerator.Options.random(using: &random)
      options.problems = 0
      let document = DocumentGenerator.generate(for: generated, options: options, using: &random)
      let canonical = InProcess.toJSON(document.text, model: model)
      let input = Bool.random(using: &random) ? Self.untidy(canonical, using: &random) : canonical
      do {
        let xml = try InProcess.toXML(input, model: model)
        let json = InProcess.toJSON(xml, model: model)
        return json == canonical ? nil : "JSON -> XML -> JSON differs\n\(input)\n---\n\(xml)\n---\n\(json)"
      } catch {
        return "convert refused the JSON form it wrote: \(error)\n\(generated)\n\(input)"
      }
    }
  }

  /// `json` with white space added between tokens (never inside strings).
  static func untidy(_ json: String, using random: inout SeededGenerator) -> String {
    var out = ""
    var inString = false
    var escaped = false
    for character in json {
      out.append(character)
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
        continue
      }
      if character == "\"" {
        inString = true
      } else if ",:[{".contains(character) && Bool.random(using: &random) {
        out += [" ", "\n  ", "\t", "\r\n"].randomElement(using: &random)!
      }
    }
    return out
  }
}
