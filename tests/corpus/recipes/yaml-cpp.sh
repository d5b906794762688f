# yaml-cpp's parse utility (C++: iostreams, exceptions for malformed input):
# reads YAML from a file or stdin and writes it back out.
SRCPKG=yaml-cpp
PROGRAMS=yaml-parse
build() {
    local f
    for f in src/*.cpp src/contrib/*.cpp util/parse.cpp; do
        echo "$CXX $CXXFLAGS -std=c++11 -Iinclude -c $f -o ${f//\//_}.o"
    done | xargs -P 2 -I{} sh -c '{}'
    $CXX $LDFLAGS -o "$OUT/yaml-parse" *.cpp.o
}
