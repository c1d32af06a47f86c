#!/usr/bin/env bash
# Build libdisni (DiSNI's JNI library, which DiSNI's jar does not ship) from DiSNI 2.1's sources, install it
# where the JVM looks for JNI libraries, and check that DiSNI 2.1's jar accepts it (JNI version and struct sizes).
#
# DiSNI's C sources are not on Maven Central (only the jar and pom are), nor in Debian, so the source is an argument:
#   a DiSNI 2.1 source tree (a checkout of zrlio/disni at tag v2.1), or a .tar.gz / .zip of one (GitHub's
#   "Source code" archive of release v2.1), or an http(s) URL of such an archive.
#
# Needs: gcc and g++, rdma-core's development headers, a JDK (jni.h); autoconf/automake/libtool if present (DiSNI's
# own build), else its two source files are compiled directly, as its Makefile.am would (no ODP prefetch, which
# needs Mellanox OFED's verbs_exp.h, not rdma-core).
#   Debian/Ubuntu: apt-get install g++ libibverbs-dev librdmacm-dev   (+ autoconf automake libtool for DiSNI's build)
#   RHEL/Fedora:   dnf install gcc-c++ rdma-core-devel
#
# usage: build-libdisni.sh SOURCE [--dest DIR] [--jar DISNI_JAR] [--check-only]
#   --dest DIR     install directory (default: the JVM's own JNI directory on java.library.path, so no
#                  -Djava.library.path is needed; ringwatch's doctor looks on java.library.path too)
#   --jar JAR      DiSNI 2.1 jar for the check (default: the one Maven put in ~/.m2)
#   --check-only   skip the build; only check the libdisni found in --dest (or on java.library.path)
set -euo pipefail

DISNI_VERSION=2.1
EXPECTED_JNI_VERSION=32   # what the DiSNI 2.1 jar's NativeDispatcher requires

die() { echo "build-libdisni: $*" >&2; exit 1; }

source_arg=""
dest=""
jar=""
check_only=false
while [ $# -gt 0 ]; do
    case "$1" in
        --dest) dest="${2:?--dest needs a directory}"; shift 2 ;;
        --jar) jar="${2:?--jar needs a file}"; shift 2 ;;
        --check-only) check_only=true; shift ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) [ -z "$source_arg" ] || die "one SOURCE only (see --help)"; source_arg="$1"; shift ;;
    esac
done
$check_only || [ -n "$source_arg" ] || die "no SOURCE given: pass a DiSNI $DISNI_VERSION source tree, archive or URL (see --help)"

command -v java >/dev/null || die "java not found on PATH"
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
[ -f "$java_home/include/jni.h" ] || die "no jni.h under $java_home/include: install a JDK (not a JRE) or set JAVA_HOME"

