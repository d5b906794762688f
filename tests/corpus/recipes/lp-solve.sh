# lp_solve, a mixed-integer linear programming solver (sparse LU
# factorisations, simplex: floating-point heavy), built as Debian's ccc
# scripts do but in one static executable with the bundled COLAMD.
SRCPKG=lp-solve
PROGRAMS=lp_solve
build() {
    local defs="-DYY_NEVER_INTERACTIVE -DPARSER_LP -DINVERSE_ACTIVE=INVERSE_LUSOL -DRoleIsExternalInvEngine"
    $CC $CFLAGS -I. -Ibfp -Ibfp/bfp_LUSOL -Ibfp/bfp_LUSOL/LUSOL -Ishared -Icolamd $defs $LDFLAGS \
        -o "$OUT/lp_solve" lp_solve/lp_solve.c lp_MDO.c shared/commonlib.c shared/mmio.c \
        shared/myblas.c ini.c fortify.c lp_rlp.c lp_crash.c bfp/bfp_LUSOL/lp_LUSOL.c \
        bfp/bfp_LUSOL/LUSOL/lusol.c lp_Hash.c lp_lib.c lp_wlp.c lp_matrix.c lp_mipbb.c lp_MPS.c \
        lp_params.c lp_presolve.c lp_price.c lp_pricePSE.c lp_report.c lp_scale.c lp_simplex.c \
        lp_SOS.c lp_utils.c yacc_read.c colamd/colamd.c -lm -ldl
}
