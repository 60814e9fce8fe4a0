-- Drives Neovim's built-in LSP client (Debian's neovim 0.7) against dist/server.js --stdio, as a
-- user would: open files, wait for diagnostics, complete, hover, pick a quick fix, create a file,
-- edit. Writes what it saw as JSON to $OUT; test/neovim/neovim.test.ts asserts on it.
-- Run: nvim --headless -u NONE -i NONE -n -c 'luafile test/neovim/drive.lua'
local ws = os.getenv('WORKSPACE')
local server = os.getenv('SERVER')
local out = {}

local function wait(what, condition)
  if not vim.wait(15000, condition, 20) then error('timed out waiting for ' .. what) end
end

local function start(name, capabilities)
  return vim.lsp.start_client({
    name = name,
    cmd = { 'node', server, '--stdio' },
    root_dir = ws,
    capabilities = capabilities,
    -- What a user's init.lua would set (README): the folder searched after the importer's own.
    settings = { onloadBench = { profilePath = { 'my-profiles' } } },
    -- Neovim 0.7 does not send `settings` by itself (nvim-lspconfig does this same thing).
    on_init = function(c) c.notify('workspace/didChangeConfiguration', { settings = c.config.settings }) end,
    flags = { debounce_text_changes = 50 },
  })
end

local function open(path, client)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client)
  return buf
end

