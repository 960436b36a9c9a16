/**
 * The plot panel's webview (a plain webview, no network, no inline script): the plot view drawn with Observable
 * Plot from what the extension posts (the latency distributions of an analysis or a run, an offset sweep, the
 * nearby periods), its requests posted back. The view itself is plot/view.ts, which report.html draws with too.
 */
import type { PlotRequest, PlotViewData } from '../src/plot-messages';
import { PlotView } from './plot/view';

const vscode = (
    globalThis as unknown as { acquireVsCodeApi?: () => { postMessage(m: PlotRequest): void } }
).acquireVsCodeApi?.();
const post = (message: PlotRequest) => vscode?.postMessage(message);

const view = new PlotView(document.getElementById('plot')!, {
    save: (format, name, content) => post({ type: 'export', format, name, content }),
    compare: () => post({ type: 'compare' }),
    openReport: () => post({ type: 'openReport' }),
    applyBest: () => post({ type: 'applyBest' }),
    applyProposal: index => post({ type: 'applyProposal', index }),
});

window.addEventListener('message', event => {
    const message = event.data as PlotViewData;
    if (message?.view !== 'latency' && message?.view !== 'explore' && message?.view !== 'periods') return;
    view.show(message);
});
// the panel's width changes the chart's: draw again when it settles
let resizing: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => view.render(), 150);
});
post({ type: 'ready' });
