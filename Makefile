# iapctl: two commands do everything on a fresh machine.
#   make demo   builds iapctl and runs a real purchase scenario on the built-in catalog
#   make test   runs every test (unit, end to end, interop)

PREFIX ?= /usr/local
SWIFT ?= swift
RELEASE_FLAGS = -c release -Xswiftc -static-stdlib
BIN = .build/release/iapctl

.PHONY: build test demo bench format install clean

build:
	$(SWIFT) build $(RELEASE_FLAGS)

test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel --num-workers 2

demo: build
	@bash scripts/demo.sh $(BIN)

bench: build
	.build/release/iapbench --binary $(BIN) --json bench/results.json

format:
	$(SWIFT) format -i -r Package.swift Sources Tests Plugins

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/iapctl

clean:
	rm -rf .build
