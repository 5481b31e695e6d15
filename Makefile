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

# The interop tests' Python packages (requirements-test.txt: Apple's app-store-server-library,
# Selenium for the browser test) live in a venv of the build's own, first on the tests' PATH; it
# is made once and again when requirements-test.txt changes (pip needs the network that once).
VENV = .build/venv

test: $(VENV)/requirements-test.txt
	$(SWIFT) build --build-tests
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(SWIFT) test --skip-build --parallel --num-workers 2

$(VENV)/requirements-test.txt: requirements-test.txt
	rm -rf $(VENV)
	python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	cp requirements-test.txt $@

demo: build
	@bash scripts/demo.sh $(BIN)

bench: build
	.build/release/iapbench --binary $(BIN) --json bench/results.json

format:
	$(SWIFT) format -i -r Sources Tests Plugins Fuzz

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/iapctl

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
