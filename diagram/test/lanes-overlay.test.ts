/**
 * The thread lanes after an overloaded run, in Chromium as a user sees them: by default the model's own plan with a
 * `measured` toggle in the toolbar that names the run; picked, the measured bars over the plan on the plan's axis,
 * cut at its end, under an "overloaded" badge, readable in the light, dark and high-contrast themes; the same when
 * the run had a one-thread plan (a target with fewer cores), its threads in lanes of their own. The models come
 * from the language server's diagram generator, fed the run as the server keeps it (rememberTasks).
 * Screenshots: test-results/diagram/lanes-after-run-default-<theme>.png, lanes-overloaded-*.png.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MeasuredTask, PlanResult } from '@chainlab/contract';
import { SharedBackend } from '../../language/src/server/shared-backend.js';
import { backendPlanSource } from '../../language/src/server/plan-source.js';
import { exportIr } from '../../language/src/ir/ir-export.js';
import { documentExportContext } from '../../language/src/ir/document-export-context.js';
import { rememberTasks } from '../../language/src/diagram-server/measured-tasks.js';
import {
    diagram,
    diagramServices,
    load,
    repo,
    type Services,
} from '../../language/test/diagram-server/diagram-helpers.js';
import { launchBrowser } from './browser.js';
import { contrastOffenders } from './contrast.js';
import { standalonePage } from './standalone-page.js';
import { THEMES, themeScript } from './vscode-themes.js';

const artifacts = join(repo, 'test-results', 'diagram');
const backend = new SharedBackend();
let services: Services;
let document: Awaited<ReturnType<typeof load>>;
let plan: PlanResult;
let browser: Browser;
let pageUrl: string;

beforeAll(async () => {
    pageUrl = await standalonePage(artifacts, 'lanes-overlay-page.html');
    const plans = backendPlanSource(backend);
    services = diagramServices(plans);
    document = await load(services, join(repo, 'samples', 'xray.chain'));
    plan = (await plans.plan(
        exportIr(document.parseResult.value, documentExportContext(document.uri)),
        'XRay',
    )) as PlanResult;
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    await backend.stop();
});

type Api = {
    show(m: unknown): Promise<void>;
    update(m: unknown): Promise<void>;
    fitAll(): Promise<void>;
    optionChanges(): Array<{ showMeasured: boolean }>;
};

/**
 * An overloaded baseline: every iteration later than the one before, the median one most of an iteration late. On
 * one thread (`oneThread`) its sub-boxes ran one after the other, in the order of their predicted starts.
 */
function overloadedRun(oneThread?: PlanResult): object {
    const end = Math.max(...plan.sub_boxes.map(s => s.estimated_start_ns + s.estimated_cost_ns));
    let free = 0.7 * end;
    const tasks: MeasuredTask[] = [...plan.sub_boxes]
        .sort((a, b) => a.estimated_start_ns - b.estimated_start_ns)
        .map(s => {
            const start = oneThread ? free : s.estimated_start_ns * 1.3 + 0.7 * end;
            free = start + s.estimated_cost_ns * 1.3;
            return {
                sub_box: s.name,
                thread: oneThread ? 0 : s.thread,
                start_ns: Math.round(start),
                end_ns: Math.round(free),
                duration_p50_ns: Math.round(s.estimated_cost_ns * 1.3),
                duration_p99_ns: Math.round(s.estimated_cost_ns * 1.6),
                samples: 300,
            };
        });
    return {
        target: 'here',
        plan: oneThread,
        scenarios: [{ scenario: 'baseline', completed: 300, overloaded: true, tasks }],
    };
}

const lanes = (showMeasured: boolean) =>
    diagram(services, document, { view: 'lanes', element: 'XRay', showMeasured }, false);

async function open(theme: keyof typeof THEMES): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 950 } });
    await page.addInitScript('window.__name = f => f'); // esbuild's keepNames helper, for functions sent to the page
    await page.goto(pageUrl);
    await page.evaluate(themeScript(THEMES[theme]));
    await page.waitForFunction(() => 'chainlabDiagram' in window, undefined, { timeout: 10_000 });
    await page.evaluate(
        async m => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.show(m),
        await lanes(false),
    );
    await page.waitForSelector('svg.sprotty-graph g.lane');
    return page;
}

