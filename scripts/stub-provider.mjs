// A stub OpenAI-compatible chat server on loopback, for measuring the kit's own verdicts against a live server
// (scripts/verdict-stability.sh, docs/live-evaluation.md#stability). It is NOT a model: every answer is the same short
// sentence, streamed after a prefill delay that grows with the request's size (so tools mode, whose request carries
// every tool schema, is a little slower, as with a real server) plus random jitter, then one chunk a millisecond.
//
//   node scripts/stub-provider.mjs [PORT] [BASE_MS] [MS_PER_KB] [JITTER_MS]
import http from 'node:http';

const [port = '0', baseMs = '3', msPerKb = '0.2', jitterMs = '3'] = process.argv.slice(2);
const words = ['Okay', ',', ' done', '.'];
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

const server = http.createServer(async (req, res) => {
  if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
    res.writeHead(404, {'Content-Type': 'application/json'}).end('{"error":{"message":"not found"}}');
    return;
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = Buffer.concat(chunks);
  const request = JSON.parse(body.toString('utf8'));
  const id = 'chatcmpl-stub-' + Math.random().toString(36).slice(2);
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta, finish) => JSON.stringify({id, object: 'chat.completion.chunk', created, model: request.model,
    choices: [{index: 0, delta, finish_reason: finish ?? null}]});
  await sleep(Number(baseMs) + Number(msPerKb) * body.length / 1024 + Math.random() * Number(jitterMs));
  res.writeHead(200, {'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache'});
  res.write('data: ' + chunk({role: 'assistant', content: ''}) + '\n\n');
  for (const word of words) {
    res.write('data: ' + chunk({content: word}) + '\n\n');
    await sleep(1);
  }
  res.write('data: ' + chunk({}, 'stop') + '\n\n');
  res.write('data: ' + JSON.stringify({id, object: 'chat.completion.chunk', created, model: request.model, choices: [],
    usage: {prompt_tokens: Math.ceil(body.length / 4), completion_tokens: words.length,
      total_tokens: Math.ceil(body.length / 4) + words.length}}) + '\n\n');
  res.end('data: [DONE]\n\n');
});
server.listen(Number(port), '127.0.0.1', () => console.log('stub-provider listening on http://127.0.0.1:'
  + server.address().port + '/v1'));
