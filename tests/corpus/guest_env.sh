# Sourced by tests/corpus/lib.sh and bench/corpus_runs.sh: the corpus
# guests' whole environment, one definition for the tests and the benches.
# qemu passes its own environment to the guest, so every run is under env -i
# with exactly GUEST_ENV; our tools get them as GUEST_ENV_OPTS (--env each).
GUEST_ENV=(PATH=/usr/bin:/bin LC_ALL=C HOME=/nonexistent)
GUEST_ENV_OPTS=()
for v in "${GUEST_ENV[@]}"; do GUEST_ENV_OPTS+=(--env "$v"); done

# corpus_pwd DIR: the runs that must repeat exactly happen in DIR, and say
# so in PWD, as a shell would. Without PWD, bash finds its working
# directory by reading every directory above it, /tmp included, whose
# listing other processes change between runs (so would qemu's bash).
# qemu's guest is told DIR; ours /guest/work, the name the emulator gives
# its working directory wherever it runs: DIR's path would put its length
# into every run (the environment is on the guest's stack; lua's hash seed
# and bash's counts followed the temporary directory's length).
corpus_pwd() {
    GUEST_ENV+=("PWD=$1")
    GUEST_ENV_OPTS+=(--env "PWD=/guest/work")
}
