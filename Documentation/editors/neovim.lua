-- outline language server for Neovim 0.7+ (0.8+ can use vim.lsp.start instead).
vim.filetype = vim.filetype or {}
vim.cmd([[autocmd BufRead,BufNewFile *.outline setfiletype outline]])
vim.api.nvim_create_autocmd("FileType", {
  pattern = "outline",
  callback = function(args)
    local root = vim.fs and vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)) or vim.fn.getcwd()
    local client = vim.lsp.start_client({
      name = "outline",
      cmd = { OUTLINE_BIN or "outline", "lsp" },
      root_dir = root,
      -- Rules for the codes the project's .outline.json leaves alone.
      settings = { outline = { rules = { OL403 = "off" } } },
      -- Neovim 0.7 does not push settings by itself (nor say it answers
      -- workspace/configuration): send them once the server is up.
      on_init = function(c)
        c.notify("workspace/didChangeConfiguration", { settings = c.config.settings })
      end,
    })
    if client then vim.lsp.buf_attach_client(args.buf, client) end
  end,
})
