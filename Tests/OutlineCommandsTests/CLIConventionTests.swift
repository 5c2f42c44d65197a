import Foundation
import OutlineCore
import TestSupport
import Testing

/// Both binaries behave as Unix tools do: `--version`, `--help` exit 0,
/// usage errors exit 2, each names itself, color only where it belongs,
/// progress only on a terminal, counts that read right.
@Suite struct CLIConventionTests {
  static let broken = CLI.repository.appendingPathComponent("examples/broken/orders.outline").path

  /// Every command path of `outline` (`["lint"]`, `["model", "check"]`, ...), from its own description.
  static func commandPaths() throws -> [[String]] {
    let dump = try CLI.run("outline", ["--experimental-dump-help"])
    let root = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as! [String: Any]
    var paths: [[String]] = []
    var stack: [([String], [String: Any])] = [([], root["command"] as! [String: Any])]
    while let (path, command) = stack.popLast() {
      for sub in command["subcommands"] as? [[String: Any]] ?? [] {
        let name = sub["commandName"] as! String
        if name == "help" { continue }
        paths.append(path + [name])
        stack.append((path + [name], sub))
      }
    }
    return paths.sorted { $0.joined(separator: " ") < $1.joined(separator: " ") }
  }

  @Test func versionIsTheSameEverywhere() throws {
    for tool in ["outline", "outline-lint"] {
      let run = try CLI.run(tool, ["--version"])
      #expect(run.status == 0)
      #expect(run.stdout == ToolVersion.current + "\n")
    }
    let sarif = try CLI.run("outline-lint", ["--format", "sarif", Self.broken])
    let document = try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as! [String: Any]
    let driver =
      ((document["runs"] as! [[String: Any]])[0]["tool"] as! [String: Any])["driver"] as! [String: Any]
    #expect(driver["version"] as? String == ToolVersion.current)
    let client = try LSPClient()
    let initialized = client.initialize()
    #expect(initialized?["result"]?["serverInfo"]?["version"] == .string(ToolVersion.current))
    _ = client.close()
  }

