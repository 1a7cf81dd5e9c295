# Flowmill. `make run` starts the embedded default on http://localhost:5678; `make test` runs
# every test (Go, web app, end to end). See README.md.

SHELL := /bin/bash
GO ?= go
NPM ?= npm
VERSION ?= 0.1.0
LDFLAGS := -s -w -X main.version=$(VERSION)
COMPAT_DIR ?= ../shared/compat

WEB_SOURCES := $(shell find webapp/src webapp/public -type f 2>/dev/null) webapp/index.html webapp/vite.config.ts \
	webapp/tsconfig.json webapp/tsconfig.app.json webapp/package.json
GO_SOURCES := $(shell find api worker scheduler pkg e2e/stack e2e/oauthprovider e2e/backends webapp/embed.go -name '*.go' -not -name '*_test.go' 2>/dev/null) go.mod go.sum

.PHONY: run image image-check test-manifests build web test test-go test-web test-e2e test-chaos compat compat-list bench bench-push bench-queue bench-webhook bench-storecost bench-editor bench-ndv bench-idle bench-chain chaos chaos-short docs clean

# The build's output goes to $(RUN_LOG); only its last lines are shown when it fails. The api
# then logs warnings only (FLOWMILL_LOG_LEVEL=info make run for everything) and prints one
# "Flowmill ready on …" line.
RUN_LOG ?= bin/build.log
run:
	@mkdir -p bin
	@echo "build: Go modules, npm packages, web app and bin/api (the first time takes minutes; log in $(RUN_LOG))"
	@start=$$(date +%s); if ! $(MAKE) --no-print-directory bin/api >$(RUN_LOG) 2>&1; then \
		tail -n 30 $(RUN_LOG); echo "build failed; the whole log is $(RUN_LOG)"; exit 1; fi; \
		echo "build: bin/api ready in $$(( $$(date +%s) - start ))s"
	@FLOWMILL_LOG_LEVEL=$${FLOWMILL_LOG_LEVEL:-warn} ./bin/api

# The container image, built from the source alone (the Dockerfile builds the web app and
# Swagger UI itself). image-check builds it, runs it and probes /healthz and /api/v1/docs; it
# needs a Docker daemon (deploy/image-check.sh).
IMAGE ?= flowmill:local
image:
	docker build -t $(IMAGE) --build-arg VERSION=$(VERSION) .

image-check:
	bash deploy/image-check.sh $(IMAGE)

# The Kubernetes manifests (deploy/kubernetes) against the Kubernetes and KEDA schemas that the
# npm packages kubernetes-models and @kubernetes-models/keda ship: offline, no schema download.
deploy/validate/node_modules/.package-lock.json: deploy/validate/package-lock.json
	cd deploy/validate && $(NPM) ci --no-audit --no-fund --silent
	@touch $@

test-manifests: deploy/validate/node_modules/.package-lock.json
	cd deploy/validate && node validate.mjs ../kubernetes

build: bin/api bin/worker bin/scheduler

webapp/node_modules/.package-lock.json: webapp/package-lock.json
	cd webapp && $(NPM) ci --no-audit --no-fund --no-progress
	@touch $@

webapp/dist/index.html: webapp/node_modules/.package-lock.json $(WEB_SOURCES)
	cd webapp && $(NPM) run build

web: webapp/dist/index.html

# Swagger UI for /api/v1/docs: swagger-ui-dist's files from the npm registry, embedded into bin/api.
SWAGGER_UI := api/swaggerui/dist/swagger-ui-bundle.js

api/swaggerui/node_modules/.package-lock.json: api/swaggerui/package-lock.json
	cd api/swaggerui && $(NPM) ci --no-audit --no-fund
	@touch $@

$(SWAGGER_UI): api/swaggerui/node_modules/.package-lock.json
	cp api/swaggerui/node_modules/swagger-ui-dist/{swagger-ui-bundle.js,swagger-ui.css,favicon-32x32.png,LICENSE,NOTICE} api/swaggerui/dist/

bin/api: webapp/dist/index.html $(SWAGGER_UI) api/openapi/v1.yml $(GO_SOURCES)
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $@ ./api

bin/worker: $(GO_SOURCES)
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $@ ./worker

bin/scheduler: $(GO_SOURCES)
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $@ ./scheduler

bin/stack: $(GO_SOURCES)
	$(GO) build -trimpath -o $@ ./e2e/stack

bin/oauthprovider: $(GO_SOURCES)
	$(GO) build -trimpath -o $@ ./e2e/oauthprovider

bin/backends: $(GO_SOURCES)
	$(GO) build -trimpath -o $@ ./e2e/backends

test: test-manifests test-go test-web test-e2e test-chaos

# Go tests need Postgres, Redis, MariaDB, RabbitMQ and Mosquitto (the integration nodes' tests):
# FLOWMILL_TEST_DATABASE_URL and FLOWMILL_TEST_REDIS_URL, by default the local servers on
# 127.0.0.1. The api package's process tests take minutes on a loaded machine, hence the longer
# timeout than go test's 10 minutes.
test-go: $(SWAGGER_UI)
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 25m ./...
	# Cancel, finish and takeover racing on one execution, under the race detector.
	$(GO) test -count=1 -race -run 'TestCancelFinishTakeoverRace' ./pkg/execution/

