# syntax=docker/dockerfile:1
# Multi-stage build: the web app, then the three Go binaries with the web app embedded in the api,
# then a small runtime image holding all three.

FROM node:20-bookworm-slim AS web
WORKDIR /src/webapp
COPY webapp/package.json webapp/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY webapp/ ./
RUN npm run build

FROM golang:1.26-bookworm AS go
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/webapp/dist ./webapp/dist
ARG VERSION=0.1.0
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/api ./api \
 && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/worker ./worker \
 && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/scheduler ./scheduler

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates tzdata wget \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 1000 flowmill
COPY --from=go /out/api /out/worker /out/scheduler /usr/local/bin/
USER flowmill
ENV FLOWMILL_DATA_DIR=/home/flowmill/.flowmill
EXPOSE 5678
CMD ["api"]
