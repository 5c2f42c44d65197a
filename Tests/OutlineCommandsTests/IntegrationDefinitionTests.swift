import Foundation
import TestSupport
import Testing

/// `.pre-commit-hooks.yaml` and `action.yml` do what Documentation/CI.md says:
/// each hook's command runs as pre-commit runs it, and the action's lint step
/// runs as GitHub runs it, against the built binaries.
///
/// Both files are read with PyYAML (an independent YAML parser).
@Suite(
  .enabled(
    if: hasPyYAML,
    "python3 with PyYAML is absent (Debian: python3-yaml); the hook and action definitions are not checked"))
struct IntegrationDefinitionTests {
  /// A YAML file of the repository as Foundation values (through JSON).
  static func yaml(_ path: String) throws -> Any {
    let script = "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)"
    let run = try runProcess(
      "/usr/bin/env", ["python3", "-c", script, CLI.repository.appendingPathComponent(path).path])
    try #require(run.status == 0, "PyYAML cannot read \(path): \(run.stderr)")
    return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
  }

  static let clean = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item order="0" title="Groceries">
        <Item order="0" title="Milk"/>
      </Item>
    </outline>

    """
  static let broken = """
    <?xml version="1.0" encoding="UTF-8"?>
    <outline version="1">
      <Item order="0" title="Groceries"/>
      <Item order="0" title="Work"/>
    </outline>

