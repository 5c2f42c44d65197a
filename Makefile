# Build and install both binaries, their man pages, shell completions and
# documentation. `make install PREFIX=$HOME/.local` puts them under a prefix
# of your choice (default /usr/local); DESTDIR works as packagers expect.
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
SHARE = $(DESTDIR)$(PREFIX)/share
RELEASE = .build/release
# A static Swift runtime: the binaries start in milliseconds and need no Swift installed.
SWIFT_BUILD ?= swift build -c release --static-swift-stdlib

.PHONY: all build test install uninstall
all: build

build:
	$(SWIFT_BUILD)

test:
	swift test

install: build
	install -d "$(BINDIR)" "$(SHARE)/man/man1" "$(SHARE)/doc/outline" \
	  "$(SHARE)/bash-completion/completions" "$(SHARE)/zsh/site-functions" "$(SHARE)/fish/vendor_completions.d"
	install -m 755 $(RELEASE)/outline $(RELEASE)/outline-lint "$(BINDIR)/"
	scripts/manpages -o "$(SHARE)/man/man1" $(RELEASE)/outline $(RELEASE)/outline-lint >/dev/null
	install -m 644 Documentation/*.md "$(SHARE)/doc/outline/"
	for tool in outline outline-lint; do \
	  $(RELEASE)/$$tool --generate-completion-script bash > "$(SHARE)/bash-completion/completions/$$tool" && \
	  $(RELEASE)/$$tool --generate-completion-script zsh > "$(SHARE)/zsh/site-functions/_$$tool" && \
	  $(RELEASE)/$$tool --generate-completion-script fish > "$(SHARE)/fish/vendor_completions.d/$$tool.fish" || exit 1; \
	done
	@echo "installed outline and outline-lint in $(BINDIR)"

uninstall:
	for tool in outline outline-lint; do \
	  rm -f "$(BINDIR)/$$tool" "$(SHARE)/man/man1/$$tool.1" "$(SHARE)/bash-completion/completions/$$tool" \
	    "$(SHARE)/zsh/site-functions/_$$tool" "$(SHARE)/fish/vendor_completions.d/$$tool.fish"; \
	done
	rm -rf "$(SHARE)/doc/outline"
