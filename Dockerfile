# syntax=docker/dockerfile:1
# The smile-loop GitHub Action (action.yml: runs.using docker, image Dockerfile).
# Stage 1 builds a static binary; stage 2 is a small image holding only it and CA
# certificates. The learner runs in a sibling container started through the runner's
# Docker socket, so this image needs no Docker CLI.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" \
    -o /out/smile-action ./cmd/smile-action

# distroless/static: CA certificates and tzdata, no shell. GitHub runs Docker actions as
# the image's default user, root, which the mounted workspace and Docker socket need; the
# learner container itself runs unprivileged.
FROM gcr.io/distroless/static-debian12 AS action
COPY --from=build /out/smile-action /usr/local/bin/smile-action
ENTRYPOINT ["/usr/local/bin/smile-action"]
