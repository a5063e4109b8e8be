#!/usr/bin/env bash
# The pattern network's node rate against the classic evaluation's on `bench` (issue 27 asks
# for at least 75%), measured side by side: PAIRS interleaved pairs of `baghchal bench --eval
# classic` and `baghchal bench --eval network` (which runs first alternates), each timed in CPU time
# (user + sys, so a loaded machine disturbs it less than wall time), then the medians.
#
#   tools/eval_rate.sh [ENGINE]      (default target/release/baghchal; PAIRS=30)
#
# Prints one line per pair (classic and network CPU seconds), then the node counts, the median
# CPU times, the rates and the ratio of the median rates (network / classic), and the median
# of the pairs' own ratios.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
engine=${1:-${CARGO_TARGET_DIR:-$here/target}/release/baghchal}
pairs=${PAIRS:-30}
[ -x "$engine" ] || { echo "eval_rate.sh: no engine at $engine (cargo build --release)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "eval_rate.sh: needs /usr/bin/time (Debian: apt-get install time)" >&2; exit 2; }

nodes() { "$engine" bench "$@" 2>/dev/null | awk '/ nodes$/ {print $1}'; }
cpu() { /usr/bin/time -f "%U %S" "$engine" bench "$@" 2>&1 >/dev/null | awk 'END {print $1 + $2}'; }

classic_nodes=$(nodes --eval classic)
network_nodes=$(nodes --eval network)
times=()
for i in $(seq "$pairs"); do
  if (( i % 2 )); then c=$(cpu --eval classic); n=$(cpu --eval network)
  else n=$(cpu --eval network); c=$(cpu --eval classic); fi
  echo "pair $i: classic $c s, network $n s"
  times+=("$c $n")
done
printf '%s\n' "${times[@]}" | awk -v cn="$classic_nodes" -v nn="$network_nodes" '
  function median(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { c[NR] = $1; n[NR] = $2; r[NR] = (nn / $2) / (cn / $1) }
  END {
    mc = median(c, NR); mn = median(n, NR); mr = median(r, NR)
    printf "nodes: classic %d, network %d\n", cn, nn
    printf "median CPU s: classic %.3f, network %.3f (%d pairs)\n", mc, mn, NR
    printf "rate (M nodes per CPU s): classic %.2f, network %.2f\n", cn / mc / 1e6, nn / mn / 1e6
    printf "network / classic: %.3f (medians), %.3f (median of the pairs)\n", (nn / mn) / (cn / mc), mr
  }'
