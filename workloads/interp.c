/* interp: a branchy stack-machine bytecode interpreter.
 *
 * A tiny assembler turns text programs (labels "name:", one opcode and at
 * most one argument per instruction) into bytecode; a switch-dispatch
 * loop runs it.  Four programs, each with its own dynamic mix of opcodes
 * and branch behaviour:
 *     COLLATZ  total Collatz steps for 1..K       (data-dependent branches)
 *     SIEVE    Eratosthenes sieve, count primes   (indirect loads/stores)
 *     FIBGCD   Fibonacci mod p and Euclid's gcd   (mul/mod heavy)
 *     BUBBLE   bubble sort of an array in VM memory
 * Cycle (per unit of SIZE): COLLATZ SIEVE FIBGCD BUBBLE SIEVE COLLATZ.
 *
 * Size (retired instructions, measured with bbv --count-only): 19.0 M at
 * SIZE=1 (the test size); 0.62 M + 18.4 M per unit of SIZE, so
 * SIZE=100 is about 1.8 G.
 */
#include "common.h"
#include <string.h>

enum op { PUSH, LOAD, STORE, LOADI, STOREI, ADD, SUB, MUL, DIV, MOD, AND, LT, GT, EQ,
          DUP, DROP, JMP, JZ, JNZ, INC, ADDI, JLT, LOADX, STOREX, CMPSWP, HALT, NOPS };
static const char *op_names[NOPS] = {"push", "load", "store", "loadi", "storei", "add", "sub",
                                     "mul", "div", "mod", "and", "lt", "gt", "eq", "dup",
                                     "drop", "jmp", "jz", "jnz", "inc", "addi", "jlt", "loadx",
                                     "storex", "cmpswp", "halt"};
/* Besides the usual stack operations (binary ops pop b, then a, push a op b):
 *   inc A     mem[A] += 1             addi N    top += N
 *   jlt L     pop b, pop a; jump to L if a < b
 *   loadx B   top = mem[B + top]      storex B  pop v, pop i; mem[B + i] = v
 *   cmpswp B  pop i; if mem[B+i] > mem[B+i+1], swap them (a superinstruction)
 * Each program leans on a different subset, so their basic-block vectors
 * differ (collatz: mul/div/and/eq; sieve: loadx/storex/dup; fibgcd: mod and
 * load/store; bubble: cmpswp/inc/jlt). */
static const int op_has_arg[NOPS] = {[PUSH] = 1, [LOAD] = 1, [STORE] = 1, [JMP] = 1,
                                     [JZ] = 1, [JNZ] = 1, [INC] = 1, [ADDI] = 1, [JLT] = 1,
                                     [LOADX] = 1, [STOREX] = 1, [CMPSWP] = 1};

#define MEM_WORDS 16384
#define CODE_MAX 512
#define ARR 100          /* arrays in VM memory start here */

struct prog {
    const char *name;
    const char *src;
    int64_t code[CODE_MAX];
    int len;
};

