"""The batch executor's rules and the policy aggregation (docs/design.md#batch-shared-executor and the batch clauses,
docs/design.md#policy-declared and the policy clauses),
observed with events and barriers: handlers wait for what the test releases, never for a sleep."""

import datetime as dt
import json
import threading
import unittest

import _path  # noqa: F401
from agentlab_wire import jsonutil
from agentlab_wire.kernel import (BatchCancelled, Definition, HandlerFailure, Kernel, Proposal, Resolution,
                                  TurnContext)

WAIT = 5   # a bound on waiting for what must happen; a test that passes never waits it out


class Log:
    """Handler starts and returns, in order, with the most running at once."""

    def __init__(self):
        self.lock = threading.Lock()
        self.entries = []
        self.running = 0
        self.most = 0
        self.started = {}

    def start(self, name):
        with self.lock:
            self.entries.append(("start", name))
            self.running += 1
            self.most = max(self.most, self.running)
            self.started.setdefault(name, threading.Event())
        self.started[name].set()

    def end(self, name):
        with self.lock:
            self.entries.append(("end", name))
            self.running -= 1

    def event(self, name):
        with self.lock:
            return self.started.setdefault(name, threading.Event())

    def index(self, kind, name):
        return self.entries.index((kind, name))

    def calls(self, name):
        return sum(1 for kind, n in self.entries if kind == "start" and n == name)


def probe(log, name, body=None, **kw):
    """A probe-like definition whose handler logs its start and return around ``body(invocation)``."""
    def handler(inv):
        log.start(name)
        try:
            return body(inv) if body else {"probe": name}
        finally:
            log.end(name)

    kw.setdefault("policy", "silent_success")
    policy = kw.pop("policy")
    if policy == "template_follow_up":
        kw.setdefault("confirmation", lambda a, p, loc: name + " done.")
    return Definition(name, "Probe " + name + ".", kw.pop("schema", {"type": "object"}), handler, policy, **kw)


def turn(turn_id="t1", session="s1"):
    return TurnContext(session, turn_id, dt.datetime(2026, 11, 30, 1, 0, tzinfo=dt.timezone.utc), "Asia/Shanghai",
                       "en", [], "words")


def batch(*names):
    return [Proposal("e%d" % (i + 1), n, {}) for i, n in enumerate(names)]


def statuses(results):
    return [r.outcome.status for r in results]


def fails(code, message, transient=False):
    def handler(inv):
        raise HandlerFailure(code, message, transient)
    return handler


def until_cancelled(inv):
    done = threading.Event()
    inv.cancel.on_cancel(done.set)
    done.wait(WAIT)
    raise HandlerFailure("interrupted", "interrupted")


