import ArgumentParser
import Foundation
import OutlineCore

/// How both binaries start and end, as a Unix tool does: `--help` and
/// `--version` exit 0 (2 when standard output cannot take them); a usage error
/// (unknown option or command, missing argument, bad value) prints the error
/// and the usage on standard error and exits 2; a command's own exit status
/// passes through; any other error is reported as `NAME: message` and exits 2.
public enum CommandLineTool {
  /// Runs `Root` on the process's arguments, naming itself `name` in messages; never returns.
  ///
  /// `quick` may take the arguments (without the program's name) and return
  /// the run they ask for without ArgumentParser building its tables (a
  /// process start's largest cost); when it returns nil, ArgumentParser reads them.
  public static func main<Root: ParsableCommand>(
    _ root: Root.Type, name: String, quick: (([String]) -> (() throws -> Void)?)? = nil
  ) -> Never {
    Terminal.toolName = name
    do {
      var arguments = Array(CommandLine.arguments.dropFirst())
      if let run = quick?(arguments) {
        try run()
      } else {
        if let problem = emptyValueProblem(Root.self, arguments) {
          Terminal.error(problem)
          Foundation.exit(2)
        }
        if let problem = unknownCommandProblem(Root.self, arguments) {
          Terminal.write(problem, to: 2)
          Foundation.exit(2)
        }
        let (named, words) = command(Root.self, arguments)
        // `outline help ...` names commands, not options.
        let scanned = Root.configuration.subcommands.isEmpty || arguments.first != "help"
        let own = Array(arguments[words...])
        if !scanned, let problem = helpCommandProblem(Root.self, arguments) {
          Terminal.write(problem, to: 2)
          Foundation.exit(2)
        }
        if scanned && OptionScan.isNeeded(own) {
          arguments = Array(arguments[..<words]) + scannedArguments(Root.self, named, arguments, words: words)
        }
        var command: any ParsableCommand
        do {
          command = try Root.parseAsRoot(arguments)
        } catch {
          // ArgumentParser's own error may be a later one (a missing argument before an
          // unknown option) or a help request it found inside another argument.
          if scanned && (Root.exitCode(for: error) != .success || !isBuiltInRequest(own)) {
            _ = scannedArguments(Root.self, named, arguments, words: words)
          }
          throw error
        }
        if let problem = missingCommandProblem(Root.self, type(of: command), arguments, words: words) {
          Terminal.write(problem, to: 2)
          Foundation.exit(2)
        }
        try command.run()
      }
      endIfOutputFailed()
      Root.exit()
    } catch let exit as ExitCode {
      endIfOutputFailed()
      // As `Root.exit(withError:)` ends it, without building the usage text it would not print.
      Foundation.exit(exit.rawValue)
    } catch {
      if let failure = Terminal.outputFailure { Terminal.error(failure) }
      let code = Root.exitCode(for: error)
      if code == .success {
        // Help, the version, a completion script: written as every output is, so a failed
        // write ends the run with exit 2 (ArgumentParser's `print` would exit 0 regardless).
        let text = Root.fullMessage(for: error)
        if !text.isEmpty { Terminal.write(text + "\n") }
        endIfOutputFailed()
        Foundation.exit(0)
      }
      if code == .validationFailure {
        Terminal.write(Root.fullMessage(for: error) + "\n", to: 2)
      } else {
        Terminal.error(Root.message(for: error))
      }
      Root.exit(withError: ExitCode(2))
    }
  }

