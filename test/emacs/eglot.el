;; Onload Bench language server in Emacs 28 with eglot 1.9 (Debian 12's emacs and elpa-eglot): put
;; this in your init file and set the path of dist/server.js. The project's tests load exactly this.
(defvar onload-bench-server (expand-file-name "~/onload-bench/dist/server.js"))
(defvar onload-bench-profile-path ["~/.openonload/profiles"]) ; folders searched for onload_import

;; Shell colours for profiles, Java properties for workloads; the language ids tell the server which is which.
(define-derived-mode onload-profile-mode sh-mode "Onload profile")
(define-derived-mode ycsb-workload-mode conf-javaprop-mode "YCSB workload")
(add-to-list 'auto-mode-alist '("\\.opf\\(-fragment\\)?\\'" . onload-profile-mode))
(add-to-list 'auto-mode-alist '("\\.ycsb\\'" . ycsb-workload-mode))
(add-to-list 'auto-mode-alist '("/workloads/workload[^/]*\\'" . ycsb-workload-mode))

(with-eval-after-load 'eglot
  ;; eglot 1.9 gives a server one language id: one entry (and one server) per language.
  (dolist (language '((onload-profile-mode . "onload-profile") (ycsb-workload-mode . "ycsb-workload")))
    (add-to-list 'eglot-server-programs
                 `((,(car language) :language-id ,(cdr language))
                   . ("node" ,onload-bench-server "--stdio"
                      :initializationOptions (:onloadBench (:profilePath ,onload-bench-profile-path)))))))
(add-hook 'onload-profile-mode-hook #'eglot-ensure)
(add-hook 'ycsb-workload-mode-hook #'eglot-ensure)
