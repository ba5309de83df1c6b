// Drives zevo exec through the Claude Agent SDK's query(), as an
// application does. Usage: node drive.mjs SDK_DIR WRAPPER AGENT_DIR
// Prints one JSON object: the messages each scenario received.
import { createRequire } from "node:module";
import path from "node:path";
import fs from "node:fs";

const [sdkDir, wrapper, agentDir] = process.argv.slice(2);
const require = createRequire(path.join(sdkDir, "package.json"));
const { query } = await import(require.resolve("@anthropic-ai/claude-agent-sdk"));

function options(mode, extra = {}) {
	return {
		pathToClaudeCodeExecutable: wrapper,
		env: { ...process.env, AGENT_MODE: mode, AGENT_DIR: agentDir },
		stderr: (s) => process.stderr.write(s),
		...extra,
	};
}

async function collect(q, onMessage) {
	const msgs = [];
	try {
		for await (const m of q) {
			msgs.push(m);
			if (onMessage) await onMessage(m, msgs);
		}
	} catch (e) {
		msgs.push({ thrown: String(e && e.message || e) });
	}
	return msgs;
}

function user(text) {
	return { type: "user", session_id: "", parent_tool_use_id: null, message: { role: "user", content: [{ type: "text", text }] } };
}

// A streaming input whose next message waits for release().
function gated(first, second) {
	let release;
	const gate = new Promise((r) => (release = r));
	async function* gen() {
		yield user(first);
		const next = await gate;
		if (second !== undefined && next) yield user(second);
	}
	return { gen: gen(), release };
}

const out = {};
out.single = await collect(query({ prompt: "fix the tests", options: options("success-zero", { model: "m1", maxTurns: 3, permissionMode: "default" }) }));
out.failed = await collect(query({ prompt: "fail please", options: options("error-zero") }));
out.evosci = await collect(query({ prompt: "review this", options: options("success-evosci") }));

{
	const g = gated("first prompt", "second prompt");
	let results = 0;
	out.two = await collect(query({ prompt: g.gen, options: options("success-zero") }), (m) => {
		if (m.type === "result" && ++results === 1) g.release(true);
		if (results === 2) g.release(false);
	});
	out.twoArgs = fs.readFileSync(path.join(agentDir, "args"), "utf8");
}

{
	const g = gated("stop me");
	let q;
	let asked = false;
	q = query({ prompt: g.gen, options: options("sigint-zero") });
	out.interrupted = await collect(q, async (m) => {
		if (m.type === "assistant" && !asked) {
			asked = true;
			await q.interrupt();
		}
		if (m.type === "result") g.release(false);
	});
}
process.stdout.write(JSON.stringify(out));
