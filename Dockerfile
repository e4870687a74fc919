# syntax=docker/dockerfile:1
# The one docsnap image: `docsnap operator | api | serve | export` (the first argument picks the face).
#
#   npm ci && tools/build-native.sh     # dist/ (npm ci builds it) and the native Markdown parser
#   docker build -t docsnap:0.1.0 .
#
# Without a registry, tools/image/build.sh assembles the FROM image locally (mmdebstrap + the node
# npm package's binary) under the same name and builds this file with buildah.

ARG NODE_IMAGE=docker.io/library/node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; install scripts stay off (the `node` package's is a development one).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
COPY tools/image/prune-modules.sh /tmp/prune-modules.sh
RUN sh /tmp/prune-modules.sh /app/node_modules
COPY dist ./dist
COPY native/markdown/docsnap-markdown.node ./native/markdown/docsnap-markdown.node

# The final file system, gathered here: node, git and the libraries they load, CA certificates,
# the application (tools/image/collect-rootfs.sh). git clones the embedded exporter's git sources.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates binutils \
 && rm -rf /var/lib/apt/lists/*
COPY tools/image/collect-rootfs.sh /tmp/collect-rootfs.sh
RUN sh /tmp/collect-rootfs.sh /rootfs /app

# No shell, no package manager: only what docsnap runs.
FROM scratch
COPY --from=build /rootfs /
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="docsnap" \
      org.opencontainers.image.description="Static exports of documentation sites on Kubernetes: export, Admin API, operator, serve" \
      org.opencontainers.image.source="https://git.example.com/platform/docsnap" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="Apache-2.0"
# Non-root (the restricted Pod Security Standard); the root filesystem may be read-only: work
# files, the compile cache and embedded exports go to /tmp (mount a volume there).
ENV PATH=/usr/local/bin:/usr/bin NODE_ENV=production HOME=/tmp TMPDIR=/tmp \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt GIT_EXEC_PATH=/usr/lib/git-core
USER 65532:65532
WORKDIR /tmp
# docsnap handles SIGTERM itself (graceful shutdown of every face), so node runs as PID 1.
ENTRYPOINT ["node", "/app/dist/cli/main.js"]
CMD ["--help"]