test-web: webapp/node_modules/.package-lock.json
	cd webapp && $(NPM) run lint && $(NPM) run typecheck && $(NPM) test

e2e/node_modules/.package-lock.json: e2e/package-lock.json
	cd e2e && $(NPM) ci --no-audit --no-fund
	@touch $@

# End to end: the specs are type-checked (with the web app's TypeScript), then Playwright drives
# Chromium (/usr/bin/chromium, or FLOWMILL_CHROMIUM) against the scaled stack that bin/stack
# starts on a fresh database.
test-e2e: build bin/stack bin/oauthprovider bin/backends e2e/node_modules/.package-lock.json webapp/node_modules/.package-lock.json
	webapp/node_modules/.bin/tsc -p e2e
	cd e2e && npx playwright test

# The corpus runs Execute Command (echo) and reads fixtures beside the tests and temporary
# folders: the command line, a local operator tool, gets the shell and the whole disk here.
# $(COMPAT_DIR)/n8n must pass whole; $(COMPAT_DIR)/n8n-next is checked against the cases listed in
# $(COMPAT_FAILING) (not passing yet): a case off the list that fails, or one on it that passes,
# fails the target (compat/ratchet.py), so the list only shrinks. `make compat-list` rewrites it.
# Both run through compat/ordered.py, which makes check.py compare the key order of item data too.
COMPAT_FAILING ?= compat/n8n-next-failing.txt
COMPAT_ENV := FLOWMILL_NODES_ENABLE=n8n-nodes-base.executeCommand FLOWMILL_FILES_DIR=/ FLOWMILL_COMPAT_CHECK=$(COMPAT_DIR)/check.py

compat: bin/worker
	@if [ -d "$(COMPAT_DIR)/n8n" ]; then \
		$(COMPAT_ENV) python3 compat/ordered.py --exec 'bin/worker execute' $(COMPAT_DIR)/n8n; \
	else \
		echo "compat: $(COMPAT_DIR)/n8n not found, nothing to check"; \
	fi
	@if [ -d "$(COMPAT_DIR)/n8n-next" ]; then \
		$(COMPAT_ENV) python3 compat/ratchet.py --check compat/ordered.py --exec 'bin/worker execute' \
			--list $(COMPAT_FAILING) $(COMPAT_DIR)/n8n-next; \
	else \
		echo "compat: $(COMPAT_DIR)/n8n-next not found, skipped"; \
	fi

compat-list: bin/worker
	$(COMPAT_ENV) python3 compat/ratchet.py --check compat/ordered.py --exec 'bin/worker execute' \
		--list $(COMPAT_FAILING) --write $(COMPAT_DIR)/n8n-next

bench: bench-push bench-queue bench-webhook bench-storecost bench-editor bench-ndv bench-idle

bench-push: build bin/stack
	$(GO) run ./bench/push -bin bin

bench-queue: build bin/stack
	$(GO) run ./bench/queue -bin bin

# Editor speed (Playwright, system Chromium): open a 500-node workflow, pan, editor route JS.
bench-editor: build bin/stack e2e/node_modules/.package-lock.json
	node bench/editor/main.mjs -bin bin

bench-ndv: build bin/stack e2e/node_modules/.package-lock.json
	node bench/editor/ndv.mjs -bin bin

# Idle memory of the embedded api and of the scaled api, worker and scheduler.
bench-idle: build
	bash bench/idle/rss.sh bin

bench-webhook: build bin/stack
	$(GO) run ./bench/webhook -bin bin

bench-storecost:
	$(GO) run ./bench/storecost

# The fault run of the scaled stack (README, "Chaos scenario"): webhook load while workers are
# killed and Redis and Postgres are cut; fails when a request is lost, duplicated or stuck.
# Not part of bench: it is a verdict, not a measurement.
chaos: build
	$(GO) run ./bench/chaos -bin bin

chaos-short: build
	$(GO) run ./bench/chaos -bin bin -short

# The short chaos scenario is part of every test run: it fails on a lost, duplicated or stuck call.
test-chaos: chaos-short

# A chain of 10,000 No Operation nodes through a worker on the test Postgres and Redis, followed
# by an editor and as a trigger run: time, checkpoint bytes written, final row size, RSS growth.
bench-chain:
	$(GO) test -count=1 -run '^$$' -bench 'BenchmarkChainCheckpoints|BenchmarkChain10k' -benchtime 1x -timeout 30m ./pkg/execution/ ./pkg/engine/

docs:
	$(GO) test ./pkg/config -run TestREADMEListsEverySetting -update

clean:
	rm -rf bin webapp/dist/assets webapp/dist/index.html
	find api/swaggerui/dist -type f ! -name .gitkeep -delete
