// The official AG-UI 1.0 client as an oracle: one verdict per stream, printed as one JSON line each.
//
//   node verdicts.mjs <manifest.json>
//
// The manifest lists threads, each a list of SSE files (one response each) in run order:
//   {"threads": [{"name": "suite/case/mode", "streams": [{"name": "...", "file": "relative/path.sse"}]}]}
// File paths are resolved against the manifest's folder and must stay inside it.
//
// A stream passes when, with nothing but @ag-ui/client 1.0.0 and @ag-ui/core 1.0.0 judging:
//   1. HttpAgent.runAgent reads it (SSE parsing, the @ag-ui/core schemas in the enforcement stage, chunk expansion,
//      verifyEvents) without an error and without a warning (the client warns where it strips an undefined field,
//      drops an unknown event or works around a malformed one: material the producer sent is then lost);
//   2. the client reported the end of every run it saw start (onRunFinishedEvent or onRunErrorEvent);
//   3. the conversation runAgent rebuilds holds each message id once, and every run adds the same messages to the
//      thread's conversation as it does to an empty one (so no run appends to, or merges with, an earlier run's
//      messages or tool calls). Runs that rewrite the conversation (MESSAGES_SNAPSHOT, activity events) end this check
//      for the rest of their thread.
//
// Each verdict also says what the client itself did, apart from the checks 2 and 3 this script adds:
//   "client": "rejected"   runAgent failed (a schema, verifyEvents or SSE error);
//             "warned"     it read the stream but warned (material dropped or worked around);
//             "merged"     it read every run without error or warning, but the conversation it rebuilt merged a run's
//                          message or tool call into an earlier run's (check 3);
//             "duplicated" the same, but the conversation holds two messages with one id (check 3);
//             "accepted"   no error, no warning, one message per id; the stream may still fail check 2 (a run the
//                          stream left open: the client resolves runAgent as if it had finished).
// The kit's checker is deliberately stricter than the client on "merged", "duplicated" and an "accepted" stream that
// fails check 2 (docs/runtime.md#strictness); the agreement test tells those apart from disagreements.
import { readFileSync, realpathSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { AbstractAgent, HttpAgent } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { from } from "rxjs";

if (process.argv.length !== 3) {
  console.error("usage: node verdicts.mjs <manifest.json>");
  process.exit(2);
}
delete process.env.SUPPRESS_TRANSFORMATION_WARNINGS; // every warning counts

const manifestPath = realpathSync(process.argv[2]);
const root = dirname(manifestPath);
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));

/** Replays already-parsed events through runAgent's whole pipeline. */
class ReplayAgent extends AbstractAgent {
  events = [];
  run() {
    return from(this.events);
  }
}

/** Runs `action` with console.warn and console.error captured; returns [result or error, messages]. */
async function captured(action) {
  const messages = [];
  const warn = console.warn;
  const error = console.error;
  console.warn = (...args) => messages.push(args.map(String).join(" "));
  console.error = (...args) => messages.push(args.map(String).join(" "));
  try {
    return [await action(), messages, undefined];
  } catch (failure) {
    return [undefined, messages, failure];
  } finally {
    console.warn = warn;
    console.error = error;
  }
}

function fileOf(entry) {
  const path = realpathSync(resolve(root, entry.file));
  if (!path.startsWith(root + sep)) {
    throw new Error(`${entry.file} is outside the manifest's folder`);
  }
  return path;
}

/** Step 1 and 2: the client reads the stream over HTTP as it would read a server's. */
async function read(body) {
  const events = [];
  let open = false;
  let terminals = 0;
  const agent = new HttpAgent({
    url: "http://oracle.invalid/agui",
    fetch: async () => new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }),
  });
  const [, messages, failure] = await captured(() =>
    agent.runAgent({}, {
      onEvent: ({ event }) => {
        events.push(event);
      },
      onRunStartedEvent: () => {
        open = true;
      },
      onRunFinishedEvent: () => {
        open = false;
        terminals++;
      },
      onRunErrorEvent: () => {
        open = false;
        terminals++;
      },
    }),
  );
  if (failure !== undefined) {
    return { ok: false, client: "rejected", stage: "runAgent", reason: describe(failure) };
  }
  if (messages.length > 0) {
    return { ok: false, client: "warned", stage: "warning", reason: messages[0] };
  }
  if (open || terminals === 0) {
    return {
      ok: false,
      client: "accepted",
      stage: "terminal",
      reason: open ? "the stream ended while its run was active (no RUN_FINISHED or RUN_ERROR)"
        : "the stream carried no RUN_FINISHED or RUN_ERROR",
    };
  }
  // The events the client applied are schema-valid by construction; parse them once more with the schemas the
  // package exports, so a drift between enforcement and EventSchemas would show here.
  for (const event of events) {
    EventSchemas.parse(event);
  }
  return { ok: true, client: "accepted", events };
}

