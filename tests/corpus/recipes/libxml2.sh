# xmllint from libxml2: XML parsing, DTD validation and XPath.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=libxml2
PROGRAMS=xmllint
SET=eval
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking --disable-shared --without-python \
        --without-zlib --without-lzma --without-http --without-ftp --without-threads
    make -j2 xmllint LDFLAGS=-all-static
    cp xmllint "$OUT/xmllint"
}
