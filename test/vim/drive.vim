" Drives Debian's Vim 9 with ALE 3.3 against dist/server.js --stdio, as a user would: the README's
" configuration (test/vim/ale.vim, loaded as the vimrc) starts the server when a file is opened;
" then diagnostics in ALE's list, completion as <C-x><C-o> inserts it, :ALEHover, a quick fix
" picked from :ALECodeAction with the cursor inside the word, :ALEGoToDefinition through
" profilePath, an edit re-checked; then ALE's history and Vim's messages. Writes what it saw as
" JSON to $OUT for test/vim/ale.test.ts. Vim has no main loop here: `sleep` lets ALE's jobs,
" channels and timers run, and the events Vim fires after a change (TextChanged) are fired.
" Run: vim -N -u test/vim/ale.vim -i NONE --not-a-term -S test/vim/drive.vim (WORKSPACE, OUT set)
let s:ws = $WORKSPACE
let s:out = {}
set hidden " switch buffers without saving them first

function! s:Wait(what, condition) abort
  let l:deadline = reltimefloat(reltime()) + 15
  while !eval(a:condition)
    if reltimefloat(reltime()) > l:deadline
      throw 'timed out waiting for ' . a:what
    endif
    sleep 50m
  endwhile
endfunction

function! s:Open(name) abort
  execute 'edit ' . fnameescape(s:ws . '/' . a:name)
  return bufnr('')
endfunction

function! s:Loclist(buffer) abort
  let l:list = []
  for l:item in get(get(g:ale_buffer_info, a:buffer, {}), 'loclist', [])
    call add(l:list, {'lnum': l:item.lnum, 'col': l:item.col, 'end_lnum': get(l:item, 'end_lnum', l:item.lnum), 'end_col': get(l:item, 'end_col', 0), 'type': l:item.type, 'code': get(l:item, 'code', '')})
  endfor
  return sort(l:list, {a, b -> a.lnum == b.lnum ? a.col - b.col : a.lnum - b.lnum})
endfunction

