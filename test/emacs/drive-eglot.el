;;; drive-eglot.el --- Debian's Emacs 28 + eglot 1.9 against dist/server.js  -*- lexical-binding: t -*-
;; Loads the README's configuration (test/emacs/eglot.el) and runs the user's session of drive.el
;; with eglot's commands: M-x eglot-code-actions, M-. (xref), hover as eglot renders it; eglot's
;; events log and each server's stderr are kept. Writes JSON to $OUT for test/emacs/emacs.test.ts.
;; Run: emacs --batch -l test/emacs/drive-eglot.el (WORKSPACE, SERVER, CONFIG, OUT set)

(package-activate-all) ; as Emacs does at start-up before a user's init file
(load (expand-file-name "drive.el" (file-name-directory load-file-name)) nil t)
(setq onload-bench-server (getenv "SERVER")
      onload-bench-profile-path ["my-profiles"]) ; relative to the project: the server resolves it
(load (getenv "CONFIG") nil t)
(require 'eglot)

(defun servers () (apply #'append (hash-table-values eglot--servers-by-project)))

(setq drive-collect-logs
      (lambda ()
        (drive-put 'events (mapconcat (lambda (server) (drive-buffer-text (jsonrpc-events-buffer server))) (servers) "\n"))
        (drive-put 'stderr (mapconcat (lambda (server) (drive-buffer-text (format "*%s stderr*" (jsonrpc-name server)))) (servers) "\n"))))

(drive-session
 (list :name "eglot"
       :connected #'eglot-current-server
       :code-of (lambda (diagnostic) (plist-get (cdr (assoc 'eglot-lsp-diag (eglot--diag-data diagnostic))) :code))
       :hover-at (lambda ()
                   (let ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover (eglot--TextDocumentPositionParams))))
                     (substring-no-properties (eglot--hover-info (plist-get hover :contents) (plist-get hover :range)))))
       :code-action #'eglot-code-actions
       :definition #'xref-find-definitions
       :servers (lambda () (length (servers)))
       ;; What eglot declares, serialised as it sends it (test/fixtures/clients must match).
       :on-connect (lambda () (drive-put 'client_capabilities_json (json-serialize (eglot-client-capabilities (eglot-current-server)) :false-object :json-false :null-object nil)))))
