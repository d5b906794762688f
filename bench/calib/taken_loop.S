/* taken_loop.S: the best-case IPC through taken branches (bench/calib).
 *
 * A loop of BODY instructions, aligned so that it starts a fetch packet,
 * ending in its taken back-edge: BODY - 2 independent single-cycle ALU
 * instructions (each writes a constant, so none waits for another), the
 * counter decrement and the branch. Nothing mispredicts after the first
 * iterations and nothing touches memory, so IPC is limited only by how fast
 * the front end gets through a taken branch, and by the 4-wide decode and
 * commit. BODY = 16 is two packets of the simulator's 8-instruction fetch
 * (frontend.fetch_width in configs/boom-tip.ini and boom-tea.ini); BODY = 4
 * is a taken branch every four instructions, what a 4-wide core must
 * sustain to reach IPC 4 in such a loop.
 *
 * Fixed 4-byte instructions (no RVC), no libc: _start, then exit(0);
 * ITERS x BODY instructions in the loop. */
#ifndef BODY
#error "build with -DBODY=N (N >= 3) and -DITERS=N"
#endif

	.option norvc
	.text
	.globl	_start
_start:
	li	s0, ITERS
	.balign	64
loop:
	.rept	(BODY - 2) / 7
	.irp	r, a1, a2, a3, a4, a5, a6, a7
	li	\r, 1
	.endr
	.endr
	.rept	(BODY - 2) % 7
	li	t2, 1
	.endr
	addi	s0, s0, -1
	bnez	s0, loop

	li	a0, 0
	li	a7, 93			/* exit */
	ecall
