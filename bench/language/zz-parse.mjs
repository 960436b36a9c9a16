import { performance } from 'node:perf_hooks';
const { createChainServices } = await import('../../language/out/language/chain-module.js');
const langium = await import('langium');
if (process.env.NO_EMPTY_HIDDEN) {
    const original = langium.CstNodeBuilder.prototype.addHiddenNodes;
    langium.CstNodeBuilder.prototype.addHiddenNodes = function (tokens) { if (tokens.length > 0) original.call(this, tokens); };
}
const { readFileSync } = await import('node:fs');
const text = readFileSync(process.argv[2], 'utf-8');
const { shared } = createChainServices(langium.EmptyFileSystem);
const times = [];
for (let i = 0; i < 25; i++) {
  const t0 = performance.now();
  shared.workspace.LangiumDocumentFactory.fromString(text, langium.URI.file(`/x/${i}.chain`));
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(`parse min ${times[0].toFixed(1)} ms, p25 ${times[6].toFixed(1)}, median ${times[12].toFixed(1)}`);
