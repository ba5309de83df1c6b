#!/usr/bin/env python3
"""Extracts (expression, input) pairs from jq's tests/*.test and gojq's
cli/test.yaml into cases.jsonl, the test data of the projection
differential test. Usage: extract.py JQ_GIT_DIR GOJQ_GIT_DIR > cases.jsonl"""
import json, subprocess, sys, yaml

def show(git, path):
    return subprocess.run(["git", "-C", git, "show", "HEAD:" + path],
                          check=True, capture_output=True).stdout.decode("utf-8", "replace")

def jq_cases(git):
    names = subprocess.run(["git", "-C", git, "ls-tree", "-r", "--name-only", "HEAD", "tests/"],
                           check=True, capture_output=True).stdout.decode().split()
    for name in names:
        if not name.endswith(".test"):
            continue
        lines = show(git, name).split("\n")
        i = 0
        while i < len(lines):
            l = lines[i]
            if not l.strip() or l.startswith("#"):
                i += 1
                continue
            if l.startswith("%%FAIL"):
                while i < len(lines) and lines[i].strip():
                    i += 1
                continue
            prog, inp = l, lines[i + 1] if i + 1 < len(lines) else "null"
            yield {"src": "jq/%s:%d" % (name, i + 1), "expr": prog, "input": inp}
            while i < len(lines) and lines[i].strip():
                i += 1

def gojq_cases(git):
    for c in yaml.safe_load(show(git, "cli/test.yaml")):
        args = [str(a) for a in c.get("args", [])]
        if any(a.startswith("-") and a != "-" for a in args) or not args:
            continue
        if "input" not in c or "yaml" in c.get("name", ""):
            continue
        yield {"src": "gojq/cli/test.yaml: " + c["name"], "expr": args[0], "input": c["input"]}

for case in list(jq_cases(sys.argv[1])) + list(gojq_cases(sys.argv[2])):
    print(json.dumps(case, ensure_ascii=False))
