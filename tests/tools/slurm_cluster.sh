#!/bin/bash
# A single-node Slurm cluster in a directory, for tests and for trying
# `--engine slurm` on one machine: munged, slurmctld and slurmd as root, with
# their own munge key, slurm.conf (this host, its CPUs and memory, one
# partition, no cgroups, no accounting), state, spool and logs in DIR, on free
# ports of 127.0.0.1 (no name service needed), so that it cannot meet a
# system Slurm; it schedules every second, so that short chains of dependent
# jobs do not wait, and refuses at submission a job it could never run.
# Client commands find it through SLURM_CONF. Sourced:
#   slurm_cluster_start DIR   # exports SLURM_CONF; fails (status 1, with the
#                             # daemons' logs) if the node is not idle in 30 s
#   slurm_cluster_stop        # cancels the jobs and stops the daemons it started
# Needs Debian's slurmctld, slurmd, slurm-client and munge (make deps).

SLURM_CLUSTER_PIDS=()

slurm_cluster_start() {
    local d=$1 host c ctld_port slurmd_port mem state=''
    for c in munged mungekey slurmctld slurmd sbatch squeue sinfo scancel; do
        command -v "$c" > /dev/null || { echo "slurm_cluster: no $c (make deps installs slurm-wlm and munge)" >&2; return 1; }
    done
    [ "$(id -u)" -eq 0 ] || { echo "slurm_cluster: the daemons run as root (SlurmUser=root)" >&2; return 1; }
    mkdir -p "$d/state" "$d/spool"
    host=$(hostname -s)
    read -r ctld_port slurmd_port < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
    mem=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 1024 - 1024))
    export SLURM_CONF=$d/slurm.conf
    cat > "$SLURM_CONF" << EOF
ClusterName=rvtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
EnforcePartLimits=ALL
SchedulerParameters=sched_interval=1,batch_sched_delay=0,sched_min_interval=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=rvtest Nodes=$host Default=YES MaxTime=${SLURM_CLUSTER_MAXTIME:-60} State=UP
EOF
    mungekey -c -k "$d/munge.key"
    munged -F -f --key-file="$d/munge.key" --socket="$d/munge.socket" --pid-file="$d/munged.pid" \
        --log-file="$d/munged.log" --seed-file="$d/munged.seed" > "$d/munged.out" 2>&1 &
    SLURM_CLUSTER_PIDS+=($!)
    for _ in $(seq 50); do [ -S "$d/munge.socket" ] && break; sleep 0.1; done
    [ -S "$d/munge.socket" ] || { slurm_cluster_logs "$d"; echo "slurm_cluster: munged did not start" >&2; return 1; }
    slurmctld -D -i -f "$SLURM_CONF" > "$d/slurmctld.out" 2>&1 &
    SLURM_CLUSTER_PIDS+=($!)
    slurmd -D -f "$SLURM_CONF" > "$d/slurmd.out" 2>&1 &
    SLURM_CLUSTER_PIDS+=($!)
    for _ in $(seq 60); do
        state=$(timeout 5 sinfo -h -n "$host" -o %T 2> /dev/null || true)
        [ "$state" == idle ] && break
        slurm_cluster_alive || break
        sleep 0.5
    done
    if [ "$state" != idle ]; then
        slurm_cluster_logs "$d"
        echo "slurm_cluster: the cluster did not come up (node $host: '$state')" >&2
        return 1
    fi
    echo "slurm_cluster: up in $d: node $host, $(nproc) CPUs, $mem MB, ports $ctld_port and $slurmd_port"
}

slurm_cluster_logs() {
    local f
    for f in "$1"/*.log "$1"/*.out; do [ ! -s "$f" ] || tail -n 20 "$f" >&2; done
}

# All the daemons still there?
slurm_cluster_alive() {
    local p
    for p in "${SLURM_CLUSTER_PIDS[@]}"; do kill -0 "$p" 2> /dev/null || return 1; done
}

slurm_cluster_stop() {
    [ ${#SLURM_CLUSTER_PIDS[@]} -gt 0 ] || return 0
    timeout 10 scancel --me 2> /dev/null || true
    kill "${SLURM_CLUSTER_PIDS[@]}" 2> /dev/null || true
    for _ in $(seq 20); do kill -0 "${SLURM_CLUSTER_PIDS[@]}" 2> /dev/null || break; sleep 0.5; done
    kill -9 "${SLURM_CLUSTER_PIDS[@]}" 2> /dev/null || true
    SLURM_CLUSTER_PIDS=()
}
