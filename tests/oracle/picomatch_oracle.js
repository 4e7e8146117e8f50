// Reads {"patterns": [...], "pairs": [[patternIndex, path], ...]} on stdin and
// writes {"sources": [...], "results": [...]} with picomatch 2.3.1 and the
// options dorny/paths-filter uses ({dot: true}).
'use strict';
const picomatch = require('picomatch');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const { patterns, pairs } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const matchers = [];
  const sources = patterns.map((p) => {
    try {
      matchers.push(picomatch(p, { dot: true }));
      return picomatch.makeRe(p, { dot: true }).source;
    } catch (err) {
      matchers.push(null);
      return { error: String(err.message || err) };
    }
  });
  const results = pairs.map(([i, path]) => (matchers[i] ? matchers[i](path) : null));
  process.stdout.write(JSON.stringify({ version: require('picomatch/package.json').version, sources, results }));
});
