# sortkey serve in a container: a static binary on a distroless base, run
# as a non-root user, its data in a volume (docs/DEPLOYMENT.md).
#
#   docker build -t sortkey .
#   docker run -p 8000:8000 -v sortkey-data:/data sortkey
#
# The build stage runs on the builder's own platform and cross-compiles,
# so `docker buildx build --platform linux/amd64,linux/arm64` needs no
# emulation.
FROM --platform=$BUILDPLATFORM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGETOS TARGETARCH
# The context has no .git (.dockerignore), so Go has no version or commit
# to stamp: the build passes them in, and `sortkey version` reports them
# (docs/DEPLOYMENT.md):
#   docker build --build-arg VERSION="$(git describe --tags --always)" --build-arg COMMIT="$(git rev-parse HEAD)" -t sortkey .
ARG VERSION="" COMMIT=""
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath -buildvcs=false -ldflags="-s -w -X github.com/sortkeydb/sortkey/internal/version.Stamped=${VERSION} -X github.com/sortkeydb/sortkey/internal/version.StampedCommit=${COMMIT}" -o /out/sortkey ./cmd/sortkey
# An empty data directory, to be owned by the user the server runs as: a
# named volume starts as a copy of it.
RUN mkdir -p /out/data

# distroless/static has no shell, package manager or curl: only CA
# certificates, time zones and a nonroot user (65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/sortkey /sortkey
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
# Settings by environment (SORTKEY_ and the flag's name): listen on every
# interface of the container, keep data in the volume, and finish draining
# within Docker's default 10 s stop timeout before its SIGKILL.
ENV SORTKEY_ADDR=0.0.0.0:8000 \
    SORTKEY_DATA_DIR=/data \
    SORTKEY_DRAIN_TIMEOUT=8s
VOLUME /data
EXPOSE 8000
# The binary asks itself: SORTKEY_ADDR says where the server listens.
HEALTHCHECK --interval=10s --timeout=5s --start-period=5s --retries=3 CMD ["/sortkey", "health"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/sortkey"]
CMD ["serve"]
