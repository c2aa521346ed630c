// A stand-in OpenAI-compatible provider for the promptfoo side of the benchmark: answers every
// POST .../chat/completions at once with "Volume <level>." and one device_volume_adjust tool call, the level read
// from the last user message ("set the volume to 37"). JSON by default (promptfoo's openai provider does not
// stream), server-sent chunks when the request says "stream": true. Loopback only; Nagle off on every connection
// (with it on, each request waits about 44 ms for a delayed ACK). Prints "listening <port>" once ready.
// Usage: node stand-in.mjs [port-file]   (port 0: the system picks one; written to port-file when given)
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';

let served = 0;

function reply(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const text = typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
  const match = /(\d+)\s*$/.exec(text.trim());
  const level = match ? Math.min(100, Number(match[1])) : 50;
  return {
    content: `Volume ${level}.`,
    call: { id: `call_${served}`, type: 'function',
      function: { name: 'device_volume_adjust', arguments: JSON.stringify({ mode: 'absolute', value: level }) } },
  };
}

const server = createServer({ noDelay: true, keepAlive: true }, (request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    if (request.method !== 'POST' || !request.url.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }));
      return;
    }
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'request body is not JSON' } }));
      return;
    }
    served++;
    const { content, call } = reply(body);
    const id = `chatcmpl-standin-${served}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? 'stand-in';
    const usage = { prompt_tokens: 60, completion_tokens: 15, total_tokens: 75 };
    if (body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta, finish, extra = {}) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk',
        created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      response.end(chunk({ role: 'assistant', content }, null)
        + chunk({ tool_calls: [{ index: 0, ...call }] }, null)
        + chunk({}, 'tool_calls', { usage })
        + 'data: [DONE]\n\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id, object: 'chat.completion', created, model, usage,
      choices: [{ index: 0, finish_reason: 'tool_calls',
        message: { role: 'assistant', content, tool_calls: [call] } }] }));
  });
});
server.on('connection', (socket) => socket.setNoDelay(true));
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  if (process.argv[2]) writeFileSync(process.argv[2], `${port}\n`);
  console.log(`listening ${port}`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