# where this JVM looks for JNI libraries: prefer its .../jni directory, else the first entry
library_path=$(java -XshowSettings:properties -version 2>&1 | awk '
    /java.library.path =/ { sub(/.*= /, ""); print; on = 1; next }
    on && /^        [^ ]/ { sub(/^ +/, ""); print; next }
    { on = 0 }')
if [ -z "$dest" ]; then
    dest=$(printf '%s\n' "$library_path" | grep -m1 '/jni$' || true)
    [ -n "$dest" ] || dest=$(printf '%s\n' "$library_path" | head -n1)
    [ -n "$dest" ] || die "could not read java.library.path from the JVM; pass --dest"
fi

if [ -z "$jar" ]; then
    jar="$HOME/.m2/repository/com/ibm/disni/disni/$DISNI_VERSION/disni-$DISNI_VERSION.jar"
fi
[ -f "$jar" ] || die "DiSNI jar not found at $jar: run 'mvn -pl transport-rdma dependency:resolve' or pass --jar"
slf4j=$(ls "$HOME"/.m2/repository/org/slf4j/slf4j-api/*/slf4j-api-*.jar 2>/dev/null | grep -v sources | tail -n1 || true)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! $check_only; then
    missing=""
    for tool in g++ gcc; do
        command -v "$tool" >/dev/null || missing="$missing $tool"
    done
    for header in infiniband/verbs.h rdma/rdma_cma.h; do
        echo "#include <$header>" | gcc -E -x c - >/dev/null 2>&1 || missing="$missing <$header>"
    done
    [ -z "$missing" ] || die "missing:$missing (Debian: apt-get install g++ libibverbs-dev librdmacm-dev)"
    autotools=true
    for tool in autoreconf automake libtoolize make; do
        command -v "$tool" >/dev/null || autotools=false
    done

    case "$source_arg" in
        http://*|https://*)
            command -v curl >/dev/null || die "curl needed to download $source_arg"
            archive="$work/disni-src"
            case "$source_arg" in *.zip) archive="$archive.zip" ;; *) archive="$archive.tar.gz" ;; esac
            curl -fsSL -o "$archive" "$source_arg" || die "download of $source_arg failed"
            source_arg="$archive" ;;
    esac
    if [ -d "$source_arg" ]; then
        cp -R "$source_arg" "$work/src"
    elif [ -f "$source_arg" ]; then
        mkdir "$work/src"
        case "$source_arg" in
            *.zip) command -v unzip >/dev/null || die "unzip needed for $source_arg"; unzip -q "$source_arg" -d "$work/src" ;;
            *) tar -xf "$source_arg" -C "$work/src" ;;
        esac
    else
        die "SOURCE $source_arg is neither a directory, an archive nor a URL"
    fi
    configure_ac=$(find "$work/src" -path '*/libdisni/configure.ac' | head -n1)
    [ -n "$configure_ac" ] || die "no libdisni/configure.ac in $source_arg: not a DiSNI source tree"
    libdisni=$(dirname "$configure_ac")

    if ! $autotools; then
        echo "build-libdisni: compiling $libdisni directly against $java_home (no autotools)"
        mkdir -p "$work/direct" "$work/install/lib"
        : >"$work/direct/config.h"
        flags=(-fPIC -O2 -I"$work/direct" -I"$java_home/include" -I"$java_home/include/linux")
        g++ -c "${flags[@]}" "$libdisni/src/verbs/com_ibm_disni_verbs_impl_NativeDispatcher.cpp" \
            -o "$work/direct/verbs.o" 2>"$work/compile.log" || { cat "$work/compile.log" >&2; die "compile failed"; }
        gcc -c "${flags[@]}" "$libdisni/src/affinity/com_ibm_disni_util_NativeAffinity.c" \
            -o "$work/direct/affinity.o" 2>>"$work/compile.log" || { cat "$work/compile.log" >&2; die "compile failed"; }
        g++ -shared -o "$work/install/lib/libdisni.so" "$work/direct/verbs.o" "$work/direct/affinity.o" \
            -libverbs -lrdmacm 2>>"$work/compile.log" || { cat "$work/compile.log" >&2; die "link failed"; }
    else
        echo "build-libdisni: building $libdisni against $java_home"
        (
            cd "$libdisni"
            touch NEWS README AUTHORS ChangeLog COPYING
            autoreconf --install >"$work/autoreconf.log" 2>&1 || { cat "$work/autoreconf.log" >&2; exit 1; }
            # some revisions of configure.ac insist on --with-spdk and store its value in the jdk variable, so give
            # both the JDK; DiSNI 2.1 has no SPDK part
            ./configure --with-jdk="$java_home" --with-spdk="$java_home" --prefix="$work/install" \
                >"$work/configure.log" 2>&1 || { tail -n 30 "$work/configure.log" >&2; exit 1; }
            make -j"$(nproc 2>/dev/null || echo 2)" >"$work/make.log" 2>&1 || { tail -n 40 "$work/make.log" >&2; exit 1; }
            make install >"$work/install.log" 2>&1 || { tail -n 20 "$work/install.log" >&2; exit 1; }
        ) || die "build failed (logs above)"
    fi
    built=$(ls "$work"/install/lib/libdisni.so.*.*.* 2>/dev/null | head -n1 || true)
    [ -n "$built" ] || built=$(ls "$work"/install/lib/libdisni.so* 2>/dev/null | head -n1 || true)
    [ -n "$built" ] || die "the build produced no libdisni.so under $work/install/lib"

    mkdir -p "$dest" || die "cannot create $dest (run as root, or pass --dest DIR and then -Djava.library.path=DIR)"
    install -m 0755 "$built" "$dest/libdisni.so" || die "cannot write $dest (run as root, or pass --dest DIR)"
    echo "build-libdisni: installed $dest/libdisni.so"
fi

# the check: load it the way DiSNI does and let DiSNI's own constructor compare JNI version and struct sizes
cat >"$work/CheckDisni.java" <<'JAVA'
public class CheckDisni
{
    public static void main(final String[] args) throws Exception
    {
        final int version = com.ibm.disni.verbs.RdmaProvider.provider().getVersion();
        System.out.println(version);
        System.exit(version == Integer.parseInt(args[0]) ? 0 : 3);
    }
}
JAVA
classpath="$jar${slf4j:+:$slf4j}"
if version=$(java -Dorg.slf4j.simpleLogger.defaultLogLevel=off -Djava.library.path="$dest" -cp "$classpath" \
        "$work/CheckDisni.java" "$EXPECTED_JNI_VERSION" 2>"$work/check.err" | tail -n1); then
    echo "build-libdisni: OK: libdisni in $dest loads and reports JNI version $version, as DiSNI $DISNI_VERSION requires"
else
    cat "$work/check.err" >&2
    die "libdisni in $dest is not usable by DiSNI $DISNI_VERSION (JNI version ${version:-unknown}, expected $EXPECTED_JNI_VERSION)"
fi
case ":$(printf '%s:' $library_path)" in
    *":$dest:"*) ;;
    *) echo "build-libdisni: $dest is not on the JVM's java.library.path: start nodes with -Djava.library.path=$dest" ;;
esac
