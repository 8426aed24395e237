#!/bin/sh
# Regenerate the terminal captures in docs/terminal/ from real runs, as an 80-column terminal
# shows them (COLUMNS=80). Run from anywhere with the harness installed:
#     sh docs/terminal/make_captures.sh
# Each capture starts with the command that made it.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT="$REPO/docs/terminal"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export COLUMNS=80

wrap_command() {  # a long command on lines of at most 80 columns, continued with " \"
    awk '{ out = ""; n = split($0, w, " ")
           for (i = 1; i <= n; i++) {
               if (out != "" && length(out) + length(w[i]) + 3 > 80) { print out " \\"; out = "    " w[i] }
               else out = (out == "" ? w[i] : out " " w[i])
           }
           print out }'
}

capture() {  # capture FILE COMMAND...: run it in $WORK, keep stdout and stderr in order
    file=$1; shift
    { echo "\$ $*" | sed "s|$REPO/||g" | wrap_command; (cd "$WORK" && "$@" 2>&1); } \
        | sed "s|$WORK|/tmp/course|g; s|$REPO/||g" > "$OUT/$file"
}

mkdir -p "$WORK/submissions"
cp -r "$REPO/submissions/priemspel/." "$WORK/submissions/"
cp "$REPO/reference_players/priemspel/basis.py" "$REPO/reference_players/priemspel/strategie.py" "$WORK/"
cat > "$WORK/tournaments.yaml" <<YAML
jobs:
  priemspel-tournament:
    game: priemspel
    format: round_robin
    submissions: submissions
    reference: [basis.py, strategie.py]
    settings: [{start: 0, N: 5}, {start: 0, N: 7}, {start: 10, N: 4}]
    games: 1
    awards: {policy: tiers, tiers: [{top: 0.1, points: 3}, {top: 0.2, points: 2}, {top: 0.4, points: 1}]}
YAML

capture harness.txt harness
capture list.txt harness list --config "$REPO/tournaments.yaml"
capture check-pass.txt harness check priemspel "$REPO/submissions/priemspel/alice/player.py" \
    --config "$REPO/harness/jobs/grading.yaml"
capture check-fail.txt harness check streky "$REPO/submissions/streky/overlap/player.py" \
    --config "$REPO/harness/jobs/grading.yaml" --out /tmp
capture check-sembasic.txt harness check quoridor "$REPO/submissions/quoridor/no_crossing" \
    --config "$REPO/harness/jobs/grading.yaml"
(cd "$WORK" && harness run priemspel-tournament --quiet --no-self-check >/dev/null 2>&1)
capture leaderboard.txt harness leaderboard priemspel-tournament
capture status.txt harness status priemspel-tournament
# Every capture must fit the 80 columns it claims.
for f in "$OUT"/*.txt; do
    awk -v f="$f" 'length($0) > 80 { printf "%s:%d: %d columns\n", f, NR, length($0); bad = 1 } END { exit bad }' "$f" \
        || echo "make_captures.sh: $f is wider than 80 columns" >&2
done
