import OutlineCore
import OutlineValidation
import Testing

/// `outline-lint --fix`'s renumbering of a document whose groups hold every kind of broken
/// value, in process. (The fix through the binary, and its atomic write, stay in
/// FixKeepsOrderCLITests and LintCLITests.)
@Suite struct RenumberingNestedGroupsTests {
  @Test func aGroupWithEveryKindOfBrokenValue() {
    let text = """
      <outline version="1">
        <Item title="a" order="abc"/>
        <Item title="b" order="-4"/>
        <Item title="c" order="99999999999999999999"/>
        <Item title="d"/>
        <Item title="e" order="1"/>
        <Item title="f" order="70000"/>
        <Item title="g" order="3">
          <Item title="g1" order="5"/>
          <Item title="g2" order="+0"/>
        </Item>
      </outline>

      """
    let fixed = RenumberingKeepsOrderTests.fixed(text)
    // Integers by value (negative first, too large last); a child without one
    // by its position among its siblings (before a sibling holding that value
    // further down); `+0` is 0 already and is not rewritten.
    #expect(
      fixed == """
        <outline version="1">
          <Item title="a" order="1"/>
          <Item title="b" order="0"/>
          <Item title="c" order="3"/>
          <Item order="4" title="d"/>
          <Item title="e" order="2"/>
          <Item title="f" order="6"/>
          <Item title="g" order="5">
            <Item title="g1" order="1"/>
            <Item title="g2" order="+0"/>
          </Item>
        </outline>

        """)
    // `--fix` exits 0: no error is left.
    #expect(!OutlineValidator.validate(SourceText(fixed)).diagnostics.contains { $0.severity == .error })
  }
}
