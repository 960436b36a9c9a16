/**
 * Run on target → latency plot → Update ETP from measurement, as the extension drives it, against the real
 * language server (its stdio bundle), the real backend (a local run of a small chain) and the real CLI. The
 * plot's numbers are the reply's; the ETP edit is the language server's, found in the AST (a comment inside
 * `etp chain X` hides nothing); the edited model checks clean and analyses.
 */
import { spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    DidOpenTextDocumentNotification,
    type CodeAction,
    type ProtocolConnection,
    type TextEdit,
} from 'vscode-languageserver-protocol/node.js';
import { startServer } from '../../language/test/lsp/server-bundle';
import type { AnalyzeResult, RunReport, RequestResultOf } from '@chainlab/contract';
import { analysisPlot, measuredSomething, runPlot } from '../src/plot-data';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'chainlab-etp-'));
const file = join(dir, 'measured.chain');
const uri = pathToFileURL(file).toString();

const model = [
    'platform Here { cores 2 }',
    'image Img 64 x 64 of u8',
    'box Source { out o: Img  source period 10 ms  cost 100 us }',
    'box Gain { in i: Img  out o: Img  kernel gain(2)  split rows  depends pointwise  cost 200 us }',
    'box Sink { in i: Img  kernel sink  cost 10 us }',
    'chain Small on Here {',
    '    s: Source  g: Gain  k: Sink',
    '    s.o -> g.i  g.o -> k.i',
    '    schedule reduced threads 1',
    '}',
    'ptts System {',
    '    component Camera  period 20 ms  etp uniform 1 ms .. 3 ms',
    '    component Process period 10 ms  offset 1 ms  etp /* measured by Run on target */ chain',
    '        Small',
    '    component Screen  period 16.7 ms  etp point 4 ms',
    '    require latency p99 < 60 ms',
    '}',
    'target here { local  rt-cores 0  be-cores 1 }',
].join('\n');

let server: ChildProcessWithoutNullStreams;
let connection: ProtocolConnection;
let reply: RunReport;

beforeAll(async () => {
    writeFileSync(file, model);
    ({ server, connection } = await startServer(repo));
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'chain', version: 1, text: model },
    });
    // what `Run on target` sends (commands.ts)
    reply = await connection.sendRequest<RunReport>('chainlab/deploy', {
        uri,
        chain: 'Small',
        target: 'here',
        scenario: 'baseline',
        iterations: 100,
        runs: join(dir, 'runs'),
    });
}, 180_000);

