;;; drive-lsp-mode.el --- Debian's Emacs 28 + lsp-mode 8 against dist/server.js  -*- lexical-binding: t -*-
;; Loads the README's configuration (test/emacs/lsp-mode.el), answers lsp-mode's project-root
;; question with `i' as a user does, and runs the user's session of drive.el with lsp-mode's
;; commands: lsp-execute-code-action, lsp-find-definition, hover as lsp-mode renders it; *lsp-log*
;; is kept. Writes JSON to $OUT for test/emacs/emacs.test.ts.
;; Run: emacs --batch -l test/emacs/drive-lsp-mode.el (WORKSPACE, SERVER, CONFIG, OUT set)

(package-activate-all) ; as Emacs does at start-up before a user's init file
(load (expand-file-name "drive.el" (file-name-directory load-file-name)) nil t)
(setq onload-bench-server (getenv "SERVER")
      onload-bench-profile-path ["my-profiles"]) ; relative to the project: the server resolves it
(load (getenv "CONFIG") nil t)
(require 'lsp-mode)

(defun code-of (diagnostic)
  "The code of the LSP diagnostic lsp-mode holds for the flymake DIAGNOSTIC (same start)."
  (let ((start (drive-position (flymake-diagnostic-beg diagnostic))))
    (cl-some (lambda (lsp)
               (let ((range-start (lsp:range-start (lsp:diagnostic-range lsp))))
                 (and (= (lsp:position-line range-start) (car start)) (= (lsp:position-character range-start) (cadr start))
                      (lsp:diagnostic-code? lsp))))
             (gethash (lsp--fix-path-casing buffer-file-name) (lsp-diagnostics t)))))

(setq drive-collect-logs (lambda () (drive-put 'lsp_log (drive-buffer-text "*lsp-log*"))))

;; lsp-mode asks which project root to import for the first file; the user answers `i'.
(setq unread-command-events (listify-key-sequence "i"))
(drive-session
 (list :name "lsp-mode"
       :connected (lambda () (and (bound-and-true-p lsp-mode) (lsp-workspaces)))
       :code-of #'code-of
       :hover-at (lambda ()
                   (let ((hover (lsp-request "textDocument/hover" (lsp--text-document-position-params))))
                     (substring-no-properties (lsp--render-on-hover-content (lsp:hover-contents hover) t))))
       :code-action #'lsp-execute-code-action
       :definition #'lsp-find-definition
       :servers (lambda () (length (lsp--session-workspaces (lsp-session))))
       :on-connect (lambda ()
                     (drive-put 'root_prompt_answered (null unread-command-events))
                     ;; What lsp-mode declares, serialised as it sends it (test/fixtures/clients must match).
                     (drive-put 'client_capabilities_json (lsp--json-serialize (lsp--client-capabilities))))))
