# EvoScientist stream-json -> Zero stream-json v2, as `zevo translate --to zero`
# does with its default tables, written as one jq program (jq 1.6 and gojq).
#
#   jq -nc --arg runid RUN --arg cwd DIR -f bench/to-zero.jq events.jsonl
# gives the same JSON values, line by line, as
#   zevo translate --to zero --run-id RUN --cwd DIR events.jsonl
#
# What it does, like zevo:
# - framing: a run_start before the first mapped event of each run (runId
#   RUN, then RUN.2, RUN.3, ...; cwd; provider "evoscientist"); done gives
#   final + run_end success; error gives error agent_error + run_end error;
#   input that ends inside a run gives error incomplete + run_end incomplete.
# - every event type of the default table: thinking -> reasoning, text,
#   tool_call (sideEffect table), tool_result (status, truncated, output),
#   usage_stats -> usage (totalTokens = sum), interrupt -> one
#   permission_request per action request (risk from the sideEffect);
#   everything else is dropped (zevo counts it on stderr).
# - correlation: pending tool calls (at most 4096), a result without id takes
#   the id of the earliest pending call of its name; a permission request takes
#   the id of the earliest unclaimed pending call of its name, else the
#   interrupt id (":2", ":3", ... for later requests).
# - Zero's omitempty for copied fields (id, name, args, output, reason, text,
#   message, delta).
# - Zero's redaction of every copied value: whole values under sensitive keys,
#   and the three secret patterns inside strings with the kept prefixes.
#
# What it does not do (zevo does):
# - diagnostics: lines that are not JSON objects, fields of the wrong type,
#   Python's NaN/Infinity (jq 1.6 reads them as numbers) make jq stop or
#   write something else; zevo reports FILE:LINE and goes on.
# - Zero lines in the input (passed through, upgraded from v1), prefixed
#   kept events, --unmapped keep/error, user mapping tables, run ids of
#   zevo's own format (the run id is given).
# - exact integers: jq 1.6 turns integers beyond 2^53 into doubles.
# - \b in the sk- pattern: Oniguruma counts non-ASCII letters as word
#   characters, Go's RE2 does not (differs only for "ésk-...").
# - key order and string escapes: jq writes its own; the JSON values are the
#   same.

def sideeffect:
  {"read_file":"read","ls":"read","glob":"read","grep":"read",
   "write_file":"write","edit_file":"write","execute":"shell",
   "tavily_search":"network","web_search":"network","fetch_url":"network",
   "think_tool":"none","write_todos":"none","ask_user":"none"}[.] // "unknown";

def risklevel:
  {"none":"low","read":"low","write":"medium","unknown":"medium","shell":"high","network":"high"}[.] // "medium";

# Zero's sensitive keys: lowercased, non-alphanumerics removed.
def sensitive:
  (ascii_downcase | explode | map(select((. >= 97 and . <= 122) or (. >= 48 and . <= 57))) | implode) as $n
  | {"accesstoken":1,"apikey":1,"authorization":1,"bearer":1,"clientsecret":1,"credential":1,
     "credentials":1,"idtoken":1,"password":1,"passwd":1,"privatekey":1,"pwd":1,
     "refreshtoken":1,"secret":1,"token":1}[$n] != null
    or ($n | endswith("apikey") or endswith("clientsecret") or endswith("accesstoken")
             or endswith("refreshtoken") or endswith("idtoken") or endswith("privatekey"));

def keepprefix:
  ascii_downcase as $l
  | if ($l | startswith("apikey=")) or ($l | startswith("bearer ")) then .[:7] + "[REDACTED]"
    elif ($l | startswith("api_key=")) or ($l | startswith("api-key=")) then .[:8] + "[REDACTED]"
    else "[REDACTED]" end;

def redactstring:
  if test("sk-|api|bearer"; "i") then
    gsub("\\bsk-[A-Za-z0-9_-]{16,}"; "[REDACTED]")
    | gsub("(?<m>api[_-]?key\\s*[=:]\\s*[\"']?[A-Za-z0-9._-]{12,})"; .m | keepprefix; "i")
    | gsub("(?<m>bearer\\s+[A-Za-z0-9._-]{16,})"; .m | keepprefix; "i")
  else . end;

