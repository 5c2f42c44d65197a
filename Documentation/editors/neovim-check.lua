OUTLINE_BIN = os.getenv("OUTLINE_BIN") or "outline"
dofile(os.getenv("OUTLINE_NVIM_INIT") or "Documentation/editors/neovim.lua")
vim.cmd("edit examples/broken/orders.outline")
local ok = vim.wait(10000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format("%d:%d %s %s", d.lnum + 1, d.col + 1, d.code or "", d.message))
end
local symbols = vim.lsp.buf_request_sync(0, "textDocument/documentSymbol", { textDocument = vim.lsp.util.make_text_document_params() }, 5000)
local count = 0
for _, response in pairs(symbols or {}) do count = count + #(response.result or {}) end
table.insert(lines, "symbols: " .. count)
vim.fn.writefile(lines, os.getenv("OUTLINE_NVIM_RESULT") or "/dev/stdout")
vim.cmd("qa!")
