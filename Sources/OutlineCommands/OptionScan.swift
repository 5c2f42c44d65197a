import ArgumentParser
import Foundation
import OutlineCore

/// A command's options read as the command line's own words, before
/// ArgumentParser reads them.
///
/// ArgumentParser splits every argument that starts with one `-` into short
/// names (`-hello.outline` into `-h`, `-e`, `-l`, ...) and looks for `-h`
/// among them before it reports an unknown option, so an argument that
/// merely contains an `h` printed the help and exited 0, and a file named
/// `-hello.outline` was never linted. It also reports a required argument
/// missing before an unknown option, and some errors over two lines. The
/// scan walks the arguments as ArgumentParser would bind them (a value is
/// taken by its option; `--` ends the options) and says the first one that
/// is no option of the command, in one line; what it lets through holds no
/// argument in which ArgumentParser could find a help flag but a standalone
/// `-h` or `--help`.
struct OptionScan {
  /// One option or flag of the command.
  struct Option {
    var long: String?
    var short: Character?
    var takesValue: Bool
    /// Takes the next argument as its value even when that starts with `-` (`--jobs -1`).
    var unconditional: Bool
    var valueName: String?

    /// How the user spells it in a message: the long name, else the short one.
    var spelling: String { long.map { "--\($0)" } ?? short.map { "-\($0)" } ?? "" }
  }

  /// What the scan found wrong, or the arguments to hand on.
  enum Outcome: Equatable {
    /// The arguments for ArgumentParser: values that start with `-` attached
    /// with `=` (`--jobs=-1`), short options' attached values spelled out.
    case arguments([String])
    /// A usage error: one line, without the `Error: ` before it.
    case problem(String)
  }

  var options: [Option]
  /// The command's name as the user types it, for the hints (`outline-lint`, `outline fmt`).
  var commandName: String

  /// The options of `command` as ArgumentParser describes them, with the
  /// built-in ones every command has (`-h`/`--help`, `--version`).
  init(_ command: any ParsableCommand.Type, commandName: String) {
    self.commandName = commandName
    var options: [Option] = []
    if let data = command._dumpHelp().data(using: .utf8),
      let tool = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let described = tool["command"] as? [String: Any]
    {
      for argument in described["arguments"] as? [[String: Any]] ?? [] {
        let kind = argument["kind"] as? String
        guard kind == "option" || kind == "flag" else { continue }
        var option = Option(
          long: nil, short: nil, takesValue: kind == "option",
          unconditional: argument["parsingStrategy"] as? String == "unconditional",
          valueName: argument["valueName"] as? String)
        for name in argument["names"] as? [[String: Any]] ?? [] {
          guard let text = name["name"] as? String else { continue }
          switch name["kind"] as? String {
          case "long": option.long = option.long ?? text
          case "short": option.short = text.first
          default: break
          }
        }
        options.append(option)
      }
    }
    // ArgumentParser's own: listed for some commands and not others.
    for long in ["help", "version", "help-hidden", "experimental-dump-help"]
    where !options.contains(where: { $0.long == long }) {
      options.append(
        Option(
          long: long, short: long == "help" ? "h" : nil, takesValue: false, unconditional: false,
          valueName: nil))
    }
    if let index = options.firstIndex(where: { $0.long == "generate-completion-script" }) {
      options[index].takesValue = false
    }
    self.options = options
  }

  /// A scan of the given options (for tests).
  init(options: [Option], commandName: String) {
    self.options = options
    self.commandName = commandName
  }

  /// Whether ArgumentParser could take some argument of `arguments` for a help
  /// flag it is not: an argument longer than two characters that starts with a
  /// single `-` (a cluster of short names), or a built-in flag that may be an
  /// option's value (`--jobs -h`, `--jobs --help`: ArgumentParser finds them
  /// even there). Only then is the scan, which builds the command's
  /// description, needed before ArgumentParser reads the line.
  static func isNeeded(_ arguments: [String]) -> Bool {
    var afterLongName = false
    for argument in arguments {
      if argument == "--" { return false }
      let single = argument.hasPrefix("-") && !argument.hasPrefix("--")
      if single && argument.count > 2 { return true }
      if afterLongName && builtInFlags.contains(argument) { return true }
      afterLongName = argument.hasPrefix("--") && !argument.contains("=")
    }
    return false
  }

  /// ArgumentParser's own flags, which it looks for in every argument before it binds values.
  static let builtInFlags = ["-h", "--help", "--version", "--help-hidden", "--experimental-dump-help"]

