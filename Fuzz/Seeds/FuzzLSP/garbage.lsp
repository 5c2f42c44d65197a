Content-Length: 5
Content-Length: 7

{"a":1}Content-Length: -3

Content-Type: x

Content-Length: 6

[1, 2]Content-Length: 4

nullContent-Length: 73

{"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {}}