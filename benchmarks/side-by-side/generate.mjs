// Writes the same N single-turn volume cases for both tools (the cases are synthesized for this benchmark):
//   <out>/agentlab/volume-N.suite.yaml  one suite, N cases, each one scripted model reply and two checks; above
//     2,000 cases, suites of 2,000 (volume-N-part-K.suite.yaml), as a suite file may hold at most 1 MiB
//   <out>/promptfoo/promptfooconfig.yaml  N tests against the stand-in provider, each two assertions
// Case i sets the volume to level i % 101; the model answers "Volume <level>." and calls the volume tool.
// Usage: node generate.mjs <out-dir> <N> <stand-in base URL, e.g. http://127.0.0.1:PORT/v1>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [out, countArg, baseUrl] = process.argv.slice(2);
const count = Number(countArg);
if (!out || !Number.isInteger(count) || count < 1 || !baseUrl) {
  console.error('usage: node generate.mjs <out-dir> <N >= 1> <stand-in base URL>');
  process.exit(2);
}
// The tool as chat_agent_tools offers it: the provider-safe alias of device.volume.adjust and the plugin's schema.
const tool = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'volume-tool.json'), 'utf8'));
const levels = Array.from({ length: count }, (_, i) => i % 101);

const PER_FILE = 2000;
const header = (id) => [
  `id: ${id}`,
  'title: Side-by-side volume cases (synthesized for benchmarks/side-by-side)',
  'modes: [chat_agent_tools]',
  'kernel: {events: [device.volume.adjust]}',
  'cases:',
];
const caseLines = (level, i) => [
  `  - id: level-${i}`,
  '    clause: docs/design.md#plugin-volume-modes a target sets an absolute level',
  '    turns:',
  `      - user: set the volume to ${level}`,
  `        reply: {visible: "Volume ${level}.", events: [{name: device.volume.adjust, arguments: {mode: absolute, value: ${level}}}]}`,
  '        expect:',
  `          events: [{name: device.volume.adjust, arguments: {mode: absolute, value: ${level}}, status: succeeded}]`,
  `          visible: {contains: ["Volume ${level}."]}`,
];
mkdirSync(join(out, 'agentlab'), { recursive: true });
for (let from = 0, part = 1; from < count; from += PER_FILE, part++) {
  const name = count <= PER_FILE ? `volume-${count}` : `volume-${count}-part-${part}`;
  const lines = header(name);
  levels.slice(from, from + PER_FILE).forEach((level, k) => lines.push(...caseLines(level, from + k)));
  writeFileSync(join(out, 'agentlab', `${name}.suite.yaml`), lines.join('\n') + '\n');
}

// promptfoo reads YAML or JSON; JSON is YAML, so one JSON document needs no YAML writer here.
const config = {
  description: `side-by-side volume cases, N=${count}`,
  prompts: ['{{utterance}}'],
  providers: [{
    id: 'openai:chat:gpt-4o-mini',
    config: { apiBaseUrl: baseUrl, apiKey: 'stand-in-no-key', tools: [tool] },
  }],
  tests: levels.map((level) => ({
    vars: { utterance: `set the volume to ${level}` },
    assert: [
      { type: 'is-valid-openai-tools-call' }, // the tool call's arguments against the tool's JSON Schema
      { type: 'contains', value: `Volume ${level}.` }, // the visible answer
    ],
  })),
};
mkdirSync(join(out, 'promptfoo'), { recursive: true });
writeFileSync(join(out, 'promptfoo', 'promptfooconfig.yaml'), JSON.stringify(config, null, 1) + '\n');
