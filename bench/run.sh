#!/usr/bin/env bash
# Times zevo against jq 1.6 and gojq running the same mapping (to-zero.jq,
# to-evosci.jq), on the same generated corpus, in one run, and prints a
# table of medians, throughput, peak memory and ratios.
#
#   bash bench/run.sh                     # 100 MB corpora, 3 repetitions
#   SIZE=20MB REPS=1 bash bench/run.sh    # a quick look
#   BASE=14b1791 bash bench/run.sh        # this tree against a base revision, side by side
#
# Environment: SIZE (corpus size, default 100MB), REPS (default 3), SEED
# (default 1), HUGE (the single-line case, default 200MB; 0 skips it),
# LATENCY_LINES (lines per direction of the latency run, default 1000; 0
# skips it),
# WORK (where binaries and corpora go, default /tmp/zevo-bench), BASE (a git
# revision: built into $WORK/bin/zevo-base and timed in every repetition next
# to this tree's zevo), GOJQ (0 skips gojq, the slowest reference),
# STARTUP (runs of the start-up comparison on the README's sample, default
# 20; 0 skips it; it needs gojq, installed even with GOJQ=0).
set -euo pipefail

SIZE=${SIZE:-100MB}
REPS=${REPS:-3}
SEED=${SEED:-1}
HUGE=${HUGE:-200MB}
WORK=${WORK:-/tmp/zevo-bench}
BASE=${BASE:-}
USE_GOJQ=${GOJQ:-1}
STARTUP=${STARTUP:-20}
GOJQ_VERSION=v0.12.20
GOJQ_FALLBACK=v0.12.19

cd "$(dirname "$0")/.."
mkdir -p "$WORK/bin"

say() { printf '%s\n' "$*" >&2; }

# --- tools ------------------------------------------------------------------
if [ ! -x /usr/bin/jq ] || [ ! -x /usr/bin/time ]; then
	say "installing jq and time (Debian packages)"
	apt-get update -qq
	apt-get install -y -qq jq time >/dev/null
fi
JQ=/usr/bin/jq
TIME=/usr/bin/time
GOJQ=$WORK/bin/gojq
if { [ "$USE_GOJQ" != 0 ] || [ "$STARTUP" != 0 ]; } && [ ! -x "$GOJQ" ]; then
	say "installing gojq $GOJQ_VERSION"
	if ! GOBIN=$WORK/bin go install "github.com/itchyny/gojq/cmd/gojq@$GOJQ_VERSION"; then
		# v0.12.20 requires a go-yaml pseudo-version that some module
		# proxies do not serve; the previous release has the same engine.
		say "gojq $GOJQ_VERSION cannot be built here; installing $GOJQ_FALLBACK instead"
		GOBIN=$WORK/bin go install "github.com/itchyny/gojq/cmd/gojq@$GOJQ_FALLBACK"
	fi
fi
ZEVO=$WORK/bin/zevo
say "building zevo (as the README's install line does)"
# The README's build: static, without urfave/cli's Markdown code.
ZEVO_BUILD=(env CGO_ENABLED=0 go build -tags urfave_cli_no_docs)
"${ZEVO_BUILD[@]}" -o "$ZEVO" ./cmd/zevo
go build -o "$WORK/bin/gen" ./bench/cmd/gen
go build -o "$WORK/bin/latency" ./bench/cmd/latency
go build -o "$WORK/bin/startup" ./bench/cmd/startup
ZBASE=$WORK/bin/zevo-base
if [ -n "$BASE" ]; then
	rev=$(git rev-parse --short "$BASE^{commit}")
	say "building zevo-base from $BASE ($rev)"
	rm -rf "$WORK/base-src"
	mkdir -p "$WORK/base-src"
	git archive "$rev" | tar -x -C "$WORK/base-src"
	# A revision from before zevo wrote its own man page does not build
	# with the tag: that one is built as its own README said, plainly.
	if ! (cd "$WORK/base-src" && "${ZEVO_BUILD[@]}" -o "$ZBASE" ./cmd/zevo 2>/dev/null); then
		say "zevo-base does not build with the README's flags; built with plain go build"
		(cd "$WORK/base-src" && go build -o "$ZBASE" ./cmd/zevo)
	fi
	BASE="$BASE ($rev)"