function! s:HasCode(buffer, code) abort
  return !empty(filter(s:Loclist(a:buffer), {_, item -> item.code is# a:code}))
endfunction

" What Vim fires after a change made outside Insert mode; ALE lints on it.
function! s:Changed() abort
  doautocmd <nomodeline> TextChanged
endfunction

" <C-x><C-o> at the end of the current line, then the item whose word is a:choice: Vim replaces
" the text from the start the omnifunc gave with the word, then fires CompleteDone (ALE applies
" an item's extra edits there).
function! s:Complete(choice) abort
  " Vim calls the omnifunc in Insert mode with the cursor after the text (a column Normal mode
  " cannot put it on): its first call, with that position; then its second call.
  let s:insert_mode = 1
  try
    if !ale#completion#GetCompletions('ale-omnifunc', {'line': line('.'), 'column': len(getline('.')) + 1})
      throw 'no completion here: ' . getline('.')
    endif
    let l:start = ale#completion#GetCompletionPosition()
    let l:base = getline('.')[l:start :]
    let l:items = ale#completion#OmniFunc(0, l:base)
  finally
    let s:insert_mode = 0
  endtry
  let l:words = map(copy(l:items), {_, item -> item.word})
  let l:index = index(l:words, a:choice)
  if l:index < 0
    throw a:choice . ' not offered: ' . string(l:words[:10])
  endif
  call setline('.', strpart(getline('.'), 0, l:start) . a:choice)
  call ale#completion#HandleUserData(l:items[l:index])
  call s:Changed()
  return [getline('.'), l:words[:20]]
endfunction

" ALE shows hover text and code-action menus through these; a user reads them on screen.
let s:insert_mode = 0
runtime autoload/ale/util.vim
function! ale#util#Mode(...) abort
  return s:insert_mode ? 'i' : call('mode', a:000)
endfunction
let s:shown = []
let s:menus = []
let s:pick = ''
function! ale#util#ShowMessage(string, ...) abort
  call add(s:shown, a:string)
endfunction
function! ale#util#Input(message, value, ...) abort
  call add(s:menus, a:message)
  for l:line in split(a:message, "\n")
    if l:line =~# '^\d\+) ' && l:line[stridx(l:line, ') ') + 2 :] is# s:pick
      return matchstr(l:line, '^\d\+')
    endif
  endfor
  return ''
endfunction

try
  execute 'cd ' . fnameescape(s:ws)

  " 1. Diagnostics in ALE's list.
  let s:mistakes = s:Open('profiles/mistakes.opf')
  call s:Wait('diagnostics of mistakes.opf', 's:HasCode(s:mistakes, "unknown-option")')
  let s:out.filetype = &filetype
  let s:out.syntax = &syntax
  let s:out.mistakes = s:Loclist(s:mistakes)
  let s:workload = s:Open('workloads/workloadx')
  call s:Wait('diagnostics of the workload', 's:HasCode(s:workload, "invalid-number")')
  let s:out.workload_filetype = &filetype
  let s:out.workload = s:Loclist(s:workload)

  " 2. Completion with <C-x><C-o>: an option name and value, a workload key and value.
  call s:Open('profiles/scratch.opf')
  call setline(1, 'onload_set EF_POLL_US')
  call s:Changed()
  let s:out.option_completion = s:Complete('EF_POLL_USEC')
  call append(line('$'), 'onload_set EF_CTPIO_MODE c')
  call cursor(line('$'), 1)
  let s:out.value_completion = s:Complete('ct')
  call s:Open('workloads/workloadk')
  call setline(1, ['workload=site.ycsb.workloads.CoreWorkload', 'operationc'])
  call cursor(2, 1)
  call s:Changed()
  let s:out.key_completion = s:Complete('operationcount=0')
  call append(line('$'), 'requestdistribution=zipf')
  call cursor(line('$'), 1)
  let s:out.workload_value_completion = s:Complete('zipfian')

  " 3. :ALEHover on an option and on an import.
  execute 'buffer ' . s:mistakes
  call cursor(9, 15)
  ALEHover
  call s:Wait('the hover of EF_POLL_USEC', 'len(s:shown) >= 1')
  call cursor(5, 17)
  ALEHover
  call s:Wait('the hover of the import', 'len(s:shown) >= 2')
  let s:out.hover_option = s:shown[0]
  let s:out.hover_import = s:shown[1]

  " 4. :ALECodeAction with the cursor inside the misspelt name (not on its first character).
  let s:fix = filter(s:Loclist(s:mistakes), {_, item -> item.code is# 'unknown-option'})[0]
  let s:out.line_before_fix = getline(s:fix.lnum)
  call cursor(s:fix.lnum, s:fix.col + 3)
  let s:pick = 'Change to EF_SPIN_USEC'
  ALECodeAction
  call s:Wait('the fix to be applied', 'getline(s:fix.lnum) =~# "EF_SPIN_USEC "')
  let s:out.code_action_menu = s:menus[-1]
  let s:out.fixed_line = getline(s:fix.lnum)
  call s:Changed()
  call s:Wait('the fixed diagnostic to go', '!s:HasCode(s:mistakes, "unknown-option")')

  " 5. :ALEGoToDefinition on an import found through profilePath.
  let s:via = s:Open('profiles/via-path.opf')
  call s:Wait('diagnostics of via-path.opf', 's:HasCode(s:via, "ineffective-assignment")')
  call cursor(1, 18)
  ALEGoToDefinition
  call s:Wait('the jump', 'expand("%:t") is# "shared-tuning.opf-fragment"')
  let s:out.definition = fnamemodify(expand('%:p'), ':s?' . s:ws . '/??')

  " 6. Back, an edit re-checked: a typo typed at the end, then corrected.
  execute 'buffer ' . s:via
  call append(line('$'), 'onload_set EF_BUZZ_USC 2')
  call s:Changed()
  call s:Wait('the typo to be reported', 's:HasCode(s:via, "unknown-option")')
  let s:out.edited = s:Loclist(s:via)
  call setline(3, 'onload_set EF_BUZZ_USEC 2')
  call s:Changed()
  call s:Wait('the corrected line to be checked', '!s:HasCode(s:via, "unknown-option")')
  let s:out.corrected = s:Loclist(s:via)
catch
  let s:out.failure = v:exception . ' at ' . v:throwpoint
endtry

" 7. ALE's own log of what it ran and how it ended, and Vim's messages.
let s:out.history = ale#history#Get(bufnr('profiles/mistakes.opf'))
let s:out.shown = s:shown
let s:out.messages = execute('messages')
call writefile([json_encode(s:out)], $OUT)
qa!