/** A failure in one line; a zod error as its issues' paths and messages. */
function describe(failure) {
  if (Array.isArray(failure?.issues)) {
    return failure.issues.map((issue) => `/${issue.path.join("/")}: ${issue.message}`).join("; ");
  }
  return String(failure?.message ?? failure).replace(/\s+/g, " ");
}

function runsOf(events) {
  const runs = [];
  for (const event of events) {
    if (event.type === "RUN_STARTED" || runs.length === 0) {
      runs.push([]);
    }
    runs.at(-1).push(event);
  }
  return runs;
}

function duplicateId(messages) {
  const seen = new Set();
  for (const message of messages) {
    if (seen.has(message.id)) {
      return message.id;
    }
    seen.add(message.id);
  }
  return undefined;
}

const canonical = (value) =>
  Array.isArray(value) ? `[${value.map(canonical).join(",")}]`
    : value !== null && typeof value === "object"
      ? `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`
      : JSON.stringify(value);

const bag = (messages) => messages.map(canonical).sort();

/** Step 3 for one run: alone on an empty conversation, then on the thread's. */
async function conversation(thread, run) {
  const echoed = new Set((run[0]?.input?.messages ?? []).map((message) => message.id));
  const alone = new ReplayAgent();
  alone.events = run;
  const [, aloneWarnings, aloneFailure] = await captured(() => alone.runAgent());
  if (aloneFailure !== undefined || aloneWarnings.length > 0) {
    return {
      client: aloneFailure !== undefined ? "rejected" : "warned",
      reason: `replayed alone, the run fails: ${aloneFailure !== undefined ? describe(aloneFailure) : aloneWarnings[0]}`,
    };
  }
  const added = alone.messages.filter((message) => !echoed.has(message.id));
  const duplicate = duplicateId(alone.messages);
  if (duplicate !== undefined) {
    return { client: "duplicated", reason: `the conversation the client rebuilds holds two messages with id '${duplicate}'` };
  }
  const before = thread.messages.map((message) => structuredClone(message));
  thread.events = run;
  const [, warnings, failure] = await captured(() => thread.runAgent());
  if (failure !== undefined || warnings.length > 0) {
    return {
      client: failure !== undefined ? "rejected" : "warned",
      reason: `after the earlier runs of its thread, the run fails: ${failure !== undefined ? describe(failure) : warnings[0]}`,
    };
  }
  const threadDuplicate = duplicateId(thread.messages);
  if (threadDuplicate !== undefined) {
    return {
      client: "duplicated",
      reason: `with the earlier runs of its thread, the conversation holds two messages with id '${threadDuplicate}'`,
    };
  }
  const expected = bag([...before, ...added]);
  const actual = bag(thread.messages);
  if (expected.length !== actual.length || expected.some((message, i) => message !== actual[i])) {
    const changed = thread.messages.filter((message) => !expected.includes(canonical(message))).map((m) => m.id);
    return {
      client: "merged",
      reason: `with the earlier runs of its thread, the client's conversation differs from the earlier one plus this `
        + `run's own messages (an id of an earlier run reused?); messages affected: ${JSON.stringify(changed)}`,
    };
  }
  return undefined;
}

const REWRITES = new Set(["MESSAGES_SNAPSHOT", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA"]);
let checked = 0;
let passed = 0;
for (const entry of manifest.threads) {
  const thread = new ReplayAgent();
  let modelled = true;
  for (const stream of entry.streams) {
    let verdict;
    try {
      verdict = await read(readFileSync(fileOf(stream)));
      if (verdict.ok && modelled) {
        for (const run of runsOf(verdict.events)) {
          if (run.some((event) => REWRITES.has(event.type))) {
            modelled = false;
            break;
          }
          const problem = await conversation(thread, run);
          if (problem !== undefined) {
            verdict = { ok: false, client: problem.client, stage: "conversation", reason: problem.reason };
            modelled = false; // the thread's state is no longer what the stream meant
            break;
          }
        }
      }
    } catch (failure) {
      verdict = { ok: false, client: "oracle", stage: "oracle", reason: describe(failure) };
    }
    delete verdict.events;
    checked++;
    passed += verdict.ok ? 1 : 0;
    process.stdout.write(JSON.stringify({ thread: entry.name, stream: stream.name, ...verdict }) + "\n");
  }
}
process.stdout.write(JSON.stringify({ summary: { checked, passed, failed: checked - passed } }) + "\n");
