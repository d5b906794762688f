#!/usr/bin/env bash
# Regenerates tests/unit/decode_vectors.h: decoder test vectors whose ENCODINGS
# come from the GNU cross assembler (the independent oracle) and whose
# expected FIELDS come from the values this script chose when it wrote the
# assembly source.  Run by hand at development time; the build never runs it:
#
#   tests/unit/gen_decode_vectors.sh > tests/unit/decode_vectors.h
#
# Each vector line (internal) is:  asm | op | cform | rd | rs1 | rs2 | rs3 | imm | rm | objdump-mnemonic
#   op      expected base operation (mnemonic with dots)
#   cform   compressed mnemonic ("-" for 32-bit instructions)
#   rd...   expected rv_insn fields, "-" = not checked (field unused by the format)
#           an integer destination x0 is expected as 32 (RV_X_SINK)
#   rm      rounding mode, or aq/rl bits (aq = 2, rl = 1) for atomics
#   objdump-mnemonic  what `objdump -M no-aliases` must print ("" = first word of asm)
set -euo pipefail

AS=${RVAS:-riscv64-linux-gnu-as}
OBJDUMP=${RVOBJDUMP:-riscv64-linux-gnu-objdump}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

emit() { # asm op cform rd rs1 rs2 rs3 imm rm [objmn]
    printf '%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10:-}"
}
xd() { if [ "$1" = 0 ]; then echo 32; else echo "$1"; fi; } # integer destination
rel() { if [ "$1" -lt 0 ]; then echo ".$1"; else echo ".+$1"; fi; }
sext32() { local v=$(( $1 & 0xffffffff )); if [ $v -ge $((1 << 31)) ]; then v=$(( v - (1 << 32) )); fi; echo $v; }
sext18() { local v=$(( $1 & 0x3ffff )); if [ $v -ge $((1 << 17)) ]; then v=$(( v - (1 << 18) )); fi; echo $v; }

RMS="rne:0 rtz:1 rdn:2 rup:3 rmm:4 dyn:7"
AQRL=":0 .aq:2 .rl:1 .aqrl:3"

