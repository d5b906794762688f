#include "sfb.h"

static bool shadowable(const rv_insn *in)
{
    switch ((enum rv_op)in->op) {
    case RV_OP_lui: case RV_OP_addi: case RV_OP_andi: case RV_OP_ori: case RV_OP_xori: case RV_OP_slti:
    case RV_OP_sltiu: case RV_OP_slli: case RV_OP_srli: case RV_OP_srai: case RV_OP_addiw: case RV_OP_slliw:
    case RV_OP_sraiw: case RV_OP_srliw:
        return true;
    case RV_OP_add:
        if (in->rs1 == 0) return true; /* a move */
        /* fall through */
    case RV_OP_sub: case RV_OP_sll: case RV_OP_slt: case RV_OP_sltu: case RV_OP_and: case RV_OP_or:
    case RV_OP_xor: case RV_OP_sra: case RV_OP_srl: case RV_OP_addw: case RV_OP_subw: case RV_OP_sllw:
    case RV_OP_sraw: case RV_OP_srlw:
        /* predicated, it reads its old rd: only two register reads */
        return in->rs1 == in->rd;
    default:
        return false;
    }
}

bool sfb_recodable(const rv_mem *m, const rv_insn *br, unsigned packet_bytes, unsigned line_bytes, sfb_shadow *s)
{
    if (br->imm <= 0 || (uint64_t)br->imm >= line_bytes) return false;
    uint64_t target = br->pc + (uint64_t)br->imm;
    if ((br->pc & (packet_bytes - 1)) + (uint64_t)br->imm > 2u * packet_bytes) return false;
    *s = (sfb_shadow){0};
    for (uint64_t pc = br->pc + br->len; pc < target;) {
        uint16_t parcel[2] = {0, 0};
        if (!mem_ok_small(m, pc, 2, GP_X) || !mem_read(m, &parcel[0], pc, 2)) return false;
        unsigned len = rv_insn_length(parcel[0]);
        if (len == 4 && (!mem_ok_small(m, pc + 2, 2, GP_X) || !mem_read(m, &parcel[1], pc + 2, 2))) return false;
        rv_insn in;
        rv_decode(&in, pc, parcel[0], parcel[1]);
        if (!shadowable(&in)) return false;
        if (in.rd) s->rds |= 1u << in.rd;
        s->count++;
        pc += len;
    }
    return true;
}
