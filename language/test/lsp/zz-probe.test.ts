import { test } from 'vitest';
import { readFileSync } from 'node:fs';
import { services } from '../test-utils.js';
import { parseDocument, textDocumentPositionParams } from 'langium/test';

test('probe', async () => {
  const text = readFileSync('/tmp/t/sketch.chain', 'utf8') + '\nptts Thesis { component A period 200 ms component B period 58 ms component C period 56 ms }\n';
  const doc = await parseDocument(services.Chain, text);
  for (const needle of ['LabPC {', 'L3 8', '8 MiB', 'Frame 1024', 'u16', 'Detector {', '66.6 ms', 'Gain  ', 'ain(', 'halo 2', 'XRay on', 'd: Detector', 'Detector  g', 'd.img', 'img ->', '-> g.i', 's: Spatial', 'g: Gain', 'reduced threads', 'p99 < 20', '20 ms', 'System {', 'Sensor', '30 ms', 'XRay      //', '0.9', '1e-4', '99.9', 'BestEffort {', '100 us', '25 %', 'lab1', 'u17', 'Budget }', 'Thesis', 'A period 200', 'be-cores 2', 'box Gain', 'chain XRay on', 'rt-cores 0', 'gain(1']) {
    const offset = text.indexOf(needle);
    const h = await services.Chain.lsp.HoverProvider!.getHoverContent(doc, textDocumentPositionParams(doc, offset));
    console.log('=== ' + needle + '\n' + ((h?.contents as any)?.value ?? '(none)'));
  }
});
