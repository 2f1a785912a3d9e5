#!/usr/bin/env bash
# Builds the DocC archive of each library module with the toolchain's own `docc`, and fails when
# a documentation link is broken (any DocC warning fails) or a public symbol has no `///` comment.
#
#   scripts/build-docs.sh        # archives in .build/docs/<Module>.doccarchive
#
# Symbol graphs come from `swift package dump-symbol-graph`, built into SwiftPM (no plugin, no
# network), which reuses the debug build of `swift build`. Each module's landing page is
# Sources/<Module>/<Module>.docc/<Module>.md. An archive is built after the archives of the
# modules it depends on and resolves links into them (``SectionKit/Coordinator`` from
# SectionKitConsole), so every link in every module is checked.
set -euo pipefail
cd "$(dirname "$0")/.."
# One stream, so that each module's findings follow its heading.
exec 2>&1

# The library products, in dependency order, and what each one's documentation may link to.
modules=(SectionKit SectionKitLayout SectionKitTesting SectionKitLayoutBridge SectionKitConsole
  SectionKitStreaming SectionKitConsoleStreaming)
declare -A linksInto=(
  [SectionKit]=""
  [SectionKitLayout]=""
  [SectionKitTesting]="SectionKit"
  [SectionKitLayoutBridge]="SectionKit SectionKitLayout"
  [SectionKitConsole]="SectionKit SectionKitLayout SectionKitLayoutBridge"
  [SectionKitStreaming]="SectionKit"
  [SectionKitConsoleStreaming]="SectionKit SectionKitLayout SectionKitLayoutBridge SectionKitConsole SectionKitStreaming"
)

output=.build/docs
failed=()

# Every library product has documentation: a product missing from the list above fails.
for product in $(sed -n 's/.*\.library(name: "\([^"]*\)".*/\1/p' Package.swift); do
  if [[ ! -v "linksInto[$product]" ]]; then
    echo "error: the library product $product is not in scripts/build-docs.sh's module list" >&2
    failed+=("$product (not listed)")
  fi
done

echo "== symbol graphs (swift package dump-symbol-graph)"
dump_log=$(swift package dump-symbol-graph --skip-synthesized-members 2>&1) || {
  echo "$dump_log" >&2
  exit 1
}
graphs=$(echo "$dump_log" | sed -n 's/^Files written to //p' | tail -n 1)
if [[ -z "$graphs" || ! -d "$graphs" ]]; then
  echo "$dump_log" >&2
  echo "error: could not find the symbol graphs in the output above" >&2
  exit 1
fi

rm -rf "$output"
mkdir -p "$output/graphs"

# The documentation check, compiled once (interpreting it is much slower on large graphs).
swiftc -O scripts/check-documentation.swift -o "$output/check-documentation" 2>&1

for module in "${modules[@]}"; do
  echo "== $module"
  catalog="Sources/$module/$module.docc"
  if [[ ! -f "$catalog/$module.md" ]]; then
    echo "error: $catalog/$module.md, the module's landing page, is missing" >&2
    failed+=("$module (no landing page)")
    continue
  fi
  # The module's own graph and its extensions of other modules' types (Module@Other).
  mkdir -p "$output/graphs/$module"
  cp "$graphs/$module.symbols.json" "$output/graphs/$module/"
  find "$graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$output/graphs/$module/" \;

  if ! "$output/check-documentation" "$output/graphs/$module"/*.symbols.json; then
    failed+=("$module (undocumented public symbols)")
  fi

  dependencies=()
  for dependency in ${linksInto[$module]}; do
    dependencies+=(--dependency "$output/$dependency.doccarchive")
  done
  # Any warning fails. It is found in the log rather than with `--warnings-as-errors`, which
  # writes no archive: the modules that link into this one could not be checked.
  if ! docc convert "$catalog" \
    --additional-symbol-graph-dir "$output/graphs/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.sectionkit.$module" \
    --fallback-default-module-kind "Framework" \
    --enable-experimental-external-link-support \
    "${dependencies[@]}" \
    --output-path "$output/$module.doccarchive" \
    > "$output/$module.log" 2>&1 || grep -qE "^(warning|error):" "$output/$module.log"; then
    # DocC names files relative to the catalog; name them from the package's root instead.
    sed "s| --> \.\./| --> Sources/$module/|" "$output/$module.log" >&2
    failed+=("$module (DocC warnings: broken links or malformed documentation)")
  fi
done

if ((${#failed[@]} > 0)); then
  echo "documentation check failed: ${failed[*]}" >&2
  exit 1
fi
echo "documentation built: $output/<Module>.doccarchive for ${modules[*]}"
