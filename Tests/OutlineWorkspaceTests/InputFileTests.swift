import Foundation
import OutlineCore
import OutlineFiles
import TestSupport
import Testing

@testable import OutlineWorkspace

@Suite struct InputFileTests {
  static func folder() throws -> URL {
    let url = Scratch.url("workspace-tests")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func sizesParseAndDescribe() {
    #expect(ByteCount.parse("1048576") == 1 << 20)
    #expect(ByteCount.parse("512K") == 512 << 10)
    #expect(ByteCount.parse("256M") == 256 << 20)
    #expect(ByteCount.parse("1g") == 1 << 30)
    #expect(ByteCount.parse("3MiB") == 3 << 20)
    #expect(ByteCount.parse("10 KB") == 10 << 10)
    #expect(ByteCount.parse("100B") == 100)
    for bad in ["", "M", "0", "-5", "1.5M", "lots", "99999999999999999999G", "1T"] {
      #expect(ByteCount.parse(bad) == nil, "\(bad)")
    }
    #expect(ByteCount.describe(256 << 20) == "256 MiB")
    #expect(ByteCount.describe(1536 << 10) == "1536 KiB")
    #expect(ByteCount.describe(1 << 30) == "1 GiB")
    #expect(ByteCount.describe(1000) == "1000 bytes")
    #expect(ByteCount.describe(1) == "1 byte")
  }

  @Test func regularFilesAreReadWithinTheLimit() throws {
    let folder = try Self.folder()
    let path = folder.appendingPathComponent("a.outline").path
    try Data(repeating: 0x41, count: 100).write(to: URL(fileURLWithPath: path))
    #expect(try InputFile.read(path, limit: 100).count == 100)
    #expect(throws: ReadError.self) { try InputFile.read(path, limit: 99) }
    do {
      _ = try InputFile.read(path, limit: 99)
    } catch {
      #expect(
        error.description.hasSuffix(
          "a.outline' is larger than the input size limit of 99 bytes (change it with --max-size)"))
    }
    #expect(throws: ReadError.self) { try MappedFile.map(path, limit: 99) }
    #expect(try MappedFile.map(path, limit: 100).view.count == 100)
    var chunks = 0
    #expect(throws: ReadError.self) { try FileChunks.read(path, limit: 10) { _ in chunks += 1 } }
    #expect(chunks == 0, "no chunk past the limit reaches the reader")
  }