fi

# --- corpora ----------------------------------------------------------------
EVO=$WORK/corpus-$SIZE-$SEED.evosci.jsonl
ZERO=$WORK/corpus-$SIZE-$SEED.zero.jsonl
for p in evosci zero; do
	f=$WORK/corpus-$SIZE-$SEED.$p.jsonl
	if [ ! -s "$f" ]; then
		say "generating $f"
		"$WORK/bin/gen" -protocol $p -size "$SIZE" -seed "$SEED" >"$f.tmp" && mv "$f.tmp" "$f"
	fi
done

# --- the check: zevo's output equals the jq programs' as JSON values --------------
say "checking that zevo and the jq programs agree on a 2 MB corpus"
"$WORK/bin/gen" -protocol evosci -size 2MB -seed "$((SEED + 100))" >"$WORK/check.evosci.jsonl"
"$WORK/bin/gen" -protocol zero -size 2MB -seed "$((SEED + 100))" >"$WORK/check.zero.jsonl"
normalize() { "$JQ" -cS . ; }
check() { # name, zevo args, jq args (after --)
	local name=$1
	shift
	local z=() j=()
	while [ "$1" != -- ]; do z+=("$1"); shift; done
	shift
	j=("$@")
	"$ZEVO" "${z[@]}" 2>/dev/null | normalize >"$WORK/check.zevo"
	local tools=("$JQ")
	[ "$USE_GOJQ" = 0 ] || tools+=("$GOJQ")
	for tool in "${tools[@]}"; do
		"$tool" "${j[@]}" | normalize >"$WORK/check.ref"
		if ! cmp -s "$WORK/check.zevo" "$WORK/check.ref"; then
			say "MISMATCH: $name: zevo and $tool differ:"
			diff "$WORK/check.zevo" "$WORK/check.ref" | head -5 >&2
			exit 1
		fi
	done
	say "  $name: zevo = ${tools[*]##*/} ($(wc -l <"$WORK/check.zevo") events)"
}
check "to zero" translate --to zero --run-id bench --cwd /work "$WORK/check.evosci.jsonl" -- \
	-nc --arg runid bench --arg cwd /work -f bench/to-zero.jq "$WORK/check.evosci.jsonl"
check "to evosci" translate --to evosci "$WORK/check.zero.jsonl" -- \
	-nc -f bench/to-evosci.jq "$WORK/check.zero.jsonl"

# --- timing -----------------------------------------------------------------
# measure CASE TOOL INPUT CMD...: one run, output to /dev/null; appends
# "case, tool, wall s, cpu s, maxrss KiB, bytes", tab-separated (a case
# may hold '|'), to $RESULTS.
RESULTS=$WORK/results.txt
: >"$RESULTS"
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
measure() {
	local c=$1 tool=$2 in=$3
	shift 3
	local st=0 t0 t1
	t0=$(date +%s%N)
	"$TIME" -f '%M %U %S' -o "$WORK/time.out" "$@" <"$in" >/dev/null 2>"$WORK/stderr.out" || st=$?
	t1=$(date +%s%N)
	if [ $st -ne 0 ]; then
		say "FAILED ($st): $*"
		tail -3 "$WORK/stderr.out" >&2
		exit 1
	fi
	read -r rss usr sys < <(tail -1 "$WORK/time.out")
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$tool" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e9}')" \
		"$(awk -v u="$usr" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')" "$rss" "$(stat -c %s "$in")" >>"$RESULTS"
}

# The zevo binaries: this tree's, and the base revision's when BASE is set.
ZEVOS=(zevo)
[ -z "$BASE" ] || ZEVOS+=(zevo-base)
bin() { if [ "$1" = zevo ]; then echo "$ZEVO"; else echo "$ZBASE"; fi; }
has() { "$(bin "$1")" "$2" --help >/dev/null 2>&1; }