class BatchExecutorTest(unittest.TestCase):
    def setUp(self):
        self.log = Log()

    def kernel(self, definitions, **kw):
        return Kernel(definitions, **kw)

    def test_results_in_input_order_whatever_order_they_finish_in(self):
        log = self.log
        k = self.kernel([probe(log, "p.first", lambda inv: log.event("p.last").wait(WAIT) and {}),
                         probe(log, "p.last")])
        results, decision = k.run_batch(batch("p.first", "p.last"), turn(), "x")
        self.assertEqual(["p.first", "p.last"], [r.name for r in results])
        self.assertLess(log.index("end", "p.last"), log.index("end", "p.first"))
        self.assertEqual(["succeeded", "succeeded"], statuses(results))
        self.assertEqual("complete", decision.kind)

    def test_concurrency_limit_and_input_order_dispatch(self):
        log = self.log
        gate = threading.Event()
        both = threading.Barrier(2, timeout=WAIT)

        def slow(inv):
            both.wait()      # the first two run together...
            gate.wait(WAIT)  # ...and hold their slots until released
            return {}

        defs = [probe(log, "p.a", slow), probe(log, "p.b", slow), probe(log, "p.c")]
        k = self.kernel(defs, concurrency=2)
        threading.Thread(target=lambda: (log.event("p.a").wait(WAIT), log.event("p.b").wait(WAIT),
                                         gate.set()), daemon=True).start()
        results, _ = k.run_batch(batch("p.a", "p.b", "p.c"), turn(), "x")
        self.assertEqual(["succeeded"] * 3, statuses(results))
        self.assertEqual(2, log.most)
        self.assertGreater(log.index("start", "p.c"), min(log.index("end", "p.a"), log.index("end", "p.b")))

    def test_default_limit_four_runs_four_at_once(self):
        log = self.log
        four = threading.Barrier(4, timeout=WAIT)
        defs = [probe(log, "p.%s" % n, lambda inv: four.wait() and {} or {}) for n in "abcd"]
        results, _ = self.kernel(defs).run_batch(batch("p.a", "p.b", "p.c", "p.d"), turn(), "x")
        self.assertEqual(["succeeded"] * 4, statuses(results))
        self.assertEqual(4, log.most)

    def test_conflict_keys_serialize_and_disjoint_keys_are_not_blocked(self):
        log = self.log
        lamp = lambda a: {"lamp"}  # noqa: E731
        # lamp_a returns only once fast has started: fast must not wait behind lamp_b, which waits for the key
        defs = [probe(log, "p.lamp_a", lambda inv: log.event("p.fast").wait(WAIT) and {} or {}, conflict_keys=lamp),
                probe(log, "p.lamp_b", conflict_keys=lamp), probe(log, "p.fast")]
        results, _ = self.kernel(defs).run_batch(batch("p.lamp_a", "p.lamp_b", "p.fast"), turn(), "x")
        self.assertEqual(["succeeded"] * 3, statuses(results))
        self.assertLess(log.index("start", "p.fast"), log.index("end", "p.lamp_a"))
        self.assertGreater(log.index("start", "p.lamp_b"), log.index("end", "p.lamp_a"))

    def test_keys_from_final_arguments(self):
        log = self.log
        keys = lambda a: {"device:%s" % a["device"]} if "device" in a else set()  # noqa: E731
        resolves = lambda inp: Resolution({"device": "kitchen"})  # noqa: E731
        defs = [probe(log, "p.dim_a", conflict_keys=keys, resolver=resolves),
                probe(log, "p.dim_b", conflict_keys=keys, resolver=resolves)]
        self.kernel(defs).run_batch(batch("p.dim_a", "p.dim_b"), turn(), "x")
        self.assertEqual(1, log.most)

    def test_terminal_starts_after_every_sibling_settled(self):
        log = self.log
        defs = [probe(log, "p.finish", terminal=True, policy="terminate"),
                probe(log, "p.slow", lambda inv: log.event("p.other").wait(WAIT) and {} or {}),
                probe(log, "p.other"),
                probe(log, "p.stuck", until_cancelled, timeout_s=0.2)]
        results, decision = self.kernel(defs).run_batch(batch("p.finish", "p.slow", "p.other", "p.stuck"), turn(),
                                                         "x")
        self.assertEqual(["succeeded", "succeeded", "succeeded", "timed_out"], statuses(results))
        for sibling in ("p.slow", "p.other", "p.stuck"):
            self.assertGreater(log.index("start", "p.finish"), log.index("end", sibling))
        self.assertEqual("end_session", decision.kind)

    def test_event_timeout_interrupts_the_handler_and_isolates_it(self):
        log = self.log
        interrupted = threading.Event()

        def stuck(inv):
            inv.cancel.on_cancel(interrupted.set)
            return until_cancelled(inv)

        defs = [probe(log, "p.stuck", stuck, timeout_s=0.15), probe(log, "p.fast"),
                probe(log, "p.broken", fails("probe_failed", "as declared"))]
        results, decision = self.kernel(defs).run_batch(batch("p.stuck", "p.fast", "p.broken"), turn(), "x")
        self.assertEqual(["timed_out", "succeeded", "failed"], statuses(results))
        self.assertEqual(("event", 150), (results[0].outcome.scope, results[0].outcome.limit_ms))
        self.assertTrue(interrupted.is_set())
        self.assertEqual("follow_up", decision.kind)
        self.assertEqual(["correction"], decision.reasons)
        self.assertEqual({"code": "timed_out", "limit_ms": 150, "scope": "event"}, decision.summary[0]["error"])

    def test_batch_deadline_keeps_finished_siblings_and_an_unstarted_event_runs_on_retransmission(self):
        log = self.log
        lamp = lambda a: {"lamp"}  # noqa: E731
        defs = [probe(log, "p.long", until_cancelled, timeout_s=30, conflict_keys=lamp),
                probe(log, "p.lamp", conflict_keys=lamp), probe(log, "p.fast")]
        k = self.kernel(defs, batch_deadline_s=1.0)   # wide: p.fast must finish well within it
        results, decision = k.run_batch(batch("p.long", "p.lamp", "p.fast"), turn(), "x")
        self.assertEqual(["timed_out", "timed_out", "succeeded"], statuses(results))
        self.assertEqual(["batch", "batch"], [r.outcome.scope for r in results[:2]])
        self.assertEqual([True, False], [r.outcome.started for r in results[:2]])
        self.assertEqual(0, log.calls("p.lamp"))
        self.assertEqual({"code": "timed_out", "limit_ms": 1000, "scope": "batch"}, decision.summary[0]["error"])
        log.event("p.long").clear()
        results, _ = k.run_batch(batch("p.long", "p.lamp", "p.fast"), turn(), "x")
        self.assertEqual(["replayed", "succeeded", "replayed"], statuses(results))
        self.assertEqual("timed_out", results[0].outcome.effective().status)
        self.assertEqual(1, log.calls("p.long"))

    def test_exact_duplicates_execute_once(self):
        log = self.log
        k = self.kernel([probe(log, "p.fast")])
        results, _ = k.run_batch(batch("p.fast", "p.fast"), turn(), "x")
        self.assertEqual(["succeeded", "deduplicated"], statuses(results))
        self.assertEqual(1, results[1].outcome.duplicate_of)
        self.assertEqual(1, log.calls("p.fast"))

    def test_equal_arguments_without_a_source_are_asked_about(self):
        log = self.log
        k = self.kernel([probe(log, "p.memo", resolver=lambda inp: Resolution({"title": "milk"}))])
        results, decision = k.run_batch(batch("p.memo", "p.memo"), turn(), "x")
        self.assertEqual(["succeeded", "needs_clarification"], statuses(results))
        self.assertIn("did you want it once, or twice", results[1].outcome.question)
        self.assertEqual(["clarification"], decision.reasons)
        self.assertEqual(1, log.calls("p.memo"))

    def test_equal_arguments_from_one_source_coalesce(self):
        log = self.log
        k = self.kernel([probe(log, "p.vol", resolver=lambda inp: Resolution({"v": 30}, source="request 1"))])
        results, _ = k.run_batch(batch("p.vol", "p.vol"), turn(), "x")
        self.assertEqual(["succeeded", "deduplicated"], statuses(results))

    def test_replay_scope_is_session_turn_event_id_and_arguments(self):
        log = self.log
        k = self.kernel([probe(log, "p.fast"), probe(log, "p.slow")])
        k.run_batch(batch("p.fast"), turn("t1"), "x")
        results, decision = k.run_batch(batch("p.fast"), turn("t1"), "x")
        self.assertEqual(["replayed"], statuses(results))
        self.assertEqual("complete", decision.kind)
        self.assertEqual(1, log.calls("p.fast"))
        results, _ = k.run_batch(batch("p.slow", "p.fast"), turn("t1"), "x")   # fast is e2 now: it runs
        self.assertEqual(["succeeded", "succeeded"], statuses(results))
        results, _ = k.run_batch(batch("p.fast"), turn("t2"), "x")             # a new turn runs it
        self.assertEqual(["succeeded"], statuses(results))
        self.assertEqual(3, log.calls("p.fast"))

    def test_read_only_retried_once_side_effect_never(self):
        log = self.log
        flaky = lambda inv: (_ for _ in ()).throw(HandlerFailure("busy", "busy", transient=True))  # noqa: E731
        defs = [probe(log, "p.read", flaky, read_only=True), probe(log, "p.write", flaky)]
        results, _ = self.kernel(defs).run_batch(batch("p.read", "p.write"), turn(), "x")
        self.assertEqual(["failed", "failed"], statuses(results))
        self.assertEqual((2, 1), (log.calls("p.read"), log.calls("p.write")))
        self.assertEqual("busy", results[1].outcome.reason())

    def test_a_throwing_handler_fails_with_a_code(self):
        def throws(inv):
            raise RuntimeError("boom")

        results, _ = self.kernel([probe(self.log, "p.throws", throws)]).run_batch(batch("p.throws"), turn(), "x")
        self.assertEqual(("failed", "handler_exception"), (results[0].outcome.status, results[0].outcome.code))

    def test_unknown_event_rejected_listing_the_registered_names(self):
        k = self.kernel([probe(self.log, "p.fast"), probe(self.log, "p.note_b")])
        results, decision = k.run_batch(batch("p.teleport", "p.fast"), turn(), "x")
        self.assertEqual(["rejected", "succeeded"], statuses(results))
        self.assertEqual("unknown_event", results[0].outcome.code)
        self.assertIn("no event named 'p.teleport' is registered; known: p.fast, p.note_b", decision.summary_json)

    def test_oversized_batch_refused_whole(self):
        k = self.kernel([probe(self.log, "p.fast")])
        results, _ = k.run_batch(batch(*["p.fast"] * 65), turn(), "x")
        self.assertEqual({"rejected"}, set(statuses(results)))
        self.assertEqual(0, self.log.calls("p.fast"))

    def test_cancellation_interrupts_and_starts_nothing_more(self):
        log = self.log
        from agentlab_wire.provider import Cancellable
        cancel = Cancellable()
        interrupted = threading.Event()

        def stuck(inv):
            inv.cancel.on_cancel(interrupted.set)
            return until_cancelled(inv)

        k = self.kernel([probe(log, "p.stuck", stuck, timeout_s=30), probe(log, "p.after", terminal=True,
                                                                           policy="terminate")])
        threading.Thread(target=lambda: log.event("p.stuck").wait(WAIT) and cancel.cancel(), daemon=True).start()
        with self.assertRaises(BatchCancelled):
            k.run_batch(batch("p.stuck", "p.after"), turn(), "x", cancel=cancel)
        self.assertTrue(interrupted.wait(WAIT))
        self.assertEqual(0, log.calls("p.after"))
        results, _ = k.run_batch([Proposal("e1", "p.after", {})], turn(), "x")   # a cancelled event may run again
        self.assertEqual(["succeeded"], statuses(results))


