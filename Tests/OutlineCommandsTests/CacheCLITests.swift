import Foundation
import OutlineCore
import OutlineWorkspace
import TestSupport
import Testing

/// `outline-lint`'s cache (CLI.md, "The cache"): the same output warm as cold, every change
/// checked again, every trouble with the folder said once and never fatal.
@Suite struct CacheCLITests {
  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Tag"><attribute name="name" attributeType="String"/><attribute name="count" attributeType="Integer 32" optional="YES"/></entity>
    </model>
    """

  /// A project: a model bundle named by `.outline.json`, a clean file, one with problems, one
  /// naming a model with an error (its diagnostic points into that model), one in the JSON form.
  func project(_ extra: [String: String] = [:]) throws -> URL {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        ".outline.json": "{\"model\": \"Model.xcdatamodeld\"}\n",
        "Model.xcdatamodeld/Model.xcdatamodel/contents": Self.model,
        "Broken.xcdatamodel/contents": Self.model.replacingOccurrences(of: "Integer 32", with: "Integer 99"),
        "clean.outline": "<outline><Tag name=\"a\"/></outline>\n",
        "broken.outline": "<outline>\n  <Tag name=\"a\" count=\"x\"/>\n  <Nope/>\n  <Tag/>\n</outline>\n",
        "odd.outline": "<outline model=\"Broken.xcdatamodel\"><Tag name=\"b\"/></outline>\n",
        "list.json": "{\"@outline\": 1, \"children\": [{\"@entity\": \"Tag\", \"count\": 1}]}\n",
      ].merging(extra) { $1 }, in: folder)
    return folder
  }

  /// The paths every run lints: the folder's outlines and the JSON form file.
  let paths = [".", "list.json"]

  func lint(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> CLI.Output {
    try CLI.run("outline-lint", arguments, in: folder, environment: environment)
  }

  /// How many files `--verbose` says were read from the cache.
  func hits(_ run: CLI.Output) -> Int? {
    guard let line = run.stderr.split(separator: "\n").first(where: { $0.hasPrefix("cache: ") }) else {
      return nil
    }
    return Int(line.dropFirst("cache: ".count).prefix { $0.isNumber })
  }

  /// The standard error lines that are warnings.
  func warnings(_ run: CLI.Output) -> [Substring] {
    run.stderr.split(separator: "\n").filter { $0.hasPrefix("outline-lint: warning:") }
  }

  /// Runs `arguments` without the cache, then with it (which must say it hit `hits` files),
  /// and expects the same output and status.
  func expectSame(
    _ arguments: [String], in folder: URL, hits expected: Int?, environment: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let cold = try lint(["--no-cache"] + arguments, in: folder, environment: environment)
    let warm = try lint(["--verbose"] + arguments, in: folder, environment: environment)
    #expect(warm.stdout == cold.stdout, "\(arguments)", sourceLocation: sourceLocation)
    #expect(warm.status == cold.status, "\(arguments)", sourceLocation: sourceLocation)
    if let expected {
      #expect(hits(warm) == expected, "\(arguments): \(warm.stderr)", sourceLocation: sourceLocation)
    }
  }

  @Test func everyFormatPrintsTheSameWarmAsCold() throws {
    let folder = try project()
    // SARIF's fingerprints name each problem's item: the entries keep those names too.
    let first = try lint(["--verbose", "--format", "sarif"] + paths, in: folder)
    #expect(hits(first) == 0)
    #expect(first.stdout.contains("Broken.xcdatamodel/contents"), "a diagnostic pointing into a model")
    let gitignore = try String(
      contentsOf: folder.appendingPathComponent(".outline-cache/.gitignore"), encoding: .utf8)
    #expect(gitignore.hasSuffix("\n*\n"))
    for format in [
      ["--format", "text"], ["--format", "json"], ["--format", "sarif"], ["--format", "github"],
    ] {
      try expectSame(format + paths, in: folder, hits: 4)
    }
    for options in [["--statistics"], ["--statistics", "--format", "json"], ["--quiet"], ["--jobs", "1"]] {
      try expectSame(options + paths, in: folder, hits: 4)
    }
    // A baseline's fingerprints name the items the problems are on: the same warm as cold.
    try CLI.write(
      ["broken.outline": "<outline>\n  <Nope/>\n  <Tag name=\"a\" count=\"x\"/>\n</outline>\n"], in: folder)
    _ = try lint(["--no-cache", "--write-baseline", "baseline.json"] + paths, in: folder)
    try CLI.write(
      ["broken.outline": "<outline>\n  <Tag/>\n  <Nope/>\n  <Tag name=\"a\" count=\"x\"/>\n</outline>\n"],
      in: folder)
    try expectSame(["--baseline", "baseline.json"] + paths, in: folder, hits: 3)
    try expectSame(["--baseline", "baseline.json"] + paths, in: folder, hits: 4)
    try expectSame(["--baseline", "baseline.json", "--format", "sarif"] + paths, in: folder, hits: 4)
  }

  /// CI's shape: two clones of one commit (every file with its own new modification time)
  /// share a cache folder; the second hits every entry the first wrote, and says its own paths.
  @Test func aCloneWithNewTimesHitsTheCacheOfAnother() throws {
    let first = try project()
    let second = try CLI.temporaryFolder().appendingPathComponent("clone")
    try FileManager.default.copyItem(at: first, to: second)
    var times = [timespec(tv_sec: 2_000_000_000, tv_nsec: 0), timespec(tv_sec: 2_000_000_000, tv_nsec: 0)]
    for name in [
      "clean.outline", "broken.outline", "odd.outline", "list.json", "Broken.xcdatamodel/contents",
    ] {
      #expect(utimensat(AT_FDCWD, second.appendingPathComponent(name).path, &times, 0) == 0)
    }
    let shared = try CLI.temporaryFolder().appendingPathComponent("shared-cache").path
    let made = try lint(["--verbose", "--cache-dir", shared] + paths, in: first)
    #expect(hits(made) == 0)
    let clone = try lint(["--verbose", "--cache-dir", shared] + paths, in: second)
    #expect(hits(clone) == 4, "\(clone.stderr)")
    let fresh = try lint(["--no-cache"] + paths, in: second)
    #expect(clone.stdout == fresh.stdout)
    #expect(clone.stdout.contains(second.path + "/Broken.xcdatamodel/contents"))
    #expect(!clone.stdout.contains(first.path + "/"))
    // The same through the environment variable.
    let variable = try lint(["--verbose"] + paths, in: second, environment: ["OUTLINE_CACHE_DIR": shared])
    #expect(hits(variable) == 4)
    #expect(!FileManager.default.fileExists(atPath: second.appendingPathComponent(".outline-cache").path))
  }

  @Test func anEditedModelIsCheckedAgain() throws {
    let folder = try project()
    _ = try lint(paths, in: folder)
    try CLI.write(
      [
        "Model.xcdatamodeld/Model.xcdatamodel/contents": Self.model.replacingOccurrences(
          of: "Tag", with: "Nope")
      ],
      in: folder)
    // The three files of the bundle's model are checked again; odd.outline's model did not change.
    try expectSame(paths, in: folder, hits: 1)
    // A second version, made current: the bundle changed again.
    try CLI.write(
      [
        "Model.xcdatamodeld/Model 2.xcdatamodel/contents": Self.model,
        "Model.xcdatamodeld/.xccurrentversion": """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Model 2.xcdatamodel</string></dict></plist>
        """,
      ], in: folder)
    try expectSame(paths, in: folder, hits: 1)
  }

  @Test func anEditedConfigurationIsCheckedAgain() throws {
    let folder = try project()
    _ = try lint(paths, in: folder)
    try CLI.write(
      [".outline.json": "{\"model\": \"Model.xcdatamodeld\", \"rules\": {\"OL200\": \"warning\"}}\n"],
      in: folder)
    try expectSame(paths, in: folder, hits: 0)
    #expect(try lint(paths, in: folder).stdout.contains("warning[OL200]"))
  }

  /// A file rewritten in place within the same second, its size and modification time as they were.
  @Test func aFileEditedInTheSameSecondIsCheckedAgain() throws {
    let folder = try project()
    let path = folder.appendingPathComponent("broken.outline").path
    _ = try lint(paths, in: folder)
    var info = stat()
    #expect(stat(path, &info) == 0)
    let original = try String(contentsOfFile: path, encoding: .utf8)
    try CLI.write(["broken.outline": original.replacingOccurrences(of: "Nope", with: "Nada")], in: folder)
    var times = [info.st_atim, info.st_mtim]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    try expectSame(paths, in: folder, hits: 3)
    #expect(try lint(paths, in: folder).stdout.contains("'Nada' is not an entity"))
  }

  /// The index of the cache folder `folder`, as its file holds it.
  func index(_ folder: String) throws -> CheckCacheIndex {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + CheckCacheIndex.fileName)))
    return try CheckCacheIndex.decode(bytes).get()
  }

  /// Writes `index` as the index of the cache folder `folder`.
  func write(_ index: CheckCacheIndex, to folder: String) throws {
    try Data(index.encoded()).write(to: URL(fileURLWithPath: folder + "/" + CheckCacheIndex.fileName))
  }

  /// An index that says another version of the tool wrote it is not read, even when it is
  /// whole and names the right keys; the same forged index saying this version is (which shows
  /// the forgery would have been believed).
  @Test func anEntryOfAnotherToolVersionIsNotTrusted() throws {
    let folder = try project()
    let cache = folder.appendingPathComponent(".outline-cache").path
    let truth = try lint(paths, in: folder)
    func forge(version: String) throws {
      var forged = try index(cache)
      #expect(forged.count == 4)
      for key in forged.keys {
        guard case .some(.some(var entry)) = forged.entry(key) else {
          Issue.record("an entry written could not be read")
          return
        }
        entry.diagnostics = []
        entry.relatedFiles = []
        forged.set(key, entry: entry, day: forged.lastUsed(key)!)
      }
      forged.toolVersion = version
      try write(forged, to: cache)
    }
    try forge(version: "99.0.0")
    let upgraded = try lint(["--verbose"] + paths, in: folder)
    #expect(upgraded.stdout == truth.stdout)
    #expect(hits(upgraded) == 0)
    #expect(warnings(upgraded).isEmpty, "another version's index is not trouble")
    try forge(version: ToolVersion.current)
    let believed = try lint(paths, in: folder)
    #expect(believed.stdout != truth.stdout)
    #expect(try lint(["--no-cache"] + paths, in: folder).stdout == truth.stdout)
  }

  /// A corrupt index (cut short, a byte changed, not an index at all) and an index of a newer
  /// format: said once, the files checked, the index written again.
  @Test func corruptAndNewerEntriesAreSaidOnceAndNotTrusted() throws {
    let folder = try project()
    let cache = folder.appendingPathComponent(".outline-cache").path
    let path = cache + "/" + CheckCacheIndex.fileName
    let truth = try lint(["--no-cache"] + paths, in: folder)
    for damage in ["cut", "changed", "newer", "foreign", "empty"] {
      _ = try lint(paths, in: folder)
      var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      switch damage {
      case "cut": bytes.removeLast(bytes.count / 2)
      case "changed": bytes[bytes.count / 2] ^= 1
      case "newer": bytes[CheckCacheIndex.magic.count] = UInt8(CheckCacheEntry.format + 1)
      case "foreign": bytes = Array("{\"not\": \"an index\"}\n".utf8)
      default: bytes = []
      }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let run = try lint(["--verbose"] + paths, in: folder)
      #expect(run.stdout == truth.stdout, "\(damage)")
      #expect(run.status == truth.status)
      #expect(hits(run) == 0)
      #expect(warnings(run).count == 1, "\(damage): \(run.stderr)")
      #expect(run.stderr.contains(damage == "newer" ? "written by a newer outline-lint" : "is corrupt"))
      #expect(hits(try lint(["--verbose"] + paths, in: folder)) == 4, "written again")
    }
  }

  /// A file where the cache folder should be: one warning, every file checked, the same exit.
  @Test func aCacheFolderThatCannotBeMadeIsSaidOnce() throws {
    let folder = try project(["blocker": "not a folder\n"])
    let truth = try lint(["--no-cache"] + paths, in: folder)
    for place in ["blocker", "blocker/cache"] {
      let run = try lint(["--verbose", "--cache-dir", place] + paths, in: folder)
      #expect(run.stdout == truth.stdout)
      #expect(run.status == truth.status)
      #expect(warnings(run).count == 1, "\(run.stderr)")
      #expect(hits(run) == 0)
    }
  }

  @Test(.enabled(if: Mounts.permitted, Comment(rawValue: Mounts.skipReason)))
  func aFullOrReadOnlyCacheFolderIsSaidOnce() throws {
    let folder = try project()
    let truth = try lint(["--no-cache"] + paths, in: folder)
    let disk = try Mounts.tmpfs(kilobytes: 64)
    defer { Mounts.unmount(disk) }
    try Mounts.fill(disk, leaving: 0)
    let full = try lint(["--verbose", "--cache-dir", disk.path + "/cache"] + paths, in: folder)
    #expect(full.stdout == truth.stdout && full.status == truth.status)
    #expect(warnings(full).count == 1 && full.stderr.contains("No space left on device"), "\(full.stderr)")

    let readOnly = try Mounts.tmpfs(kilobytes: 256)
    defer { Mounts.unmount(readOnly) }
    _ = try lint(["--cache-dir", readOnly.path] + paths, in: folder)
    try Mounts.makeReadOnly(readOnly)
    try CLI.write(["broken.outline": "<outline><Nada/></outline>\n"], in: folder)
    let run = try lint(["--verbose", "--cache-dir", readOnly.path] + paths, in: folder)
    #expect(run.stdout == (try lint(["--no-cache"] + paths, in: folder)).stdout)
    #expect(hits(run) == 3, "entries already there are still read")
    #expect(warnings(run).count == 1 && run.stderr.contains("Read-only file system"), "\(run.stderr)")
  }

  /// Two runs at once sharing one folder: each prints what a run without the cache prints, and
  /// leaves only whole entries (no temporary file).
  @Test func twoRunsAtOnceShareTheFolder() throws {
    var files: [String: String] = [:]
    for index in 0..<40 {
      files["many/f\(index).outline"] = "<outline><Tag name=\"\(index)\"/><Nope\(index % 3)/></outline>\n"
    }
    let folder = try project(files)
    let truth = try lint(["--no-cache", "many"], in: folder)
    let runs = (0..<2).map { _ in CLI.process("outline-lint", ["many"]) }
    var outputs: [Pipe] = []
    for process in runs {
      process.currentDirectoryURL = folder
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = FileHandle.nullDevice
      outputs.append(pipe)
      try process.run()
    }
    for (process, pipe) in zip(runs, outputs) {
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(String(decoding: data, as: UTF8.self) == truth.stdout)
    }
    let warm = try lint(["--verbose", "many"], in: folder)
    #expect(warm.stdout == truth.stdout && hits(warm) == 40)
    let names = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent(".outline-cache").path)
    #expect(!names.contains { $0.hasPrefix(".tmp-") })
  }

  /// Two runs at once over different files, sharing one folder: the index keeps what both
  /// made (each merges what the other wrote under the folder's lock).
  @Test func twoRunsAtOnceMergeTheirEntries() throws {
    var files: [String: String] = [:]
    for index in 0..<30 {
      files["left/f\(index).outline"] = "<outline><Tag name=\"\(index)\"/><Nope/></outline>\n"
      files["right/f\(index).outline"] = "<outline><Tag name=\"r\(index)\"/></outline>\n"
    }
    let folder = try project(files)
    let runs = ["left", "right"].map { CLI.process("outline-lint", ["--quiet", $0]) }
    for process in runs {
      process.currentDirectoryURL = folder
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
    }
    for process in runs { process.waitUntilExit() }
    let both = try lint(["--verbose", "left", "right"], in: folder)
    #expect(hits(both) == 60, "\(both.stderr)")
    #expect(try index(folder.appendingPathComponent(".outline-cache").path).count == 60)
  }

  /// Records no run used for a week go when the index is next written; those a run used are
  /// marked with its day and stay; a warm run that changes nothing writes nothing; leftovers
  /// (entries of the former layout, temporary files a day old) go too.
  @Test func entriesUnusedForAWeekArePruned() throws {
    let folder = try project()
    let cache = folder.appendingPathComponent(".outline-cache").path
    let today = Int(time(nil) / 86_400)
    _ = try lint(paths, in: folder)
    try CLI.write(["clean.outline": "<outline><Tag name=\"edited\"/></outline>\n"], in: folder)
    _ = try lint(paths, in: folder)
    var aged = try index(cache)
    #expect(aged.count == 5, "the edited file's former entry is still there")
    for key in aged.keys { aged.use(key, day: today - CheckCacheIndex.keptDays - 1) }
    // A record no file uses, from six days ago: within the week, it stays.
    let recent = CheckCacheIndex.Key(Array(repeating: 7, count: 32))!
    aged.set(recent, body: aged.body(aged.keys[0])!, day: today - CheckCacheIndex.keptDays + 1)
    try write(aged, to: cache)
    let former = cache + "/" + String(repeating: "ab", count: 32) + ".lint"
    let oldTemporary = cache + "/.tmp-1-2-lint-index"
    let newTemporary = cache + "/.tmp-3-4-lint-index"
    try CLI.write([former: "x", oldTemporary: "x", newTemporary: "x"], in: URL(fileURLWithPath: "/"))
    var times = [
      timespec(tv_sec: time(nil) - 2 * 86_400, tv_nsec: 0),
      timespec(tv_sec: time(nil) - 2 * 86_400, tv_nsec: 0),
    ]
    #expect(utimensat(AT_FDCWD, oldTemporary, &times, 0) == 0)

    let run = try lint(["--verbose"] + paths, in: folder)
    #expect(hits(run) == 4)
    let pruned = try index(cache)
    #expect(pruned.count == 5, "the four used and the recent one")
    #expect(pruned.lastUsed(recent) == today - CheckCacheIndex.keptDays + 1)
    #expect(pruned.keys.filter { $0 != recent }.allSatisfy { pruned.lastUsed($0) == today })
    let manager = FileManager.default
    #expect(!manager.fileExists(atPath: former) && !manager.fileExists(atPath: oldTemporary))
    #expect(manager.fileExists(atPath: newTemporary))

    // Nothing changed: the index is not written again (the same file, not one renamed over it).
    var before = stat()
    #expect(stat(cache + "/" + CheckCacheIndex.fileName, &before) == 0)
    #expect(hits(try lint(["--verbose"] + paths, in: folder)) == 4)
    var after = stat()
    #expect(stat(cache + "/" + CheckCacheIndex.fileName, &after) == 0)
    #expect(before.st_ino == after.st_ino)
  }

  /// An index that cannot be read (a folder where its file should be): one warning, every file
  /// checked, the same output and exit.
  @Test func anIndexThatCannotBeReadIsSaidOnce() throws {
    let folder = try project()
    let truth = try lint(["--no-cache"] + paths, in: folder)
    try FileManager.default.createDirectory(
      atPath: folder.appendingPathComponent(".outline-cache/" + CheckCacheIndex.fileName).path,
      withIntermediateDirectories: true)
    let run = try lint(["--verbose"] + paths, in: folder)
    #expect(run.stdout == truth.stdout && run.status == truth.status)
    #expect(hits(run) == 0)
    #expect(warnings(run).count == 1 && run.stderr.contains("cannot be read"), "\(run.stderr)")
  }

  /// No folder is made by `--no-cache`, for standard input, or with `--isolated` or `--config`.
  @Test func noCacheStandardInputAndChosenConfigurationsWriteNothing() throws {
    let folder = try project()
    let cache = folder.appendingPathComponent(".outline-cache").path
    for arguments in [
      ["--no-cache", "."], ["--stdin-filename", "x.outline"], ["--isolated", "."],
      ["--config", ".outline.json", "."],
    ] {
      let run = try CLI.run("outline-lint", arguments, in: folder, input: "<outline/>\n")
      #expect(!FileManager.default.fileExists(atPath: cache), "\(arguments)")
      #expect(warnings(run).isEmpty)
    }
    // `--cache-dir` wins over the environment variable.
    _ = try lint(["--cache-dir", "named", "."], in: folder, environment: ["OUTLINE_CACHE_DIR": "other"])
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("named/.gitignore").path))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("other").path))
  }

  /// `--fix` and `--diff` check every file themselves: the same results with a warm cache.
  @Test func fixAndDiffAreTheSameWarmAsCold() throws {
    let broken = "<outline>\n  <Item order=\"3\"/>\n  <Item order=\"3\"/>\n</outline>\n"
    let folder = try project(["orders/.outline.json": "{}\n", "orders/o.outline": broken])
    _ = try lint(["orders"], in: folder)
    try expectSame(["--diff", "orders"], in: folder, hits: nil)
    let fixed = try lint(["--fix", "orders/o.outline"], in: folder)
    try CLI.write(["orders/o.outline": broken], in: folder)
    let cold = try lint(["--no-cache", "--fix", "orders/o.outline"], in: folder)
    #expect(fixed.stdout == cold.stdout && fixed.stderr == cold.stderr && fixed.status == cold.status)
    #expect(
      try String(contentsOfFile: folder.appendingPathComponent("orders/o.outline").path, encoding: .utf8)
        != broken)
  }
}