  /// Nothing past `limit + 1` bytes is taken from a stream.
  @Test func aStreamIsReadOneBytePastTheLimitAtMost() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let written = [UInt8](repeating: 0x41, count: 5000)
    #expect(FileDescriptorIO.writeAll(ends[1], written) == nil)
    close(ends[1])
    #expect(throws: ReadError.self) {
      try InputFile.read(descriptor: ends[0], name: "standard input", limit: 1000)
    }
    var rest = [UInt8](repeating: 0, count: 8192)
    let left = read(ends[0], &rest, rest.count)
    #expect(left == 5000 - 1001)
  }

  @Test func nonRegularFilesAreRefusedWithoutBlocking() throws {
    let folder = try Self.folder()
    let fifo = folder.appendingPathComponent("f").path
    #expect(mkfifo(fifo, 0o644) == 0)
    // No writer ever opens it: a blocking open would never return.
    for reader in 0..<3 {
      do {
        switch reader {
        case 0: _ = try InputFile.read(fifo)
        case 1: _ = try MappedFile.map(fifo)
        default: try FileChunks.read(fifo) { _ in }
        }
        Issue.record("reader \(reader) read a FIFO")
      } catch {
        #expect(error.description.hasSuffix("f' is not a regular file (a FIFO)"), "\(error)")
      }
    }
    #expect(
      InputFile.refusal("/dev/zero")?.description == "'/dev/zero' is not a regular file (a character device)")
    #expect(InputFile.refusal(folder.path)?.description.hasSuffix("is not a regular file (a folder)") == true)
    #expect(
      InputFile.refusal(folder.appendingPathComponent("none").path)?.description.contains("No such file")
        == true)
    let link = folder.appendingPathComponent("zero").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
    #expect(throws: ReadError.self) { try InputFile.read(link) }
  }

  @Test func configurationsThatCannotBeReadAreErrorsNotSkipped() throws {
    let folder = try Self.folder()
    try Data(#"{"rules": {"OL401": "off"}}"#.utf8).write(to: folder.appendingPathComponent(".outline.json"))
    let inner = folder.appendingPathComponent("inner")
    try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
    #expect(mkfifo(inner.appendingPathComponent(".outline.json").path, 0o644) == 0)
    let found = ConfigurationFinder().configuration(for: inner.appendingPathComponent("a.outline").path)
    #expect(found?.path == inner.appendingPathComponent(".outline.json").path)
    #expect(found?.rules.isEmpty == true)
    #expect(found?.diagnostics.map(\.code) == [.configuration])
    #expect(found?.diagnostics.first?.message.contains("(a FIFO)") == true)
    #expect(found?.diagnostics.first?.range == TextRange(at: 0))
  }

  @Test func malformedConfigurationsApplyNothing() {
    let text = #"{"rules": {"OL401": "off"}, "exclude": ["a/**"], "maxSize": "1M", "modelRoots": ["m"] ,,}"#
    let configuration = Configuration(path: "/p/.outline.json", source: SourceText(bytes: Array(text.utf8)))
    #expect(configuration.rules.isEmpty && configuration.exclude.isEmpty && configuration.maxSize == nil)
    #expect(configuration.modelRoots.isEmpty)
    #expect(configuration.diagnostics.count == 1)
    #expect(
      configuration.diagnostics.first?.message.hasPrefix("Invalid JSON (the default configuration applies)")
        == true)
  }

  @Test func maxSizeAndModelRootsAreRead() {
    let text = #"{"maxSize": 2048, "modelRoots": ["../shared", "/opt/models"]}"#
    let configuration = Configuration(path: "/p/q/.outline.json", source: SourceText(bytes: Array(text.utf8)))
    #expect(configuration.diagnostics.isEmpty)
    #expect(configuration.maxSize == 2048)
    #expect(configuration.allowedModelRoots == ["/p/shared", "/opt/models"])
    let words = Configuration(
      path: "/p/.outline.json", source: SourceText(bytes: Array(#"{"maxSize": "512M"}"#.utf8)))
    #expect(words.maxSize == 512 << 20)
    let bad = Configuration(
      path: "/p/.outline.json", source: SourceText(bytes: Array(#"{"maxSize": "big"}"#.utf8)))
    #expect(bad.maxSize == nil && bad.diagnostics.count == 1)
  }
}

@Suite struct ProjectRootTests {
  @Test func theProjectIsTheConfigurationThenTheGitRootThenTheFolder() throws {
    let folder = try InputFileTests.folder()
    let repo = folder.appendingPathComponent("repo")
    try FileManager.default.createDirectory(
      at: repo.appendingPathComponent(".git"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: repo.appendingPathComponent("a/b"), withIntermediateDirectories: true)
    let configuration = Configuration(
      path: folder.appendingPathComponent("c/.outline.json").path, source: SourceText(bytes: Array("{}".utf8))
    )
    #expect(
      ProjectRoot.folder(for: repo.appendingPathComponent("a/b/x.outline").path, configuration: configuration)
        == folder.appendingPathComponent("c").path)
    #expect(
      ProjectRoot.folder(for: repo.appendingPathComponent("a/b/x.outline").path, configuration: nil)
        == repo.path)
    #expect(
      ProjectRoot.folder(for: folder.appendingPathComponent("plain/x.outline").path, configuration: nil)
        == folder.appendingPathComponent("plain").path)
  }

  @Test func modelsAreJudgedWithTheirLinksResolved() throws {
    let folder = try InputFileTests.folder()
    let project = folder.appendingPathComponent("p")
    let models = project.appendingPathComponent("M.xcdatamodel")
    try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
    try Data("<model/>".utf8).write(to: models.appendingPathComponent("contents"))
    let root = project.path
    #expect(ProjectRoot.refusal(modelPath: models.path, named: "M.xcdatamodel", roots: [root]) == nil)
    #expect(ProjectRoot.refusal(modelPath: "/etc/passwd", named: "/etc/passwd", roots: [root]) != nil)
    #expect(ProjectRoot.refusal(modelPath: root + "/../../x", named: "../../x", roots: [root]) != nil)
    #expect(ProjectRoot.refusal(modelPath: root + "/missing", named: "missing", roots: [root]) == nil)
    // A prefix is not a parent: /p-other is not inside /p.
    #expect(ProjectRoot.refusal(modelPath: root + "-other/m", named: "../p-other/m", roots: [root]) != nil)
    try FileManager.default.createSymbolicLink(
      atPath: project.appendingPathComponent("Out.xcdatamodel").path, withDestinationPath: "/etc")
    let out = ProjectRoot.refusal(
      modelPath: root + "/Out.xcdatamodel", named: "Out.xcdatamodel", roots: [root])
    #expect(out?.contains("(it leads to '/etc')") == true, "\(out ?? "nil")")
    #expect(
      ProjectRoot.refusal(modelPath: "/etc/passwd", named: "/etc/passwd", roots: [root, "/etc"]) == nil)
    #expect(ProjectRoot.refusal(modelPath: "/etc/passwd", named: "/etc/passwd", roots: [root, "/"]) == nil)
    let long = String(repeating: "z", count: 300)
    let message = ProjectRoot.refusal(modelPath: "/" + long, named: "/" + long, roots: [root]) ?? ""
    // A path is quoted whole (issue 32: it was cut after 60 characters).
    #expect(message.contains("'/" + long + "'"), "\(message)")
  }
}