for rep in $(seq "$REPS"); do
	say "repetition $rep/$REPS"
	# The two zevos take turns at going first: the first after a long jq
	# run was seen to be a few percent slower.
	if [ $((rep % 2)) = 0 ] && [ ${#ZEVOS[@]} = 2 ]; then ORDER=(zevo-base zevo); else ORDER=("${ZEVOS[@]}"); fi
	measure floor cat "$EVO" cat
	measure floor "wc -l" "$EVO" wc -l
	for z in "${ORDER[@]}"; do measure to-zero "$z" "$EVO" "$(bin "$z")" translate --to zero --run-id bench --cwd /work; done
	measure to-zero jq "$EVO" "$JQ" -nc --arg runid bench --arg cwd /work -f bench/to-zero.jq
	[ "$USE_GOJQ" = 0 ] || measure to-zero gojq "$EVO" "$GOJQ" -nc --arg runid bench --arg cwd /work -f bench/to-zero.jq
	for z in "${ORDER[@]}"; do measure to-evosci "$z" "$ZERO" "$(bin "$z")" translate --to evosci; done
	measure to-evosci jq "$ZERO" "$JQ" -nc -f bench/to-evosci.jq
	[ "$USE_GOJQ" = 0 ] || measure to-evosci gojq "$ZERO" "$GOJQ" -nc -f bench/to-evosci.jq
	# Redaction of EvoScientist output is asked for (--redact); jq's
	# program does not redact, so this row has no jq ratio.
	for z in "${ORDER[@]}"; do measure "to-evosci --redact" "$z" "$ZERO" "$(bin "$z")" translate --to evosci --redact; done
	for z in "${ORDER[@]}"; do
		if has "$z" validate; then measure "validate zero" "$z" "$ZERO" "$(bin "$z")" validate --allow-unfinished; fi
	done
	# The first two are evaluated without gojq (filter/fast.go); the third
	# is not, and shows what any other expression costs.
	for f in 'select(.type=="tool_call")' '.content // empty' 'select(.type=="tool_call") | {name, id}'; do
		c="jq:$f"
		for z in "${ORDER[@]}"; do
			if has "$z" jq; then measure "$c" "$z" "$EVO" "$(bin "$z")" jq -c "$f"; fi
		done
		measure "$c" jq "$EVO" "$JQ" -c "$f"
		[ "$USE_GOJQ" = 0 ] || measure "$c" gojq "$EVO" "$GOJQ" -c "$f"
	done
done

if [ "$HUGE" != 0 ]; then
	for p in evosci zero; do
		f=$WORK/huge-$HUGE.$p.jsonl
		[ -s "$f" ] || "$WORK/bin/gen" -protocol $p -huge "$HUGE" >"$f"
	done
	measure huge-evosci-to-zero zevo "$WORK/huge-$HUGE.evosci.jsonl" "$ZEVO" translate --to zero --run-id bench --cwd /work
	measure huge-zero-to-evosci zevo "$WORK/huge-$HUGE.zero.jsonl" "$ZEVO" translate --to evosci
fi

# --- report -----------------------------------------------------------------
echo "zevo benchmark: SIZE=$SIZE SEED=$SEED REPS=$REPS HUGE=$HUGE${BASE:+ BASE=$BASE}"
gojqv=skipped
[ "$USE_GOJQ" = 0 ] || gojqv=$($GOJQ --version | cut -d' ' -f2)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(go version | cut -d' ' -f3), jq $($JQ --version), gojq $gojqv; load average $LOAD0 before, $(cut -d' ' -f1-3 /proc/loadavg) after"
echo
# "x jq 1.6" is jq's median over this row's (how many times faster than jq);
# "x base" is zevo-base's median over zevo's, both from the same run.
awk -F'\t' '
{
	k = $1 SUBSEP $2
	if (!(k in n)) { order[++m] = k; cs[k] = $1; ts[k] = $2 }
	n[k]++
	w[k, n[k]] = $3
	c[k, n[k]] = $4
	if ($5 > rss[k]) rss[k] = $5
	bytes[k] = $6
}
function median(arr, k,   i, j, x, a, cnt) {
	cnt = n[k]
	for (i = 1; i <= cnt; i++) a[i] = arr[k, i]
	for (i = 2; i <= cnt; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
	return cnt % 2 ? a[(cnt + 1) / 2] : (a[cnt / 2] + a[cnt / 2 + 1]) / 2
}
function ratio(x, y) { return y > 0 ? sprintf("%.2f", x / y) : "-" }
END {
	for (i = 1; i <= m; i++) {
		k = order[i]; mw[k] = median(w, k); mc[k] = median(c, k)
		if (ts[k] == "jq") { jw[cs[k]] = mw[k]; jc[cs[k]] = mc[k] }
		if (ts[k] == "zevo-base") { bw[cs[k]] = mw[k]; bc[cs[k]] = mc[k] }
		if (ts[k] == "zevo") { zw[cs[k]] = mw[k] }
	}
	printf "| case | tool | wall s | MB/s | CPU s | peak RSS MiB | x jq 1.6 (wall) | x jq 1.6 (CPU) | x base (wall) | x base (CPU) |\n"
	printf "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
	for (i = 1; i <= m; i++) {
		k = order[i]
		rw = "-"; rc = "-"; xw = "-"; xc = "-"
		if (ts[k] != "jq" && (cs[k] in jw)) { rw = ratio(jw[cs[k]], mw[k]); rc = ratio(jc[cs[k]], mc[k]) }
		if (ts[k] == "zevo" && (cs[k] in bw)) { xw = ratio(bw[cs[k]], mw[k]); xc = ratio(bc[cs[k]], mc[k]) }
		name = cs[k]
		gsub(/\|/, "\\|", name) # a bar, escaped in a Markdown table cell
		printf "| %s | %s | %.2f | %.0f | %.2f | %.1f | %s | %s | %s | %s |\n", name, ts[k], mw[k], bytes[k] / 1048576 / mw[k], mc[k], rss[k] / 1024, rw, rc, xw, xc
	}
	for (i = 1; i <= m; i++) {
		k = order[i]
		if (cs[k] == "validate zero" && ((("to-evosci") SUBSEP ts[k]) in mw))
			printf "\n%s: validate takes %.2fx the wall time of translate --to evosci on the same Zero corpus", ts[k], mw[k] / mw["to-evosci", ts[k]]
	}
	print ""
}' "$RESULTS"
if [ "$HUGE" != 0 ]; then
	echo
	for p in evosci zero; do
		f=$WORK/huge-$HUGE.$p.jsonl
		echo "huge line ($p): $(stat -c %s "$f") bytes; peak RSS / line = $(awk -F'\t' -v c="huge-$p-to-$([ $p = evosci ] && echo zero || echo evosci)" -v b="$(stat -c %s "$f")" '$1 == c && $2 == "zevo" {printf "%.2f", $5 * 1024 / b}' "$RESULTS")"
	done
fi
if [ "${LATENCY_LINES:-1000}" != 0 ]; then
	echo
	echo "live latency: one line every 10 ms through pipes (bench/cmd/latency); cat is the machine's own floor"
	"$WORK/bin/latency" -zevo "$ZEVO" -n "${LATENCY_LINES:-1000}" || true
fi
if [ "$STARTUP" != 0 ]; then
	echo
	echo "start-up: the README's sample, $STARTUP runs of each in turn (bench/cmd/startup), medians against gojq ."
	sample=testdata/translate/basic.evosci.jsonl
	cmds=("$ZEVO translate --to zero $sample")
	[ -z "$BASE" ] || cmds+=("$ZBASE translate --to zero $sample")
	"$WORK/bin/startup" -n "$STARTUP" "${cmds[@]}" "$GOJQ . $sample" || true
fi
