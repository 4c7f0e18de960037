#!/usr/bin/env bash
# Two terminals chatting through livedata-server, played as a user would: starts the server on a
# free loopback port over a fresh data folder, reads the demo passwords it wrote to
# <data>/demo-credentials, opens `LiveDataSample --server … --user ada` and `… --user alan` in
# two tmux sessions, opens the "Ada & Alan" channel in both, types a message in ada's, and waits
# until alan's screen shows it. Every wait is bounded; on failure both screens are printed.
# Expects `swift build --package-path Server` and the release sample
# (`swift build -c release --product LiveDataSample`, which .ci/run's `swift run -c release
# LiveDataSample --demo` makes) to have run. Usage: Server/Scripts/two-terminals.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

if ! command -v tmux > /dev/null; then
  apt-get install -y -qq tmux > /dev/null
fi
sample="$repo/.build/release/LiveDataSample"
[ -x "$sample" ] || swift build -c release --product LiveDataSample
server_binary="$repo/Server/.build/debug/livedata-server"
[ -x "$server_binary" ] || { echo "no $server_binary: run swift build --package-path Server first" >&2; exit 1; }

data=$(mktemp -d)
socket="livedata-two-terminals-$$"
server=""
cleanup() {
  tmux -L "$socket" kill-server 2> /dev/null || true
  if [ -n "$server" ]; then kill "$server" 2> /dev/null || true; wait "$server" 2> /dev/null || true; fi
  rm -rf "$data"
}
trap cleanup EXIT

"$server_binary" --port 0 --data "$data/server" > "$data/server-output" &
server=$!
for _ in $(seq 1 600); do
  grep -q '^listening on ' "$data/server-output" && break
  kill -0 "$server" 2> /dev/null || { echo "livedata-server exited early" >&2; cat "$data/server-output" >&2; exit 1; }
  sleep 0.1
done
url=$(grep -m1 '^listening on ' "$data/server-output" | sed 's/^listening on //')
[ -n "$url" ] || { echo "livedata-server did not print where it listens within 60 s" >&2; exit 1; }
echo "livedata-server listens on $url"

password() { awk -v user="$1" '$1 == user { print $2 }' "$data/server/demo-credentials"; }
pane() { tmux -L "$socket" capture-pane -p -t "$1"; }
show_panes() {
  for user in ada alan; do
    echo "---- $user's terminal" >&2
    pane "$user" >&2 || echo "(no pane: the app exited)" >&2
  done
}
# Waits up to $2 seconds until $1's screen contains the text $3.
wait_for() {
  local user=$1 seconds=$2 text=$3
  for _ in $(seq 1 $((seconds * 10))); do
    pane "$user" 2> /dev/null | grep -qF -- "$text" && return 0
    sleep 0.1
  done
  echo "$user's screen did not show \"$text\" within $seconds s" >&2
  show_panes
  exit 1
}

for user in ada alan; do
  tmux -L "$socket" new-session -d -s "$user" -x 100 -y 30 \
    "'$sample' --server '$url' --user $user --password '$(password $user)' --data '$data/$user'; sleep 600"
done
for user in ada alan; do wait_for "$user" 60 "● online"; done

# The channel list numbers its rows; open "Ada & Alan" by its number on each screen, once the list
# shows it ("● online" can come before the first page of channels).
for user in ada alan; do
  wait_for "$user" 30 "Ada & Alan"
  row=$(pane "$user" | grep -oE '^ *[0-9]+\. Ada & Alan' | grep -oE '[0-9]+' | head -1 || true)
  [ -n "$row" ] || { echo "$user's channel list has no \"Ada & Alan\"" >&2; show_panes; exit 1; }
  tmux -L "$socket" send-keys -t "$user" "$row" Enter
  wait_for "$user" 30 "type to send"
done

message="hello alan, from ada's terminal ($$)"
tmux -L "$socket" send-keys -t ada "$message" Enter
wait_for ada 30 "ada: $message"
wait_for alan 30 "ada: $message"
echo "alan's terminal shows what ada sent:"
pane alan | grep -F -- "$message"

for user in ada alan; do tmux -L "$socket" send-keys -t "$user" "/quit" Enter; done
