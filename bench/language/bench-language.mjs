#!/usr/bin/env node
/**
 * Benchmark of the .chain language front end on a large model: parse +
 * link/validate + IR export (with its schema check) of one file holding a
 * 2,000-box chain, against the target "< 300 ms for the whole file".
 *
 *   cd language && npx langium generate && npx tsc -b     # the bench runs the compiled language/out/
 *   node bench/language/bench-language.mjs                # 2,000 instances of 500 boxes, 7 runs
 *   node bench/language/bench-language.mjs --boxes 4000 --runs 5 --keep
 *   node bench/language/bench-language.mjs --scaling      # 500 .. 4000 boxes: is any step super-linear?
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/language/bench-language.mjs   # then open the .cpuprofile
 *                                                                               # in Chrome DevTools / speedscope
 *
 * Options: --boxes N (instances in the chain, default 2000), --defs N (box
 * definitions, default N/4), --runs N (measured runs after the cold one,
 * default 7), --keep (keep the generated file and print its path),
 * --json (one JSON line with the numbers, for CI), --scaling, --langium-scopes
 * (Langium's default linear scopes instead of the language's hash-map scopes:
 * the state before chain-scope.ts cached them, for comparison).
 *
 * The generated model: a platform, one image type, box definitions with
 * varied kernels (gain, offset, convolution, average, copy, dup 2..4, add,
 * mul, sink with 1..2 inputs, one source), and one chain whose instances form
 * a realistic DAG: one source, a dup tree fanning out into pipelines; each
 * pipeline mixes one-in-one-out steps with dup/add diamonds (fan-out, fan-in)
 * and ends in a sink, some sinks joining two pipelines. A ptts uses the
 * chain as the ETP of one of its components. The model validates clean.
 *
 * Times: the first (cold) run in a fresh process, then the median (and min,
 * max) of the measured runs. Each run parses the text into a new document,
 * builds it with validation, exports the IR and checks it against the schema.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateModel } from '../../language/test/large-model.js';

const TARGET_MS = 300;
const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, '../../language/out');

const { createBatchChainServices } = await import(pathToFileURL(join(out, 'dsl/chain-batch-module.js')).href);
const { exportIr } = await import(pathToFileURL(join(out, 'ir/ir-export.js')).href);
const { irSchemaErrors } = await import(pathToFileURL(join(out, 'ir/ir-schema.js')).href);
const { DefaultScopeProvider, DocumentState, EMPTY_SCOPE, EmptyFileSystem, URI } = await import('langium');

// ------------------------------------------------------------------ options
function option(name, fallback) {
    const i = process.argv.indexOf(`--${name}`);
    if (i < 0) return fallback;
    const value = process.argv[i + 1];
    return value === undefined || value.startsWith('--') ? true : value;
}
const BOXES = Number(option('boxes', 2000));
const DEFS = Number(option('defs', Math.max(20, Math.round(BOXES / 4))));
const RUNS = Number(option('runs', 7));
const KEEP = option('keep', false) === true;
const JSON_OUT = option('json', false) === true;
const SCALING = option('scaling', false) === true;
/**
 * Measure with Langium's default (linear) scopes instead of the language's hash-map scopes: the "before" of
 * chain-scope.ts.
 */
const LANGIUM_SCOPES = option('langium-scopes', false) === true;

// The generator is shared with the memory test: language/test/large-model.js.

// ------------------------------------------------------------------ measurement
const { shared, Chain } = createBatchChainServices(EmptyFileSystem);
let documentId = 0;
if (LANGIUM_SCOPES) {
    const provider = Chain.references.ScopeProvider;
    provider.getScope = function (context) {
        if (context.container.$type === 'PortRef' && context.property === 'port') {
            const box = context.container.instance?.ref?.box?.ref;
            return box ? this.createScopeForNodes(box.members.filter(m => m.$type === 'Port')) : EMPTY_SCOPE;
        }
        return DefaultScopeProvider.prototype.getScope.call(this, context);
    };
}

/** When each build phase of the current run ended (Langium's DocumentBuilder reports them). */
let phaseEnds = {};
const PHASES = [
    ['IndexedContent', 'index'],
    ['ComputedScopes', 'scopes'],
    ['Linked', 'link'],
    ['IndexedReferences', 'refindex'],
    ['Validated', 'checks'],
];
for (const [state, key] of PHASES) {
    shared.workspace.DocumentBuilder.onBuildPhase(DocumentState[state], () => {
        phaseEnds[key] = performance.now();
    });
}

