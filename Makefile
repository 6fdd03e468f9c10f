# StickerCatalog: `make run` starts the service with the demo catalog, `make test` runs the whole suite.
SWIFT ?= swift
PORT ?= 8080
RELEASE_BIN := .build/release/stickerd

.PHONY: deps build run check test test-browser conformance tour bench soak fuzz clean help
FUZZ_SECONDS ?= 300
SOAK_SECONDS ?= 600
SOAK_BIN ?= $(RELEASE_BIN)
CONFORMANCE_SECONDS ?= 120
# Swift Testing's time limits do not end a test stuck on a continuation, so the suite has an outer bound.
TEST_MINUTES ?= 20
# Tests run at once, at most (Swift Testing starts every test together otherwise). On two cores, 477 tests at once
# starved the apps inside the test process: fresh clusters' migrations, image corpora and live servers competed, an app
# read no revision for seconds, and live tests hit HummingbirdTesting's fixed 20 s read timeout (3 of 6 full runs).
# With 16: 6 starvation warnings instead of 46-171, and the suite ran in 180 s instead of 210-220.
TEST_WIDTH ?= 16
# The test targets that need no database: what `make check` runs.
# What the client package's debug build indexed: scripts/check-availability.py reads it.
CLIENT_INDEX := Client/.build/debug/index/store
PURE_TESTS := StickerImageTests|PurchasesTests|FormDataTests|StickerPacksTests|CatalogCoreTests|CatalogSearchTests|CatalogServicesTests|CatalogStoreTests|CatalogHTTPTests
# Image tests that push the validator to its limits (10,000-frame and oversized animations, hostile WebPs): two thirds
# of the pure targets' CPU time, so `make check` leaves them to `make test`, which runs every test.
HEAVY_TESTS := animationLimits|hostile\(|anAnimationTooBigAtASizePlaysAtAFrameRateThatFits|oneChangedPixelPerFrameStaysSmallAtEverySize

help:
	@echo "make run    install what is missing, build, start stickerd on http://127.0.0.1:$(PORT) with the demo catalog"
	@echo "make check  build, then the client's availability check, the tests that need no database, swift-format's lint and the docs' links (under a minute after a build)"
	@echo "make test   install what is missing, build, run every test on a throwaway PostgreSQL"
	@echo "make test-browser  drive the admin console in headless Chromium (selenium) against a live stickerd; part of make test"
	@echo "make conformance  run schemathesis against openapi.yaml and a live stickerd for CONFORMANCE_SECONDS (default 120); part of make test"
	@echo "make tour   run README.md's Try it and docs/tour.md as written, each in one bash session, in a clean clone (release builds: minutes)"
	@echo "make bench-CASE  one benchmark (scripts/bench.sh lists the cases: make bench-manifest, bench-search, ...)"
	@echo "make bench  measure the manifest and an asset with wrk next to nginx and bare Hummingbird, the request histogram's cost, the validator next to pngcheck and vips, uploads with renditions next to libvips, WebP renditions next to vips webpsave and cwebp, a WhatsApp export, App Store notification intake and manifests for 1,000 signed-in users, manifest builds at 10,000 stickers, search at 10,000 and 100,000 stickers next to PostgreSQL full-text search, release history and restore at 10,000 stickers, the change feed, live updates across two replicas and a first sync next to curl"
	@echo "make soak   two replicas on one PostgreSQL under mixed traffic for SOAK_SECONDS (600) while PostgreSQL restarts twice and a replica gets SIGTERM; then checks what is stored against what was answered"
	@echo "make fuzz   fuzz the image validator and the form reader with libFuzzer, FUZZ_SECONDS each (default 300)"
	@echo "make clean  remove build output and the local .stickerd database"

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product stickerd

run: build
	$(RELEASE_BIN) serve --demo --port $(PORT)

# `swift test` builds what it runs: a `swift build` first and then `swift test --skip-build` planned the build twice over
# (each rebuilt the embedded files), a quarter of the time after an edit.
check: deps
	$(SWIFT) build --package-path Client
	@scripts/check-availability.py --self-test >/dev/null
	@scripts/check-availability.py --store $(CLIENT_INDEX)
	$(SWIFT) test --filter '^($(PURE_TESTS))\.' --skip '$(HEAVY_TESTS)'
	@scripts/check-modules.py --self-test >/dev/null
	@scripts/check-modules.py
	@scripts/format.sh --lint
	@scripts/check_links.py
	@scripts/check-web.sh

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build --product sticker-sync
	@SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) timeout -k 30 $(TEST_MINUTES)m $(SWIFT) test --skip-build || { rc=$$?; \
		[ $$rc -ne 124 ] || echo "swift test did not finish within $(TEST_MINUTES) minutes: a test is stuck"; exit $$rc; }
	@scripts/check-modules.py --self-test >/dev/null
	@scripts/check-modules.py
	@scripts/format.sh --lint
	@scripts/check_links.py
	@scripts/check-web.sh
	@scripts/schema.sh --check
	@scripts/check-openapi.sh
	@scripts/generate-client.sh --check
	$(SWIFT) test --package-path Client
	@scripts/check-availability.py --self-test >/dev/null
	@scripts/check-availability.py --store $(CLIENT_INDEX)
	@scripts/check-deploy.sh
	@scripts/conformance.sh .build/debug/stickerd $(CONFORMANCE_SECONDS)
	@scripts/install-deps.sh --browser
	@scripts/browser-test.sh .build/debug/stickerd

test-browser: deps
	@scripts/install-deps.sh --browser
	$(SWIFT) build --product stickerd
	@scripts/browser-test.sh .build/debug/stickerd

tour: build
	@scripts/tour.sh

conformance: deps
	$(SWIFT) build --product stickerd
	@scripts/conformance.sh .build/debug/stickerd $(CONFORMANCE_SECONDS)

bench: build
	@scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product baseline-server
	$(SWIFT) build -c release --product sticker-sync
	$(SWIFT) build -c release --product client-bench
	@scripts/bench.sh all $(RELEASE_BIN) .build/release/baseline-server .build/release/sticker-sync

# One benchmark case: make bench-manifest, bench-client, bench-search, ... (scripts/bench.sh lists them).
BENCH_CASES := observability validator renditions webp purchases manifest-build search search-postgres releases export bundles
.PHONY: bench-manifest bench-client bench-library $(addprefix bench-,$(BENCH_CASES))
bench-manifest: build
	@scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product baseline-server
	@scripts/bench.sh manifest $(RELEASE_BIN) .build/release/baseline-server
bench-client: build
	@scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product sticker-sync
	$(SWIFT) build -c release --product client-bench
	@scripts/bench.sh client $(RELEASE_BIN) .build/release/sticker-sync
bench-library: build
	@scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product sticker-sync
	@scripts/bench.sh library $(RELEASE_BIN) .build/release/sticker-sync
$(addprefix bench-,$(BENCH_CASES)): bench-%: build
	@scripts/install-deps.sh --bench
	@scripts/bench.sh $* $(RELEASE_BIN)

soak: deps
ifeq ($(SOAK_BIN),$(RELEASE_BIN))
	$(SWIFT) build -c release --product stickerd
endif
	SOAK_SECONDS=$(SOAK_SECONDS) scripts/soak.sh $(SOAK_BIN)

fuzz: deps
	@scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build .stickerd