gen() {
    local op t rd rs1 rs2 rs3 imm name num sfx rmv i v
    # ------------------------------------------------------------ RV64I
    for op in add sub sll slt sltu xor srl sra or and addw subw sllw srlw sraw \
              mul mulh mulhsu mulhu div divu rem remu mulw divw divuw remw remuw; do
        for t in "10 11 12" "0 31 17" "31 0 0" "5 30 29"; do
            set -- $t
            emit "$op x$1, x$2, x$3" "$op" - "$(xd $1)" "$2" "$3" - - -
        done
    done
    for op in addi slti sltiu xori ori andi addiw; do
        for t in "10 11 -2048" "0 31 2047" "31 0 -1" "5 6 0" "1 2 1"; do
            set -- $t
            emit "$op x$1, x$2, $3" "$op" - "$(xd $1)" "$2" - - "$3" -
        done
    done
    for t in "1 5 -2048" "0 1 0" "5 5 2047" "31 0 -1"; do
        set -- $t
        emit "jalr x$1, $3(x$2)" jalr - "$(xd $1)" "$2" - - "$3" -
    done
    for op in slli srli srai; do
        for t in "10 11 0" "0 31 63" "31 1 32" "5 5 1"; do
            set -- $t
            emit "$op x$1, x$2, $3" "$op" - "$(xd $1)" "$2" - - "$3" -
        done
    done
    for op in slliw srliw sraiw; do
        for t in "10 11 0" "0 31 31" "31 1 16" "5 5 1"; do
            set -- $t
            emit "$op x$1, x$2, $3" "$op" - "$(xd $1)" "$2" - - "$3" -
        done
    done
    for op in lb lh lw ld lbu lhu lwu; do
        for t in "10 11 -2048" "0 31 2047" "31 0 0" "5 2 -1"; do
            set -- $t
            emit "$op x$1, $3(x$2)" "$op" - "$(xd $1)" "$2" - - "$3" -
        done
    done
    for op in sb sh sw sd; do
        for t in "10 11 -2048" "0 31 2047" "31 0 0" "5 2 -1"; do # rs2 rs1 imm
            set -- $t
            emit "$op x$1, $3(x$2)" "$op" - - "$2" "$1" - "$3" -
        done
    done
    for op in beq bne blt bge bltu bgeu; do
        for t in "10 11 -4096" "0 31 4094" "31 0 2" "5 6 -2" "1 1 0"; do
            set -- $t
            emit "$op x$1, x$2, $(rel $3)" "$op" - - "$1" "$2" - "$3" -
        done
    done
    for t in "1 0" "0 -1048576" "5 1048574" "31 -2" "10 2"; do
        set -- $t
        emit "jal x$1, $(rel $2)" jal - "$(xd $1)" - - - "$2" -
    done
    for op in lui auipc; do
        for t in "10 0" "0 0xfffff" "31 0x80000" "5 0x7ffff" "1 1"; do
            set -- $t
            emit "$op x$1, $2" "$op" - "$(xd $1)" - - - "$(sext32 $(( $2 << 12 )))" -
        done
    done
    emit "fence" fence - - - - - - -
    emit "fence rw, w" fence - - - - - - -
    emit "fence r, r" fence - - - - - - -
    emit "fence.tso" fence - - - - - - -
    emit "ecall" ecall - - - - - - -
    emit "ebreak" ebreak - - - - - - -
    emit "fence.i" fence.i - - - - - - -
    # ------------------------------------------------------------ Zicsr
    i=0
    for name in fflags:1 frm:2 fcsr:3 cycle:3072 time:3073 instret:3074 0x000:0 0x7c0:1984 0xfff:4095; do
        num=${name#*:}; name=${name%%:*}
        for op in csrrw csrrs csrrc; do
            rd=$(( (i * 7) % 32 )); rs1=$(( (i * 11 + 3) % 32 ))
            emit "$op x$rd, $name, x$rs1" "$op" - "$(xd $rd)" "$rs1" - - "$num" -
            i=$((i + 1))
        done
        for op in csrrwi csrrsi csrrci; do
            rd=$(( (i * 7) % 32 )); v=$(( (i * 13) % 32 ))
            emit "$op x$rd, $name, $v" "$op" - "$(xd $rd)" "$v" - - "$num" -
            i=$((i + 1))
        done
    done
    for op in csrrwi csrrsi; do
        emit "$op x10, fcsr, 31" "$op" - 10 31 - - 3 -
        emit "$op x0, frm, 0" "$op" - 32 0 - - 2 -
    done
    # ------------------------------------------------------------ A
    i=0
    for op in lr.w lr.d; do
        for sfx in $AQRL; do
            rmv=${sfx#*:}; sfx=${sfx%%:*}
            rd=$(( (i * 9) % 32 )); rs1=$(( (i * 5 + 1) % 32 ))
            emit "$op$sfx x$rd, (x$rs1)" "$op" - "$(xd $rd)" "$rs1" - - - "$rmv"
            i=$((i + 1))
        done
    done
    for op in sc.w amoswap.w amoadd.w amoxor.w amoand.w amoor.w amomin.w amomax.w amominu.w amomaxu.w \
              sc.d amoswap.d amoadd.d amoxor.d amoand.d amoor.d amomin.d amomax.d amominu.d amomaxu.d; do
        for sfx in $AQRL; do
            rmv=${sfx#*:}; sfx=${sfx%%:*}
            rd=$(( (i * 9) % 32 )); rs1=$(( (i * 5 + 1) % 32 )); rs2=$(( (i * 3 + 2) % 32 ))
            emit "$op$sfx x$rd, x$rs2, (x$rs1)" "$op" - "$(xd $rd)" "$rs1" "$rs2" - - "$rmv"
            i=$((i + 1))
        done
    done
    # ------------------------------------------------------------ F and D
    for op in flw fld; do
        for t in "10 11 -2048" "0 31 2047" "31 0 0" "5 2 -1"; do
            set -- $t
            emit "$op f$1, $3(x$2)" "$op" - "$1" "$2" - - "$3" -
        done
    done
    for op in fsw fsd; do
        for t in "10 11 -2048" "0 31 2047" "31 0 0" "5 2 -1"; do # rs2 rs1 imm
            set -- $t
            emit "$op f$1, $3(x$2)" "$op" - - "$2" "$1" - "$3" -
        done
    done
    i=0
    for op in fmadd.s fmsub.s fnmsub.s fnmadd.s fmadd.d fmsub.d fnmsub.d fnmadd.d; do
        for name in $RMS; do
            rmv=${name#*:}; name=${name%%:*}
            rd=$(( i % 32 )); rs1=$(( (i * 3 + 1) % 32 )); rs2=$(( (i * 5 + 2) % 32 )); rs3=$(( (i * 7 + 3) % 32 ))
            emit "$op f$rd, f$rs1, f$rs2, f$rs3, $name" "$op" - "$rd" "$rs1" "$rs2" "$rs3" - "$rmv"
            i=$((i + 1))
        done
        emit "$op f31, f0, f31, f0" "$op" - 31 0 31 0 - 7
    done
    for op in fadd.s fsub.s fmul.s fdiv.s fadd.d fsub.d fmul.d fdiv.d; do
        for name in $RMS; do
            rmv=${name#*:}; name=${name%%:*}
            rd=$(( i % 32 )); rs1=$(( (i * 3 + 1) % 32 )); rs2=$(( (i * 5 + 2) % 32 ))
            emit "$op f$rd, f$rs1, f$rs2, $name" "$op" - "$rd" "$rs1" "$rs2" - - "$rmv"
            i=$((i + 1))
        done
        emit "$op f0, f31, f0" "$op" - 0 31 0 - - 7
    done
    for op in fsqrt.s fsqrt.d fcvt.s.d; do
        for name in $RMS; do
            rmv=${name#*:}; name=${name%%:*}
            rd=$(( i % 32 )); rs1=$(( (i * 3 + 1) % 32 ))
            emit "$op f$rd, f$rs1, $name" "$op" - "$rd" "$rs1" - - - "$rmv"
            i=$((i + 1))
        done
    done
    # exact conversion: binutils 2.40 takes no rounding mode and encodes rm = 0
    emit "fcvt.d.s f1, f30" fcvt.d.s - 1 30 - - - 0
    emit "fcvt.d.s f31, f0" fcvt.d.s - 31 0 - - - 0
    for op in fsgnj.s fsgnjn.s fsgnjx.s fmin.s fmax.s fsgnj.d fsgnjn.d fsgnjx.d fmin.d fmax.d; do
        for t in "1 2 3" "0 31 0" "31 0 31" "10 10 10"; do
            set -- $t
            emit "$op f$1, f$2, f$3" "$op" - "$1" "$2" "$3" - - -
        done
    done
    for op in fcvt.w.s fcvt.wu.s fcvt.l.s fcvt.lu.s fcvt.w.d fcvt.wu.d fcvt.l.d fcvt.lu.d; do
        for name in $RMS; do
            rmv=${name#*:}; name=${name%%:*}
            rd=$(( i % 32 )); rs1=$(( (i * 3 + 1) % 32 ))
            emit "$op x$rd, f$rs1, $name" "$op" - "$(xd $rd)" "$rs1" - - - "$rmv"
            i=$((i + 1))
        done
        emit "$op x0, f31" "$op" - 32 31 - - - 7
    done
    for op in fmv.x.w fclass.s fmv.x.d fclass.d; do
        for t in "10 11" "0 31" "31 0"; do
            set -- $t
            emit "$op x$1, f$2" "$op" - "$(xd $1)" "$2" - - - -
        done
    done
    for op in feq.s flt.s fle.s feq.d flt.d fle.d; do
        for t in "10 11 12" "0 31 0" "31 0 31"; do
            set -- $t
            emit "$op x$1, f$2, f$3" "$op" - "$(xd $1)" "$2" "$3" - - -
        done
    done
    for op in fcvt.s.w fcvt.s.wu fcvt.s.l fcvt.s.lu fcvt.d.l fcvt.d.lu; do
        for name in $RMS; do
            rmv=${name#*:}; name=${name%%:*}
            rd=$(( i % 32 )); rs1=$(( (i * 3 + 1) % 32 ))
            emit "$op f$rd, x$rs1, $name" "$op" - "$rd" "$rs1" - - - "$rmv"
            i=$((i + 1))
        done
    done
    for op in fcvt.d.w fcvt.d.wu; do # exact: no rounding mode, rm = 0
        emit "$op f1, x2" "$op" - 1 2 - - - 0
        emit "$op f31, x0" "$op" - 31 0 - - - 0
    done
    for op in fmv.w.x fmv.d.x; do
        for t in "10 11" "0 31" "31 0"; do
            set -- $t
            emit "$op f$1, x$2" "$op" - "$1" "$2" - - - -
        done
    done
    # ------------------------------------------------------------ RVC
    for t in "8 4" "15 1020" "10 512" "9 8" "12 16"; do
        set -- $t
        emit "c.addi4spn x$1, x2, $2" addi c.addi4spn "$1" 2 - - "$2" -
    done
    for t in "8 9 0" "15 8 248" "10 11 8" "9 14 128"; do
        set -- $t
        emit "c.fld f$1, $3(x$2)" fld c.fld "$1" "$2" - - "$3" -
        emit "c.ld x$1, $3(x$2)" ld c.ld "$1" "$2" - - "$3" -
        emit "c.fsd f$1, $3(x$2)" fsd c.fsd - "$2" "$1" - "$3" -
        emit "c.sd x$1, $3(x$2)" sd c.sd - "$2" "$1" - "$3" -
    done
    for t in "8 9 0" "15 8 124" "10 11 4" "9 14 64"; do
        set -- $t
        emit "c.lw x$1, $3(x$2)" lw c.lw "$1" "$2" - - "$3" -
        emit "c.sw x$1, $3(x$2)" sw c.sw - "$2" "$1" - "$3" -
    done
    for t in "5 -32" "31 31" "1 1" "10 -1"; do
        set -- $t
        emit "c.addi x$1, $2" addi c.addi "$1" "$1" - - "$2" -
        emit "c.addiw x$1, $2" addiw c.addiw "$1" "$1" - - "$2" -
        emit "c.li x$1, $2" addi c.li "$1" 0 - - "$2" -
    done
    emit "c.addiw x31, 0" addiw c.addiw 31 31 - - 0 -
    emit "c.li x7, 0" addi c.li 7 0 - - 0 -
    # HINT forms the assembler accepts (they execute as the base instruction)
    emit "c.nop" addi c.addi 32 0 - - 0 - c.addi
    emit "c.addi x0, 5" addi c.addi 32 0 - - 5 -
    emit "c.addi x5, 0" addi c.addi 5 5 - - 0 -
    emit "c.li x0, 3" addi c.li 32 0 - - 3 -
    emit "c.lui x0, 1" lui c.lui 32 - - - 4096 -
    emit "c.mv x0, x5" add c.mv 32 0 5 - - -
    emit "c.add x0, x5" add c.add 32 0 5 - - -
    emit "c.slli x0, 3" slli c.slli 32 0 - - 3 -
    for v in -512 496 16 -16 256; do
        emit "c.addi16sp x2, $v" addi c.addi16sp 2 2 - - "$v" -
    done
    for t in "5 1" "31 0x1f" "1 0xfffff" "10 0xfffe0" "3 0x10"; do
        set -- $t
        emit "c.lui x$1, $2" lui c.lui "$1" - - - "$(sext18 $(( $2 << 12 )))" -
    done
    for op in srli srai; do
        for t in "8 1" "15 63" "10 32" "9 31"; do
            set -- $t
            emit "c.$op x$1, $2" "$op" "c.$op" "$1" "$1" - - "$2" -
        done
    done
    for t in "8 -32" "15 31" "10 0" "9 -1"; do
        set -- $t
        emit "c.andi x$1, $2" andi c.andi "$1" "$1" - - "$2" -
    done
    for op in sub xor or and subw addw; do
        for t in "8 15" "15 8" "10 10" "9 12"; do
            set -- $t
            emit "c.$op x$1, x$2" "$op" "c.$op" "$1" "$1" "$2" - - -
        done
    done
    for v in -2048 2046 2 -2 0; do
        emit "c.j $(rel $v)" jal c.j 32 - - - "$v" -
    done
    for op in beqz:beq bnez:bne; do
        for t in "8 -256" "15 254" "10 2" "9 -2"; do
            set -- $t
            emit "c.${op%%:*} x$1, $(rel $2)" "${op#*:}" "c.${op%%:*}" - "$1" 0 - "$2" -
        done
    done
    for t in "5 1" "31 63" "1 32" "10 5"; do
        set -- $t
        emit "c.slli x$1, $2" slli c.slli "$1" "$1" - - "$2" -
    done
    for t in "0 0" "31 504" "8 8" "15 256"; do
        set -- $t
        emit "c.fldsp f$1, $2(x2)" fld c.fldsp "$1" 2 - - "$2" -
        emit "c.fsdsp f$1, $2(x2)" fsd c.fsdsp - 2 "$1" - "$2" -
        emit "c.sdsp x$1, $2(x2)" sd c.sdsp - 2 "$1" - "$2" -
    done
    for t in "1 0" "31 504" "8 8" "15 256"; do
        set -- $t
        emit "c.ldsp x$1, $2(x2)" ld c.ldsp "$1" 2 - - "$2" -
    done
    for t in "1 0" "31 252" "8 4" "15 128"; do
        set -- $t
        emit "c.lwsp x$1, $2(x2)" lw c.lwsp "$1" 2 - - "$2" -
    done
    for t in "0 0" "31 252" "8 4" "15 128"; do
        set -- $t
        emit "c.swsp x$1, $2(x2)" sw c.swsp - 2 "$1" - "$2" -
    done
    for r in 1 5 31; do
        emit "c.jr x$r" jalr c.jr 32 "$r" - - 0 -
        emit "c.jalr x$r" jalr c.jalr 1 "$r" - - 0 -
    done
    for t in "5 6" "31 1" "1 31" "10 10"; do
        set -- $t
        emit "c.mv x$1, x$2" add c.mv "$1" 0 "$2" - - -
        emit "c.add x$1, x$2" add c.add "$1" "$1" "$2" - - -
    done
    emit "c.ebreak" ebreak c.ebreak - - - - - -
}

gen > "$tmp/vec.txt"

# Assembly source: one instruction per vector, compressed ones under .option rvc.
awk -F'|' 'BEGIN { print ".option norelax"; mode = "" }
    { want = ($3 == "-") ? "norvc" : "rvc"; if (want != mode) { print ".option " want; mode = want }
      print $1 }' "$tmp/vec.txt" > "$tmp/v.s"
"$AS" -march=rv64gc -o "$tmp/v.o" "$tmp/v.s"
"$OBJDUMP" -d -M no-aliases "$tmp/v.o" |
    awk -F'\t' '/^ +[0-9a-f]+:\t/ { gsub(/ /, "", $2); print $2 "|" $3 }' > "$tmp/enc.txt"

n=$(wc -l < "$tmp/vec.txt"); m=$(wc -l < "$tmp/enc.txt")
if [ "$n" != "$m" ]; then
    echo "gen_decode_vectors: $n vectors but objdump shows $m instructions" >&2
    exit 1
fi

cat <<'EOF'
/* Generated by tests/unit/gen_decode_vectors.sh from the GNU assembler
 * (binutils riscv64-linux-gnu-as, -march=rv64gc): do not edit.
 * bits/len come from the assembler; the expected fields are the values the
 * generator wrote in the assembly source.  DC = not checked. */
#ifndef DECODE_VECTORS_H
#define DECODE_VECTORS_H

#include <stdbool.h>
#include <stdint.h>

#define DC (-1)

typedef struct decode_vector {
    const char *text;  /* the assembly source */
    uint32_t bits;
    uint8_t len;
    const char *op;    /* expected base operation */
    const char *cform; /* expected compressed mnemonic, NULL for 32-bit */
    int rd, rs1, rs2, rs3;
    bool check_imm;
    int64_t imm;
    int rm;
} decode_vector;

static const decode_vector decode_vectors[] = {
EOF
paste -d'|' "$tmp/vec.txt" "$tmp/enc.txt" | awk -F'|' '
    function f(v) { return v == "-" ? "DC" : v }
    {
        asm = $1; op = $2; cf = $3; objmn = $10; hex = $11; dis = $12
        split(asm, w, " "); want = (objmn != "") ? objmn : w[1]
        if (dis != want) { printf "mnemonic mismatch: %s -> objdump %s\n", asm, dis > "/dev/stderr"; bad = 1 }
        len = length(hex) / 2
        if ((cf == "-") != (len == 4)) { printf "length mismatch: %s -> %s\n", asm, hex > "/dev/stderr"; bad = 1 }
        imm = ($8 == "-") ? "false, 0" : ("true, " ($8 == "-2147483648" ? "INT32_MIN" : $8))
        printf "    {\"%s\", 0x%s, %d, \"%s\", %s, %s, %s, %s, %s, %s, %s},\n", asm, hex, len, op,
               cf == "-" ? "NULL" : "\"" cf "\"", f($4), f($5), f($6), f($7), imm, f($9)
    }
    END { exit bad }'
cat <<'EOF'
};

/* Every 16-bit encoding (low bits != 11) that objdump -M no-aliases does not
 * disassemble as a compressed instruction (it prints .2byte, or c.unimp for 0). */
static const uint16_t rvc_illegal_by_objdump[] = {
EOF
awk 'BEGIN { print ".option rvc"; for (h = 0; h < 65536; h++) if (h % 4 != 3) printf ".insn 0x%04x\n", h }' \
    > "$tmp/all16.s"
"$AS" -march=rv64gc -o "$tmp/all16.o" "$tmp/all16.s"
"$OBJDUMP" -z -d -M no-aliases "$tmp/all16.o" |
    awk -F'\t' '/^ +[0-9a-f]+:\t/ {
            gsub(/ /, "", $2); n++
            if ($3 == ".2byte" || $3 == "c.unimp") printf "%s0x%s,", (k++ % 10 ? " " : "\n    "), $2
        }
        END { printf "\n"; if (n != 49152) { print "expected 49152 halfwords, got " n > "/dev/stderr"; exit 1 } }'
cat <<'EOF'
};

/* Pseudo-random 32-bit words (40% any bits under an RV64GC-or-reserved major
 * opcode, 60% an insns.def match pattern with random free bits and sometimes
 * a flipped fixed bit) and what objdump -M no-aliases makes of them: the base
 * mnemonic (".aq/.rl" suffixes dropped, fence.tso/pause read as fence), or
 * NULL when it does not know the word.  Three corrections from the spec where
 * binutils 2.40 is stricter or looser than the ISA:
 *  - a reserved rounding mode (objdump prints "unknown") is illegal;
 *  - FENCE and FENCE.I with nonzero reserved fields (rd, rs1, imm/fm) are still
 *    FENCE and FENCE.I ("base implementations shall ignore these fields");
 *  - fcvt.d.w, fcvt.d.wu and fcvt.d.s with a valid rm other than RNE are legal
 *    ("implementations must treat the rm field as usual"). */
typedef struct random_word {
    uint32_t bits;
    const char *op;
} random_word;

static const random_word random_words[] = {
EOF
awk -v seed=20261121 -v want=3000 '
    function hexval(s,   i, v) { s = tolower(s); sub(/^ *0x/, "", s); v = 0
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v }
    function bit(v, b) { return int(v / 2 ^ b) % 2 }
    BEGIN { n = 0 }
    /^RV_INSN\(/ { split($0, f, /[(,)]/); mt[n] = hexval(f[3]); mk[n] = hexval(f[4]); n++ }
    END {
        srand(seed)
        split("0 1 3 4 5 6 8 9 11 12 13 14 16 17 18 19 20 24 25 27 28 2 7 10 15 21 22 26 29 30", opc, " ")
        while (count < want) {
            if (rand() < 0.4) {
                w = 3 + 4 * opc[1 + int(rand() * 30)] + 128 * int(rand() * 2 ^ 25)
            } else {
                k = int(rand() * n); w = 0
                for (b = 0; b < 32; b++)
                    if (bit(mk[k], b)) w += bit(mt[k], b) * 2 ^ b
                    else if (rand() < 0.5) w += 2 ^ b
                if (rand() < 0.3) {
                    b = 7 + int(rand() * 25)
                    if (bit(mk[k], b)) w += bit(w, b) ? -(2 ^ b) : 2 ^ b
                }
            }
            if (w % 32 == 31) continue
            key = sprintf("%08x", w)
            if (seen[key]++) continue
            print key; count++
        }
    }' "$(dirname "$0")/../../lib/isa/insns.def" > "$tmp/r32.txt"
awk 'BEGIN { print ".option norvc" } { print ".insn 0x" $1 }' "$tmp/r32.txt" > "$tmp/r32.s"
"$AS" -march=rv64gc -o "$tmp/r32.o" "$tmp/r32.s"
"$OBJDUMP" -z -d -M no-aliases "$tmp/r32.o" |
    awk -F'\t' '
        function hexval(s,   i, v) { v = 0
            for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v }
        /^ +[0-9a-f]+:\t/ {
            gsub(/ /, "", $2); w = hexval($2); m = $3; n++
            rm = int(w / 4096) % 8; opcode = w % 128
            cvt = opcode + int(w / 2 ^ 20) * 2 ^ 20
            legal = !(m ~ /^\./ || m == "unimp")
            if (legal && $4 ~ /unknown/) legal = 0
            if (!legal && opcode == 15 && rm == 0) { legal = 1; m = "fence" }
            if (!legal && opcode == 15 && rm == 1) { legal = 1; m = "fence.i" }
            if (!legal && rm != 5 && rm != 6) {
                if (cvt == 3523215443) { legal = 1; m = "fcvt.d.w" }       # 0xd2000053
                else if (cvt == 3524264019) { legal = 1; m = "fcvt.d.wu" } # 0xd2100053
                else if (cvt == 1107296339) { legal = 1; m = "fcvt.d.s" }  # 0x42000053
            }
            sub(/\.(aqrl|aq|rl)$/, "", m)
            if (m == "fence.tso" || m == "pause") m = "fence"
            printf "    {0x%s, %s},\n", $2, legal ? "\"" m "\"" : "NULL"
        }
        END { if (n != 3000) { print "expected 3000 words, got " n > "/dev/stderr"; exit 1 } }'
cat <<'EOF'
};

#endif
EOF