/** Parse, build with validation, export the IR and check it; the times of each step in ms. */
async function runOnce(text, file) {
    const uri = URI.file(`/bench/${documentId++}/model.chain`);
    phaseEnds = {};
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const document = shared.workspace.LangiumDocumentFactory.fromString(text, uri);
    shared.workspace.LangiumDocuments.addDocument(document);
    const t1 = performance.now();
    await shared.workspace.DocumentBuilder.build([document], { validation: true });
    const t2 = performance.now();
    const phases = {};
    let previous = t1;
    for (const [, key] of PHASES) {
        phases[key] = (phaseEnds[key] ?? previous) - previous;
        previous = phaseEnds[key] ?? previous;
    }
    const ir = exportIr(document.parseResult.value, {
        file,
        readFile: p => readFileSync(p, 'utf-8'),
        resolvePath: p => resolve(dirname(file), p),
    });
    const t3 = performance.now();
    const schema = irSchemaErrors(ir);
    const t4 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const diagnostics = document.diagnostics ?? [];
    const errors = diagnostics.filter(d => (d.severity ?? 1) === 1);
    shared.workspace.LangiumDocuments.deleteDocument(uri);
    shared.workspace.IndexManager.remove(uri);
    return {
        parse: t1 - t0,
        validate: t2 - t1,
        export: t3 - t2,
        schema: t4 - t3,
        total: t4 - t0,
        cpu: (cpu.user + cpu.system) / 1000,
        ...Object.fromEntries(Object.entries(phases).map(([k, v]) => [`phase_${k}`, v])),
        errors: errors.map(e => `${e.range.start.line + 1}:${e.range.start.character + 1} ${e.message}`),
        warnings: diagnostics.length - errors.length,
        schemaErrors: schema,
        boxesInIr: ir.chains[0]?.instances.length ?? 0,
    };
}

const median = values => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = v => `${v.toFixed(1)} ms`;

async function bench(instances, defs, runs, { print = true } = {}) {
    const model = generateModel(instances, defs);
    const dir = mkdtempSync(join(tmpdir(), 'chainlab-bench-'));
    const file = join(dir, `bench-${instances}.chain`);
    writeFileSync(file, model.text);
    const text = readFileSync(file, 'utf-8');
    const cold = await runOnce(text, file);
    if (cold.errors.length > 0 || cold.schemaErrors.length > 0) {
        console.error(
            `the generated model is not clean (${file}):\n  ${[...cold.errors, ...cold.schemaErrors].slice(0, 20).join('\n  ')}`,
        );
        process.exitCode = 2;
    }
    const warm = [];
    for (let i = 0; i < runs; i++) warm.push(await runOnce(text, file));
    const steps = ['parse', 'validate', 'export', 'schema', 'total', 'cpu', ...PHASES.map(([, k]) => `phase_${k}`)];
    const med = Object.fromEntries(steps.map(s => [s, median(warm.map(r => r[s]))]));
    const result = {
        instances: model.instances,
        connections: model.connections,
        boxDefinitions: model.defs,
        lines: text.split('\n').length,
        bytes: text.length,
        warnings: cold.warnings,
        cold: Object.fromEntries(steps.map(s => [s, cold[s]])),
        median: med,
        min: Math.min(...warm.map(r => r.total)),
        max: Math.max(...warm.map(r => r.total)),
        runs,
        targetMs: TARGET_MS,
        ratio: med.total / TARGET_MS,
        file: KEEP ? file : undefined,
    };
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
    if (print && !JSON_OUT) {
        console.log(
            `model: ${result.instances} box instances of ${result.boxDefinitions} box definitions, ${result.connections} connections, ${result.lines} lines, ${(result.bytes / 1024).toFixed(0)} KiB${KEEP ? ` (${file})` : ''}; ${result.warnings} warning(s)`,
        );
        console.log(
            `cold (first run): parse ${ms(cold.parse)}, link + validate ${ms(cold.validate)}, IR export ${ms(cold.export)}, schema check ${ms(cold.schema)}: total ${ms(cold.total)} = ${(cold.total / TARGET_MS).toFixed(2)} × target`,
        );
        console.log(
            `median of ${runs}: parse ${ms(med.parse)}, link + validate ${ms(med.validate)}, IR export ${ms(med.export)}, schema check ${ms(med.schema)} (min ${ms(result.min)}, max ${ms(result.max)}; CPU time ${ms(med.cpu)})`,
        );
        console.log(
            `  link + validate by build phase: ${PHASES.map(([state, k]) => `${state} ${ms(med[`phase_${k}`])}`).join(', ')}`,
        );
        console.log(`per box: ${((med.total / result.instances) * 1000).toFixed(1)} µs`);
        console.log(
            `total ${med.total.toFixed(0)} ms = ${result.ratio.toFixed(2)} × target (< ${TARGET_MS} ms for the whole file): ${med.total < TARGET_MS ? 'met' : 'MISSED'}`,
        );
    }
    return result;
}

if (SCALING) {
    // Doubling the model should double the time; a step whose time quadruples is quadratic.
    console.log('instances  parse     validate  export    schema    total     cpu       µs/box');
    for (const n of [500, 1000, 2000, 4000]) {
        const r = await bench(n, Math.max(20, Math.round(n / 4)), Math.min(RUNS, 5), { print: false });
        const m = r.median;
        console.log(
            `${String(n).padEnd(10)} ${[m.parse, m.validate, m.export, m.schema, m.total, m.cpu].map(v => ms(v).padEnd(9)).join(' ')} ${((m.total / r.instances) * 1000).toFixed(1)}`,
        );
    }
} else {
    const result = await bench(BOXES, DEFS, RUNS);
    if (JSON_OUT) console.log(JSON.stringify(result));
}
