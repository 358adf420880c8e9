#!/usr/bin/env bash
# Prints the state of the work tree that tests could change: `git status --porcelain` (untracked
# files included, ignored ones not) and a hash of each listed file's content. `make test` prints
# it before and after the tests and fails if they differ, so a test that writes into the tree
# (a tracked screenshot, a stray output file) is caught, while a developer's own uncommitted
# edits, present before and after, are not. Outside a git work tree it prints nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0
git status --porcelain=v1 --untracked-files=all -z | while IFS= read -r -d '' entry; do
    file=${entry:3}
    # A rename or copy entry is followed by its source path: read and show it too.
    if [[ "${entry:0:1}" == [RC] ]]; then
        IFS= read -r -d '' from || true
        printf '%s\n' "$entry <- $from"
        continue
    fi
    if [[ -f "$file" && ! -L "$file" ]]; then
        printf '%s %s\n' "$entry" "$(git hash-object -- "$file")"
    else
        printf '%s\n' "$entry"
    fi
done
