/**
 * Every diagram view in a real VS Code (code-server), as it opens beside the editor in a 1600 × 1000 window (a
 * half-width panel), in the light and the dark theme: the box chain of the X-ray sample and of Figure 3.5, the X-ray
 * plan and thread lanes, the PTTS chain of Figure 5.2 and its trigger timeline. Each opens readable (every diagram text
 * at least 11 px on screen), every text on its fill has a WCAG contrast of at least 4.5:1 with the theme VS Code gives
 * the webview (hover popups of a box and a component included), and the toolbar shows only the view's controls;
 * Readable, −, +, 100 % and the wheel zoom (1.15× a notch), Fit shows every box.
 * The same checks as the Chromium suite (diagram/test/readability.test.ts), here with VS Code's own theme variables.
 * Screenshots: test-results/vscode/view-NAME-THEME.png.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contrastOffenders } from '../../diagram/test/contrast.js';
import { smallestDiagramText } from '../../diagram/test/readable-text.js';
import { closeWorkbench, fromRepo, openWorkbench, repo, sampleWorkspace, type Workbench } from './code-server.js';
import {
    codeLensAbove,
    currentTheme,
    hoverNode,
    openFile,
    runCommand,
    shotInBothThemes,
    THEMES,
    webviewFrame,
} from './workbench.js';

const artifacts = join(repo, 'test-results', 'vscode');
const FILES = {
    xray: join('samples', 'xray.chain'),
    fig35: join('samples', 'chains', 'fig3-5.chain'),
    ptts: join('samples', 'ptts', 'thesis-fig5-2.chain'),
    synth200: join('diagram', 'test', 'fixtures', 'synth-200.chain'),
};
const ZOOM = ['fit', 'readable', 'zoom-out', 'zoom-in', 'zoom-reset'];

/**
 * Each view: its screenshot name, file, the declaration whose CodeLens opens it, the lens, the view's own controls,
 * and a node whose hover popup is shown in the screenshots (reached from another node), with what it says.
 */
interface View {
    name: string;
    file: keyof typeof FILES;
    element: string;
    lens: string;
    controls: string[];
    popup?: { node: string; from: string; says: RegExp };
}
const VIEWS: View[] = [
    {
        name: 'xray-chain',
        file: 'xray',
        element: 'chain XRay',
        lens: 'Diagram',
        controls: ['palette', 'ports', 'costs', 'options'],
        popup: { node: '_dark', from: '_flat', says: /^dark: box DarkCorrection, kernel add/ },
    },
    {
        name: 'xray-plan',
        file: 'xray',
        element: 'chain XRay',
        lens: 'Show plan',
        controls: ['heuristic', 'critical', 'options'],
    },
    {
        name: 'xray-lanes',
        file: 'xray',
        element: 'chain XRay',
        lens: 'Thread lanes',
        controls: ['heuristic', 'critical'],
    },
    {
        name: 'fig3-5-chain',
        file: 'fig35',
        element: 'chain Fig35',
        lens: 'Diagram',
        controls: ['palette', 'ports', 'costs', 'options'],
    },
    {
        name: 'ptts',
        file: 'ptts',
        element: 'ptts Fig52',
        lens: 'Diagram',
        controls: [],
        popup: { node: '_C1', from: '_C0', says: /^component C1 .*period 58 ms .*offset 30 ms/ },
    },
    { name: 'timeline', file: 'ptts', element: 'ptts Fig52', lens: 'Trigger timeline', controls: [] },
];

let workbench: Workbench | undefined;
let page: Page;

beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    const workspace = sampleWorkspace(fromRepo(...Object.values(FILES)));
    workbench = await openWorkbench(workspace, { 'workbench.colorTheme': THEMES.light });
    page = workbench.page;
});

afterAll(() => closeWorkbench(workbench, join(artifacts, 'views-last.png')));

/** Opens `view` from its CodeLens and returns its webview, once its diagram is drawn and fitted. */
async function openView(view: View, before: Frame[]): Promise<Frame> {
    const file = FILES[view.file];
    // the text on the left, every view beside it on the right: the file opens in the first group
    await runCommand(page, 'View: Focus First Editor Group');
    await openFile(page, file.split('/').at(-1)!);
    const lines = readFileSync(join(repo, file), 'utf-8').split('\n');
    await (await codeLensAbove(page, lines, view.element, view.lens)).click();
    // its diagram, not a message such as one while the backend plans
    const frame = await webviewFrame(page, 'svg.sprotty-graph g.sprotty-node:not([id$="_message"])', { not: before });
    // drawn, then fitted to the panel: the zoom stops changing
    let last = '';
    await expect
        .poll(
            async () => {
                const now = await zoomOf(frame).then(String);
                const settled = now === last;
                last = now;
                return settled;
            },
            { timeout: 20_000, intervals: [300] },
        )
        .toBe(true);
    return frame;
}

