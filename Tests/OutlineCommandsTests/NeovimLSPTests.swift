import Foundation
import TestSupport
import Testing

/// The server in a real editor: headless Neovim (0.7.2 on Debian 12, which
/// registers no file watchers, so a model changed on disk is noticed by
/// modification times) drives diagnostics, settings, go to the model,
/// workspace diagnostics and a command that edits through the client.
@Suite(.serialized) struct NeovimLSPTests {
  static let nvim = ["/usr/bin", "/bin", "/usr/local/bin"].map { "\($0)/nvim" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model>
      <entity name="Tag">
        <attribute name="name" attributeType="String"/>
      </entity>
    </model>

    """

  /// The editor session: each step records `name=value` in the result file.
  static let script = #"""
    local BIN, ROOT, RESULT = os.getenv("OUTLINE_BIN"), os.getenv("ROOT"), os.getenv("RESULT")
    local out = {}
    local function record(k, v) table.insert(out, k .. "=" .. tostring(v)) end
    local ok, err = pcall(function()
      local id = vim.lsp.start_client({ name = "outline", cmd = { BIN, "lsp" }, root_dir = ROOT,
        settings = { outline = { rules = { OL203 = "warning" } } },
        -- Neovim 0.7 neither says it answers workspace/configuration nor pushes settings by itself.
        on_init = function(client)
          client.notify("workspace/didChangeConfiguration", { settings = client.config.settings })
        end })
      vim.cmd("edit " .. ROOT .. "/t.outline")
      local buf = vim.api.nvim_get_current_buf()
      vim.lsp.buf_attach_client(buf, id)
      local function diags()
        local t = {}
        for _, d in ipairs(vim.diagnostic.get(buf)) do
          table.insert(t, (d.code or "?") .. ":" .. d.severity .. ":" .. d.lnum)
        end
        table.sort(t)
        return table.concat(t, ",")
      end
      -- The settings arrive with the first diagnostics or just after: wait for the warning.
      vim.wait(20000, function() return diags():find(":2:") ~= nil end, 20)
      record("open", diags())
      local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 1, character = 4 } }
      local def = vim.lsp.buf_request_sync(buf, "textDocument/definition", params, 20000)
      for _, r in pairs(def or {}) do
        if r.result then record("definition", vim.fn.fnamemodify(vim.uri_to_fname(r.result.uri), ":h:t") .. ":" .. r.result.range.start.line) end
      end
      -- The model gains the attribute on disk; no watcher tells the server: the next request does.
      local f = io.open(ROOT .. "/M.xcdatamodel/contents", "w")
      f:write('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<model>\n  <entity name="Tag">\n'
        .. '    <attribute name="name" attributeType="String"/>\n'
        .. '    <attribute name="colour" optional="YES" attributeType="String"/>\n  </entity>\n</model>\n')
      f:close()
      vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 20000)
      vim.wait(20000, function() return #vim.diagnostic.get(buf) == 0 end, 20)
      record("afterModelChange", diags())
      local ws = vim.lsp.buf_request_sync(buf, "workspace/diagnostic", { previousResultIds = {} }, 20000)
      for _, r in pairs(ws or {}) do
        if r.result then
          local names = {}
          for _, item in ipairs(r.result.items) do
            table.insert(names, vim.fn.fnamemodify(vim.uri_to_fname(item.uri), ":t") .. "#" .. #item.items)
          end
          table.sort(names)
          record("workspace", table.concat(names, ","))
        end
      end
      vim.cmd("edit " .. ROOT .. "/n.outline")
      local nbuf = vim.api.nvim_get_current_buf()
      vim.lsp.buf_attach_client(nbuf, id)
      vim.wait(20000, function() return #vim.diagnostic.get(nbuf) > 0 end, 20)
      vim.lsp.buf_request_sync(nbuf, "workspace/executeCommand",
        { command = "outline.renumber", arguments = { vim.uri_from_bufnr(nbuf) } }, 20000)
      vim.wait(20000, function() return vim.api.nvim_buf_get_lines(nbuf, 1, 2, false)[1]:find('order="0"') ~= nil end, 20)
      record("renumbered", vim.api.nvim_buf_get_lines(nbuf, 1, 2, false)[1])
    end)
    if not ok then record("error", err) end
    vim.fn.writefile(out, RESULT)
    vim.cmd("qa!")
    """#

  @Test(
    .enabled(
      if: nvim != nil,
      "nvim is not installed (.ci/setup --test-tools installs it): the Neovim test did not run"))
  func neovimDrivesTheServer() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      [
        "M.xcdatamodel/contents": Self.model,
        "t.outline": "<outline model=\"M.xcdatamodel\">\n  <Tag name=\"a\" colour=\"red\"/>\n</outline>\n",
        "n.outline": "<outline>\n  <Item title=\"x\" order=\"1\"/>\n</outline>\n",
        "closed.outline": "<outline>\n  <Item title=\"closed\" order=\"5\"/>\n</outline>\n",
        "check.lua": Self.script,
      ], in: folder)
    let result = folder.appendingPathComponent("result.txt")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.nvim!)
    process.arguments = [
      "--headless", "-u", "NONE", "-i", "NONE", "-c",
      "luafile " + folder.appendingPathComponent("check.lua").path,
    ]
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["OUTLINE_BIN"] = CLI.products.appendingPathComponent("outline").path
    environment["ROOT"] = folder.path
    environment["RESULT"] = result.path
    // Its own state folders: the LSP log and shada stay out of the user's.
    environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
    environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard let recorded = try EditorRun.recorded(process, name: "nvim", result: result) else { return }
    #expect(recorded["error"] == nil)
    // OL203 is an error by default; the editor's rules made it a warning (2) on line 1.
    #expect(recorded["open"] == "OL203:2:1")
    #expect(recorded["definition"] == "M.xcdatamodel:2")
    #expect(recorded["afterModelChange"] == "")
    #expect(recorded["workspace"] == "closed.outline#1,n.outline#1,t.outline#0")
    #expect(recorded["renumbered"] == "  <Item title=\"x\" order=\"0\"/>")
  }
}
