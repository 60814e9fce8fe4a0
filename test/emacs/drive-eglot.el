;;; drive-eglot.el --- Debian's Emacs 28 + eglot 1.9 against dist/server.js  -*- lexical-binding: t -*-
;; Loads the README's configuration (test/emacs/eglot.el) and uses the server as a user would:
;; diagnostics as flymake shows them, completion with C-M-i, hover as eglot renders it, a quick
;; fix picked from eglot-code-actions, go to definition through profilePath, an edit re-checked;
;; then collects *Warnings*, *Messages* and the events buffer. Writes JSON to $OUT for
;; test/emacs/emacs.test.ts.
;; Run: emacs --batch -l test/emacs/drive-eglot.el (WORKSPACE, SERVER, CONFIG, OUT set)

(package-activate-all) ; as Emacs does at start-up before a user's init file
(load (expand-file-name "drive.el" (file-name-directory load-file-name)) nil t)
(setq onload-bench-server (getenv "SERVER")
      onload-bench-profile-path ["my-profiles"]) ; relative to the project: the server resolves it
(load (getenv "CONFIG") nil t)
(require 'eglot)

(defun code-of (diagnostic)
  (plist-get (cdr (assoc 'eglot-lsp-diag (eglot--diag-data diagnostic))) :code))

(defun hover-at (line character)
  (drive-goto line character)
  (let ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover (eglot--TextDocumentPositionParams))))
    (substring-no-properties (eglot--hover-info (plist-get hover :contents) (plist-get hover :range)))))

(defun servers () (apply #'append (hash-table-values eglot--servers-by-project)))

(setq drive-collect-logs
      (lambda ()
        ;; eglot's log of every message to and from each server, and each server's stderr.
        (drive-put 'events (mapconcat (lambda (server) (drive-buffer-text (jsonrpc-events-buffer server))) (servers) "\n"))
        (drive-put 'stderr (mapconcat (lambda (server) (drive-buffer-text (format "*%s stderr*" (jsonrpc-name server)))) (servers) "\n"))))

(condition-case failure
    (progn
      (setq default-directory drive-workspace)
      ;; 1. Diagnostics, as flymake shows them.
      (with-current-buffer (drive-open "profiles/mistakes.opf")
        (drive-wait "eglot to connect" #'eglot-current-server)
        ;; What eglot declares, serialised as it sends it (test/fixtures/clients must match).
        (drive-put 'client_capabilities_json (json-serialize (eglot-client-capabilities (eglot-current-server)) :false-object :json-false :null-object nil))
        (drive-wait "diagnostics of mistakes.opf" (lambda () (drive-has-code "unknown-option" #'code-of)))
        (drive-put 'mode (symbol-name major-mode))
        (drive-put 'mistakes (drive-diagnostics #'code-of)))
      (with-current-buffer (drive-open "workloads/workloadx")
        (drive-wait "eglot for the workload" #'eglot-current-server)
        (drive-wait "diagnostics of the workload" (lambda () (drive-has-code "invalid-number" #'code-of)))
        (drive-put 'workload_mode (symbol-name major-mode))
        (drive-put 'workload (drive-diagnostics #'code-of)))
      (drive-put 'servers (length (servers)))

      ;; 2. Completion with C-M-i: an option name, an option value, a workload key and value.
      (with-current-buffer (drive-open "profiles/scratch.opf")
        (drive-wait "eglot for scratch.opf" #'eglot-current-server)
        (drive-put 'option_completion (drive-complete "onload_set EF_POLL_US" "EF_POLL_USEC"))
        (insert "\n")
        (drive-put 'value_completion (drive-complete "onload_set EF_CTPIO_MODE c" "ct")))
      (with-current-buffer (drive-open "workloads/workloadk")
        (drive-wait "eglot for workloadk" #'eglot-current-server)
        (insert "workload=site.ycsb.workloads.CoreWorkload\n")
        (drive-put 'key_completion (drive-complete "operationc" "operationcount"))
        (insert "\n")
        (drive-put 'workload_value_completion (drive-complete "requestdistribution=zipf" "zipfian")))

      ;; 3. Hover, as eglot renders it (in the echo area / *eldoc*).
      (with-current-buffer (get-file-buffer (expand-file-name "profiles/mistakes.opf" drive-workspace))
        (drive-put 'hover_option (hover-at 8 14))
        (drive-put 'hover_import (hover-at 4 16)))

      ;; 4. A quick fix picked from eglot-code-actions (M-x eglot-code-actions, then the title).
      (with-current-buffer (get-file-buffer (expand-file-name "profiles/mistakes.opf" drive-workspace))
        (let* ((diagnostic (cl-find "unknown-option" (flymake-diagnostics) :key #'code-of :test #'equal))
               (line (car (drive-position (flymake-diagnostic-beg diagnostic)))))
          (drive-put 'line_before_fix (drive-line line))
          (goto-char (+ 3 (flymake-diagnostic-beg diagnostic)))
          (drive-put 'offered_fixes (drive-choosing "Change to EF_SPIN_USEC" (lambda () (call-interactively #'eglot-code-actions))))
          (drive-put 'fixed_line (drive-line line))
          (drive-wait "the fixed diagnostic to go" (lambda () (not (drive-has-code "unknown-option" #'code-of))))))

      ;; 5. Go to definition (M-.) on an import found through profilePath.
      (with-current-buffer (drive-open "profiles/via-path.opf")
        (drive-wait "eglot for via-path.opf" #'eglot-current-server)
        (drive-goto 0 17)
        (call-interactively #'xref-find-definitions)
        (drive-put 'definition (file-relative-name (buffer-file-name) drive-workspace)))

      ;; 6. Back (M-,) in via-path.opf, an edit re-checked: a typo typed at its end, then corrected.
      (xref-pop-marker-stack)
      (with-current-buffer (window-buffer (selected-window))
        (drive-put 'back_in (file-relative-name (buffer-file-name) drive-workspace))
        (goto-char (point-max))
        (insert "onload_set EF_BUZZ_USC 2\n")
        (run-hooks 'post-command-hook)
        (drive-wait "the typo to be reported" (lambda () (and (drive-has-code "unknown-option" #'code-of) (drive-has-code "ineffective-assignment" #'code-of))))
        (drive-put 'edited (drive-diagnostics #'code-of))
        (drive-goto 2 21)
        (insert "E")
        (run-hooks 'post-command-hook)
        (drive-wait "the corrected line to be checked" (lambda () (not (drive-has-code "unknown-option" #'code-of))))
        (drive-put 'corrected_text (buffer-substring-no-properties (point-min) (point-max)))
        (drive-put 'corrected (drive-diagnostics #'code-of)))
      (drive-finish t nil))
  (error (drive-finish nil (format "%S" failure))))
