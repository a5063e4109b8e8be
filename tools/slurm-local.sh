#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, without systemd: for the Slurm test and for trying
# tools/slurm/ by hand (as root).
#
#   tools/slurm-local.sh up [--no-install]   install slurm-wlm and munge if missing (apt-get),
#                                             start munged, slurmctld and slurmd, wait for the
#                                             node to be idle; prints the SLURM_CONF to export
#   tools/slurm-local.sh down                 stop exactly the daemons `up` started
#   tools/slurm-local.sh status               exit 0 if the cluster answers, else 1
#
# Everything lives in $SLURM_LOCAL_DIR (default /var/tmp/baghchal-slurm): slurm.conf, spool
# and state directories, logs, and the pid of each daemon started. Clients need
# SLURM_CONF=$SLURM_LOCAL_DIR/slurm.conf. A munged that was already running is used and left
# running; an /etc/slurm/slurm.conf is never touched.
set -euo pipefail

dir=${SLURM_LOCAL_DIR:-/var/tmp/baghchal-slurm}
conf=$dir/slurm.conf
export SLURM_CONF=$conf
# The daemons live in sbin, which a user's PATH may lack.
export PATH=$PATH:/usr/sbin:/sbin

usage() {
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

say() { echo "slurm-local: $*" >&2; }

# Whether process $1 is alive and runs program $2.
alive() {
    [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -q -- "$2"
}

answers() {
    [ -f "$conf" ] && timeout 10 sinfo -h >/dev/null 2>&1
}

install() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null; then
        return
    fi
    if [ "${1:-}" = --no-install ]; then
        say "slurm-wlm or munge is not installed (and --no-install was given)"
        exit 1
    fi
    if [ "$(id -u)" != 0 ]; then
        say "slurm-wlm or munge is not installed, and installing needs root"
        exit 1
    fi
    say "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
}

# Starts "$@" in the background in its own session, output to $dir/$name.log, pid to
# $dir/$name.pid.
start() {
    local name=$1
    shift
    setsid "$@" </dev/null >>"$dir/$name.log" 2>&1 &
    echo $! >"$dir/$name.pid"
}

write_conf() {
    local host cpus memory
    host=$(hostname -s)
    cpus=$(nproc)
    memory=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
    mkdir -p "$dir/ctld" "$dir/slurmd"
    cat >"$conf" <<EOF
# Written by tools/slurm-local.sh: a one-node test cluster.
ClusterName=baghchal-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/slurmd
SlurmctldPidFile=$dir/slurmctld.daemon-pid
SlurmdPidFile=$dir/slurmd.daemon-pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=${SLURM_LOCAL_PORT:-6817}
SlurmdPort=$(( ${SLURM_LOCAL_PORT:-6817} + 1 ))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MailProg=/bin/true
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

up() {
    install "${1:-}"
    mkdir -p "$dir"
    if answers; then
        say "a cluster with $conf already answers; nothing started"
        echo "export SLURM_CONF=$conf"
        return
    fi
    rm -f "$dir"/*.pid
    if ! (munge -n | unmunge) >/dev/null 2>&1; then
        # munged refuses to run as root: run it as the munge user, with its socket directory.
        mkdir -p /run/munge
        chown munge:munge /run/munge
        chmod 0755 /run/munge
        start munged setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground
        for _ in $(seq 50); do
            (munge -n | unmunge) >/dev/null 2>&1 && break
            sleep 0.1
        done
        (munge -n | unmunge) >/dev/null 2>&1 || {
            say "munged did not start; see $dir/munged.log"
            exit 1
        }
    fi
    write_conf
    # -i: ignore state left by an earlier cluster in this directory.
    start slurmctld slurmctld -D -i -f "$conf"
    start slurmd slurmd -D -f "$conf"
    local state=""
    for _ in $(seq 300); do
        state=$(timeout 5 sinfo -h -N -o %t 2>/dev/null | head -1 || true)
        [ "$state" = idle ] && break
        alive "$(cat "$dir/slurmctld.pid")" slurmctld && alive "$(cat "$dir/slurmd.pid")" slurmd || break
        sleep 0.1
    done
    if [ "$state" != idle ]; then
        say "the node is not idle (state '${state:-no answer}'); see $dir/slurmctld.log and $dir/slurmd.log"
        down
        exit 1
    fi
    say "one-node cluster up (node $(hostname -s), $(nproc) CPUs)"
    echo "export SLURM_CONF=$conf"
}

down() {
    # Only the daemons recorded in $dir/*.pid, in reverse order of starting.
    local name pid
    for name in slurmd slurmctld munged; do
        [ -f "$dir/$name.pid" ] || continue
        pid=$(cat "$dir/$name.pid")
        if alive "$pid" "$name"; then
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 100); do
                alive "$pid" "$name" || break
                sleep 0.1
            done
            if alive "$pid" "$name"; then
                kill -9 "$pid" 2>/dev/null || true
            fi
        fi
        rm -f "$dir/$name.pid"
        say "stopped $name ($pid)"
    done
}

case "${1:-}" in
up) up "${2:-}" ;;
down) down ;;
status) answers ;;
*) usage ;;
esac