  /// The usage error of the first `--name=` with nothing after its `=` (`--model=$MODEL`
  /// with MODEL unset) that names an option taking a value, or nil: ArgumentParser would
  /// take the next argument as the value (swift-argument-parser issue 958). A flag given
  /// `=` is left to ArgumentParser's own message.
  static func emptyValueProblem<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) -> String? {
    var names: [String] = []
    for argument in arguments {
      if argument == "--" { break }
      if argument.count > 3 && argument.hasPrefix("--")
        && argument.firstIndex(of: "=") == argument.indices.last
      {
        names.append(String(argument.dropFirst(2).dropLast()))
      }
    }
    // Most command lines have none: ArgumentParser's description of the tool is made only for one that has.
    guard !names.isEmpty, let data = Root._dumpHelp().data(using: .utf8),
      let tool = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      var command = tool["command"] as? [String: Any]
    else { return nil }
    // The subcommand the leading words name (`outline model check`).
    for argument in arguments where !argument.hasPrefix("-") {
      let subcommands = command["subcommands"] as? [[String: Any]] ?? []
      guard let named = subcommands.first(where: { $0["commandName"] as? String == argument }) else { break }
      command = named
    }
    var valueNames: Set<String> = []
    for option in command["arguments"] as? [[String: Any]] ?? [] where option["kind"] as? String == "option" {
      for name in option["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
        if let name = name["name"] as? String { valueNames.insert(name) }
      }
    }
    return names.first(where: valueNames.contains).map { "--\($0) needs a value" }
  }

  /// The usage error of leading words that name no command (`outline fmtt`, `outline model
  /// chek`, `outline help nosuchcommand`), with the command a typo away when there is one,
  /// or nil. Only the words of a command with subcommands must name one (and every word
  /// after `help`): ArgumentParser would call the first `Unexpected argument` without a
  /// suggestion, and `help` would show the help of the last command it knew and exit 0.
  static func unknownCommandProblem<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String])
    -> String?
  {
    var words = arguments.prefix { !$0.hasPrefix("-") }[...]
    let hasSubcommands = !Root.configuration.subcommands.isEmpty
    let asksHelp = hasSubcommands && words.first == "help"
    if asksHelp { words.removeFirst() }
    var command: any ParsableCommand.Type = Root.self
    var path: [String] = []
    for word in words {
      let subcommands = command.configuration.subcommands
      if !asksHelp && (subcommands.isEmpty || command.configuration.defaultSubcommand != nil) { return nil }
      // `outline help help`: ArgumentParser's own command.
      if asksHelp && path.isEmpty && word == "help" { return nil }
      if let next = subcommands.first(where: {
        $0._commandName == word || $0.configuration.aliases.contains(word)
      }) {
        command = next
        path.append(word)
        continue
      }
      var names = subcommands.map { $0._commandName }
      if path.isEmpty && hasSubcommands { names.append("help") }
      var message = "Unknown command \(Excerpt.quoted((path + [word]).joined(separator: " ")))"
      if let close = CommandSuggestion.closest(to: word, among: names) {
        message += ". Did you mean \(Excerpt.quoted((path + [close]).joined(separator: " ")))?"
      }
      let named = ([Root._commandName] + path).joined(separator: " ")
      return "Error: \(message)\nUsage: \(Root.usageString(for: command))\n"
        + "  See '\(named) --help' for more information.\n"
    }
    return nil
  }

  /// The command the leading words of `arguments` name (`outline model check`) and how many words name it.
  static func command<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String])
    -> (command: any ParsableCommand.Type, words: Int)
  {
    var command: any ParsableCommand.Type = Root.self
    var words = 0
    for word in arguments {
      guard
        let next = command.configuration.subcommands.first(where: {
          $0._commandName == word || $0.configuration.aliases.contains(word)
        })
      else { break }
      command = next
      words += 1
    }
    return (command, words)
  }

  /// The arguments after the command's `words` as ``OptionScan`` hands them on; a usage
  /// error (one line, then the usage) ends the run with status 2.
  static func scannedArguments<Root: ParsableCommand>(
    _ root: Root.Type, _ command: any ParsableCommand.Type, _ arguments: [String], words: Int
  ) -> [String] {
    let name = ([Root._commandName] + arguments[..<words]).joined(separator: " ")
    switch OptionScan(command, commandName: name).scan(Array(arguments[words...])) {
    case .arguments(let arguments):
      return arguments
    case .problem(let problem):
      Terminal.write(
        "Error: \(problem)\nUsage: \(Root.usageString(for: command))\n  See '\(name) --help' for more information.\n",
        to: 2)
      Foundation.exit(2)
    }
  }

  /// The usage error of an option `help` (`outline help lint -xh`) does not take, naming
  /// the whole argument (ArgumentParser names one letter of it), or nil: `help` takes
  /// command names and its own `-h`, `--help` and `-help`.
  static func helpCommandProblem<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) -> String? {
    let words = arguments.dropFirst().prefix { $0 != "--" }
    guard
      let odd = words.first(where: {
        OptionScan.looksLikeOption($0) && !["-h", "--help", "-help", "--version"].contains($0)
      })
    else { return nil }
    let name = "\(Root._commandName) help"
    let spelled = odd.hasPrefix("--") ? String(odd.prefix { $0 != "=" }) : odd
    return "Error: Unknown option \(Excerpt.quotedPath(spelled))\nUsage: \(name) [<subcommands> ...]\n"
      + "  See '\(name) --help' for more information.\n"
  }

  /// The usage error of a group of commands named without one of them (`outline`,
  /// `outline model`), or nil: ArgumentParser would print the help and exit 0, so a CI line
  /// such as `outline model $COMMAND` with COMMAND unset would pass without running anything.
  static func missingCommandProblem<Root: ParsableCommand>(
    _ root: Root.Type, _ command: any ParsableCommand.Type, _ arguments: [String], words: Int
  ) -> String? {
    let commands = command.configuration.subcommands
    guard !commands.isEmpty, command.configuration.defaultSubcommand == nil else { return nil }
    let name = ([Root._commandName] + arguments[..<words]).joined(separator: " ")
    let names = commands.map { $0._commandName }.joined(separator: ", ")
    return "Error: '\(name)' needs a command: \(names)\nUsage: \(Root.usageString(for: command))\n"
      + "  See '\(name) --help' for more information.\n"
  }

  /// Whether `arguments` ask for one of ArgumentParser's own outputs by a standalone
  /// argument before `--` (`-h`, `--help`, `--version`, a completion script): only
  /// then may a help request ArgumentParser finds end the run with status 0.
  static func isBuiltInRequest(_ arguments: [String]) -> Bool {
    for argument in arguments {
      if argument == "--" { return false }
      if OptionScan.builtInFlags.contains(argument)
        || argument.hasPrefix("--generate-completion-script")
      {
        return true
      }
    }
    return false
  }

  /// Ends the run with status 2 when a write to standard output failed (a full disk): what
  /// the command printed is lost, so its own status would mislead.
  private static func endIfOutputFailed() {
    guard let failure = Terminal.outputFailure else { return }
    Terminal.error(failure)
    Foundation.exit(2)
  }
}