class PipelineTest(unittest.TestCase):
    def setUp(self):
        self.log = Log()
        self.fallback_calls = []

    def fallback(self, answer):
        def call(definition, arguments, missing, turn, timeout_s, cancel):
            self.fallback_calls.append((definition.name, dict(arguments), list(missing)))
            return answer
        return call

    SCHEMA = {"type": "object", "properties": {"title": {"type": "string"}, "time": {"type": "string",
              "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}}, "required": ["title", "time"]}

    def test_proposed_values_win_and_the_resolver_fills_the_rest(self):
        d = probe(self.log, "p.note", schema=self.SCHEMA,
                  resolver=lambda inp: Resolution({"title": "milk", "time": "09:00"}))
        results, _ = Kernel([d]).run_batch([Proposal("c1", "p.note", {"time": "10:00"})], turn(), "x")
        self.assertEqual({"title": "milk", "time": "10:00"}, results[0].arguments)

    def test_invalid_value_rejected_naming_the_field_and_never_sent_to_the_fallback(self):
        d = probe(self.log, "p.note", schema=self.SCHEMA, fallback_allowed=True)
        k = Kernel([d], fallback=self.fallback({"title": "x"}))
        results, _ = k.run_batch([Proposal("c1", "p.note", {"time": "25:00"})], turn(), "x")
        self.assertEqual(("rejected", "invalid_arguments"), (results[0].outcome.status, results[0].outcome.code))
        self.assertIn("/time", results[0].outcome.message)
        self.assertEqual([], self.fallback_calls)

    def test_fallback_fills_only_what_is_absent(self):
        d = probe(self.log, "p.note", schema=self.SCHEMA, fallback_allowed=True,
                  resolver=lambda inp: Resolution({"time": "09:00"}))
        k = Kernel([d], fallback=self.fallback({"title": "Reminder", "time": "10:00"}))
        results, _ = k.run_batch(batch("p.note"), turn(), "x")
        self.assertEqual({"title": "Reminder", "time": "09:00"}, results[0].arguments)
        self.assertEqual("fallback", results[0].resolution)
        self.assertEqual([("p.note", {"time": "09:00"}, ["title"])], self.fallback_calls)

    def test_still_missing_asks_the_resolvers_question(self):
        d = probe(self.log, "p.note", schema=self.SCHEMA, fallback_allowed=True,
                  resolver=lambda inp: Resolution({}, question="What and when?"))
        results, decision = Kernel([d], fallback=self.fallback({})).run_batch(batch("p.note"), turn(), "x")
        self.assertEqual(("needs_clarification", "What and when?"),
                         (results[0].outcome.status, results[0].outcome.question))
        self.assertEqual(["time", "title"], decision.summary[0]["missing"])
        self.assertEqual(0, self.log.calls("p.note"))

    def test_no_fallback_when_the_definition_forbids_it(self):
        d = probe(self.log, "p.ask", required=("device",))
        results, _ = Kernel([d], fallback=self.fallback({"device": "x"})).run_batch(batch("p.ask"), turn(), "x")
        self.assertEqual("needs_clarification", results[0].outcome.status)
        self.assertEqual("incomplete", results[0].resolution)
        self.assertEqual([], self.fallback_calls)

    def test_a_throwing_resolver_rejects_its_event(self):
        def broken(inp):
            raise ValueError("no")
        results, _ = Kernel([probe(self.log, "p.x", resolver=broken)]).run_batch(batch("p.x"), turn(), "x")
        self.assertEqual(("rejected", "resolution_error"), (results[0].outcome.status, results[0].outcome.code))


class PolicyTest(unittest.TestCase):
    def setUp(self):
        self.log = Log()

    def test_templates_first_in_input_order_then_one_follow_up(self):
        defs = [probe(self.log, "p.note", policy="template_follow_up"),
                probe(self.log, "p.note_b", policy="template_follow_up"),
                probe(self.log, "p.lookup", policy="llm_follow_up", read_only=True)]
        results, d = Kernel(defs).run_batch(batch("p.note", "p.lookup", "p.note_b"), turn(), "x")
        self.assertEqual("follow_up", d.kind)
        self.assertEqual(["p.note done.", "p.note_b done."], [t for _, t in d.confirmations])
        self.assertEqual(["synthesis"], d.reasons)
        self.assertEqual(["confirmed", "result", "confirmed"],
                         [[k for k in ("confirmed", "result") if k in i][0] for i in d.summary])

    def test_termination_suppresses_the_follow_up_but_keeps_confirmations(self):
        defs = [probe(self.log, "p.note", policy="template_follow_up"),
                probe(self.log, "p.lookup", policy="llm_follow_up"),
                probe(self.log, "p.finish", policy="terminate", terminal=True)]
        _, d = Kernel(defs).run_batch(batch("p.note", "p.lookup", "p.finish"), turn(), "x")
        self.assertEqual(("end_session", ["p.note done."]), (d.kind, [t for _, t in d.confirmations]))

    def test_a_blank_template_falls_back_to_synthesis(self):
        defs = [probe(self.log, "p.blank", policy="template_follow_up", confirmation=lambda a, p, l: "")]
        _, d = Kernel(defs).run_batch(batch("p.blank"), turn(), "x")
        self.assertEqual(("follow_up", ["synthesis"], []), (d.kind, d.reasons, d.confirmations))

    def test_hidden_failure_message(self):
        fail = lambda inv: (_ for _ in ()).throw(HandlerFailure("probe_failed", "failed as declared"))  # noqa: E731
        _, d = Kernel([probe(self.log, "p.secret", fail, failure_visible=False)]).run_batch(batch("p.secret"),
                                                                                          turn(), "x")
        self.assertEqual({"code": "probe_failed", "message": "the action could not be completed"},
                         d.summary[0]["error"])
        self.assertNotIn("failed as declared", d.summary_json)

    def test_a_deduplicated_copy_of_a_failure_is_counted_once(self):
        fail = lambda inv: (_ for _ in ()).throw(HandlerFailure("probe_failed", "x"))  # noqa: E731
        _, d = Kernel([probe(self.log, "p.broken", fail)]).run_batch(batch("p.broken", "p.broken"), turn(), "x")
        self.assertEqual([{"id": "e1", "event": "p.broken", "status": "failed",
                           "error": {"code": "probe_failed", "message": "x"}}], d.summary)

    def test_silent_success_completes(self):
        _, d = Kernel([probe(self.log, "p.fast")]).run_batch(batch("p.fast"), turn(), "x")
        self.assertEqual(("complete", []), (d.kind, d.confirmations))

    def test_summary_stays_within_its_bound(self):
        fail = lambda inv: (_ for _ in ()).throw(HandlerFailure("probe_failed", "y" * 900))  # noqa: E731
        defs = [probe(self.log, "p.f%d" % i, fail) for i in range(40)]
        _, d = Kernel(defs, concurrency=16).run_batch(batch(*["p.f%d" % i for i in range(40)]), turn(), "x")
        self.assertLessEqual(len(d.summary_json), 4000)
        self.assertEqual(jsonutil.canonical(json.loads(d.summary_json)), d.summary_json)


if __name__ == "__main__":
    unittest.main()
