" Onload Bench language server in Vim 9 with ALE 3.3 (Debian 12's vim-nox and vim-ale): put this in
" your vimrc and set the path of dist/server.js. The project's tests load exactly this.
let g:onload_bench_server = get(g:, 'onload_bench_server', expand('~/onload-bench/dist/server.js'))
let g:onload_bench_profile_path = get(g:, 'onload_bench_profile_path', ['~/.openonload/profiles'])
packadd! ale
filetype plugin on
syntax on

" Filetypes of their own (so ALE runs only this server on them), with shell and properties colours.
augroup onload_bench
  autocmd!
  autocmd BufNewFile,BufRead *.opf,*.opf-fragment setlocal filetype=onloadprofile syntax=sh
  autocmd BufNewFile,BufRead *.ycsb,*/workloads/workload* setlocal filetype=ycsbworkload syntax=jproperties
augroup END

for [s:filetype, s:language] in [['onloadprofile', 'onload-profile'], ['ycsbworkload', 'ycsb-workload']]
  call ale#linter#Define(s:filetype, {
  \   'name': 'onload_bench',
  \   'lsp': 'stdio',
  \   'executable': 'node',
  \   'command': '%e ' . ale#Escape(g:onload_bench_server) . ' --stdio',
  \   'language': s:language,
  \   'project_root': {buffer -> getcwd()},
  \   'initialization_options': {'onloadBench': {'profilePath': g:onload_bench_profile_path}},
  \})
endfor
" Completion as you type and with <C-x><C-o>; hover (:ALEHover), :ALEGoToDefinition, :ALECodeAction.
let g:ale_completion_enabled = 1
set omnifunc=ale#completion#OmniFunc
