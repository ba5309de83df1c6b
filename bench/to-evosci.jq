# Zero stream-json (v2) -> EvoScientist stream-json, as `zevo translate --to
# evosci` does with its default tables, written as one jq program (jq 1.6 and
# gojq).
#
#   jq -nc -f bench/to-evosci.jq events.jsonl
# gives the same JSON values, line by line, as
#   zevo translate --to evosci events.jsonl
#
# What it does, like zevo:
# - framing: run_start starts a run (a run left open before it ends with an
#   error); run_end success/spec_review_required gives done with content and
#   response = the run's final.text, or the concatenation of its text deltas
#   when no final came; any other status gives an error (unless the run
#   already wrote one) and no done; input that ends inside a run likewise.
# - every event type of the default table: reasoning -> thinking (id 0),
#   text, tool_call (args {} when absent, {"arguments": ...} when not an
#   object), tool_result (name from the call when the result has none,
#   success from status, id always), usage -> usage_stats,
#   permission_request -> interrupt (args of the matching call), error;
#   everything else is dropped (zevo counts it on stderr).
# - correlation: the run's tool calls (at most 4096) by id, for names and
#   interrupt args.
# - no redaction: zevo does not redact EvoScientist output by default.
#
# What it does not do (zevo does):
# - diagnostics: lines that are not JSON objects, without a string type,
#   with an unknown schemaVersion, or with fields of the wrong type.
# - schema version 1 input (upgraded by zevo), EvoScientist lines in the
#   input, prefixed kept events, --unmapped keep/error, user tables.
# - zevo's byte bounds on remembered args and text (16 MiB each).
# - exact integers: jq 1.6 turns integers beyond 2^53 into doubles.
# - key order and string escapes: jq writes its own; the JSON values are the
#   same.

def str($v): if ($v | type) == "string" then $v else "" end;

def put(ev): .out += [ev];

def reset: .active = false | .errored = false | .final = null | .text = "" | .calls = [];

def fail($msg): if .errored then . else put({type: "error", message: $msg}) | .errored = true end;

def endrun($msg): if .active then fail($msg) | reset else . end;

def findcall($id): first(.calls[] | select(.id == $id)) // null;

def mapped: ["reasoning", "text", "tool_call", "tool_result", "usage", "permission_request", "error", "final"];

foreach (inputs, null) as $e (
  {active: false, errored: false, final: null, text: "", calls: [], out: []};
  .out = []
  | if $e == null then endrun("the input ended before the run finished")
    elif $e.type == "run_start" then endrun("the run ended without run_end") | .active = true
    elif $e.type == "run_end" then
      if $e.status == "success" or $e.status == "spec_review_required" then
        (if .final != null then .final else .text end) as $t
        | put({type: "done", content: $t, response: $t}) | reset
      else
        fail("run ended with status \($e.status)" + (if $e | has("exitCode") then " (exit code \($e.exitCode))" else "" end))
        | reset
      end
    elif ($e.type | IN(mapped[])) then
      .active = true
      | if $e.type == "reasoning" then
          put({type: "thinking"} + (if $e | has("delta") then {content: $e.delta} else {} end) + {id: 0})
        elif $e.type == "text" then
          (if ($e.delta | type) == "string" then .text += $e.delta else . end)
          | put({type: "text"} + (if $e | has("delta") then {content: $e.delta} else {} end))
        elif $e.type == "tool_call" then
          ($e.args | if type == "object" then . elif . == null then {} else {arguments: .} end) as $args
          | .calls = ([{id: str($e.id), name: str($e.name), args: $args}] + .calls | .[:4096])
          | put({type: "tool_call", name: str($e.name), args: $args, id: str($e.id)})
        elif $e.type == "tool_result" then
          put({type: "tool_result",
               name: (if ($e.name | type) == "string" then $e.name else (findcall(str($e.id)) | if . == null then "" else .name end) end),
               content: str($e.output),
               success: ($e.status == "ok"),
               id: str($e.id)})
        elif $e.type == "usage" then
          put({type: "usage_stats"}
              + (if $e | has("promptTokens") then {input_tokens: $e.promptTokens} else {} end)
              + (if $e | has("completionTokens") then {output_tokens: $e.completionTokens} else {} end))
        elif $e.type == "permission_request" then
          (findcall(str($e.id)) | if . == null then {} else .args end) as $args
          | put({type: "interrupt", interrupt_id: str($e.id),
                 action_requests: [{name: str($e.name), args: $args}
                                   + (if ($e.reason | type) == "string" then {description: $e.reason} else {} end)],
                 review_configs: [{action_name: str($e.name), allowed_decisions: ["approve", "reject"]}]})
        elif $e.type == "error" then
          put({type: "error", message: (if ($e.message | type) == "string" then $e.message else ($e.code // "") end)})
          | .errored = true
        else .final = str($e.text)
        end
    else . end;
  .out[]
)
