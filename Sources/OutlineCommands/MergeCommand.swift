import ArgumentParser
import Foundation
import OutlineCore
import OutlineFiles
import OutlineMerge
import OutlineWorkspace

/// `outline merge BASE OURS THEIRS [--path P] [-o FILE]`: a three-way structural merge, git's
/// merge driver for outlines (Git.md).
struct MergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Merge two outlines that grew from one base, item by item (git's merge driver).",
    discussion: """
      Combines the changes OURS and THEIRS made to BASE: additions from both sides (ours first), \
      attributes changed on one side, moves and edits of one item; sibling orders renumbered \
      0..n-1 where the merge touched them. The result replaces OURS (atomically), or goes to \
      -o FILE. Items whose own content did not change keep OURS's layout and comments; the \
      others are written as fmt writes them. A conflict (an attribute changed differently, an \
      item removed on one side and changed on the other, a move to two parents, an id added on \
      both sides for different items) is recorded in the result as <?outline-conflict ...?> \
      before the item, which outline lint reports as OL600. As git's driver (Git.md): \
      git config merge.outline.driver "outline merge %O %A %B --path %P".

      Exit status: 0 merged cleanly, 1 conflicts recorded, 2 usage or I/O trouble or an input \
      that does not parse (OURS is then left exactly as it was).
      """)

  @Argument(help: "The common ancestor.") var base: String
  @Argument(help: "Our version; the result replaces it unless -o is given.") var ours: String
  @Argument(help: "Their version.") var theirs: String

  @Option(
    help: ArgumentHelp(
      "The path of the file being merged (git's %P): its model and .outline.json are found from there.",
      valueName: "path"))
  var path: String?

  @Option(
    name: .customShort("o"), help: ArgumentHelp("Write the result here instead of OURS.", valueName: "file"))
  var output: String?

  @Option(help: ArgumentHelp("Read the documents with this model, whatever they say.", valueName: "path"))
  var model: String?

  @OptionGroup var configuration: ConfigurationOptions

  @Option(help: InputSize.help)
  var maxSize: InputSize?

  func run() throws {
    let limit = maxSize?.bytes ?? InputFile.defaultLimit
    let configurations = ConfigurationFinder(
      limit: limit, choice: ConfigurationFinder.Choice(configuration.config, isolated: configuration.isolated)
    )
    let models = ModelCache(limit: limit)
    let snapshot = FileSnapshot.take(ours)
    // The three sides are read, parsed and validated at once, as many at a time as there are cores;
    // the first trouble in the order base, ours, theirs is the one reported.
    let sides = [("base", base), ("ours", ours), ("theirs", theirs)]
    let reads = ParallelMap.map(sides, jobs: 3) { role, file -> Result<MergeInput, MergeInput.Trouble> in
      let bytes: [UInt8]
      do throws(ReadError) {
        bytes = try FileInput.read(file, limit: limit)
      } catch {
        return .failure(MergeInput.Trouble(message: error.description))
      }
      return MergeInput.read(
        bytes, role: role, file: file, path: path ?? file, modelOverride: model,
        configurations: configurations, models: models)
    }
    var inputs: [MergeInput] = []
    for read in reads {
      switch read {
      case .success(let input): inputs.append(input)
      case .failure(let trouble):
        Terminal.error(trouble.message)
        throw ExitCode(2)
      }
    }
    let form = inputs[1].form
    let result = ThreeWayMerge.merge(base: inputs[0].items, ours: inputs[1].items, theirs: inputs[2].items)
    let bytes: [UInt8]
    switch MergeInput.written(
      result, form: form, model: inputs[1].items.model, rootEntity: inputs[1].rootEntity)
    {
    case .success(let written): bytes = written
    case .failure(let trouble):
      Terminal.error(trouble.message)
      throw ExitCode(2)
    }
    let target = output ?? ours
    do throws(WriteError) {
      let writer = try AtomicFileWriter(
        path: target, unchangedSince: output == nil ? snapshot?.holding(inputs[1].original) : nil,
        activity: "merged")
      // A commit that fails removes its temporary file now (a no-op after a commit).
      defer { writer.discard() }
      writer.write(bytes)
      try writer.commit()
    } catch {
      Terminal.error(error.description)
      throw ExitCode(2)
    }
    guard !result.conflicts.isEmpty else { return }
    let shown = SourceText(bytes: result.bytes)
    let name = path ?? target
    for conflict in result.conflicts {
      let at = shown.position(of: conflict.range.start, unit: .scalar)
      Terminal.write(
        "\(name):\(at.line + 1):\(at.column + 1): error: \(conflict.record.message) [OL600]\n", to: 2)
    }
    let count = result.conflicts.count
    Terminal.write("\(count) conflict\(count == 1 ? "" : "s") left in \(Excerpt.quotedPath(name))\n", to: 2)
    throw ExitCode(1)
  }
}