  @Test func helpExitsZeroAndUsageErrorsExitTwoOnEveryCommand() throws {
    let paths = try Self.commandPaths()
    #expect(paths.contains(["lint"]) && paths.contains(["model", "check"]))
    for tool in [("outline-lint", [String]())] + paths.map({ ("outline", $0) }) {
      let (binary, path) = tool
      let help = try CLI.run(binary, path + ["--help"])
      #expect(help.status == 0, "\(binary) \(path) --help")
      #expect(help.stdout.contains("USAGE: \(([binary] + path).joined(separator: " "))"), "\(help.stdout)")
      let unknown = try CLI.run(binary, path + ["--no-such-option"])
      #expect(unknown.status == 2, "\(binary) \(path) --no-such-option: \(unknown.stderr)")
      #expect(unknown.stderr.hasPrefix("Error: "), "\(unknown.stderr)")

      #expect(
        unknown.stderr.contains("Usage: \(([binary] + path).joined(separator: " "))"), "\(unknown.stderr)")
    }
    let named = try CLI.run("outline-lint", ["--no-such-option", Self.broken])
    #expect(named.status == 2 && named.stderr.hasPrefix("Error: Unknown option '--no-such-option'"))
    // Bad values and a missing option value (no path at all lints the current folder).
    for arguments in [["--format", "xml", Self.broken], ["--jobs", "0", Self.broken], ["--jobs"]] {
      let run = try CLI.run("outline-lint", arguments)
      #expect(run.status == 2, "\(arguments): \(run.stderr)")
    }
    // fmt with no path formats the current folder, as lint lints it: its usage errors are others.
    #expect(try CLI.run("outline", ["fmt", "-", "-"]).status == 2)
    #expect(try CLI.run("outline", ["fmt", "--stdin-filename", "a.outline", "b.outline"]).status == 2)
    #expect(try CLI.run("outline", ["convert"]).status == 2)
    #expect(try CLI.run("outline", ["no-such-command"]).status == 2)
  }

  /// A `--jobs` out of range or not a number is one usage error naming the option and what
  /// it takes, whatever the spelling: `-1` is a value, not a missing one.
  @Test(arguments: ["-1", "0", "abc", "2.5"])
  func badJobCountsSayWhatJobsTakes(value: String) throws {
    for arguments in [
      ["outline-lint", "--jobs", value, Self.broken], ["outline-lint", "--jobs=\(value)", Self.broken],
      ["outline", "lint", "--jobs", value, Self.broken],
    ] {
      let run = try CLI.run(arguments[0], Array(arguments.dropFirst()))
      #expect(run.status == 2, "\(arguments): \(run)")
      #expect(run.stdout.isEmpty, "\(arguments): \(run.stdout)")
      #expect(
        run.stderr.hasPrefix("Error: --jobs must be a whole number of at least 1, not '\(value)'.\nUsage: "),
        "\(arguments): \(run.stderr)")
    }
  }

  @Test func eachBinaryNamesItself() throws {
    let usage = try CLI.run("outline-lint", ["--jobs", "x", Self.broken])
    #expect(usage.stderr.contains("outline-lint"))
    #expect(!usage.stderr.contains("Usage: lint"))
    let missing = try CLI.run("outline-lint", ["no-such.outline"])
    #expect(missing.stderr.hasPrefix("outline-lint: 'no-such.outline' does not exist"), "\(missing.stderr)")
    let subcommand = try CLI.run("outline", ["lint", "no-such.outline"])
    #expect(subcommand.stderr.hasPrefix("outline: 'no-such.outline' does not exist"), "\(subcommand.stderr)")
  }

  @Test func colorOnlyWhereItBelongs() throws {
    let escape = "\u{1B}["
    // Into a pipe: never, unless asked.
    #expect(!(try CLI.run("outline-lint", [Self.broken]).stdout.contains(escape)))
    #expect(!(try CLI.run("outline-lint", ["--color", "never", Self.broken]).stdout.contains(escape)))
    let always = try CLI.run("outline-lint", ["--color", "always", Self.broken])
    #expect(always.stdout.contains("\(escape)1;31merror\(escape)0m"))
    // json, sarif and github are never colored.
    #expect(
      !(try CLI.run("outline-lint", ["--color", "always", "--format", "json", Self.broken]).stdout.contains(
        escape)))
    // On a terminal: colored, unless NO_COLOR is set.
    let tool = CLI.products.appendingPathComponent("outline-lint").path
    let terminal = try Terminal.run("\(tool) \(Self.broken)")
    #expect(terminal.contains("\(escape)1;31merror"), "\(terminal)")
    let noColor = try Terminal.run("\(tool) \(Self.broken)", environment: ["NO_COLOR": "1"])
    #expect(noColor.contains("error[OL401]") && !noColor.contains(escape), "\(noColor)")
    let forced = try Terminal.run("\(tool) --color always \(Self.broken)", environment: ["NO_COLOR": "1"])
    #expect(forced.contains(escape))
    let model = try Terminal.run(
      "\(CLI.products.appendingPathComponent("outline").path) model check --color never \(CLI.repository.path)/schema/Outline.xcdatamodeld"
    )
    #expect(!model.contains(escape))
  }

  @Test func progressOnlyWhenStandardErrorIsATerminal() throws {
    let folder = try CLI.temporaryFolder()
    var files: [String: String] = [:]
    for index in 0..<60 {
      files["d\(index % 5)/f\(index).outline"] =
        "<outline version=\"1\"><Item title=\"t\" order=\"0\"/></outline>\n"
    }
    try CLI.write(files, in: folder)
    let piped = try CLI.run("outline-lint", ["."], in: folder)
    #expect(piped.status == 0)
    #expect(piped.stderr.isEmpty, "\(piped.stderr)")
    let tool = CLI.products.appendingPathComponent("outline-lint").path
    let terminal = try Terminal.run("cd \(folder.path) && \(tool) --jobs 1 .")
    #expect(terminal.contains("linting 60/60"), "\(terminal)")
    #expect(terminal.contains("0 errors, 0 warnings in 60 files"))
  }

  @Test func progressForOneLargeFile() throws {
    let folder = try CLI.temporaryFolder()
    // 17 MB: a single file this large shows its progress.
    var big = Array("<outline version=\"1\">\n".utf8)
    big.reserveCapacity(18 << 20)
    for order in 0..<500_000 { big += Array("  <Item title=\"An item\" order=\"\(order)\"/>\n".utf8) }
    big += Array("</outline>\n".utf8)
    #expect(big.count >= 16 << 20)
    try Data(big).write(to: folder.appendingPathComponent("big.outline"))
    let piped = try CLI.run("outline-lint", ["big.outline"], in: folder)
    #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    let tool = CLI.products.appendingPathComponent("outline-lint").path
    let terminal = try Terminal.run("cd \(folder.path) && \(tool) big.outline")
    #expect(terminal.contains("linting big.outline 100% ("), "\(terminal.suffix(300))")
    #expect(terminal.contains("0 errors, 0 warnings in 1 file"))
  }

  @Test func statisticsCountEveryCode() throws {
    let run = try CLI.run("outline-lint", ["--statistics", Self.broken])
    #expect(run.status == 1)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 5, "\(run.stdout)")
    #expect(lines[0] == "1  OL400  [*] Order missing")
    #expect(lines[1].hasPrefix("1  OL401  [*] "))
    #expect(lines[2].hasPrefix("1  OL402  [*] "))
    #expect(lines[3] == "3 errors, 0 warnings in 1 file")
    #expect(lines[4] == "[*] fixable with --fix")
    let json = try CLI.run("outline-lint", ["--statistics", "--format", "json", Self.broken])
    let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
    #expect(rows.map { $0["code"] as! String } == ["OL400", "OL401", "OL402"])
    #expect(rows.allSatisfy { $0["count"] as? Int == 1 && $0["fixable"] as? Bool == true })
    #expect(try CLI.run("outline-lint", ["--statistics", "--format", "sarif", Self.broken]).status == 2)
  }

  /// `--fix` leaves the JSON form alone, so its order errors are not marked fixable.
  @Test func statisticsMarkOnlyWhatFixRepairs() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      ["l.outline.json": #"{"children":[{"@entity":"Item","order":0},{"@entity":"Item","order":0}]}"#],
      in: folder)
    let run = try CLI.run("outline-lint", ["--statistics", "l.outline.json"], in: folder)
    #expect(run.stdout.hasPrefix("1  OL401      Duplicate order among siblings\n"), "\(run.stdout)")
    #expect(!run.stdout.contains("[*]"), "\(run.stdout)")
  }

  @Test func countsReadRight() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "one.outline": """
        <outline version="1">
          <Item title="Only" order="0"><Item title="Child" order="1"/></Item>
        </outline>
        """
      ], in: folder)
    let run = try CLI.run("outline-lint", ["one.outline"], in: folder)
    #expect(run.stdout.contains("the only child of 'Only' is numbered 0"), "\(run.stdout)")
    #expect(run.stdout.hasSuffix("1 error, 0 warnings in 1 file\n"), "\(run.stdout)")
    let fix = try CLI.run("outline-lint", ["--fix", "one.outline"], in: folder)
    #expect(fix.stderr.contains("1 order value renumbered, 0 errors remain"), "\(fix.stderr)")
  }

  @Test func pathsThatCannotBeCheckedAreInEveryFormat() throws {
    let missing = "no-such.outline"
    let json = try CLI.run("outline-lint", ["--format", "json", Self.broken, missing])
    #expect(json.status == 2)
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
    let files = document["files"] as! [[String: Any]]
    #expect(files.count == 2)
    #expect(files[1]["path"] as? String == missing)
    #expect((files[1]["error"] as? String)?.contains("does not exist") == true)
    #expect((document["summary"] as! [String: Any])["unchecked"] as? Int == 1)

    let sarif = try CLI.run("outline-lint", ["--format", "sarif", Self.broken, missing])
    #expect(sarif.status == 2)
    let log = try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as! [String: Any]
    let run = (log["runs"] as! [[String: Any]])[0]
    let invocation = (run["invocations"] as! [[String: Any]])[0]
    #expect(invocation["executionSuccessful"] as? Bool == false)
    let notifications = invocation["toolExecutionNotifications"] as! [[String: Any]]
    #expect(notifications.count == 1)
    #expect(((notifications[0]["message"] as! [String: Any])["text"] as! String).contains(missing))

    let github = try CLI.run("outline-lint", ["--format", "github", missing])
    #expect(github.stdout.hasPrefix("::error file=\(missing),title=outline-lint::"), "\(github.stdout)")
    let text = try CLI.run("outline-lint", [Self.broken, missing])
    #expect(text.stdout.hasSuffix("3 errors, 0 warnings in 1 file; 1 path could not be checked\n"))
  }

  @Test func sarifLinksPointAtRealDocumentation() throws {
    let sarif = try CLI.run("outline-lint", ["--format", "sarif", Self.broken])
    let log = try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as! [String: Any]
    let driver = ((log["runs"] as! [[String: Any]])[0]["tool"] as! [String: Any])["driver"] as! [String: Any]
    let rules = driver["rules"] as! [[String: Any]]
    let diagnostics = try String(
      contentsOf: CLI.repository.appendingPathComponent("Documentation/Diagnostics.md"), encoding: .utf8)
    for rule in rules {
      let link = try #require(rule["helpUri"] as? String)
      let url = try #require(URL(string: link))
      #expect(url.isFileURL && FileManager.default.fileExists(atPath: url.path), "\(link)")
      #expect(url.lastPathComponent == "Diagnostics.md")
      // The anchor is the code's heading.
      #expect(diagnostics.contains("(#\(url.fragment!))"), "\(link)")
    }
    let information = try #require(driver["informationUri"] as? String)
    #expect(FileManager.default.fileExists(atPath: URL(string: information)!.path))
    #expect(!sarif.stdout.contains("example.invalid"))
    // A hosted copy, as the GitHub Action sets it.
    let hosted = try CLI.run(
      "outline-lint", ["--format", "sarif", Self.broken],
      environment: ["OUTLINE_DOCUMENTATION_URL": "https://docs.example.org/outline/Documentation"])
    #expect(
      hosted.stdout.contains(
        "\"helpUri\": \"https://docs.example.org/outline/Documentation/Diagnostics.md#ol401\""))
  }
}

/// Runs a shell command with a pseudo-terminal for its standard streams
/// (util-linux `script`), as a user at a terminal would; returns all it printed.
enum Terminal {
  static func run(_ command: String, environment: [String: String] = [:]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qefc", command, "/dev/null"]
    var variables = ProcessInfo.processInfo.environment
    variables.removeValue(forKey: "NO_COLOR")
    variables["TERM"] = "xterm"
    for (key, value) in environment { variables[key] = value }
    process.environment = variables
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
