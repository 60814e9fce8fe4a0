;;; drive.el --- the session the eglot and lsp-mode drivers run  -*- lexical-binding: t -*-
;; What test/emacs/drive-eglot.el and drive-lsp-mode.el share: the user's session (`drive-session',
;; given what differs between the clients), waiting in batch mode, what flymake shows, the
;; client's own logs, and the JSON written to $OUT for test/emacs/emacs.test.ts.

(require 'json)
(require 'cl-lib)
(require 'flymake)

(defvar drive-out nil "What the driver saw, an alist written as JSON to $OUT.")
(defvar drive-workspace (file-name-as-directory (getenv "WORKSPACE")))

(defun drive-put (key value)
  (setq drive-out (cons (cons key value) (assq-delete-all key drive-out))))

(defun drive-wait (what predicate &optional seconds)
  "Process input and timers until PREDICATE holds, or fail naming WHAT."
  (let ((deadline (+ (float-time) (or seconds 15)))
        (turn 0))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      ;; Batch Emacs has no command loop and no redisplay: now and then, what they run (flymake
      ;; starts its checks after a command, in a buffer on display), and the idle timers a
      ;; user's pause would fire (debounced didChange, flymake's reports).
      (when (= (% turn 10) 0)
        (run-hooks 'post-command-hook)
        ;; and what redisplay runs when a buffer is shown (flymake waits for that to start).
        (run-window-configuration-change-hook))
      (setq turn (1+ turn))
      (accept-process-output nil 0.05)
      (drive-run-idle-timers))
    (unless (funcall predicate) (error "Timed out waiting for %s" what))))

(defun drive-run-idle-timers ()
  ;; One-shot idle timers only (repeating ones, like eldoc's, would run at every turn).
  (dolist (timer (copy-sequence timer-idle-list))
    (when (and (memq timer timer-idle-list) (not (timer--repeat-delay timer)))
      (timer-event-handler timer))))

(defun drive-settle (seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (< (float-time) deadline)
      (accept-process-output nil 0.05)
      (drive-run-idle-timers))))

(defun drive-open (name)
  "Visit NAME in the workspace as a user does (find-file, then the command loop's hooks)."
  (find-file (expand-file-name name drive-workspace))
  (run-hooks 'post-command-hook)
  (current-buffer))

(defun drive-position (pos)
  "POS as 0-based line and character (the files compared are ASCII where it matters)."
  (save-excursion
    (goto-char pos)
    (list (1- (line-number-at-pos)) (- pos (line-beginning-position)))))

(defun drive-goto (line character)
  (goto-char (point-min))
  (forward-line line)
  (forward-char character))

(defun drive-line (&optional line)
  (save-excursion
    (when line (goto-char (point-min)) (forward-line line))
    (buffer-substring-no-properties (line-beginning-position) (line-end-position))))

(defun drive-diagnostics (code-of)
  "What flymake shows in this buffer, sorted; CODE-OF gives a flymake diagnostic's LSP code."
  (let ((list (mapcar (lambda (d)
                        (let ((beg (drive-position (flymake-diagnostic-beg d)))
                              (end (drive-position (flymake-diagnostic-end d))))
                          `((lnum . ,(car beg)) (col . ,(cadr beg)) (end_lnum . ,(car end)) (end_col . ,(cadr end))
                            (severity . ,(drive-severity (flymake-diagnostic-type d)))
                            (code . ,(funcall code-of d)))))
                      (flymake-diagnostics))))
    (sort list (lambda (a b) (or (< (alist-get 'lnum a) (alist-get 'lnum b))
                                 (and (= (alist-get 'lnum a) (alist-get 'lnum b)) (< (alist-get 'col a) (alist-get 'col b))))))))

(defun drive-severity (type)
  (pcase (flymake--lookup-type-property type 'flymake-category type)
    ('flymake-error 1) ('flymake-warning 2) ('flymake-note 3) (_ (format "%s" type))))

(defun drive-has-code (code code-of)
  (cl-some (lambda (d) (equal (funcall code-of d) code)) (flymake-diagnostics)))

(defun drive-complete (text choice)
  "Type TEXT at the end of the buffer, ask for completion (C-M-i) and pick CHOICE from the
candidates as `choose-completion' does in *Completions*: the candidate's text replaces what the
completion covers, then the client's exit function runs. Returns the line after it and the
candidates offered."
  (goto-char (point-max))
  (insert text)
  (run-hooks 'post-command-hook)
  (let* ((capf (run-hook-wrapped 'completion-at-point-functions
                                 (lambda (f) (and (functionp f) (funcall f)))))
         (beg (nth 0 capf)) (end (nth 1 capf)) (table (nth 2 capf)) (props (nthcdr 3 capf))
         (candidates (all-completions (buffer-substring-no-properties beg end) table (plist-get props :predicate)))
         ;; What *Completions* hands back: the candidate's text, without the client's properties.
         (chosen (and (member choice candidates) (substring-no-properties choice))))
    (unless chosen (error "%s is not among the completions of %S: %S" choice text (seq-take candidates 10)))
    (completion--replace beg end chosen)
    (when (plist-get props :exit-function) (funcall (plist-get props :exit-function) chosen 'finished))
    (list (drive-line) (mapcar #'substring-no-properties (seq-take candidates 20)))))

(defun drive-flagged-messages ()
  "Lines of *Messages* shown as warnings or errors (by their face or their words)."
  (let ((flagged nil))
    (with-current-buffer (messages-buffer)
      (save-excursion
        (goto-char (point-min))
        (while (not (eobp))
          (let* ((beg (line-beginning-position)) (end (line-end-position)) (line (buffer-substring-no-properties beg end)))
            (when (or (cl-some (lambda (face) (text-property-search-forward-in beg end face)) '(warning error))
                      (string-match-p "\\`\\(Warning\\|Error\\|error\\)\\b\\|Server tried to\\|-326[0-9][0-9]" line))
              (push line flagged)))
          (forward-line 1))))
    (nreverse flagged)))

(defun text-property-search-forward-in (beg end face)
  "Whether FACE is among the faces of any text between BEG and END."
  (let ((pos beg) (found nil))
    (while (and (< pos end) (not found))
      (let ((value (get-text-property pos 'face)))
        (when (or (eq value face) (and (listp value) (memq face value))) (setq found t)))
      (setq pos (next-single-property-change pos 'face nil end)))
    found))

(defun drive-buffer-text (name)
  (let ((buffer (get-buffer name)))
    (if buffer (with-current-buffer buffer (buffer-substring-no-properties (point-min) (point-max))) "")))

(defun drive-choosing (choice thunk)
  "Run THUNK answering its `completing-read' with CHOICE; return the offered candidates."
  (let ((offered nil))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq offered (mapcar (lambda (c) (if (consp c) (car c) c)) (if (functionp collection) (funcall collection "" nil t) collection)))
                 choice)))
      (let ((last-nonmenu-event ?a)) (funcall thunk)))
    offered))

(defvar drive-collect-logs nil "Puts the client's logs into `drive-out' (each driver sets it).")

(defun drive-finish (ok failure)
  (unless ok (drive-put 'failure failure))
  ;; The client's own logs, before anything is shut down (on failure too: they say why).
  (drive-put 'warnings (drive-buffer-text "*Warnings*"))
  (drive-put 'messages (drive-buffer-text "*Messages*"))
  (drive-put 'flagged_messages (drive-flagged-messages))
  (when drive-collect-logs (ignore-errors (funcall drive-collect-logs)))
  (with-temp-file (getenv "OUT") (insert (json-encode drive-out)))
  (kill-emacs (if ok 0 1)))

;; CLIENT is a plist of what differs: :name, :connected (predicate: the client serves this
;; buffer), :code-of (a flymake diagnostic's LSP code), :hover-at (line character -> the hover as
;; the client renders it), :code-action and :definition (the commands a user runs), :servers
;; (how many servers run), :on-connect (records what the client declares).
(defun drive-session (client)
  "Use the server through CLIENT as a user does; write what was seen to $OUT and exit."
  (let ((code-of (plist-get client :code-of))
        (connected (plist-get client :connected))
        (name (plist-get client :name)))
    (condition-case failure
        (progn
          (setq default-directory drive-workspace)
          ;; 1. Diagnostics, as flymake shows them.
          (with-current-buffer (drive-open "profiles/mistakes.opf")
            (drive-wait (format "%s to connect" name) connected)
            (funcall (plist-get client :on-connect))
            (drive-wait "diagnostics of mistakes.opf" (lambda () (drive-has-code "unknown-option" code-of)))
            (drive-put 'mode (symbol-name major-mode))
            (drive-put 'mistakes (drive-diagnostics code-of)))
          (with-current-buffer (drive-open "workloads/workloadx")
            (drive-wait (format "%s for the workload" name) connected)
            (drive-wait "diagnostics of the workload" (lambda () (drive-has-code "invalid-number" code-of)))
            (drive-put 'workload_mode (symbol-name major-mode))
            (drive-put 'workload (drive-diagnostics code-of)))
          (drive-put 'servers (funcall (plist-get client :servers)))

          ;; 2. Completion with C-M-i: an option name, an option value, a workload key and value.
          (with-current-buffer (drive-open "profiles/scratch.opf")
            (drive-wait (format "%s for scratch.opf" name) connected)
            (drive-put 'option_completion (drive-complete "onload_set EF_POLL_US" "EF_POLL_USEC"))
            (insert "\n")
            (drive-put 'value_completion (drive-complete "onload_set EF_CTPIO_MODE c" "ct")))
          (with-current-buffer (drive-open "workloads/workloadk")
            (drive-wait (format "%s for workloadk" name) connected)
            (insert "workload=site.ycsb.workloads.CoreWorkload\n")
            (drive-put 'key_completion (drive-complete "operationc" "operationcount"))
            (insert "\n")
            (drive-put 'workload_value_completion (drive-complete "requestdistribution=zipf" "zipfian")))

          ;; 3. Hover, as the client renders it.
          (with-current-buffer (get-file-buffer (expand-file-name "profiles/mistakes.opf" drive-workspace))
            (drive-goto 8 14)
            (drive-put 'hover_option (funcall (plist-get client :hover-at)))
            (drive-goto 4 16)
            (drive-put 'hover_import (funcall (plist-get client :hover-at))))

          ;; 4. A quick fix picked from the client's menu of code actions.
          (with-current-buffer (get-file-buffer (expand-file-name "profiles/mistakes.opf" drive-workspace))
            (let* ((diagnostic (cl-find "unknown-option" (flymake-diagnostics) :key code-of :test #'equal))
                   (line (car (drive-position (flymake-diagnostic-beg diagnostic)))))
              (drive-put 'line_before_fix (drive-line line))
              (goto-char (+ 3 (flymake-diagnostic-beg diagnostic)))
              (drive-put 'offered_fixes (drive-choosing "Change to EF_SPIN_USEC" (lambda () (call-interactively (plist-get client :code-action)))))
              (drive-put 'fixed_line (drive-line line))
              (drive-wait "the fixed diagnostic to go" (lambda () (not (drive-has-code "unknown-option" code-of))))))

          ;; 5. Go to definition (M-.) on an import found through profilePath.
          (with-current-buffer (drive-open "profiles/via-path.opf")
            (drive-wait (format "%s for via-path.opf" name) connected)
            (drive-goto 0 17)
            (call-interactively (plist-get client :definition))
            (drive-put 'definition (file-relative-name (buffer-file-name) drive-workspace)))

          ;; 6. Back (M-,), an edit re-checked: a typo typed at the end of the file, then corrected.
          (xref-pop-marker-stack)
          (with-current-buffer (window-buffer (selected-window))
            (drive-put 'back_in (file-relative-name (buffer-file-name) drive-workspace))
            (goto-char (point-max))
            (insert "onload_set EF_BUZZ_USC 2\n")
            (run-hooks 'post-command-hook)
            (drive-wait "the typo to be reported" (lambda () (and (drive-has-code "unknown-option" code-of) (drive-has-code "ineffective-assignment" code-of))))
            (drive-put 'edited (drive-diagnostics code-of))
            (drive-goto 2 21)
            (insert "E")
            (run-hooks 'post-command-hook)
            (drive-wait "the corrected line to be checked" (lambda () (not (drive-has-code "unknown-option" code-of))))
            (drive-put 'corrected_text (buffer-substring-no-properties (point-min) (point-max)))
            (drive-put 'corrected (drive-diagnostics code-of)))
          (drive-finish t nil))
      (error (drive-finish nil (format "%S" failure))))))

(provide 'drive)
;;; drive.el ends here
