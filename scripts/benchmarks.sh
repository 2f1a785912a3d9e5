#!/usr/bin/env bash
# SectionKit's package-benchmark suite (Benchmarks/, a package of its own).
#
#   scripts/benchmarks.sh            # run every benchmark: malloc counts and wall time
#   scripts/benchmarks.sh check      # malloc counts against Benchmarks/Thresholds (what CI runs)
#   scripts/benchmarks.sh update     # write the malloc counts of this code to Benchmarks/Thresholds
#
# Extra arguments go to `swift package benchmark` (`--filter 'batch_of_100'`, `--target …`).
# Malloc counts are checked to 2 blocks a sample: `check` fails when a benchmark allocates more
# *or fewer* blocks than its threshold. When a change allocates differently on purpose, run `update` and commit
# Benchmarks/Thresholds with it (the diff of the JSON files shows which benchmarks moved).
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

command="${1:-run}"
[ $# -gt 0 ] && shift
case "$command" in
  run)
    swift package benchmark --no-progress "$@"
    ;;
  check)
    # `swift package` turns the tool's exit codes (2: worse, 4: better only) into 1.
    if ! swift package benchmark thresholds check --metric mallocCountTotal \
      --path "$PWD/Thresholds" --no-progress "$@"; then
      echo "The benchmarks' malloc counts differ from Benchmarks/Thresholds (the deviations are" \
        "above): an allocation crept onto a measured path, or one went. If the change is meant," \
        "run 'scripts/benchmarks.sh update' and commit Benchmarks/Thresholds with it." >&2
      exit 1
    fi
    ;;
  update)
    swift package --allow-writing-to-package-directory benchmark thresholds update \
      --metric mallocCountTotal --path "$PWD/Thresholds" --no-progress "$@"
    ;;
  *)
    echo "usage: scripts/benchmarks.sh [run|check|update] [swift package benchmark options]" >&2
    exit 64
    ;;
esac
