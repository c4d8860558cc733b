# shellcheck shell=bash
# Figures over a run's samples.

# median N...: the median of the numbers given, two decimals.
median() {
	printf '%s\n' "$@" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
