;;; emacs-check.el --- open a broken outline in eglot and print its diagnostics -*- lexical-binding: t -*-
;; emacs --batch -l Documentation/editors/emacs-check.el
(package-initialize)
(require 'eglot)
(require 'flymake)
(load (expand-file-name "Documentation/editors/outline.el"))
(find-file "examples/broken/orders.outline")
; eglot-ensure waits for a command loop; in batch mode start the server directly.
(apply #'eglot (eglot--guess-contact))
(let ((deadline (+ (float-time) 20)))
  (while (and (< (float-time) deadline) (null (flymake-diagnostics)))
    (accept-process-output nil 0.2)))
(dolist (d (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
  (princ (format "%d: %s\n" (line-number-at-pos (flymake-diagnostic-beg d)) (flymake-diagnostic-text d))))
;; The name the server gave in its initialize reply (serverInfo), not the project's folder.
(let ((server (eglot-current-server)))
  (princ (format "server: %s\n" (and server (plist-get (eglot--server-info server) :name)))))
(kill-emacs 0)