afterAll(() => {
    connection?.dispose();
    if (server && server.exitCode === null) server.kill();
    rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [join(repo, 'language', 'bin', 'chainlab.js'), ...args], {
        encoding: 'utf-8',
        cwd: repo,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

function applied(text: string, edits: TextEdit[]): string {
    const offset = (p: { line: number; character: number }) =>
        text
            .split('\n')
            .slice(0, p.line)
            .reduce((n, l) => n + l.length + 1, 0) + p.character;
    for (const edit of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start))) {
        text = text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
    }
    return text;
}

/** A decimal probability in millionths, exactly (at most six decimals). */
function millionths(text: string): bigint {
    const [whole, fraction = ''] = text.split('.');
    expect(fraction.length).toBeLessThanOrEqual(6);
    return BigInt(whole + fraction.padEnd(6, '0'));
}

describe('calibrate and run', () => {
    test('what Calibrate and run sends: a calibration kept beside the model, the prediction drawn from it', async () => {
        const calibrated = await connection.sendRequest<RunReport>('chainlab/deploy', {
            uri,
            chain: 'Small',
            target: 'here',
            scenario: 'baseline',
            iterations: 60,
            calibrate: 40,
            runs: join(dir, 'runs-calibrated'),
        });
        const stored = join(dir, '.chainlab', 'calibration', 'Small@here.json');
        expect(calibrated.calibration).toBe(stored);
        expect(existsSync(stored)).toBe(true);
        expect(calibrated.scenarios[0].tasks?.length).toBeGreaterThan(0);
        // the plain run (before) predicted from the model's costs
        expect(reply.calibration ?? null).toBeNull();
    }, 120_000);
});

describe('run → plot → ETP from measurement', () => {
    test('the language server names the elements the commands offer (no parsing in the extension)', async () => {
        const elements = await connection.sendRequest<
            Record<string, Array<{ name: string; range: { start: { line: number } } }>>
        >('chainlab/elements', { uri });
        expect(
            Object.fromEntries(
                Object.entries(elements).map(([kind, list]) => [kind, list.map(e => [e.name, e.range.start.line])]),
            ),
        ).toEqual({ chain: [['Small', 5]], ptts: [['System', 10]], target: [['here', 17]] });
    });

    test("the run plot shows the reply's histogram and statistics, converted to ms", () => {
        expect(reply.status).toBe('ok');
        expect(measuredSomething(reply)).toBe(true);
        const plot = runPlot('Small', 'here', reply);
        const [baseline] = reply.scenarios;
        expect(plot.series.map(s => s.name)).toEqual(['predicted', 'measured baseline']);
        expect(plot.series[1].points).toEqual(baseline.histogram_ms);
        expect(baseline.overloaded).toBe(false);
        expect(plot.warnings).toBeUndefined();
        // the same reply had the run been overloaded: the plot says so above the curves
        const overloaded = { ...reply, scenarios: [{ ...baseline, overloaded: true }] };
        expect(runPlot('Small', 'here', overloaded).warnings).toEqual([
            expect.stringMatching(/^Overloaded: baseline\. The latency grew through the run \(a backlog\)/),
        ]);
        const m = baseline.measured;
        expect(plot.stats[1]).toEqual({
            name: 'measured baseline',
            mean: m.mean_ns! / 1e6,
            p50: m.p50_ns! / 1e6,
            p99: m.p99_ns! / 1e6,
            p999: baseline.quantiles_ms!['99.9'].measured,
            max: m.max_ns! / 1e6,
        });
        expect(plot.series[1].ks).toBe(baseline.ks);
        expect(plot.report).toBe(reply.files.find(f => f.endsWith('report.html')));
        const p = reply.predicted.stats;
        expect(plot.stats[0]).toEqual({
            name: 'predicted',
            mean: p.mean_ns! / 1e6,
            p50: p.p50_ns! / 1e6,
            p99: p.p99_ns! / 1e6,
            p999: baseline.quantiles_ms!['99.9'].predicted,
            max: p.max_ns! / 1e6,
        });
    });

    test('the ETP edit comes from the server; written back, the model checks clean and analyses', async () => {
        const result = await connection.sendRequest<RequestResultOf<'chainlab/etpFromMeasurement'>>(
            'chainlab/etpFromMeasurement',
            { uri, chain: 'Small' },
        );
        expect(result.scenario).toBe('baseline');
        expect(result.concern).toBeNull(); // 100 frames of a small chain: no backlog, nothing to ask
        expect(result.components).toBe(1);
        const edits = result.edit.changes[uri];
        const text = applied(model, edits);
        expect(text).toContain('etp /* measured by Run on target */ pmf { ');
        expect(text).not.toContain('Small\n    component Screen');
        const probabilities = [...edits[0].newText.matchAll(/: ([\d.]+)/g)].map(m => m[1]);
        expect(probabilities.reduce((sum, q) => sum + millionths(q), 0n)).toBe(1_000_000n); // exact decimals summing to one

        // the same edit as the quick fix the server offers on the `etp chain` line
        const actions = await connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
            textDocument: { uri },
            range: { start: { line: 12, character: 0 }, end: { line: 12, character: 0 } },
            context: { diagnostics: [] },
        });
        expect(actions.find(a => a.title === 'Update ETP from measurement (Small)')?.edit).toEqual(result.edit);

        const edited = join(dir, 'edited.chain');
        writeFileSync(edited, text);
        const checked = cli('check', edited);
        expect(checked.status, checked.stderr).toBe(0);
        expect(checked.stdout + checked.stderr).toMatch(/1 file\(s\) checked: 0 error\(s\)/);
        const analyzed = cli('analyze', edited, '--ptts', 'System', '--json');
        expect([0, 3], analyzed.stderr).toContain(analyzed.status); // 3: the analysis ran and a requirement fails
        const analysis = JSON.parse(analyzed.stdout) as AnalyzeResult;
        expect(analyzed.status).toBe(
            (analysis.requirements as unknown as Array<{ passed: boolean }>).every(r => r.passed) ? 0 : 3,
        );

        // an analysis plot takes the analysis' own statistics
        expect(analysisPlot(analysis).stats).toEqual([
            {
                name: 'predicted',
                mean: analysis.mean_ms,
                p50: analysis.percentiles['50'],
                p99: analysis.percentiles['99'],
                p999: analysis.percentiles['99.9'],
                max: analysis.max_ms,
                loss: analysis.loss_probability,
            },
        ]);
        expect(readFileSync(file, 'utf-8')).toBe(model); // the server only proposes the edit; the editor applies it
    });
});
