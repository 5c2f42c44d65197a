import Foundation
import TestSupport
import Testing

/// Shell completions and man pages, loaded by the real programs that use them.
@Suite struct CompletionAndManualTests {
  static func installed(_ program: String) -> Bool {
    ["/usr/bin", "/bin", "/usr/local/bin"].contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
    }
  }

  /// Runs `program arguments` and returns its exit status, standard output and standard error.
  static func shell(_ program: String, _ arguments: [String]) throws -> CLI.Output {
    try CLI.program(program, arguments)
  }

  static func script(_ tool: String, _ shell: String) throws -> URL {
    let run = try CLI.run(tool, ["--generate-completion-script", shell])
    #expect(run.status == 0)
    #expect(run.stdout.contains(tool))
    let file = try CLI.temporaryFolder().appendingPathComponent("\(tool).\(shell)")
    try Data(run.stdout.utf8).write(to: file)
    return file
  }

  @Test(.enabled(if: installed("bash"), "bash is not installed: its completion test did not run"))
  func bashLoadsAndCompletes() throws {
    for tool in ["outline", "outline-lint"] {
      let file = try Self.script(tool, "bash")
      let words = tool == "outline" ? ["outline", "lint", "--fo"] : ["outline-lint", "--fo"]
      let line = words.joined(separator: " ")
      // What bash does on TAB: the COMP_ variables, then the function with (command, word, previous word).
      let run = try Self.shell(
        "bash",
        [
          "-c",
          """
          source '\(file.path)' || exit 3
          complete -p \(tool) >/dev/null || exit 4
          COMP_LINE='\(line)'
          COMP_POINT=\(line.count)
          COMP_WORDS=(\(line))
          COMP_CWORD=\(words.count - 1)
          _\(tool) \(tool) --fo \(words[words.count - 2])
          printf '%s\\n' "${COMPREPLY[@]}"
          """,
        ])
      #expect(run.status == 0, "\(tool): \(run.stderr)")
      #expect(run.stderr.isEmpty, "\(run.stderr)")
      #expect(run.stdout.split(separator: "\n").contains("--format"), "\(tool): \(run.stdout)")
    }
  }

  @Test(.enabled(if: installed("zsh"), "zsh is not installed: its completion test did not run"))
  func zshLoads() throws {
    for tool in ["outline", "outline-lint"] {
      let file = try Self.script(tool, "zsh")
      let run = try Self.shell(
        "zsh",
        ["-f", "-c", "autoload -U compinit && compinit -u -D && source '\(file.path)' && whence -w _\(tool)"])
      #expect(run.status == 0, "\(tool): \(run.stderr)")
      #expect(run.stderr.isEmpty, "\(run.stderr)")
      #expect(run.stdout.contains("_\(tool): function"), "\(run.stdout)")
    }
  }

  @Test(.enabled(if: installed("fish"), "fish is not installed: its completion test did not run"))
  func fishLoadsAndCompletes() throws {
    for tool in ["outline", "outline-lint"] {
      let file = try Self.script(tool, "fish")
      let line = tool == "outline" ? "outline lint --fo" : "outline-lint --fo"
      let run = try Self.shell("fish", ["--no-config", "-c", "source '\(file.path)'; complete -C '\(line)'"])
      #expect(run.status == 0, "\(tool): \(run.stderr)")
      #expect(run.stderr.isEmpty, "\(run.stderr)")
      #expect(
        run.stdout.split(separator: "\n").contains { $0.hasPrefix("--format") }, "\(tool): \(run.stdout)")
    }
  }

  @Test(
    .enabled(
      if: installed("groff") && installed("python3"),
      "groff or python3 is missing: the man pages were not checked"))
  func manPagesHaveEveryOptionAndNoWarnings() throws {
    let folder = try CLI.temporaryFolder()
    let tools = ["outline", "outline-lint"].map { CLI.products.appendingPathComponent($0).path }
    let generated = try Self.shell(
      "python3", [CLI.repository.appendingPathComponent("scripts/manpages").path, "-o", folder.path] + tools)
    #expect(generated.status == 0, "\(generated.stderr)")
    for tool in ["outline", "outline-lint"] {
      let page = folder.appendingPathComponent("\(tool).1").path
      let check = try Self.shell("groff", ["-man", "-ww", "-z", "-Tutf8", page])
      #expect(check.status == 0 && check.stderr.isEmpty, "\(tool).1: \(check.stderr)")
      let rendered = try Self.shell("groff", ["-man", "-Tascii", "-P-c", "-P-b", "-P-u", page])
      let text = rendered.stdout
      #expect(text.contains("NAME") && text.contains("SYNOPSIS") && text.contains("EXIT STATUS"))
      let help = try CLI.run(tool, ["--help"])
      for option in ["--help", "--version"]
        + (tool == "outline-lint" ? ["--format", "--fix", "--color", "--statistics"] : [])
      {
        #expect(help.stdout.contains(option) && text.contains(option), "\(tool).1 lacks \(option)")
      }
      if tool == "outline" {
        for command in [
          "outline lint", "outline fmt", "outline convert", "outline model check", "outline lsp",
        ] {
          #expect(text.contains(command), "outline.1 lacks \(command)")
        }
      }
    }
  }
}
