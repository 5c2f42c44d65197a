Content-Length: 136

{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}}}}Content-Length: 57

{"jsonrpc": "2.0", "method": "initialized", "params": {}}Content-Length: 906

{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///tmp/fuzz/groceries.outline", "languageId": "outline", "version": 1, "text": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- A nested to-do list in the default model (schema/Outline.xcdatamodeld). -->\n<outline version=\"1\" title=\"Weekend\">\n  <Item order=\"0\" title=\"Groceries\">\n    <Item xml:id=\"milk\" order=\"0\" title=\"Milk\"/>\n    <Item order=\"1\" title=\"Eggs\"/>\n    <Item order=\"2\" title=\"Crème fraîche &amp; chives\"/>\n  </Item>\n  <Item order=\"1\" title=\"Work\">\n    <Item order=\"0\" title=\"Review the Q3 plan\">\n      <Item order=\"0\" title=\"Read §4 (budget)\"/>\n      <Item order=\"1\" title=\"Write comments for Zoë\"/>\n    </Item>\n    <Item order=\"1\" title=\"Book the train to Zürich 🚆\"/>\n  </Item>\n  <Item order=\"2\" title=\"Home\"/>\n</outline>\n"}}}Content-Length: 265

{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": "file:///tmp/fuzz/groceries.outline", "version": 2}, "contentChanges": [{"range": {"start": {"line": 4, "character": 27}, "end": {"line": 4, "character": 28}}, "text": "1"}]}}Content-Length: 139

{"jsonrpc": "2.0", "id": 2, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 141

{"jsonrpc": "2.0", "id": 3, "method": "textDocument/foldingRange", "params": {"textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 143

{"jsonrpc": "2.0", "id": 4, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 188

{"jsonrpc": "2.0", "id": 5, "method": "textDocument/formatting", "params": {"options": {"tabSize": 2, "insertSpaces": true}, "textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 256

{"jsonrpc": "2.0", "id": 6, "method": "textDocument/codeAction", "params": {"range": {"start": {"line": 4, "character": 0}, "end": {"line": 5, "character": 0}}, "context": {"diagnostics": []}, "textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 176

{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {"position": {"line": 4, "character": 10}, "textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 180

{"jsonrpc": "2.0", "id": 8, "method": "textDocument/completion", "params": {"position": {"line": 6, "character": 4}, "textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 181

{"jsonrpc": "2.0", "id": 9, "method": "textDocument/definition", "params": {"position": {"line": 4, "character": 20}, "textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 223

{"jsonrpc": "2.0", "id": 10, "method": "textDocument/references", "params": {"position": {"line": 4, "character": 20}, "context": {"includeDeclaration": true}, "textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 185

{"jsonrpc": "2.0", "id": 11, "method": "textDocument/prepareRename", "params": {"position": {"line": 4, "character": 20}, "textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 196

{"jsonrpc": "2.0", "id": 12, "method": "textDocument/rename", "params": {"position": {"line": 4, "character": 20}, "newName": "oat", "textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 68

{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 5}}Content-Length: 229

{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": "file:///tmp/fuzz/groceries.outline", "version": 3}, "contentChanges": [{"text": "<outline version=\"1\"><Item order=\"3\"/></outline>"}]}}Content-Length: 90

{"jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles", "params": {"changes": []}}Content-Length: 128

{"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": "file:///tmp/fuzz/groceries.outline"}}}Content-Length: 50

{"jsonrpc": "2.0", "id": 13, "method": "shutdown"}Content-Length: 36

{"jsonrpc": "2.0", "method": "exit"}