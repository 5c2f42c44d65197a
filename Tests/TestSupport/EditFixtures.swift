/// Documents the editing tests share, in process and through the server.
public enum EditFixtures {
  /// Siblings whose order checks a comment turned off, their orders broken: a gap (10), a
  /// missing order and a value that is no number. The refactors must leave them alone.
  public static let brokenSiblingGroup = """
    <outline version="1">
      <!-- outline-disable OL400 OL402 OL300 -->
      <Item order="0" title="A"/>
      <Item order="10" title="B"/>
      <Item title="C"/>
      <Item order="draft" title="D"/>
    </outline>

    """

  /// An id, a nested item and an order gap: a rename, code actions and commands each have
  /// something to edit.
  public static let idAndNesting = """
    <outline version="1">
      <Item xml:id="x" order="0" title="first"/>
      <Item order="1" title="second">
        <Item order="3" title="inner"/>
      </Item>
    </outline>

    """
}
