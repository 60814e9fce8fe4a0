-- Drives Neovim's built-in LSP client (Debian's neovim 0.7) against dist/server.js --stdio, as a
-- user would: the README's configuration (test/neovim/onload-bench.lua) starts the server when a
-- file is opened; then diagnostics, completion as the omnifunc builds it, hover, a quick fix picked
-- from vim.lsp.buf.code_action(), a file created, incremental edits. Writes what it saw as JSON to
-- $OUT; test/neovim/neovim.test.ts asserts on it.
-- Run: nvim --headless -u NONE -i NONE -n -c 'luafile test/neovim/drive.lua'
local ws = os.getenv('WORKSPACE')
local server = os.getenv('SERVER')
local out = {}

local function wait(what, condition)
  if not vim.wait(15000, condition, 20) then error('timed out waiting for ' .. what) end
end

-- Every publishDiagnostics, counted per buffer (a clean file publishes an empty list).
local published = {}
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  local buf = vim.uri_to_bufnr(result.uri)
  published[buf] = (published[buf] or 0) + 1
  return publish(err, result, ctx, config)
end

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

local function client_of(buf)
  local found
  wait('the server to attach', function()
    for _, c in pairs(vim.lsp.buf_get_clients(buf)) do
      if c.name == 'onload-bench' and c.initialized then found = c end
    end
    return found ~= nil
  end)
  return found
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

--- What the omnifunc (<C-x><C-o>) offers at the cursor: Neovim's own conversion of the answer.
local function omni(buf, line, character)
  local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
  local start = vim.fn.match(text:sub(1, character), '\\k*$')
  local prefix = text:sub(start + 1, character)
  local result = request(buf, 'textDocument/completion', { textDocument = vim.lsp.util.make_text_document_params(buf), position = position(line, character) })
  return vim.lsp.util.text_document_completion_list_to_complete_items(result, prefix), start
end

local function find_word(items, label)
  for _, item in ipairs(items) do
    if item.abbr == label then return item end
  end
end

