;; Onload Bench language server in Emacs 28 with lsp-mode 8 (Debian 12's emacs and elpa-lsp-mode):
;; put this in your init file and set the path of dist/server.js. The project's tests load exactly
;; this. lsp-mode asks once per folder which project root to import: answer `i'.
(defvar onload-bench-server (expand-file-name "~/onload-bench/dist/server.js"))
(defvar onload-bench-profile-path ["~/.openonload/profiles"]) ; folders searched for onload_import

(define-derived-mode onload-profile-mode sh-mode "Onload profile")
(define-derived-mode ycsb-workload-mode conf-javaprop-mode "YCSB workload")
(add-to-list 'auto-mode-alist '("\\.opf\\(-fragment\\)?\\'" . onload-profile-mode))
(add-to-list 'auto-mode-alist '("\\.ycsb\\'" . ycsb-workload-mode))
(add-to-list 'auto-mode-alist '("/workloads/workload[^/]*\\'" . ycsb-workload-mode))

;; Debian 12 ships lsp-mode without company-mode and yasnippet: say so, or it warns at every start
;; (completion is then C-M-i, as in any buffer).
(setq lsp-completion-provider :none
      lsp-enable-snippet nil)
;; lsp-mode reports through flymake; flymake's legacy checker has no command for these files and
;; would warn about that in every buffer.
(dolist (hook '(onload-profile-mode-hook ycsb-workload-mode-hook))
  (add-hook hook (lambda () (setq-local flymake-diagnostic-functions nil))))

(with-eval-after-load 'lsp-mode
  ;; lsp-mode sends a language id per major mode: without these entries it has none for our modes.
  (add-to-list 'lsp-language-id-configuration '(onload-profile-mode . "onload-profile"))
  (add-to-list 'lsp-language-id-configuration '(ycsb-workload-mode . "ycsb-workload"))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection (lambda () (list "node" onload-bench-server "--stdio")))
    :activation-fn (lsp-activate-on "onload-profile" "ycsb-workload")
    :server-id 'onload-bench
    :initialization-options (lambda () `(:onloadBench (:profilePath ,onload-bench-profile-path))))))
(add-hook 'onload-profile-mode-hook #'lsp-deferred)
(add-hook 'ycsb-workload-mode-hook #'lsp-deferred)
