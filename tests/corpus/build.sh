#!/usr/bin/env bash
# Cross-build the corpus of real programs: each recipe in tests/corpus/recipes/
# names a Debian source package, fetches it with `apt-get source` and builds
# the programs it lists, static, for riscv64, into
#     $CORPUS_CACHE/<package>-<version>/
# (default ~/.cache/rvsample-corpus). A directory whose stamp matches the
# recipe and the cross compiler is reused, so a warm machine builds nothing.
# build/corpus/bin/<program> links to the cached binaries and
# build/corpus/versions.txt lists the packages and versions built.
# A recipe with SET=eval belongs to the evaluation set of the accuracy
# bench (tests/corpus/SPLIT.md), one with SET=tuning-extra to the tuning
# set's later additions: `make corpus` and `make test` leave both out.
#
# Usage: tests/corpus/build.sh [--eval | --tuning-extra | --all | RECIPE...]
#   (default: the test corpus's recipes; --eval, --tuning-extra: those only)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RECIPES=$ROOT/tests/corpus/recipes
CACHE=${CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rvsample-corpus}
OUTDIR=$ROOT/build/corpus
JOBS=${CORPUS_JOBS:-2}
export TRIPLE=riscv64-linux-gnu
export CC=$TRIPLE-gcc CXX=$TRIPLE-g++ AR=$TRIPLE-ar RANLIB=$TRIPLE-ranlib STRIP=$TRIPLE-strip
export CFLAGS="-O2 -march=rv64gc -mabi=lp64d" CXXFLAGS="-O2 -march=rv64gc -mabi=lp64d" LDFLAGS=-static
export CONFIG_SITE=/dev/null
# Debian's patches leave Makefile.am or configure.ac newer than what was
# generated from them; make would then rerun the autotools, which are not
# installed: what the release generated is used as it is.
export ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true

say() { echo "corpus: $*" >&2; }

# The source packages need deb-src entries for the configured Debian mirror:
# a copy of the binary entries as Types: deb-src, added once.
ensure_deb_src() {
    local probe=$1
    apt-cache showsrc --only-source "$probe" 2>/dev/null | grep -q '^Version:' && return 0
    local list=/etc/apt/sources.list.d/rvsample-deb-src f
    say "adding deb-src entries ($list.*) and updating the package lists"
    local sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
    for f in /etc/apt/sources.list.d/*.sources; do
        [ "$f" = "$list.sources" ] || sed -n '/^Types:.*\bdeb\b/,/^$/p' "$f" | grep -v '^#' |
            sed 's/^Types:.*/Types: deb-src/'
        echo
    done | cat -s > "$T/src.sources"
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        sed -n 's/^deb \(.*\)/deb-src \1/p' > "$T/src.list" || true
    [ -s "$T/src.list" ] || grep -q deb-src "$T/src.sources" ||
        { say "no Debian entries in /etc/apt to derive deb-src entries from"; exit 1; }
    grep -q deb-src "$T/src.sources" && $sudo cp "$T/src.sources" "$list.sources"
    [ -s "$T/src.list" ] && $sudo cp "$T/src.list" "$list.list"
    $sudo apt-get -o DPkg::Lock::Timeout=900 update -qq
    apt-cache showsrc --only-source "$probe" 2>/dev/null | grep -q '^Version:' ||
        { say "source package $probe not found after apt-get update"; exit 1; }
}