local function diagnostics_of(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity, code = d.code, message = d.message })
  end
  table.sort(list, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return list
end

local function has_code(buf, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do if d.code == code then return true end end
  return false
end

local function request(buf, method, params)
  local responses = vim.lsp.buf_request_sync(buf, method, params, 10000)
  for _, response in pairs(responses or {}) do
    if response.error then error(method .. ': ' .. vim.inspect(response.error)) end
    return response.result
  end
end

local function position(line, character)
  return { line = line, character = character }
end

local ok, failure = pcall(function()
  out.capabilities = vim.lsp.protocol.make_client_capabilities()
  local client = start('onload-bench')
  wait('the server to initialize', function()
    local c = vim.lsp.get_client_by_id(client)
    return c ~= nil and c.initialized
  end)

  -- 1. Diagnostics on the examples, with no filetype set (the server goes by the file name).
  local mistakes = open(ws .. '/profiles/mistakes.opf', client)
  wait('diagnostics of mistakes.opf', function() return #vim.diagnostic.get(mistakes) > 0 end)
  out.filetype = vim.bo[mistakes].filetype
  out.mistakes = diagnostics_of(mistakes)
  local workload = open(ws .. '/workloads/workloadx', client)
  wait('diagnostics of the workload', function() return #vim.diagnostic.get(workload) > 0 end)
  out.workload = diagnostics_of(workload)

  -- 2. Completion without snippets: Neovim 0.7 declares snippetSupport = false.
  local scratch = open(ws .. '/profiles/scratch.opf', client)
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, { 'onl' })
  local completion = request(scratch, 'textDocument/completion', { textDocument = vim.lsp.util.make_text_document_params(scratch), position = position(0, 3) })
  local items = completion.items or completion
  for _, item in ipairs(items) do
    if item.label == 'onload_set' then
      out.completion = { insertTextFormat = item.insertTextFormat or vim.NIL, newText = item.textEdit.newText }
      vim.lsp.util.apply_text_edits({ item.textEdit }, scratch, 'utf-16')
    end
  end
  out.after_completion = vim.api.nvim_buf_get_lines(scratch, 0, -1, false)

  -- 3. A quick fix picked the way :lua vim.lsp.buf.code_action() offers it (vim.ui.select).
  vim.api.nvim_set_current_buf(mistakes)
  local fix_line
  for _, d in ipairs(vim.diagnostic.get(mistakes)) do if d.code == 'unknown-option' then fix_line = d.lnum end end
  vim.api.nvim_win_set_cursor(0, { fix_line + 1, 12 })
  local offered = {}
  vim.ui.select = function(choices, _, on_choice)
    for index, choice in ipairs(choices) do
      table.insert(offered, choice[2].title)
      if choice[2].title == 'Change to EF_SPIN_USEC' then on_choice(choice, index) return end
    end
    on_choice(nil)
  end
  vim.lsp.buf.code_action()
  wait('the fix to be applied', function() return vim.api.nvim_buf_get_lines(mistakes, fix_line, fix_line + 1, false)[1]:find('EF_SPIN_USEC ') ~= nil end)
  out.offered_fixes = offered
  out.fixed_line = vim.api.nvim_buf_get_lines(mistakes, fix_line, fix_line + 1, false)[1]
  wait('the fixed diagnostic to go', function() return not has_code(mistakes, 'unknown-option') end)

  -- 4. An import that resolves once the imported file is created (Neovim 0.7 watches no files).
  local main = open(ws .. '/profiles/main.opf', client)
  wait('unresolved-import', function() return has_code(main, 'unresolved-import') end)
  out.before_create = diagnostics_of(main)
  local created = open(ws .. '/profiles/created-later.opf', client)
  vim.api.nvim_buf_set_lines(created, 0, -1, false, { 'onload_set EF_POLL_USEC 1' })
  vim.cmd('write')
  wait('the import to resolve', function() return not has_code(main, 'unresolved-import') end)
  wait('what it sets to count', function() return has_code(main, 'ineffective-assignment') end)
  out.after_create = diagnostics_of(main)
  -- and one found in the settings' profilePath folder
  local via_path = open(ws .. '/profiles/via-path.opf', client)
  wait('diagnostics of via-path.opf', function() return #vim.diagnostic.get(via_path) > 0 end)
  out.via_path = diagnostics_of(via_path)

  -- 5. Incremental edits (insert, join lines, delete a range across lines), then the diagnostics of the final text.
  local edited = open(ws .. '/profiles/edited.opf', client)
  vim.api.nvim_buf_set_lines(edited, 0, -1, false, { 'onload_set EF_POLL_USEC 5', 'onload_set EF_SPIN_USC 1', '# é ü — comment', 'onload_set EF_TX_PUSH 1' })
  wait('first diagnostics of edited.opf', function() return has_code(edited, 'unknown-option') end)
  vim.api.nvim_buf_set_text(edited, 1, 21, 1, 21, { 'E' })                      -- EF_SPIN_USC -> EF_SPIN_USEC
  vim.api.nvim_buf_set_text(edited, 2, 0, 2, 0, { 'onload_set EF_INT_DRIVEN 0 ', '' })  -- a new line before the comment
  vim.api.nvim_buf_set_text(edited, 4, 22, 4, 23, { '2' })                      -- EF_TX_PUSH 1 -> 2 (after a non-ASCII line)
  vim.api.nvim_buf_set_text(edited, 0, 25, 1, 0, { '; ' })                       -- join the first two lines
  wait('the final diagnostics', function() return has_code(edited, 'value-truncated') and not has_code(edited, 'unknown-option') end)
  out.edited_text = vim.api.nvim_buf_get_lines(edited, 0, -1, false)
  out.edited = diagnostics_of(edited)

  -- 6. Hover: Markdown for Neovim as it is, plain text for a client configured for plain text.
  local hover = request(mistakes, 'textDocument/hover', { textDocument = vim.lsp.util.make_text_document_params(mistakes), position = position(fix_line, 14) })
  out.hover_markdown = hover.contents
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.textDocument.hover.contentFormat = { 'plaintext' }
  caps.textDocument.completion.completionItem.documentationFormat = { 'plaintext' }
  local plain = start('onload-bench-plain', caps)
  wait('the plain-text client', function()
    local c = vim.lsp.get_client_by_id(plain)
    return c ~= nil and c.initialized
  end)
  vim.lsp.buf_attach_client(workload, plain)
  local responses = vim.lsp.buf_request_sync(workload, 'textDocument/hover', { textDocument = vim.lsp.util.make_text_document_params(workload), position = position(1, 3) }, 10000)
  out.hover_plain = responses[plain].result.contents
end)

if not ok then out.failure = tostring(failure) end
local file = io.open(os.getenv('OUT'), 'w')
file:write(vim.fn.json_encode(out))
file:close()
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.wait(2000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
vim.cmd(ok and 'qa!' or 'cq!')
