#!/usr/bin/env bash
# benches/pane_first_screen.sh BIN STORE CACHE WANT: ms from launching the picker in tmux to WANT on screen.
bin=$1 store=$2 cache=$3 want=$4
s=pane$$
start=$(date +%s%N)
tmux new -d -s $s -x 160 -y 45 "XDG_CACHE_HOME=$cache $bin --codex-home $store > /dev/null"
while true; do
  if tmux capture-pane -p -t $s 2>/dev/null | grep -qF -- "$want"; then break; fi
  now=$(date +%s%N); (( (now-start)/1000000 > 20000 )) && { echo timeout; break; }
  sleep 0.003
done
end=$(date +%s%N)
tmux kill-session -t $s
echo $(( (end-start)/1000000 ))
