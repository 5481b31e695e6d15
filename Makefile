# iapctl: two commands do everything on a fresh machine.
#   make demo   builds iapctl and runs a real purchase scenario on the built-in catalog
#   make test   runs every test (unit, end to end, interop); sets up what the tests need first
#   make test FILTER='Bad input'   only the tests whose name matches (swift test --filter)

PREFIX ?= /usr/local
SWIFT ?= swift
RELEASE_FLAGS = -c release -Xswiftc -static-stdlib
BIN = .build/release/iapctl
VENV = .build/venv
FILTER ?=

# bash, so that a filtered build still fails when swift fails (pipefail).
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

# GNU ld warns "the use of `mktemp' is dangerous" whenever it links the toolchain's static
# Foundation (its Data+Writing.swift.o calls mktemp), that is, on every link of iapbench and of
# anything else built with -static-stdlib that imports Foundation. The warning is about the
# toolchain's own library, not about our code, and ld has no switch to turn one warning off, so
# the build output drops exactly that line and nothing else.
QUIET_LINK = 2>&1 | { grep --line-buffered -v 'libFoundationEssentials\.a(Data+Writing\.swift\.o).*the use of .mktemp. is dangerous' || true; }

.PHONY: build test test-setup demo bench format install clean order-file

# The release iapctl links its functions in the order of Sources/iapctl/iapctl.order (issue 12,
# ARCHITECTURE.md). `make order-file` regenerates it from callgrind profiles of the everyday
# commands (needs valgrind) and relinks; commit the file it writes. SwiftPM does not track the
# file: after changing it, relink (rm $(BIN); make build).
build:
	@echo "$(SWIFT) build $(RELEASE_FLAGS) --product iapctl"
	@$(SWIFT) build $(RELEASE_FLAGS) --product iapctl $(QUIET_LINK)

test: test-setup
	@echo "$(SWIFT) build --build-tests"
	@$(SWIFT) build --build-tests $(QUIET_LINK)
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(SWIFT) test --skip-build --parallel --num-workers 2 $(if $(FILTER),--filter '$(FILTER)')

# Apple's Python library in $(VENV) (made once, again when requirements-test.txt changes), and
# one line for each missing system tool naming its Debian package. Never stops the run.
test-setup:
	@bash scripts/test-setup.sh $(VENV)

demo: build
	@bash scripts/demo.sh $(BIN)

# The receipt figures compare with Apple's ReceiptUtility, so the bench runs with the test venv.
bench: test-setup
	@echo "$(SWIFT) build $(RELEASE_FLAGS) --product iapbench"
	@$(SWIFT) build $(RELEASE_FLAGS) --product iapbench $(QUIET_LINK)
	@echo "$(SWIFT) build $(RELEASE_FLAGS) --product iapctl"
	@$(SWIFT) build $(RELEASE_FLAGS) --product iapctl $(QUIET_LINK)
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" .build/release/iapbench --binary $(BIN) --json bench/results.json

order-file: build
	bash scripts/order-file.sh $(BIN) Sources/iapctl/iapctl.order
	@rm -f $(BIN)  # the order file is no input SwiftPM tracks: relink by hand
	@$(SWIFT) build $(RELEASE_FLAGS) --product iapctl $(QUIET_LINK)

format:
	$(SWIFT) format -i -r Sources Tests Plugins Fuzz

# The installed binary carries no debug information (install -s strips it).
install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -s -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/iapctl

clean:
	rm -rf .build

# Fuzzing (docs/fuzzing.md): builds one libFuzzer + AddressSanitizer executable per directory of
# Fuzz/Targets, then runs each for FUZZ_SECONDS on its seeds (Fixtures/fuzz/<name>) and on the
# corpus it grows in $(FUZZ_BUILD)/corpus/<name>, with Fixtures/fuzz/dictionaries/<name>.dict when
# there is one. Crashing inputs land in fuzz-artifacts/<name>/.
#   make fuzz FUZZ_SECONDS=300 FUZZERS="scenario arguments"
FUZZ_SECONDS ?= 30
FUZZ_BUILD ?= .build/fuzz
FUZZERS ?= $(notdir $(wildcard Fuzz/Targets/*))

.PHONY: fuzz fuzz-build

# The log goes to a file: gold prints a warning for each of AddressSanitizer's local symbols.
fuzz-build:
	@mkdir -p $(FUZZ_BUILD)
	@echo "IAPCTL_FUZZ=1 $(SWIFT) build --build-path $(FUZZ_BUILD) -Xswiftc -sanitize=fuzzer,address  (log: $(FUZZ_BUILD)/build.log)"
	@IAPCTL_FUZZ=1 $(SWIFT) build --build-path $(FUZZ_BUILD) -Xswiftc -sanitize=fuzzer,address > $(FUZZ_BUILD)/build.log 2>&1 \
		|| { grep -v 'Cannot export local symbol' $(FUZZ_BUILD)/build.log; exit 1; }

fuzz: fuzz-build
	@set -e; for name in $(FUZZERS); do \
		mkdir -p $(FUZZ_BUILD)/corpus/$$name fuzz-artifacts/$$name; \
		echo "== fuzz-$$name for $(FUZZ_SECONDS)s"; \
		dict=Fixtures/fuzz/dictionaries/$$name.dict; [ -f $$dict ] && dict=-dict=$$dict || dict=; \
		$(FUZZ_BUILD)/debug/fuzz-$$name -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $$dict \
			-artifact_prefix=fuzz-artifacts/$$name/ $(FUZZ_BUILD)/corpus/$$name Fixtures/fuzz/$$name; \
	done
