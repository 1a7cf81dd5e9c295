# syntax=docker/dockerfile:1
# Multi-stage build from the source alone (.dockerignore keeps every build output of the host
# out): the web app and Swagger UI's files from npm, then the three Go binaries with both
# embedded in the api, then a small runtime image holding all three, run as a non-root user
# with the data folder as a volume. `make image-check` builds it and probes /healthz and
# /api/v1/docs.

FROM node:20-bookworm-slim AS web
WORKDIR /src/webapp
COPY webapp/package.json webapp/package-lock.json ./
RUN npm ci --no-audit --no-fund --silent
COPY webapp/ ./
RUN npm run build

# Swagger UI for /api/v1/docs: swagger-ui-dist's files, as `make` copies them.
FROM node:20-bookworm-slim AS swagger
WORKDIR /src/api/swaggerui
COPY api/swaggerui/package.json api/swaggerui/package-lock.json ./
RUN npm ci --no-audit --no-fund --silent \
 && mkdir -p dist \
 && cp node_modules/swagger-ui-dist/swagger-ui-bundle.js node_modules/swagger-ui-dist/swagger-ui.css \
       node_modules/swagger-ui-dist/favicon-32x32.png node_modules/swagger-ui-dist/LICENSE \
       node_modules/swagger-ui-dist/NOTICE dist/

FROM golang:1.26-bookworm AS go
WORKDIR /src
COPY go.mod go.sum ./
# go.mod replaces a module with this folder (the SQLite driver the gorm dialector runs on).
COPY third_party ./third_party
RUN go mod download
COPY . .
COPY --from=web /src/webapp/dist ./webapp/dist
COPY --from=swagger /src/api/swaggerui/dist ./api/swaggerui/dist
ARG VERSION=0.1.0
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/api ./api \
 && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/worker ./worker \
 && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/scheduler ./scheduler

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates tzdata wget \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 1000 flowmill \
 && mkdir -p /home/flowmill/.flowmill && chown flowmill:flowmill /home/flowmill/.flowmill
COPY --from=go /out/api /out/worker /out/scheduler /usr/local/bin/
USER flowmill
# The SQLite database, the generated encryption key and the files folder of the embedded
# default; mount a volume here to keep them.
ENV FLOWMILL_DATA_DIR=/home/flowmill/.flowmill \
    FLOWMILL_HEALTH_PORT=5679
VOLUME ["/home/flowmill/.flowmill"]
EXPOSE 5678 5679
# The api answers on its port, a worker or scheduler on its health port.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD wget -qO- "http://127.0.0.1:${FLOWMILL_PORT:-5678}/healthz" >/dev/null 2>&1 \
   || wget -qO- "http://127.0.0.1:${FLOWMILL_HEALTH_PORT:-5679}/healthz" >/dev/null 2>&1 || exit 1
CMD ["api"]
