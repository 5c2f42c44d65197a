-- Drives the editing features of `outline lsp` from headless Neovim (0.7+):
-- each request goes through Neovim's own LSP client, edits are applied by
-- Neovim's own `apply_text_edits`, and one line per check is written to
-- OUTLINE_NVIM_RESULT (standard output by default). From the repository root:
--   OUTLINE_BIN=$PWD/.build/release/outline OUTLINE_NVIM_FILE=Documentation/editors/features.outline \
--     nvim --headless -u NONE -c "luafile Documentation/editors/neovim-features.lua"
-- Tests/OutlineCommandsTests/NeovimFeatureTests.swift runs it on a copy of that file.
OUTLINE_BIN = os.getenv("OUTLINE_BIN") or "outline"
dofile(os.getenv("OUTLINE_NVIM_INIT") or "Documentation/editors/neovim.lua")
vim.cmd("edit " .. os.getenv("OUTLINE_NVIM_FILE"))
local lines = {}
local function say(text) table.insert(lines, text) end
local function finish()
  vim.fn.writefile(lines, os.getenv("OUTLINE_NVIM_RESULT") or "/dev/stdout")
  vim.cmd("qa!")
end

local clients = {}
vim.wait(10000, function()
  clients = vim.lsp.buf_get_clients(0)
  return next(clients) ~= nil
end, 50)
local client = select(2, next(clients))
if not client then
  say("error: the server did not attach")
  return finish()
end
vim.wait(10000, function() return client.initialized or client.server_capabilities ~= nil end, 50)
local caps = client.server_capabilities or {}
local advertised = {}
for _, name in ipairs({
  "selectionRangeProvider", "linkedEditingRangeProvider", "documentHighlightProvider", "inlayHintProvider",
  "codeLensProvider", "semanticTokensProvider", "documentRangeFormattingProvider",
  "documentOnTypeFormattingProvider",
}) do
  if caps[name] then table.insert(advertised, name) end
end
say("capabilities: " .. table.concat(advertised, " "))
local encoding = client.offset_encoding or "utf-16"

local doc = { uri = vim.uri_from_bufnr(0) }
local function request(method, params)
  local responses = vim.lsp.buf_request_sync(0, method, params, 10000) or {}
  for _, response in pairs(responses) do
    if response.err then return nil, response.err.message end
    return response.result
  end
  return nil, "no response"
end
local function at(line, character)
  return { textDocument = doc, position = { line = line, character = character } }
end
-- The buffer's text in an LSP range (ASCII fixture: columns are bytes); a
-- range ending past the last line ends at the end of the buffer.
local function text(range)
  local last = vim.api.nvim_buf_line_count(0) - 1
  local endLine, endCol = range["end"].line, range["end"].character
  if endLine > last then
    endLine, endCol = last, #vim.api.nvim_buf_get_lines(0, last, last + 1, false)[1]
  end
  local got = vim.api.nvim_buf_get_text(0, range.start.line, range.start.character, endLine, endCol, {})
  return table.concat(got, "\\n")
end

-- Selection range on the title's value (line 2: `  <Item title="Groceries" ...`).
local selection = request("textDocument/selectionRange", { textDocument = doc, positions = { { line = 2, character = 17 } } })
local chain = {}
local node = selection and selection[1]
while node do
  table.insert(chain, text(node.range))
  node = node.parent
end
say("selection: " .. table.concat(vim.list_slice(chain, 1, 3), " | ") .. " | ... " .. #chain .. " ranges")

-- Linked editing on the start tag name of line 2.
local linked = request("textDocument/linkedEditingRange", at(2, 4))
local names = {}
for _, range in ipairs(linked and linked.ranges or {}) do
  table.insert(names, string.format("%d:%d %s", range.start.line, range.start.character, text(range)))
end
say("linked: " .. table.concat(names, ", "))

-- Highlights on the end tag name of line 5: both names of the element.
local highlights = request("textDocument/documentHighlight", at(5, 5)) or {}
local marks = {}
for _, h in ipairs(highlights) do table.insert(marks, string.format("%d:%d/%d", h.range.start.line, h.range.start.character, h.kind or 1)) end
say("highlights: " .. table.concat(marks, " "))

-- Inlay hints over the whole buffer.
local hints = request("textDocument/inlayHint", {
  textDocument = doc, range = { start = { line = 0, character = 0 }, ["end"] = { line = vim.api.nvim_buf_line_count(0), character = 0 } },
}) or {}
local labels = {}
for _, hint in ipairs(hints) do
  local label = type(hint.label) == "string" and hint.label or hint.label[1].value
  table.insert(labels, string.format("%d:%s", hint.position.line, label))
end
say("hints: " .. table.concat(labels, " "))

-- Code lenses, the deletion lens resolved.
local lenses = request("textDocument/codeLens", { textDocument = doc }) or {}
local titles = {}
for _, lens in ipairs(lenses) do
  if not lens.command then lens = request("codeLens/resolve", lens) or lens end
  table.insert(titles, string.format("%d:%s", lens.range.start.line, lens.command and lens.command.title or "?"))
end
say("lenses: " .. table.concat(titles, ", "))

-- Semantic tokens: how many, and the first token's type name.
local tokens = request("textDocument/semanticTokens/full", { textDocument = doc }) or { data = {} }
local legend = caps.semanticTokensProvider and caps.semanticTokensProvider.legend or { tokenTypes = {} }
local first = tokens.data[4] and legend.tokenTypes[tokens.data[4] + 1] or "none"
say(string.format("tokens: %d first %s", #tokens.data / 5, first))

-- Range formatting of line 4 (over-indented, attributes out of order), applied by Neovim.
local edits = request("textDocument/rangeFormatting", {
  textDocument = doc, range = { start = { line = 4, character = 0 }, ["end"] = { line = 4, character = 5 } },
  options = { tabSize = 2, insertSpaces = true },
}) or {}
vim.lsp.util.apply_text_edits(edits, 0, encoding)
say("formatted: " .. vim.api.nvim_buf_get_lines(0, 4, 5, false)[1])

-- Type `</` on a new line inside the first item: completion offers its closing tag.
vim.api.nvim_buf_set_lines(0, 5, 5, false, { "    </" })
local completion = request("textDocument/completion", at(5, 6)) or {}
local items = completion.items or completion
local offered = {}
for _, item in ipairs(items) do table.insert(offered, item.label) end
say("completion: " .. table.concat(offered, " "))
if items[1] and items[1].textEdit then
  vim.lsp.util.apply_text_edits({ items[1].textEdit }, 0, encoding)
  say("completed: " .. vim.api.nvim_buf_get_lines(0, 5, 6, false)[1])
end
vim.api.nvim_buf_set_lines(0, 5, 6, false, {})

-- On-type formatting after `>`: a badly indented tag typed on a new line.
vim.api.nvim_buf_set_lines(0, 5, 5, false, { "          <Item order=\"2\"   title=\"Tea\"/>" })
local line = vim.api.nvim_buf_get_lines(0, 5, 6, false)[1]
local typed = request("textDocument/onTypeFormatting", {
  textDocument = doc, position = { line = 5, character = #line }, ch = ">",
  options = { tabSize = 2, insertSpaces = true },
}) or {}
vim.lsp.util.apply_text_edits(typed, 0, encoding)
say("on type: " .. vim.api.nvim_buf_get_lines(0, 5, 6, false)[1])
finish()
