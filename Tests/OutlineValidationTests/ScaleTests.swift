import OutlineCore
import OutlineModel
import TestSupport
import Testing

@testable import OutlineValidation

/// Depth and size without limits (SPEC §9), on inputs generated here.
@Suite(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.skipped))) struct ScaleTests {
  static func chain(depth: Int, brokenAt: Int? = nil) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(depth * 40)
    text += Array("<outline>".utf8)
    for level in 0..<depth {
      text += Array("<Item title=\"level \(level)\" order=\"\(level == brokenAt ? 1 : 0)\">".utf8)
    }
    for _ in 0..<depth { text += Array("</Item>".utf8) }
    text += Array("</outline>\n".utf8)
    return text
  }

  @Test func chainOf100000ItemsValidatesWithTreeAndDiagnostics() {
    let depth = 100_000
    let source = SourceText(bytes: Self.chain(depth: depth, brokenAt: 99_998))
    let result = OutlineValidator.validate(source, modelProvider: fixedModel(), buildTree: true)
    #expect(result.diagnostics.map(\.code) == [.orderOutOfSequence])
    let tree = result.tree!
    #expect(tree.items.count == depth + 1)
    #expect(tree.items[depth].depth == Int32(depth))
    #expect(tree.items[0].subtreeEnd == Int32(depth + 1))
    // The innermost item is found by position without recursion.
    #expect(tree.item(at: tree.items[depth].startTag.start + 1) == depth)
    let position = source.position(of: result.diagnostics[0].range.start, unit: .utf16)
    #expect(position.line == 0)
  }

  @Test func millionItemsValidate() {
    var text: [UInt8] = Array("<outline>\n".utf8)
    let parents = 1_000
    let children = 999
    text.reserveCapacity(parents * children * 40)
    for parent in 0..<parents {
      text += Array("<Item title=\"p\(parent)\" order=\"\(parent)\">\n".utf8)
      for child in 0..<children {
        // One duplicate in the last group, to see diagnostics at scale.
        let order = parent == parents - 1 && child == children - 1 ? 0 : child
        text += Array(" <Item title=\"c\" order=\"\(order)\"/>\n".utf8)
      }
      text += Array("</Item>\n".utf8)
    }
    text += Array("</outline>\n".utf8)
    let result = OutlineValidator.validate(
      SourceText(bytes: text), modelProvider: fixedModel(), buildTree: true)
    #expect(result.tree!.items.count == 1 + parents * (children + 1))
    #expect(result.diagnostics.map(\.code) == [.duplicateOrder])
  }
}
