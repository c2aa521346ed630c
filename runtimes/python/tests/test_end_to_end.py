"""End to end over HTTP (docs/wire.md): the runtime, a scripted provider and the port stand-ins, all served by the
test on 127.0.0.1:0; each turn is a RunAgentInput POST whose SSE stream is read back and checked."""

import http.client
import itertools
import json
import threading
import unittest

import _path  # noqa: F401
from fakes import text_stream
from harness import Harness, results, types, visible

WAIT = 5
_threads = itertools.count(1)


class Script:
    """Provider answers by (role, last user text, mode): a list of SSE data payloads or a fault dict."""

    def __init__(self):
        self.answers = {}

    def __call__(self, role, body):
        text = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
        mode = "chat_agent_tools" if "tools" in body else "dual_agent"
        for key in ((role, text, mode), (role, text, None), (role, None, None)):
            if key in self.answers:
                answer = self.answers[key]
                return answer(body) if callable(answer) else answer
        return {"status": 409}

    def on(self, role, text, answer, mode=None):
        self.answers[(role, text, mode)] = answer


class EndToEndTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.script = Script()
        cls.h = Harness(cls.script)

    @classmethod
    def tearDownClass(cls):
        cls.h.close()

    def setUp(self):
        self.h.ports.faults.clear()
        self.h.ports.gates.clear()

    def thread(self):
        return "t%d" % next(_threads)

    def both(self, words, visible_text, events, arguments=None, follow_up=None):
        """Scripts the reply in both modes: a hidden block, or tool calls with ``arguments``."""
        self.script.on("chat", words, text_stream(visible_text, events=events), "dual_agent")
        calls = [("call_%d" % (i + 1), name.replace(".", "_"), json.dumps((arguments or {}).get(name, {})))
                 for i, name in enumerate(events)]
        self.script.on("chat", words, text_stream(visible_text, tool_calls=calls), "chat_agent_tools")
        if follow_up:
            self.script.on("follow_up", words, text_stream(follow_up))

    def test_capabilities(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.h.port, timeout=5)
        conn.request("GET", "/agentlab/capabilities")
        answer = json.loads(conn.getresponse().read())
        conn.close()
        self.assertEqual("agentlab-wire/1", answer["contract"])
        self.assertTrue(answer["probes"])
        self.assertEqual({"session.terminate", "device.volume.adjust", "calendar.schedule.create",
                          "knowledge.web.search"}, {e["name"] for e in answer["events"]})

    def test_sse_frames_carry_id_event_and_data(self):
        self.script.on("chat", "hello there", text_stream("Hi! Nice to hear you."))
        body = {"threadId": self.thread(), "runId": "r-frames", "messages": [{"id": "u", "role": "user",
                                                                              "content": "hello there"}],
                "state": {}, "tools": [], "context": [], "forwardedProps": {"agentlab": self.h.props()}}
        conn = http.client.HTTPConnection("127.0.0.1", self.h.port, timeout=10)
        conn.request("POST", "/agui", body=json.dumps(body), headers={"Content-Type": "application/json"})
        raw = conn.getresponse().read().decode()
        conn.close()
        frames = [f for f in raw.split("\n\n") if f.strip()]
        first = frames[0].split("\n")
        self.assertEqual(["id: 1", "event: RUN_STARTED"], first[:2])
        self.assertEqual({"type": "RUN_STARTED", "threadId": body["threadId"], "runId": "r-frames",
                          "protocolVersion": "1.0"}, json.loads(first[2][len("data: "):]))
        self.assertIn("event: RUN_FINISHED", frames[-1])

    def test_a_client_reconnecting_with_last_event_id_gets_the_events_after_it(self):
        self.script.on("chat", "hello again", text_stream("Hi! Nice to hear you again."))
        thread = self.thread()
        run, events = self.h.turn(thread, "hello again", self.h.props())
        body = {"threadId": thread, "runId": run, "messages": [{"id": "u", "role": "user", "content": "hello again"}],
                "state": {}, "tools": [], "context": [], "forwardedProps": {"agentlab": self.h.props()}}
        conn = http.client.HTTPConnection("127.0.0.1", self.h.port, timeout=10)
        conn.request("POST", "/agui", body=json.dumps(body), headers={"Content-Type": "application/json",
                                                                      "Last-Event-ID": "3"})
        raw = conn.getresponse().read().decode()
        conn.close()
        frames = [f for f in raw.split("\n\n") if f.strip()]
        self.assertEqual("id: 4", frames[0].split("\n")[0])
        self.assertEqual(events[3:], [json.loads(f.split("\n")[2][len("data: "):]) for f in frames])
        self.assertEqual(1, sum(1 for r, b, _ in self.h.provider.requests
                                if r == "chat" and b["messages"][-1]["content"] == "hello again"))

    def test_volume_in_both_modes(self):
        self.both("set the volume to 30", "Volume 30.", ["device.volume.adjust"],
                  {"device.volume.adjust": {"mode": "absolute", "value": "30%"}})
        for mode in ("dual_agent", "chat_agent_tools"):
            with self.subTest(mode=mode):
                thread = self.thread()
                run, events = self.h.turn(thread, "set the volume to 30", self.h.props(mode))
                self.assertEqual(["RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START"], types(events)[:3])
                self.assertEqual(run, events[0]["runId"])
                self.assertEqual("Volume 30.", visible(events, "chat").strip())
                self.assertNotIn("[[", visible(events))
                name, args, content = results(events)[0]
                self.assertEqual(("device.volume.adjust", {"mode": "absolute", "value": 30}), (name, args))
                self.assertEqual({"status": "success", "outcome": "succeeded"}, content)
                self.assertEqual(["TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT"],
                                 [t for t in types(events) if t.startswith("TOOL_CALL")])
                self.assertEqual({"type": "RUN_FINISHED", "threadId": thread, "runId": run,
                                  "outcome": {"type": "success"}}, events[-1])
                call = [b for p, b in self.h.ports.calls if b.get("sessionId") == thread][0]
                self.assertEqual(("absolute", 30, None), (call["mode"], call["value"], call["delta"]))
                self.assertEqual(64, len(call["idempotencyKey"]))

    def test_the_first_answer_reaches_the_client_before_the_event_returns(self):
        self.both("search the weather in Paris", "Let me look that up.", ["knowledge.web.search"],
                  {"knowledge.web.search": {"query": "the weather in Paris"}}, follow_up="It is mild in Paris.")
        for mode in ("dual_agent", "chat_agent_tools"):
            with self.subTest(mode=mode):
                seen = threading.Event()
                self.h.ports.gates["/search"] = seen   # the search answers only once the client saw the first text
                _, events = self.h.turn(self.thread(), "search the weather in Paris", self.h.props(mode),
                                        on_event=lambda e: e["type"] == "TEXT_MESSAGE_CONTENT" and seen.set())
                self.assertEqual("succeeded", results(events)[0][2]["outcome"])
                self.assertEqual("It is mild in Paris.", visible(events, "follow_up"))
                self.assertIn("STEP_STARTED", types(events)[types(events).index("TOOL_CALL_RESULT"):])

    def test_follow_up_request_carries_the_compact_results(self):
        self.both("set the volume to 20 and search the weather in Paris", "On it.",
                  ["device.volume.adjust", "knowledge.web.search"],
                  {"device.volume.adjust": {"mode": "absolute", "value": 20},
                   "knowledge.web.search": {"query": "the weather in Paris"}}, follow_up="Offline, but mild.")
        self.h.ports.faults["/device/volume"] = {"code": "device_offline", "message": "no answer"}
        for mode in ("dual_agent", "chat_agent_tools"):
            with self.subTest(mode=mode):
                before = len(self.h.provider.requests)
                _, events = self.h.turn(self.thread(), "set the volume to 20 and search the weather in Paris",
                                        self.h.props(mode))
                (n1, _, r1), (n2, _, r2) = results(events)
                self.assertEqual(("failure", "failed", "device_offline"), (r1["status"], r1["outcome"], r1["reason"]))
                self.assertEqual("success", r2["status"])
                role, body, headers = self.h.provider.requests[-1]
                self.assertEqual(before + 2, len(self.h.provider.requests))
                self.assertEqual("follow_up", role)
                self.assertEqual("set the volume to 20 and search the weather in Paris",
                                 [m for m in body["messages"] if m["role"] == "user"][-1]["content"])
                if mode == "dual_agent":
                    system = body["messages"][-1]["content"]
                    items = json.loads(system[system.rindex("Results: ") + len("Results: "):])
                    self.assertNotIn("tools", body)
                else:
                    items = [json.loads(m["content"]) for m in body["messages"] if m["role"] == "tool"]
                    self.assertIn("tools", body)
                offline = {"code": "device_offline", "message": "no answer"}
                self.assertEqual([("device.volume.adjust", "failed", offline),
                                  ("knowledge.web.search", "succeeded", None)],
                                 [(i["event"], i["status"], i.get("error")) for i in items])
                self.assertEqual("the weather in Paris", items[1]["result"]["query"])

    def test_read_only_retried_once_side_effect_never(self):
        self.both("search the weather in Oslo", "Looking.", ["knowledge.web.search"],
                  {"knowledge.web.search": {"query": "the weather in Oslo"}}, follow_up="Busy, sorry.")
        self.h.ports.faults["/search"] = {"code": "search_busy", "transient": True}
        before = self.h.ports.count("/search")
        _, events = self.h.turn(self.thread(), "search the weather in Oslo", self.h.props())
        self.assertEqual("search_busy", results(events)[0][2]["reason"])
        self.assertEqual(before + 2, self.h.ports.count("/search"))

    def test_terminal_event_ends_the_session(self):
        self.both("okay, goodbye Pip", "Bye bye!", ["session.terminate"])
        thread = self.thread()
        _, events = self.h.turn(thread, "okay, goodbye Pip", self.h.props("chat_agent_tools"))
        self.assertEqual(("session.terminate", {}, "succeeded"), (results(events)[0][0], results(events)[0][1],
                                                                  results(events)[0][2]["outcome"]))
        self.assertNotIn("follow_up", [e.get("stepName") for e in events])
        _, events = self.h.turn(thread, "hello", self.h.props("chat_agent_tools"))
        self.assertEqual(("RUN_ERROR", "session_ended"), (events[-1]["type"], events[-1]["code"]))

    def test_retransmission_is_replayed_under_a_new_run(self):
        self.both("remind me tomorrow at 9am to call grandma", "Sure, I'll remind you.",
                  ["calendar.schedule.create"],
                  {"calendar.schedule.create": {"title": "call grandma", "date": "2026-12-01", "time": "09:00",
                                                "timezone": "Asia/Shanghai"}})
        for mode in ("dual_agent", "chat_agent_tools"):
            with self.subTest(mode=mode):
                thread = self.thread()
                run, first = self.h.turn(thread, "remind me tomorrow at 9am to call grandma", self.h.props(mode))
                self.assertEqual("succeeded", results(first)[0][2]["outcome"])
                self.assertIn('Added "call grandma" on Tuesday, December 1 at 09:00.', visible(first, "events"))
                calls = self.h.ports.count("/calendar/entries")
                _, again = self.h.turn(thread, "remind me tomorrow at 9am to call grandma",
                                       self.h.props(mode, retransmit_of=run), run_id=run + "-r1")
                self.assertEqual(run + "-r1", again[0]["runId"])
                self.assertEqual({"status": "success", "outcome": "replayed"}, results(again)[0][2])
                self.assertEqual(calls, self.h.ports.count("/calendar/entries"))
                self.assertNotIn("Added", visible(again))
                first_ids = {e.get("toolCallId") for e in first} | {e.get("messageId") for e in first}
                again_ids = {e.get("toolCallId") for e in again} | {e.get("messageId") for e in again}
                self.assertEqual({None}, first_ids & again_ids)

    def test_interrupt_while_an_event_runs_closes_what_is_open(self):
        probe = {"name": "probe.stuck", "description": "hangs", "schema": {"type": "object"},
                 "policy": "silent_success", "terminal": False, "readOnly": False, "timeoutMs": 10000,
                 "conflictKeys": [], "requiredFields": [], "fallback": False, "failureVisible": True,
                 "resolves": {}, "confirmation": None}
        self.script.on("chat", "wait for the stuck probe", text_stream("Working on it.", events=["probe.stuck"]))
        self.h.ports.faults["/probe/probe.stuck"] = {"hang": True}
        arrived = self.h.ports.arrival("/probe/probe.stuck")
        arrived.clear()
        thread = self.thread()
        props = self.h.props(events=[], probes=[probe])

        def interrupt():
            if arrived.wait(WAIT):
                self.h.post("/agentlab/interrupt", {"threadId": thread, "runId": "r-stuck"})

        threading.Thread(target=interrupt, daemon=True).start()
        _, events = self.h.turn(thread, "wait for the stuck probe", props, run_id="r-stuck")
        self.assertEqual({"type": "RUN_FINISHED", "threadId": thread, "runId": "r-stuck",
                          "outcome": {"type": "cancelled"}}, events[-1])
        self.assertEqual(["TOOL_CALL_START", "TOOL_CALL_END", "STEP_FINISHED", "RUN_FINISHED"], types(events)[-4:])
        status, answer = self.h.post("/agentlab/interrupt", {"threadId": thread, "runId": "r-stuck"})
        self.assertEqual((200, False), (status, answer["interrupted"]))

    def test_provider_failure_ends_the_run_and_the_next_turn_works_with_history_intact(self):
        self.script.on("chat", "fault 429", {"status": 429})
        self.script.on("chat", "hello", text_stream("Hi again!"))
        thread = self.thread()
        _, events = self.h.turn(thread, "fault 429", self.h.props())
        self.assertEqual(("RUN_ERROR", "provider_http_429"), (events[-1]["type"], events[-1]["code"]))
        _, events = self.h.turn(thread, "hello", self.h.props())
        self.assertEqual("RUN_FINISHED", events[-1]["type"])
        body = self.h.provider.requests[-1][1]
        self.assertEqual(["system", "user"], [m["role"] for m in body["messages"]])

    def test_fallback_call_and_its_context(self):
        self.script.on("chat", "please turn the music up a bit",
                       text_stream("A little louder for the music.", events=["device.volume.adjust"]))
        self.script.on("chat", "remind me tomorrow at 9am",
                       text_stream("Sure, I'll remind you.", events=["calendar.schedule.create"]))
        self.script.on("event_agent", "remind me tomorrow at 9am", text_stream('```json\n{"title": "Reminder", '
                                                                               '"time": "10:00"}\n```'))
        thread = self.thread()
        self.h.turn(thread, "please turn the music up a bit", self.h.props())
        _, events = self.h.turn(thread, "remind me tomorrow at 9am", self.h.props())
        self.assertEqual({"date": "2026-12-01", "time": "09:00", "timezone": "Asia/Shanghai", "title": "Reminder"},
                         results(events)[0][1])
        role, body, _ = [r for r in self.h.provider.requests if r[0] == "event_agent"][-1]
        text = "\n".join(m["content"] for m in body["messages"])
        self.assertIn("please turn the music up a bit", text)
        self.assertIn("A little louder for the music.", text)
        self.assertEqual("remind me tomorrow at 9am", body["messages"][-1]["content"])
        self.assertNotIn("tools", body)

    def test_a_stalled_fallback_is_ended_by_its_bound_and_asked_about(self):
        self.script.on("chat", "do something about the sound",
                       text_stream("Sure.", events=["device.volume.adjust"]))
        self.script.on("event_agent", "do something about the sound", {"events": [], "stall": True})
        self.script.on("follow_up", "do something about the sound", text_stream("Up or down?"))
        _, events = self.h.turn(self.thread(), "do something about the sound", self.h.props(fallbackTimeoutMs=300))
        self.assertEqual("partial", results(events)[0][2]["status"])
        self.assertEqual("Up or down?", visible(events, "follow_up"))

    def test_tools_mode_ids_aliases_and_unparsable_arguments(self):
        calls = [("e1", "probe_fast", "{}"), ("e1", "probe.slow", "{}"), ("", "device_volume_adjust", "{bad")]
        self.script.on("chat", "set the volume to 25 and run both probes", text_stream("All three.", tool_calls=calls))
        probe = lambda n: {"name": n, "schema": {"type": "object"}, "policy": "silent_success",  # noqa: E731
                           "timeoutMs": 2000}
        _, events = self.h.turn(self.thread(), "set the volume to 25 and run both probes",
                                self.h.props("chat_agent_tools", events=["device.volume.adjust"],
                                             probes=[probe("probe.fast"), probe("probe.slow")]))
        out = results(events)
        self.assertEqual(["probe.fast", "probe.slow", "device.volume.adjust"], [n for n, _, _ in out])
        self.assertEqual({"mode": "absolute", "value": 25}, out[2][1])
        ids = [e["toolCallId"] for e in events if e["type"] == "TOOL_CALL_START"]
        self.assertEqual(3, len(set(ids)))

    def test_unknown_event_and_probe_traits(self):
        specs = [{"name": "probe.throws", "schema": {"type": "object"}, "policy": "silent_success",
                  "timeoutMs": 2000},
                 {"name": "probe.note", "schema": {"type": "object"}, "policy": "template_follow_up",
                  "timeoutMs": 2000, "confirmation": None}]
        self.script.on("chat", "teleport, throw and note",
                       text_stream("Trying.", events=["probe.teleport", "probe.throws", "probe.note"]))
        self.script.on("follow_up", "teleport, throw and note", text_stream("Two failed."))
        self.h.ports.faults["/probe/probe.throws"] = {"throw": True}
        _, events = self.h.turn(self.thread(), "teleport, throw and note", self.h.props(events=[], probes=specs))
        out = results(events)
        self.assertEqual(("rejected", "unknown_event"), (out[0][2]["outcome"], out[0][2]["reason"]))
        self.assertEqual(("failed", "handler_exception"), (out[1][2]["outcome"], out[1][2]["reason"]))
        self.assertEqual("succeeded", out[2][2]["outcome"])
        self.assertEqual("probe.note done.", visible(events, "events"))
        system = self.h.provider.requests[-1][1]["messages"][-1]["content"]
        self.assertIn("no event named 'probe.teleport' is registered; known: probe.note, probe.throws", system)


if __name__ == "__main__":
    unittest.main()
