# The smile-loop GitHub Action image: the static smile-action binary on an empty base.
# action.yml runs the published image (docker://ghcr.io/<owner>/smile-action:<version>);
# no job builds this file.
#
# Nothing here is compiled or downloaded: the build context is a directory staged by
# scripts/action-context.sh from binaries built beforehand (`make action-image` locally,
# the release workflow for linux/amd64 and linux/arm64), so building needs no registry
# and running needs no base image. The context holds:
#   rootfs/      /etc/passwd and /etc/group (root, nobody), the CA certificates, /tmp
#   <arch>/smile-action   one static binary per architecture (CGO_ENABLED=0)
#
# GitHub runs Docker actions as the image's user; root is what the mounted Docker socket
# and workspace need. The learner itself runs in a sibling container, unprivileged.
FROM scratch
ARG TARGETARCH
COPY rootfs/ /
COPY ${TARGETARCH}/smile-action /usr/local/bin/smile-action
USER 0:0
ENTRYPOINT ["/usr/local/bin/smile-action"]
