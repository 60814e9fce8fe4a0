;;; drive-lsp-mode.el --- Debian's Emacs 28 + lsp-mode 8 against dist/server.js  -*- lexical-binding: t -*-
;; Loads the README's configuration (test/emacs/lsp-mode.el), answers lsp-mode's project-root
;; question with `i' as a user does, and uses the server: diagnostics as flymake shows them,
;; completion with C-M-i, hover as lsp-mode renders it, a quick fix picked from
;; lsp-execute-code-action, go to definition through profilePath, an edit re-checked; then
;; collects *Warnings*, *Messages* and *lsp-log*. Writes JSON to $OUT for test/emacs/emacs.test.ts.
;; Run: emacs --batch -l test/emacs/drive-lsp-mode.el (WORKSPACE, SERVER, CONFIG, OUT set)

(package-activate-all) ; as Emacs does at start-up before a user's init file
(load (expand-file-name "drive.el" (file-name-directory load-file-name)) nil t)
(setq onload-bench-server (getenv "SERVER")
      onload-bench-profile-path ["my-profiles"]) ; relative to the project: the server resolves it
(load (getenv "CONFIG") nil t)
(require 'lsp-mode)

(defun lsp-diagnostic-at (beg)
  "The LSP diagnostic lsp-mode holds for the flymake diagnostic starting at BEG."
  (let ((start (drive-position beg)))
    (cl-find-if (lambda (diagnostic)
                  (let ((range-start (lsp:range-start (lsp:diagnostic-range diagnostic))))
                    (and (= (lsp:position-line range-start) (car start)) (= (lsp:position-character range-start) (cadr start)))))
                (gethash (lsp--fix-path-casing buffer-file-name) (lsp-diagnostics t)))))

(defun code-of (diagnostic)
  (let ((lsp (lsp-diagnostic-at (flymake-diagnostic-beg diagnostic))))
    (and lsp (lsp:diagnostic-code? lsp))))

(defun hover-at (line character)
  (drive-goto line character)
  (let ((hover (lsp-request "textDocument/hover" (lsp--text-document-position-params))))
    (substring-no-properties (lsp--render-on-hover-content (lsp:hover-contents hover) t))))

(defun connected () (and (bound-and-true-p lsp-mode) (lsp-workspaces)))

(setq drive-collect-logs (lambda () (drive-put 'lsp_log (drive-buffer-text "*lsp-log*"))))

(condition-case failure
    (progn
      (setq default-directory drive-workspace)
      ;; lsp-mode asks which project root to import for the first file; the user answers `i'.
      (setq unread-command-events (listify-key-sequence "i"))
      ;; 1. Diagnostics, as flymake shows them.
      (with-current-buffer (drive-open "profiles/mistakes.opf")
        (drive-wait "lsp-mode to connect" #'connected)
        (drive-put 'root_prompt_answered (null unread-command-events))
        ;; What lsp-mode declares, serialised as it sends it (test/fixtures/clients must match).
        (drive-put 'client_capabilities_json (lsp--json-serialize (lsp--client-capabilities)))
        (drive-wait "diagnostics of mistakes.opf" (lambda () (drive-has-code "unknown-option" #'code-of)))
        (drive-put 'mode (symbol-name major-mode))
        (drive-put 'mistakes (drive-diagnostics #'code-of)))
      (with-current-buffer (drive-open "workloads/workloadx")
        (drive-wait "lsp-mode for the workload" #'connected)
        (drive-wait "diagnostics of the workload" (lambda () (drive-has-code "invalid-number" #'code-of)))
        (drive-put 'workload_mode (symbol-name major-mode))
        (drive-put 'workload (drive-diagnostics #'code-of)))
      (drive-put 'servers (length (lsp--session-workspaces (lsp-session))))

      ;; 2. Completion with C-M-i: an option name, an option value, a workload key and value.
      (with-current-buffer (drive-open "profiles/scratch.opf")
        (drive-wait "lsp-mode for scratch.opf" #'connected)
        (drive-put 'option_completion (drive-complete "onload_set EF_POLL_US" "EF_POLL_USEC"))
        (insert "\n")
        (drive-put 'value_completion (drive-complete "onload_set EF_CTPIO_MODE c" "ct")))
      (with-current-buffer (drive-open "workloads/workloadk")
        (drive-wait "lsp-mode for workloadk" #'connected)
        (insert "workload=site.ycsb.workloads.CoreWorkload\n")
        (drive-put 'key_completion (drive-complete "operationc" "operationcount"))
        (insert "\n")
        (drive-put 'workload_value_completion (drive-complete "requestdistribution=zipf" "zipfian")))

      ;; 3. Hover, as lsp-mode renders it.
      (with-current-buffer (get-file-buffer (expand-file-name "profiles/mistakes.opf" drive-workspace))
        (drive-put 'hover_option (hover-at 8 14))
        (drive-put 'hover_import (hover-at 4 16)))

      ;; 4. A quick fix picked from lsp-execute-code-action (s-l a a, then the title).
      (with-current-buffer (get-file-buffer (expand-file-name "profiles/mistakes.opf" drive-workspace))
        (let* ((diagnostic (cl-find "unknown-option" (flymake-diagnostics) :key #'code-of :test #'equal))
               (line (car (drive-position (flymake-diagnostic-beg diagnostic)))))
          (drive-put 'line_before_fix (drive-line line))
          (goto-char (+ 3 (flymake-diagnostic-beg diagnostic)))
          (drive-put 'offered_fixes (drive-choosing "Change to EF_SPIN_USEC" (lambda () (call-interactively #'lsp-execute-code-action))))
          (drive-put 'fixed_line (drive-line line))
          (drive-wait "the fixed diagnostic to go" (lambda () (not (drive-has-code "unknown-option" #'code-of))))))

      ;; 5. Go to definition (M-.) on an import found through profilePath.
      (with-current-buffer (drive-open "profiles/via-path.opf")
        (drive-wait "lsp-mode for via-path.opf" #'connected)
        (drive-goto 0 17)
        (call-interactively #'lsp-find-definition)
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
