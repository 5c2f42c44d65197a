import ArgumentParser

/// The common lint command lines, read without the argument parser.
///
/// Building ArgumentParser's tables for a command (its argument sets, by
/// reflection and dynamic casts, twice: once to parse, once to decode) costs
/// more than linting one tiny file does (the figures are in
/// Documentation/PerformanceHistory.md). A command line made only of the
/// lint's own options spelled in full (`--jobs 2`, `--format=json`), flags
/// given once and paths is read here instead; anything else (`--help`,
/// `--version`, a short or unknown option, an option twice, a missing or bad
/// value, a usage error) returns nil and goes to ArgumentParser, so its
/// messages and exit statuses are unchanged.
extension LintSettings {
  /// The settings `arguments` (without the program's name) give, or nil when
  /// ArgumentParser must read them.
  static func parse(_ arguments: [String]) -> LintSettings? {
    var settings = LintSettings()
    // An array, not a Set: building a Set<String>'s metadata shows in a tiny run's time.
    var seen: [Substring] = []
    var index = 0
    var onlyPaths = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPaths || argument == "-" || !argument.hasPrefix("-") {
        settings.paths.append(argument)
        continue
      }
      if argument == "--" {
        onlyPaths = true
        continue
      }
      guard let (name, given) = QuickOption.split(argument) else { return nil }
      guard !seen.contains(name) else { return nil }
      seen.append(name)
      switch name {
      case "fix", "diff", "isolated", "quiet", "statistics", "follow", "verbose", "no-cache":
        guard given == nil else { return nil }
        switch name {
        case "fix": settings.fix = true
        case "diff": settings.diff = true
        case "isolated": settings.isolated = true
        case "quiet": settings.quiet = true
        case "statistics": settings.statistics = true
        case "follow": settings.follow = true
        case "no-cache": settings.noCache = true
        default: settings.verbose = true
        }
        continue
      case "model", "format", "config", "color", "jobs", "max-size", "stdin-filename", "cache-dir":
        break
      default:
        return nil
      }
      guard let value = QuickOption.value(given, in: arguments, at: &index) else { return nil }
      switch name {
      case "model":
        settings.model = value
      case "format":
        guard let format = OutputFormat(rawValue: value) else { return nil }
        settings.format = format
      case "color":
        guard let color = ColorChoice(rawValue: value) else { return nil }
        settings.color = color
      case "jobs":
        guard let jobs = Int(value) else { return nil }
        settings.jobs = jobs
      case "stdin-filename":
        settings.stdinFilename = value
      case "config":
        settings.config = value
      case "cache-dir":
        settings.cacheDir = value
      default:
        guard let size = InputSize(argument: value) else { return nil }
        settings.maxSize = size
      }
    }
    if settings.paths.isEmpty {
      settings.paths = StandardInput.defaultPaths(stdinFilename: settings.stdinFilename)
    }
    return settings.usageProblem == nil ? settings : nil
  }
}

/// One option of a command line read without the argument parser.
enum QuickOption {
  /// The name after `--` and the value after `=` of `--name` or
  /// `--name=value`; nil for an argument not starting with `--`.
  static func split(_ argument: String) -> (name: Substring, value: String?)? {
    guard argument.hasPrefix("--") else { return nil }
    let body = argument.dropFirst(2)
    guard let equals = body.firstIndex(of: "=") else { return (body, nil) }
    return (body[..<equals], String(body[body.index(after: equals)...]))
  }

  /// An option's value: `given` after its `=`, or else the argument at
  /// `index` (then past it), unless that looks like an option (ArgumentParser's
  /// call); nil when there is none or it is empty (an empty `--name=` then
  /// goes to ``CommandLineTool``, which refuses it: ArgumentParser would take
  /// the next argument as its value).
  static func value(_ given: String?, in arguments: [String], at index: inout Int) -> String? {
    var value = given
    if value == nil {
      guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
      value = arguments[index]
      index += 1
    }
    guard let value, !value.isEmpty else { return nil }
    return value
  }
}

extension OutlineLintCommand {
  /// `outline-lint`'s run for a common command line, or nil (``LintSettings/parse(_:)``).
  public static func quickRun(_ arguments: [String]) -> (() throws -> Void)? {
    LintSettings.parse(arguments).map { settings in { try settings.run() } }
  }
}

extension OutlineCommand {
  /// `outline lint`'s run for a common command line, or nil (``LintSettings/parse(_:)``).
  public static func quickRun(_ arguments: [String]) -> (() throws -> Void)? {
    if arguments.first == "convert" { return ConvertCommand.quickRun(Array(arguments.dropFirst())) }
    guard arguments.first == "lint" else { return nil }
    return LintSettings.parse(Array(arguments.dropFirst())).map { settings in { try settings.run() } }
  }
}
