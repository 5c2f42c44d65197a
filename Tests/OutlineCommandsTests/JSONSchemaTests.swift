import Foundation
import TestSupport
import Testing

/// The JSON that `outline convert` writes validates against schema/outline-json.schema.json
/// with an independent validator: Python's jsonschema.
@Suite struct JSONSchemaTests {
  /// Whether Python's jsonschema can be imported (`.ci/setup --test-tools` installs it).
  static let validatorInstalled: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import jsonschema"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  @Test(
    .enabled(
      if: validatorInstalled,
      "Python's jsonschema is not installed (.ci/setup --test-tools installs it): the schema was not checked")
  )
  func convertedExamplesValidate() throws {
    let folder = try CLI.temporaryFolder()
    var outputs: [String] = []
    for example in [
      "examples/groceries.outline", "examples/tags/sprint.outline", "examples/playlist/road-trip.outline",
    ] {
      let name = folder.appendingPathComponent(URL(fileURLWithPath: example).lastPathComponent + ".json").path
      let run = try CLI.run("outline", ["convert", example, "-o", name])
      #expect(run.status == 0, "\(run.stderr)")
      outputs.append(name)
    }
    let bad = folder.appendingPathComponent("bad.json").path
    try Data(#"{"@outline":2,"children":[{"title":"no entity"}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
    let script = """
      import json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      validator = jsonschema.Draft202012Validator(schema)
      for path in sys.argv[2:-1]:
          errors = list(validator.iter_errors(json.load(open(path))))
          print(path, len(errors), [e.message for e in errors][:3])
          assert not errors
      assert list(validator.iter_errors(json.load(open(sys.argv[-1])))), "the bad document validated"
      print("ok")
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["python3", "-c", script, CLI.repository.path + "/schema/outline-json.schema.json"] + outputs + [bad]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "python3 + jsonschema: \(output)")
    #expect(output.hasSuffix("ok\n"))
  }
}
