/// The document the language server tests open, in process and through the binary: a comment
/// over two lines, a nested group, an `xml:id` and a character outside the basic plane.
public let lspDocument = """
  <?xml version="1.0" encoding="UTF-8"?>
  <outline version="1" title="Weekend">
    <!-- a
         comment -->
    <Item title="Groceries 😀" order="0" xml:id="g">
      <Item title="Milk" order="0"/>
      <Item title="Eggs" order="1"/>
    </Item>
    <Item title="Work" order="1"/>
  </outline>

  """