# The versions of a source package that apt knows, newest first.
src_versions() {
    local vs
    vs=$(apt-cache showsrc --only-source "$1" | sed -n 's/^Version: //p' | sort -u)
    [ -n "$vs" ] || { say "no source package $1"; return 1; }
    local sorted=() v i
    for v in $vs; do
        for ((i = ${#sorted[@]}; i > 0; i--)); do
            dpkg --compare-versions "$v" gt "${sorted[i - 1]}" || break
            sorted[i]=${sorted[i - 1]}
        done
        sorted[i]=$v
    done
    echo "${sorted[@]}"
}

# build_one RECIPE: fetch, build and cache one source package (no-op when
# cached): its newest version, or when a mirror cannot serve that one's
# files (a security update its mirror lacks), the newest it can.
build_one() {
    local recipe=$1 SRCPKG= PROGRAMS= SET=
    # shellcheck disable=SC1090
    source "$RECIPES/$recipe.sh"
    local versions version rc
    versions=$(src_versions "$SRCPKG") || return 1
    for version in $versions; do
        build_version "$recipe" "$version" && return 0
        rc=$?
        [ $rc -eq 2 ] || return 1
        say "$SRCPKG $version cannot be fetched: trying the version before it"
    done
    return 1
}

# build_version RECIPE VERSION (the recipe sourced): 0 when built or cached,
# 2 when the source cannot be fetched, else 1.
build_version() {
    local recipe=$1 version=$2 dir stamp
    dir=$CACHE/$SRCPKG-$version
    stamp="$(sha256sum "$RECIPES/$recipe.sh" | cut -c1-16) $($CC -dumpfullversion) $($CXX -dumpfullversion)"
    if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$stamp" ]; then
        echo "$recipe $SRCPKG $version cached"
        return 0
    fi
    say "building $SRCPKG $version ($PROGRAMS)"
    local work start=$SECONDS rc=0
    work=$(mktemp -d "$CACHE/.build-$SRCPKG.XXXXXX")
    (
        cd "$work"
        apt-get source -qq --only-source "$SRCPKG=$version" > fetch.log 2>&1 ||
            { grep '^E:' fetch.log >&2; exit 2; }
        cd "$(find . -mindepth 1 -maxdepth 1 -type d | head -n 1)"
        mkdir -p "$work/out"
        OUT=$work/out build > "$work/build.log" 2>&1 ||
            { say "$SRCPKG failed; the end of its log:"; tail -n 30 "$work/build.log" >&2; exit 1; }
        for p in $PROGRAMS; do
            [ -x "$work/out/$p" ] || { say "$SRCPKG: $p was not built"; exit 1; }
            file -b "$work/out/$p" | grep -q 'RISC-V.*statically linked' ||
                { say "$SRCPKG: $p is not a static RISC-V executable: $(file -b "$work/out/$p")"; exit 1; }
        done
    ) || rc=$?
    if [ $rc -ne 0 ]; then
        rm -rf "$work"
        return $rc
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    mv "$work"/out/* "$dir"/
    echo "$stamp" > "$dir/.stamp"
    rm -rf "$work"
    echo "$recipe $SRCPKG $version built in $((SECONDS - start)) s"
}

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$CACHE" "$OUTDIR/bin"
# recipes_in SET: the recipes of the test set ("test"), the evaluation set
# ("eval") or the tuning set's later additions ("tuning-extra").
recipes_in() {
    local f set
    for f in "$RECIPES"/*.sh; do
        set=$(SET=test; source "$f"; echo "$SET")
        [ "$set" = "$1" ] && basename "$f" .sh
    done
}
case ${1:-} in
"") set -- $(recipes_in test) ;;
--eval) set -- $(recipes_in eval) ;;
--tuning-extra) set -- $(recipes_in tuning-extra) ;;
--all) set -- $(recipes_in test) $(recipes_in eval) $(recipes_in tuning-extra) ;;
esac
for r in "$@"; do [ -f "$RECIPES/$r.sh" ] || { say "no recipe $r"; exit 1; }; done
ensure_deb_src "$(. "$RECIPES/$1.sh"; echo "$SRCPKG")"

export -f build_one build_version src_versions say
export RECIPES CACHE
# Two packages at a time: configure scripts are serial, so this keeps both cores busy.
# A package that fails leaves the others built and linked; the exit status says so.
failed=0
printf '%s\n' "$@" | xargs -P "$JOBS" -I{} bash -c 'build_one {}' > "$T/done.txt" || failed=1
sort "$T/done.txt" | tee "$T/built.txt"
# The other recipes' lines stay (a build of one set keeps the other's).
{ [ -f "$OUTDIR/versions.txt" ] && awk 'NR == FNR { b[$1]; next } !($1 in b)' "$T/built.txt" "$OUTDIR/versions.txt"
  cat "$T/built.txt"; } | sort > "$OUTDIR/versions.txt.new"
while read -r r pkg version _; do # the version built, not always the newest
    (
        source "$RECIPES/$r.sh"
        for p in $PROGRAMS; do ln -sfn "$CACHE/$pkg-$version/$p" "$OUTDIR/bin/$p"; done
    )
done < "$T/built.txt"
mv "$OUTDIR/versions.txt.new" "$OUTDIR/versions.txt"
[ "$failed" = 0 ] || { say "some packages failed to build"; exit 1; }