def redact:
  if type == "string" then redactstring
  elif type == "object" then with_entries(if .key | sensitive then .value = "[REDACTED]" else .value |= redact end)
  elif type == "array" then map(redact)
  else . end;

# Zero's omitempty, then redaction, of the fields copied from the input.
def copied: with_entries(select(.value != null and .value != false and .value != "") | .value |= redact);

def runid($n): if $n == 1 then $runid else "\($runid).\($n)" end;

def head($t): {schemaVersion: 2, type: $t, runId: .rid};

def put(ev): .out += [ev];

def open:
  if .active then .
  else .runs += 1 | .active = true | .rid = (runid(.runs) | redactstring) | .pending = []
    | put(head("run_start") + {cwd: ($cwd | redactstring), provider: "evoscientist"})
  end;

def close($status; $code):
  put(head("run_end") + {status: $status, exitCode: $code}) | .active = false | .pending = [];

def pendingindex(cond): first(.pending | to_entries[] | select(.value | cond) | .key) // null;

foreach (inputs, null) as $e (
  {active: false, runs: 0, rid: null, pending: [], out: []};
  .out = []
  | if $e == null then
      if .active then
        put(head("error") + {code: "incomplete", message: "the input ended before the run finished", recoverable: false})
        | close("incomplete"; 4)
      else . end
    elif $e.type == "thinking" then open | put(head("reasoning") + ({delta: $e.content} | copied))
    elif $e.type == "text" then open | put(head("text") + ({delta: $e.content} | copied))
    elif $e.type == "tool_call" then
      open
      | .pending = (.pending + [{id: ($e.id // ""), name: ($e.name // "")}] | if length > 4096 then .[1:] else . end)
      | put(head("tool_call") + ({id: $e.id, name: $e.name, args: $e.args} | copied) + {sideEffect: ($e.name // "" | sideeffect)})
    elif $e.type == "tool_result" then
      ($e.id // "") as $id | ($e.name // "") as $name
      | pendingindex(if $id != "" then .id == $id else .name == $name end) as $i
      | (if $i != null then .pending[$i].id else $id end) as $rid
      | (if $i != null then .pending |= del(.[$i]) else . end)
      | open
      | put(head("tool_result")
          + ({id: $rid, name: $name, output: $e.content} | copied)
          + {status: (if $e.success == true then "ok" else "error" end),
             truncated: (($e.content | type) == "string"
                         and ($e.content | endswith("\n... (truncated)") or endswith("\n[truncated]")))})
    elif $e.type == "usage_stats" then
      open
      | put(head("usage") + {promptTokens: ($e.input_tokens // 0), completionTokens: ($e.output_tokens // 0),
                             totalTokens: (($e.input_tokens // 0) + ($e.output_tokens // 0))})
    elif $e.type == "interrupt" then
      .pending |= map(.claimed = false)
      | reduce ($e.action_requests | to_entries[]) as $r (.;
          ($r.value.name // "") as $n
          | pendingindex(.claimed == false and .name == $n) as $j
          | (if $j != null and .pending[$j].id != "" then .pending[$j].id
             elif $r.key > 0 then "\($e.interrupt_id):\($r.key + 1)"
             else $e.interrupt_id end) as $id
          | (if $j != null then .pending[$j].claimed = true else . end)
          | open
          | ($n | sideeffect) as $se
          | put(head("permission_request")
              + ({id: $id, name: $n, reason: $r.value.description} | copied)
              + {action: "prompt", permission: "prompt", permissionGranted: false, permissionMode: "ask",
                 sideEffect: $se, risk: {level: ($se | risklevel)}}))
    elif $e.type == "done" then
      open | put(head("final") + ({text: ($e.response // $e.content)} | copied)) | close("success"; 0)
    elif $e.type == "error" then
      open
      | put(head("error") + {code: "agent_error", recoverable: false} + ({message: $e.message} | copied))
      | close("error"; 1)
    else . end;
  .out[]
)
