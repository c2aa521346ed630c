// Turns run.sh's runs.tsv into Markdown: per case count the medians of each tool, the ratio pair by pair, every run
// with the load average at its start, and the fixed and per-case cost between the counts.
// Usage: node summarize.mjs <runs.tsv> <clock ticks per second>
import { readFileSync } from 'node:fs';

const [file, tickArg] = process.argv.slice(2);
const ticksPerSecond = Number(tickArg) || 100;
const runs = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => {
  const [n, pair, tool, wall, user, sys, rssKiB, standInTicks, load] = line.split('\t');
  return { n: Number(n), pair: Number(pair), tool, wall: Number(wall), cpu: Number(user) + Number(sys),
    rss: Number(rssKiB) / 1024, standIn: Number(standInTicks) / ticksPerSecond, load, load1: parseFloat(load) };
});

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const s = (seconds) => `${seconds.toFixed(2)} s`;
const mib = (value) => `${value.toFixed(0)} MiB`;
const x = (ratio) => `${ratio.toFixed(2)}×`;
const figures = [['wall', 'wall', s], ['CPU (user + sys)', 'cpu', s], ['peak RSS', 'rss', mib]];

const counts = [...new Set(runs.map((run) => run.n))];
const medians = new Map();
const out = [];
for (const n of counts) {
  const measured = runs.filter((run) => run.n === n && run.pair > 0);
  const pairs = [...new Set(measured.map((run) => run.pair))].sort((a, b) => a - b).map((pair) => ({
    pair,
    a: measured.find((run) => run.pair === pair && run.tool === 'agentlab'),
    b: measured.find((run) => run.pair === pair && run.tool === 'promptfoo'),
  })).filter(({ a, b }) => a && b);
  if (pairs.length === 0) continue;
  const m = {};
  for (const [, key] of figures) {
    m[key] = {
      a: median(pairs.map((p) => p.a[key])),
      b: median(pairs.map((p) => p.b[key])),
      ratio: median(pairs.map((p) => p.a[key] / p.b[key])),
    };
  }
  medians.set(n, m);
  const loads = measured.map((run) => run.load1);
  out.push(`## ${n} cases`, '',
    `| whole process, median of ${pairs.length} | agentlab | promptfoo | agentlab / promptfoo (median of the pairs' ratios) |`,
    '| --- | --- | --- | --- |',
    ...figures.map(([label, key, unit]) => `| ${label} | ${unit(m[key].a)} | ${unit(m[key].b)} | **${x(m[key].ratio)}** |`),
    '',
    `1-minute load average at the start of the measured runs: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}.`
      + ` The stand-in provider's own CPU per promptfoo run (outside promptfoo's figures; agentlab's replay server runs`
      + ` inside its process and is counted): median ${s(median(pairs.map((p) => p.b.standIn)))}.`,
    '',
    '| run | load (1, 5, 15 min) | agentlab wall / CPU / RSS | promptfoo wall / CPU / RSS | ratios wall / CPU / RSS |',
    '| --- | --- | --- | --- | --- |');
  const row = (run) => `${s(run.wall)} / ${s(run.cpu)} / ${mib(run.rss)}`;
  const warmA = runs.find((run) => run.n === n && run.pair === 0 && run.tool === 'agentlab');
  const warmB = runs.find((run) => run.n === n && run.pair === 0 && run.tool === 'promptfoo');
  if (warmA && warmB) {
    out.push(`| warm-up (not counted) | ${warmA.load} | ${row(warmA)} | ${row(warmB)} | |`);
  }
  for (const { pair, a, b } of pairs) {
    out.push(`| pair ${pair} | ${a.load} | ${row(a)} | ${row(b)} | `
      + `${x(a.wall / b.wall)} / ${x(a.cpu / b.cpu)} / ${x(a.rss / b.rss)} |`);
  }
  out.push('');
}

// Fixed and per-case cost: the slope of the median wall and CPU between consecutive counts, and what is left at
// the smallest count once its cases are taken away.
const sorted = [...medians.keys()].sort((a, b) => a - b);
if (sorted.length > 1) {
  out.push('## Fixed and per-case cost', '',
    'Per-case cost is the slope of the medians between two counts; fixed cost is the smallest count\'s median minus'
      + ' its cases at the first slope (an estimate: start-up, one-off set-up and end-of-run work).', '',
    '| between | agentlab wall / case | promptfoo wall / case | agentlab CPU / case | promptfoo CPU / case | agentlab RSS / case | promptfoo RSS / case |',
    '| --- | --- | --- | --- | --- | --- | --- |');
  const slope = (lo, hi, tool, key) => (medians.get(hi)[key][tool] - medians.get(lo)[key][tool]) / (hi - lo);
  for (let i = 1; i < sorted.length; i++) {
    const [lo, hi] = [sorted[i - 1], sorted[i]];
    const ms = (tool, key) => `${(slope(lo, hi, tool, key) * 1000).toFixed(2)} ms`;
    const kib = (tool) => `${(slope(lo, hi, tool, 'rss') * 1024).toFixed(1)} KiB`;
    out.push(`| ${lo} → ${hi} | ${ms('a', 'wall')} | ${ms('b', 'wall')} | ${ms('a', 'cpu')} | ${ms('b', 'cpu')} | `
      + `${kib('a')} | ${kib('b')} |`);
  }
  const [lo, hi] = sorted;
  const fixed = (tool, key) => medians.get(lo)[key][tool] - lo * slope(lo, hi, tool, key);
  out.push('', `| fixed cost (from ${lo} and ${hi}) | agentlab | promptfoo |`, '| --- | --- | --- |',
    `| wall | ${s(fixed('a', 'wall'))} | ${s(fixed('b', 'wall'))} |`,
    `| CPU | ${s(fixed('a', 'cpu'))} | ${s(fixed('b', 'cpu'))} |`, '');
}
console.log(out.join('\n'));
