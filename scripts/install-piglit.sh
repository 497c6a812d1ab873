#!/bin/sh
# Extracts the piglit compute tests that tests/test_aco_corpus.c runs from
# Debian 12's piglit package (34 MB download, 2 GB installed: only these
# files are kept) into $WL_TP_CACHE/piglit (default ~/.cache/wavelift),
# with the package's copyright file. Idempotent: a stamp names the version
# and the patterns extracted. Nothing of it is committed to the repository.
set -eu
VERSION=0~git20220119-124bca3c9-1
cache=${WL_TP_CACHE:-$HOME/.cache/wavelift}
dest=$cache/piglit
lib=./usr/lib/x86_64-linux-gnu/piglit
PATTERNS="./usr/share/doc/piglit/copyright
$lib/tests/spec/arb_compute_shader/execution/*.shader_test
$lib/tests/spec/arb_shader_group_vote/cs-*.shader_test
$lib/tests/spec/glsl-es-3.10/execution/cs-*.shader_test
$lib/generated_tests/spec/glsl-4.30/execution/built-in-functions/cs-*.shader_test
$lib/generated_tests/spec/arb_gpu_shader_int64/execution/built-in-functions/cs-*.shader_test"
stamp="$VERSION $(echo "$PATTERNS" | cksum)"
if [ -f "$dest/.stamp" ] && [ "$(cat "$dest/.stamp")" = "$stamp" ]; then
    exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/piglit.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
if ! (cd "$work" && apt-get download -qq "piglit=$VERSION" 2>/dev/null); then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    (cd "$work" && apt-get download -qq "piglit=$VERSION")
fi
rm -rf "$dest.new"
mkdir -p "$dest.new"
deb=$(ls "$work"/piglit_*.deb)
set -f # the patterns are tar's, not the shell's
# shellcheck disable=SC2086
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dest.new" --wildcards $PATTERNS
set +f
echo "$stamp" >"$dest.new/.stamp"
rm -rf "$dest"
mv "$dest.new" "$dest"
echo "piglit $VERSION: $(find "$dest" -name '*.shader_test' | wc -l) compute tests in $dest"
