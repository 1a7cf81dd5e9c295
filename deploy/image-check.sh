#!/usr/bin/env bash
# Builds the container image from the source and checks it the way an operator meets it: it
# starts (embedded default, data folder as a volume), /healthz answers, Swagger UI is served at
# /api/v1/docs, and the process runs as a non-root user. Needs a running Docker daemon.
#   deploy/image-check.sh [IMAGE]      (make image-check)
set -euo pipefail
image=${1:-flowmill:check}
cd "$(dirname "$0")/.."
if ! docker info >/dev/null 2>&1; then
  echo "image-check: no Docker daemon answers (docker info failed); start one and run make image-check again" >&2
  exit 1
fi
docker build --quiet -t "$image" . >/dev/null
name=flowmill-image-check-$$
volume=flowmill-image-check-$$
cleanup() { docker rm -f "$name" >/dev/null 2>&1 || true; docker volume rm "$volume" >/dev/null 2>&1 || true; }
trap cleanup EXIT
docker run -d --name "$name" -p 127.0.0.1::5678 -v "$volume:/home/flowmill/.flowmill" "$image" >/dev/null
port=$(docker port "$name" 5678/tcp | head -n 1 | sed 's/.*://')
base=http://127.0.0.1:$port
for _ in $(seq 1 60); do
  curl -fsS "$base/healthz" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "$base/healthz" | grep -q '"ok"' || { docker logs "$name"; echo "image-check: /healthz did not answer" >&2; exit 1; }
docs=$(curl -fsS "$base/api/v1/docs") || { echo "image-check: /api/v1/docs did not answer 200" >&2; exit 1; }
grep -q swagger-ui <<<"$docs" || { echo "image-check: /api/v1/docs is not Swagger UI" >&2; exit 1; }
curl -fsS -o /dev/null "$base/api/v1/docs/swagger-ui-bundle.js" \
  || { echo "image-check: Swagger UI's script is missing" >&2; exit 1; }
uid=$(docker exec "$name" id -u)
[ "$uid" != 0 ] || { echo "image-check: the process runs as root" >&2; exit 1; }
health=$(docker inspect --format '{{json .Config.Healthcheck}}' "$name")
[ "$health" != null ] || { echo "image-check: the image has no HEALTHCHECK" >&2; exit 1; }
echo "image-check: $image serves /healthz and Swagger UI at /api/v1/docs as uid $uid, data in a volume: PASS"
