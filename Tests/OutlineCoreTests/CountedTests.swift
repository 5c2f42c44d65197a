import OutlineCore
import Testing

/// Counts read right in every message: one noun in the singular, others plural.
@Suite struct CountedTests {
  @Test func singularAndPlural() {
    #expect(counted(0, "file") == "0 files")
    #expect(counted(1, "file") == "1 file")
    #expect(counted(2, "error") == "2 errors")
    #expect(counted(1, "child", plural: "children") == "1 child")
    #expect(counted(3, "child", plural: "children") == "3 children")
  }

  @Test func versionIsSemantic() {
    let parts = ToolVersion.current.split(separator: ".")
    #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
  }
}
