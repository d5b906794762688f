# Signals and timers in a shell: trap handlers run on kill to self, an
# ignored signal, read -t timing out on an empty FIFO (select's timeout, and
# in POSIX mode an interval timer and SIGALRM), then, given "die", death by a signal.
n=0
trap 'n=$((n + 1))' USR1
trap 'echo "HUP caught at n=$n"' HUP
trap '' TERM
for ((i = 0; i < 300; i++)); do
    kill -s USR1 $$
    (( i % 100 == 0 )) && kill -s HUP $$
done
echo "USR1 handled $n times"
kill -s TERM $$
echo "TERM ignored"
exec 3<> fifo
if read -t 0.05 -u 3 line; then echo "read: $line"; else echo "read -t timed out: status $?"; fi
set -o posix
if read -t 0.05 -u 3 line; then echo "read: $line"; else echo "posix read -t timed out: status $?"; fi
set +o posix
trap - USR1
sum=0
for ((i = 0; i < 1500; i++)); do sum=$(( (sum * 31 + i) % 1000003 )); done
echo "sum $sum"
if [ "${1:-}" = die ]; then
    kill -s USR1 $$
    echo "not reached"
fi
