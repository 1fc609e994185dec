#!/usr/bin/env bash
# benches/picker_memory.sh BIN STORE CACHE_DIR LABEL: the picker in tmux on STORE with XDG_CACHE_HOME=CACHE_DIR;
# RssAnon sampled every 20 ms until its CPU time stops moving for 4 s (idle); prints the peak
# RssAnon, VmHWM and RssAnon held at idle, in MB, and the seconds to idle.
bin=$1 store=$2 cache=$3 label=$4
s=mem$$
tmux kill-session -t $s 2>/dev/null
tmux new -d -s $s -x 120 -y 40 "XDG_CACHE_HOME=$cache $bin --codex-home $store > /dev/null"
sleep 0.05
pid=""
for i in $(seq 1 200); do
  pid=$(pgrep -f "^$bin --codex-home $store" | head -1)
  [ -n "$pid" ] && break; sleep 0.01
done
start=$(date +%s.%N)
peak=0; last_cpu=-1; still_since=$(date +%s.%N)
while [ -r /proc/$pid/status ]; do
  anon=$(awk '/^RssAnon:/{print $2}' /proc/$pid/status)
  [ -n "$anon" ] && [ "$anon" -gt "$peak" ] && peak=$anon
  cpu=$(awk '{print $14+$15}' /proc/$pid/stat 2>/dev/null)
  now=$(date +%s.%N)
  if [ "$cpu" != "$last_cpu" ]; then last_cpu=$cpu; still_since=$now; fi
  if (( $(echo "$now - $still_since > 4" | bc) )); then break; fi
  if (( $(echo "$now - $start > 240" | bc) )); then echo "timeout"; break; fi
  sleep 0.02
done
hwm=$(awk '/^VmHWM:/{print $2}' /proc/$pid/status)
held=$(awk '/^RssAnon:/{print $2}' /proc/$pid/status)
end=$(date +%s.%N)
tmux kill-session -t $s
printf "%s peak_anon=%.1fMB vmhwm=%.1fMB held_anon=%.1fMB idle_after=%.1fs\n" "$label" $(echo "$peak/1024" | bc -l) $(echo "$hwm/1024" | bc -l) $(echo "$held/1024" | bc -l) $(echo "$end - $start - 4" | bc -l)