/** The diagram's zoom: the scale of the graph's root group (Sprotty's viewport transform). */
const zoomOf = (frame: Frame) =>
    frame.evaluate(() => {
        const transform = document.querySelector('svg.sprotty-graph > g')?.getAttribute('transform') ?? '';
        return Number(/scale\(([\d.e+-]+)/.exec(transform)?.[1] ?? 1);
    });

/** The boxes drawn and those not wholly inside the SVG's part of the webview (all of it the user can see). */
function boxesInPanel(): { boxes: number; outside: number } {
    const svg = document.querySelector('svg.sprotty-graph')!.getBoundingClientRect();
    const panel = { right: Math.min(svg.right, innerWidth), bottom: Math.min(svg.bottom, innerHeight) };
    const boxes = [...document.querySelectorAll('[id$="_container"] g.sprotty-node > rect.node-body')].map(r =>
        r.getBoundingClientRect(),
    );
    const outside = boxes.filter(
        b =>
            b.left < svg.left - 0.5 ||
            b.top < svg.top - 0.5 ||
            b.right > panel.right + 0.5 ||
            b.bottom > panel.bottom + 0.5,
    );
    return { boxes: boxes.length, outside: outside.length };
}

/** Visible diagram texts and how many of them overlap another. */
function overlappingTexts(): { texts: number; overlapping: number } {
    const rects = [...document.querySelectorAll('[id$="_container"] svg.sprotty-graph text')]
        .map(t => t.getBoundingClientRect())
        .filter(r => r.width > 0 && r.height > 0);
    const hit = (a: DOMRect, b: DOMRect) =>
        a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const overlapping = rects.filter((a, i) => rects.some((b, j) => i !== j && hit(a, b))).length;
    return { texts: rects.length, overlapping };
}

const visibleControls = (frame: Frame) =>
    frame
        .locator('.chainlab-toolbar [data-control]:visible')
        .evaluateAll(es => es.map(e => (e as HTMLElement).dataset.control)) as Promise<string[]>;

describe('every diagram view in VS Code, beside the editor, light and dark', () => {
    const opened: Frame[] = [];

    for (const view of VIEWS) {
        test(`${view.name}: readable text, contrast ≥ 4.5:1 in both themes, only its own controls`, async () => {
            const frame = await openView(view, opened);
            opened.push(frame);
            expect(await visibleControls(frame)).toEqual([...ZOOM, ...view.controls, 'export']);
            const checked: string[] = [];
            await shotInBothThemes(
                page,
                [frame],
                theme => join(artifacts, `view-${view.name}-${theme}.png`),
                async () => {
                    const theme = await currentTheme(page);
                    if (view.popup) await hoverNode(page, frame, view.popup.node, view.popup.from, view.popup.says);
                    const text = await frame.evaluate(smallestDiagramText);
                    expect(text.count, `${view.name}: diagram texts`).toBeGreaterThan(0);
                    expect(
                        text.min,
                        `${view.name} (${theme}): smallest text ${text.min.toFixed(1)} px`,
                    ).toBeGreaterThanOrEqual(10.9);
                    const contrast = await frame.evaluate(contrastOffenders, 4.5);
                    expect(contrast.offenders, `${view.name} (${theme}): texts below 4.5:1`).toEqual([]);
                    expect(contrast.checked, `${view.name} (${theme}): texts on screen`).toBeGreaterThan(0);
                    checked.push(`${theme} ${contrast.checked} texts, lowest ${contrast.lowest.ratio}:1`);
                },
            );
            console.log(`${view.name}: ${checked.join('; ')}`);
        });
    }

    test('Readable, −, +, 100 % and the wheel zoom the diagram in its panel (1.15× a step); Fit shows every box', async () => {
        const frame = opened[0]; // the X-ray box chain
        await page.locator('.tab', { hasText: 'xray.chain: XRay (box chain)' }).first().click();
        await expect.poll(() => frame.locator('button[data-control="readable"]').isVisible()).toBe(true);
        await frame.locator('button[data-control="readable"]').click();
        await page.waitForTimeout(300);
        const fitted = await zoomOf(frame);
        await frame.locator('button[data-control="zoom-in"]').click();
        await expect.poll(() => zoomOf(frame)).toBeCloseTo(fitted * 1.15, 3);
        await frame.locator('button[data-control="zoom-out"]').click();
        await frame.locator('button[data-control="zoom-out"]').click();
        await expect.poll(() => zoomOf(frame)).toBeCloseTo(fitted / 1.15, 3);
        await frame.locator('button[data-control="zoom-reset"]').click();
        await expect.poll(() => zoomOf(frame)).toBeCloseTo(1, 5);
        // Fit: the whole chain, every box drawn inside the diagram's part of the panel, at whatever zoom that takes
        await frame.locator('button[data-control="fit"]').click();
        await expect.poll(() => zoomOf(frame)).toBeLessThan(fitted);
        const placed = await frame.evaluate(boxesInPanel);
        expect(placed.boxes).toBeGreaterThan(20);
        expect(placed.outside).toBe(0);
        await frame.locator('button[data-control="readable"]').click();
        await expect.poll(() => zoomOf(frame)).toBeCloseTo(fitted, 5);
        const graph = (await frame.locator('svg.sprotty-graph').boundingBox())!;
        await page.mouse.move(graph.x + graph.width / 2, graph.y + graph.height / 2);
        await page.mouse.wheel(0, -100); // one notch
        await expect.poll(() => zoomOf(frame)).toBeCloseTo(fitted * 1.15, 3);
        await page.mouse.wheel(0, 100);
        await expect.poll(() => zoomOf(frame)).toBeCloseTo(fitted, 3);
    });

    test('a 200-box chain at Fit: every box inside the panel, labels that do not overlap, light and dark', async () => {
        const view: View = {
            name: 'synth-200',
            file: 'synth200',
            element: 'chain Synth',
            lens: 'Diagram',
            controls: [],
        };
        const layouts = join(
            workbench.server.dirs.user,
            'User',
            'globalStorage',
            'chainlab.chainlab-vscode',
            'layouts',
        );
        const drawings = () =>
            existsSync(layouts) ? readdirSync(layouts).filter(n => n.endsWith('.json.gz')).length : 0;
        const before = drawings();
        const frame = await openView(view, opened);
        // laid out while the panel loaded, for the size of the last box-chain panel: the drawing its request found
        // (a preparation for another size would leave two)
        expect(drawings()).toBe(before + 1);
        await frame.locator('button[data-control="fit"]').click();
        await expect.poll(() => frame.evaluate(boxesInPanel), { timeout: 20_000 }).toEqual({ boxes: 200, outside: 0 });
        const texts = await frame.evaluate(overlappingTexts);
        expect(texts.texts).toBeGreaterThan(0);
        expect(texts.overlapping).toBe(0);
        await shotInBothThemes(
            page,
            [frame],
            theme => join(artifacts, `view-synth-200-fit-${theme}.png`),
            async () => expect((await frame.evaluate(overlappingTexts)).overlapping).toBe(0),
        );
        console.log(
            `200 boxes at Fit: zoom ${(await zoomOf(frame)).toFixed(3)}, ${texts.texts} texts, none overlapping`,
        );
    });

    test('results on the model: the plan coloured by slack from its Options, with its key; light and dark', async () => {
        const frame = opened[1]; // the X-ray plan
        await page.locator('.tab', { hasText: 'XRay (plan' }).first().click();
        await frame.locator('.chainlab-options button').click();
        await frame.locator('select[data-control="colour-by"]').selectOption('slack');
        await frame.locator('g.chainlab-heat-key').waitFor({ timeout: 30_000 });
        const coloured = () => frame.locator('[id$="_container"] g.sprotty-node[class*="heat-"]').count();
        await expect.poll(coloured, { timeout: 10_000 }).toBeGreaterThan(0);
        expect(await frame.locator('g.chainlab-heat-key').textContent()).toMatch(/slack/i);
        await page.keyboard.press('Escape'); // the options panel closed, as a user leaves it
        await shotInBothThemes(
            page,
            [frame],
            theme => join(artifacts, `view-xray-plan-slack-${theme}.png`),
            async () => {
                const contrast = await frame.evaluate(contrastOffenders, 4.5);
                expect(contrast.offenders, `plan coloured by slack (${await currentTheme(page)})`).toEqual([]);
            },
        );
        // the text does not change with an option
        expect(await page.locator('.tab.dirty').count()).toBe(0);
    });

    test('the Options choice is kept: the plan closed and opened again is still coloured by slack', async () => {
        await page.locator('.tab', { hasText: 'XRay (plan' }).first().click();
        await runCommand(page, 'View: Close Editor');
        await expect.poll(() => page.locator('.tab', { hasText: 'XRay (plan' }).count()).toBe(0);
        const frame = await openView(VIEWS[1], page.frames()); // a new frame: none of the panels open now
        await frame.locator('g.chainlab-heat-key').waitFor({ timeout: 30_000 });
        expect(await frame.locator('g.chainlab-heat-key').textContent()).toMatch(/slack/i);
        await frame.locator('.chainlab-options button').click();
        expect(await frame.locator('select[data-control="colour-by"]').inputValue()).toBe('slack');
    });
});
