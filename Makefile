# jtg build entry points. `make demo` and `make test` work on a fresh Debian machine:
# they install the Debian packages they need (ASM for the tracer, Graphviz for pictures).
SHELL := /bin/bash
CARGO ?= cargo
JAVAC ?= javac
BUILD := build
FIXTURES_OUT := $(BUILD)/fixtures
FIXTURE_SRCS := $(shell find java-fixtures/src -name '*.java' | sort)
# Everyday Java (package `everyday`): compiled as javac writes it today, default release (class
# version 61 on JDK 17: invokedynamic string concatenation, lambdas, nest-mates).
EVERYDAY_SRCS := $(shell find java-fixtures/everyday -name '*.java' | sort)
export JTG_FIXTURES := $(CURDIR)/$(FIXTURES_OUT)
export JTG_CORPUS ?= $(abspath $(CURDIR)/../shared/corpus)

.PHONY: all deps fixtures build install test demo bench clean fuzz-corpus fuzz-smoke fuzz-long mutants

all: build

# Debian packages: ASM 9.4 (bytecode instrumentation of the tracer), Graphviz (SVG pictures),
# Python 3 (the demo edits a graph's JSON by hand).
deps:
	@missing=""; \
	[ -f /usr/share/java/asm.jar ] || missing="$$missing libasm-java"; \
	command -v dot >/dev/null 2>&1 || missing="$$missing graphviz"; \
	command -v $(JAVAC) >/dev/null 2>&1 || missing="$$missing openjdk-17-jdk-headless"; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing >/dev/null; \
	fi

# Java fixtures, compiled like the thesis examples: javac --release 8, with debug names (-g);
# the everyday ones with the JDK's default release.
fixtures: $(FIXTURES_OUT)/.stamp
$(FIXTURES_OUT)/.stamp: $(FIXTURE_SRCS) $(EVERYDAY_SRCS) | deps
	@rm -rf $(FIXTURES_OUT) && mkdir -p $(FIXTURES_OUT)
	$(JAVAC) -g --release 8 -nowarn -Xlint:-options -d $(FIXTURES_OUT) $(FIXTURE_SRCS)
	$(JAVAC) -g -nowarn -d $(FIXTURES_OUT) $(EVERYDAY_SRCS)
	@touch $@

build: deps fixtures
	$(CARGO) build --release --bin jtg

# `jtg` on the PATH (~/.cargo/bin): the release binary, as `make build` builds it.
install: deps fixtures
	$(CARGO) install --path harness --bin jtg --locked

test: deps fixtures
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	INSTA_UPDATE=no CI=true $(CARGO) test --workspace

demo: build
	@bash scripts/demo.sh

# Mutation score of the soundness check over the fixture suite (`jtg mutate` per entry).
mutants: build
	@ENUMERATE=1 bash scripts/mutants.sh

bench: build
	$(CARGO) run --release -p jtg-harness --bin jtg-bench
	$(CARGO) bench -p jtg-prove --bench prove

# Fuzzing (docs/fuzzing.md). cargo-fuzz on the stable toolchain: RUSTC_BOOTSTRAP=1 lets it use
# the -Z flags of libFuzzer's instrumentation; `-s none`: no sanitizer (ASan needs nightly).
FUZZ_TARGETS := parse_class parse_state read_json build_graph
FUZZ_TIME ?= 60
FUZZ_FLAGS ?= -timeout=10 -rss_limit_mb=2048

# Seed corpora in fuzz/corpus/ (git-ignored): fixtures, TPDB classes, states, graph JSON.
fuzz-corpus: build
	@command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install cargo-fuzz
	JTG=target/release/jtg bash scripts/fuzz-corpus.sh

# Every target for FUZZ_TIME seconds; fails on the first crash, hang (>10 s) or OOM.
fuzz-smoke: fuzz-corpus
	@for t in $(FUZZ_TARGETS); do \
	  echo "== fuzz $$t ($(FUZZ_TIME) s)"; \
	  (cd fuzz && RUSTC_BOOTSTRAP=1 $(CARGO) fuzz run -s none $$t -- \
	     -max_total_time=$(FUZZ_TIME) $(FUZZ_FLAGS)) || exit 1; \
	done

# The long run of docs/fuzzing.md: 15 minutes per target, at the lowest priority, going on
# past findings (they are collected in fuzz/artifacts/<target>/).
fuzz-long:
	nice -n 19 $(MAKE) fuzz-smoke FUZZ_TIME=900 \
	  FUZZ_FLAGS="$(FUZZ_FLAGS) -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
	@ls -l fuzz/artifacts/*/ 2>/dev/null || true

clean:
	rm -rf $(BUILD)
	$(CARGO) clean
