;;; emacs-watch.el --- eglot: diagnostics as you type and a model changed on disk -*- lexical-binding: t -*-
;; Opens OUTLINE_EMACS_FILE with eglot, types an object that lacks a
;; required attribute, then rewrites the model OUTLINE_EMACS_MODEL on disk
;; and waits for the diagnostics to follow; one line per step goes to
;; OUTLINE_EMACS_RESULT (OUTLINE_EMACS_EVENTS, if set, receives eglot's
;; events buffer). It runs in a terminal Emacs, as a user does, with its
;; command loop delivering the file watchers' events; each step waits on a timer.
;;   OUTLINE_BIN=$PWD/.build/release/outline OUTLINE_EDITORS=$PWD/Documentation/editors \
;;   OUTLINE_EMACS_FILE=t.outline OUTLINE_EMACS_MODEL=M.xcdatamodel/contents OUTLINE_EMACS_RESULT=result.txt \
;;   script -qec "emacs -nw -q --no-splash -l Documentation/editors/emacs-watch.el" /dev/null
;; Tests/OutlineCommandsTests/EmacsEglotTests.swift runs it.
(package-initialize)
(require 'eglot)
(require 'flymake)
(load (expand-file-name "outline.el" (or (getenv "OUTLINE_EDITORS") "Documentation/editors")))
(defvar outline-check-lines nil)
(defun outline-check-say (format-string &rest arguments)
  (push (apply #'format format-string arguments) outline-check-lines))
(defun outline-check-server ()
  (with-current-buffer (get-file-buffer (getenv "OUTLINE_EMACS_FILE")) (eglot-current-server)))
(defun outline-check-finish ()
  (when (getenv "OUTLINE_EMACS_EVENTS")
    (with-current-buffer (jsonrpc-events-buffer (outline-check-server))
      (write-region (point-min) (point-max) (getenv "OUTLINE_EMACS_EVENTS"))))
  (with-temp-file (getenv "OUTLINE_EMACS_RESULT")
    (insert (mapconcat #'identity (reverse outline-check-lines) "\n") "\n"))
  (kill-emacs 0))
(defun outline-check-diagnostics ()
  (with-current-buffer (get-file-buffer (getenv "OUTLINE_EMACS_FILE"))
    (mapconcat (lambda (d) (format "%d:%s" (line-number-at-pos (flymake-diagnostic-beg d))
                                   (flymake-diagnostic-text d)))
               (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))
               " | ")))
(defun outline-check-when (predicate then &optional seconds)
  "Call THEN once PREDICATE holds (or after SECONDS, 20 by default), polling from a timer."
  (let ((deadline (+ (float-time) (or seconds 20))) (tick nil))
    (setq tick (lambda ()
                 (condition-case failure
                     (with-current-buffer (get-file-buffer (getenv "OUTLINE_EMACS_FILE"))
                       (if (or (funcall predicate) (> (float-time) deadline))
                           (funcall then)
                         (run-with-timer 0.1 nil tick)))
                   (error (outline-check-say "error: %S" failure) (outline-check-finish)))))
    (run-with-timer 0.1 nil tick)))
(defun outline-check-start ()
  (find-file (getenv "OUTLINE_EMACS_FILE"))
  (outline-check-when
   (lambda () (and (eglot-current-server) (flymake-diagnostics)))
   (lambda ()
     (outline-check-say "opened: %s" (outline-check-diagnostics))
     (outline-check-say "watching files: %s"
                        (if (> (hash-table-count (eglot--file-watches (outline-check-server))) 0) "yes" "no"))
     ;; Diagnostics as you type: a second Tag without its required name.
     (goto-char (point-min))
     (forward-line 2)
     (insert "  <Tag/>\n")
     (outline-check-when
      (lambda () (string-match-p "OL204" (outline-check-diagnostics)))
      (lambda ()
        (outline-check-say "typed: %s" (outline-check-diagnostics))
        (delete-region (line-beginning-position 0) (line-beginning-position))
        ;; The model gains `colour` on disk: the watcher eglot registered tells the server.
        (with-temp-file (getenv "OUTLINE_EMACS_MODEL")
          (insert "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                  "<model><entity name=\"Tag\"><attribute name=\"name\" attributeType=\"String\"/>"
                  "<attribute name=\"colour\" optional=\"YES\" attributeType=\"String\"/></entity></model>\n"))
        (outline-check-when
         (lambda () (string= "" (outline-check-diagnostics)))
         (lambda ()
           (outline-check-say "model changed: %s" (let ((d (outline-check-diagnostics))) (if (string= d "") "clean" d)))
           (outline-check-say "server told by the watcher: %s"
                              (with-current-buffer (jsonrpc-events-buffer (outline-check-server))
                                (goto-char (point-min))
                                (if (re-search-forward "didChangeWatchedFiles\"[[:space:]]*:params[[:space:]]*(:changes" nil t)
                                    "yes" "no")))
           (outline-check-finish))))))))
(add-hook 'emacs-startup-hook #'outline-check-start)
(run-with-timer 60 nil #'outline-check-finish)
