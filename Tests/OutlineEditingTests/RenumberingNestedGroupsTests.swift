import OutlineCore
import OutlineValidation
import Testing

/// `outline-lint --fix`'s renumbering of a document whose groups hold every kind of broken
/// value, in process. (The fix through the binary, and its atomic write, stay in
/// FixKeepsOrderCLITests and LintCLITests.)
@Suite struct RenumberingNestedGroupsTests {
  @Test func aGroupWithEveryKindOfBrokenValue() {
    let fixed = RenumberingKeepsOrderTests.fixed(RenumberingKeepsOrderTests.everyKindOfBrokenValue.text)
    #expect(fixed == RenumberingKeepsOrderTests.everyKindOfBrokenValue.fixed)
    // `--fix` exits 0: no error is left.
    #expect(!OutlineValidator.validate(SourceText(fixed)).diagnostics.contains { $0.severity == .error })
  }
}
