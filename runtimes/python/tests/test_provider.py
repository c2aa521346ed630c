"""docs/design.md#provider-streaming-client, #provider-fault-codes, #provider-tolerated-streams: the tool-call
accumulator and the streaming client against a provider served by the test."""

import threading
import unittest

import _path  # noqa: F401
from agentlab_wire.provider import Cancellable, ProviderClient, ProviderError, ToolCallAccumulator
from fakes import FakeProvider, chunk, text_stream


class AccumulatorTest(unittest.TestCase):
    def test_by_index_with_id_and_name_from_the_first_delta(self):
        acc = ToolCallAccumulator()
        acc.add({"index": 0, "id": "call_a", "type": "function", "function": {"name": "x_y", "arguments": ""}})
        acc.add({"index": 1, "id": "call_b", "type": "function", "function": {"name": "p_q", "arguments": "{\"q\""}})
        acc.add({"index": 0, "function": {"arguments": "{\"a\":"}})
        acc.add({"index": 1, "function": {"arguments": ":1}"}})
        acc.add({"index": 0, "function": {"arguments": "2}"}})
        self.assertEqual([("call_a", "x_y", '{"a":2}'), ("call_b", "p_q", '{"q":1}')],
                         [(c["id"], c["name"], c["arguments"]) for c in acc.calls()])

    def test_dashscope_continuations_repeat_an_empty_id(self):
        acc = ToolCallAccumulator()
        acc.add({"index": 0, "id": "call_1", "type": "function", "function": {"name": "a_b", "arguments": ""}})
        acc.add({"index": 0, "id": "", "type": "function", "function": {"arguments": "{\"v\":30}"}})
        acc.add({"index": 1, "id": "call_2", "type": "function", "function": {"name": "c_d", "arguments": "{}"}})
        self.assertEqual(["call_1", "call_2"], [c["id"] for c in acc.calls()])
        self.assertEqual('{"v":30}', acc.calls()[0]["arguments"])

    def test_without_index_only_ids_tell_a_new_call(self):
        acc = ToolCallAccumulator()
        acc.add({"id": "call_1", "function": {"name": "a_b", "arguments": "{\"m\":"}})
        acc.add({"id": "", "function": {"arguments": "1}"}})
        acc.add({"id": "call_2", "function": {"name": "c_d", "arguments": "{"}})
        acc.add({"function": {"arguments": "}"}})
        self.assertEqual([("call_1", "a_b", '{"m":1}'), ("call_2", "c_d", "{}")],
                         [(c["id"], c["name"], c["arguments"]) for c in acc.calls()])

    def test_a_call_without_id_gets_call_index(self):
        acc = ToolCallAccumulator()
        acc.add({"index": 3, "function": {"name": "a_b", "arguments": "{}"}})
        self.assertEqual("call_3", acc.calls()[0]["id"])


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.answers = {}
        self.provider = FakeProvider(lambda role, body: self.answers[body["messages"][-1]["content"]])
        self.client = ProviderClient(self.provider.url + "/v1", idle_timeout=5)

    def tearDown(self):
        self.provider.close()

    def call(self, text, **kw):
        return self.client.stream({"model": "m", "messages": [{"role": "user", "content": text}], "stream": True},
                                  "chat", **kw)

    def test_content_streams_to_the_callback_and_usage_is_read(self):
        self.answers["hi"] = text_stream("Hello there, friend.", pieces=4)
        seen = []
        completion = self.call("hi", on_content=seen.append)
        self.assertEqual("Hello there, friend.", "".join(seen))
        self.assertGreater(len(seen), 1)
        self.assertEqual(15, completion.usage["total_tokens"])
        role, body, headers = self.provider.requests[0]
        self.assertEqual("chat", role)
        self.assertEqual("Bearer agentlab-replay", headers["Authorization"])
        self.assertTrue(self.provider.requests[0][1]["stream"])

    def test_missing_done_after_a_finish_reason_is_tolerated(self):
        self.answers["x"] = [chunk(content="Three."), chunk(finish="stop")]
        self.assertEqual("Three.", self.call("x").text)

    def test_truncated(self):
        self.answers["x"] = [chunk(content="Three")]
        with self.assertRaises(ProviderError) as e:
            self.call("x")
        self.assertEqual("provider_truncated", e.exception.code)

    def test_malformed_chunk(self):
        self.answers["x"] = [chunk(content="a"), "{not json"]
        with self.assertRaises(ProviderError) as e:
            self.call("x")
        self.assertEqual("provider_malformed_chunk", e.exception.code)

    def test_http_status(self):
        self.answers["x"] = {"status": 429}
        with self.assertRaises(ProviderError) as e:
            self.call("x")
        self.assertEqual("provider_http_429", e.exception.code)

    def test_reset_is_a_connection_failure(self):
        self.answers["x"] = {"events": [chunk(content="a"), chunk(content="b")], "reset": 1}
        with self.assertRaises(ProviderError) as e:
            self.call("x")
        self.assertEqual("provider_connection", e.exception.code)

    def test_refused_connection(self):
        client = ProviderClient("http://127.0.0.1:9/v1")
        with self.assertRaises(ProviderError) as e:
            client.stream({"messages": []}, "chat")
        self.assertEqual("provider_connection", e.exception.code)

    def test_a_stalled_call_is_cancelled(self):
        self.answers["x"] = {"events": [chunk(content="a")], "stall": True}
        cancel = Cancellable()
        arrived = threading.Event()
        threading.Thread(target=lambda: arrived.wait(5) and cancel.cancel(), daemon=True).start()
        with self.assertRaises(ProviderError) as e:
            self.call("x", on_content=lambda d: arrived.set(), cancel=cancel)
        self.assertEqual("provider_cancelled", e.exception.code)

    def test_tool_calls_of_choice_zero(self):
        self.answers["x"] = text_stream("Volume 30.", tool_calls=[("call_1", "device_volume_adjust",
                                                                   '{"mode":"absolute","value":30}')])
        completion = self.call("x")
        self.assertEqual([("call_1", "device_volume_adjust", '{"mode":"absolute","value":30}')],
                         [(c["id"], c["name"], c["arguments"]) for c in completion.tool_calls.calls()])
        self.assertEqual("tool_calls", completion.finish_reason)


if __name__ == "__main__":
    unittest.main()