  /// Reads `arguments` (those after the command's own words): the first
  /// unknown option or option without its value, else the arguments to hand to
  /// ArgumentParser. A standalone `-h` or `--help` before `--` (not an option's
  /// value) leaves the line as it is: it asks for the help, whatever else it says.
  func scan(_ arguments: [String]) -> Outcome {
    if asksHelp(arguments) { return .arguments(arguments) }
    var result: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        result.append(contentsOf: arguments[(index - 1)...])
        break
      }
      if !Self.looksLikeOption(argument) {
        result.append(argument)
        continue
      }
      if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let name = body.firstIndex(of: "=").map { body[..<$0] } ?? body
        guard let option = options.first(where: { $0.long.map { $0[...] } == name }) else {
          return .problem(unknown("--" + name))
        }
        if !option.takesValue || name.count < body.count {
          result.append(argument)
          continue
        }
        switch value(for: option, spelled: argument, in: arguments, at: &index) {
        case .problem(let problem): return .problem(problem)
        case .arguments(let spelled): result.append(contentsOf: spelled)
        }
        continue
      }
      // One `-`: a short option, a cluster of short flags, or a short option
      // and its value (`-oout.json`); `-h` only alone.
      var rest = argument.dropFirst()
      while let letter = rest.first {
        rest = rest.dropFirst()
        guard let option = options.first(where: { $0.short == letter }),
          letter != "h" || argument == "-h"
        else { return .problem(unknown(argument)) }
        if !option.takesValue {
          result.append("-\(letter)")
          continue
        }
        if rest.isEmpty {
          switch value(for: option, spelled: "-\(letter)", in: arguments, at: &index) {
          case .problem(let problem): return .problem(problem)
          case .arguments(let spelled): result.append(contentsOf: spelled)
          }
        } else {
          result.append(contentsOf: Self.attach(String(rest), to: option, spelled: "-\(letter)"))
        }
        break
      }
    }
    return .arguments(result)
  }

  /// Whether a standalone `-h` or `--help` comes before `--`, not as an option's value.
  func asksHelp(_ arguments: [String]) -> Bool {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" { return false }
      if argument == "-h" || argument == "--help" { return true }
      // An option's separate value is not an argument of its own.
      let option: Option?
      if argument.hasPrefix("--") && !argument.contains("=") {
        option = options.first { $0.long.map { "--" + $0 } == argument }
      } else if argument.count == 2 && argument.hasPrefix("-") {
        option = options.first { $0.short.map { "-\($0)" } == argument }
      } else {
        option = nil
      }
      if let option, option.takesValue, index < arguments.count,
        option.unconditional || !Self.looksLikeOption(arguments[index])
      {
        index += 1
      }
    }
    return false
  }

  /// The value of `option` (spelled `spelled`) from the argument at `index`, then past it.
  private func value(for option: Option, spelled: String, in arguments: [String], at index: inout Int)
    -> Outcome
  {
    guard index < arguments.count, option.unconditional || !Self.looksLikeOption(arguments[index]) else {
      let synopsis = option.valueName.map { "\(spelled) <\($0)>" } ?? spelled
      var problem = "Missing value for '\(synopsis)'"
      if index < arguments.count, arguments[index] != "--", !isKnown(arguments[index]) {
        // `--model -odd.xcdatamodel`: the value the user most likely meant.
        let meant = option.long.map { "--\($0)=\(arguments[index])" } ?? "\(spelled)\(arguments[index])"
        problem += "; a value that starts with '-' is written \(Excerpt.quotedPath(meant))"
      }
      return .problem(problem)
    }
    let value = arguments[index]
    index += 1
    return .arguments(Self.attach(value, to: option, spelled: spelled))
  }

  /// `option` given `value`, spelled so that ArgumentParser takes it as the
  /// value whatever it looks like: `--name=value` when it starts with `-`.
  private static func attach(_ value: String, to option: Option, spelled: String) -> [String] {
    guard looksLikeOption(value) || value == "--", let long = option.long else { return [spelled, value] }
    return ["--\(long)=\(value)"]
  }

  /// Whether `argument` names one of the command's options (`--name`, `--name=value`, `-o`).
  private func isKnown(_ argument: String) -> Bool {
    if argument.hasPrefix("--") {
      let name = argument.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[
        0]
      return options.contains { $0.long.map { $0[...] } == name }
    }
    return argument.count == 2 && options.contains { $0.short.map { "-\($0)" } == argument }
  }

  /// The one line saying `spelled` is no option of the command, with the
  /// option it most likely meant, or how to name a file that starts with `-`.
  func unknown(_ spelled: String) -> String {
    var message = "Unknown option \(Excerpt.quotedPath(spelled))"
    let longNames = options.compactMap(\.long).filter {
      !["help-hidden", "experimental-dump-help"].contains($0)
    }
    if spelled.hasPrefix("--") {
      if let close = CommandSuggestion.closest(to: String(spelled.dropFirst(2)), among: longNames) {
        message += ". Did you mean '--\(close)'?"
      }
      return message
    }
    let word = String(spelled.dropFirst())
    if longNames.contains(word) {
      return message + ". Did you mean '--\(word)'?"
    }
    if word.contains(".") || word.contains("/") || FileManager.default.fileExists(atPath: spelled) {
      message +=
        ". A file whose name starts with '-' goes after '--' (\(Excerpt.quotedPath("\(commandName) -- \(spelled)"))) or is written \(Excerpt.quotedPath("./" + spelled))"
    }
    return message
  }

  /// Whether ArgumentParser reads `argument` as an option rather than a value:
  /// it starts with `-` and is not `-` alone (standard input or output).
  static func looksLikeOption(_ argument: String) -> Bool {
    argument.hasPrefix("-") && argument != "-"
  }
}