/* mem[3] is the parameter, mem[2] the result, by convention. */
static struct prog progs[] = {
    {.name = "collatz",
     .src =
     "      push 1 store 0 push 0 store 2\n"
     "outer: load 0 store 1\n"
     "inner: load 1 push 1 eq jnz next\n"
     "      load 1 push 1 and jz even\n"
     "      load 1 push 3 mul addi 1 store 1 jmp count\n"
     "even: load 1 push 2 div store 1\n"
     "count: inc 2 jmp inner\n"
     "next: inc 0 load 0 load 3 jlt outer\n"
     "      halt\n"},
    {.name = "sieve",
     .src =
     "      push 2 store 0\n"
     "outer: load 0 dup mul load 3 lt jz done\n"
     "      load 0 loadx 100 jnz nexti\n"
     "      load 0 dup mul store 1\n"
     "mark: load 1 push 1 storex 100\n"
     "      load 1 load 0 add dup store 1 load 3 jlt mark\n"
     "nexti: inc 0 jmp outer\n"
     "done: push 2 store 0 push 0 store 2\n"
     "cnt:  load 0 loadx 100 jnz skip\n"
     "      inc 2\n"
     "skip: inc 0 load 0 load 3 jlt cnt\n"
     "      halt\n"},
    {.name = "fibgcd",
     .src =
     "      push 0 store 4 push 1 store 5 push 0 store 0 push 0 store 2\n"
     "loop: load 4 load 5 add push 1000003 mod\n"
     "      load 5 store 4 store 5\n"
     "      load 5 store 6 load 0 push 1 add store 7\n"
     "g:    load 7 jz gdone\n"
     "      load 6 load 7 mod load 7 store 6 store 7 jmp g\n"
     "gdone: load 2 load 6 add store 2\n"
     "      load 0 push 1 add dup store 0 load 3 lt jnz loop\n"
     "      halt\n"},
    {.name = "bubble",
     .src =
     "      load 3 addi -1 store 0\n"
     "outer: push 0 store 1\n"
     "inner: load 1 cmpswp 100\n"
     "      inc 1 load 1 load 0 jlt inner\n"
     "      load 0 addi -1 dup store 0 push 0 gt jnz outer\n"
     "      halt\n"},
};

static void die(const char *prog, const char *msg, const char *tok)
{
    fprintf(stderr, "assembler: %s: %s '%s'\n", prog, msg, tok);
    exit(1);
}

/* Two passes: the first records label addresses, the second emits code. */
static void assemble(struct prog *p)
{
    char labels[32][16];
    int label_pc[32], nlabels = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char *s = p->src;
        int pc = 0, expect_arg = 0;
        char tok[32];
        int n;
        while (sscanf(s, "%31s%n", tok, &n) == 1) {
            s += n;
            size_t len = strlen(tok);
            if (expect_arg) {
                int64_t v = 0;
                if (tok[0] == '-' || (tok[0] >= '0' && tok[0] <= '9'))
                    v = strtoll(tok, NULL, 10);
                else if (pass == 1) {
                    int i;
                    for (i = 0; i < nlabels && strcmp(labels[i], tok) != 0; i++)
                        ;
                    if (i == nlabels)
                        die(p->name, "unknown label", tok);
                    v = label_pc[i];
                }
                p->code[pc++] = v;
                expect_arg = 0;
            } else if (tok[len - 1] == ':') {
                if (pass == 0) {
                    tok[len - 1] = '\0';
                    snprintf(labels[nlabels], sizeof labels[0], "%s", tok);
                    label_pc[nlabels++] = pc;
                }
            } else {
                int op;
                for (op = 0; op < NOPS && strcmp(op_names[op], tok) != 0; op++)
                    ;
                if (op == NOPS)
                    die(p->name, "unknown opcode", tok);
                p->code[pc++] = op;
                expect_arg = op_has_arg[op];
            }
            if (pc >= CODE_MAX - 1)
                die(p->name, "program too long", tok);
        }
        p->len = pc;
    }
}

static int64_t mem[MEM_WORDS + 1];    /* +1: cmpswp may touch mem[MEM_WORDS] */

