/* branch_penalty.S: the cost of a conditional-branch misprediction as the
 * detailed core sees it (bench/calib/calib.sh).
 *
 * Built twice from this file: with -DRANDOM=1 each branch's direction is a
 * fresh bit of a xorshift64 stream (about half of them mispredicted), with
 * -DRANDOM=0 it is a bit of a constant, so every static branch always goes
 * the same way (all predicted). Everything else is the same instructions, and
 * both directions execute two instructions, so the two programs retire the
 * same instruction count exactly and
 *     penalty = (cycles_random - cycles_predictable)
 *               / (mispredicts_random - mispredicts_predictable)
 * is the time one misprediction adds.
 *
 * The loop body keeps the branch cheap to resolve, so what is measured is
 * the branch-to-branch redirect latency and not a wait for its operand: no
 * memory access, and the bit tested comes from a one-cycle shift of a
 * register refilled once per 64 branches. Each branch's not-taken side
 * holds a jump, so it is not a short-forwards branch that SFB predication
 * could turn into a predicated instruction (it stays a real misprediction
 * with core.sfb=1).
 *
 * Fixed 4-byte instructions (no RVC), no libc: _start, then exit(0).
 * OUTER refills of 64 branches each, 8 + 64 x 5 + 2 = 330 instructions
 * per refill. */
#ifndef RANDOM
#error "build with -DRANDOM=1 (unpredictable) or -DRANDOM=0 (predictable)"
#endif
#ifndef OUTER
#define OUTER 16384
#endif

	.option norvc
	.text
	.globl	_start
_start:
	li	s0, OUTER
	li	s1, 0x9e3779b97f4a7c15	/* xorshift64 state: any nonzero seed */
	li	s6, 0x5555555555555555	/* the predictable variant's bits */
	li	s2, 0
	li	s3, 0
	.balign	64
refill:
	/* xorshift64 (Marsaglia's 13, 7, 17): run by both variants */
	slli	t0, s1, 13
	xor	s1, s1, t0
	srli	t0, s1, 7
	xor	s1, s1, t0
	slli	t0, s1, 17
	xor	s1, s1, t0
#if RANDOM
	mv	s5, s1
#else
	mv	s5, s6
#endif
	nop				/* pads the refill block to 8 instructions */
	.rept	64
	andi	t1, s5, 1
	srli	s5, s5, 1
	bnez	t1, 2f
	addi	s2, s2, 1		/* not taken: count, then jump over */
	j	3f
2:	addi	s3, s3, 1		/* taken: count, and a nop so both sides */
	nop				/* retire two instructions */
3:
	.endr
	addi	s0, s0, -1
	bnez	s0, refill

	li	a0, 0
	li	a7, 93			/* exit */
	ecall
