# ragraf: the two commands a new machine needs are `make demo` and `make test`.
GO ?= go
BIN := bin/ragraf
EXAMPLE := examples/shop

.PHONY: build demo test bench corpora clean

build:
	$(GO) build -o $(BIN) ./cmd/ragraf

# Build, index the example application and show its coverage.
demo: build
	$(BIN) index --project $(EXAMPLE)
	$(BIN) status --project $(EXAMPLE)

# Install test dependencies, then vet, format check and every test.
test:
	scripts/test.sh

# Fetch the real PHP corpora (WordPress, phpMyAdmin, Laravel) for benchmarks.
corpora:
	bash ../shared/corpora/get.sh

# Index benchmarks on the corpora beside ctags; numbers go to docs/benchmarks.md.
bench: build
	scripts/bench-index.sh

clean:
	rm -rf bin $(EXAMPLE)/.ragraf
