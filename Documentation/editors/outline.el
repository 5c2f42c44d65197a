;;; outline.el --- .outline files with the outline language server -*- lexical-binding: t -*-
(require 'nxml-mode)
(define-derived-mode outline-file-mode nxml-mode "Outline"
  "Major mode for .outline files.")
(add-to-list 'auto-mode-alist '("\\.outline\\'" . outline-file-mode))
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               `(outline-file-mode . (,(or (getenv "OUTLINE_BIN") "outline") "lsp"))))
(add-hook 'outline-file-mode-hook #'eglot-ensure)
;;; outline.el ends here