local ok, failure = pcall(function()
  out.capabilities = vim.lsp.protocol.make_client_capabilities()
  vim.cmd('cd ' .. vim.fn.fnameescape(ws))
  vim.g.onload_bench_server = server
  vim.g.onload_bench_profile_path = { 'my-profiles' }
  dofile(os.getenv('CONFIG'))

  -- 1. Diagnostics on the examples (opened as `sh` and `jproperties` by the configuration).
  local mistakes = open(ws .. '/profiles/mistakes.opf')
  local client = client_of(mistakes)
  wait('diagnostics of mistakes.opf', function() return #vim.diagnostic.get(mistakes) > 0 end)
  out.filetype = vim.bo[mistakes].filetype
  out.omnifunc = vim.bo[mistakes].omnifunc
  out.mistakes = diagnostics_of(mistakes)
  local workload = open(ws .. '/workloads/workloadx')
  out.workload_filetype = vim.bo[workload].filetype
  wait('diagnostics of the workload', function() return #vim.diagnostic.get(workload) > 0 end)
  out.workload = diagnostics_of(workload)
  out.clean = {}
  for _, name in ipairs({ 'profiles/couchbase-latency.opf', 'workloads/workloada', 'workloads/workloade' }) do
    local buf = open(ws .. '/' .. name)
    wait('diagnostics of ' .. name, function() return (published[buf] or 0) > 0 end)
    out.clean[name] = diagnostics_of(buf)
  end
  out.clients = #vim.lsp.get_active_clients()

  -- 2. Completion without snippets (0.7 declares snippetSupport = false), as the omnifunc inserts it.
  local scratch = open(ws .. '/profiles/scratch.opf')
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, { 'onl' })
  local items, start = omni(scratch, 0, 3)
  out.completion_words = {}
  for _, item in ipairs(items) do table.insert(out.completion_words, item.word) end
  local set = find_word(items, 'onload_set')
  vim.api.nvim_buf_set_text(scratch, 0, start, 0, 3, { set.word })
  out.after_completion = vim.api.nvim_buf_get_lines(scratch, 0, -1, false)
  local options = omni(scratch, 0, #set.word)
  out.option_word = find_word(options, 'EF_POLL_USEC').word
  local keys = open(ws .. '/workloads/workloadk')
  vim.api.nvim_buf_set_lines(keys, 0, -1, false, { 'workload=site.ycsb.workloads.CoreWorkload', 'operationc' })
  out.key_words = {}
  for _, item in ipairs((omni(keys, 1, 10))) do table.insert(out.key_words, item.word) end

  -- 3. A quick fix picked the way :lua vim.lsp.buf.code_action() offers it (vim.ui.select).
  vim.api.nvim_set_current_buf(mistakes)
  local fix_line
  for _, d in ipairs(vim.diagnostic.get(mistakes)) do if d.code == 'unknown-option' then fix_line = d.lnum end end
  out.line_before_fix = vim.api.nvim_buf_get_lines(mistakes, fix_line, fix_line + 1, false)[1]
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
  local main = open(ws .. '/profiles/main.opf')
  wait('unresolved-import', function() return has_code(main, 'unresolved-import') end)
  out.before_create = diagnostics_of(main)
  local created = open(ws .. '/profiles/created-later.opf')
  vim.api.nvim_buf_set_lines(created, 0, -1, false, { 'onload_set EF_POLL_USEC 1' })
  vim.cmd('write')
  wait('the import to resolve', function() return not has_code(main, 'unresolved-import') end)
  wait('what it sets to count', function() return has_code(main, 'ineffective-assignment') end)
  out.after_create = diagnostics_of(main)
  -- and one created outside Neovim (a terminal, git), seen at the importer's next :w
  local outside = open(ws .. '/profiles/outside.opf')
  wait('unresolved-import in outside.opf', function() return has_code(outside, 'unresolved-import') end)
  local file = io.open(ws .. '/profiles/from-terminal.opf', 'w')
  file:write('onload_set EF_SPIN_USEC 1\n')
  file:close()
  vim.cmd('write')
  wait('the import from a terminal to resolve', function() return not has_code(outside, 'unresolved-import') end)
  out.outside = diagnostics_of(outside)
  -- and one found in the settings' profilePath folder
  local via_path = open(ws .. '/profiles/via-path.opf')
  wait('diagnostics of via-path.opf', function() return #vim.diagnostic.get(via_path) > 0 end)
  out.via_path = diagnostics_of(via_path)

  -- 5. Incremental edits (insert, a new line, after a non-ASCII line, join lines), then the diagnostics of the final text.
  local edited = open(ws .. '/profiles/edited.opf')
  vim.api.nvim_buf_set_lines(edited, 0, -1, false, { 'onload_set EF_POLL_USEC 5', 'onload_set EF_SPIN_USC 1', '# é ü — comment', 'onload_set EF_TX_PUSH 1' })
  wait('first diagnostics of edited.opf', function() return has_code(edited, 'unknown-option') end)
  vim.api.nvim_buf_set_text(edited, 1, 21, 1, 21, { 'E' })                      -- EF_SPIN_USC -> EF_SPIN_USEC
  vim.api.nvim_buf_set_text(edited, 2, 0, 2, 0, { 'onload_set EF_INT_DRIVEN 0 ', '' })  -- a new line before the comment
  vim.api.nvim_buf_set_text(edited, 4, 22, 4, 23, { '2' })                      -- EF_TX_PUSH 1 -> 2 (after a non-ASCII line)
  vim.api.nvim_buf_set_text(edited, 0, 25, 1, 0, { '; ' })                       -- join the first two lines
  wait('the final diagnostics', function() return has_code(edited, 'value-truncated') and not has_code(edited, 'unknown-option') end)
  out.edited_text = vim.api.nvim_buf_get_lines(edited, 0, -1, false)
  out.edited = diagnostics_of(edited)

  -- 6. Hover: Markdown for Neovim as it is; plain text (hover and completion documentation) for a
  -- client configured as plain-text clients are.
  local hover = request(mistakes, 'textDocument/hover', { textDocument = vim.lsp.util.make_text_document_params(mistakes), position = position(fix_line, 14) })
  out.hover_markdown = hover.contents
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.textDocument.hover.contentFormat = { 'plaintext' }
  caps.textDocument.completion.completionItem.documentationFormat = { 'plaintext' }
  local plain = vim.lsp.start_client({ name = 'onload-bench-plain', cmd = { 'node', server, '--stdio' }, root_dir = ws, capabilities = caps })
  wait('the plain-text client', function()
    local c = vim.lsp.get_client_by_id(plain)
    return c ~= nil and c.initialized
  end)
  local function plain_request(buf, method, params)
    vim.lsp.buf_attach_client(buf, plain)
    return vim.lsp.buf_request_sync(buf, method, params, 10000)[plain].result
  end
  out.hover_plain = plain_request(workload, 'textDocument/hover', { textDocument = vim.lsp.util.make_text_document_params(workload), position = position(1, 3) }).contents
  out.hover_plain_profile = plain_request(mistakes, 'textDocument/hover', { textDocument = vim.lsp.util.make_text_document_params(mistakes), position = position(fix_line, 14) }).contents
  local plain_options = plain_request(scratch, 'textDocument/completion', { textDocument = vim.lsp.util.make_text_document_params(scratch), position = position(0, #set.word) })
  for _, item in ipairs(plain_options.items or plain_options) do
    if item.label == 'EF_POLL_USEC' then out.documentation_plain = item.documentation end
  end
  out.client_id = client.id
end)

if not ok then out.failure = tostring(failure) end
local file = io.open(os.getenv('OUT'), 'w')
file:write(vim.fn.json_encode(out))
file:close()
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.wait(2000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
vim.cmd(ok and 'qa!' or 'cq!')