static uint64_t run(const struct prog *p)
{
    int64_t stack[64];          /* the programs need at most 4 */
    int sp = 0;
    const int64_t *code = p->code;
    int pc = 0;
    uint64_t steps = 0;
    for (;;) {
        int64_t a, b;
        steps++;
        switch ((enum op)code[pc++]) {
        case PUSH: stack[sp++] = code[pc++]; break;
        case LOAD: stack[sp++] = mem[code[pc++]]; break;
        case STORE: mem[code[pc++]] = stack[--sp]; break;
        case LOADI: stack[sp - 1] = mem[stack[sp - 1] & (MEM_WORDS - 1)]; break;
        case STOREI:
            b = stack[--sp];
            a = stack[--sp];
            mem[a & (MEM_WORDS - 1)] = b;
            break;
        case ADD: b = stack[--sp]; stack[sp - 1] += b; break;
        case SUB: b = stack[--sp]; stack[sp - 1] -= b; break;
        case MUL: b = stack[--sp]; stack[sp - 1] *= b; break;
        case DIV: b = stack[--sp]; stack[sp - 1] = b ? stack[sp - 1] / b : 0; break;
        case MOD: b = stack[--sp]; stack[sp - 1] = b ? stack[sp - 1] % b : 0; break;
        case AND: b = stack[--sp]; stack[sp - 1] &= b; break;
        case LT: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] < b; break;
        case GT: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] > b; break;
        case EQ: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] == b; break;
        case DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case DROP: sp--; break;
        case JMP: pc = (int)code[pc]; break;
        case JZ: pc = stack[--sp] == 0 ? (int)code[pc] : pc + 1; break;
        case JNZ: pc = stack[--sp] != 0 ? (int)code[pc] : pc + 1; break;
        case INC: mem[code[pc++]]++; break;
        case ADDI: stack[sp - 1] += code[pc++]; break;
        case JLT:
            b = stack[--sp];
            a = stack[--sp];
            pc = a < b ? (int)code[pc] : pc + 1;
            break;
        case LOADX: stack[sp - 1] = mem[(code[pc++] + stack[sp - 1]) & (MEM_WORDS - 1)]; break;
        case STOREX:
            b = stack[--sp];
            a = stack[--sp];
            mem[(code[pc++] + a) & (MEM_WORDS - 1)] = b;
            break;
        case CMPSWP:
            a = (code[pc++] + stack[--sp]) & (MEM_WORDS - 1);
            if (mem[a] > mem[a + 1]) {
                b = mem[a];
                mem[a] = mem[a + 1];
                mem[a + 1] = b;
            }
            break;
        case HALT:
            if (sp != 0) {
                fprintf(stderr, "%s: stack not empty at halt\n", p->name);
                exit(1);
            }
            return steps;
        default:
            fprintf(stderr, "bad opcode at %d\n", pc - 1);
            exit(1);
        }
    }
}

static uint64_t run_prog(int which, int64_t param, uint64_t *st)
{
    memset(mem, 0, sizeof mem);
    mem[3] = param;
    if (which == 3)                                  /* bubble: fill the array */
        for (int i = 0; i < param; i++)
            mem[ARR + i] = wl_rand(st) % 10000;
    uint64_t steps = run(&progs[which]);
    uint64_t sum = wl_mix(steps, (uint64_t)mem[2]);
    if (which == 3)
        for (int i = 0; i < param; i++) {
            if (i && mem[ARR + i - 1] > mem[ARR + i]) {
                printf("bubble: not sorted\n");
                exit(1);
            }
            sum = wl_mix(sum, (uint64_t)mem[ARR + i]);
        }
    return sum;
}

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    for (size_t i = 0; i < sizeof progs / sizeof *progs; i++)
        assemble(&progs[i]);
    uint64_t st = 5, c = 0, s = 0, f = 0, b = 0;
    for (long u = 0; u < size; u++) {
        int v = (int)(u % 7);                        /* vary the parameters */
        c = wl_mix(c, run_prog(0, 300 + v, &st));
        s = wl_mix(s, run_prog(1, 3000 + v, &st));
        f = wl_mix(f, run_prog(2, 1000 + v, &st));
        b = wl_mix(b, run_prog(3, 180 + v, &st));
        s = wl_mix(s, run_prog(1, 3000 - v, &st));
        c = wl_mix(c, run_prog(0, 300 - v, &st));
    }
    wl_print("collatz", c);
    wl_print("sieve", s);
    wl_print("fibgcd", f);
    wl_print("bubble", b);
    return 0;
}