    """
  /// Valid, but not in the canonical layout.
  static let messy = """
    <outline version="1"><Item order="0"   title="Groceries"><Item title="Milk" order="0" /></Item></outline>
    """
  static let unparsable = "<outline><Item title=\"a\" order=\"0\"></outline>\n"

  static func fixtureFolder() throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "clean.outline": clean, "broken.outline": broken, "messy.outline": messy,
        "unparsable.outline": unparsable, "notes.txt": "not an outline\n",
      ], in: folder)
    return folder
  }

  // MARK: pre-commit

  /// What pre-commit runs for `hook` on `files`: `entry` split into words, then
  /// `args`, then the files its `files` pattern selects (Python's `re.search`).
  static func invoke(_ hook: [String: Any], files: [String], in folder: URL) throws -> CLI.Output {
    let entry = (hook["entry"] as? String ?? "").split(separator: " ").map(String.init)
    let tool = try #require(entry.first, "hook \(hook["id"] ?? "?") has no entry")
    #expect(
      FileManager.default.isExecutableFile(atPath: CLI.products.appendingPathComponent(tool).path),
      "hook \(hook["id"] ?? "?"): '\(tool)' is not a product this package builds")
    let pattern = try NSRegularExpression(pattern: hook["files"] as? String ?? "")
    let selected = files.filter {
      pattern.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
    }
    let args = hook["args"] as? [String] ?? []
    return try CLI.run(tool, Array(entry.dropFirst()) + args + selected, in: folder)
  }

  static func contents(_ name: String, in folder: URL) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  @Test func preCommitHooksRunAsPreCommitRunsThem() throws {
    let hooks = try #require(try Self.yaml(".pre-commit-hooks.yaml") as? [[String: Any]])
    #expect(hooks.map { $0["id"] as? String } == ["outline-lint", "outline-fmt"])
    for hook in hooks {
      // pre-commit's swift language builds the package in release and puts .build/release on PATH.
      #expect(hook["language"] as? String == "swift", "hook \(hook["id"] ?? "?")")
      #expect(hook["files"] as? String == "\\.outline$", "hook \(hook["id"] ?? "?")")
    }
    let lint = try #require(hooks.first { $0["id"] as? String == "outline-lint" })
    let fmt = try #require(hooks.first { $0["id"] as? String == "outline-fmt" })
    let folder = try Self.fixtureFolder()

    // notes.txt is filtered out: outline-lint would report it as not XML.
    var run = try Self.invoke(lint, files: ["clean.outline", "notes.txt"], in: folder)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    run = try Self.invoke(lint, files: ["clean.outline", "broken.outline", "notes.txt"], in: folder)
    #expect(run.status == 1)
    #expect(run.stdout.contains("broken.outline:4:"), "\(run.stdout)")
    #expect(run.stdout.contains("OL401"), "\(run.stdout)")

    // pre-commit fails a hook that exits non-zero or changes a file; a second run passes.
    run = try Self.invoke(fmt, files: ["clean.outline", "messy.outline", "notes.txt"], in: folder)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.contents("clean.outline", in: folder) == Self.clean)
    let formatted = try Self.contents("messy.outline", in: folder)
    #expect(
      formatted == Self.clean, "fmt did not rewrite messy.outline in the canonical layout:\n\(formatted)")
    #expect(try Self.contents("notes.txt", in: folder) == "not an outline\n")
    run = try Self.invoke(fmt, files: ["clean.outline", "messy.outline"], in: folder)
    #expect(run.status == 0)
    #expect(try Self.contents("messy.outline", in: folder) == formatted)

    // A file that does not parse fails the hook and is left as it was.
    run = try Self.invoke(fmt, files: ["unparsable.outline"], in: folder)
    #expect(run.status == 1)
    #expect(run.stderr.contains("unparsable.outline"), "\(run.stderr)")
    #expect(try Self.contents("unparsable.outline", in: folder) == Self.unparsable)
  }

  // MARK: GitHub Action

  /// A step's `env` value with the expressions GitHub would evaluate:
  /// `${{ inputs.NAME }}` and `${{ steps.lint.outputs.NAME }}`; any other
  /// expression is recorded as an issue (the test would not run what GitHub runs).
  /// The `github` context is that of an action used as `owner/outline@v1`.
  static let github = [
    "server_url": "https://github.com", "action_repository": "owner/outline", "action_ref": "v1",
  ]

  static func expand(_ value: String, inputs: [String: String], outputs: [String: String]) -> String {
    var result = value
    while let open = result.range(of: "${{"),
      let close = result.range(of: "}}", range: open.upperBound..<result.endIndex)
    {
      let expression = result[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
      let replacement: String
      if expression.hasPrefix("inputs."), let input = inputs[String(expression.dropFirst(7))] {
        replacement = input
      } else if expression.hasPrefix("github."), let context = github[String(expression.dropFirst(7))] {
        replacement = context
      } else if expression.hasPrefix("steps.lint.outputs.") {
        replacement = outputs[String(expression.dropFirst(19))] ?? ""
      } else {
        Issue.record("action.yml: the test cannot evaluate '\(expression)' in a step it runs")
        replacement = ""
      }
      result.replaceSubrange(open.lowerBound..<close.upperBound, with: replacement)
    }
    return result
  }

  struct StepRun {
    var status: Int32
    var stdout: String
    var outputs: [String: String]
  }

  /// Runs a `shell: bash` step as GitHub does (`bash --noprofile --norc -eo pipefail FILE`)
  /// in `folder`, with the built binaries first on PATH.
  static func run(
    _ step: [String: Any], inputs: [String: String], outputs: [String: String] = [:], in folder: URL
  ) throws -> StepRun {
    let script = folder.appendingPathComponent(".step-\(UUID().uuidString).sh")
    let outputFile = folder.appendingPathComponent(".github-output-\(UUID().uuidString)")
    try Data((step["run"] as? String ?? "").utf8).write(to: script)
    try Data().write(to: outputFile)
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = CLI.products.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["GITHUB_OUTPUT"] = outputFile.path
    environment["GITHUB_WORKSPACE"] = folder.path
    environment["RUNNER_TEMP"] = folder.path
    for (key, value) in step["env"] as? [String: Any] ?? [:] {
      environment[key] = expand("\(value)", inputs: inputs, outputs: outputs)
    }
    let run = try runProcess(
      "/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", script.path], environment: environment,
      in: folder)
    var written: [String: String] = [:]
    for line in try String(contentsOf: outputFile, encoding: .utf8).split(separator: "\n") {
      if let equals = line.firstIndex(of: "=") {
        written[String(line[..<equals])] = String(line[line.index(after: equals)...])
      }
    }
    try? FileManager.default.removeItem(at: script)
    try? FileManager.default.removeItem(at: outputFile)
    return StepRun(status: run.status, stdout: run.stdout, outputs: written)
  }

  @Test func actionStepsRunAsGitHubRunsThem() throws {
    let action = try #require(try Self.yaml("action.yml") as? [String: Any])
    let runs = try #require(action["runs"] as? [String: Any])
    #expect(runs["using"] as? String == "composite")
    let steps = try #require(runs["steps"] as? [[String: Any]])
    var defaults: [String: String] = [:]
    for (name, input) in action["inputs"] as? [String: [String: Any]] ?? [:] {
      defaults[name] = input["default"].map { "\($0)" } ?? ""
    }
    #expect(Set(defaults.keys).isSuperset(of: ["paths", "format", "args", "ref"]))

    // Inputs reach scripts through env only (never `${{ }}` inside a script),
    // and every outline-lint option the scripts use is one the binary lists.
    let known = CLIDocumentationTests.options(inHelp: try CLI.run("outline-lint", ["--help"]).stdout)
    for step in steps {
      guard let script = step["run"] as? String else { continue }
      #expect(step["shell"] as? String == "bash", "step '\(step["name"] ?? "?")' needs shell: bash")
      #expect(!script.contains("${{"), "step '\(step["name"] ?? "?")' puts an expression in its script")
      for line in script.split(separator: "\n") {
        let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
        guard words.first == "outline-lint" else { continue }
        for word in words where word.hasPrefix("--") {
          #expect(known.contains(String(word)), "action.yml passes \(word), which outline-lint does not list")
        }
      }
    }
    let build = try #require(steps.first { ($0["run"] as? String)?.contains("swift build") == true })
    let buildScript = build["run"] as? String ?? ""
    #expect(buildScript.contains("-c release"))
    #expect(buildScript.contains("/.build/release\" >> \"$GITHUB_PATH\""))
    let lint = try #require(steps.first { $0["id"] as? String == "lint" })
    let last = try #require(steps.last)
    let upload = try #require(
      steps.first { ($0["uses"] as? String)?.hasPrefix("github/codeql-action/upload-sarif@") == true })
    #expect(
      (upload["with"] as? [String: Any])?["sarif_file"] as? String == "${{ steps.lint.outputs.sarif-file }}")

    let folder = try Self.fixtureFolder()
    try FileManager.default.removeItem(at: folder.appendingPathComponent("unparsable.outline"))
    try FileManager.default.removeItem(at: folder.appendingPathComponent("messy.outline"))
    func check(_ overrides: [String: String], status expected: Int32) throws -> StepRun {
      let inputs = defaults.merging(overrides) { $1 }
      let step = try Self.run(lint, inputs: inputs, in: folder)
      #expect(step.status == 0, "the lint step itself failed: \(step.stdout)")
      #expect(step.outputs["exit-code"] == "\(expected)", "\(overrides): \(step.stdout)")
      // The last step passes the status through.
      let final = try Self.run(last, inputs: inputs, outputs: step.outputs, in: folder)
      #expect(final.status == expected, "\(overrides): the last step exited \(final.status)")
      return step
    }

    _ = try check(["paths": "clean.outline"], status: 0)
    var step = try check([:], status: 1)  // the default path "." finds broken.outline
    #expect(step.stdout.contains("::error file=broken.outline,line=4,"), "\(step.stdout)")
    step = try check(["paths": "clean.outline\nbroken.outline", "args": "--quiet --jobs 1"], status: 1)
    #expect(step.stdout.contains("::error file=broken.outline,"), "\(step.stdout)")
    step = try check(["paths": "missing.outline"], status: 2)

    step = try check(["format": "sarif", "paths": "clean.outline broken.outline"], status: 1)
    #expect(step.outputs["sarif-file"] == "outline.sarif")
    let sarif = try Data(contentsOf: folder.appendingPathComponent("outline.sarif"))
    let log = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
    let results = ((log["runs"] as? [[String: Any]])?.first?["results"] as? [Any]) ?? []
    #expect(log["version"] as? String == "2.1.0")
    #expect(!results.isEmpty)

    step = try check(["format": "xml"], status: 2)
    #expect(step.stdout.contains("::error::"), "\(step.stdout)")
  }
}

/// Whether `python3` can import PyYAML.
private let hasPyYAML: Bool = (try? runProcess("/usr/bin/env", ["python3", "-c", "import yaml"]).status) == 0

/// Runs a program with an environment, collecting its output.
private func runProcess(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil
) throws -> CLI.Output {
  try CLI.program(executable, arguments, environment: environment, in: folder)
}