/** What the user does: ticks `measured` in the toolbar; the host then asks the server for the overlay. */
async function pickOverlay(page: Page): Promise<void> {
    await page.locator('.chainlab-toolbar label[data-control="measured"] input').check();
    const changes = await page.evaluate(() =>
        (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.optionChanges(),
    );
    expect(changes.at(-1)!.showMeasured).toBe(true);
    await page.evaluate(
        async m => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.update(m),
        await lanes(true),
    );
    await page.evaluate(() => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.fitAll());
    await page.waitForSelector('g.step-measured');
}

async function readable(page: Page): Promise<void> {
    const { offenders } = await page.evaluate(contrastOffenders, 4.5);
    expect(offenders).toEqual([]);
}

describe.each(['light', 'dark', 'high-contrast'] as const)('thread lanes after an overloaded run, %s theme', theme => {
    test('the plan by default, the toggle names the run; picked: bars cut at the axis end, a badge', async () => {
        ran(overloadedRun());
        const page = await open(theme);
        const toggle = page.locator('.chainlab-toolbar label[data-control="measured"]');
        await expect.poll(() => toggle.isVisible()).toBe(true);
        expect(await toggle.textContent()).toBe(' measured: baseline on here, 300 iterations (overloaded)');
        expect(await toggle.locator('input').isChecked()).toBe(false);
        expect(await page.locator('g.step-measured').count()).toBe(0);
        expect(await page.locator('g.overloaded-badge').count()).toBe(0);
        const ticks = await page.locator('g.time-axis text.axis-label').allTextContents();
        await page.screenshot({ path: join(artifacts, `lanes-after-run-default-${theme}.png`) });
        await pickOverlay(page);
        expect(await page.locator('g.step-measured').count()).toBe(plan.sub_boxes.length);
        expect(await page.locator('g.step-clipped g.clip-mark').count()).toBeGreaterThan(0);
        // the axis is the plan's: the same ticks as without the overlay
        expect(await page.locator('g.time-axis text.axis-label').allTextContents()).toEqual(ticks);
        const badge = page.locator('g.overloaded-badge');
        expect(await badge.isVisible()).toBe(true);
        expect(await badge.locator('text').first().textContent()).toBe('overloaded');
        const right = await page
            .locator('g.lane rect.lane-body')
            .first()
            .evaluate(r => r.getBoundingClientRect().right);
        for (const bar of await page
            .locator('g.step-measured > rect.node-body')
            .evaluateAll(rs => rs.map(r => r.getBoundingClientRect().right)))
            expect(bar).toBeLessThanOrEqual(right + 0.5);
        await page.screenshot({ path: join(artifacts, `lanes-overloaded-${theme}.png`) });
        await readable(page);
        await page.close();
    });

    test('a one-thread plan ran: the model lanes stay, the run gets its own lanes, said above them', async () => {
        ran(
            overloadedRun({
                ...plan,
                threads: [{ ...plan.threads[0], index: 0, name: 'T0', core: 0 }],
                sub_boxes: plan.sub_boxes.map(s => ({ ...s, thread: 0 })),
            }),
        );
        const page = await open(theme);
        expect(await page.locator('g.lane').count()).toBe(plan.threads.length);
        await pickOverlay(page);
        expect(await page.locator('g.lane').count()).toBe(plan.threads.length + 1);
        expect(await page.locator('g.lane-as-run text.lane-title').textContent()).toBe('T0 as run · core 0');
        expect(await page.locator('g.lane-as-run g.step-measured').count()).toBe(plan.sub_boxes.length);
        expect(await page.locator('.ran-plan-heading text').textContent()).toMatch(
            /^the run used a 1-thread plan on here \(the model's plan has \d+ threads\)/,
        );
        expect(await page.locator('g.overloaded-badge').isVisible()).toBe(true);
        await page.screenshot({ path: join(artifacts, `lanes-overloaded-other-plan-${theme}.png`) });
        await readable(page);
        await page.close();
    });
});

function ran(reply: object): void {
    const uri = document.uri.toString();
    expect(rememberTasks(services.Chain.diagram.MeasuredTasks, 'chainlab/deploy', uri, { chain: 'XRay' }, reply)).toBe(
        true,
    );
}
