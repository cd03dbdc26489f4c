#!/bin/sh
# The Go binding (bindings/go): gofmt-clean, go vet, and go test (unit tests and runnable
# examples) against the library installed into a scratch prefix and found by pkg-config. Only the
# standard library is used and nothing is downloaded (GOPROXY=off); the Go build cache lives in
# the build directory so that reruns are fast.
# Usage: check_go.sh BUILD_ROOT SOURCE_ROOT
set -eu
build="$1"
source="$2"
command -v go >/dev/null || { echo "FAILED: go not found: install golang-go (scripts/setup)"; exit 1; }
# The Go build cache keys a cgo package on its sources and CGO_* variables but not on what
# pkg-config printed, and keeps the -L path pkg-config gave when the package was compiled. So the
# staging path is fixed, and CGO_LDFLAGS (part of the key) names the staged library directory too.
stage="$build/bindings-go-stage"
rm -rf "$stage"
trap 'rm -rf "$stage"' EXIT
libdir=$("$(dirname "$0")/stage_install.sh" "$build" "$stage")
export PKG_CONFIG_PATH="$stage/pkgconfig" LD_LIBRARY_PATH="$libdir"
export GOCACHE="$build/go-cache" GOPATH="$build/go-path" GOFLAGS=-mod=mod GOPROXY=off GOENV=off
export CGO_ENABLED=1 CGO_LDFLAGS="-L$libdir"
cd "$source/bindings/go"
unformatted=$(gofmt -l .)
[ -z "$unformatted" ] || { echo "FAILED: not gofmt-formatted: $unformatted"; exit 1; }
go vet ./...
go test -count=1 -v ./...
