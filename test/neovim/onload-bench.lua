-- Onload Bench language server in Neovim 0.7 (built-in LSP client, no plugin): put this in
-- init.lua and set the path of dist/server.js. The project's tests run exactly this text.
local server = vim.g.onload_bench_server or vim.fn.expand('~/onload-bench/dist/server.js')
local profile_path = vim.g.onload_bench_profile_path or { '~/.openonload/profiles' }
local clients = {} -- one server per working directory

vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
  pattern = { '*.opf', '*.opf-fragment', '*.ycsb', '*/workloads/workload*' },
  callback = function(args)
    -- Shell colours for profiles, Java properties for workloads: the server goes by the file name.
    if vim.bo[args.buf].filetype == '' then
      vim.bo[args.buf].filetype = args.file:match('%.opf') and 'sh' or 'jproperties'
    end
    vim.bo[args.buf].omnifunc = 'v:lua.vim.lsp.omnifunc' -- completion with <C-x><C-o>
    local root = vim.fn.getcwd()
    if not (clients[root] and vim.lsp.get_client_by_id(clients[root])) then
      clients[root] = vim.lsp.start_client({
        name = 'onload-bench',
        cmd = { 'node', server, '--stdio' },
        root_dir = root,
        settings = { onloadBench = { profilePath = profile_path } },
        -- Neovim 0.7 neither pulls nor pushes `settings` by itself.
        on_init = function(client)
          client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
        end,
      })
    end
    vim.lsp.buf_attach_client(args.buf, clients[root])
  end,
})
